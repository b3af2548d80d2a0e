//! The NBoard protocol (version 2) of the NBoard Othello GUI: one command a line in,
//! `pong`, `===`, `search`, `status` lines out. See `protocols/othello.md` ("NBoard").
//!
//! The engine owns the game (a GGF record) and the searcher; `handle` runs one command to
//! its end, and [`run_stdio`] runs the commands in input order. A search ends at its depth
//! or time bound, or when its token stops: on `ping` (the protocol: "stop thinking and
//! respond with pong"; the GUI sends one before it changes the position) and when the
//! controller is gone. Every other line, `quit` and the end of input included, waits for
//! the search before it. Bad input is logged on stderr and changes nothing; unknown lines
//! are ignored, as the protocol asks.
use super::bitboard::square_name;
use super::board::Board;
use super::book::{Book, BookMove};
use super::ggf::{parse_move, GgfGame};
use super::search::{Searcher, DISC};
use crate::protocol::lines::{read_lines, Line, LineEnds, LineSplitter, MAX_LINE};
use crate::search::{Deadline, Limits, StopToken};
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Lines queued between the reader and the engine: bounds memory to this many [`MAX_LINE`]s.
const CHANNEL_LINES: usize = 16;

/// Midgame depth before the GUI sends `set depth` (it always does before `go`/`hint`).
const DEFAULT_DEPTH: u32 = 12;

/// Whether the session goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

pub struct NboardEngine {
    searcher: Searcher,
    game: GgfGame,
    depth: u32,
    /// `set contempt`: kept and logged; the search has no contempt term yet.
    contempt: f64,
    move_time: Duration,
    hint_time: Duration,
    /// `--book`: `go` plays its best trusted move and `hint` lists its trusted moves as
    /// `book` lines, without searching, while it has one for the position.
    book: Option<Book>,
}

impl NboardEngine {
    /// `move_time` bounds `go`, `hint_time` bounds one `hint`.
    pub fn new(searcher: Searcher, move_time: Duration, hint_time: Duration) -> NboardEngine {
        NboardEngine {
            searcher,
            game: GgfGame::new(),
            depth: DEFAULT_DEPTH,
            contempt: 0.0,
            move_time,
            hint_time,
            book: None,
        }
    }

    /// Answers from `book` while it has a trusted move (`--book`).
    pub fn with_book(mut self, book: Option<Book>) -> NboardEngine {
        self.book = book;
        self
    }

    /// The trusted book moves of `b`, best first; empty without a book.
    fn book_moves(&self, b: &Board) -> Vec<BookMove> {
        self.book
            .as_ref()
            .map(|book| book.moves(b).into_iter().filter(|m| m.trusted).collect())
            .unwrap_or_default()
    }

    /// The game as the engine holds it (for tests and logs).
    pub fn game(&self) -> &GgfGame {
        &self.game
    }

    /// Runs one input line; blocks until its search (if any) ends by depth, time bound or
    /// `stop`. Every output line is flushed at once.
    pub fn handle(
        &mut self,
        line: &str,
        stop: &StopToken,
        out: &mut dyn Write,
    ) -> io::Result<Flow> {
        let line = line.trim();
        let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let said = |out: &mut dyn Write, s: &str| -> io::Result<()> {
            writeln!(out, "{s}")?;
            out.flush()
        };
        match cmd {
            "" => {}
            "quit" => return Ok(Flow::Quit),
            "nboard" => match rest.parse::<u32>() {
                Ok(2) => {}
                Ok(v) => tracing::warn!("nboard protocol version {v}: we speak version 2"),
                Err(_) => tracing::error!("nboard: the version must be a number, got {rest:?}"),
            },
            "ping" => {
                if rest.is_empty() {
                    tracing::error!("ping: needs a number");
                } else {
                    said(out, &format!("pong {rest}"))?;
                }
            }
            "set" => self.set(rest, out)?,
            "move" => self.play(rest),
            "go" => self.go(stop, out)?,
            "hint" => match rest.parse::<usize>() {
                Ok(n) if n >= 1 => self.hint(n, stop, out)?,
                _ => tracing::error!("hint: needs a count of moves >= 1, got {rest:?}"),
            },
            "learn" => {
                tracing::info!("learn: there is no opening book yet, nothing was learnt");
                said(out, "learned")?;
            }
            // NBoard 1.1 sent a bare move instead of `move F5`.
            c if c.len() == 2 && rest.is_empty() && parse_move(self.game.to_move, c).is_ok() => {
                self.play(c)
            }
            _ => tracing::warn!(
                "unknown NBoard command ignored: {:?}",
                crate::protocol::lines::excerpt(line, 80)
            ),
        }
        Ok(Flow::Continue)
    }

    fn set(&mut self, rest: &str, out: &mut dyn Write) -> io::Result<()> {
        let (what, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let value = value.trim();
        match what {
            "depth" => match value.parse::<u32>() {
                Ok(d) if (1..=60).contains(&d) => {
                    self.depth = d;
                    writeln!(out, "set myname quartet")?;
                    out.flush()?;
                }
                _ => tracing::error!("set depth: needs a depth 1..60, got {value:?}"),
            },
            "game" => match GgfGame::parse(value) {
                Ok(g) => {
                    tracing::debug!(moves = g.moves.len(), "set game");
                    self.game = g;
                }
                Err(e) => tracing::error!("set game: {e}; the position is unchanged"),
            },
            "contempt" => match value.parse::<f64>() {
                Ok(c) if c.is_finite() => {
                    self.contempt = c;
                    tracing::info!(
                        contempt = c,
                        "set contempt: noted, the search does not use it"
                    );
                }
                _ => tracing::error!("set contempt: needs a number, got {value:?}"),
            },
            _ => tracing::warn!("unknown set command ignored: {what:?}"),
        }
        Ok(())
    }

    /// `move F5[/eval[/time]]` or `move PA`: the next move of the game.
    fn play(&mut self, text: &str) {
        let b = self.game.board;
        // A square when the side to move has none is the other side's move after a pass
        // the GUI did not send.
        let mut color = self.game.to_move;
        let mv = match parse_move(color, text) {
            Ok(mv) => mv,
            Err(e) => {
                tracing::error!("move: {e}; the position is unchanged");
                return;
            }
        };
        if mv.square.is_some() && b.moves() == 0 {
            color = color.opponent();
        }
        if let Err(e) = self.game.play(super::ggf::GgfMove { color, ..mv }) {
            tracing::error!("move {text}: {e}; the position is unchanged");
        }
    }

    /// `go`: the move the engine would play, as `=== F5 1.00 0.5` (move, eval in discs for
    /// the side to move, seconds). The game does not change: the GUI answers with `move`.
    fn go(&mut self, stop: &StopToken, out: &mut dyn Write) -> io::Result<()> {
        let b = self.game.board;
        if b.is_game_over() {
            tracing::error!("go: the game is over");
            return Ok(());
        }
        writeln!(out, "status thinking")?;
        out.flush()?;
        let started = Instant::now();
        if let Some(m) = self.book_moves(&b).first() {
            tracing::debug!(mv = %square_name(m.square), games = m.visits, "go: book move");
            let secs = started.elapsed().as_secs_f64();
            writeln!(out, "{}", book_line(m))?;
            writeln!(
                out,
                "=== {} {:.2} {secs:.2}",
                square_name(m.square).to_ascii_uppercase(),
                m.value
            )?;
            writeln!(out, "status")?;
            return out.flush();
        }
        let limits = Limits::new(
            Deadline::starting_at(started, self.move_time / 2, self.move_time),
            None,
            stop.clone(),
        );
        let found = self.searcher.think(&b, &limits, self.depth);
        tracing::debug!(
            depth = found.depth,
            exact = found.exact,
            nodes = found.nodes,
            contempt = self.contempt,
            "go"
        );
        let secs = started.elapsed().as_secs_f64();
        writeln!(out, "nodestats {} {secs:.2}", found.nodes)?;
        match found.best {
            Some(sq) => writeln!(
                out,
                "=== {} {:.2} {secs:.2}",
                square_name(sq).to_ascii_uppercase(),
                found.score as f64 / DISC as f64
            )?,
            None => writeln!(out, "=== PA")?,
        }
        writeln!(out, "status")?;
        out.flush()
    }

    /// `hint n`: iterative deepening over every legal move, printing after each completed
    /// depth a `search <move> <eval> 0 <depth> <text>` line for the best `n` moves (eval in
    /// discs for the side to move). Ends at the `set depth` depth, at the time bound, when
    /// every value is exact, or when `stop` is set (then the unfinished depth is dropped).
    fn hint(&mut self, n: usize, stop: &StopToken, out: &mut dyn Write) -> io::Result<()> {
        let b = self.game.board;
        if b.is_game_over() {
            tracing::error!("hint: the game is over");
            return Ok(());
        }
        writeln!(out, "status thinking")?;
        out.flush()?;
        let started = Instant::now();
        let book = self.book_moves(&b);
        if !book.is_empty() {
            for m in book.iter().take(n) {
                writeln!(out, "{}", book_line(m))?;
            }
            writeln!(out, "nodestats 0 {:.2}", started.elapsed().as_secs_f64())?;
            writeln!(out, "status")?;
            return out.flush();
        }
        let end = started + self.hint_time;
        let moves: Vec<Option<usize>> = if b.moves() == 0 {
            vec![None]
        } else {
            (0..64)
                .filter(|&s| b.moves() >> s & 1 != 0)
                .map(Some)
                .collect()
        };
        let mut nodes = 0u64;
        // The reply is searched `depth - 1` plies (at least one) below each move.
        'deepen: for depth in 2..=self.depth.max(2) {
            let mut row: Vec<(i32, Option<usize>, bool)> = Vec::with_capacity(moves.len());
            for &mv in &moves {
                let now = Instant::now();
                if stop.is_stopped() || now >= end {
                    break 'deepen;
                }
                // A child token: reaching the deadline trips it, not the caller's.
                let limits = Limits::new(
                    Deadline::starting_at(now, end - now, end - now),
                    None,
                    stop.child(),
                );
                let Some(v) = self.value_after(&b, mv, depth, &limits) else {
                    break 'deepen;
                };
                nodes += v.nodes;
                row.push((v.score, mv, v.exact));
            }
            row.sort_by_key(|&(score, _, _)| -score);
            for &(score, mv, exact) in row.iter().take(n) {
                let name = mv
                    .map(|s| square_name(s).to_ascii_uppercase())
                    .unwrap_or_else(|| "PA".into());
                let shown = if exact {
                    b.empties().count_ones()
                } else {
                    depth
                };
                writeln!(
                    out,
                    "search {name} {:.2} 0 {shown} {}",
                    score as f64 / DISC as f64,
                    if exact { "exact" } else { "midgame" }
                )?;
            }
            out.flush()?;
            if row.iter().all(|r| r.2) {
                break;
            }
        }
        writeln!(
            out,
            "nodestats {nodes} {:.2}",
            started.elapsed().as_secs_f64()
        )?;
        writeln!(out, "status")?;
        out.flush()
    }

    /// The value of `mv` (None: pass) for the side to move of `b`, searched `depth` plies
    /// deep in all (the reply `depth - 1`, `depth` >= 2); None when the search did not complete.
    fn value_after(
        &mut self,
        b: &Board,
        mv: Option<usize>,
        depth: u32,
        limits: &Limits,
    ) -> Option<Value> {
        let child = match mv {
            Some(sq) => b.play(sq)?,
            None => b.pass(),
        };
        if child.is_game_over() {
            return Some(Value {
                score: -child.final_score() * DISC,
                exact: true,
                nodes: 0,
            });
        }
        // The opponent may have to pass: then we move again and the sign stays.
        let (pos, sign) = if child.moves() == 0 {
            (child.pass(), 1)
        } else {
            (child, -1)
        };
        let want = depth - 1;
        let found = self.searcher.think(&pos, limits, want);
        let complete = found.exact || found.depth >= want.min(pos.empties().count_ones());
        if limits.stop.is_stopped() || !complete {
            return None;
        }
        Some(Value {
            score: sign * found.score,
            exact: found.exact,
            nodes: found.nodes,
        })
    }
}

/// A trusted book move as the protocol's `book <pv> <eval> <# games> <depth> <text>`
/// line: eval in discs for the side to move; the depth field is 0 (book values come from
/// game results, not from a search of some depth).
fn book_line(m: &BookMove) -> String {
    format!(
        "book {} {:.2} {} 0 book",
        square_name(m.square).to_ascii_uppercase(),
        m.value,
        m.visits
    )
}

struct Value {
    score: i32,
    exact: bool,
    nodes: u64,
}

/// Whether a line is the GUI's `ping n`, which stops the running search.
fn is_ping(line: &str) -> bool {
    line.split_whitespace().next() == Some("ping")
}

/// Serves NBoard on stdin/stdout until `quit`, the end of input (after every line read has
/// run) or the controller leaving. A reader thread takes the lines into a channel and
/// stops the running search at each `ping`; this thread runs the commands in order, so
/// `pong n` comes after everything the earlier commands printed.
pub fn run_stdio(mut engine: NboardEngine) -> io::Result<()> {
    // Pings read but not yet run: a search that starts before one of them is stale.
    let pings = Arc::new(AtomicUsize::new(0));
    let current = Arc::new(Mutex::new(StopToken::new()));
    let gone = Arc::new(AtomicBool::new(false));
    {
        let (current, gone) = (Arc::clone(&current), Arc::clone(&gone));
        crate::protocol::controller::watch_stdout(move || {
            gone.store(true, Ordering::SeqCst);
            current.lock().unwrap_or_else(|e| e.into_inner()).stop();
        });
    }
    let (tx, rx) = mpsc::sync_channel::<String>(CHANNEL_LINES);
    {
        let (pings, current) = (Arc::clone(&pings), Arc::clone(&current));
        std::thread::spawn(move || {
            let splitter = LineSplitter::new(MAX_LINE, LineEnds::Lf);
            read_lines(io::stdin().lock(), splitter, |line| {
                let text = match line {
                    Line::TooLong { len, .. } => {
                        tracing::warn!("line of {len} bytes ignored (the limit is {MAX_LINE})");
                        return true;
                    }
                    Line::Text(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                };
                if is_ping(&text) {
                    // Counted before the stop, so the loop never starts a search that
                    // misses a ping already here (it checks the count after installing its
                    // token). The stop comes before the send: the token the loop installs
                    // for the ping itself must not be stopped by it.
                    pings.fetch_add(1, Ordering::SeqCst);
                    current.lock().unwrap_or_else(|e| e.into_inner()).stop();
                }
                tx.send(text).is_ok()
            });
        });
    }
    let mut out = io::stdout();
    for line in rx {
        if is_ping(&line) {
            pings.fetch_sub(1, Ordering::SeqCst);
        }
        let stop = StopToken::new();
        *current.lock().unwrap_or_else(|e| e.into_inner()) = stop.clone();
        if pings.load(Ordering::SeqCst) > 0 || gone.load(Ordering::SeqCst) {
            stop.stop();
        }
        match engine.handle(&line, &stop, &mut out) {
            Ok(Flow::Continue) => {}
            Ok(Flow::Quit) => break,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                tracing::info!("output closed by the GUI");
                break;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
