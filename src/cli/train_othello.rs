//! `quartet train othello ...`: self-play positions, the evaluation fits, the opening book
//! and the measurements behind them (the code: `src/othello/`).
use crate::othello::book::{DEFAULT_MIN_VISITS, DEFAULT_PLIES};
use crate::othello::book_build::{build_book, BuildBook};
use crate::othello::eval_error::eval_error;
use crate::othello::evaluator::Evaluator;
use crate::othello::pattern_fit::FitConfig;
use crate::othello::pattern_train::{train_patterns, TrainPatterns};
use crate::othello::probcut::MIN_DEPTH;
use crate::othello::probcut_fit::probcut_fit;
use crate::othello::relabel::{relabel_file, Relabel};
use crate::othello::selfplay::{self, SelfPlay};
use crate::othello::train::train_linear;
use clap::Subcommand;
use std::path::PathBuf;

#[derive(Subcommand, Debug)]
pub enum TrainOthello {
    /// Fit the linear evaluation weights to WTHOR games (labels: their theoretical scores)
    /// and write a weights file loadable with `quartet othello --weights`.
    Linear {
        /// WTHOR `.wtb` files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The weights file written.
        #[arg(long)]
        out: PathBuf,
        /// Stages every this many empties; each fits the positions within half of it.
        #[arg(long, default_value_t = 4)]
        step: u32,
        /// Ridge penalty (relative to the sample count) that keeps rare features tame.
        #[arg(long, default_value_t = 0.01)]
        ridge: f64,
    },
    /// Fit the pattern evaluation to positions files from `selfplay` and WTHOR games;
    /// print the held-out error of the linear and the pattern evaluation and write the
    /// tables (loadable with `quartet othello --weights`).
    Patterns {
        /// Positions files written by `selfplay` (or `relabel`).
        #[arg(long, required = true)]
        positions: Vec<PathBuf>,
        /// WTHOR `.wtb` files (labels: their theoretical scores).
        #[arg(long)]
        wthor: Vec<PathBuf>,
        /// The tables file written.
        #[arg(long)]
        out: PathBuf,
        /// Empties per stage (1 to 60).
        #[arg(long, default_value_t = 4)]
        width: u32,
        /// Positions this many empties outside a stage also train it.
        #[arg(long, default_value_t = 2)]
        spread: u32,
        /// Add the outer-region term (every square but the centre 16, own or opponent).
        #[arg(long)]
        outer: bool,
        /// Gradient passes over the data per stage.
        #[arg(long, default_value_t = 60)]
        epochs: u32,
        /// Step size: 1 moves a position's prediction by about its residual per pass.
        #[arg(long, default_value_t = 0.5)]
        rate: f32,
        /// Pseudo-occurrences pulling every weight towards zero (or the --prior tables).
        #[arg(long, default_value_t = 2.0)]
        ridge: f32,
        /// Every N-th game is held out of the fit and measured (at least 2).
        #[arg(long, default_value_t = 10)]
        holdout: usize,
        /// Weights files (earlier fits) whose error on the same held-out positions is
        /// printed beside the new fit's.
        #[arg(long)]
        compare: Vec<PathBuf>,
        /// Pattern tables to start from: the ridge pulls towards them instead of zero;
        /// they need the fit's --width and --outer. Unset: start from zero.
        #[arg(long)]
        prior: Option<PathBuf>,
    },
    /// Self-play games labelled by the exact solver, appended to a positions file
    /// (`<p hex> <o hex> <disc difference>` per line) for `patterns`.
    Selfplay {
        /// The positions file (created, or appended to).
        #[arg(long)]
        out: PathBuf,
        /// Number of games (a game whose solve takes over a minute is dropped).
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// Seed of the random openings (8 to 14 random plies).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Depth of the midgame search that plays until the solve point (1 to 20).
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// Empties at which each game is solved exactly and then finished perfectly (at
        /// most 30).
        #[arg(long, default_value_t = 20)]
        solve_at: u32,
    },
    /// Copy a `selfplay` positions file with the labels of its midgame positions replaced
    /// by (or blended with) a fixed-depth search's score, for `patterns`.
    Relabel {
        /// The positions file read.
        #[arg(long)]
        positions: PathBuf,
        /// The positions file written.
        #[arg(long)]
        out: PathBuf,
        /// Positions with more empties than this are relabelled (the rest are exact).
        #[arg(long, default_value_t = 20)]
        min_empties: u32,
        /// Depth of the relabelling search (1 to 30).
        #[arg(long, default_value_t = 8)]
        depth: u32,
        /// Weight of the search score in the new label, 0 to 1 (the rest: the file's label).
        #[arg(long, default_value_t = 1.0)]
        mix: f32,
        /// Evaluation of the search; unset: the built-in pattern tables.
        #[arg(long)]
        weights: Option<PathBuf>,
        /// Relabel only the shard-th (from 0) of --shards contiguous runs of games, for
        /// parallel runs: the outputs concatenated in shard order are the whole file's.
        #[arg(long, default_value_t = 0)]
        shard: usize,
        /// Number of shards the games are cut into.
        #[arg(long, default_value_t = 1)]
        shards: usize,
    },
    /// Build an opening book from WTHOR databases and GGF game records (loadable with
    /// `quartet othello --book FILE`); print its size and the line it would play.
    Book {
        /// WTHOR `.wtb` files (each game valued by its theoretical score).
        #[arg(long)]
        wthor: Vec<PathBuf>,
        /// Files of GGF records (valued by their final position, or their `RE`).
        #[arg(long)]
        ggf: Vec<PathBuf>,
        /// Add to this book instead of starting empty.
        #[arg(long)]
        add_to: Option<PathBuf>,
        /// The book file written.
        #[arg(long)]
        out: PathBuf,
        /// Moves of each game stored (1 to 60).
        #[arg(long, default_value_t = DEFAULT_PLIES)]
        plies: usize,
        /// Games a move needs to be trusted (for the summary printed; not stored).
        #[arg(long, default_value_t = DEFAULT_MIN_VISITS)]
        book_visits: u32,
        /// Leave out the positions fewer games reached: at most --book-visits, this changes
        /// no value and no move played at that trust, and makes the file far smaller.
        #[arg(long, default_value_t = 1)]
        min_games: u32,
    },
    /// Measure ProbCut's error table (`src/othello/probcut.rs`): deep minus shallow search
    /// values on positions of a `selfplay` file, by node depth and stage, printed as rows
    /// of the table.
    Probcut {
        /// The positions file (midgame positions, 20 to 56 empties, are used).
        #[arg(long)]
        positions: PathBuf,
        /// Positions searched, spread evenly over the file.
        #[arg(long, default_value_t = 400)]
        count: usize,
        /// Deepest node depth measured (3 to 16).
        #[arg(long, default_value_t = 11)]
        max_depth: u32,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 16)]
        hash_mb: usize,
        /// A weights file instead of the built-in pattern tables.
        #[arg(long)]
        weights: Option<PathBuf>,
    },
    /// Mean absolute and signed error of the linear and the built-in pattern evaluation
    /// (and of --weights files) by stage, every 4 empties, on `selfplay` positions files.
    EvalError {
        /// Positions files written by `selfplay` (or `relabel`).
        #[arg(long, required = true)]
        positions: Vec<PathBuf>,
        /// Weights files measured beside the built-in evaluations.
        #[arg(long)]
        weights: Vec<PathBuf>,
    },
}

pub fn run(what: TrainOthello) -> Result<(), String> {
    let report = &mut std::io::stdout().lock();
    match what {
        TrainOthello::Linear {
            files,
            out,
            step,
            ridge,
        } => train_linear(&files, &out, step.max(1), ridge, report),
        TrainOthello::Patterns {
            positions,
            wthor,
            out,
            width,
            spread,
            outer,
            epochs,
            rate,
            ridge,
            holdout,
            compare,
            prior,
        } => {
            let t = TrainPatterns {
                positions: &positions,
                wthor: &wthor,
                out: &out,
                cfg: FitConfig {
                    width: width.clamp(1, 60),
                    outer,
                    epochs,
                    rate,
                    ridge,
                    spread,
                },
                holdout,
                compare: &compare,
                prior: prior.as_deref(),
            };
            train_patterns(t, report)
        }
        TrainOthello::Selfplay {
            out,
            games,
            seed,
            depth,
            solve_at,
        } => {
            let cfg = SelfPlay::new(depth.clamp(1, 20), solve_at.min(30));
            selfplay::run(&out, games, seed, &cfg)
        }
        TrainOthello::Relabel {
            positions,
            out,
            min_empties,
            depth,
            mix,
            weights,
            shard,
            shards,
        } => {
            if !(0.0..=1.0).contains(&mix) || shards == 0 || shard >= shards {
                return Err("--mix in [0, 1], --shard below --shards".into());
            }
            let eval = Evaluator::chosen(weights.as_deref(), "pattern")?;
            let cfg = Relabel {
                min_empties,
                depth: depth.clamp(1, 30),
                mix,
            };
            relabel_file(&positions, &out, &cfg, eval, (shard, shards))
        }
        TrainOthello::Book {
            wthor,
            ggf,
            add_to,
            out,
            plies,
            book_visits,
            min_games,
        } => {
            if wthor.is_empty() && ggf.is_empty() {
                return Err("book needs --wthor or --ggf files".into());
            }
            let b = BuildBook {
                wthor: &wthor,
                ggf: &ggf,
                base: add_to.as_deref(),
                out: &out,
                plies: plies.clamp(1, 60),
                min_visits: book_visits.max(1),
                min_games: min_games.max(1),
            };
            build_book(b, report)
        }
        TrainOthello::Probcut {
            positions,
            count,
            max_depth,
            hash_mb,
            weights,
        } => {
            crate::memory::check_hash_mb(hash_mb, hash_mb as u64)?;
            let eval = Evaluator::chosen(weights.as_deref(), "pattern")?;
            let max_depth = max_depth.clamp(MIN_DEPTH, 16);
            probcut_fit(&positions, count, max_depth, hash_mb, eval, report)
        }
        TrainOthello::EvalError { positions, weights } => eval_error(&positions, &weights, report),
    }
}
