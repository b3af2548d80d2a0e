//! `quartet othello`: the Othello engine over GTP or NBoard on stdin/stdout, and its
//! `learn` subcommand.
use crate::othello::book::Book;
use crate::othello::evaluator::Evaluator;
use crate::othello::gtp::OthelloEngine;
use crate::othello::nboard::NboardEngine;
use crate::othello::search::Searcher;
use crate::search::time::TimeSettings;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct OthelloArgs {
    /// Transposition table size in MiB (shared between midgame search and solver): 1 to
    /// 65536, and no more than the machine's memory.
    #[arg(long, default_value_t = 64)]
    pub hash_mb: usize,
    /// Evaluation weights from a file: linear weights (text, as data/othello/weights.txt)
    /// or pattern tables (binary, as data/othello/patterns.bin); at most 16 MiB.
    #[arg(long, conflicts_with = "eval")]
    pub weights: Option<PathBuf>,
    /// Built-in evaluation when no --weights is given: `pattern` (the tables of
    /// data/othello/patterns.bin) or `linear` (the nine features of
    /// data/othello/weights.txt).
    #[arg(long, default_value = "pattern", value_parser = ["pattern", "linear"])]
    pub eval: String,
    /// ProbCut selectivity `t` of the pattern evaluation's search (a node is cut when a
    /// shallow search clears the window by `t` standard deviations of its error); 0 turns
    /// it off. The linear evaluation never uses it.
    #[arg(long, default_value_t = crate::othello::probcut::DEFAULT_T)]
    pub probcut: f64,
    /// Search threads for one move (1 to 256): the midgame and endgame trees split
    /// between them. 1 keeps matches reproducible. The
    /// NBoard protocol has no threads command, so this option sets it there too.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seconds per move when no time control was set with time_settings.
    #[arg(long, default_value_t = 1.0)]
    pub move_time: f64,
    /// Milliseconds kept back from every move's time, besides 2.5% of it, for the lag
    /// between the controller's clock and ours (raise it when playing over a network).
    #[arg(long, default_value_t = crate::search::time::DEFAULT_LAG_BUFFER_MS)]
    pub lag_buffer: u64,
    /// Longest time one `solve` command may take, in seconds; then it answers
    /// `? not solved in T s`.
    #[arg(long, default_value_t = 60.0)]
    pub solve_time: f64,
    /// Deepest midgame search iteration of `genmove` (1 to 60); the clock may stop it
    /// earlier. Endgames within the solver's reach are still solved.
    #[arg(long, default_value_t = 60)]
    pub depth: u32,
    /// Search on the opponent's time: after each `genmove`, until the next command.
    #[arg(long)]
    pub ponder: bool,
    /// Protocol on stdin/stdout: `gtp` (the GRhino/Edax dialect) or `nboard` (the NBoard
    /// GUI's protocol, version 2; see protocols/othello.md).
    #[arg(long, default_value = "gtp", value_parser = ["gtp", "nboard"])]
    pub protocol: String,
    /// NBoard only: longest time one `hint` may take, in seconds (`go` takes --move-time).
    #[arg(long, default_value_t = 10.0)]
    pub hint_time: f64,
    /// Opening book (written by `quartet train othello book` or `quartet othello learn`)
    /// instead of the built-in one (data/othello/book.txt): `genmove` (NBoard: `go`) plays
    /// its best trusted move while there is one, NBoard's `hint` lists the trusted moves.
    /// At most 64 MiB.
    #[arg(long, conflicts_with = "no_book")]
    pub book: Option<PathBuf>,
    /// Play without an opening book (not even the built-in one).
    #[arg(long)]
    pub no_book: bool,
    /// Games a book move needs before its value is trusted (played by genmove, used by the
    /// book's negamax).
    #[arg(long, default_value_t = crate::othello::book::DEFAULT_MIN_VISITS)]
    pub book_visits: u32,
    /// Log level on stderr (error, warn, info, debug, trace); RUST_LOG also works.
    #[arg(long)]
    pub log_level: Option<String>,
    #[command(subcommand)]
    pub command: Option<OthelloCommand>,
}

#[derive(clap::Subcommand, Debug)]
pub enum OthelloCommand {
    /// Self-play learning: every game goes into an opening book, the per-move times of the
    /// two sides follow their win counts; resumable (rerun the same command). Uses the
    /// options given before `learn` (--weights, --hash-mb, --book as the starting book,
    /// --book-visits); without --book it starts from an empty book, not the built-in one.
    Learn(super::othello_learn::LearnArgs),
}

pub fn run(args: OthelloArgs) -> Result<(), String> {
    crate::logging::init_logging(args.log_level.as_deref())?;
    // The midgame table and the endgame solver's take half each.
    crate::memory::check_hash_mb(args.hash_mb, args.hash_mb as u64)?;
    if !(args.move_time > 0.0 && args.move_time <= 86_400.0) {
        return Err("--move-time must be in (0, 86400] seconds".into());
    }
    let time = TimeSettings::new(Duration::from_secs_f64(args.move_time), args.lag_buffer)?;
    if !(1..=60).contains(&args.depth) {
        return Err("--depth must be between 1 and 60".into());
    }
    if !(args.solve_time > 0.0 && args.solve_time <= 86_400.0) {
        return Err("--solve-time must be in (0, 86400] seconds".into());
    }
    let eval = Evaluator::chosen(args.weights.as_deref(), &args.eval)?;
    if !(0.0..=10.0).contains(&args.probcut) {
        return Err("--probcut must be between 0 (off) and 10".into());
    }
    let probcut = crate::othello::probcut::hundredths(args.probcut);
    if args.threads == 0 || args.threads > 256 {
        return Err("--threads must be between 1 and 256".into());
    }
    let (hash_mb, threads) = (args.hash_mb, args.threads);
    let engine_eval = eval.clone();
    let make = move || {
        let mut s = Searcher::new(engine_eval.clone(), hash_mb).with_probcut(probcut);
        s.set_threads(threads);
        s
    };
    if args.book_visits == 0 {
        return Err("--book-visits must be at least 1".into());
    }
    if let Some(OthelloCommand::Learn(learn)) = args.command {
        let seed = match (&args.book, args.no_book) {
            (Some(p), false) => Some(Book::load(p, args.book_visits)?),
            _ => None,
        };
        return super::othello_learn::run(learn, eval, args.hash_mb, seed, args.book_visits);
    }
    let book = match (&args.book, args.no_book) {
        (_, true) => None,
        (Some(p), false) => {
            let b = Book::load(p, args.book_visits)?;
            tracing::info!(positions = b.len(), "book {}", p.display());
            Some(b)
        }
        (None, false) => {
            let b = Book::default_book(args.book_visits);
            tracing::info!(positions = b.len(), "built-in book");
            Some(b)
        }
    };
    if args.protocol == "nboard" {
        if !(args.hint_time > 0.0 && args.hint_time <= 86_400.0) {
            return Err("--hint-time must be in (0, 86400] seconds".into());
        }
        let engine = NboardEngine::new(
            make(),
            Duration::from_secs_f64(args.move_time),
            Duration::from_secs_f64(args.hint_time),
        )
        .with_book(book);
        return crate::othello::nboard::run_stdio(engine).map_err(|e| format!("i/o error: {e}"));
    }
    let engine = OthelloEngine::new(make, time)
        .with_solve_time(Duration::from_secs_f64(args.solve_time))
        .with_ponder(args.ponder)
        .with_max_depth(args.depth)
        .with_book(book);
    crate::protocol::run_stdio(engine).map_err(|e| format!("i/o error: {e}"))
}
