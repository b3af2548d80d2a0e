//! `quartet dots` (the protocol engine) and `quartet bench dots`.
use crate::dots::gtp::{DotsEngine, DEFAULT_SOLVE_LIMIT};
use crate::dots::solver::Solver;
use crate::dots::{Board, Geometry};
use clap::Args;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct DotsArgs {
    /// Seconds per move when no time control was set with time_settings.
    #[arg(long, default_value_t = 1.0)]
    pub move_time: f64,
    /// Most undrawn edges the `solve` command accepts before answering `? too large`.
    #[arg(long, default_value_t = DEFAULT_SOLVE_LIMIT)]
    pub solve_limit: usize,
    /// Log level on stderr (error, warn, info, debug, trace); RUST_LOG also works.
    #[arg(long)]
    pub log_level: Option<String>,
}

pub fn run(args: DotsArgs) -> Result<(), String> {
    crate::logging::init_logging(args.log_level.as_deref());
    if !(args.move_time > 0.0 && args.move_time <= 86_400.0) {
        return Err("--move-time must be in (0, 86400] seconds".into());
    }
    let engine = DotsEngine::new(Duration::from_secs_f64(args.move_time), args.solve_limit);
    crate::protocol::run_stdio(engine).map_err(|e| format!("i/o error: {e}"))
}

#[derive(Args, Debug)]
pub struct BenchDotsArgs {
    /// Board to solve from empty, CxR boxes (3x3, 3x4, 4x4, ...).
    #[arg(long, default_value = "3x3")]
    pub solve: String,
    /// log2 of the transposition-table entries (32 bytes each).
    #[arg(long, default_value_t = 22)]
    pub tt_bits: u32,
}

/// Solves the empty board and prints value, nodes, nodes/s and time.
pub fn bench(args: BenchDotsArgs) -> Result<(), String> {
    let geo = Geometry::parse_size(&args.solve).map_err(|e| e.to_string())?;
    if !(10..=28).contains(&args.tt_bits) {
        return Err("--tt-bits must be in 10..=28".into());
    }
    let board = Board::from_geometry(geo);
    let mut solver = Solver::new(&board, args.tt_bits).ok_or("board too large for the solver")?;
    let start = Instant::now();
    let value = solver.solve();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "dots {}: value {value:+} nodes {} nodes/s {:.0} time {secs:.3} s",
        args.solve,
        solver.nodes,
        solver.nodes as f64 / secs.max(1e-9)
    );
    Ok(())
}
