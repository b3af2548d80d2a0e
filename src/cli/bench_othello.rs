//! `quartet bench othello ...`: perft, the FFO endgame suite, the depth of a timed search
//! and the fixed-depth signature (`othello::bench`).
use crate::othello::bench::{self, Ffo, Signature};
use crate::othello::evaluator::Evaluator;
use crate::othello::probcut::{hundredths, DEFAULT_T};
use clap::Subcommand;
use std::io::Write;
use std::path::PathBuf;

#[derive(Subcommand, Debug)]
pub enum BenchOthello {
    /// Leaf count DEPTH plies from the start position (passes count as a ply), and its rate.
    Perft {
        /// Plies from the start position.
        depth: u32,
    },
    /// Solve every line of an FFO/Edax .obf suite exactly and check the known score and
    /// move; fails if any is wrong.
    Ffo {
        /// The suite file (e.g. data/othello/ffo-40-59.obf).
        file: PathBuf,
        /// Skip the first N lines.
        #[arg(long, default_value_t = 0)]
        skip: usize,
        /// Solve only N lines (after the skipped ones); unset: all.
        #[arg(long)]
        count: Option<usize>,
        /// Number of the first line in the suite; unset: the first number in the file's
        /// name (40 for ffo-40-59.obf), else 1.
        #[arg(long)]
        first_id: Option<usize>,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64)]
        hash_mb: usize,
        /// Instruction level of the solver copy: plain, avx2 or avx512; unset: the highest
        /// this CPU has (a higher one than that falls back to it).
        #[arg(long, value_parser = crate::othello::isa::parse)]
        isa: Option<u8>,
        /// Search threads of each solve (1 to 256): the wall time falls, the scores stay
        /// exact; node rates are then per wall second. A list (`1,2`) runs the suite once
        /// per count and compares each wall time with the first's.
        #[arg(long, value_delimiter = ',', default_value = "1")]
        threads: Vec<usize>,
    },
    /// Midgame search depth completed within a time budget from a fixed 40-empties position,
    /// or with --depth the time to complete that depth on fixed midgame positions.
    Depth {
        /// Budget of the search in milliseconds.
        #[arg(long, default_value_t = 1000)]
        ms: u64,
        /// Search each of --positions positions to this depth (1 to 30) and report the
        /// time, instead of a timed search.
        #[arg(long)]
        depth: Option<u32>,
        /// Positions of the fixed-depth run: from 44 empties, every second ply of a fixed
        /// game (1 to 8).
        #[arg(long, default_value_t = 8)]
        positions: usize,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64)]
        hash_mb: usize,
        /// Weights of the timed search (as `quartet othello --weights`); the position is
        /// reached with the built-in linear weights whatever this says.
        #[arg(long, conflicts_with = "eval")]
        weights: Option<PathBuf>,
        /// Built-in evaluation of the timed search when no --weights is given (as
        /// `quartet othello --eval`).
        #[arg(long, default_value = "pattern", value_parser = ["pattern", "linear"])]
        eval: String,
        /// ProbCut selectivity (as `quartet othello --probcut`; 0: off).
        #[arg(long, default_value_t = DEFAULT_T)]
        probcut: f64,
        /// Search threads (1 to 256, as `quartet othello --threads`). A list (`1,2`) runs
        /// once per count and compares each with the first.
        #[arg(long, value_delimiter = ',', default_value = "1")]
        threads: Vec<usize>,
    },
    /// Fixed-depth searches of seeded random midgame positions: each one's best move, score
    /// and nodes, the node rate, and a signature that a pure speedup must leave unchanged.
    Signature {
        /// Search depth of every position (1 to 20).
        #[arg(long, default_value_t = 8)]
        depth: u32,
        /// Number of positions (44 down to 24 empties, cycling).
        #[arg(long, default_value_t = 42)]
        positions: u32,
        /// Seed of the random positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 16)]
        hash_mb: usize,
        /// Built-in evaluation (as `quartet othello --eval`).
        #[arg(long, default_value = "pattern", value_parser = ["pattern", "linear"])]
        eval: String,
        /// A weights file instead of the built-in evaluation (as `quartet othello --weights`).
        #[arg(long)]
        weights: Option<PathBuf>,
        /// ProbCut selectivity (as `quartet othello --probcut`; 0: off).
        #[arg(long, default_value_t = 0.0)]
        probcut: f64,
        /// Instruction level of the search copy: plain, avx2 or avx512; unset: the highest
        /// this CPU has (a higher one than that falls back to it).
        #[arg(long, value_parser = crate::othello::isa::parse)]
        isa: Option<u8>,
    },
}

pub fn run(cmd: BenchOthello) -> Result<(), String> {
    let out = &mut std::io::stdout().lock();
    match cmd {
        BenchOthello::Perft { depth } => bench::perft_timed(depth, out),
        BenchOthello::Ffo {
            file,
            skip,
            count,
            first_id,
            hash_mb,
            isa,
            threads,
        } => {
            crate::memory::check_hash_mb(hash_mb, hash_mb as u64)?;
            threads.iter().try_for_each(|&t| check_threads(t))?;
            let mut walls = Vec::new();
            for &t in &threads {
                let o = Ffo {
                    skip,
                    count,
                    first_id,
                    hash_mb,
                    isa,
                    threads: t,
                };
                walls.push((t, bench::ffo(&file, o, out)?));
            }
            if let [(t0, w0), rest @ ..] = &walls[..] {
                for (t, w) in rest {
                    writeln!(
                        out,
                        "{t} thread(s): {w:.3} s wall, {:.2}x the time of {t0} thread(s)",
                        w / w0.max(1e-9)
                    )
                    .map_err(|e| e.to_string())?;
                }
            }
            Ok(())
        }
        BenchOthello::Depth {
            ms,
            depth,
            positions,
            hash_mb,
            weights,
            eval,
            probcut,
            threads,
        } => {
            crate::memory::check_hash_mb(hash_mb, hash_mb as u64)?;
            threads.iter().try_for_each(|&t| check_threads(t))?;
            if depth.is_some_and(|d| !(1..=30).contains(&d)) {
                return Err("--depth must be between 1 and 30".into());
            }
            if !(1..=8).contains(&positions) {
                return Err("--positions must be between 1 and 8".into());
            }
            let eval = Evaluator::chosen(weights.as_deref(), &eval)?;
            let mut runs = Vec::new();
            for &t in &threads {
                let run = match depth {
                    Some(d) => bench::fixed_depth(
                        d,
                        positions,
                        hash_mb,
                        &eval,
                        hundredths(probcut),
                        t,
                        out,
                    )?,
                    None => bench::depth(ms, hash_mb, &eval, hundredths(probcut), t, out)?,
                };
                runs.push((t, run));
            }
            if let [(t0, r0), rest @ ..] = &runs[..] {
                for (t, r) in rest {
                    // The time to a depth compares only at the same depth; the CPU time
                    // of the searching thread hardly depends on the machine's load, as
                    // long as every thread has a core.
                    let main = match (r.main_cpu, r0.main_cpu) {
                        (Some(a), Some(b)) => {
                            format!(", {:.2}x its cpu (this thread)", a / b.max(1e-9))
                        }
                        _ => String::new(),
                    };
                    writeln!(
                        out,
                        "{t} thread(s): depth {} in {:.3} s wall, {} nodes; {t0} thread(s): depth {} in {:.3} s; {:.2}x the time of {t0} thread(s){main}{}",
                        r.depth,
                        r.wall,
                        r.nodes,
                        r0.depth,
                        r0.wall,
                        r.wall / r0.wall.max(1e-9),
                        if r.depth == r0.depth { "" } else { " (not the same depth)" }
                    )
                    .map_err(|e| e.to_string())?;
                }
            }
            Ok(())
        }
        BenchOthello::Signature {
            depth,
            positions,
            seed,
            hash_mb,
            eval,
            weights,
            probcut,
            isa,
        } => {
            crate::memory::check_hash_mb(hash_mb, hash_mb as u64)?;
            let eval = Evaluator::chosen(weights.as_deref(), &eval)?;
            let o = Signature {
                depth: depth.clamp(1, 20),
                positions,
                seed,
                hash_mb,
                isa,
                probcut: hundredths(probcut),
            };
            bench::signature(o, eval, out)
        }
    }
}

/// The range every engine's `--threads` takes.
fn check_threads(threads: usize) -> Result<(), String> {
    if threads == 0 || threads > 256 {
        return Err("--threads must be between 1 and 256".into());
    }
    Ok(())
}
