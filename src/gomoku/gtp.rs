//! The Gomoku engine behind the GTP framing (`protocols/gomoku.md`): one table of commands,
//! each parsing its arguments fully before it changes the game. Includes `rule`, `setboard`
//! and the GoGui rules extension so GoGui can host the game.
use crate::protocol::args::{no_args, one_arg, parse_color};
use std::time::Duration;

use super::board::{valid_size, Board, Point, Rule, DEFAULT_SIZE};
use super::game::{Game, Outcome};
use super::search::{SearchConfig, SearchReport, Searcher, MATE_BOUND};
use crate::color::Color;
use crate::protocol::analysis::{self, AnalyzeArgs, MoveInfo, Snapshot, Style};
use crate::protocol::coords::{format_vertex, parse_vertex};
use crate::protocol::engine::{CommandSpec, GtpEngine, GtpError, Reply};
use crate::protocol::shared_commands::{
    ignored_komi, kgs_time_settings, time_left, time_settings, Timed,
};
use crate::protocol::stream::Stream;
use crate::search::ponder::{Lent, MAX_PONDER};
use crate::search::time::{parse_count, TimeManager, TimeSettings};
use crate::search::{no_progress, Deadline, Limits, Progress, StopToken};

/// The first search of a ponder. A search splits its time between the threat searches
/// and the alpha-beta, so one search as long as the ponder could spend all of a short
/// ponder in the threat searches and leave the alpha-beta's table empty; searches of
/// doubling length, each starting from the tables of the one before, use both at every
/// point of the opponent's time.
const PONDER_FIRST: Duration = Duration::from_millis(250);

pub struct GomokuEngine {
    game: Game,
    /// Lent to a background search between commands when pondering.
    searcher: Lent<Searcher>,
    /// `--ponder`: search on the opponent's time after each of our moves.
    ponder: bool,
    time: TimeManager,
    /// The running command's stop token (from the server).
    stop: StopToken,
}

impl GomokuEngine {
    pub fn new(config: SearchConfig, time: TimeSettings) -> GomokuEngine {
        GomokuEngine {
            game: Game::new(DEFAULT_SIZE, Rule::Freestyle),
            searcher: Lent::new(Searcher::new(config.clone()), move || {
                Searcher::new(config.clone())
            }),
            ponder: false,
            time: TimeManager::new(time),
            stop: StopToken::new(),
        }
    }

    /// Turns pondering on (`--ponder`).
    pub fn with_ponder(mut self, on: bool) -> GomokuEngine {
        self.ponder = on;
        self
    }

    /// After our move: search the opponent's position (on a copy of the board) until the
    /// next command; the transposition table and the threat cache keep what it found.
    /// The ponder is a series of searches of doubling length (see [`PONDER_FIRST`]).
    fn start_pondering(&mut self) {
        if self.game.outcome().is_some() {
            return;
        }
        let mut board = self.game.board().clone();
        let color = self.game.to_move();
        self.searcher.lend(move |searcher, stop| {
            let start = std::time::Instant::now();
            let mut budget = PONDER_FIRST;
            while !stop.is_stopped() && start.elapsed() < MAX_PONDER {
                let limits = Limits::new(Deadline::after(budget, budget), None, stop.child());
                let r = searcher.search(&mut board, color, &limits);
                tracing::debug!(
                    best = %format_vertex(Some(board.col_row(r.best))),
                    depth = r.depth,
                    nodes = r.nodes,
                    source = r.source,
                    ms = start.elapsed().as_millis() as u64,
                    "ponder"
                );
                if r.score.abs() >= MATE_BOUND || r.elapsed < budget / 2 {
                    // Proved, forced, or the depth ran out: more time changes nothing
                    // (and searching again at once would only spin).
                    break;
                }
                budget = (budget * 2).min(MAX_PONDER.saturating_sub(start.elapsed()));
            }
        });
    }

    fn new_game(&mut self, size: usize) {
        self.game = Game::new(size, self.game.rule());
        self.searcher.get().clear();
    }

    fn point(&self, s: &str) -> Result<Point, GtpError> {
        match parse_vertex(s, self.game.size()) {
            Ok(Some((c, r))) => Ok(self.game.board().point(c, r)),
            Ok(None) => Err(GtpError::new("illegal move (no pass in Gomoku)")),
            Err(e) if e.0 == "invalid coordinate" => Err(GtpError::new("illegal move")),
            Err(e) => Err(e),
        }
    }

    fn vertex(&self, p: Point) -> String {
        format_vertex(Some(self.game.board().col_row(p)))
    }

    fn generate(&mut self, args: &[String], commit: bool) -> Reply {
        let c = one_arg(args)?;
        let color = parse_color(c)?;
        self.generate_for(color, commit, &mut no_progress)
    }

    /// The move for `color` (played if `commit`), telling `progress` about the search.
    fn generate_for(
        &mut self,
        color: Color,
        commit: bool,
        progress: Progress<'_, SearchReport>,
    ) -> Reply {
        if self.game.outcome().is_some() {
            return Err(GtpError::new("game is over"));
        }
        let empty = self.game.size() * self.game.size() - self.game.move_count();
        let (soft, hard) = self.time.budget(color, (empty as u32 / 2).clamp(10, 60));
        let limits = Limits::new(Deadline::after(soft, hard), None, self.stop.clone());
        let report =
            self.searcher
                .get()
                .search_reporting(self.game.board_mut(), color, &limits, progress);
        self.time.spent(color, report.elapsed);
        tracing::info!(
            nodes = report.nodes,
            depth = report.depth,
            score = report.score,
            source = report.source,
            ms = report.elapsed.as_millis() as u64,
            "genmove {}",
            color
        );
        let text = self.vertex(report.best);
        if commit {
            self.game
                .play(color, report.best)
                .map_err(|e| GtpError::new(format!("internal error: {}", e.message())))?;
        }
        Ok(text)
    }
}

/// The arguments of `analyze` and `genmove_analyze`, and the colour they search for (the
/// side to move when none is given); `game is over` once the game has ended.
fn analysis_args(e: &GomokuEngine, args: &[String]) -> Result<(AnalyzeArgs, Color), GtpError> {
    let a = analysis::parse_args(args, |s| parse_color(s).is_ok())?;
    let color = match &a.color {
        Some(c) => parse_color(c)?,
        None => e.game.to_move(),
    };
    if e.game.outcome().is_some() {
        return Err(GtpError::new("game is over"));
    }
    Ok((a, color))
}

/// `analyze [color] [interval]`: a stream of `info move ...` lines in the KataGo float
/// shape (see protocols/gomoku.md): each interval runs one search of the position; the row
/// is its move with the nodes as `visits`, and the win rate 1 for a proven win (a five,
/// VCF or VCT), else 0.5 (unknown): the evaluation is not a probability.
fn analyze(e: &mut GomokuEngine, args: &[String], out: &mut Stream<'_>) -> Reply {
    let (a, color) = analysis_args(e, args)?;
    analysis::stream_analysis(out, &a, Style::Kata, None, |budget, stop| {
        // A child token: the step's deadline ends the step, not the stream.
        let limits = Limits::new(Deadline::after(budget, budget), None, stop.child());
        let report = e.searcher.get().search(e.game.board_mut(), color, &limits);
        snapshot(e.game.board(), &report)
    });
    Ok(String::new())
}

/// The analysis row of a search result: its move with the nodes as `visits`, and the
/// win rate 1 for a proven win (a five, VCF or VCT), else 0.5 (unknown).
fn snapshot(board: &Board, report: &SearchReport) -> Snapshot {
    let proven = matches!(report.source, "win" | "vcf" | "vct");
    let winrate = if proven { 1.0 } else { 0.5 };
    let mv = format_vertex(Some(board.col_row(report.best)));
    Snapshot {
        moves: vec![MoveInfo {
            mv: mv.clone(),
            visits: report.nodes,
            winrate,
            prior: 1.0,
            lcb: winrate,
            score_lead: None,
            pv: vec![(mv, report.nodes)],
        }],
        ownership: None,
    }
}

/// `genmove_analyze [color] [interval]`: `genmove` (the same search and move) that writes
/// an `info move ...` line in `analyze`'s shape after completed alpha-beta iterations (see
/// [`analysis::ProgressLines`]), then answers `play <vertex>`. A move the threat searches
/// decide answers with no line.
fn genmove_analyze(e: &mut GomokuEngine, args: &[String], out: &mut Stream<'_>) -> Reply {
    let (a, color) = analysis_args(e, args)?;
    // The search holds the board: the rows name their points on a copy.
    let names = e.game.board().clone();
    let mut lines = analysis::ProgressLines::new(out, &a);
    let mv = e.generate_for(color, true, &mut |r: &SearchReport| {
        lines.offer(|| snapshot(&names, r))
    })?;
    Ok(format!("play {mv}"))
}

fn boardsize(e: &mut GomokuEngine, args: &[String]) -> Reply {
    let n = one_arg(args)?;
    let size = parse_count(n)? as usize;
    if !valid_size(size) {
        return Err(GtpError::new("unacceptable size"));
    }
    e.new_game(size);
    Ok(String::new())
}

fn clear_board(e: &mut GomokuEngine, args: &[String]) -> Reply {
    no_args(args)?;
    e.new_game(e.game.size());
    Ok(String::new())
}

fn rule(e: &mut GomokuEngine, args: &[String]) -> Reply {
    match args {
        [] => Ok(e.game.rule().name().to_string()),
        [r] => {
            let rule = Rule::parse(r).ok_or_else(|| GtpError::new("unknown rule"))?;
            e.game.set_rule(rule);
            e.searcher.get().clear();
            Ok(String::new())
        }
        _ => Err(GtpError::syntax()),
    }
}

fn play(e: &mut GomokuEngine, args: &[String]) -> Reply {
    let [c, v] = args else {
        return Err(GtpError::syntax());
    };
    let color = parse_color(c)?;
    let p = e.point(v)?;
    e.game
        .play(color, p)
        .map_err(|err| GtpError::new(err.message()))?;
    Ok(String::new())
}

fn genmove(e: &mut GomokuEngine, args: &[String]) -> Reply {
    e.generate(args, true)
}

fn reg_genmove(e: &mut GomokuEngine, args: &[String]) -> Reply {
    e.generate(args, false)
}

fn undo(e: &mut GomokuEngine, args: &[String]) -> Reply {
    no_args(args)?;
    if e.game.undo() {
        Ok(String::new())
    } else {
        Err(GtpError::new("cannot undo"))
    }
}

/// `setboard v1 v2 ...`: a new game on the current size and rule with these moves played
/// alternately from Black. All or nothing: on any bad vertex or illegal move the game is
/// left unchanged.
fn setboard(e: &mut GomokuEngine, args: &[String]) -> Reply {
    let mut g = Game::new(e.game.size(), e.game.rule());
    for a in args {
        let p = e
            .point(a)
            .map_err(|err| GtpError::new(format!("{} at {a}", err.0)))?;
        let c = g.to_move();
        g.play(c, p)
            .map_err(|err| GtpError::new(format!("{} at {a}", err.message())))?;
    }
    e.game = g;
    e.searcher.get().clear();
    Ok(String::new())
}

fn showboard(e: &mut GomokuEngine, args: &[String]) -> Reply {
    no_args(args)?;
    let b = e.game.board();
    let size = b.size();
    let letters: String = (0..size)
        .map(|c| format!(" {}", &format_vertex(Some((c, 0)))[..1]))
        .collect();
    let mut s = format!("\n  {letters}\n");
    for row in (0..size).rev() {
        s.push_str(&format!("{:2}", row + 1));
        for col in 0..size {
            s.push(' ');
            s.push(stone_char(b.stone(b.point(col, row))));
        }
        s.push_str(&format!(" {}", row + 1));
        if row == size - 1 {
            s.push_str(&format!(
                "    rule {}, to move: {}",
                e.game.rule().name(),
                e.game.to_move()
            ));
        }
        s.push('\n');
    }
    s.push_str(&format!("  {letters}"));
    Ok(s)
}

fn stone_char(s: Option<Color>) -> char {
    match s {
        Some(Color::Black) => 'X',
        Some(Color::White) => 'O',
        None => '.',
    }
}

fn result_text(g: &Game) -> Option<&'static str> {
    match g.outcome()? {
        Outcome::Win(Color::Black) => Some("B+"),
        Outcome::Win(Color::White) => Some("W+"),
        Outcome::Draw => Some("0"),
    }
}

fn final_score(e: &mut GomokuEngine, args: &[String]) -> Reply {
    no_args(args)?;
    result_text(&e.game)
        .map(str::to_string)
        .ok_or_else(|| GtpError::new("game is not over"))
}

fn rules_game_id(_: &mut GomokuEngine, args: &[String]) -> Reply {
    no_args(args)?;
    Ok("Gomoku".to_string())
}

fn rules_board_size(e: &mut GomokuEngine, args: &[String]) -> Reply {
    no_args(args)?;
    Ok(e.game.size().to_string())
}

/// The board as rows from the top, `X` Black, `O` White, `.` empty.
fn rules_board(e: &mut GomokuEngine, args: &[String]) -> Reply {
    no_args(args)?;
    let b = e.game.board();
    let n = b.size();
    let rows: Vec<String> = (0..n)
        .rev()
        .map(|r| {
            (0..n)
                .map(|c| stone_char(b.stone(b.point(c, r))).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    Ok(format!("\n{}", rows.join("\n")))
}

fn rules_legal_moves(e: &mut GomokuEngine, args: &[String]) -> Reply {
    no_args(args)?;
    let c = e.game.to_move();
    let moves = e.game.legal_moves(c);
    Ok(moves
        .iter()
        .map(|&p| e.vertex(p))
        .collect::<Vec<_>>()
        .join(" "))
}

fn rules_side_to_move(e: &mut GomokuEngine, args: &[String]) -> Reply {
    no_args(args)?;
    Ok(e.game.to_move().to_string())
}

fn rules_final_result(e: &mut GomokuEngine, args: &[String]) -> Reply {
    no_args(args)?;
    Ok(match e.game.outcome() {
        Some(Outcome::Win(Color::Black)) => "B+".into(),
        Some(Outcome::Win(Color::White)) => "W+".into(),
        Some(Outcome::Draw) => "0".into(),
        None => "unknown".into(),
    })
}

/// Every command but the server's own administrative ones; `list_commands` prints this order.
static COMMANDS: &[CommandSpec<GomokuEngine>] = &[
    CommandSpec::new("boardsize", boardsize),
    CommandSpec::new("clear_board", clear_board),
    CommandSpec::new("komi", ignored_komi),
    CommandSpec::new("rule", rule),
    CommandSpec::new("play", play),
    CommandSpec::new("genmove", genmove),
    CommandSpec::streaming("genmove_analyze", genmove_analyze),
    CommandSpec::new("reg_genmove", reg_genmove),
    CommandSpec::new("undo", undo),
    CommandSpec::new("setboard", setboard),
    CommandSpec::new("showboard", showboard),
    CommandSpec::new("final_score", final_score),
    CommandSpec::new("time_settings", time_settings),
    CommandSpec::new("kgs-time_settings", kgs_time_settings),
    CommandSpec::new("time_left", time_left),
    CommandSpec::analysis("analyze", analyze),
    CommandSpec::new("gogui-rules_game_id", rules_game_id),
    CommandSpec::new("gogui-rules_board_size", rules_board_size),
    CommandSpec::new("gogui-rules_board", rules_board),
    CommandSpec::new("gogui-rules_legal_moves", rules_legal_moves),
    CommandSpec::new("gogui-rules_side_to_move", rules_side_to_move),
    CommandSpec::new("gogui-rules_final_result", rules_final_result),
];

impl GtpEngine for GomokuEngine {
    fn name(&self) -> &str {
        "quartet"
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

impl Timed for GomokuEngine {
    fn time_manager(&mut self) -> &mut TimeManager {
        &mut self.time
    }
}
