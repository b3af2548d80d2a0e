//! `quartet go`: the Go engine as a GTP version 2 server on stdin/stdout.
use clap::Args;
use std::sync::Arc;
use std::time::Duration;

use crate::go::dynkomi::DynKomi;
use crate::go::features::{Gammas, PriorModel, BUILT_IN};
use crate::go::gtp::GoEngine;
use crate::go::lgrf::Stage;
use crate::go::net::Network;
use crate::go::playout::{Mercy, PlayoutParams};
use crate::go::settings::PlayerConfig;
use crate::go::settings::{GoSettings, SearchParams, TimeMode, TreeNet};
use crate::search::time::TimeSettings;

/// Virtual wins of the likeliest move under the learnt model, unless `--mm-weight` says:
/// 30 with the built-in diamond model (20 suited mm-v1, which has no diamonds).
pub const DEFAULT_MM_WEIGHT: f32 = 30.0;

#[derive(Args, Debug)]
pub struct GoArgs {
    /// Fixed playouts per move, all threads together (reproducible play); overrides the clock.
    #[arg(long)]
    pub playouts: Option<u64>,
    /// Search threads, all growing one shared tree.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed of the playout random numbers.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds per move when no time control was set with time_settings.
    #[arg(long, default_value_t = 1.0)]
    pub move_time: f64,
    /// Milliseconds kept back from every move's time, besides 2.5% of it, for the lag
    /// between the controller's clock and ours (raise it when playing over a network).
    #[arg(long, default_value_t = crate::search::time::DEFAULT_LAG_BUFFER_MS)]
    pub lag_buffer: u64,
    /// Resign below this win rate (0 never resigns).
    #[arg(long, default_value_t = 0.08)]
    pub resign_threshold: f32,
    /// Keep searching on the opponent's time after each genmove, until the next command
    /// (the next search starts from the subtree of the move actually played).
    #[arg(long)]
    pub ponder: bool,
    /// GoGui live graphics: while genmove thinks, `gogui-gfx:` draw commands on stderr
    /// every 0.5 s (the best moves' win rates as labels, the principal variation).
    #[arg(long)]
    pub gfx: bool,
    /// Tree priors: `mm` (learnt gammas added to the hand-set priors), `classic`
    /// (hand-set only) or `mm-replace` (learnt gammas instead of the hand-set capture,
    /// self-atari, 3x3 pattern and distance priors).
    #[arg(long, default_value = "mm")]
    pub priors: String,
    /// Weights file for `--priors mm*`; unset: the built-in data/go/mm-v2.txt, with the
    /// 12-point diamond patterns (data/go/mm-v1.txt is the model without them,
    /// data/go/mm-v3.txt a fit to Pachi's games).
    #[arg(long)]
    pub mm_weights: Option<String>,
    /// Virtual wins of the likeliest move under the learnt model.
    #[arg(long, default_value_t = DEFAULT_MM_WEIGHT)]
    pub mm_weight: f32,
    /// How a move's share of `--mm-weight` is scaled: `best` (the square root of its
    /// strength relative to the likeliest move's) or `sum` (of its probability among all
    /// candidates, Pachi's pattern prior, which wants a weight near 200).
    #[arg(long, default_value = "best", value_parser = ["best", "sum"])]
    pub mm_norm: String,
    /// Virtual wins of a tree move that gives liberties to an own string the playouts
    /// leave in doubt (2-4 liberties, alive in 20-80% of them) or takes them from such an
    /// enemy string; 0 turns it off.
    #[arg(long, default_value_t = 0.0)]
    pub weak_prior: f32,
    /// Probability of the playouts' global capture stage (take a string in atari anywhere
    /// before playing a random move); 0 turns it off.
    #[arg(long, default_value_t = 0.0)]
    pub global_capture: f64,
    /// Probability of the playouts' nakade stage: after a move that walls in a small eye
    /// space (three to six points in a killing shape), play its vital point; 0 turns it off.
    #[arg(long, default_value_t = crate::go::playout::DEFAULT_NAKADE)]
    pub nakade: f64,
    /// Playout early termination (the mercy rule): a playout stops once one side has
    /// captured this many more stones than the other since it began, and that side wins;
    /// `auto` is a quarter of the board's points (20 on 9x9), 0 plays every playout out.
    #[arg(long, default_value = "auto")]
    pub mercy: String,
    /// Simulations after which a tree move's own win rate weighs as much as its RAVE
    /// (all-moves-as-first) value; smaller trusts RAVE for fewer simulations.
    #[arg(long, default_value_t = crate::go::settings::DEFAULT_RAVE_EQUIV)]
    pub rave_equiv: f32,
    /// Last good reply with forgetting in the playouts (Baier and Drake 2010): `off`,
    /// `first` (before the capture answers), `after-captures` or `before-random`.
    #[arg(long, default_value = "off", value_parser = ["off", "first", "after-captures", "before-random"])]
    pub lgrf: String,
    /// Dynamic komi in handicap games: the search counts with this many extra points of
    /// komi per handicap stone (White asked for less, Black for more), falling linearly
    /// to the game's komi; 0 turns it off.
    #[arg(long, default_value_t = 0.0)]
    pub dynkomi: f32,
    /// Moves after which the dynamic komi is gone, as a fraction of the board's points.
    #[arg(long, default_value_t = 0.5)]
    pub dynkomi_fade: f32,
    /// Time manager (`on`, `off`, `plan`): under a clock that banks saved time, `on` plans
    /// each move from the moves left, stops early when the choice is settled and thinks
    /// longer when it is in doubt; `off` gives every move an even share of the clock over
    /// half the empty points; `plan` is `on`'s plan without early stops or extensions.
    #[arg(long, default_value = "on", value_parser = ["on", "off", "plan"])]
    pub time_manager: String,
    /// Policy and value network weights (made by scripts/train/go_net.py): the tree gives
    /// every new node's children virtual wins from the network's move probabilities.
    /// Unset: no network.
    #[arg(long)]
    pub net: Option<std::path::PathBuf>,
    /// Virtual wins of the network's likeliest move (the others': this times the square
    /// root of their probability relative to it).
    #[arg(long, default_value_t = 30.0)]
    pub net_weight: f32,
    /// Virtual simulations that carry the network's value of each new node's position
    /// (won as often as the value says); 0 leaves the value out.
    #[arg(long, default_value_t = 0.0)]
    pub net_value_weight: f32,
    /// Simulations a node must have had before the network judges it (the root is judged
    /// at once); nodes get their children after 8, so 8 judges every node as it grows
    /// them, more saves the network's time for the nodes the search returns to.
    #[arg(long, default_value_t = 8)]
    pub net_visits: u32,
    /// Play the network's likeliest move at once, without searching (needs `--net`): the
    /// network alone as a player.
    #[arg(long)]
    pub policy_only: bool,
    /// Log level on stderr (error, warn, info, debug, trace); RUST_LOG also works.
    #[arg(long)]
    pub log_level: Option<String>,
}

pub fn run(args: GoArgs) -> Result<(), String> {
    crate::logging::init_logging(args.log_level.as_deref())?;
    let engine = GoEngine::new(settings(&args)?);
    crate::protocol::run_stdio(engine).map_err(|e| format!("i/o error: {e}"))
}

/// The engine's settings from the command line, each option checked (in this order: the
/// first bad one is the error).
pub fn settings(args: &GoArgs) -> Result<GoSettings, String> {
    if args.threads == 0 || args.threads > 256 {
        return Err("--threads must be between 1 and 256".into());
    }
    if !(args.move_time > 0.0 && args.move_time <= 86_400.0) {
        return Err("--move-time must be in (0, 86400] seconds".into());
    }
    let time = TimeSettings::new(Duration::from_secs_f64(args.move_time), args.lag_buffer)?;
    if args.playouts == Some(0) {
        return Err("--playouts must be at least 1".into());
    }
    if !(0.0..1.0).contains(&args.resign_threshold) {
        return Err("--resign-threshold must be in [0, 1)".into());
    }
    let fade_ok = args.dynkomi_fade > 0.0 && args.dynkomi_fade <= 4.0;
    if !((0.0..=50.0).contains(&args.dynkomi) && fade_ok) {
        return Err("--dynkomi must be in [0, 50] points and --dynkomi-fade in (0, 4]".into());
    }
    let model = prior_model(
        &args.priors,
        args.mm_weights.as_deref(),
        args.mm_weight,
        args.mm_norm == "sum",
    )?;
    if !(0.0..=1000.0).contains(&args.weak_prior) {
        return Err("--weak-prior must be in [0, 1000]".into());
    }
    let global_capture = probability("--global-capture", args.global_capture)?;
    let nakade = probability("--nakade", args.nakade)?;
    let mercy = match args.mercy.as_str() {
        "auto" => Mercy::Auto,
        n => match n.parse::<u32>() {
            Ok(stones) if stones <= 1000 => Mercy::Stones(stones),
            _ => return Err("--mercy must be auto or a number of stones up to 1000".into()),
        },
    };
    if !(1.0..=1e7).contains(&args.rave_equiv) {
        return Err("--rave-equiv must be in [1, 10000000]".into());
    }
    let lgrf = match args.lgrf.as_str() {
        "first" => Stage::First,
        "after-captures" => Stage::AfterCaptures,
        "before-random" => Stage::BeforeRandom,
        _ => Stage::Off,
    };
    if !(0.0..=1000.0).contains(&args.net_weight)
        || !(0.0..=1000.0).contains(&args.net_value_weight)
    {
        return Err("--net-weight and --net-value-weight must be in [0, 1000]".into());
    }
    let net = match &args.net {
        Some(path) => Some(Arc::new(TreeNet {
            net: Network::load(path)?,
            weight: args.net_weight,
            value_weight: args.net_value_weight,
            visits: args.net_visits,
        })),
        None if args.policy_only => return Err("--policy-only needs --net".into()),
        None => None,
    };
    let search = SearchParams {
        rave_equiv: args.rave_equiv,
        weak_prior: args.weak_prior,
        model,
        net,
        playout: PlayoutParams {
            lgrf,
            global_capture,
            nakade,
            mercy,
        },
    };
    let player = PlayerConfig {
        playouts: args.playouts,
        threads: args.threads,
        seed: args.seed,
        resign_threshold: args.resign_threshold,
        dynkomi: DynKomi {
            per_stone: args.dynkomi,
            fade: args.dynkomi_fade,
        },
        search,
        policy_only: args.policy_only,
    };
    Ok(GoSettings {
        player,
        time,
        time_manager: match args.time_manager.as_str() {
            "on" => TimeMode::On,
            "plan" => TimeMode::PlanOnly,
            _ => TimeMode::Off,
        },
        ponder: args.ponder,
        gfx: args.gfx,
    })
}

/// `p` if it is a probability, else the error naming `option`.
fn probability(option: &str, p: f64) -> Result<f64, String> {
    if (0.0..=1.0).contains(&p) {
        Ok(p)
    } else {
        Err(format!("{option} must be in [0, 1]"))
    }
}

/// The tree's prior model for `--priors` (`classic`: none, `mm`, `mm-replace`) with the
/// weights file `weights` (default: the built-in one) and `--mm-weight`.
pub fn prior_model(
    priors: &str,
    weights: Option<&str>,
    weight: f32,
    by_probability: bool,
) -> Result<Option<Arc<PriorModel>>, String> {
    let replace = match priors {
        "classic" => return Ok(None),
        "mm" => false,
        "mm-replace" => true,
        other => {
            return Err(format!(
                "--priors: unknown `{other}` (classic, mm, mm-replace)"
            ))
        }
    };
    if !(0.0..=1000.0).contains(&weight) {
        return Err("--mm-weight must be in [0, 1000]".into());
    }
    let text = match weights {
        Some(path) => std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?,
        None => BUILT_IN.to_string(),
    };
    let gammas = Gammas::parse(&text)
        .map_err(|e| format!("{}: {e}", weights.unwrap_or("built-in weights")))?;
    Ok(Some(Arc::new(PriorModel {
        gammas,
        weight,
        replace,
        by_probability,
    })))
}
