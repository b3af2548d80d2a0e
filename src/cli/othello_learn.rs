//! `quartet othello learn`: the self-learning loop of the seed paper, resumable, over a
//! directory of games, book and refitted tables (`othello::learn_loop`).
use crate::othello::book::Book;
use crate::othello::evaluator::Evaluator;
use crate::othello::learn_loop::{Learn, RefitEvery};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct LearnArgs {
    /// Games the directory should hold at the end (a restarted run plays the rest).
    #[arg(long)]
    pub games: u32,
    /// Starting seconds per move of both sides (the self-learning paper used 2); the side
    /// that has won less gets more as the run goes on.
    #[arg(long, default_value_t = 2.0)]
    pub base_time: f64,
    /// Directory of `games.ggf` (the games, one a line) and `book.book` (the book).
    #[arg(long, default_value = "othello-learn")]
    pub dir: PathBuf,
    /// Moves of each game stored in the book (1 to 60).
    #[arg(long, default_value_t = crate::othello::book::DEFAULT_PLIES)]
    pub plies: usize,
    /// Refit the pattern tables every K games (from the starting tables, on all games so
    /// far and the --refit-base positions); the next games use them. Unset: no refit.
    #[arg(long)]
    pub refit: Option<usize>,
    /// Positions files (`quartet train othello selfplay`) every refit also trains on.
    #[arg(long)]
    pub refit_base: Vec<PathBuf>,
    /// Gradient passes of a refit (it starts at the starting tables, so few are needed).
    #[arg(long, default_value_t = 30)]
    pub refit_epochs: u32,
    /// Pseudo-positions holding each weight at the starting tables' value: the larger, the
    /// less a few games move the tables.
    #[arg(long, default_value_t = 500.0)]
    pub refit_ridge: f32,
}

/// `start_book`: a book to start from (`quartet othello --book FILE learn ...`; give it
/// again when resuming).
pub fn run(
    a: LearnArgs,
    eval: Evaluator,
    hash_mb: usize,
    start_book: Option<Book>,
    min_visits: u32,
) -> Result<(), String> {
    if !(a.base_time > 0.0 && a.base_time <= 3600.0) {
        return Err("--base-time must be in (0, 3600] seconds".into());
    }
    if a.refit == Some(0) {
        return Err("--refit must be at least 1 game".into());
    }
    let learn = Learn {
        games: a.games,
        base_time: Duration::from_secs_f64(a.base_time),
        dir: a.dir,
        plies: a.plies.clamp(1, 60),
        refit: a.refit.map(|games| RefitEvery {
            games,
            base: a.refit_base,
            epochs: a.refit_epochs.max(1),
            ridge: a.refit_ridge.max(0.0),
        }),
    };
    let report = &mut std::io::stdout().lock();
    crate::othello::learn_loop::run(&learn, eval, hash_mb, start_book, min_visits, report)
}
