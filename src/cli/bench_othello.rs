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
    /// Midgame search depth completed within a time budget from a fixed 40-empties position.
    Depth {
        /// Budget of the search in milliseconds.
        #[arg(long, default_value_t = 1000)]
        ms: u64,
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
        /// Search threads (1 to 256, as `quartet othello --threads`).
        #[arg(long, default_value_t = 1)]
        threads: usize,
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
            hash_mb,
            weights,
            eval,
            probcut,
            threads,
        } => {
            crate::memory::check_hash_mb(hash_mb, hash_mb as u64)?;
            check_threads(threads)?;
            let eval = Evaluator::chosen(weights.as_deref(), &eval)?;
            bench::depth(ms, hash_mb, eval, hundredths(probcut), threads, out)
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
