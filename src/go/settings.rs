//! The Go engine's settings as values: what `quartet go`'s options set, built once from
//! the command line and handed down (engine, player, tree, playouts), so that two engines
//! in one process (a match, a test) can differ. Tables built once from built-in data
//! (the 3x3 patterns, the diamonds) are the same for every engine and stay shared.
use std::sync::Arc;

use super::dynkomi::DynKomi;
use super::features::PriorModel;
use super::net::Network;
use super::playout::PlayoutParams;
use crate::search::time::TimeSettings;

/// The default of `--rave-equiv`, the simulations after which a child's own mean weighs as
/// much as its RAVE value (Michi's 3500).
pub const DEFAULT_RAVE_EQUIV: f32 = 3500.0;

/// What the tree search and its playouts read: the tree's priors, RAVE and the playout
/// policy. The search threads read it by reference.
#[derive(Clone, Debug)]
pub struct SearchParams {
    /// Simulations after which a child's own mean weighs as much as its RAVE value
    /// (`--rave-equiv`).
    pub rave_equiv: f32,
    /// Virtual wins (and visits) of a tree move that defends or attacks a weak string
    /// (`--weak-prior`, see `weak.rs`); 0 turns the prior off.
    pub weak_prior: f32,
    /// The learnt model added to (or replacing) the hand-set priors (`--priors`); none:
    /// the hand-set priors alone.
    pub model: Option<Arc<PriorModel>>,
    /// The network's priors and value (`--net`); none: no network.
    pub net: Option<Arc<TreeNet>>,
    pub playout: PlayoutParams,
}

/// The network in the tree, evaluated once for every node that reaches `visits`
/// simulations (and the root): the node's children get virtual wins (and visits) of
/// `weight` times the square root of their probability relative to the likeliest move's,
/// and the node itself `value_weight` virtual visits won as often as the network's value
/// says.
#[derive(Debug)]
pub struct TreeNet {
    pub net: Network,
    pub weight: f32,
    pub value_weight: f32,
    pub visits: u32,
}

impl Default for SearchParams {
    /// The hand-set priors without a learnt model, and every option's default.
    fn default() -> Self {
        SearchParams {
            rave_equiv: DEFAULT_RAVE_EQUIV,
            weak_prior: 0.0,
            model: None,
            net: None,
            playout: PlayoutParams::default(),
        }
    }
}

/// How the player searches: its limits, threads, seed, resigning, dynamic komi and the
/// [`SearchParams`].
#[derive(Clone, Debug)]
pub struct PlayerConfig {
    /// Fixed playouts per move (all threads together), for reproducible play; `None`
    /// means timed.
    pub playouts: Option<u64>,
    pub threads: usize,
    pub seed: u64,
    /// Resign when the best move's win rate falls below this (0 disables resigning).
    pub resign_threshold: f32,
    /// Extra komi for the search in handicap games.
    pub dynkomi: DynKomi,
    /// The tree's priors and RAVE, the playout policy.
    pub search: SearchParams,
    /// Play the network's likeliest move without searching (`--policy-only`; needs
    /// `search.net`).
    pub policy_only: bool,
}

impl Default for PlayerConfig {
    fn default() -> Self {
        PlayerConfig {
            playouts: None,
            threads: 1,
            seed: 1,
            resign_threshold: 0.08,
            dynkomi: DynKomi::OFF,
            search: SearchParams::default(),
            policy_only: false,
        }
    }
}

/// How `genmove` spends a clock's time (`--time-manager`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeMode {
    /// An even share of the clock over half the empty points (at least 10 moves).
    Off,
    /// [`super::timing::plan`]: the share from the moves left, early stops and extensions.
    On,
    /// `On`'s share without early stops or extensions, to measure the two apart.
    PlanOnly,
}

/// Everything `quartet go` sets for one engine.
#[derive(Clone, Debug)]
pub struct GoSettings {
    /// The player's search: playouts, threads, seed, resigning, dynamic komi and the
    /// [`SearchParams`].
    pub player: PlayerConfig,
    /// The move time without a clock and the lag buffer.
    pub time: TimeSettings,
    pub time_manager: TimeMode,
    /// Search on the opponent's time after each of our moves (`--ponder`).
    pub ponder: bool,
    /// GoGui live graphics on stderr while `genmove` thinks (`--gfx`).
    pub gfx: bool,
}
