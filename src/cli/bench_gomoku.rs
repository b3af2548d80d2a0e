//! `quartet bench gomoku ...`: the tactical puzzle suite and the node rate.
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
    }
}
