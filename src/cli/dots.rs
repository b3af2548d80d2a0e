//! `quartet dots`: the Dots-and-Boxes engine over GTP or the SAU protocol on stdin/stdout.
use crate::dots::geometry::SizeError;
use crate::dots::gtp::{parse_box_size, DotsEngine, DEFAULT_SOLVE_LIMIT};
use crate::dots::play::PlayTable;
use crate::dots::player::Player;
use crate::dots::sau::SauEngine;
use crate::dots::table::bits_for_mb;
use crate::search::time::TimeSettings;
use clap::Args;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct DotsArgs {
    /// Seconds per move when no time control was set with time_settings.
    #[arg(long, default_value_t = 1.0)]
    pub move_time: f64,
    /// Milliseconds kept back from every move's time, besides 2.5% of it, for the lag
    /// between the controller's clock and ours (raise it when playing over a network).
    #[arg(long, default_value_t = crate::search::time::DEFAULT_LAG_BUFFER_MS)]
    pub lag_buffer: u64,
    /// Most undrawn edges the `solve` command accepts before answering `? too large`.
    #[arg(long, default_value_t = DEFAULT_SOLVE_LIMIT)]
    pub solve_limit: usize,
    /// Longest time one `solve` command may take, in seconds; then it answers
    /// `? not solved in T s`.
    #[arg(long, default_value_t = 60.0)]
    pub solve_time: f64,
    /// Protocol on stdin/stdout: `gtp` (protocols/dots.md) or `sau` (the SAU platform's
    /// `name?` / `new` / `move <n> <KIJ...>` format of the Chinese championships).
    #[arg(long, default_value = "gtp", value_parser = ["gtp", "sau"])]
    pub protocol: String,
    /// Starting board, CxR boxes (1..8 each; `N` means NxN). The SAU platform plays 5x5
    /// (6x6 dots); GTP's `boardsize` changes it later.
    #[arg(long, default_value = "5x5")]
    pub boardsize: String,
    /// Who chooses the moves: `search` (the engine) or `greedy` (the reference player that
    /// takes any box, else draws a random edge giving nothing away, else a random edge).
    #[arg(long, default_value = "search", value_parser = ["search", "greedy"])]
    pub player: String,
    /// Seed of the greedy player's random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// GoGui's rules mode from the start: moves as points of the (2N+1)x(2N+1) grid and
    /// `boardsize N` in grid points (the first `gogui-rules_*` command also turns it on).
    /// Square boards only: GoGui cannot draw a rectangle.
    #[arg(long)]
    pub gogui: bool,
    /// Search threads for one move (and for `solve` and `analyze`), sharing one table: 1 to
    /// 256. 1 (the default) keeps matches reproducible: with more, a timed move depends on
    /// how the threads happen to interleave.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table of the move search in MiB (rounded down to a power of two):
    /// 1 to 65536, and no more than the machine's memory.
    #[arg(long, default_value_t = 32)]
    pub hash_mb: usize,
    /// Log level on stderr (error, warn, info, debug, trace); RUST_LOG also works.
    #[arg(long)]
    pub log_level: Option<String>,
}

pub fn run(args: DotsArgs) -> Result<(), String> {
    crate::logging::init_logging(args.log_level.as_deref())?;
    if !(args.move_time > 0.0 && args.move_time <= 86_400.0) {
        return Err("--move-time must be in (0, 86400] seconds".into());
    }
    let time = TimeSettings::new(Duration::from_secs_f64(args.move_time), args.lag_buffer)?;
    if args.threads == 0 || args.threads > 256 {
        return Err("--threads must be between 1 and 256".into());
    }
    let bits = bits_for_mb(args.hash_mb);
    crate::memory::check_hash_mb(args.hash_mb, args.hash_mb as u64)?;
    let player = match args.player.as_str() {
        "greedy" => Player::greedy(args.seed),
        _ => Player::search_with(PlayTable::new(bits, args.threads)),
    };
    let geo = parse_box_size(&args.boardsize)
        .map_err(|_| format!("--boardsize {:?}: {}", args.boardsize, SizeError))?;
    if args.gogui {
        crate::dots::gogui::check_square(&geo)
            .map_err(|e| format!("--boardsize {} with --gogui: {e}", args.boardsize))?;
    }
    if args.protocol == "sau" {
        let mut engine = SauEngine::new(geo, player, time);
        engine.prepare();
        return crate::dots::sau::run_stdio(engine).map_err(|e| format!("i/o error: {e}"));
    }
    if !(args.solve_time > 0.0 && args.solve_time <= 86_400.0) {
        return Err("--solve-time must be in (0, 86400] seconds".into());
    }
    let mut engine = DotsEngine::new(time, args.solve_limit)
        .with_player(player)
        .with_solve_time(Duration::from_secs_f64(args.solve_time))
        .with_threads(args.threads)
        .with_geometry(geo)
        .with_gogui(args.gogui);
    engine.prepare();
    crate::protocol::run_stdio(engine).map_err(|e| format!("i/o error: {e}"))
}
