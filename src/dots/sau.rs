//! The SAU platform protocol (SAU Game Platform of Shenyang Aerospace University, used by
//! the Chinese computer-games championships for 点格棋), as `quartet dots --protocol sau`.
//! The specification and its source are in `protocols/dots.md`.
//!
//! One line per command, words separated by spaces. The platform sends `name?`,
//! `new black|white`, `move <n> <KIJ...>` (the opponent's whole turn), `error`, `end
//! [winner]` and `quit`; the engine answers `name <name>` and `move <n> <KIJ...>` (its own
//! whole turn: every capture and the edge that ends the turn).
//!
//! An edge `KIJ` is three capital letters counted from `A` = 0, with the origin at the top
//! left: `K` is `A` for a horizontal line, `B` for a vertical one; `I` is the line (row of
//! a horizontal line, from the top; column of a vertical one, from the left); `J` is the
//! segment on it (column of a horizontal segment, row from the top of a vertical one).
//!
//! This module parses, keeps the game and formats; the `Player` chooses the edges, and
//! [`run_stdio`] reads the platform's lines one at a time, each answered before the next
//! is read. Nothing the platform sends can panic: a command it cannot use is logged
//! (stderr) and ignored, and the board changes only when a whole turn is legal.
//!
//! The protocol has no command that stops a turn: each runs to its move time, and `quit`
//! or the end of input is read after it. Only the platform leaving (nobody reads stdout
//! any more, [`crate::protocol::controller`]) stops a running search, and the engine exits.
use super::geometry::Geometry;
use super::player::Player;
use super::Board;
use crate::color::Color;
use crate::protocol::lines::{excerpt, read_lines, Line, LineEnds, LineSplitter, MAX_LINE};
use crate::search::time::TimeSettings;
use crate::search::{StopToken, TimeManager};
use std::io::{self, Write};
use std::time::Instant;

/// `KIJ` for edge `e` (the caller keeps `e` on the board).
pub fn format_edge(geo: &Geometry, e: usize) -> String {
    let (c, r) = (geo.cols(), geo.rows());
    let h = c * (r + 1);
    let letter = |n: usize| (b'A' + n as u8) as char;
    if e < h {
        let (x, y) = (e % c, e / c);
        [letter(0), letter(r - y), letter(x)].iter().collect()
    } else {
        let (x, y) = ((e - h) % (c + 1), (e - h) / (c + 1));
        [letter(1), letter(x), letter(r - 1 - y)].iter().collect()
    }
}

/// The edge named by three letters `KIJ` (any case), if it lies on the board.
pub fn parse_edge(geo: &Geometry, s: &[u8]) -> Option<usize> {
    let [k, i, j] = s else {
        return None;
    };
    let num = |b: u8| {
        let b = b.to_ascii_uppercase();
        b.is_ascii_uppercase().then(|| (b - b'A') as usize)
    };
    let (k, i, j) = (num(*k)?, num(*i)?, num(*j)?);
    let (c, r) = (geo.cols(), geo.rows());
    match k {
        // Horizontal: line i from the top (0..=r), segment j (0..c).
        0 if i <= r && j < c => Some((r - i) * c + j),
        // Vertical: line i from the left (0..=c), segment j from the top (0..r).
        1 if i <= c && j < r => Some(c * (r + 1) + (r - 1 - j) * (c + 1) + i),
        _ => None,
    }
}

/// What the front end does after a platform line.
#[derive(Debug, PartialEq, Eq)]
pub enum SauFlow {
    /// Print these lines (possibly none) and read on.
    Reply(Vec<String>),
    Quit,
}

pub struct SauEngine {
    board: Board,
    /// Our colour while a game runs.
    me: Option<Color>,
    player: Player,
    time: TimeManager,
    /// Edges of our last turn, taken back on `error`.
    last_turn: Vec<usize>,
    /// First edges of our turns the platform refused in the current position: the next
    /// try must start elsewhere, or a deterministic player would offer the same turn for
    /// ever.
    refused: Vec<usize>,
    /// Stops every search of the session: tripped only when the platform has left.
    stop: StopToken,
}

/// Longest excerpt of a platform line copied into a warning.
const LOG_EXCERPT: usize = 40;

impl SauEngine {
    pub fn new(geo: Geometry, player: Player, time: TimeSettings) -> SauEngine {
        SauEngine {
            board: Board::from_geometry(geo),
            me: None,
            player,
            time: TimeManager::new(time),
            last_turn: Vec::new(),
            refused: Vec::new(),
            stop: StopToken::new(),
        }
    }

    /// The token that stops the session's searches (for the output watcher).
    pub fn stop_token(&self) -> StopToken {
        self.stop.clone()
    }

    /// Readies the player's search tables for the board (see `Player::prepare`).
    pub fn prepare(&mut self) {
        self.player.prepare(&self.board);
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Handles one line from the platform. Blocks while the player searches (each edge
    /// within the move time).
    pub fn handle(&mut self, line: &str) -> SauFlow {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else {
            return SauFlow::Reply(vec![]);
        };
        let out = match cmd.to_ascii_lowercase().as_str() {
            "name?" => vec![format!("name {}", self.player.name())],
            "new" => self.new_game(args),
            "move" => self.opponent_turn(args),
            "error" => self.retry(),
            "end" => {
                tracing::info!("game over ({})", args.join(" "));
                self.me = None;
                vec![]
            }
            "quit" => return SauFlow::Quit,
            _ => {
                tracing::warn!(
                    "unknown SAU command ignored: {}",
                    excerpt(line.trim_end(), LOG_EXCERPT)
                );
                vec![]
            }
        };
        SauFlow::Reply(out)
    }

    fn new_game(&mut self, args: &[&str]) -> Vec<String> {
        let me = match args {
            [side] if side.eq_ignore_ascii_case("black") => Color::Black,
            [side] if side.eq_ignore_ascii_case("white") => Color::White,
            _ => {
                tracing::warn!(
                    "new: expected black or white, got {}",
                    excerpt(&args.join(" "), LOG_EXCERPT)
                );
                return vec![];
            }
        };
        self.board = Board::from_geometry(self.board.geometry().clone());
        self.me = Some(me);
        self.last_turn.clear();
        self.refused.clear();
        self.our_turn()
    }

    /// `move <n> <KIJ...>`: the opponent's turn, all edges or none. The list may also come
    /// split into several words.
    fn opponent_turn(&mut self, args: &[&str]) -> Vec<String> {
        match self.apply_opponent(args) {
            Ok(()) => {
                self.refused.clear();
                self.our_turn()
            }
            Err(why) => {
                tracing::warn!(
                    "move {} ignored: {}",
                    excerpt(&args.join(" "), LOG_EXCERPT),
                    excerpt(&why, 2 * LOG_EXCERPT)
                );
                vec![]
            }
        }
    }

    fn apply_opponent(&mut self, args: &[&str]) -> Result<(), String> {
        let me = self.me.ok_or("no game (expected new black|white first)")?;
        let (n, list) = args.split_first().ok_or("missing edge count")?;
        let n: usize = n.parse().map_err(|_| format!("bad edge count {n:?}"))?;
        let list: String = list.concat();
        if list.len() != 3 * n || n == 0 {
            return Err(format!("{n} edges announced, {:?} given", list));
        }
        if self.board.to_move() == me {
            return Err("it is our turn".into());
        }
        let mut b = self.board.clone();
        for (k, kij) in list.as_bytes().chunks(3).enumerate() {
            let text = String::from_utf8_lossy(kij);
            if b.to_move() == me {
                return Err(format!("edge {} ({text}) after the turn ended", k + 1));
            }
            let e = parse_edge(b.geometry(), kij).ok_or(format!("bad edge {text}"))?;
            b.play(e).map_err(|err| format!("edge {text}: {err}"))?;
        }
        if !b.is_over() && b.to_move() != me {
            return Err("the turn ends with a capture but the board is not full".into());
        }
        self.board = b;
        Ok(())
    }

    /// Plays our whole turn (nothing if the game is over or not ours) and formats it.
    fn our_turn(&mut self) -> Vec<String> {
        let Some(me) = self.me else {
            return vec![];
        };
        self.last_turn.clear();
        while !self.board.is_over() && self.board.to_move() == me {
            let start = Instant::now();
            let undrawn = self.board.legal_edges().count() as u32;
            let (soft, hard) = self.time.budget(me, undrawn / 2 + 1);
            let avoid: &[usize] = if self.last_turn.is_empty() {
                &self.refused
            } else {
                &[]
            };
            let Some(e) = self.player.choose_avoiding(
                &self.board,
                soft,
                hard,
                Some(self.stop.clone()),
                avoid,
            ) else {
                if !avoid.is_empty() {
                    tracing::warn!("error: every edge has been refused here; no move left");
                }
                break;
            };
            self.time.spent(me, start.elapsed());
            self.board.play(e).expect("the player returns a legal edge");
            self.last_turn.push(e);
        }
        if self.last_turn.is_empty() {
            return vec![];
        }
        let geo = self.board.geometry();
        let list: String = self
            .last_turn
            .iter()
            .map(|&e| format_edge(geo, e))
            .collect();
        vec![format!("move {} {list}", self.last_turn.len())]
    }

    /// `error`: the platform refused our last turn; take it back and choose again.
    fn retry(&mut self) -> Vec<String> {
        if self.last_turn.is_empty() {
            tracing::warn!("error: no turn of ours to take back");
            return vec![];
        }
        for _ in 0..self.last_turn.len() {
            self.board.undo();
        }
        self.refused.push(self.last_turn[0]);
        self.our_turn()
    }
}

/// Serves the platform on stdin/stdout: one line in, the engine's lines out (flushed at
/// once), until `quit`, the end of input or the platform leaving. Lines are capped like
/// GTP's ([`MAX_LINE`]): a longer one is drained and ignored.
pub fn run_stdio(mut engine: SauEngine) -> io::Result<()> {
    let stop = engine.stop_token();
    crate::protocol::controller::watch_stdout(move || stop.stop());
    let mut out = io::stdout();
    let mut failed = None;
    let splitter = LineSplitter::new(MAX_LINE, LineEnds::Lf);
    read_lines(io::stdin().lock(), splitter, |line| {
        let bytes = match line {
            Line::TooLong { len, .. } => {
                tracing::warn!("line of {len} bytes ignored (the limit is {MAX_LINE})");
                return true;
            }
            Line::Text(bytes) => bytes,
        };
        // Bytes that are not UTF-8 cannot form a command; they are ignored like any noise.
        match engine.handle(&String::from_utf8_lossy(&bytes)) {
            SauFlow::Quit => false,
            SauFlow::Reply(lines) => {
                let written = lines
                    .iter()
                    .try_for_each(|l| writeln!(out, "{l}"))
                    .and_then(|()| out.flush());
                if let Err(e) = written {
                    failed = Some(e);
                }
                failed.is_none()
            }
        }
    });
    match failed {
        None => Ok(()),
        Some(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            tracing::info!("output closed by the platform");
            Ok(())
        }
        Some(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SAU document's frame: `Board[2][6][5]` on 6x6 dots, K = 0 horizontal, 1
    /// vertical; origin top left. Checked against our own dot names.
    #[test]
    fn kij_matches_the_dot_names() {
        let g = Geometry::new(5, 5).unwrap();
        let name = |kij: &str| {
            g.edge_dots(parse_edge(&g, kij.as_bytes()).unwrap())
                .to_string()
        };
        // Top-left horizontal segment: row 0 from the top = dots a6-b6.
        assert_eq!(name("AAA"), "a6-b6");
        // Bottom row, last segment: a1.. -> e1-f1.
        assert_eq!(name("AFE"), "e1-f1");
        // Leftmost vertical line, top segment: a5-a6; bottom segment: a1-a2.
        assert_eq!(name("BAA"), "a5-a6");
        assert_eq!(name("BAE"), "a1-a2");
        // Rightmost vertical line, second segment from the top: f4-f5.
        assert_eq!(name("BFB"), "f4-f5");
        assert_eq!(name("bfb"), "f4-f5");
        for bad in ["AGA", "AAF", "BGA", "BAF", "CAA", "AA", "AAAA", "1AA"] {
            assert_eq!(parse_edge(&g, bad.as_bytes()), None, "{bad}");
        }
        for (c, r) in [(5, 5), (2, 3), (8, 8), (1, 1)] {
            let g = Geometry::new(c, r).unwrap();
            for e in 0..g.n_edges() {
                assert_eq!(parse_edge(&g, format_edge(&g, e).as_bytes()), Some(e));
            }
        }
    }
}
