//! `quartet gomoku`: the Gomoku engine over GTP, or with `--pbrain` over the Gomocup
//! protocol; and `quartet bench gomoku ...`.
use clap::{Args, Subcommand};

use crate::gomoku::bench;
use crate::gomoku::search::SearchConfig;

#[derive(Args, Debug)]
pub struct GomokuArgs {
    /// Speak the Gomocup (Piskvork) protocol instead of GTP.
    #[arg(long)]
    pub pbrain: bool,
    /// Candidate moves searched per node (the paper's width).
    #[arg(long, default_value_t = 10)]
    pub width: usize,
    /// Deepest search iteration (the paper's depth); the clock may stop earlier.
    #[arg(long, default_value_t = 64)]
    pub depth: u32,
    /// No VCF/VCT search and no VCF defence: the paper's plain window alpha-beta.
    #[arg(long)]
    pub no_threats: bool,
    /// No line patterns in the evaluation and move order (the window sums alone).
    #[arg(long)]
    pub no_patterns: bool,
    /// Seconds per move when no time control was set.
    #[arg(long, default_value_t = 1.0)]
    pub move_time: f64,
    /// Transposition table size in MiB: 1 to 65536, and (with the threat cache, half as
    /// much again) no more than the machine's memory.
    #[arg(long, default_value_t = 64)]
    pub hash_mb: usize,
    /// Search on the opponent's time: after each `genmove`, until the next command (GTP
    /// only).
    #[arg(long)]
    pub ponder: bool,
    /// Log level on stderr (error, warn, info, debug, trace); RUST_LOG also works.
    #[arg(long)]
    pub log_level: Option<String>,
}

impl Default for GomokuArgs {
    fn default() -> Self {
        GomokuArgs {
            pbrain: true,
            width: 10,
            depth: 64,
            no_threats: false,
            no_patterns: false,
            move_time: 1.0,
            hash_mb: 64,
            ponder: false,
            log_level: None,
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum GomokuBench {
    /// Solve the puzzle file: freestyle wins under freestyle, renju ones under renju.
    Puzzles {
        file: std::path::PathBuf,
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        #[arg(long, default_value_t = 8)]
        width: usize,
    },
    /// Nodes per second of the plain alpha-beta from a fixed opening.
    Nps {
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        #[arg(long, default_value_t = 8)]
        width: usize,
        /// With the line-pattern evaluation and move order (as the full engine).
        #[arg(long)]
        patterns: bool,
    },
}

fn config(args: &GomokuArgs) -> Result<SearchConfig, String> {
    if !(1..=400).contains(&args.width) {
        return Err("--width must be between 1 and 400".into());
    }
    if !(1..=100).contains(&args.depth) {
        return Err("--depth must be between 1 and 100".into());
    }
    if !(args.move_time > 0.0 && args.move_time <= 86_400.0) {
        return Err("--move-time must be in (0, 86400] seconds".into());
    }
    // The threat cache takes half as much again as the table.
    crate::memory::check_hash_mb(args.hash_mb, args.hash_mb as u64 * 3 / 2)?;
    Ok(SearchConfig {
        width: args.width,
        max_depth: args.depth,
        threats: !args.no_threats,
        patterns: !args.no_threats && !args.no_patterns,
        tt_mb: args.hash_mb,
    })
}

pub fn run(args: GomokuArgs) -> Result<(), String> {
    crate::logging::init_logging(args.log_level.as_deref())?;
    let cfg = config(&args)?;
    let move_time = std::time::Duration::from_secs_f64(args.move_time);
    if args.pbrain && args.ponder {
        return Err("--ponder is for the GTP mode; the pbrain mode does not ponder".into());
    }
    if args.pbrain {
        crate::gomoku::pbrain::run_stdio(cfg, move_time).map_err(|e| format!("i/o error: {e}"))
    } else {
        let engine = crate::gomoku::gtp::GomokuEngine::new(cfg, move_time).with_ponder(args.ponder);
        crate::protocol::run_stdio(engine).map_err(|e| format!("i/o error: {e}"))
    }
}

pub fn bench(what: GomokuBench) -> Result<(), String> {
    match what {
        GomokuBench::Puzzles {
            file,
            seconds,
            width,
        } => {
            if !(seconds > 0.0 && seconds <= 3600.0) || width == 0 {
                return Err("--seconds must be in (0, 3600], --width at least 1".into());
            }
            let text = std::fs::read_to_string(&file)
                .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            let cfg = SearchConfig {
                width,
                ..SearchConfig::default()
            };
            let results = bench::run_puzzles(&text, seconds, &cfg)?;
            let mut solved = 0;
            for r in &results {
                solved += r.solved as usize;
                println!(
                    "{:<32} {:<9} {:<4} {:<7} {:<11} {:>6} ms {:>9} nodes",
                    r.name,
                    r.rule.name(),
                    r.played,
                    if r.solved { "solved" } else { "MISSED" },
                    r.source,
                    r.elapsed.as_millis(),
                    r.nodes
                );
            }
            println!("solved {solved}/{}", results.len());
            Ok(())
        }
        GomokuBench::Nps {
            seconds,
            width,
            patterns,
        } => {
            if !(seconds > 0.0 && seconds <= 3600.0) || width == 0 {
                return Err("--seconds must be in (0, 3600], --width at least 1".into());
            }
            let (nodes, secs, depth) = bench::nps(seconds, width, patterns);
            let with = if patterns { " with patterns" } else { "" };
            println!(
                "gomoku 15x15 alpha-beta width {width}{with}: {nodes} nodes in {secs:.2} s = {:.0} nodes/s (depth {depth})",
                nodes as f64 / secs
            );
            Ok(())
        }
    }
}
