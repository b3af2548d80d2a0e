//! The Othello GTP engine: the GRhino/Edax/Egaroucid dialect plus GoGui's rules extension
//! and the `setboard`/`solve` extensions. See `protocols/othello.md`.
//!
//! Turn rule: like GRhino, a side left without a legal move passes automatically after the
//! opponent's move, so the side to move always has a move unless the game is over. A
//! controller that still sends `play white pass` for such an automatic pass gets `=`, and
//! `genmove` for that side answers `pass`; nothing else about the position changes.
use super::bitboard::{parse_square, square_name};
use super::board::{move_list, Board};
use super::book::Book;
use super::search::{Found, Searcher, DISC};
use crate::color::Color;
use crate::protocol::analysis::{self, MoveInfo, Snapshot, Style};
use crate::protocol::args::{no_args, one_arg};
use crate::protocol::engine::{CommandSpec, GtpEngine, GtpError, Reply};
use crate::protocol::shared_commands::{
    ignored_komi, kgs_time_settings, time_left, time_settings, Timed,
};
use crate::protocol::stream::Stream;
use crate::search::ponder::{Lent, MAX_PONDER};
use crate::search::time::TimeSettings;
use crate::search::{no_progress, Deadline, Limits, Progress, StopToken, TimeManager};
use std::time::{Duration, Instant};

/// One position plus whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct State {
    board: Board,
    to_move: Color,
    /// The side that passed automatically to reach this state, if any.
    auto_passed: Option<Color>,
}

impl State {
    fn start() -> State {
        State {
            board: Board::start(),
            to_move: Color::Black,
            auto_passed: None,
        }
    }

    /// Applies the automatic pass rule.
    fn settle(mut self) -> State {
        self.auto_passed = None;
        if self.board.moves() == 0 && !self.board.is_game_over() {
            self.auto_passed = Some(self.to_move);
            self.board = self.board.pass();
            self.to_move = self.to_move.opponent();
        }
        self
    }

    fn black_white(&self) -> (u64, u64) {
        self.board.colors(self.to_move)
    }
}

pub struct OthelloEngine {
    state: State,
    history: Vec<State>,
    /// Lent to a background search between commands when pondering.
    searcher: Lent<Searcher>,
    /// `--ponder`: search on the opponent's time after each of our moves.
    ponder: bool,
    time: TimeManager,
    stop: StopToken,
    /// Longest time one `solve` may take (`--solve-time`).
    solve_time: Duration,
    /// Deepest midgame iteration of `genmove` (`--depth`); the clock may stop it earlier.
    max_depth: u32,
    /// `--book`: `genmove` plays its best trusted move when it has one.
    book: Option<Book>,
}

impl OthelloEngine {
    /// An engine whose searcher `make` builds (again, should a ponder thread lose it).
    pub fn new(make: impl Fn() -> Searcher + Send + 'static, time: TimeSettings) -> OthelloEngine {
        OthelloEngine {
            state: State::start(),
            history: Vec::new(),
            searcher: Lent::new(make(), make),
            ponder: false,
            time: TimeManager::new(time),
            stop: StopToken::new(),
            solve_time: DEFAULT_SOLVE_TIME,
            max_depth: 60,
            book: None,
        }
    }

    /// Plays from `book` while it has a trusted move (`--book`).
    pub fn with_book(mut self, book: Option<Book>) -> OthelloEngine {
        self.book = book;
        self
    }

    /// Caps the midgame depth of `genmove` (`--depth`), for reproducible play.
    pub fn with_max_depth(mut self, depth: u32) -> OthelloEngine {
        self.max_depth = depth.clamp(1, 60);
        self
    }

    /// Turns pondering on (`--ponder`).
    pub fn with_ponder(mut self, on: bool) -> OthelloEngine {
        self.ponder = on;
        self
    }

    /// After our move: search the opponent's position until the next command, so the
    /// transposition tables hold its subtree when our next search starts there.
    fn start_pondering(&mut self) {
        let board = self.state.board;
        if board.is_game_over() {
            return;
        }
        self.searcher.lend(move |searcher, stop| {
            let limits = Limits::new(Deadline::after(MAX_PONDER, MAX_PONDER), None, stop.clone());
            let found = searcher.think(&board, &limits, 60);
            tracing::debug!(
                best = %found.best.map(square_name).unwrap_or_else(|| "pass".into()),
                depth = found.depth,
                nodes = found.nodes,
                "ponder"
            );
        });
    }

    /// Bounds every `solve` by `limit` (`--solve-time`).
    pub fn with_solve_time(mut self, limit: Duration) -> OthelloEngine {
        self.solve_time = limit;
        self
    }

    fn reset(&mut self, state: State) {
        self.state = state.settle();
        self.history.clear();
    }

    /// `color` has moved and `board` is the result: keep the old state for `undo`.
    fn advance(&mut self, board: Board, color: Color) {
        self.history.push(self.state);
        self.state = State {
            board,
            to_move: color.opponent(),
            auto_passed: None,
        }
        .settle();
    }
}

impl GtpEngine for OthelloEngine {
    fn name(&self) -> &str {
        "quartet-othello"
    }
    fn version(&self) -> &str {
        env!("CARGO_PKG_VERSION")
    }
    fn commands() -> &'static [CommandSpec<Self>] {
        COMMANDS
    }
    fn begin_command(&mut self, _name: &str, stop: &StopToken) {
        self.searcher.get();
        self.stop = stop.clone();
    }
    fn end_command(&mut self, name: &str) {
        if self.ponder && matches!(name, "genmove" | "genmove_analyze") {
            self.start_pondering();
        }
    }
    fn on_quit(&mut self) {
        self.searcher.get();
    }
}

fn color_arg(s: &str) -> Result<Color, GtpError> {
    s.parse::<Color>()
        .map_err(|_| GtpError::new(format!("invalid color '{s}'")))
}

fn boardsize(e: &mut OthelloEngine, args: &[String]) -> Reply {
    let n = one_arg(args)?;
    let n: u32 = n.parse().map_err(|_| GtpError::syntax())?;
    if n != 8 {
        return Err(GtpError::new("unacceptable size"));
    }
    e.reset(State::start());
    Ok(String::new())
}

fn clear_board(e: &mut OthelloEngine, args: &[String]) -> Reply {
    no_args(args)?;
    e.reset(State::start());
    e.searcher.get().clear();
    Ok(String::new())
}

fn play(e: &mut OthelloEngine, args: &[String]) -> Reply {
    let [c, m] = args else {
        return Err(GtpError::syntax());
    };
    let color = color_arg(c)?;
    let st = e.state;
    if m.eq_ignore_ascii_case("pass") {
        // Only an acknowledgement of the automatic pass, or a pass in a finished game.
        if st.auto_passed == Some(color) || (st.board.is_game_over() && color == st.to_move) {
            return Ok(String::new());
        }
        return Err(GtpError::new("illegal move"));
    }
    let sq = parse_square(m).ok_or_else(|| GtpError::new("illegal move"))?;
    if color != st.to_move {
        return Err(GtpError::new("illegal move"));
    }
    let board = st
        .board
        .play(sq)
        .ok_or_else(|| GtpError::new("illegal move"))?;
    e.advance(board, color);
    Ok(String::new())
}

fn genmove(e: &mut OthelloEngine, args: &[String]) -> Reply {
    let c = one_arg(args)?;
    let color = color_arg(c)?;
    generate(e, color, &mut no_progress)
}

/// `genmove_analyze [color] [interval]`: `genmove` (the same search and move) that writes
/// an `info move ...` line in `analyze`'s shape after completed iterations of its search
/// (see [`analysis::ProgressLines`]), then answers `play <move>`. A book move or a pass
/// answers at once, with no line.
fn genmove_analyze(e: &mut OthelloEngine, args: &[String], out: &mut Stream<'_>) -> Reply {
    let a = analysis::parse_args(args, |s| s.parse::<Color>().is_ok())?;
    let color = match &a.color {
        Some(c) => color_arg(c)?,
        None => e.state.to_move,
    };
    let st = e.state;
    if color != st.to_move && !(st.board.is_game_over() || st.auto_passed == Some(color)) {
        return Err(GtpError::new(format!("it is {}'s turn", st.to_move)));
    }
    let mut lines = analysis::ProgressLines::new(out, &a);
    let mv = generate(e, color, &mut |f: &Found| lines.offer(|| snapshot(f)))?;
    Ok(format!("play {mv}"))
}

/// `genmove`'s work: the move for `color` (played), telling `progress` about the search.
fn generate(e: &mut OthelloEngine, color: Color, progress: Progress<'_, Found>) -> Reply {
    let st = e.state;
    if st.board.is_game_over() || st.auto_passed == Some(color) {
        return Ok("pass".into());
    }
    if color != st.to_move {
        return Err(GtpError::new(format!("it is {}'s turn", st.to_move)));
    }
    let started = Instant::now();
    if let Some(m) = e.book.as_ref().and_then(|b| b.best_move(&st.board)) {
        tracing::info!(
            mv = %square_name(m.square),
            value = m.value,
            games = m.visits,
            "genmove: book move"
        );
        e.time.spent(color, started.elapsed());
        let board = st
            .board
            .play(m.square)
            .ok_or_else(|| GtpError::new("internal error"))?;
        e.advance(board, color);
        return Ok(square_name(m.square).to_ascii_uppercase());
    }
    let empties = st.board.empties().count_ones();
    let (soft, hard) = e.time.budget(color, empties.div_ceil(2).max(1));
    let limits = Limits::new(
        Deadline::starting_at(started, soft, hard),
        None,
        e.stop.clone(),
    );
    let found = e
        .searcher
        .get()
        .think_reporting(&st.board, &limits, e.max_depth, progress);
    e.time.spent(color, started.elapsed());
    tracing::info!(
        depth = found.depth,
        exact = found.exact,
        score = found.score,
        nodes = found.nodes,
        ms = started.elapsed().as_millis() as u64,
        "genmove"
    );
    let Some(sq) = found.best else {
        return Ok("pass".into());
    };
    // The searcher only returns legal moves; checking again keeps a bug from corrupting
    // the game.
    let board = st
        .board
        .play(sq)
        .ok_or_else(|| GtpError::new("internal error"))?;
    e.advance(board, color);
    Ok(square_name(sq).to_ascii_uppercase())
}

fn undo(e: &mut OthelloEngine, args: &[String]) -> Reply {
    no_args(args)?;
    let prev = e
        .history
        .pop()
        .ok_or_else(|| GtpError::new("cannot undo"))?;
    e.state = prev;
    Ok(String::new())
}

fn showboard(e: &mut OthelloEngine, args: &[String]) -> Reply {
    no_args(args)?;
    let (b, w) = e.state.black_white();
    let mut s = String::from("\n  a b c d e f g h\n");
    for r in 0..8 {
        s.push_str(&format!("{} ", r + 1));
        for c in 0..8 {
            let i = r * 8 + c;
            s.push(if b >> i & 1 != 0 {
                'X'
            } else if w >> i & 1 != 0 {
                'O'
            } else {
                '.'
            });
            s.push(' ');
        }
        s.push_str(&format!("{}\n", r + 1));
    }
    s.push_str("  a b c d e f g h\n");
    s.push_str(&format!(
        "black (X) {}  white (O) {}  {}",
        b.count_ones(),
        w.count_ones(),
        if e.state.board.is_game_over() {
            "game over".to_string()
        } else {
            format!("{} to move", e.state.to_move)
        }
    ));
    Ok(s)
}

/// `B+4`, `W+2` or `0`: black minus white discs, empties to the winner once the game is
/// over (before that, the current disc count).
fn result_string(st: &State) -> String {
    let (b, w) = st.black_white();
    let mut d = b.count_ones() as i32 - w.count_ones() as i32;
    if st.board.is_game_over() {
        let s = st.board.final_score();
        d = if st.to_move == Color::Black { s } else { -s };
    }
    match d {
        0 => "0".into(),
        d if d > 0 => format!("B+{d}"),
        d => format!("W+{}", -d),
    }
}

fn final_score(e: &mut OthelloEngine, args: &[String]) -> Reply {
    no_args(args)?;
    Ok(result_string(&e.state))
}

fn set_game(_: &mut OthelloEngine, args: &[String]) -> Reply {
    match args {
        [g] if g.eq_ignore_ascii_case("othello") || g.eq_ignore_ascii_case("reversi") => {
            Ok(String::new())
        }
        [_] => Err(GtpError::new("unsupported game")),
        _ => Err(GtpError::syntax()),
    }
}

fn list_games(_: &mut OthelloEngine, args: &[String]) -> Reply {
    no_args(args)?;
    Ok("Othello".into())
}

fn rules_game_id(_: &mut OthelloEngine, args: &[String]) -> Reply {
    no_args(args)?;
    Ok("Othello".into())
}

/// GoGui draws its first line at the top and names it row 8, so rows are printed 8 to 1:
/// GoGui's names for squares then match ours (the picture is mirrored top-to-bottom,
/// which Othello does not mind).
fn rules_board(e: &mut OthelloEngine, args: &[String]) -> Reply {
    no_args(args)?;
    let (b, w) = e.state.black_white();
    let mut rows = Vec::new();
    for r in (0..8).rev() {
        let row: Vec<&str> = (0..8)
            .map(|c| {
                let i = r * 8 + c;
                if b >> i & 1 != 0 {
                    "X"
                } else if w >> i & 1 != 0 {
                    "O"
                } else {
                    "."
                }
            })
            .collect();
        rows.push(row.join(" "));
    }
    Ok(format!("\n{}", rows.join("\n")))
}

fn rules_board_size(_: &mut OthelloEngine, args: &[String]) -> Reply {
    no_args(args)?;
    Ok("8".into())
}

fn rules_legal_moves(e: &mut OthelloEngine, args: &[String]) -> Reply {
    no_args(args)?;
    Ok(move_list(e.state.board.moves())
        .iter()
        .map(|m| m.to_ascii_uppercase())
        .collect::<Vec<_>>()
        .join(" "))
}

fn rules_side_to_move(e: &mut OthelloEngine, args: &[String]) -> Reply {
    no_args(args)?;
    Ok(e.state.to_move.to_string())
}

fn rules_final_result(e: &mut OthelloEngine, args: &[String]) -> Reply {
    no_args(args)?;
    if e.state.board.is_game_over() {
        Ok(result_string(&e.state))
    } else {
        Ok("unknown".into())
    }
}

/// `setboard <64 squares X/O/-> <X|O>`: the .obf board format; history is cleared.
fn setboard(e: &mut OthelloEngine, args: &[String]) -> Reply {
    let [squares, side] = args else {
        return Err(GtpError::syntax());
    };
    let (board, to_move) =
        Board::from_obf(squares, side).map_err(|err| GtpError::new(err.to_string()))?;
    e.reset(State {
        board,
        to_move,
        auto_passed: None,
    });
    Ok(String::new())
}

/// Most empty squares `solve` takes: it has no time limit, and each further empty square
/// multiplies the time by about 3 (FFO #49, 26 empties, takes 18 s; 36 would be days).
const SOLVE_MAX_EMPTIES: u32 = 36;

/// Default bound of one `solve` (`--solve-time`).
pub const DEFAULT_SOLVE_TIME: Duration = Duration::from_secs(60);

/// `solve`: exact final disc difference for the side to move and a best move, e.g.
/// `a2 +38`. Positions with more than `SOLVE_MAX_EMPTIES` empty squares are refused; the
/// others are bounded by `--solve-time` (or `# interrupt`, or a departed controller), after
/// which the answer is `? not solved in T s`.
fn solve(e: &mut OthelloEngine, args: &[String]) -> Reply {
    no_args(args)?;
    let b = e.state.board;
    let empties = b.empties().count_ones();
    if empties > SOLVE_MAX_EMPTIES {
        return Err(GtpError::new(format!(
            "too many empty squares to solve ({empties}, at most {SOLVE_MAX_EMPTIES})"
        )));
    }
    let started = Instant::now();
    e.searcher
        .get()
        .solver
        .set_limits(e.stop.clone(), started.checked_add(e.solve_time));
    let r = e.searcher.get().solver.solve(&b);
    if e.searcher.get().solver.was_aborted() {
        return Err(GtpError::new(format!(
            "not solved in {:.1} s",
            started.elapsed().as_secs_f64()
        )));
    }
    let mv = r.best.map(square_name).unwrap_or_else(|| "pass".into());
    Ok(format!("{mv} {:+}", r.score))
}

/// `analyze [color] [interval]`: a stream of `info move ...` lines in the KataGo float
/// shape (see protocols/othello.md). Each interval runs one more search of the position
/// (the transposition table carries over, so they deepen); the row is the best move with
/// the nodes searched as `visits`, the score in discs as `scoreLead`, and the win rate 1 /
/// 0 / 0.5 when the result is exact, else a logistic of the disc score.
fn analyze(e: &mut OthelloEngine, args: &[String], out: &mut Stream<'_>) -> Reply {
    let a = analysis::parse_args(args, |s| s.parse::<Color>().is_ok())?;
    let st = e.state;
    if let Some(c) = &a.color {
        if color_arg(c)? != st.to_move {
            return Err(GtpError::new(format!("it is {}'s turn", st.to_move)));
        }
    }
    analysis::stream_analysis(out, &a, Style::Kata, None, |budget, stop| {
        // A child token: the step's deadline ends the step, not the stream.
        let limits = Limits::new(Deadline::after(budget, budget), None, stop.child());
        snapshot(&e.searcher.get().think(&st.board, &limits, 60))
    });
    Ok(String::new())
}

/// The analysis row of a search result: the best move with the nodes as `visits`, the
/// score in discs as `scoreLead`, the win rate 1 / 0 / 0.5 when the result is exact, else
/// a logistic of the disc score.
fn snapshot(found: &Found) -> Snapshot {
    let discs = found.score as f64 / DISC as f64;
    let winrate = if found.exact {
        match found.score {
            s if s > 0 => 1.0,
            s if s < 0 => 0.0,
            _ => 0.5,
        }
    } else {
        1.0 / (1.0 + (-discs / 8.0).exp())
    };
    let mv = found
        .best
        .map(|s| square_name(s).to_ascii_uppercase())
        .unwrap_or_else(|| "pass".into());
    Snapshot {
        moves: vec![MoveInfo {
            mv: mv.clone(),
            visits: found.nodes,
            winrate,
            prior: 1.0,
            lcb: winrate,
            score_lead: Some(discs),
            pv: vec![(mv, found.nodes)],
        }],
        ownership: None,
    }
}

/// `book`: the book moves of the current position, best first, one a line: move, value
/// for the side to move in discs, games; moves from fewer games than `--book-visits` end in
/// `untrusted` (genmove does not play them). Empty when the book knows no move here.
fn book_cmd(e: &mut OthelloEngine, args: &[String]) -> Reply {
    no_args(args)?;
    let book = e
        .book
        .as_ref()
        .ok_or_else(|| GtpError::new("no opening book loaded (started with --no-book)"))?;
    Ok(book
        .moves(&e.state.board)
        .iter()
        .map(|m| {
            format!(
                "{} {:+.2} {}{}",
                square_name(m.square).to_ascii_uppercase(),
                m.value,
                m.visits,
                if m.trusted { "" } else { " untrusted" }
            )
        })
        .collect::<Vec<_>>()
        .join("\n"))
}

/// Evaluation of the side to move in discs (a debugging aid for the weights).
fn eval_cmd(e: &mut OthelloEngine, args: &[String]) -> Reply {
    no_args(args)?;
    let v = e.searcher.get().eval.evaluate(&e.state.board);
    Ok(format!("{:+.2}", v as f64 / DISC as f64))
}

/// Every command but the server's own administrative ones, in `list_commands` order.
static COMMANDS: &[CommandSpec<OthelloEngine>] = &[
    CommandSpec::new("boardsize", boardsize),
    CommandSpec::new("clear_board", clear_board),
    CommandSpec::new("komi", ignored_komi),
    CommandSpec::new("play", play),
    CommandSpec::new("genmove", genmove),
    CommandSpec::new("undo", undo),
    CommandSpec::new("showboard", showboard),
    CommandSpec::new("final_score", final_score),
    CommandSpec::new("time_settings", time_settings),
    CommandSpec::new("kgs-time_settings", kgs_time_settings),
    CommandSpec::new("time_left", time_left),
    CommandSpec::new("set_game", set_game),
    CommandSpec::new("list_games", list_games),
    CommandSpec::new("gogui-rules_game_id", rules_game_id),
    CommandSpec::new("gogui-rules_board", rules_board),
    CommandSpec::new("gogui-rules_board_size", rules_board_size),
    CommandSpec::new("gogui-rules_legal_moves", rules_legal_moves),
    CommandSpec::new("gogui-rules_side_to_move", rules_side_to_move),
    CommandSpec::new("gogui-rules_final_result", rules_final_result),
    CommandSpec::new("setboard", setboard),
    CommandSpec::new("solve", solve),
    CommandSpec::new("othello-eval", eval_cmd),
    CommandSpec::new("book", book_cmd),
    CommandSpec::analysis("analyze", analyze),
    CommandSpec::streaming("genmove_analyze", genmove_analyze),
];

impl Timed for OthelloEngine {
    fn time_manager(&mut self) -> &mut TimeManager {
        &mut self.time
    }
}
