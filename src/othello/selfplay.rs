//! Labelled positions from self-play, for fitting the pattern evaluation.
//!
//! A game starts with `random_plies` uniformly random moves (diversity: the searcher is
//! deterministic), continues with a shallow fixed-depth search until `solve_at` empties,
//! and is then solved exactly; the solver's moves finish it. Every position from the end
//! of the random opening on is labelled with that exact value (final disc difference with
//! perfect play from the solve point, from its own side to move): exact for the positions
//! at `solve_at` empties or fewer, the shallow players' "theoretical score" before (the
//! WTHOR labelling idea, with our own games). The random moves all come before the first
//! labelled position, so no label depends on a random move.
use super::board::Board;
use super::endgame::Solver;
use super::eval::Weights;
use super::pattern_fit::Example;
use super::search::Searcher;
use crate::search::{Deadline, Limits, StopToken};
use rand::{rngs::SmallRng, Rng, SeedableRng};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// One labelled position: final disc difference (side to move) with perfect play from
/// the game's solve point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labelled {
    pub board: Board,
    pub label: i8,
}

impl From<Labelled> for Example {
    fn from(l: Labelled) -> Example {
        Example {
            board: l.board,
            label: l.label as f32,
        }
    }
}

/// How the games are played.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    pub random_plies: std::ops::RangeInclusive<u32>,
    pub depth: u32,
    pub solve_at: u32,
    /// A solve that takes longer is dropped with its game (a rare very hard position).
    pub solve_limit: Duration,
}

impl SelfPlay {
    /// The games of `quartet train othello selfplay`: 8 to 14 random plies, then a search
    /// of `depth` until `solve_at` empties; a solve may take a minute.
    pub fn new(depth: u32, solve_at: u32) -> SelfPlay {
        SelfPlay {
            random_plies: 8..=14,
            depth,
            solve_at,
            solve_limit: Duration::from_secs(60),
        }
    }
}

/// Plays `games` self-play games from `seed` and appends their labelled positions to `out`
/// (one game's positions are written together, so a stopped run leaves whole games);
/// progress goes to stderr.
pub fn run(out: &Path, games: u32, seed: u64, cfg: &SelfPlay) -> Result<(), String> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let mut rng = SmallRng::seed_from_u64(seed);
    // The midgame player uses the linear evaluation: the data must not depend on the
    // pattern weights it will fit.
    let mut searcher = Searcher::new(Weights::default_weights(), 16);
    let mut solver = Solver::new(32);
    let t = Instant::now();
    let (mut kept, mut positions) = (0u32, 0usize);
    for g in 0..games {
        searcher.clear();
        if let Some(game) = play_game(cfg, &mut rng, &mut searcher, &mut solver) {
            let text: String = game.iter().map(|l| format_line(l) + "\n").collect();
            file.write_all(text.as_bytes())
                .map_err(|e| format!("{}: {e}", out.display()))?;
            kept += 1;
            positions += game.len();
        }
        if (g + 1).is_multiple_of(20) || g + 1 == games {
            eprintln!(
                "selfplay: {}/{games} games, {kept} kept, {positions} positions, {:.0} s",
                g + 1,
                t.elapsed().as_secs_f64()
            );
        }
    }
    Ok(())
}

/// Plays one game; `None` when the random opening ended the game or the solve timed out.
pub fn play_game(
    cfg: &SelfPlay,
    rng: &mut SmallRng,
    searcher: &mut Searcher,
    solver: &mut Solver,
) -> Option<Vec<Labelled>> {
    let mut b = Board::start();
    let plies = rng.gen_range(cfg.random_plies.clone());
    for _ in 0..plies {
        b = b.play_random(rng)?;
    }
    // (board, perspective): perspective flips with every move or pass, so the label of a
    // position is the solve value times +1 or -1 by parity.
    let mut seen: Vec<(Board, bool)> = Vec::with_capacity(60);
    let mut flip = false;
    let unlimited = Limits::new(Deadline::unlimited(), None, StopToken::new());
    while b.empties().count_ones() > cfg.solve_at {
        if b.moves() == 0 {
            if b.is_game_over() {
                break;
            }
            b = b.pass();
            flip = !flip;
            continue;
        }
        seen.push((b, flip));
        let m = searcher.deepen(&b, &unlimited, cfg.depth).best?;
        b = b.play(m)?;
        flip = !flip;
    }
    solver.set_limits(StopToken::new(), Some(Instant::now() + cfg.solve_limit));
    let value = solver.solve(&b).score;
    if solver.was_aborted() {
        return None;
    }
    let value_flip = flip;
    // Follow a perfect line to the end; its positions keep the same value.
    while !b.is_game_over() {
        if b.moves() == 0 {
            b = b.pass();
            flip = !flip;
            continue;
        }
        seen.push((b, flip));
        let r = solver.solve(&b);
        if solver.was_aborted() {
            return None;
        }
        b = b.play(r.best?)?;
        flip = !flip;
    }
    Some(
        seen.into_iter()
            .map(|(board, f)| Labelled {
                board,
                label: if f == value_flip { value } else { -value } as i8,
            })
            .collect(),
    )
}

/// One line of a positions file: `<p hex> <o hex> <label>`.
pub fn format_line(l: &Labelled) -> String {
    format!("{:016x} {:016x} {}", l.board.p, l.board.o, l.label)
}

/// Parses a positions-file line (see `format_line`).
pub fn parse_line(line: &str) -> Result<Labelled, String> {
    let mut it = line.split_whitespace();
    let mut hex = |what: &str| {
        it.next()
            .and_then(|t| u64::from_str_radix(t, 16).ok())
            .ok_or(format!("missing or bad {what}"))
    };
    let p = hex("player bitboard")?;
    let o = hex("opponent bitboard")?;
    if p & o != 0 {
        return Err("overlapping bitboards".into());
    }
    let label: i8 = it
        .next()
        .and_then(|t| t.parse().ok())
        .filter(|v: &i8| (-64..=64).contains(v))
        .ok_or("missing or bad label")?;
    Ok(Labelled {
        board: Board { p, o },
        label,
    })
}

/// Largest positions file read (a line is about 40 bytes).
const MAX_FILE_BYTES: u64 = 1 << 30;

/// Every position of a positions file, in order; an error names the file and line.
pub fn read_file(path: &Path) -> Result<Vec<Labelled>, String> {
    let text = crate::bounded_read::read_to_string_capped(path, MAX_FILE_BYTES)?;
    text.lines()
        .enumerate()
        .map(|(n, line)| parse_line(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1)))
        .collect()
}

/// The positions of several files, in order.
pub fn read_files(paths: &[impl AsRef<Path>]) -> Result<Vec<Labelled>, String> {
    let mut all = Vec::new();
    for p in paths {
        all.extend(read_file(p.as_ref())?);
    }
    Ok(all)
}

/// The games of a positions file: a game's positions come in decreasing empties, so a
/// rise (or no fall) starts the next game.
pub fn games(positions: &[Labelled]) -> impl Iterator<Item = &[Labelled]> {
    positions.chunk_by(|a, b| b.board.empties().count_ones() < a.board.empties().count_ones())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::eval::Weights;
    use rand::SeedableRng;

    #[test]
    fn labels_of_the_solved_part_match_an_independent_solve() {
        // Labels at or below the solve point must equal a fresh exact solve of the position
        // (a second solver with a full-window search, no shared table).
        let cfg = SelfPlay {
            random_plies: 10..=10,
            depth: 2,
            solve_at: 10,
            solve_limit: Duration::from_secs(30),
        };
        let mut rng = SmallRng::seed_from_u64(3);
        let mut s = Searcher::new(Weights::default_weights(), 4);
        let mut solver = Solver::new(4);
        let game = play_game(&cfg, &mut rng, &mut s, &mut solver).expect("a game");
        assert!(game.len() > 30);
        let mut check = Solver::new(4);
        check.mtd = false;
        let mut checked = 0;
        for l in game.iter().filter(|l| l.board.empties().count_ones() <= 10) {
            assert_eq!(check.solve(&l.board).score, l.label as i32, "{:?}", l.board);
            checked += 1;
        }
        assert!(checked >= 8);
        let first = game[0].board;
        assert_eq!(first.empties().count_ones(), 50);
    }

    #[test]
    fn positions_file_lines_round_trip_and_reject_garbage() {
        let l = Labelled {
            board: Board::start(),
            label: -12,
        };
        assert_eq!(parse_line(&format_line(&l)), Ok(l));
        assert!(parse_line("").is_err());
        assert!(parse_line("1 1 0").is_err());
        assert!(parse_line("1 2 65").is_err());
        assert!(parse_line("zz 2 3").is_err());
    }

    #[test]
    fn a_file_splits_into_games_where_the_empties_stop_falling() {
        let at = |empties: u32| {
            let mut b = Board::start();
            let mut rng = SmallRng::seed_from_u64(empties as u64);
            while b.empties().count_ones() > empties {
                b = b.play_random(&mut rng).unwrap_or_else(|| b.pass());
            }
            Labelled { board: b, label: 0 }
        };
        let file = [at(50), at(49), at(47), at(52), at(51), at(51), at(30)];
        let sizes: Vec<usize> = games(&file).map(|g| g.len()).collect();
        assert_eq!(sizes, vec![3, 2, 2]);
        let dir = std::env::temp_dir().join(format!("quartet-positions-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("sp.txt");
        let text: String = file.iter().map(|l| format_line(l) + "\n").collect();
        std::fs::write(&path, text + "not a line\n").unwrap();
        let e = read_file(&path).unwrap_err();
        assert!(
            e.ends_with("sp.txt:8: missing or bad player bitboard"),
            "{e}"
        );
        std::fs::write(&path, format_line(&file[0])).unwrap();
        assert_eq!(read_files(&[&path, &path]).unwrap(), vec![file[0], file[0]]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
