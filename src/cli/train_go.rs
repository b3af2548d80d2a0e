//! `quartet train go mm`: the learnt move model (`go::mm_train`).
use crate::go::mm_train::{train, MmTrain};
use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Subcommand, Debug)]
pub enum TrainGo {
    /// Fit the learnt move model (Bradley-Terry gammas by minorization-maximization) to
    /// game records; print its held-out move prediction beside the hand-set priors'.
    Mm(MmArgs),
}

#[derive(Args, Debug)]
pub struct MmArgs {
    /// Game records, one game a line (as scripts/go_mm_games.py writes them).
    #[arg(long, num_args = 1.., required = true)]
    pub games: Vec<PathBuf>,
    /// Where to write the fitted weights (loadable with `quartet go --mm-weights`); unset:
    /// nothing is written.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Rounds of minorization-maximization over all feature groups.
    #[arg(long, default_value_t = 20)]
    pub iterations: usize,
    /// Every Nth game is held out of the fit for the prediction figures (at least 2).
    #[arg(long, default_value_t = 10)]
    pub holdout_every: usize,
    /// Fit the 12-point diamond feature: every diamond seen among at least this many
    /// training candidates gets its own strength (the rest share strength 1); 0 leaves the
    /// diamonds out (a version 1 weights file).
    #[arg(long, default_value_t = 0)]
    pub diamond_min: usize,
    /// Weights files to score on the same held-out positions beside the fitted model.
    #[arg(long, num_args = 1..)]
    pub compare: Vec<PathBuf>,
}

pub fn run(what: TrainGo) -> Result<(), String> {
    match what {
        TrainGo::Mm(a) => {
            if a.holdout_every < 2 {
                return Err("--holdout-every must be at least 2".into());
            }
            let settings = MmTrain {
                games: a.games,
                out: a.out,
                iterations: a.iterations,
                holdout_every: a.holdout_every,
                diamond_min: a.diamond_min,
                compare: a.compare,
            };
            train(&settings, &mut std::io::stdout().lock())
        }
    }
}
