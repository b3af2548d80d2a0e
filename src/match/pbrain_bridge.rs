//! Lets a Gomocup (`pbrain`) brain take part in a match run by the GTP referee.
//!
//! The referee speaks GTP to every engine; for a brain the client runs each GTP command
//! through [`PbrainBridge::translate`], which either answers it locally or says which
//! protocol lines to write and what answer to wait for. The Gomocup protocol has no way to
//! tell a brain an opponent's move without asking for its reply, so `play` only records the
//! move, and `genmove` sends whatever the brain has not seen: `BEGIN` on an empty board,
//! `TURN x,y` for the single move since the brain's last one, otherwise the whole position
//! as `BOARD ... DONE` (after an opening, or when the referee replays moves).
//!
//! Coordinates: a brain's `x,y` counts columns from the left and rows from the top, both
//! from 0; GTP vertices count rows from the bottom.
use super::gtp_client::ClientError;
use crate::color::Color;
use crate::protocol::coords::{format_vertex, parse_vertex};

/// What the client must do for one GTP command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Answer at once, writing nothing.
    Answer(Result<String, ClientError>),
    /// Write these lines, then answer `=` without reading (INFO and END get no reply).
    Tell(Vec<String>),
    /// Write these lines, then wait for `OK`.
    ExpectOk(Vec<String>),
    /// Write these lines, then wait for the brain's move (`x,y`), played by `Color`.
    ExpectMove(Vec<String>, Color),
}

/// The translation state of one brain.
#[derive(Clone, Debug, Default)]
pub struct PbrainBridge {
    size: usize,
    started: bool,
    moves: Vec<(Color, (usize, usize))>,
    /// How many of `moves` the brain knows.
    synced: usize,
}

fn failure(text: &str) -> Step {
    Step::Answer(Err(ClientError::Failure(text.to_string())))
}

fn ok() -> Step {
    Step::Answer(Ok(String::new()))
}

/// Whole seconds of a GTP time argument as protocol milliseconds.
fn millis(word: Option<&String>) -> Option<u64> {
    let secs: f64 = word?.parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| (secs * 1000.0).round() as u64)
}

impl PbrainBridge {
    pub fn new() -> PbrainBridge {
        PbrainBridge {
            size: 15,
            ..PbrainBridge::default()
        }
    }

    /// The brain's `x,y` for a GTP (column, row-from-bottom) point.
    fn xy(&self, (c, r): (usize, usize)) -> String {
        format!("{},{}", c, self.size - 1 - r)
    }

    /// The next step for one GTP command line.
    pub fn translate(&mut self, command: &str) -> Step {
        let words: Vec<String> = command.split_whitespace().map(str::to_string).collect();
        let Some(name) = words.first() else {
            return failure("empty command");
        };
        let args = &words[1..];
        match name.to_ascii_lowercase().as_str() {
            "boardsize" => match args.first().and_then(|s| s.parse::<usize>().ok()) {
                Some(n) if (5..=25).contains(&n) && !self.started => {
                    self.size = n;
                    ok()
                }
                Some(n) if n == self.size => ok(),
                _ => failure("unacceptable size"),
            },
            "clear_board" => {
                self.moves.clear();
                self.synced = 0;
                let line = if self.started {
                    "RESTART".to_string()
                } else {
                    format!("START {}", self.size)
                };
                self.started = true;
                Step::ExpectOk(vec![line])
            }
            "rule" => {
                let bits = match args.first().map(|s| s.to_ascii_lowercase()).as_deref() {
                    Some("freestyle") => 0,
                    Some("standard") => 1,
                    Some("renju") => 4,
                    _ => return failure("unknown rule"),
                };
                Step::Tell(vec![format!("INFO rule {bits}")])
            }
            "time_settings" => {
                let (main, byo) = (millis(args.first()), millis(args.get(1)));
                match (main, byo) {
                    // Per-move limit; the match as a whole is not limited (0).
                    (Some(0), Some(b)) if b > 0 => Step::Tell(vec![
                        format!("INFO timeout_turn {b}"),
                        "INFO timeout_match 0".to_string(),
                    ]),
                    (Some(m), _) if m > 0 => Step::Tell(vec![
                        format!("INFO timeout_match {m}"),
                        format!("INFO timeout_turn {m}"),
                        format!("INFO time_left {m}"),
                    ]),
                    _ => failure("syntax error"),
                }
            }
            "time_left" => match millis(args.get(1)) {
                Some(ms) => Step::Tell(vec![format!("INFO time_left {ms}")]),
                None => failure("syntax error"),
            },
            "play" => {
                let color = args.first().and_then(|c| c.parse::<Color>().ok());
                let point = args.get(1).map(|v| parse_vertex(v, self.size));
                match (color, point) {
                    (Some(color), Some(Ok(Some(p)))) if self.started => {
                        self.moves.push((color, p));
                        ok()
                    }
                    _ => failure("illegal move"),
                }
            }
            "genmove" => match args.first().and_then(|c| c.parse::<Color>().ok()) {
                Some(color) if self.started => Step::ExpectMove(self.catch_up(color), color),
                _ => failure("syntax error"),
            },
            "quit" => Step::Tell(vec!["END".to_string()]),
            "name" => Step::ExpectOk(vec!["ABOUT".to_string()]),
            _ => failure("unknown command"),
        }
    }

    /// The lines that bring the brain up to date and ask it for `color`'s move.
    fn catch_up(&self, color: Color) -> Vec<String> {
        let unseen = &self.moves[self.synced..];
        if self.moves.is_empty() {
            return vec!["BEGIN".to_string()];
        }
        if let [(c, p)] = unseen {
            if *c != color {
                return vec![format!("TURN {}", self.xy(*p))];
            }
        }
        let mut lines = vec!["BOARD".to_string()];
        for &(c, p) in &self.moves {
            let field = if c == color { 1 } else { 2 };
            lines.push(format!("{},{field}", self.xy(p)));
        }
        lines.push("DONE".to_string());
        lines
    }

    /// Reads the brain's move answer for `color`: the GTP vertex, recorded as played.
    /// A brain's own notes (`MESSAGE`, `DEBUG`) are filtered out before this is called.
    pub fn accept_move(&mut self, color: Color, line: &str) -> Result<String, ClientError> {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("ERROR") {
            return Err(ClientError::Failure(rest.trim().to_string()));
        }
        let parsed = line.split_once(',').and_then(|(x, y)| {
            let (x, y) = (
                x.trim().parse::<usize>().ok()?,
                y.trim().parse::<usize>().ok()?,
            );
            (x < self.size && y < self.size).then_some((x, self.size - 1 - y))
        });
        match parsed {
            Some(p) => {
                self.moves.push((color, p));
                self.synced = self.moves.len();
                Ok(format_vertex(Some(p)))
            }
            // Answered, but not a point on the board: the referee calls it malformed.
            None => Ok(line.to_string()),
        }
    }
}

/// Whether a brain's output line is a note rather than an answer.
pub fn is_note(line: &str) -> bool {
    let t = line.trim_start();
    t.is_empty() || t.starts_with("MESSAGE") || t.starts_with("DEBUG")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(step: Step) -> Vec<String> {
        match step {
            Step::Tell(l) | Step::ExpectOk(l) | Step::ExpectMove(l, _) => l,
            Step::Answer(a) => panic!("expected lines, got {a:?}"),
        }
    }

    #[test]
    fn a_game_from_the_start_uses_begin_and_turn() {
        let mut b = PbrainBridge::new();
        assert_eq!(b.translate("boardsize 15"), ok());
        assert_eq!(
            b.translate("clear_board"),
            Step::ExpectOk(vec!["START 15".into()])
        );
        assert_eq!(lines(b.translate("rule renju")), ["INFO rule 4"]);
        assert_eq!(
            lines(b.translate("time_settings 0 2 1")),
            ["INFO timeout_turn 2000", "INFO timeout_match 0"]
        );
        assert_eq!(
            b.translate("genmove black"),
            Step::ExpectMove(vec!["BEGIN".into()], Color::Black)
        );
        // 7,7 is the centre, column H (I is skipped), row 8.
        assert_eq!(b.accept_move(Color::Black, "7,7"), Ok("H8".into()));
        assert_eq!(b.translate("play white A1"), ok());
        // A1 is the bottom-left corner: x 0, y 14.
        assert_eq!(lines(b.translate("genmove black")), ["TURN 0,14"]);
        assert_eq!(b.accept_move(Color::Black, "8,7"), Ok("J8".into()));
        assert_eq!(lines(b.translate("quit")), ["END"]);
    }

    #[test]
    fn an_opening_is_sent_as_a_board() {
        let mut b = PbrainBridge::new();
        b.translate("boardsize 15");
        b.translate("clear_board");
        for cmd in ["play black H8", "play white J9", "play black G7"] {
            assert_eq!(b.translate(cmd), ok());
        }
        assert_eq!(
            lines(b.translate("genmove white")),
            ["BOARD", "7,7,2", "8,6,1", "6,8,2", "DONE"]
        );
        assert_eq!(b.accept_move(Color::White, "9,5"), Ok("K10".into()));
        // A second game on the same brain restarts it.
        assert_eq!(
            b.translate("clear_board"),
            Step::ExpectOk(vec!["RESTART".into()])
        );
        assert_eq!(lines(b.translate("genmove black")), ["BEGIN"]);
    }

    #[test]
    fn bad_commands_and_answers() {
        let mut b = PbrainBridge::new();
        assert!(matches!(b.translate("genmove black"), Step::Answer(Err(_))));
        assert!(matches!(b.translate("boardsize 40"), Step::Answer(Err(_))));
        assert!(matches!(b.translate("final_score"), Step::Answer(Err(_))));
        b.translate("clear_board");
        assert!(matches!(
            b.translate("play black Z99"),
            Step::Answer(Err(_))
        ));
        assert!(matches!(b.translate("rule chess"), Step::Answer(Err(_))));
        assert_eq!(
            b.accept_move(Color::Black, "ERROR no idea"),
            Err(ClientError::Failure("no idea".into()))
        );
        // Off the board or not a pair: passed on for the referee to call malformed.
        assert_eq!(b.accept_move(Color::Black, "15,0"), Ok("15,0".into()));
        assert_eq!(b.accept_move(Color::Black, "hello"), Ok("hello".into()));
        assert!(is_note("MESSAGE thinking") && is_note("DEBUG x") && !is_note("7,7"));
    }
}
