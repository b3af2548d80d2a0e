//! `quartet train go ...`: the learnt move model (`go::mm_train`) and the network's
//! self-play data (`go::selfplay`).
use crate::go::mm_train::{train, MmTrain};
use crate::go::selfplay::{self, SelfPlay};
use crate::go::settings::PlayerConfig;
use crate::matches::schedule::Shard;
use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Subcommand, Debug)]
pub enum TrainGo {
    /// Fit the learnt move model (Bradley-Terry gammas by minorization-maximization) to
    /// game records; print its held-out move prediction beside the hand-set priors'.
    Mm(MmArgs),
    /// Self-play games of the tree search at a fixed playout count, with the visits of
    /// every root move, for training the network (format: src/go/selfplay.rs). A stopped
    /// run continues where it stopped when given the same file and options; `--shard i/n`
    /// splits one run over many machines.
    Selfplay(SelfplayArgs),
    /// Turn self-play files into the network trainer's positions file (input planes,
    /// visit shares, result; format: `write_planes` in src/go/selfplay.rs), for
    /// `scripts/train/go_net.py`.
    Planes {
        /// Files written by `quartet train go selfplay` (one board size).
        #[arg(long, num_args = 1.., required = true)]
        games: Vec<PathBuf>,
        #[arg(long)]
        out: PathBuf,
    },
}

#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// The games file: created, or continued if it holds games of the same run.
    #[arg(long)]
    pub out: PathBuf,
    /// Games of the whole run (all shards together).
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Play only the i-th of n slices of the games (1 <= i <= n), each into its own file.
    #[arg(long, default_value = "1/1")]
    pub shard: Shard,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Board size (2 to 19).
    #[arg(long, default_value_t = 9)]
    pub boardsize: usize,
    #[arg(long, default_value_t = 7.5)]
    pub komi: f32,
    /// Playouts of every move's search.
    #[arg(long, default_value_t = 1000)]
    pub playouts: u64,
    /// Opening plies drawn in proportion to the visits (the rest: the most visited move).
    #[arg(long, default_value_t = 8)]
    pub sample: usize,
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
        TrainGo::Planes { games, out } => {
            let n = selfplay::write_planes(&games, &out)?;
            println!("{n} positions written to {}", out.display());
            Ok(())
        }
        TrainGo::Selfplay(a) => {
            if !crate::go::board::valid_size(a.boardsize) {
                return Err(format!("--boardsize {}: 2 to 19", a.boardsize));
            }
            if !(1..=10_000_000).contains(&a.playouts) || !a.komi.is_finite() {
                return Err("--playouts 1 to 10000000 and a finite --komi".into());
            }
            let cfg = SelfPlay {
                size: a.boardsize,
                komi: a.komi,
                playouts: a.playouts,
                sample: a.sample,
                games: a.games,
                seed: a.seed,
                shard: (a.shard.index as u32, a.shard.count as u32),
                player: PlayerConfig::default(),
            };
            selfplay::run(&a.out, &cfg)
        }
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
