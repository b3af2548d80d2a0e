//! The Gomocup (Piskvork) protocol, "pbrain": plain text lines, coordinates `x,y` from the
//! top-left corner, 0-based. The brain answers `OK`, a move `x,y`, `ERROR msg`, `MESSAGE ..`
//! or `UNKNOWN`.
//!
//! Threads: one reader thread splits the input into lines ([`crate::protocol::lines`], any
//! newline ends a line) and feeds them, stamped with their arrival, to the dispatcher over
//! a bounded channel. The dispatcher ([`Brain::handle_at`]) owns the game and answers the
//! lines in order, blocking only for a search, bounded by the turn and match time
//! ([`super::pbrain_clock`]). What stops a running search:
//! - `END`: the protocol says the brain must then terminate as soon as possible (a manager
//!   kills one that takes a second). The reader trips the search's stop token through
//!   [`EndSignal`] (the search returns at once, and commands still queued are answered
//!   without thinking) and arms a watchdog that exits the process 900 ms later, so the
//!   brain leaves within 1 s of END whatever it is doing;
//! - the controller leaving (nobody reads stdout any more, [`crate::protocol::controller`]):
//!   the same stop, and the process exits;
//! - nothing else. End of input is not END: the lines already read are answered in full
//!   (a script piped in whole gets the moves it would get line by line), then the brain
//!   exits.
use std::io::{self, Write};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::board::{valid_size, Point, Rule, MAX_SIZE};
use super::game::{Game, Outcome};
use super::pbrain_clock::Clock;
use super::search::{SearchConfig, Searcher};
use super::swap2::{decide, Swap2Answer};
use crate::color::Color;
use crate::protocol::lines::{self, Line, LineEnds, LineSplitter, MAX_LINE};
use crate::search::{Deadline, Limits, StopToken};

/// Lines queued between reader and dispatcher: bounds memory to this many [`MAX_LINE`]s.
const CHANNEL_LINES: usize = 16;

/// Input silence after which the brain makes its tables (see `Brain::searcher`).
const QUIET_BEFORE_TABLES: Duration = Duration::from_millis(20);

/// END's way into a running search. Every search gets a fresh token (a token tripped by
/// one search's hard deadline must not stop the next), unless END came, which
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

/// Inside BOARD ... DONE or SWAP2BOARD ... DONE.
#[derive(Default)]
struct BoardBlock {
    /// SWAP2BOARD: lines `x,y`, in move order from Black.
    swap2: bool,
    /// The stones read so far (x, y, field; field 0 in a SWAP2BOARD block).
    stones: Vec<(usize, usize, u8)>,
    /// The first fault; the block is still read to DONE and then answered with it once.
    error: Option<String>,
}

impl BoardBlock {
    fn fail(&mut self, msg: String) {
        self.error.get_or_insert(msg);
    }
}

pub struct Brain {
    game: Option<Game>,
    rule: Rule,
    config: SearchConfig,
    /// Made once a game exists and the input has been quiet for [`QUIET_BEFORE_TABLES`]
    /// (the manager's INFO lines follow START at once), or at the first search: after
    /// `max_memory`, so its tables never exceed the limit, and, in a real game, outside
    /// the time of a move (filling 96 MB of tables can take seconds).
    searcher: Option<Searcher>,
    /// Our colour in the current game (known once we or the opponent moved first).
    me: Option<Color>,
    clock: Clock,
    default_move: Duration,
    board_block: Option<BoardBlock>,
    end: EndSignal,
}

impl Brain {
    pub fn new(config: SearchConfig, default_move: Duration) -> Brain {
        Brain {
            game: None,
            rule: Rule::Freestyle,
            config,
            searcher: None,
            me: None,
            clock: Clock::default(),
            default_move,
            board_block: None,
            end: EndSignal::default(),
        }
    }

    /// The signal the reader trips on END.
    pub fn end_signal(&self) -> EndSignal {
        self.end.clone()
    }

    /// Whether a game runs and the tables are still to be made.
    pub fn wants_tables(&self) -> bool {
        self.game.is_some() && self.searcher.is_none()
    }

    /// Makes the search tables now (while no move is being timed).
    pub fn make_tables(&mut self) -> &mut Searcher {
        let config = &self.config;
        self.searcher
            .get_or_insert_with(|| Searcher::new(config.clone()))
    }

    /// Answers one input line received now; see [`Brain::handle_at`].
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        self.handle_at(&Line::Text(line.as_bytes().to_vec()), Instant::now())
    }

    /// Answers one input line (without its line end) that arrived at `arrived`; an empty
    /// vector means no answer.
    pub fn handle_at(&mut self, line: &Line, arrived: Instant) -> Vec<String> {
        let text;
        let line = match line {
            Line::Text(bytes) => {
                text = String::from_utf8_lossy(bytes);
                text.trim()
            }
            Line::TooLong { .. } => {
                let msg = format!("line longer than {MAX_LINE} bytes ignored");
                return match self.board_block.as_mut() {
                    Some(block) => {
                        block.fail(msg);
                        Vec::new()
                    }
                    None => vec![format!("ERROR {msg}")],
                };
            }
        };
        if self.board_block.is_some() {
            return self.board_line(line, arrived);
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
                    self.think(arrived)
                }
                Some(_) => "ERROR BEGIN on a non-empty board".into(),
                None => "ERROR no game started".into(),
            },
            "TURN" => self.turn(rest, arrived),
            "BOARD" | "SWAP2BOARD" => {
                let mut block = BoardBlock {
                    swap2: cmd.eq_ignore_ascii_case("SWAP2BOARD"),
                    ..BoardBlock::default()
                };
                if self.game.is_none() {
                    block.fail(format!("{cmd} before START: no game started"));
                }
                self.board_block = Some(block);
                return Vec::new();
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

    /// One line inside BOARD ... DONE: a stone, or DONE, which answers the block once.
    fn board_line(&mut self, line: &str, arrived: Instant) -> Vec<String> {
        let block = self.board_block.as_mut().expect("inside a BOARD block");
        if line.eq_ignore_ascii_case("DONE") {
            let block = self.board_block.take().expect("inside a BOARD block");
            return vec![match block.error {
                Some(e) => format!("ERROR {e}"),
                None if block.swap2 => self.swap2_done(&block.stones, arrived),
                None => self.board_done(&block.stones, arrived),
            }];
        }
        if line.is_empty() {
            return Vec::new();
        }
        let parsed = if block.swap2 {
            parse_pair(line).map(|(x, y)| (x, y, 0))
        } else {
            parse_triple(line)
        };
        match parsed {
            Some(_) if block.stones.len() >= MAX_SIZE * MAX_SIZE => {
                block.fail("more BOARD lines than points".into());
            }
            Some(t) => block.stones.push(t),
            None if block.swap2 => block.fail(format!(
                "bad SWAP2BOARD line {} (expected x,y)",
                shown(line)
            )),
            None => block.fail(format!(
                "bad BOARD line {} (expected x,y,field)",
                shown(line)
            )),
        }
        Vec::new()
    }

    fn new_game(&mut self, n: usize) -> String {
        self.game = Some(Game::new(n, self.rule));
        self.me = None;
        self.clock.new_game();
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
        "OK".into()
    }

    fn start(&mut self, rest: &str) -> String {
        match rest.parse::<usize>() {
            Ok(n) if valid_size(n) => self.new_game(n),
            _ => format!("ERROR unsupported size {} (5..=22)", shown(rest)),
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

    fn turn(&mut self, rest: &str, arrived: Instant) -> String {
        let Some(game) = self.game.as_ref() else {
            return "ERROR no game started".into();
        };
        let opp = game.to_move();
        let Some(p) = parse_pair(rest).and_then(|(x, y)| self.point(x, y)) else {
            return format!("ERROR bad coordinates {}", shown(rest));
        };
        let game = self.game.as_mut().expect("checked");
        if let Err(e) = game.play(opp, p) {
            return format!("ERROR {}", e.message());
        }
        self.me = Some(opp.opponent());
        self.think(arrived)
    }

    fn takeback(&mut self, rest: &str) -> String {
        let Some(game) = self.game.as_ref() else {
            return "ERROR no game started".into();
        };
        let n = game.size();
        let Some(p) = parse_pair(rest).and_then(|(x, y)| self.point(x, y)) else {
            return format!(
                "ERROR bad coordinates {} (x,y with 0 <= x, y < {n})",
                shown(rest)
            );
        };
        let game = self.game.as_mut().expect("checked");
        if game.board().history().last() == Some(&p) {
            game.undo();
            "OK".into()
        } else {
            "ERROR can only take back the last move".into()
        }
    }

    /// BOARD ... DONE: field 1 = our stone, 2 = the opponent's, 3 = continuous-game stone
    /// (treated as the opponent's). The lines are in move order; we are to move.
    fn board_done(&mut self, lines: &[(usize, usize, u8)], arrived: Instant) -> String {
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
            // `setup` judges the stone just placed: a five made by any stone is seen here.
            if let Some(Outcome::Win(_)) = g.outcome() {
                return format!("ERROR the position already holds a five (through {x},{y})");
            }
        }
        self.game = Some(g);
        self.me = Some(me);
        self.think(arrived)
    }

    /// SWAP2BOARD ... DONE with 0, 3 or 5 stones (see [`super::swap2`]). The answer's
    /// stones are played, so a `TURN` may follow as well as the usual `BOARD`; our colour
    /// is set when the answer fixes it.
    fn swap2_done(&mut self, lines: &[(usize, usize, u8)], arrived: Instant) -> String {
        let n = self.game.as_ref().map_or(0, |g| g.size());
        if ![0, 3, 5].contains(&lines.len()) {
            return format!(
                "ERROR SWAP2BOARD takes 0, 3 or 5 stones, not {}",
                lines.len()
            );
        }
        let mut g = Game::new(n, self.rule);
        for (i, &(x, y, _)) in lines.iter().enumerate() {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            if x >= n || y >= n {
                return format!("ERROR bad SWAP2BOARD stone {x},{y}");
            }
            let p = g.board().point(x, n - 1 - y);
            if let Err(e) = g.play(c, p) {
                return format!("ERROR SWAP2BOARD stone {x},{y}: {}", e.message());
            }
        }
        let empties = n * n - lines.len();
        let t = self.clock.budget(empties, self.default_move);
        let token = self.end.token_for_search();
        let searcher = self
            .searcher
            .get_or_insert_with(|| Searcher::new(self.config.clone()));
        let answer = decide(searcher, &mut g, arrived, t, &token);
        tracing::info!(?answer, budget_ms = t.as_millis() as u64, "swap2");
        let xy = |g: &Game, p: Point| {
            let (c, r) = g.board().col_row(p);
            format!("{},{}", c, n - 1 - r)
        };
        let (text, me) = match answer {
            Swap2Answer::Opening(pts) => {
                for (c, p) in [Color::Black, Color::White, Color::Black]
                    .into_iter()
                    .zip(pts)
                {
                    let _ = g.play(c, p);
                }
                (pts.map(|p| xy(&g, p)).join(" "), None)
            }
            Swap2Answer::Swap => ("SWAP".to_string(), Some(Color::Black)),
            Swap2Answer::Play(p) => {
                let _ = g.play(Color::White, p);
                (xy(&g, p), Some(Color::White))
            }
            Swap2Answer::AddTwo(p, q) => {
                let _ = g.play(Color::White, p);
                let _ = g.play(Color::Black, q);
                (format!("{} {}", xy(&g, p), xy(&g, q)), None)
            }
        };
        self.game = Some(g);
        self.me = me;
        self.clock.used_ms += arrived.elapsed().as_millis() as u64;
        text
    }

    fn info(&mut self, rest: &str) {
        let mut it = rest.split_whitespace();
        let (Some(key), Some(value)) = (it.next(), it.next()) else {
            return;
        };
        let Ok(v) = value.parse::<i64>() else {
            tracing::warn!(
                "INFO {key}: value {} is not a number; ignored",
                shown(value)
            );
            return;
        };
        let ms = v.max(0) as u64;
        match key.to_ascii_lowercase().as_str() {
            "timeout_turn" => self.clock.timeout_turn = Some(ms),
            "timeout_match" => self.clock.timeout_match = Some(ms),
            "time_left" => self.clock.time_left = Some(ms),
            // Bytes. Half the allowance for the table, a quarter for the threat cache
            // (sized from the table), the rest for everything else.
            "max_memory" if ms > 0 => {
                let mb = ((ms / 2) >> 20).clamp(1, 4096) as usize;
                if mb < self.config.tt_mb {
                    self.config.tt_mb = mb;
                    if let Some(s) = self.searcher.as_mut() {
                        s.resize_tt(mb);
                    }
                }
            }
            // Search threads from the next search on; the protocol gets no answer to INFO, so
            // a value out of range is only logged.
            "thread_num" => {
                if (1..=256).contains(&v) {
                    self.config.threads = v as usize;
                    if let Some(s) = self.searcher.as_mut() {
                        s.config.threads = v as usize;
                    }
                } else {
                    tracing::warn!(
                        "INFO THREAD_NUM {v}: threads must be between 1 and 256; ignored"
                    );
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

    fn think(&mut self, arrived: Instant) -> String {
        let Some(game) = self.game.as_mut() else {
            return "ERROR no game started".into();
        };
        if game.outcome().is_some() {
            return "ERROR game is over".into();
        }
        let empties = game.size() * game.size() - game.move_count();
        let t = self.clock.budget(empties, self.default_move);
        let me = self.me.unwrap_or(game.to_move());
        let limits = Limits::new(
            Deadline::starting_at(arrived, t, t),
            None,
            self.end.token_for_search(),
        );
        let searcher = self
            .searcher
            .get_or_insert_with(|| Searcher::new(self.config.clone()));
        let report = searcher.search(game.board_mut(), me, &limits);
        tracing::info!(
            nodes = report.nodes,
            depth = report.depth,
            score = report.score,
            source = report.source,
            ms = report.elapsed.as_millis() as u64,
            budget_ms = t.as_millis() as u64,
            threads = searcher.config.threads,
            "move"
        );
        if game.play(me, report.best).is_err() {
            return "ERROR internal: no legal move".into();
        }
        self.clock.used_ms += arrived.elapsed().as_millis() as u64;
        self.xy(report.best)
    }
}

/// `s` quoted for an error message, cut to 40 characters.
fn shown(s: &str) -> String {
    let mut cut: String = s.chars().take(40).collect();
    if cut.len() < s.len() {
        cut.push_str("...");
    }
    format!("{cut:?}")
}

/// `x,y`: two non-negative integers.
pub fn parse_pair(s: &str) -> Option<(usize, usize)> {
    let mut it = s.split(',').map(|t| t.trim().parse::<usize>().ok());
    match (it.next(), it.next(), it.next()) {
        (Some(Some(x)), Some(Some(y)), None) => Some((x, y)),
        _ => None,
    }
}

/// `x,y,field` with a field of at most 3 (0 is refused by the BOARD check).
pub fn parse_triple(s: &str) -> Option<(usize, usize, u8)> {
    let mut it = s.split(',').map(|t| t.trim().parse::<usize>().ok());
    match (it.next(), it.next(), it.next(), it.next()) {
        (Some(Some(x)), Some(Some(y)), Some(Some(f)), None) if f <= 3 => Some((x, y, f as u8)),
        _ => None,
    }
}

/// Whether a line is the manager's `END`.
fn is_end(line: &Line) -> bool {
    matches!(line, Line::Text(t) if t.trim_ascii().eq_ignore_ascii_case(b"END"))
}

/// Runs the brain on stdin/stdout until END, end of input (after answering every line
/// read) or the controller leaving.
pub fn run_stdio(config: SearchConfig, default_move: Duration) -> io::Result<()> {
    let (tx, rx) = std::sync::mpsc::sync_channel::<(Line, Instant)>(CHANNEL_LINES);
    let mut brain = Brain::new(config, default_move);
    let end = brain.end_signal();
    let gone = brain.end_signal();
    crate::protocol::controller::watch_stdout(move || gone.end());
    std::thread::spawn(move || {
        // Sends a line on; false once END was read or the dispatcher is gone.
        let forward = |line: Line| {
            let is_end = is_end(&line);
            if is_end {
                end.end();
                std::thread::spawn(|| {
                    std::thread::sleep(Duration::from_millis(900));
                    let _ = io::stdout().flush();
                    std::process::exit(0);
                });
            }
            tx.send((line, Instant::now())).is_ok() && !is_end
        };
        lines::read_lines(
            io::stdin().lock(),
            LineSplitter::new(MAX_LINE, LineEnds::AnyNewline),
            forward,
        );
    });
    match serve_lines(&mut brain, rx) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            tracing::info!("output closed by the manager");
            Ok(())
        }
        other => other,
    }
}

/// The dispatcher: answers the reader's lines in order until END or the last line.
fn serve_lines(
    brain: &mut Brain,
    rx: std::sync::mpsc::Receiver<(Line, Instant)>,
) -> io::Result<()> {
    let stdout = io::stdout();
    loop {
        let next = if brain.wants_tables() {
            match rx.recv_timeout(QUIET_BEFORE_TABLES) {
                Err(RecvTimeoutError::Timeout) => {
                    brain.make_tables();
                    continue;
                }
                next => next.ok(),
            }
        } else {
            rx.recv().ok()
        };
        let Some((line, arrived)) = next else { break };
        if is_end(&line) {
            break;
        }
        let answers = brain.handle_at(&line, arrived);
        let mut out = stdout.lock();
        for a in answers {
            writeln!(out, "{a}")?;
        }
        out.flush()?;
    }
    Ok(())
}
