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
    /// Light playouts per second on the empty board, one thread.
    Go {
        #[arg(long, default_value_t = 9)]
        boardsize: usize,
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// Use the search's heavy playout policy instead of light random playouts.
        #[arg(long)]
        heavy: bool,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Gomoku: the puzzle suite or the node rate.
    Gomoku {
        #[command(subcommand)]
        what: crate::cli::gomoku::GomokuBench,
    },
}

pub fn run(args: BenchArgs) -> Result<(), String> {
    match args.game {
        BenchGame::Gomoku { what } => crate::cli::gomoku::bench(what),
        BenchGame::Go {
            boardsize,
            seconds,
            heavy,
            seed,
        } => {
            if !crate::go::board::valid_size(boardsize) {
                return Err(format!("unacceptable board size {boardsize}"));
            }
            if !(seconds > 0.0 && seconds <= 3600.0) {
                return Err("--seconds must be in (0, 3600]".into());
            }
            let r = crate::go::bench::playout_rate(
                boardsize,
                Duration::from_secs_f64(seconds),
                heavy,
                seed,
            );
            println!(
                "go {}x{} {} playouts: {} in {:.2} s = {:.0} playouts/s, {:.1} moves/playout, black wins (komi 7.5) {:.1}%",
                boardsize,
                boardsize,
                if heavy { "heavy" } else { "light" },
                r.playouts,
                r.seconds,
                r.playouts as f64 / r.seconds,
                r.moves as f64 / r.playouts as f64,
                100.0 * r.black_wins as f64 / r.playouts as f64
            );
            Ok(())
        }
    }
}
