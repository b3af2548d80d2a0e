//! `quartet bench <game> ...`: speed and correctness benchmarks.
use clap::{Args, Subcommand};

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub game: BenchGame,
}

#[derive(Subcommand, Debug)]
pub enum BenchGame {
    /// Go: playouts per second, or simulations per second of the whole tree search.
    Go(super::bench_go::BenchGoArgs),
    /// Othello: perft counts, the exact solve of an endgame suite, the depth a timed search
    /// reaches, and the fixed-depth search signature.
    Othello {
        #[command(subcommand)]
        what: super::bench_othello::BenchOthello,
    },
    /// Gomoku: the tactical puzzle suite or the node rate.
    Gomoku {
        #[command(subcommand)]
        what: super::bench_gomoku::BenchGomoku,
    },
    /// Dots-and-Boxes: the exact solve of an empty board (value, nodes, nodes/s, time), or
    /// one step of a solve split into tasks (split, solve tasks, merge).
    Dots(super::bench_dots::BenchDotsArgs),
}

pub fn run(args: BenchArgs) -> Result<(), String> {
    match args.game {
        BenchGame::Go(a) => super::bench_go::run(a),
        BenchGame::Othello { what } => super::bench_othello::run(what),
        BenchGame::Gomoku { what } => super::bench_gomoku::run(what),
        BenchGame::Dots(a) => super::bench_dots::run(a),
    }
}
