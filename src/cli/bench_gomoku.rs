//! `quartet bench gomoku ...`: the tactical puzzle suite, the node rate and the depth
//! reached in a given time.
use crate::gomoku::bench;
use crate::gomoku::search::SearchConfig;
use crate::gomoku::weights::EvalWeights;
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
        /// Search threads, 1 to 256; a list (`1,2`) runs each in turn.
        #[arg(long, value_delimiter = ',', default_value = "1")]
        threads: Vec<usize>,
        /// Evaluation weights, as `quartet gomoku --eval` (with `--patterns`).
        #[arg(long, default_value = "learnt")]
        eval: String,
    },
    /// The depth the full engine (as `quartet gomoku` plays) reaches from five fixed quiet
    /// positions, with its nodes and move: one line each and the totals. With `--depth`,
    /// the time it takes to complete that depth instead.
    Depth {
        /// Time per position in seconds (0 to 3600); with `--depth`, the most it may take.
        #[arg(long)]
        seconds: Option<f64>,
        /// Stop each search when it completes this depth (1 to 64), timing it.
        #[arg(long)]
        depth: Option<u32>,
        /// Search threads, 1 to 256; a list (`1,2`) runs each in turn and compares the
        /// totals with the first.
        #[arg(long, value_delimiter = ',', default_value = "1")]
        threads: Vec<usize>,
        /// Evaluation weights, as `quartet gomoku --eval`.
        #[arg(long, default_value = "learnt")]
        eval: String,
    },
}

fn check_threads(threads: &[usize]) -> Result<(), String> {
    if threads.iter().any(|&t| t == 0 || t > 256) {
        return Err("--threads must be between 1 and 256".into());
    }
    Ok(())
}

pub fn run(what: BenchGomoku) -> Result<(), String> {
    crate::logging::init_logging(None)?;
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
            threads,
            eval,
        } => {
            let eval = EvalWeights::load(&eval)?;
            if !(seconds > 0.0 && seconds <= 3600.0) || width == 0 {
                return Err("--seconds must be in (0, 3600], --width at least 1".into());
            }
            check_threads(&threads)?;
            for t in threads {
                let (nodes, secs, depth) = bench::nps(seconds, width, patterns, t, &eval);
                let with = if patterns { " with patterns" } else { "" };
                println!(
                    "gomoku 15x15 alpha-beta width {width}{with}, {t} thread(s): {nodes} nodes in {secs:.2} s = {:.0} nodes/s (depth {depth})",
                    nodes as f64 / secs
                );
            }
            Ok(())
        }
        BenchGomoku::Depth {
            seconds,
            depth,
            threads,
            eval,
        } => {
            let (eval, codes) = EvalWeights::load(&eval)?.into_search();
            let seconds = seconds.unwrap_or(if depth.is_some() { 600.0 } else { 1.0 });
            if !(seconds > 0.0 && seconds <= 3600.0) {
                return Err("--seconds must be in (0, 3600]".into());
            }
            if depth.is_some_and(|d| !(1..=64).contains(&d)) {
                return Err("--depth must be between 1 and 64".into());
            }
            check_threads(&threads)?;
            let mut first = None;
            for t in threads {
                let config = SearchConfig {
                    max_depth: depth.unwrap_or(SearchConfig::default().max_depth),
                    threads: t,
                    eval,
                    codes: codes.clone(),
                    ..SearchConfig::default()
                };
                let cpu0 = crate::cpu_time::process_seconds();
                let results = bench::depth(seconds, &config);
                // CPU seconds of all threads: on a busy machine, whether they had the cores.
                let cpu = match (cpu0, crate::cpu_time::process_seconds()) {
                    (Some(a), Some(b)) => format!(", {:.2} CPU-s", b - a),
                    _ => String::new(),
                };
                let (mut nodes, mut main_nodes, mut depths, mut ms) = (0u64, 0u64, 0u32, 0u128);
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
                    main_nodes += r.main_nodes;
                    depths += r.depth;
                    ms += r.elapsed.as_millis();
                }
                let mean = depths as f64 / results.len() as f64;
                match depth {
                    Some(d) => {
                        let short = results.iter().filter(|r| r.depth < d).count();
                        // The main thread's nodes are a measure of the time that does not
                        // depend on the machine's load, as long as the threads get a core each.
                        let ratio = match first {
                            Some((f, fm)) if f > 0 && fm > 0 => format!(
                                "; {:.2}x the first's time, {:.2}x its main-thread nodes",
                                ms as f64 / f as f64,
                                main_nodes as f64 / fm as f64
                            ),
                            _ => String::new(),
                        };
                        first.get_or_insert((ms, main_nodes));
                        println!(
                            "gomoku time to depth {d}, {t} thread(s): {ms} ms{cpu}, {nodes} nodes, {main_nodes} on the main thread{ratio}{}",
                            if short > 0 {
                                format!(" ({short} cut short by --seconds {seconds})")
                            } else {
                                String::new()
                            }
                        );
                    }
                    None => println!(
                        "gomoku depth at {seconds} s, {t} thread(s): mean depth {mean:.1}, {nodes} nodes in {ms} ms{cpu}"
                    ),
                }
            }
            Ok(())
        }
    }
}
