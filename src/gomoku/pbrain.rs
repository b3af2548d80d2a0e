//! The Gomocup (Piskvork) protocol, "pbrain": plain text lines, coordinates `x,y` from the
//! top-left corner, 0-based. The brain answers `OK`, a move `x,y`, `ERROR msg`, `MESSAGE ..`
//! or `UNKNOWN`.
//!
//! Threads: one reader thread feeds lines to the dispatcher over a channel. On `END` the
//! reader also trips the stop token of the running search through [`EndSignal`] (the
//! search returns at once, and commands still queued are answered without thinking) and
//! arms a watchdog that exits the process
//! 900 ms later, so the brain leaves within 1 s of END whatever it is doing. The dispatcher
//! ([`Brain::handle`]) owns the game and blocks only for a search, bounded by the turn and
//! match time and by the stop token.
use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::board::{valid_size, Point, Rule};
use super::game::Game;
use super::search::{SearchConfig, Searcher};
use crate::color::Color;
use crate::search::{Deadline, Limits, StopToken};

/// Milliseconds kept back from each move for pipe and process latency.
const SAFETY_MS: u64 = 60;

/// END's way into a running search. Every search gets a fresh token (a token tripped by
/// one search's hard deadline must not stop the next: issue 18), unless END came, which
/// trips the current token and every later one. One mutex orders the two, so an END that
/// arrives while a search starts is never lost.
#[derive(Clone, Debug, Default)]
pub struct EndSignal(Arc<Mutex<(bool, StopToken)>>);

impl EndSignal {
    /// Stops the running search and every later one; never blocks for long.
    pub fn end(&self) {
        let mut g = self.0.lock().unwrap_or_else(|e| e.into_inner());
        g.0 = true;
        g.1.stop();
    }

    /// The token for a search about to start.
    pub fn token_for_search(&self) -> StopToken {
        let mut g = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if !g.0 {
            g.1 = StopToken::new();
        }
        g.1.clone()
    }
}

pub struct Brain {
    game: Option<Game>,
    rule: Rule,
    searcher: Searcher,
    /// Our colour in the current game (known once we or the opponent moved first).
    me: Option<Color>,
    timeout_turn: Option<u64>,
    timeout_match: Option<u64>,
    time_left: Option<u64>,
    default_move: Duration,
    /// Inside BOARD ... DONE: the stones read so far (x, y, field).
    board_lines: Option<Vec<(usize, usize, u8)>>,
    /// Tripped by the reader on END.
    end: EndSignal,
}

impl Brain {
    pub fn new(config: SearchConfig, default_move: Duration) -> Brain {
        Brain {
            game: None,
            rule: Rule::Freestyle,
            searcher: Searcher::new(config),
            me: None,
            timeout_turn: None,
            timeout_match: None,
            time_left: None,
            default_move,
            board_lines: None,
            end: EndSignal::default(),
        }
    }

    /// Answers one input line (without its line end); an empty vector means no answer.
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        let line = line.trim();
        if let Some(lines) = self.board_lines.as_mut() {
            if line.eq_ignore_ascii_case("DONE") {
                let lines = self.board_lines.take().unwrap_or_default();
                return vec![self.board_done(&lines)];
            }
            match parse_triple(line) {
                Some(t) => lines.push(t),
                None => {
                    self.board_lines = None;
                    return vec![format!("ERROR bad BOARD line {line:?}")];
                }
            }
            return Vec::new();
        }
        if line.is_empty() {
            return Vec::new();
        }
        let (cmd, rest) = match line.find(|c: char| c.is_whitespace()) {
            Some(i) => (&line[..i], line[i..].trim()),
            None => (line, ""),
        };
        let answer = match cmd.to_ascii_uppercase().as_str() {
            "START" => self.start(rest),
            "RECTSTART" => self.rectstart(rest),
            "RESTART" => match self.game.as_ref().map(|g| g.size()) {
                Some(n) => self.new_game(n),
                None => "ERROR no game started".into(),
            },
            "BEGIN" => match self.game.as_ref() {
                Some(g) if g.move_count() == 0 => {
                    self.me = Some(Color::Black);
                    self.think()
                }
                Some(_) => "ERROR BEGIN on a non-empty board".into(),
                None => "ERROR no game started".into(),
            },
            "TURN" => self.turn(rest),
            "BOARD" => {
                if self.game.is_none() {
                    "ERROR no game started".into()
                } else {
                    self.board_lines = Some(Vec::new());
                    return Vec::new();
                }
            }
            "TAKEBACK" => self.takeback(rest),
            "INFO" => {
                self.info(rest);
                return Vec::new();
            }
            "ABOUT" => format!(
                "name=\"quartet\", version=\"{}\", author=\"quartet developers\", country=\"-\"",
                env!("CARGO_PKG_VERSION")
            ),
            _ => "UNKNOWN".into(),
        };
        vec![answer]
    }

    fn new_game(&mut self, n: usize) -> String {
        self.game = Some(Game::new(n, self.rule));
        self.me = None;
        self.searcher.clear();
        "OK".into()
    }

    fn start(&mut self, rest: &str) -> String {
        match rest.parse::<usize>() {
            Ok(n) if valid_size(n) => self.new_game(n),
            _ => format!("ERROR unsupported size {rest:?} (5..=22)"),
        }
    }

    fn rectstart(&mut self, rest: &str) -> String {
        let dims: Vec<Option<usize>> = rest.split(',').map(|s| s.trim().parse().ok()).collect();
        match dims.as_slice() {
            [Some(w), Some(h)] if w == h && valid_size(*w) => self.new_game(*w),
            _ => "ERROR only square boards 5..=22 are supported".into(),
        }
    }

    fn point(&self, x: usize, y: usize) -> Option<Point> {
        let g = self.game.as_ref()?;
        let n = g.size();
        (x < n && y < n).then(|| g.board().point(x, n - 1 - y))
    }

    fn xy(&self, p: Point) -> String {
        let g = self.game.as_ref().expect("a game is running");
        let (c, r) = g.board().col_row(p);
        format!("{},{}", c, g.size() - 1 - r)
    }

    fn turn(&mut self, rest: &str) -> String {
        let Some(game) = self.game.as_ref() else {
            return "ERROR no game started".into();
        };
        let opp = game.to_move();
        let Some(p) = parse_pair(rest).and_then(|(x, y)| self.point(x, y)) else {
            return format!("ERROR bad coordinates {rest:?}");
        };
        let game = self.game.as_mut().expect("checked");
        if let Err(e) = game.play(opp, p) {
            return format!("ERROR {}", e.message());
        }
        self.me = Some(opp.opponent());
        self.think()
    }

    fn takeback(&mut self, rest: &str) -> String {
        let Some(p) = parse_pair(rest).and_then(|(x, y)| self.point(x, y)) else {
            return format!("ERROR bad coordinates {rest:?}");
        };
        let game = self.game.as_mut().expect("point() needs a game");
        if game.board().history().last() == Some(&p) {
            game.undo();
            "OK".into()
        } else {
            "ERROR can only take back the last move".into()
        }
    }

    /// BOARD ... DONE: field 1 = our stone, 2 = the opponent's, 3 = continuous-game stone
    /// (treated as the opponent's). The lines are in move order; we are to move.
    fn board_done(&mut self, lines: &[(usize, usize, u8)]) -> String {
        let n = self.game.as_ref().map_or(0, |g| g.size());
        let mine = lines.iter().filter(|t| t.2 == 1).count();
        let theirs = lines.len() - mine;
        // Black moves first, so with equal counts we are Black.
        let me = if mine == theirs {
            Color::Black
        } else if mine + 1 == theirs {
            Color::White
        } else {
            // Not a position of alternate moves: still play, as the side with fewer stones.
            if mine < theirs {
                Color::White
            } else {
                Color::Black
            }
        };
        let mut g = Game::new(n, self.rule);
        for &(x, y, f) in lines {
            if x >= n || y >= n || !(1..=3).contains(&f) {
                return format!("ERROR bad BOARD stone {x},{y},{f}");
            }
            let c = if f == 1 { me } else { me.opponent() };
            let p = g.board().point(x, n - 1 - y);
            if !g.board().is_empty(p) {
                return format!("ERROR stone twice at {x},{y}");
            }
            g.setup(c, p);
        }
        self.game = Some(g);
        self.me = Some(me);
        self.think()
    }

    fn info(&mut self, rest: &str) {
        let mut it = rest.split_whitespace();
        let (Some(key), Some(value)) = (it.next(), it.next()) else {
            return;
        };
        let Ok(v) = value.parse::<i64>() else {
            tracing::warn!("INFO {key}: value {value:?} is not a number; ignored");
            return;
        };
        let ms = v.max(0) as u64;
        match key.to_ascii_lowercase().as_str() {
            "timeout_turn" => self.timeout_turn = Some(ms),
            "timeout_match" => self.timeout_match = Some(ms),
            "time_left" => self.time_left = Some(ms),
            // Half the allowance for the table, a quarter for the threat cache (sized
            // from the table), the rest for everything else.
            "max_memory" if ms > 0 => {
                let mb = ((ms / 2) >> 20).clamp(1, 4096) as usize;
                if mb < self.searcher.config.tt_mb {
                    self.searcher.resize_tt(mb);
                }
            }
            "rule" => {
                self.rule = if v & 4 != 0 {
                    Rule::Renju
                } else if v & 1 != 0 {
                    Rule::Standard
                } else {
                    Rule::Freestyle
                };
                if let Some(g) = self.game.as_mut() {
                    g.set_rule(self.rule);
                }
            }
            _ => {}
        }
    }

    /// This move's thinking time: the turn limit, and a share of the match time left.
    fn budget(&self) -> Duration {
        let mut ms = match self.timeout_turn {
            Some(0) => 10,
            Some(t) => t,
            None => self.default_move.as_millis() as u64,
        };
        let left = self.time_left.or(self.timeout_match.filter(|&m| m > 0));
        if let Some(left) = left {
            let g = self.game.as_ref().expect("a game is running");
            let empty = (g.size() * g.size() - g.move_count()) as u64;
            ms = ms.min(left / (empty / 2).clamp(10, 40));
        }
        let ms = ms.saturating_sub(ms / 20).saturating_sub(SAFETY_MS).max(5);
        Duration::from_millis(ms)
    }

    fn think(&mut self) -> String {
        let t = self.budget();
        let Some(game) = self.game.as_mut() else {
            return "ERROR no game started".into();
        };
        if game.outcome().is_some() {
            return "ERROR game is over".into();
        }
        let me = self.me.unwrap_or(game.to_move());
        let limits = Limits::new(Deadline::after(t, t), None, self.end.token_for_search());
        let report = self.searcher.search(game.board_mut(), me, &limits);
        tracing::info!(
            nodes = report.nodes,
            depth = report.depth,
            score = report.score,
            source = report.source,
            ms = report.elapsed.as_millis() as u64,
            "move"
        );
        if game.play(me, report.best).is_err() {
            return "ERROR internal: no legal move".into();
        }
        self.xy(report.best)
    }
}

fn parse_pair(s: &str) -> Option<(usize, usize)> {
    let mut it = s.split(',').map(|t| t.trim().parse::<usize>().ok());
    match (it.next(), it.next(), it.next()) {
        (Some(Some(x)), Some(Some(y)), None) => Some((x, y)),
        _ => None,
    }
}

fn parse_triple(s: &str) -> Option<(usize, usize, u8)> {
    let mut it = s.split(',').map(|t| t.trim().parse::<usize>().ok());
    match (it.next(), it.next(), it.next(), it.next()) {
        (Some(Some(x)), Some(Some(y)), Some(Some(f)), None) if f <= 3 => Some((x, y, f as u8)),
        _ => None,
    }
}

/// Runs the brain on stdin/stdout until END or end of input.
pub fn run_stdio(config: SearchConfig, default_move: Duration) -> io::Result<()> {
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let brain = Brain::new(config, default_move);
    let end_signal = brain.end.clone();
    std::thread::spawn(move || {
        let stdin = io::stdin();
        let mut buf = Vec::new();
        let mut lock = stdin.lock();
        loop {
            buf.clear();
            match lock.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&buf).trim().to_string();
            let end = line.eq_ignore_ascii_case("END");
            if end {
                end_signal.end();
                std::thread::spawn(|| {
                    std::thread::sleep(Duration::from_millis(900));
                    let _ = io::stdout().flush();
                    std::process::exit(0);
                });
            }
            if tx.send(line).is_err() || end {
                break;
            }
        }
    });
    let mut brain = brain;
    let stdout = io::stdout();
    for line in rx {
        if line.eq_ignore_ascii_case("END") {
            break;
        }
        let answers = brain.handle(&line);
        let mut out = stdout.lock();
        for a in answers {
            writeln!(out, "{a}")?;
        }
        out.flush()?;
    }
    Ok(())
}
