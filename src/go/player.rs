//! The Go player: runs MCTS on worker threads for `genmove`, decides when to pass or resign,
//! keeps the tree between moves, and estimates dead stones for scoring.
//!
//! Thread contract: `genmove` blocks the calling thread until the search ends, which is at
//! the earliest of the playout limit, the soft deadline, or the stop flag being set.
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::board::{Board, Move, Point};
use super::game::Game;
use super::mcts::{Limits, MoveStats, Tree};
use super::settings::PlayerConfig;
use super::timing::{MovePlan, StopReason, Verdict, Watch};
use crate::color::Color;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Play(Move),
    Resign,
}

/// What a search found, for logging and tests.
#[derive(Clone, Debug)]
pub struct SearchReport {
    pub decision: Decision,
    pub playouts: u64,
    pub winrate: f32,
    pub best: Vec<MoveStats>,
    pub elapsed: Duration,
    /// Why a managed search ended (`None` for a fixed budget or playout count, or a stop
    /// from outside).
    pub stopped: Option<StopReason>,
}

/// Status of a stone at the end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoneStatus {
    Alive,
    Dead,
    Seki,
}

pub struct Player {
    config: PlayerConfig,
    /// The search tree, shared by all search threads; kept between moves.
    tree: Option<Tree>,
    /// Game moves when the tree's root was set, to find what was played since.
    root_moves: Vec<(Color, Move)>,
    searches: u64,
    /// Our moves in a row whose search found nothing above the resign threshold, and the
    /// ply of the last of them.
    low_streak: u32,
    last_low_ply: Option<usize>,
    /// The background search between commands (`--ponder`): it owns the tree until
    /// [`Player::stop_pondering`] takes them back.
    ponder: Option<Ponder>,
}

/// A running ponder: its stop flag and the thread that hands the tree back.
struct Ponder {
    stop: Arc<AtomicBool>,
    handle: std::thread::JoinHandle<Option<Tree>>,
}

/// Longest ponder (the same bound as the longest move): a forgotten engine stops using
/// the machine.
const MAX_PONDER: Duration = crate::search::time::MAX_MOVE_TIME;

/// The network's likeliest legal move (superko included), or a pass when it likes passing
/// best or nothing else is legal.
fn policy_move(
    net: &super::net::Network,
    game: &Game,
    board: &Board,
    color: Color,
    start: Instant,
) -> SearchReport {
    let mut scratch = super::net::Scratch::default();
    let mut eval = super::net::Evaluation::default();
    net.evaluate(board, color, &mut scratch, &mut eval);
    let mut best = (Move::Pass, eval.pass);
    for p in board.points() {
        let q = eval.policy[p];
        if q > best.1 && game.is_legal(color, Move::Play(p)) {
            best = (Move::Play(p), q);
        }
    }
    SearchReport {
        decision: Decision::Play(best.0),
        playouts: 0,
        winrate: (eval.value + 1.0) / 2.0,
        best: Vec::new(),
        elapsed: start.elapsed(),
        stopped: None,
    }
}

/// Playouts used for dead-stone estimation when no search ran recently.
const SCORING_PLAYOUTS: u64 = 3000;
/// Ownership beyond which a stone counts as dead (owned by the other side).
const DEAD_OWNERSHIP: f32 = 0.7;
/// Win rate a pass may give up against playing on, when the opponent has passed: the
/// judged end is searched with the opponent moving first, so it is already pessimistic.
const PASS_TOLERANCE: f32 = 0.03;
/// Our moves in a row with every searched move below the resign threshold before resigning.
const RESIGN_STREAK: u32 = 3;

impl Player {
    pub fn new(config: PlayerConfig) -> Player {
        Player {
            config,
            tree: None,
            root_moves: Vec::new(),
            searches: 0,
            low_streak: 0,
            last_low_ply: None,
            ponder: None,
        }
    }

    pub fn config(&self) -> &PlayerConfig {
        &self.config
    }

    /// Starts searching `game`'s position (the opponent to move, after our `genmove`) on
    /// a background thread until [`Player::stop_pondering`]. The tree moves to that
    /// thread and comes back grown, so the next search starts from the subtree of the move
    /// the opponent actually played.
    pub fn start_pondering(&mut self, game: &Game) {
        self.stop_pondering();
        if self.config.playouts.is_some() {
            // Fixed playouts are for reproducible play; pondering would change the tree.
            return;
        }
        let board = game.board().clone();
        self.prepare_tree(game, &board);
        let mut tree = self.tree.take();
        let threads = self.config.threads;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let handle = std::thread::spawn(move || {
            let limits = Limits {
                playouts: None,
                deadline: Some(Instant::now() + MAX_PONDER),
                stop: &flag,
            };
            if let Some(t) = tree.as_mut() {
                t.search(&limits, threads);
            }
            tree
        });
        self.ponder = Some(Ponder { stop, handle });
    }

    /// Stops a running ponder and takes its tree back (a few milliseconds: the
    /// searches poll the flag every simulation). Without one, does nothing.
    pub fn stop_pondering(&mut self) {
        if let Some(p) = self.ponder.take() {
            p.stop.store(true, Ordering::Relaxed);
            match p.handle.join() {
                Ok(tree) => self.tree = tree,
                Err(_) => {
                    tracing::error!("ponder thread panicked; starting a new tree");
                    self.reset();
                }
            }
        }
    }

    /// Forgets the search tree (new game, board size or komi change).
    pub fn reset(&mut self) {
        self.tree = None;
        self.root_moves.clear();
        self.low_streak = 0;
        self.last_low_ply = None;
    }

    fn prepare_tree(&mut self, game: &Game, board: &Board) {
        let moves = game.moves();
        let since: Option<Vec<Move>> = (moves.len() >= self.root_moves.len()
            && moves[..self.root_moves.len()] == self.root_moves[..])
            .then(|| moves[self.root_moves.len()..].iter().map(|m| m.1).collect());
        let unchanged = since.as_ref().is_some_and(|s| s.is_empty())
            && self.tree.as_ref().is_some_and(|t| {
                t.root_board().hash() == board.hash() && t.root_board().to_move() == board.to_move()
            });
        if unchanged {
            // Same position (analysis steps, a genmove after analysis): keep searching it.
            return;
        }
        let shift = self.config.dynkomi.extra(game);
        if shift != 0.0 {
            tracing::debug!(shift, komi = game.komi() + shift, "dynamic komi");
        }
        match (self.tree.as_mut(), since) {
            (Some(t), Some(since)) => t.advance(&since, board, game.komi(), shift, game.history()),
            _ => {
                let seed = self
                    .config
                    .seed
                    .wrapping_add(self.searches.wrapping_mul(0x9E37_79B9));
                let komi = game.komi() + shift;
                let tree = Tree::new(board, komi, game.history(), seed, &self.config.search);
                self.tree = Some(tree.with_shift(shift));
            }
        }
        self.root_moves = moves.to_vec();
        self.searches += 1;
    }

    fn run_search(&mut self, deadline: Option<Instant>, stop: &AtomicBool) -> u64 {
        let playouts = self.config.playouts;
        let limits = Limits {
            playouts,
            deadline,
            stop,
        };
        let threads = self.config.threads.max(1);
        self.tree.as_mut().map_or(0, |t| t.search(&limits, threads))
    }

    /// Searches in slices, looking at the root between them, until the watch says the
    /// choice is settled or the plan (with its extensions) is spent; never past
    /// `plan.max` after `start`.
    /// Returns the playouts run and why the search stopped.
    fn run_managed(
        &mut self,
        plan: MovePlan,
        start: Instant,
        stop: &AtomicBool,
    ) -> (u64, Option<StopReason>) {
        let at_start = self.tree.as_ref().map_or(0, Tree::root_visits) as u64;
        let mut watch = Watch::new(plan, at_start);
        let mut until = watch.slice().min(plan.base);
        let mut playouts = 0;
        loop {
            playouts += self.run_search(Some(start + until), stop);
            if stop.load(Ordering::Relaxed) {
                return (playouts, None);
            }
            let Some(tree) = self.tree.as_ref() else {
                return (playouts, None);
            };
            let elapsed = start.elapsed();
            let stats = tree.root_stats();
            let candidates = tree.root_candidates().unwrap_or(usize::MAX);
            match watch.check(elapsed, &stats, candidates, tree.root_visits() as u64) {
                Verdict::Continue { until: next } => until = next.max(elapsed),
                Verdict::Stop(reason) => {
                    tracing::debug!(
                        ?reason,
                        ms = elapsed.as_millis() as u64,
                        base_ms = plan.base.as_millis() as u64,
                        target_ms = watch.target().as_millis() as u64,
                        max_ms = plan.max.as_millis() as u64,
                        playouts,
                        "time manager stops"
                    );
                    return (playouts, Some(reason));
                }
            }
        }
    }

    /// The root moves searched, most visited first.
    fn root_stats(&self) -> Vec<MoveStats> {
        self.tree.as_ref().map_or_else(Vec::new, Tree::root_stats)
    }

    /// Searches the position for `budget` (or until `stop`), keeping the tree, for live
    /// analysis. Returns the playouts run.
    pub fn analyze_step(
        &mut self,
        game: &Game,
        color: Color,
        budget: Duration,
        stop: &AtomicBool,
    ) -> u64 {
        let mut board = game.board().clone();
        board.set_to_move(color);
        self.prepare_tree(game, &board);
        self.run_search(Some(Instant::now() + budget), stop)
    }

    /// The search tree, for reporting (none before the first search).
    pub fn tree(&self) -> Option<&Tree> {
        self.tree.as_ref()
    }

    /// Every root move, unvisited ones included, most visited first.
    pub fn all_root_stats(&self) -> Vec<MoveStats> {
        self.tree
            .as_ref()
            .map_or_else(Vec::new, Tree::all_root_stats)
    }

    /// Chooses a move for `color`. `plan` is the move's time when no fixed playout count is
    /// configured (1 s without one). In `cleanup` mode (kgs-genmove_cleanup) it does not pass
    /// while opponent stones it judges dead are still on the board.
    pub fn genmove(
        &mut self,
        game: &Game,
        color: Color,
        plan: Option<MovePlan>,
        stop: &AtomicBool,
        cleanup: bool,
    ) -> SearchReport {
        let start = Instant::now();
        let mut board = game.board().clone();
        board.set_to_move(color);
        if self.config.policy_only {
            if let Some(np) = self.config.search.net.clone() {
                return policy_move(&np.net, game, &board, color, start);
            }
        }
        self.prepare_tree(game, &board);
        let plan = plan.unwrap_or(MovePlan::fixed(Duration::from_secs(1)));
        let (playouts, stopped) = match self.config.playouts {
            Some(_) => (self.run_search(None, stop), None),
            None if plan.managed => self.run_managed(plan, start, stop),
            None => (self.run_search(Some(start + plan.base), stop), None),
        };
        let best = self.root_stats();
        let top = best.first().copied();
        let winrate = top.map_or(0.5, |s| s.winrate());
        let decision = self.decide(game, &board, color, &best, cleanup);
        SearchReport {
            decision,
            playouts,
            winrate,
            best: best.into_iter().take(5).collect(),
            elapsed: start.elapsed(),
            stopped,
        }
    }

    fn decide(
        &mut self,
        game: &Game,
        board: &Board,
        color: Color,
        stats: &[MoveStats],
        cleanup: bool,
    ) -> Decision {
        let top = stats.first().copied();
        let Some(top) = top else {
            return Decision::Play(Move::Pass);
        };
        if self.should_resign(game, board, stats) {
            return Decision::Resign;
        }
        let opponent_passed = matches!(game.moves().last(), Some((_, Move::Pass)));
        if !opponent_passed {
            return Decision::Play(top.mv);
        }
        let best_play = stats.iter().find(|s| s.mv != Move::Pass).copied();
        let Some(pass) = stats.iter().find(|s| s.mv == Move::Pass).copied() else {
            return Decision::Play(top.mv);
        };
        let Some(play) = best_play else {
            return Decision::Play(Move::Pass);
        };
        // Passing now ends the game. The search valued that end by settling the board
        // with the opponent moving first; pass when that is as good as playing on.
        let search_agrees = pass.winrate() + PASS_TOLERANCE >= play.winrate();
        // A referee without life-and-death judgement counts the board as it stands: while
        // that count loses but our estimate with dead stones removed wins, capturing those
        // stones first costs nothing under area rules and wins for any referee.
        let sign = if color == Color::Black { 1.0 } else { -1.0 };
        let as_is = sign * game.area_score();
        let dead = self.dead_stones_from_tree(board);
        let estimated = sign * game.area_score_without(&dead);
        let opponent_dead = dead
            .iter()
            .any(|&p| board.stone(p) == Some(color.opponent()));
        let capture_first = as_is <= 0.0 && estimated > 0.0 || cleanup && opponent_dead;
        if search_agrees && !capture_first {
            Decision::Play(Move::Pass)
        } else {
            Decision::Play(play.mv)
        }
    }

    /// Resigns only when the best win rate has stayed below the threshold for
    /// [`RESIGN_STREAK`] of our moves in a row and no reasonably searched move holds.
    /// Updates the streak, so call it once per `genmove`.
    fn should_resign(&mut self, game: &Game, board: &Board, stats: &[MoveStats]) -> bool {
        let threshold = self.config.resign_threshold;
        let total = self.tree.as_ref().map_or(0, Tree::root_visits);
        let plies = game.moves().len();
        // One reasonably searched move above the threshold means the position still holds.
        let enough = (total / 50).max(20);
        let best = stats
            .iter()
            .filter(|s| s.visits >= enough)
            .map(|s| s.winrate())
            .fold(0.0f32, f32::max);
        // Win rates under a dynamic komi are not the game's: no resigning on them.
        let dynamic = self.config.dynkomi.extra(game) != 0.0;
        let low = threshold > 0.0 && total >= 1000 && best < threshold && !dynamic;
        if !low {
            self.low_streak = 0;
            return false;
        }
        self.low_streak = match self.last_low_ply {
            Some(p) if p == plies => self.low_streak, // the same position asked again
            Some(p) if p + 2 == plies => self.low_streak + 1,
            _ => 1,
        };
        self.last_low_ply = Some(plies);
        self.low_streak >= RESIGN_STREAK && plies >= board.size() * 2
    }

    fn dead_stones_from_tree(&self, board: &Board) -> Vec<Point> {
        let mut dead = Vec::new();
        for p in board.points() {
            let Some(c) = board.stone(p) else { continue };
            let black = self.tree.as_ref().map_or(0.5, |t| t.black_ownership(p));
            let own = if c == Color::Black {
                black
            } else {
                1.0 - black
            };
            if own < 1.0 - DEAD_OWNERSHIP && !super::seki::in_seki(board, p) {
                dead.push(p);
            }
        }
        dead
    }

    /// Status of every stone, from playouts of the current position (whoever is to move).
    pub fn stone_statuses(&mut self, game: &Game) -> Vec<(Point, StoneStatus)> {
        let board = game.board().clone();
        let mut tree = Tree::new(
            &board,
            game.komi(),
            game.history(),
            self.config.seed ^ 0x5C0,
            &self.config.search,
        );
        let stop = AtomicBool::new(false);
        tree.search(
            &Limits {
                playouts: Some(SCORING_PLAYOUTS),
                deadline: Some(Instant::now() + Duration::from_secs(3)),
                stop: &stop,
            },
            self.config.threads,
        );
        let mut out = Vec::new();
        for p in board.points() {
            let Some(c) = board.stone(p) else { continue };
            let black = tree.black_ownership(p);
            let own = if c == Color::Black {
                black
            } else {
                1.0 - black
            };
            let status = if super::seki::in_seki(&board, p) {
                StoneStatus::Seki
            } else if own < 1.0 - DEAD_OWNERSHIP {
                StoneStatus::Dead
            } else {
                StoneStatus::Alive
            };
            out.push((p, status));
        }
        out
    }

    /// Area score with the stones judged dead taken off; > 0 means black wins.
    pub fn final_score(&mut self, game: &Game) -> f32 {
        let dead: Vec<Point> = self
            .stone_statuses(game)
            .into_iter()
            .filter(|s| s.1 == StoneStatus::Dead)
            .map(|s| s.0)
            .collect();
        game.area_score_without(&dead)
    }

    /// Asks a running search to stop (for use from another thread via the shared flag).
    pub fn request_stop(stop: &AtomicBool) {
        stop.store(true, Ordering::Relaxed);
    }
}
