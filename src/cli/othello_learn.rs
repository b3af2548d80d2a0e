//! `quartet othello learn`: the self-learning loop (`src/othello/learn.rs`) with its files.
//!
//! The directory holds `games.ggf`, one finished game a line, appended after each game
//! (one write, so a stopped run leaves whole games; a torn last line is cut off on the
//! next start), and `book.book`, rewritten through a rename after each game. The games
//! file is the truth: a new start replays it to recover the win counts, the times and the
//! book, then plays on until `--games` games are in it.
use crate::othello::book::Book;
use crate::othello::evaluator::Evaluator;
use crate::othello::ggf::GgfGame;
use crate::othello::learn::{add_to_book, black_result, play_game, Score};
use crate::othello::search::Searcher;
use crate::search::StopToken;
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct LearnArgs {
    /// Games the directory should hold at the end (a restarted run plays the rest).
    #[arg(long)]
    pub games: u32,
    /// Starting seconds per move of both sides (the paper's is 2).
    #[arg(long, default_value_t = 2.0)]
    pub base_time: f64,
    /// Directory of `games.ggf` and `book.book`.
    #[arg(long, default_value = "othello-learn")]
    pub dir: PathBuf,
    /// Moves of each game stored in the book.
    #[arg(long, default_value_t = crate::othello::book::DEFAULT_PLIES)]
    pub plies: usize,
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

/// `seed`: a book to start from (`quartet othello --book FILE learn ...`; give it again
/// when resuming).
pub fn run(
    a: LearnArgs,
    eval: Evaluator,
    hash_mb: usize,
    seed: Option<Book>,
    min_visits: u32,
) -> Result<(), String> {
    if !(a.base_time > 0.0 && a.base_time <= 3600.0) {
        return Err("--base-time must be in (0, 3600] seconds".into());
    }
    let plies = a.plies.clamp(1, 60);
    std::fs::create_dir_all(&a.dir).map_err(|e| format!("{}: {e}", a.dir.display()))?;
    let games_path = a.dir.join("games.ggf");
    let book_path = a.dir.join("book.book");
    let mut book = seed.unwrap_or_else(|| Book::new(min_visits));
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
    let base = Duration::from_secs_f64(a.base_time);
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
        eprintln!(
            "learn: game {}/{}  S_B:S_W {}:{} ({} draws)  T_B {:.2} s  T_W {:.2} s  book {} positions  last {} ({} book moves, {:.1} s; {:.0} s this run)",
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
    }
    println!(
        "{} games in {}: S_B:S_W {}:{} ({} draws); book {} positions in {}",
        score.games(),
        games_path.display(),
        score.black_wins,
        score.white_wins,
        score.draws,
        book.len(),
        book_path.display()
    );
    Ok(())
}
