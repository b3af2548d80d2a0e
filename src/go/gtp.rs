//! The Go engine behind GTP version 2: one table of commands, each a small handler that
//! parses its arguments, changes the game only when the whole command is valid, and answers.
use crate::protocol::args::{no_args, one_arg, parse_color};
use std::time::{Duration, Instant};

use super::board::{valid_size, Board, Move, Point};
use super::game::{format_score, Game};
use super::handicap;
use super::player::{Decision, Player, StoneStatus};
use super::settings::{GoSettings, TimeMode};
use super::sgf;
use super::timing::{self, MovePlan};
use crate::color::Color;
use crate::protocol::coords::{format_vertex, parse_vertex};
use crate::protocol::engine::{CommandSpec, GtpEngine, GtpError, Reply};
use crate::protocol::shared_commands::{kgs_time_settings, time_left, time_settings, Timed};
use crate::search::time::{parse_count, TimeManager};
use crate::search::StopToken;

pub const DEFAULT_KOMI: f32 = 7.0;
pub const DEFAULT_SIZE: usize = 9;

pub struct GoEngine {
    game: Game,
    player: Player,
    time: TimeManager,
    /// The running command's stop token (from the server).
    stop: StopToken,
    /// `--ponder`: search on the opponent's time after each of our moves.
    ponder: bool,
    /// `--gfx`: GoGui live graphics on stderr while `genmove` thinks.
    gfx: bool,
    /// `--time-manager`: how a clock's time is spread over the moves.
    time_manager: TimeMode,
}

impl GoEngine {
    /// An engine on an empty 9x9 board with komi 7 that plays with `settings`.
    pub fn new(settings: GoSettings) -> GoEngine {
        GoEngine {
            game: Game::new(DEFAULT_SIZE, DEFAULT_KOMI),
            player: Player::new(settings.player),
            time: TimeManager::new(settings.time),
            stop: StopToken::new(),
            ponder: settings.ponder,
            gfx: settings.gfx,
            time_manager: settings.time_manager,
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    fn new_game(&mut self, size: usize) {
        let komi = self.game.komi();
        self.game = Game::new(size, komi);
        self.player.reset();
    }

    fn vertex(&self, s: &str) -> Result<Move, GtpError> {
        let v = parse_vertex(s, self.game.size()).map_err(|e| {
            if e.0 == "invalid coordinate" {
                GtpError::new("illegal move")
            } else {
                e
            }
        })?;
        Ok(to_move(self.game.board(), v))
    }

    fn format_move(&self, m: Move) -> String {
        format_vertex(match m {
            Move::Pass => None,
            Move::Play(p) => Some(self.game.board().col_row(p)),
        })
    }

    pub(super) fn stone_statuses(&mut self) -> Vec<(Point, StoneStatus)> {
        self.player.stone_statuses(&self.game)
    }

    pub(super) fn stop_token(&self) -> StopToken {
        self.stop.clone()
    }

    pub(super) fn player_and_game(&mut self) -> (&mut Player, &Game) {
        (&mut self.player, &self.game)
    }

    /// The thinking time the clock gives `color`'s next move.
    pub(super) fn move_budget(&self, color: Color) -> Duration {
        self.move_plan(color).base
    }

    /// `color`'s next move's time (see [`timing::plan`]).
    fn move_plan(&self, color: Color) -> MovePlan {
        let board = self.game.board();
        let plan = || timing::plan(&self.time, color, board.size(), board.empty_points().len());
        match self.time_manager {
            TimeMode::Off => {
                MovePlan::fixed(self.time.budget(color, estimate_moves_left(&self.game)).0)
            }
            TimeMode::On => plan(),
            TimeMode::PlanOnly => MovePlan::fixed(plan().base),
        }
    }

    fn generate(&mut self, args: &[String], commit: bool, cleanup: bool) -> Reply {
        let [c] = args else {
            return Err(GtpError::syntax());
        };
        let color = parse_color(c)?;
        let start = Instant::now();
        let plan = self.move_plan(color);
        if !self.gfx {
            return self.search_move(color, plan, start, commit, cleanup);
        }
        let budget = plan.base;
        // Fixed playouts stay reproducible, and the cleanup search is a different one:
        // neither is split into drawn steps.
        if self.player.config().playouts.is_none() && !cleanup {
            self.think_with_gfx(color, budget, start);
        }
        let left = MovePlan::fixed(budget.saturating_sub(start.elapsed()));
        let reply = self.search_move(color, left, start, commit, cleanup);
        self.gfx_done();
        reply
    }

    /// Searches `time` more for `color` (the move's clock started at `start`), plays the
    /// move and answers it (`genmove` with analysis lines).
    pub(super) fn generate_for(&mut self, color: Color, time: Duration, start: Instant) -> Reply {
        self.search_move(color, MovePlan::fixed(time), start, true, false)
    }

    fn search_move(
        &mut self,
        color: Color,
        plan: MovePlan,
        start: Instant,
        commit: bool,
        cleanup: bool,
    ) -> Reply {
        let report = self
            .player
            .genmove(&self.game, color, Some(plan), self.stop.flag(), cleanup);
        self.time.spent(color, start.elapsed());
        tracing::info!(
            playouts = report.playouts,
            winrate = report.winrate,
            ms = report.elapsed.as_millis() as u64,
            "genmove {}",
            color
        );
        for s in &report.best {
            tracing::debug!(
                "  {} visits {} winrate {:.3}",
                self.format_move(s.mv),
                s.visits,
                s.winrate()
            );
        }
        match report.decision {
            Decision::Resign => Ok("resign".to_string()),
            Decision::Play(m) => {
                if commit && self.game.play(color, m).is_err() {
                    // The tree excludes superko repeats, so this is a bug: pass instead
                    // of answering an illegal move.
                    tracing::error!("search chose an illegal move; passing");
                    self.game.play(color, Move::Pass).ok();
                    return Ok("pass".to_string());
                }
                Ok(self.format_move(m))
            }
        }
    }
}

fn to_move(b: &Board, v: Option<(usize, usize)>) -> Move {
    match v {
        None => Move::Pass,
        Some((c, r)) => Move::Play(b.point(c, r)),
    }
}

/// Rough number of moves we still have to make, for dividing main time.
fn estimate_moves_left(game: &Game) -> u32 {
    let empty = game.board().empty_points().len() as u32;
    (empty / 2).max(10)
}

fn boardsize(e: &mut GoEngine, args: &[String]) -> Reply {
    let n = one_arg(args)?;
    let size: usize = parse_count(n)? as usize;
    if !valid_size(size) {
        return Err(GtpError::new("unacceptable size"));
    }
    e.new_game(size);
    Ok(String::new())
}

fn clear_board(e: &mut GoEngine, args: &[String]) -> Reply {
    no_args(args)?;
    e.new_game(e.game.size());
    Ok(String::new())
}

fn komi(e: &mut GoEngine, args: &[String]) -> Reply {
    let k = one_arg(args)?;
    let komi: f32 = k.parse().map_err(|_| GtpError::syntax())?;
    if !komi.is_finite() || komi.abs() > 1000.0 {
        return Err(GtpError::syntax());
    }
    e.game.set_komi(komi);
    e.player.reset();
    Ok(String::new())
}

fn play(e: &mut GoEngine, args: &[String]) -> Reply {
    let [c, v] = args else {
        return Err(GtpError::syntax());
    };
    let color = parse_color(c)?;
    let mv = e.vertex(v)?;
    e.game
        .play(color, mv)
        .map_err(|_| GtpError::new("illegal move"))?;
    Ok(String::new())
}

fn genmove(e: &mut GoEngine, args: &[String]) -> Reply {
    e.generate(args, true, false)
}

fn reg_genmove(e: &mut GoEngine, args: &[String]) -> Reply {
    e.generate(args, false, false)
}

fn genmove_cleanup(e: &mut GoEngine, args: &[String]) -> Reply {
    e.generate(args, true, true)
}

fn undo(e: &mut GoEngine, args: &[String]) -> Reply {
    no_args(args)?;
    if e.game.undo() {
        Ok(String::new())
    } else {
        Err(GtpError::new("cannot undo"))
    }
}

fn showboard(e: &mut GoEngine, args: &[String]) -> Reply {
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
            let p = b.point(col, row);
            s.push(' ');
            s.push(match b.stone(p) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None if b.ko_point() == Some(p) => '*',
                None => '.',
            });
        }
        s.push_str(&format!(" {}", row + 1));
        if row == size - 1 {
            s.push_str(&format!(
                "    captures: black {} white {}",
                b.captures(Color::Black),
                b.captures(Color::White)
            ));
        }
        if row + 2 == size || size == 1 {
            s.push_str(&format!(
                "    to move: {}, komi {}",
                b.to_move(),
                e.game.komi()
            ));
        }
        s.push('\n');
    }
    s.push_str(&format!("  {letters}"));
    Ok(s)
}

fn final_score(e: &mut GoEngine, args: &[String]) -> Reply {
    no_args(args)?;
    Ok(format_score(e.player.final_score(&e.game)))
}

fn final_status_list(e: &mut GoEngine, args: &[String]) -> Reply {
    let which = one_arg(args)?;
    let wanted = match which.to_ascii_lowercase().as_str() {
        "alive" => StoneStatus::Alive,
        "dead" => StoneStatus::Dead,
        "seki" => StoneStatus::Seki,
        _ => return Err(GtpError::syntax()),
    };
    let statuses = e.player.stone_statuses(&e.game);
    let b = e.game.board().clone();
    // One line per string, as GNU Go answers.
    let mut lines: Vec<String> = Vec::new();
    let mut done: Vec<Point> = Vec::new();
    for &(p, s) in &statuses {
        if s != wanted || done.contains(&b.string_head(p)) {
            continue;
        }
        done.push(b.string_head(p));
        let mut stones = Vec::new();
        b.for_each_stone(p, |q| stones.push(format_vertex(Some(b.col_row(q)))));
        stones.sort();
        lines.push(stones.join(" "));
    }
    Ok(lines.join("\n"))
}

fn place_handicap(e: &mut GoEngine, points: Vec<(usize, usize)>) -> Reply {
    let b = e.game.board();
    let pts: Vec<Point> = points.iter().map(|&(c, r)| b.point(c, r)).collect();
    e.game
        .set_handicap(&pts)
        .map_err(|_| GtpError::new("board not empty"))?;
    e.player.reset();
    Ok(points
        .iter()
        .map(|&v| format_vertex(Some(v)))
        .collect::<Vec<_>>()
        .join(" "))
}

fn handicap_count(e: &GoEngine, args: &[String]) -> Result<usize, GtpError> {
    let n = one_arg(args)?;
    let n = parse_count(n)? as usize;
    if !e.game.moves().is_empty() || !e.game.handicap_stones().is_empty() {
        return Err(GtpError::new("board not empty"));
    }
    Ok(n)
}

fn fixed_handicap(e: &mut GoEngine, args: &[String]) -> Reply {
    let n = handicap_count(e, args)?;
    let points = handicap::fixed(e.game.size(), n)
        .ok_or_else(|| GtpError::new("invalid number of stones"))?;
    place_handicap(e, points)
}

fn place_free_handicap(e: &mut GoEngine, args: &[String]) -> Reply {
    let n = handicap_count(e, args)?;
    let size = e.game.size();
    if n < 2 || n >= size * size {
        return Err(GtpError::new("invalid number of stones"));
    }
    place_handicap(e, handicap::free(size, n))
}

fn set_free_handicap(e: &mut GoEngine, args: &[String]) -> Reply {
    if !e.game.moves().is_empty() || !e.game.handicap_stones().is_empty() {
        return Err(GtpError::new("board not empty"));
    }
    let size = e.game.size();
    let mut points = Vec::new();
    for a in args {
        match parse_vertex(a, size) {
            Ok(Some(v)) if !points.contains(&v) => points.push(v),
            Err(e) if e == GtpError::syntax() => return Err(e),
            _ => return Err(GtpError::new("bad vertex list")),
        }
    }
    if points.len() < 2 || points.len() >= size * size {
        return Err(GtpError::new("bad vertex list"));
    }
    place_handicap(e, points).map(|_| String::new())
}

fn loadsgf(e: &mut GoEngine, args: &[String]) -> Reply {
    let (file, until) = match args {
        [f] => (f, None),
        [f, n] => (f, Some(parse_count(n)? as usize)),
        _ => return Err(GtpError::syntax()),
    };
    let bytes = std::fs::read(file).map_err(|_| GtpError::new("cannot load file"))?;
    let record = sgf::parse_sgf(&String::from_utf8_lossy(&bytes))
        .map_err(|_| GtpError::new("cannot load file"))?;
    let game = record
        .to_game(until)
        .map_err(|_| GtpError::new("cannot load file"))?;
    let next = game.to_move();
    e.game = game;
    e.player.reset();
    Ok(next.to_string())
}

fn printsgf(e: &mut GoEngine, args: &[String]) -> Reply {
    let text = sgf::SgfGame::from_game(&e.game).to_sgf();
    match args {
        [] => Ok(text.trim_end().to_string()),
        [file] => std::fs::write(file, text)
            .map(|_| String::new())
            .map_err(|_| GtpError::new("cannot save file")),
        _ => Err(GtpError::syntax()),
    }
}

/// Every command but the server's own administrative ones; `list_commands` prints this order.
static COMMANDS: &[CommandSpec<GoEngine>] = &[
    CommandSpec::new("boardsize", boardsize),
    CommandSpec::new("clear_board", clear_board),
    CommandSpec::new("komi", komi),
    CommandSpec::new("play", play),
    CommandSpec::new("genmove", genmove),
    CommandSpec::new("reg_genmove", reg_genmove),
    CommandSpec::new("kgs-genmove_cleanup", genmove_cleanup),
    CommandSpec::new("undo", undo),
    CommandSpec::new("showboard", showboard),
    CommandSpec::new("final_score", final_score),
    CommandSpec::new("final_status_list", final_status_list),
    CommandSpec::new("fixed_handicap", fixed_handicap),
    CommandSpec::new("place_free_handicap", place_free_handicap),
    CommandSpec::new("set_free_handicap", set_free_handicap),
    CommandSpec::new("time_settings", time_settings),
    CommandSpec::new("kgs-time_settings", kgs_time_settings),
    CommandSpec::new("time_left", time_left),
    CommandSpec::new("loadsgf", loadsgf),
    CommandSpec::new("printsgf", printsgf),
    CommandSpec::new("gogui-analyze_commands", super::gogui::analyze_commands),
    CommandSpec::new("quartet-ownership", super::gogui::ownership),
    CommandSpec::new("quartet-best_moves", super::gogui::best_moves),
    CommandSpec::new("quartet-pv", super::gogui::pv),
    CommandSpec::new("quartet-dead_stones", super::gogui::dead_stones),
    CommandSpec::new("quartet-winrate", super::gogui::winrate),
    CommandSpec::analysis("lz-analyze", super::analysis::lz_analyze),
    CommandSpec::analysis("kata-analyze", super::analysis::kata_analyze),
    CommandSpec::analysis("analyze", super::analysis::lz_analyze),
    CommandSpec::streaming("lz-genmove_analyze", super::analysis::lz_genmove_analyze),
    CommandSpec::streaming(
        "kata-genmove_analyze",
        super::analysis::kata_genmove_analyze,
    ),
];

impl GtpEngine for GoEngine {
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
        self.player.stop_pondering();
        self.stop = stop.clone();
    }

    fn end_command(&mut self, name: &str) {
        // Think on the opponent's time after our own move, until the next command.
        if self.ponder
            && matches!(
                name,
                "genmove" | "kgs-genmove_cleanup" | "lz-genmove_analyze" | "kata-genmove_analyze"
            )
        {
            self.player.start_pondering(&self.game);
        }
    }

    fn on_quit(&mut self) {
        self.player.stop_pondering();
    }
}

impl Timed for GoEngine {
    fn time_manager(&mut self) -> &mut TimeManager {
        &mut self.time
    }
}
