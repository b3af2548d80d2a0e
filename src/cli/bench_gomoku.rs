//! `quartet bench gomoku ...`: the tactical puzzle suite, the node rate and the depth
//! reached in a given time.
use crate::gomoku::bench;
use crate::gomoku::search::SearchConfig;
use clap::Subcommand;

#[derive(Subcommand, Debug)]
pub enum BenchGomoku {
    /// Solve the puzzle file (e.g. tests/data/gomoku_puzzles.txt): freestyle wins under
    /// freestyle, renju ones under renju; one line per puzzle and the solved count.
    Puzzles {
        /// The puzzle file (format: src/gomoku/puzzles.rs).
        file: std::path::PathBuf,
        /// Time per puzzle in seconds (0 to 3600).
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// Candidate moves searched per node.
        #[arg(long, default_value_t = 8)]
        width: usize,
    },
    /// Nodes per second of the plain alpha-beta from a fixed opening.
    Nps {
        /// How long to search, in seconds (0 to 3600).
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// Candidate moves searched per node.
        #[arg(long, default_value_t = 8)]
        width: usize,
        /// With the line-pattern evaluation and move order (as the full engine).
        #[arg(long)]
        patterns: bool,
    },
    /// The depth the full engine (as `quartet gomoku` plays) reaches from five fixed quiet
    /// positions, with its nodes and move: one line each and the totals.
    Depth {
        /// Time per position in seconds (0 to 3600).
        #[arg(long, default_value_t = 1.0)]
        seconds: f64,
    },
}

pub fn run(what: BenchGomoku) -> Result<(), String> {
    match what {
        BenchGomoku::Puzzles {
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
        BenchGomoku::Nps {
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
        BenchGomoku::Depth { seconds } => {
            if !(seconds > 0.0 && seconds <= 3600.0) {
                return Err("--seconds must be in (0, 3600]".into());
            }
            let results = bench::depth(seconds, &SearchConfig::default());
            let (mut nodes, mut depths, mut ms) = (0u64, 0u32, 0u128);
            for r in &results {
                println!(
                    "{:<20} best {:<4} depth {:>2} {:>9} nodes {:>6} ms {}",
                    r.position,
                    r.best,
                    r.depth,
                    r.nodes,
                    r.elapsed.as_millis(),
                    r.source
                );
                nodes += r.nodes;
                depths += r.depth;
                ms += r.elapsed.as_millis();
            }
            println!(
                "gomoku depth at {seconds} s: mean depth {:.1}, {nodes} nodes in {ms} ms",
                depths as f64 / results.len() as f64
            );
            Ok(())
        }
    }
}
