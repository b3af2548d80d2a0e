//! `quartet train <game> ...`: self-play data, fits and books behind the built-in
//! evaluation data, and the measurements that go with them.
use clap::{Args, Subcommand};

#[derive(Args, Debug)]
pub struct TrainArgs {
    #[command(subcommand)]
    pub game: TrainGame,
}

#[derive(Subcommand, Debug)]
pub enum TrainGame {
    /// Go: the learnt move model of the tree priors.
    Go {
        #[command(subcommand)]
        what: super::train_go::TrainGo,
    },
    /// Othello: self-play positions, the linear and pattern evaluations, the opening book
    /// and ProbCut's error table.
    Othello {
        #[command(subcommand)]
        what: super::train_othello::TrainOthello,
    },
    /// Gomoku: self-play positions and the learnt line-pattern weights.
    Gomoku {
        #[command(subcommand)]
        what: super::train_gomoku::TrainGomoku,
    },
}

pub fn run(args: TrainArgs) -> Result<(), String> {
    match args.game {
        TrainGame::Go { what } => super::train_go::run(what),
        TrainGame::Othello { what } => super::train_othello::run(what),
        TrainGame::Gomoku { what } => super::train_gomoku::run(what),
    }
}
