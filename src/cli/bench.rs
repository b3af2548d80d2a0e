//! `quartet bench <game> ...`: speed figures that issues ask for.
use clap::{Args, Subcommand};
use std::time::Duration;

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub game: BenchGame,
}

#[derive(Subcommand, Debug)]
pub enum BenchGame {
    /// Othello: perft counts and the FFO endgame suite.
    Othello {
        #[command(subcommand)]
        what: super::bench_othello::BenchOthello,
    },
    /// Exact Dots-and-Boxes solve of an empty board: value, nodes, nodes/s, time.
    Dots(super::dots::BenchDotsArgs),
    /// Light or heavy playouts per second on the empty board, one thread; with
    /// `--threads N`, simulations per second of the tree search on N threads.
    Go {
        #[arg(long, default_value_t = 9)]
        boardsize: usize,
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// Use the search's heavy playout policy instead of light random playouts.
        #[arg(long)]
        heavy: bool,
        /// Run the whole search (one tree shared by this many threads) instead of bare
        /// playouts.
        #[arg(long)]
        threads: Option<usize>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Tree priors of the `--threads` search, as `quartet go --priors`.
        #[arg(long, default_value = "mm")]
        priors: String,
        /// Weights file for `--priors mm*` (default: the built-in one).
        #[arg(long)]
        mm_weights: Option<String>,
    },
    /// Go: fits the learnt move model (Bradley-Terry gammas by minorization-maximization)
    /// to game records; prints held-out move prediction beside the hand-set priors'.
    GoMm(super::go_mm::GoMmArgs),
    /// Gomoku: the puzzle suite or the node rate.
    Gomoku {
        #[command(subcommand)]
        what: crate::cli::gomoku::GomokuBench,
    },
}

pub fn run(args: BenchArgs) -> Result<(), String> {
    match args.game {
        BenchGame::Othello { what } => super::bench_othello::run(what),
        BenchGame::Dots(a) => super::dots::bench(a),
        BenchGame::GoMm(a) => super::go_mm::run(a),
        BenchGame::Gomoku { what } => crate::cli::gomoku::bench(what),
        BenchGame::Go {
            boardsize,
            seconds,
            heavy,
            threads,
            seed,
            priors,
            mm_weights,
        } => {
            if !crate::go::board::valid_size(boardsize) {
                return Err(format!("unacceptable board size {boardsize}"));
            }
            if !(seconds > 0.0 && seconds <= 3600.0) {
                return Err("--seconds must be in (0, 3600]".into());
            }
            if let Some(threads) = threads {
                if threads == 0 || threads > 256 {
                    return Err("--threads must be between 1 and 256".into());
                }
                super::go::install_priors(
                    &priors,
                    mm_weights.as_deref(),
                    super::go::DEFAULT_MM_WEIGHT,
                    false,
                )?;
                let r = crate::go::bench::search_rate(
                    boardsize,
                    Duration::from_secs_f64(seconds),
                    threads,
                    seed,
                );
                println!(
                    "go {boardsize}x{boardsize} search, {threads} thread(s): {} simulations in {:.2} s = {:.0}/s, {:.2} CPU-s ({:.0} per CPU-second), {} nodes",
                    r.simulations,
                    r.seconds,
                    r.simulations as f64 / r.seconds,
                    r.cpu_seconds,
                    r.simulations as f64 / r.cpu_seconds.max(1e-9),
                    r.nodes
                );
                return Ok(());
            }
            let r = crate::go::bench::playout_rate(
                boardsize,
                Duration::from_secs_f64(seconds),
                heavy,
                seed,
            );
            println!(
                "go {}x{} {} playouts: {} in {:.2} s = {:.0} playouts/s ({:.0} per CPU-second of this thread), {:.1} stones at the end, black wins (komi 7.5) {:.1}%",
                boardsize,
                boardsize,
                if heavy { "heavy" } else { "light" },
                r.playouts,
                r.seconds,
                r.playouts as f64 / r.seconds,
                r.playouts as f64 / r.cpu_seconds.max(1e-9),
                r.moves as f64 / r.playouts as f64,
                100.0 * r.black_wins as f64 / r.playouts as f64
            );
            Ok(())
        }
    }
}
