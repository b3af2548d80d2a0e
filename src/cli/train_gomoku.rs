//! `quartet train gomoku ...`: self-play games and the fit of the line-pattern weights.
use crate::gomoku::selfplay::{self, RunHeader, SelfPlay};
use crate::gomoku::train::{fit_files, FitFiles, FitModel};
use crate::gomoku::weights::ClassWeights;
use crate::matches::schedule::Shard;
use clap::Subcommand;
use std::path::PathBuf;

#[derive(Subcommand, Debug)]
pub enum TrainGomoku {
    /// Self-play games of the full engine at a fixed depth from random openings (15x15
    /// freestyle), written to a binary positions file (format: src/gomoku/selfplay.rs).
    /// A stopped run continues where it stopped when given the same file and options;
    /// `--shard i/n` splits one run over many machines.
    Selfplay {
        /// The positions file: created, or continued if it holds games of the same run.
        #[arg(long)]
        out: PathBuf,
        /// Number of games of the whole run (all shards together).
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// Play only the i-th of n slices of the games (1 <= i <= n), each into its own
        /// file; `fit --positions` takes the shards' files together.
        #[arg(long, default_value = "1/1")]
        shard: Shard,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Search depth of every move (1 to 20).
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// Fewest random opening plies (in the central square).
        #[arg(long, default_value_t = 2)]
        min_random: usize,
        /// Most random opening plies (at most 40).
        #[arg(long, default_value_t = 6)]
        max_random: usize,
        /// Seconds a move may take at most (the depth is the real limit).
        #[arg(long, default_value_t = 2.0)]
        move_cap: f64,
        /// Evaluation weights of the players (`classic`, `learnt` or a file).
        #[arg(long, default_value = "classic")]
        eval: String,
        /// Plain alpha-beta players (no VCF/VCT at the root): many times faster.
        #[arg(long)]
        no_threats: bool,
    },
    /// Fit the line-pattern class weights to `selfplay` files (logistic regression on the
    /// results blended with the search scores); print the held-out errors and write the
    /// weights file (format: src/gomoku/weights.rs; loadable with `quartet gomoku --eval`).
    Fit {
        /// Files written by `quartet train gomoku selfplay`.
        #[arg(long, required = true, num_args = 1..)]
        positions: Vec<PathBuf>,
        /// The weights file written.
        #[arg(long)]
        out: PathBuf,
        /// Share of the game result in the target (the rest: the search score), 0 to 1.
        #[arg(long, default_value_t = 0.5)]
        lambda: f64,
        /// L2 penalty on the standardised weights, 0 to 1.
        #[arg(long, default_value_t = 1e-4)]
        l2: f64,
        /// Every N-th game is held out of the fit and measured (at least 2).
        #[arg(long, default_value_t = 10)]
        holdout: usize,
        /// Write the fit over the cell classes alone (a version 1 file), not the one with
        /// the per-direction line categories; both are fitted and measured either way.
        /// The same as `--model classes`.
        #[arg(long, conflicts_with = "model")]
        no_lines: bool,
        /// The model written: `lines` (classes and line categories, version 2), `classes`
        /// (version 1) or `codes` (per-cell pattern codes, alone and with threat masks,
        /// version 3; also fitted and measured besides the others).
        #[arg(long, default_value = "lines")]
        model: String,
        /// L2 penalties tried for the code model, each fitted and measured on the held-out
        /// games; the best is written.
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "0.00001,0.0001,0.001,0.01"
        )]
        code_l2: Vec<f64>,
    },
}

pub fn run(what: TrainGomoku) -> Result<(), String> {
    match what {
        TrainGomoku::Selfplay {
            out,
            games,
            shard,
            seed,
            depth,
            min_random,
            max_random,
            move_cap,
            eval,
            no_threats,
        } => {
            if !(1..=20).contains(&depth) || min_random > max_random || max_random > 40 {
                return Err("--depth 1..=20, --min-random <= --max-random <= 40".into());
            }
            if !(move_cap > 0.0 && move_cap <= 3600.0) {
                return Err("--move-cap must be in (0, 3600] seconds".into());
            }
            let cfg = SelfPlay {
                size: 15,
                random_plies: min_random..=max_random,
                depth,
                move_cap: std::time::Duration::from_secs_f64(move_cap),
                weights: ClassWeights::load(&eval)?,
                threats: !no_threats,
            };
            if shard.count > u16::MAX as usize {
                return Err(format!("--shard {shard}: at most {} shards", u16::MAX));
            }
            let run = RunHeader::new(&cfg, games, seed, (shard.index as u16, shard.count as u16));
            selfplay::run(&out, &run, &cfg)
        }
        TrainGomoku::Fit {
            positions,
            out,
            lambda,
            l2,
            holdout,
            no_lines,
            model,
            code_l2,
        } => {
            if !(0.0..=1.0).contains(&lambda) || !(0.0..=1.0).contains(&l2) || holdout < 2 {
                return Err("--lambda and --l2 in [0, 1], --holdout at least 2".into());
            }
            if code_l2.is_empty() || code_l2.iter().any(|v| !(0.0..=1.0).contains(v)) {
                return Err("--code-l2: one or more penalties in [0, 1]".into());
            }
            let model = match (no_lines, model.as_str()) {
                (true, _) | (_, "classes") => FitModel::Classes,
                (_, "lines") => FitModel::Lines,
                (_, "codes") => FitModel::Codes,
                (_, m) => return Err(format!("--model {m}: lines, classes or codes")),
            };
            let f = FitFiles {
                positions,
                lambda,
                l2,
                holdout,
                model,
                code_l2,
            };
            fit_files(&f, &out, &mut std::io::stdout().lock())
        }
    }
}
