//! The self-learning run of `quartet othello learn` (the game and time rule: `learn.rs`)
//! over a directory that holds its state.
//!
//! The directory holds `games.ggf`, one finished game a line, appended after each game
//! (one write, so a stopped run leaves whole games; a torn last line is cut off on the
//! next start), and `book.book`, rewritten through a rename after each game. The games
//! file is the truth: a new start replays it to recover the win counts, the times and the
//! book, then plays on until the wanted number of games is in it.
//!
//! With a refit every K games (`refit.rs`) the next games use the refitted pattern tables:
//! `patterns.bin` holds the last refit's tables and `refit.txt` how many games it saw. A
//! start loads them when they match the games file, and refits again when they do not (a
//! run stopped between a game and its refit): the refit is a function of the starting
//! tables and the games, so that gives the same tables.
use super::book::Book;
use super::evaluator::Evaluator;
use super::ggf::GgfGame;
use super::learn::{add_to_book, black_result, play_game, Score};
use super::pattern::Patterns;
use super::pattern_file::{decode, encode, fingerprint};
use super::pattern_fit::Example;
use super::refit::{refit, RefitReport};
use super::search::Searcher;
use super::selfplay::read_files;
use crate::search::StopToken;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A learning run.
#[derive(Clone, Debug)]
pub struct Learn {
    /// Games the directory should hold at the end (a restarted run plays the rest).
    pub games: u32,
    /// Starting time per move of both sides.
    pub base_time: Duration,
    /// Directory of the run's files.
    pub dir: PathBuf,
    /// Moves of each game stored in the book.
    pub plies: usize,
    pub refit: Option<RefitEvery>,
}

/// Refitting the pattern tables during a run.
#[derive(Clone, Debug)]
pub struct RefitEvery {
    /// Games between refits (at least 1).
    pub games: usize,
    /// Positions files every refit also trains on.
    pub base: Vec<PathBuf>,
    /// Gradient passes of a refit.
    pub epochs: u32,
    /// Pseudo-positions holding each weight at the starting tables' value.
    pub ridge: f32,
}

/// The refit state of a run: the tables it started from and the last refit.
struct Refitter {
    every: usize,
    prior: Patterns,
    base: Vec<Example>,
    epochs: u32,
    ridge: f32,
    /// Games the current tables were fitted to (0: still the starting tables).
    games: usize,
    last: Option<RefitReport>,
}

impl Refitter {
    /// Refits on `games` when a refit is due (a multiple of `every` games not yet fitted),
    /// saves the tables and returns them.
    fn update(&mut self, dir: &Path, games: &[GgfGame]) -> Result<Option<Evaluator>, String> {
        let due = games.len() / self.every * self.every;
        if due == 0 || due == self.games {
            return Ok(None);
        }
        let (p, r) = refit(
            &self.prior,
            &games[..due],
            &self.base,
            self.epochs,
            self.ridge,
        );
        write_atomically(&dir.join("patterns.bin"), &encode(&p))?;
        write_atomically(
            &dir.join("refit.txt"),
            format!(
                "games {due}\nheld-out positions {}\nheld-out error before {:.2} after {:.2}\n",
                r.held_out, r.prior_error, r.error
            )
            .as_bytes(),
        )?;
        eprintln!(
            "learn: refit after {due} games: {} training positions, held-out error {:.2} -> {:.2} discs ({} positions), tables {:08x}, {:.1} s",
            r.train_positions,
            r.prior_error,
            r.error,
            r.held_out,
            fingerprint(&p),
            r.seconds
        );
        self.games = due;
        self.last = Some(r);
        Ok(Some(Evaluator::from(p)))
    }

    /// The saved tables when `refit.txt` says they were fitted to the first `due` games.
    fn load_saved(&mut self, dir: &Path, n_games: usize) -> Result<Option<Evaluator>, String> {
        let due = n_games / self.every * self.every;
        let meta = std::fs::read_to_string(dir.join("refit.txt")).unwrap_or_default();
        let saved_games = meta
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("games "))
            .and_then(|n| n.trim().parse::<usize>().ok());
        if due == 0 || saved_games != Some(due) {
            return Ok(None);
        }
        let path = dir.join("patterns.bin");
        let bytes =
            crate::bounded_read::read_capped(&path, crate::othello::pattern_file::MAX_FILE_BYTES)?;
        let p = decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        if p.width != self.prior.width || p.outer != self.prior.outer {
            return Ok(None);
        }
        eprintln!(
            "learn: tables of the refit after {due} games from {} ({:08x})",
            path.display(),
            fingerprint(&p)
        );
        self.games = due;
        Ok(Some(Evaluator::from(p)))
    }
}

/// Writes through a temporary file and a rename, so a stopped run leaves the old or the
/// new file, never half of one.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Tables named for the progress line.
fn tables_name(e: &Evaluator) -> String {
    match e {
        Evaluator::Pattern(p) => format!("{:08x}", fingerprint(p)),
        Evaluator::Linear(_) => "linear".into(),
    }
}

/// Largest games file read back (about 400 bytes a game).
const MAX_GAMES_BYTES: u64 = 256 << 20;

/// Reads the games so far, cutting a torn last line off the file.
fn read_games(path: &Path) -> Result<Vec<GgfGame>, String> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let mut text = crate::bounded_read::read_to_string_capped(path, MAX_GAMES_BYTES)?;
    if !text.is_empty() && !text.ends_with('\n') {
        let keep = text.rfind('\n').map_or(0, |i| i + 1);
        tracing::warn!(
            "{}: cutting off an unfinished last line ({} bytes)",
            path.display(),
            text.len() - keep
        );
        text.truncate(keep);
        std::fs::write(path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let g = GgfGame::parse(line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        if !g.board.is_game_over() {
            return Err(format!(
                "{}:{}: the game is not finished",
                path.display(),
                i + 1
            ));
        }
        games.push(g);
    }
    Ok(games)
}

/// Plays and learns until `a.dir` holds `a.games` games, each side searching with
/// `eval` and `hash_mb`; `start_book` is the book to start from (`quartet othello --book
/// FILE learn ...`; give it again when resuming), else an empty one that trusts a move
/// after `min_visits` games. Progress goes to stderr, the final count to `report`.
pub fn run(
    a: &Learn,
    eval: Evaluator,
    hash_mb: usize,
    start_book: Option<Book>,
    min_visits: u32,
    report: &mut impl Write,
) -> Result<(), String> {
    let plies = a.plies;
    let mut refitter = match (&a.refit, &eval) {
        (None, _) => None,
        (Some(r), Evaluator::Pattern(p)) => Some(Refitter {
            every: r.games.max(1),
            prior: (**p).clone(),
            base: read_files(&r.base)?
                .into_iter()
                .map(Example::from)
                .collect(),
            epochs: r.epochs,
            ridge: r.ridge,
            games: 0,
            last: None,
        }),
        (Some(_), Evaluator::Linear(_)) => {
            return Err("--refit refits pattern tables: not with linear weights".into())
        }
    };
    std::fs::create_dir_all(&a.dir).map_err(|e| format!("{}: {e}", a.dir.display()))?;
    let games_path = a.dir.join("games.ggf");
    let book_path = a.dir.join("book.book");
    let mut book = start_book.unwrap_or_else(|| Book::new(min_visits));
    let mut score = Score::new();
    let old = read_games(&games_path)?;
    for (i, g) in old.iter().enumerate() {
        add_to_book(&mut book, g, plies)
            .map_err(|e| format!("{}:{}: {e}", games_path.display(), i + 1))?;
        score.add(black_result(g));
    }
    book.propagate();
    if !old.is_empty() {
        book.save(&book_path)?;
        eprintln!(
            "learn: resumed from {} games, S_B:S_W {}:{}, book {} positions",
            old.len(),
            score.black_wins,
            score.white_wins,
            book.len()
        );
    }
    let mut games = old;
    let mut eval = eval;
    if let Some(r) = refitter.as_mut() {
        if let Some(e) = r.load_saved(&a.dir, games.len())? {
            eval = e;
        } else if let Some(e) = r.update(&a.dir, &games)? {
            eval = e;
        }
    }
    let base = a.base_time;
    let mut players = [
        Searcher::new(eval.clone(), hash_mb),
        Searcher::new(eval, hash_mb),
    ];
    let stop = StopToken::new();
    let run_start = Instant::now();
    while score.games() < a.games {
        let times = score.times(base);
        let t = Instant::now();
        let g =
            play_game(&book, &mut players, times, &stop).ok_or("a self-play game ended early")?;
        let r = black_result(&g);
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&games_path)
            .map_err(|e| format!("{}: {e}", games_path.display()))?;
        file.write_all(format!("{}\n", g.to_ggf()).as_bytes())
            .map_err(|e| format!("{}: {e}", games_path.display()))?;
        add_to_book(&mut book, &g, plies)?;
        book.propagate();
        book.save(&book_path)?;
        score.add(r);
        let from_book = g.moves.iter().filter(|m| m.time == "0").count();
        let played_with = tables_name(&players[0].eval);
        games.push(g);
        let refit_note = match refitter.as_ref().and_then(|r| r.last) {
            Some(last) => format!("  last refit {:.2} discs", last.error),
            None => String::new(),
        };
        eprintln!(
            "learn: game {}/{}  S_B:S_W {}:{} ({} draws)  T_B {:.2} s  T_W {:.2} s  book {} positions  last {} ({} book moves, {:.1} s; {:.0} s this run)  tables {played_with}{refit_note}",
            score.games(),
            a.games,
            score.black_wins,
            score.white_wins,
            score.draws,
            times.0.as_secs_f64(),
            times.1.as_secs_f64(),
            book.len(),
            match r {
                0 => "draw".to_string(),
                r if r > 0 => format!("B+{r}"),
                r => format!("W+{}", -r),
            },
            from_book,
            t.elapsed().as_secs_f64(),
            run_start.elapsed().as_secs_f64()
        );
        if let Some(r) = refitter.as_mut() {
            if let Some(e) = r.update(&a.dir, &games)? {
                for p in players.iter_mut() {
                    p.eval = e.clone();
                }
            }
        }
    }
    writeln!(
        report,
        "{} games in {}: S_B:S_W {}:{} ({} draws); book {} positions in {}",
        score.games(),
        games_path.display(),
        score.black_wins,
        score.white_wins,
        score.draws,
        book.len(),
        book_path.display()
    )
    .map_err(|e| format!("output: {e}"))
}
