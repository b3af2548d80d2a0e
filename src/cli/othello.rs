//! `quartet othello`: the Othello engine as a GTP server on stdin/stdout.
use crate::othello::eval::Weights;
use crate::othello::evaluator::Evaluator;
use crate::othello::gtp::OthelloEngine;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct OthelloArgs {
    /// Transposition table size in MiB (shared between midgame search and solver): 1 to
    /// 65536, and no more than the machine's memory.
    #[arg(long, default_value_t = 64)]
    pub hash_mb: usize,
    /// Evaluation weights: linear weights (text, as data/othello/weights.txt, the
    /// default) or pattern tables (binary, as data/othello/patterns.bin); at most 16 MiB.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Seconds per move when no time control was set with time_settings.
    #[arg(long, default_value_t = 1.0)]
    pub move_time: f64,
    /// Longest time one `solve` command may take, in seconds; then it answers
    /// `? not solved in T s`.
    #[arg(long, default_value_t = 60.0)]
    pub solve_time: f64,
    /// Search on the opponent's time: after each `genmove`, until the next command.
    #[arg(long)]
    pub ponder: bool,
    /// Log level on stderr (error, warn, info, debug, trace); RUST_LOG also works.
    #[arg(long)]
    pub log_level: Option<String>,
}

pub fn run(args: OthelloArgs) -> Result<(), String> {
    crate::logging::init_logging(args.log_level.as_deref())?;
    // The midgame table and the endgame solver's take half each.
    crate::memory::check_hash_mb(args.hash_mb, args.hash_mb as u64)?;
    if !(args.move_time > 0.0 && args.move_time <= 86_400.0) {
        return Err("--move-time must be in (0, 86400] seconds".into());
    }
    if !(args.solve_time > 0.0 && args.solve_time <= 86_400.0) {
        return Err("--solve-time must be in (0, 86400] seconds".into());
    }
    let eval = match &args.weights {
        Some(p) => Evaluator::load(p)?,
        None => Evaluator::from(Weights::default_weights()),
    };
    let engine = OthelloEngine::new(eval, args.hash_mb, Duration::from_secs_f64(args.move_time))
        .with_solve_time(Duration::from_secs_f64(args.solve_time))
        .with_ponder(args.ponder);
    crate::protocol::run_stdio(engine).map_err(|e| format!("i/o error: {e}"))
}
