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
use super::search::Searcher;
use crate::search::{Deadline, Limits, StopToken};
use rand::{rngs::SmallRng, Rng};
use std::time::{Duration, Instant};

/// One labelled position: final disc difference (side to move) with perfect play from
/// the game's solve point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labelled {
    pub board: Board,
    pub label: i8,
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
}
