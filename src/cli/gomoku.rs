//! `quartet gomoku`: the Gomoku engine over GTP, or with `--pbrain` over the Gomocup
//! protocol.
use clap::Args;

use crate::gomoku::search::SearchConfig;
use crate::gomoku::weights::EvalWeights;
use crate::search::time::TimeSettings;

#[derive(Args, Debug)]
pub struct GomokuArgs {
    /// Speak the Gomocup (Piskvork) protocol instead of GTP.
    #[arg(long)]
    pub pbrain: bool,
    /// Candidate moves searched per node, best first.
    #[arg(long, default_value_t = 10)]
    pub width: usize,
    /// Deepest search iteration; the clock may stop earlier.
    #[arg(long, default_value_t = 64)]
    pub depth: u32,
    /// No VCF/VCT search and no VCF defence: the plain window alpha-beta of the value-estimation
    /// paper (`--width 5 --depth 10 --no-threats` is its configuration).
    #[arg(long)]
    pub no_threats: bool,
    /// No line patterns in the evaluation and move order (the window sums alone).
    #[arg(long)]
    pub no_patterns: bool,
    /// Where df-pn replaces the iterative-deepening VCT search: `attack` (the own and the
    /// opponent's VCT at the root), `defence` (the root defence against the opponent's VCT),
    /// `all` or `none`.
    #[arg(long, default_value = "none")]
    pub dfpn: String,
    /// Seconds per move when no time control was set.
    #[arg(long, default_value_t = 1.0)]
    pub move_time: f64,
    /// Milliseconds kept back from every move's time, besides 2.5% of it, for the lag
    /// between the controller's clock and ours (raise it when playing over a network).
    #[arg(long, default_value_t = crate::search::time::DEFAULT_LAG_BUFFER_MS)]
    pub lag_buffer: u64,
    /// Transposition table size in MiB: 1 to 65536, and (with the threat cache, half as
    /// much again) no more than the machine's memory.
    #[arg(long, default_value_t = 64)]
    pub hash_mb: usize,
    /// Search threads for one move, 1 to 256, sharing the transposition table; the default
    /// 1 keeps games reproducible. The pbrain `INFO THREAD_NUM` sets it for the next move.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Search on the opponent's time: after each `genmove`, until the next command (GTP
    /// only).
    #[arg(long)]
    pub ponder: bool,
    /// Log level on stderr (error, warn, info, debug, trace); RUST_LOG also works.
    #[arg(long)]
    pub log_level: Option<String>,
    /// Weights of the line-pattern evaluation: `learnt` (data/gomoku/eval-v1.txt, built
    /// in), `classic` (the hand-set ones before it) or a weights file (a version 3 file,
    /// such as data/gomoku/eval-codes-masks.txt, holds per-cell pattern-code tables and
    /// threat-mask weights instead of the class weights).
    #[arg(long, default_value = "learnt")]
    pub eval: String,
}

impl Default for GomokuArgs {
    fn default() -> Self {
        GomokuArgs {
            pbrain: true,
            width: 10,
            depth: 64,
            no_threats: false,
            no_patterns: false,
            dfpn: "none".into(),
            move_time: 1.0,
            lag_buffer: crate::search::time::DEFAULT_LAG_BUFFER_MS,
            hash_mb: 64,
            threads: 1,
            ponder: false,
            log_level: None,
            eval: "learnt".into(),
        }
    }
}

fn config(args: &GomokuArgs) -> Result<(SearchConfig, TimeSettings), String> {
    if args.threads == 0 || args.threads > 256 {
        return Err("--threads must be between 1 and 256".into());
    }
    if !(1..=400).contains(&args.width) {
        return Err("--width must be between 1 and 400".into());
    }
    if !(1..=100).contains(&args.depth) {
        return Err("--depth must be between 1 and 100".into());
    }
    if !(args.move_time > 0.0 && args.move_time <= 86_400.0) {
        return Err("--move-time must be in (0, 86400] seconds".into());
    }
    let move_time = std::time::Duration::from_secs_f64(args.move_time);
    let time = TimeSettings::new(move_time, args.lag_buffer)?;
    let (dfpn_attack, dfpn_defence) = match args.dfpn.as_str() {
        "all" => (true, true),
        "attack" => (true, false),
        "defence" => (false, true),
        "none" => (false, false),
        _ => return Err("--dfpn must be all, attack, defence or none".into()),
    };
    // The threat cache takes half as much again as the table, the df-pn table a quarter.
    crate::memory::check_hash_mb(args.hash_mb, args.hash_mb as u64 * 7 / 4)?;
    let (eval, codes) = EvalWeights::load(&args.eval)?.into_search();
    let search = SearchConfig {
        width: args.width,
        max_depth: args.depth,
        threats: !args.no_threats,
        patterns: !args.no_threats && !args.no_patterns,
        tt_mb: args.hash_mb,
        eval,
        codes,
        dfpn_attack,
        dfpn_defence,
        threads: args.threads,
    };
    Ok((search, time))
}

pub fn run(args: GomokuArgs) -> Result<(), String> {
    crate::logging::init_logging(args.log_level.as_deref())?;
    let (cfg, time) = config(&args)?;
    if args.pbrain && args.ponder {
        return Err("--ponder is for the GTP mode; the pbrain mode does not ponder".into());
    }
    if args.pbrain {
        crate::gomoku::pbrain::run_stdio(cfg, time.move_time).map_err(|e| format!("i/o error: {e}"))
    } else {
        let engine = crate::gomoku::gtp::GomokuEngine::new(cfg, time).with_ponder(args.ponder);
        crate::protocol::run_stdio(engine).map_err(|e| format!("i/o error: {e}"))
    }
}
