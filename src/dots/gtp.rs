//! `quartet dots`: the Dots-and-Boxes engine behind the shared GTP server. This file only
//! parses arguments and formats answers; rules, analysis and search live beside it.
use super::geometry::SizeError;
use super::gogui;
use super::parallel;
use super::play::Choice;
use super::player::Player;
use super::solver::Solver;
use super::table::Table;
use super::{Board, EdgeName, Geometry, MoveError};
use crate::color::Color;
use crate::protocol::analysis::{self, MoveInfo, Snapshot, Style};
use crate::protocol::args::{no_args, one_arg};
use crate::protocol::engine::{CommandSpec, GtpEngine, GtpError, Reply};
use crate::protocol::shared_commands::{
    ignored_komi, kgs_time_settings, time_left, time_settings, Timed,
};
use crate::protocol::stream::Stream;
use crate::search::time::TimeSettings;
use crate::search::{no_progress, Progress, StopToken, TimeManager};
use std::time::{Duration, Instant};

/// `solve` refuses positions with more undrawn edges than this by default (3x4 boxes,
/// 31 edges, take a few seconds; 4x4's 40 take minutes).
pub const DEFAULT_SOLVE_LIMIT: usize = 31;
/// log2 of the entries of the `solve` command's table (32 MiB).
const SOLVE_TT_BITS: u32 = 22;

/// Default bound of one `solve` (`--solve-time`).
pub const DEFAULT_SOLVE_TIME: Duration = Duration::from_secs(60);

pub struct DotsEngine {
    board: Board,
    time: TimeManager,
    solve_limit: usize,
    stop: StopToken,
    player: Player,
    /// Longest time one `solve` may take (`--solve-time`).
    solve_time: Duration,
    /// GoGui's rules mode (`--gogui`, or set by the first `gogui-rules_*` command): moves
    /// are answered as grid points and `boardsize N` counts grid points (see `gogui.rs`).
    /// Only on square boards: every way into the mode and every size change in it checks.
    gogui: bool,
    /// Threads of the `solve` command's search.
    threads: usize,
}

impl DotsEngine {
    /// A 5x5-box board; the settings' move time per move until `time_settings` arrives.
    pub fn new(time: TimeSettings, solve_limit: usize) -> DotsEngine {
        DotsEngine {
            board: Board::new(5, 5).expect("5x5 is a valid size"),
            time: TimeManager::new(time),
            solve_limit,
            stop: StopToken::new(),
            player: Player::search(),
            solve_time: DEFAULT_SOLVE_TIME,
            threads: 1,
            gogui: false,
        }
    }

    /// Searches `solve` on `threads` threads (`--threads`; the player has its own count).
    pub fn with_threads(mut self, threads: usize) -> DotsEngine {
        self.threads = threads.max(1);
        self
    }

    /// Bounds every `solve` by `limit` (`--solve-time`).
    pub fn with_solve_time(mut self, limit: Duration) -> DotsEngine {
        self.solve_time = limit;
        self
    }

    /// Starts on an empty board of `geo` instead of 5x5.
    pub fn with_geometry(mut self, geo: Geometry) -> DotsEngine {
        self.board = Board::from_geometry(geo);
        self
    }

    /// Starts in GoGui's rules mode; the caller has checked that the board is square
    /// ([`gogui::check_square`], as the command line does).
    pub fn with_gogui(mut self, on: bool) -> DotsEngine {
        self.gogui = on;
        self
    }

    /// Readies the player's search tables for the current board (see `Player::prepare`).
    pub fn prepare(&mut self) {
        self.player.prepare(&self.board);
    }

    /// Lets `player` choose the moves `genmove` answers (the searching player by default).
    pub fn with_player(mut self, player: Player) -> DotsEngine {
        self.player = player;
        self
    }

    /// An edge by name (`a1-b1`), or in GoGui's mode also by grid point (`B1`).
    fn edge(&self, s: &str) -> Result<usize, GtpError> {
        if self.gogui && !s.contains('-') {
            let geo = self.board.geometry();
            let (w, h) = gogui::grid_size(geo);
            let (x, y) = gogui::parse_point(s, w, h)
                .ok_or_else(|| GtpError::new(format!("no point {s} on the {w}x{h} grid")))?;
            return gogui::point_edge(geo, x, y)
                .ok_or_else(|| GtpError::new(format!("{s} is a dot or a box, not an edge")));
        }
        let name: EdgeName = s.parse().map_err(|e| GtpError::new(format!("{e}")))?;
        self.board
            .edge_index(&name)
            .ok_or_else(|| GtpError::new(MoveError::OffBoard.to_string()))
    }

    /// An edge as this mode prints it.
    fn answer_edge(&self, edge: usize) -> String {
        if self.gogui {
            gogui::edge_point_name(self.board.geometry(), edge)
        } else {
            self.board.edge_name(edge).to_string()
        }
    }

    /// Turns GoGui's rules mode on, which needs a square board ([`gogui::check_square`]).
    fn enter_gogui(&mut self) -> Result<(), GtpError> {
        gogui::check_square(self.board.geometry()).map_err(GtpError::new)?;
        self.gogui = true;
        Ok(())
    }

    /// A new board size: in GoGui's mode only a square one.
    fn check_size(&self, geo: &Geometry) -> Result<(), GtpError> {
        if self.gogui {
            gogui::check_square(geo).map_err(GtpError::new)?;
        }
        Ok(())
    }

    fn turn(&self, c: &str) -> Result<Color, GtpError> {
        let color: Color = c.parse().map_err(|_| GtpError::new("invalid color"))?;
        if color != self.board.to_move() {
            return Err(GtpError::new("not your turn"));
        }
        Ok(color)
    }
}

/// A board size in boxes, `CxR` or a single `N` for NxN (`boardsize` and `--boardsize`).
pub fn parse_box_size(s: &str) -> Result<Geometry, SizeError> {
    if s.contains(['x', 'X']) {
        Geometry::parse_size(s)
    } else {
        let n: usize = s.trim().parse().map_err(|_| SizeError)?;
        Geometry::new(n, n)
    }
}

fn parse_size(s: &str) -> Result<Geometry, GtpError> {
    parse_box_size(s).map_err(|_| GtpError::new("unacceptable size"))
}

fn boardsize(e: &mut DotsEngine, args: &[String]) -> Reply {
    let s = one_arg(args)?;
    let geo = if e.gogui && !s.contains(['x', 'X']) {
        // GoGui sends the grid's side, 2N+1 points for N boxes.
        match s.parse::<usize>() {
            Ok(n) if n % 2 == 1 => Geometry::new(n / 2, n / 2).ok(),
            _ => None,
        }
        .ok_or_else(|| GtpError::new("unacceptable size"))?
    } else {
        parse_size(s)?
    };
    e.check_size(&geo)?;
    e.board = Board::from_geometry(geo);
    Ok(String::new())
}

fn clear_board(e: &mut DotsEngine, args: &[String]) -> Reply {
    no_args(args)?;
    e.board = Board::from_geometry(e.board.geometry().clone());
    Ok(String::new())
}

fn play(e: &mut DotsEngine, args: &[String]) -> Reply {
    let [c, m] = args else {
        return Err(GtpError::syntax());
    };
    let edge = e.edge(m)?;
    e.turn(c)?;
    e.board
        .play(edge)
        .map_err(|err| GtpError::new(err.to_string()))?;
    Ok(String::new())
}

fn genmove(e: &mut DotsEngine, args: &[String]) -> Reply {
    let c = one_arg(args)?;
    let color = e.turn(c)?;
    generate(e, color, &mut no_progress)
}

/// `genmove`'s work: the edge for `color` (drawn), telling `progress` about the search.
fn generate(e: &mut DotsEngine, color: Color, progress: Progress<'_, Choice>) -> Reply {
    let start = Instant::now();
    let undrawn = e.board.legal_edges().count() as u32;
    let (soft, hard) = e.time.budget(color, undrawn / 2 + 1);
    let edge = e
        .player
        .choose_reporting(&e.board, soft, hard, Some(e.stop.clone()), &[], progress)
        .ok_or_else(|| GtpError::new(MoveError::GameOver.to_string()))?;
    e.time.spent(color, start.elapsed());
    e.board.play(edge).expect("the player returns a legal edge");
    Ok(e.answer_edge(edge))
}

fn undo(e: &mut DotsEngine, args: &[String]) -> Reply {
    no_args(args)?;
    e.board
        .undo()
        .map(|_| String::new())
        .ok_or_else(|| GtpError::new("cannot undo"))
}

fn showboard(e: &mut DotsEngine, args: &[String]) -> Reply {
    no_args(args)?;
    let b = &e.board;
    Ok(format!(
        "\n{}\nblack {} white {}, {} to move",
        b.render(),
        b.score(Color::Black),
        b.score(Color::White),
        b.to_move()
    ))
}

/// Boxes won so far: `B+3`, `W+1` or `0` (final once every edge is drawn).
fn final_score(e: &mut DotsEngine, args: &[String]) -> Reply {
    no_args(args)?;
    let m = e.board.margin(Color::Black);
    Ok(match m {
        0 => "0".to_string(),
        m if m > 0 => format!("B+{m}"),
        m => format!("W+{}", -m),
    })
}

fn score(e: &mut DotsEngine, args: &[String]) -> Reply {
    no_args(args)?;
    Ok(format!(
        "black {} white {}",
        e.board.score(Color::Black),
        e.board.score(Color::White)
    ))
}

/// Plays `moves` on an empty board of `geo`; the engine's board changes only if all are legal.
fn replay(e: &mut DotsEngine, geo: Geometry, moves: &[String]) -> Reply {
    let mut b = Board::from_geometry(geo);
    for (i, m) in moves.iter().enumerate() {
        let name: EdgeName = m
            .parse()
            .map_err(|err| GtpError::new(format!("move {}: {err}", i + 1)))?;
        let edge = b
            .edge_index(&name)
            .ok_or_else(|| GtpError::new(format!("move {}: {}", i + 1, MoveError::OffBoard)))?;
        b.play(edge)
            .map_err(|err| GtpError::new(format!("move {}: {err}", i + 1)))?;
    }
    e.board = b;
    Ok(String::new())
}

/// `setboard e1 e2 ...`: the position after these edges from the empty board of the
/// current size (whose turn follows from the extra-turn rule).
fn setboard(e: &mut DotsEngine, args: &[String]) -> Reply {
    replay(e, e.board.geometry().clone(), args)
}

/// `loadgame CxR e1 e2 ...`: as `setboard`, with a board size first.
fn loadgame(e: &mut DotsEngine, args: &[String]) -> Reply {
    let [size, moves @ ..] = args else {
        return Err(GtpError::syntax());
    };
    let geo = parse_size(size)?;
    e.check_size(&geo)?;
    replay(e, geo, moves)
}

/// `solve`: the exact value for the side to move (future boxes, theirs minus the
/// opponent's) and a best edge, e.g. `-3 b2-c2`; `? too large` past the limit, and
/// `? not solved in T s` when `--solve-time` (or `# interrupt`, or a departed controller)
/// stops it first.
fn solve(e: &mut DotsEngine, args: &[String]) -> Reply {
    no_args(args)?;
    let undrawn = e.board.legal_edges().count();
    if undrawn > e.solve_limit {
        return Err(GtpError::new("too large"));
    }
    let started = Instant::now();
    let deadline = started.checked_add(e.solve_time);
    let table = Table::new(SOLVE_TT_BITS, e.board.geometry().n_edges());
    let Some((v, m)) = solve_exact(e, &table, e.stop.clone(), deadline) else {
        return Err(GtpError::new(format!(
            "not solved in {:.1} s",
            started.elapsed().as_secs_f64()
        )));
    };
    Ok(match m {
        Some(m) => format!("{v} {}", e.board.edge_name(m)),
        None => v.to_string(),
    })
}

/// The exact value of the position for the side to move and a best edge (none when every
/// edge is drawn), solved on the engine's threads over `table`; `None` when `stop` or
/// `deadline` ended the solve first.
fn solve_exact(
    e: &DotsEngine,
    table: &Table,
    stop: StopToken,
    deadline: Option<Instant>,
) -> Option<(i32, Option<usize>)> {
    let mut s = Solver::with_table(&e.board, table.share()).ok()?;
    s.set_limits(Some(stop.clone()), deadline);
    let solved = parallel::solve(&e.board, table, e.threads, Some(stop), deadline)?;
    let answer = s.move_of_value(solved.value);
    (!s.stopped()).then_some(answer)
}

/// `analyze [color] [interval]`: a stream of `info move ...` lines in the KataGo float
/// shape (see protocols/dots.md). Within the solve limit each interval continues an exact
/// solve: once it is done the row carries the exact value in boxes as `scoreLead` and
/// the win rate 1 / 0.5 / 0; before that, and on larger boards, the row is the timed
/// player's choice for the interval with the win rate 0.5 (unknown) and no score.
fn analyze(e: &mut DotsEngine, args: &[String], out: &mut Stream<'_>) -> Reply {
    let a = analysis::parse_args(args, |s| s.parse::<Color>().is_ok())?;
    if let Some(c) = &a.color {
        e.turn(c)?;
    }
    if e.board.legal_edges().next().is_none() {
        return Err(GtpError::new(MoveError::GameOver.to_string()));
    }
    let started = Instant::now();
    let small = e.board.legal_edges().count() <= e.solve_limit;
    let table = small.then(|| Table::new(SOLVE_TT_BITS, e.board.geometry().n_edges()));
    let mut solved: Option<(i32, Option<usize>)> = None;
    analysis::stream_analysis(out, &a, Style::Kata, None, |budget, stop| {
        if let (Some(table), None) = (&table, solved) {
            // Each interval continues on the same table; the limit grows with the time
            // already spent.
            solved = solve_exact(
                e,
                table,
                stop.clone(),
                Some(started + started.elapsed() * 2 + budget),
            );
        }
        let (mv, winrate, score) = match solved {
            Some((v, m)) => (
                m,
                match v {
                    v if v > 0 => 1.0,
                    v if v < 0 => 0.0,
                    _ => 0.5,
                },
                Some(v as f64),
            ),
            None => {
                let soft = budget.min(started.elapsed().max(budget));
                let m = e.player.choose(&e.board, soft, soft, Some(stop.clone()));
                (m, 0.5, None)
            }
        };
        let moves = mv
            .map(|m| {
                let name = e.board.edge_name(m).to_string();
                MoveInfo {
                    mv: name.clone(),
                    visits: 1,
                    winrate,
                    prior: 1.0,
                    lcb: winrate,
                    score_lead: score,
                    pv: vec![(name, 1)],
                }
            })
            .into_iter()
            .collect();
        Snapshot {
            moves,
            ownership: None,
        }
    });
    Ok(String::new())
}

/// `genmove_analyze [color] [interval]`: `genmove` (the same search and edge) that writes
/// an `info move ...` line in `analyze`'s shape after completed iterations of its search
/// (see [`analysis::ProgressLines`]): the nodes so far as `visits`; once the iteration
/// solved the position, the exact value in boxes as `scoreLead` and the win rate 1 / 0.5 /
/// 0, else the win rate 0.5 (unknown) and no score. Then `play <edge>`. A move chosen
/// without a search (a single choice, boards too big for the solver) has no line.
fn genmove_analyze(e: &mut DotsEngine, args: &[String], out: &mut Stream<'_>) -> Reply {
    let a = analysis::parse_args(args, |s| s.parse::<Color>().is_ok())?;
    let color = match &a.color {
        Some(c) => e.turn(c)?,
        None => e.board.to_move(),
    };
    if e.board.legal_edges().next().is_none() {
        return Err(GtpError::new(MoveError::GameOver.to_string()));
    }
    let mut lines = analysis::ProgressLines::new(out, &a);
    let names = e.board.clone();
    let mv = generate(e, color, &mut |c: &Choice| {
        lines.offer(|| progress_snapshot(&names, c))
    })?;
    Ok(format!("play {mv}"))
}

fn progress_snapshot(board: &Board, c: &Choice) -> Snapshot {
    let (winrate, score) = if c.exact {
        let w = match c.value {
            v if v > 0 => 1.0,
            v if v < 0 => 0.0,
            _ => 0.5,
        };
        (w, Some(c.value as f64))
    } else {
        (0.5, None)
    };
    let name = board.edge_name(c.edge).to_string();
    Snapshot {
        moves: vec![MoveInfo {
            mv: name.clone(),
            visits: c.nodes,
            winrate,
            prior: 1.0,
            lcb: winrate,
            score_lead: score,
            pv: vec![(name, c.nodes)],
        }],
        ownership: None,
    }
}

fn rules_game_id(e: &mut DotsEngine, args: &[String]) -> Reply {
    no_args(args)?;
    e.enter_gogui()?;
    Ok("DotsAndBoxes".into())
}

/// The grid's side: `11` for 5x5 boxes (the mode only takes square boards).
fn rules_board_size(e: &mut DotsEngine, args: &[String]) -> Reply {
    no_args(args)?;
    e.enter_gogui()?;
    let (w, _) = gogui::grid_size(e.board.geometry());
    Ok(w.to_string())
}

fn rules_board(e: &mut DotsEngine, args: &[String]) -> Reply {
    no_args(args)?;
    e.enter_gogui()?;
    Ok(gogui::board_text(&e.board))
}

fn rules_legal_moves(e: &mut DotsEngine, args: &[String]) -> Reply {
    no_args(args)?;
    e.enter_gogui()?;
    Ok(gogui::legal_points(&e.board))
}

fn rules_side_to_move(e: &mut DotsEngine, args: &[String]) -> Reply {
    no_args(args)?;
    e.enter_gogui()?;
    Ok(e.board.to_move().to_string())
}

/// Boxes taken so far, Black's first (GoGui shows them as captures).
fn rules_captured_count(e: &mut DotsEngine, args: &[String]) -> Reply {
    no_args(args)?;
    e.enter_gogui()?;
    Ok(format!(
        "{} {}",
        e.board.score(Color::Black),
        e.board.score(Color::White)
    ))
}

/// `B+3 (black 14 white 11)` once the board is full, `unknown` before.
fn rules_final_result(e: &mut DotsEngine, args: &[String]) -> Reply {
    no_args(args)?;
    e.enter_gogui()?;
    if !e.board.is_over() {
        return Ok("unknown".into());
    }
    let margin = final_score(e, &[])?;
    Ok(format!(
        "{margin} (black {} white {})",
        e.board.score(Color::Black),
        e.board.score(Color::White)
    ))
}

/// `dots_solve_limit N`: the most undrawn edges `solve` accepts.
fn solve_limit(e: &mut DotsEngine, args: &[String]) -> Reply {
    let n = one_arg(args)?;
    e.solve_limit = n.parse().map_err(|_| GtpError::syntax())?;
    Ok(String::new())
}

/// Every command but the server's administrative ones; `list_commands` prints this order.
static COMMANDS: &[CommandSpec<DotsEngine>] = &[
    CommandSpec::new("boardsize", boardsize),
    CommandSpec::new("clear_board", clear_board),
    CommandSpec::new("komi", ignored_komi),
    CommandSpec::new("play", play),
    CommandSpec::new("genmove", genmove),
    CommandSpec::streaming("genmove_analyze", genmove_analyze),
    CommandSpec::new("undo", undo),
    CommandSpec::new("showboard", showboard),
    CommandSpec::new("final_score", final_score),
    CommandSpec::new("score", score),
    CommandSpec::new("setboard", setboard),
    CommandSpec::new("loadgame", loadgame),
    CommandSpec::new("solve", solve),
    CommandSpec::new("dots_solve_limit", solve_limit),
    CommandSpec::new("time_settings", time_settings),
    CommandSpec::new("kgs-time_settings", kgs_time_settings),
    CommandSpec::new("time_left", time_left),
    CommandSpec::analysis("analyze", analyze),
    CommandSpec::new("gogui-rules_game_id", rules_game_id),
    CommandSpec::new("gogui-rules_board_size", rules_board_size),
    CommandSpec::new("gogui-rules_board", rules_board),
    CommandSpec::new("gogui-rules_legal_moves", rules_legal_moves),
    CommandSpec::new("gogui-rules_side_to_move", rules_side_to_move),
    CommandSpec::new("gogui-rules_captured_count", rules_captured_count),
    CommandSpec::new("gogui-rules_final_result", rules_final_result),
];

impl GtpEngine for DotsEngine {
    fn name(&self) -> &str {
        self.player.name()
    }
    fn version(&self) -> &str {
        env!("CARGO_PKG_VERSION")
    }
    fn commands() -> &'static [CommandSpec<Self>] {
        COMMANDS
    }
    fn begin_command(&mut self, _name: &str, stop: &StopToken) {
        self.stop = stop.clone();
    }
    fn end_command(&mut self, name: &str) {
        // A referee sends these before a game's first (timed) genmove.
        if matches!(name, "boardsize" | "clear_board" | "setboard" | "loadgame") {
            self.prepare();
        }
    }
}

impl Timed for DotsEngine {
    fn time_manager(&mut self) -> &mut TimeManager {
        &mut self.time
    }
}
