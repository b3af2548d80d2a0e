//! The Swap2 opening as the Gomocup managers run it (`SWAP2BOARD`, the experimental
//! tournament's extension of the pbrain protocol, gomocup.org "Experimental Tournament"
//! 2020/2021). The manager asks one of three things, told apart by the stones it sends:
//!
//! - none: propose the first three stones (Black, White, Black);
//! - three: we are the second player, tentatively White, and White is to move: `SWAP`
//!   (take Black; the opponent plays the fourth stone), the fourth stone (stay White), or
//!   the fourth and fifth stones (the opponent then chooses a colour);
//! - five: we placed the first three, White is to move: `SWAP` (take Black) or the sixth
//!   stone (play White).
//!
//! Every choice comes from searches of the position with White to move, within the move's
//! time; the protocol side (parsing, the answer's text, the game kept after it) is in
//! [`super::pbrain`].
use std::time::{Duration, Instant};

use super::board::Point;
use super::game::Game;
use super::search::{SearchReport, Searcher};
use crate::color::Color;
use crate::search::{Deadline, Limits, StopToken};

/// What we answer to `SWAP2BOARD`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swap2Answer {
    /// The first three stones, in the order Black, White, Black.
    Opening([Point; 3]),
    /// We take Black; the opponent, as White, moves next.
    Swap,
    /// We stay White and play this stone.
    Play(Point),
    /// The fourth (White) and fifth (Black) stones; the opponent chooses a colour.
    AddTwo(Point, Point),
}

/// Within this many points of zero (White's view) a three-stone position counts as
/// balanced, and we add two stones instead of choosing: a little less than the weight of
/// one window holding three stones (`EVAL_WEIGHT[3]`), so a side with an unanswered three
/// is never called balanced.
pub const BALANCED: i32 = 120;

/// One search of `game` for `c`, ending `until` after `start`.
fn search(
    searcher: &mut Searcher,
    game: &mut Game,
    c: Color,
    start: Instant,
    until: Duration,
    stop: &StopToken,
) -> SearchReport {
    let limits = Limits::new(
        Deadline::starting_at(start, until, until),
        None,
        stop.clone(),
    );
    searcher.search(game.board_mut(), c, &limits)
}

/// The candidate openings on an `n` x `n` board: Black in the centre, White next to it
/// straight (direct) or diagonally (indirect), the third Black stone anywhere in the
/// central 5x5, one of each pair that mirrors onto the other across the line through the
/// first two stones: the 26 openings of renju practice on 15x15. Points as (column, row).
pub fn candidate_openings(n: usize) -> Vec<[(usize, usize); 3]> {
    let c = n / 2;
    let mut out = Vec::new();
    for (white, mirror) in [
        // Direct: the mirror is across the row of the first two stones.
        (
            (c + 1, c),
            (|(x, y), c| (x, 2 * c - y)) as fn((usize, usize), usize) -> (usize, usize),
        ),
        // Indirect: across their diagonal.
        ((c + 1, c + 1), |(x, y), _| (y, x)),
    ] {
        for y in c - 2..=c + 2 {
            for x in c - 2..=c + 2 {
                let p = (x, y);
                if p == (c, c) || p == white || mirror(p, c) < p {
                    continue;
                }
                out.push([(c, c), white, p]);
            }
        }
    }
    out
}

/// Our answer to `SWAP2BOARD` on `game` (empty, or holding the three or five stones in
/// move order), searched within `budget` from `start`. `game` ends as it was.
///
/// Blocks for at most `budget` (or until `stop`).
pub fn decide(
    searcher: &mut Searcher,
    game: &mut Game,
    start: Instant,
    budget: Duration,
    stop: &StopToken,
) -> Swap2Answer {
    match game.move_count() {
        0 => choose_opening(searcher, game, start, budget, stop),
        3 => {
            let half = budget / 2;
            let r = search(searcher, game, Color::White, start, half, stop);
            if r.score > BALANCED {
                Swap2Answer::Play(r.best)
            } else if r.score < -BALANCED {
                Swap2Answer::Swap
            } else {
                // Balanced: White's best stone and Black's best answer keep it so, and the
                // opponent must choose on it.
                if game.play(Color::White, r.best).is_err() {
                    return Swap2Answer::Play(r.best);
                }
                let b = search(searcher, game, Color::Black, start, budget, stop);
                game.undo();
                Swap2Answer::AddTwo(r.best, b.best)
            }
        }
        _ => {
            let r = search(searcher, game, Color::White, start, budget, stop);
            if r.score >= 0 {
                Swap2Answer::Play(r.best)
            } else {
                Swap2Answer::Swap
            }
        }
    }
}

/// The candidate opening whose searched value (White to move) is nearest to zero: the
/// opponent then gains least by either choice. Each candidate gets an equal share of the
/// budget; one that a search finds unplayable (a stone on a forbidden point) is skipped.
fn choose_opening(
    searcher: &mut Searcher,
    game: &mut Game,
    start: Instant,
    budget: Duration,
    stop: &StopToken,
) -> Swap2Answer {
    let cands = candidate_openings(game.size());
    let mut best: Option<([Point; 3], i32)> = None;
    for (i, cand) in cands.iter().enumerate() {
        let pts = cand.map(|(x, y)| game.board().point(x, y));
        let placed = [Color::Black, Color::White, Color::Black]
            .iter()
            .zip(pts)
            .take_while(|&(&c, p)| game.play(c, p).is_ok())
            .count();
        if placed == 3 {
            let until = budget.mul_f64((i + 1) as f64 / cands.len() as f64);
            let r = search(searcher, game, Color::White, start, until, stop);
            tracing::debug!(opening = ?cand, score = r.score, depth = r.depth, "swap2 candidate");
            let nearer = match best {
                None => true,
                Some((_, s)) => r.score.abs() < s.abs(),
            };
            if nearer {
                best = Some((pts, r.score));
            }
        }
        for _ in 0..placed {
            game.undo();
        }
    }
    let fallback = candidate_openings(game.size())[0].map(|(x, y)| game.board().point(x, y));
    Swap2Answer::Opening(best.map_or(fallback, |(p, _)| p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::board::Rule;
    use crate::gomoku::search::SearchConfig;

    #[test]
    fn the_26_openings_of_renju_practice() {
        let all = candidate_openings(15);
        assert_eq!(all.len(), 26);
        let direct = all.iter().filter(|o| o[1] == (8, 7)).count();
        assert_eq!(direct, 13, "13 direct and 13 indirect openings");
        for o in &all {
            assert_eq!(o[0], (7, 7));
            let (x, y) = o[2];
            assert!((5..=9).contains(&x) && (5..=9).contains(&y));
            assert!(o[2] != o[0] && o[2] != o[1]);
        }
        // No two are mirror images across the line of the first two stones.
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                if a[1] == b[1] {
                    let m = if a[1] == (8, 7) {
                        (a[2].0, 14 - a[2].1)
                    } else {
                        (a[2].1, a[2].0)
                    };
                    assert_ne!(m, b[2]);
                }
            }
        }
    }

    fn game_of(stones: &[(usize, usize)]) -> Game {
        let mut g = Game::new(15, Rule::Standard);
        for (i, &(x, y)) in stones.iter().enumerate() {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let p = g.board().point(x, y);
            g.play(c, p).unwrap();
        }
        g
    }

    fn decide_in(stones: &[(usize, usize)], ms: u64) -> Swap2Answer {
        let mut s = Searcher::new(SearchConfig {
            tt_mb: 4,
            ..SearchConfig::default()
        });
        let mut g = game_of(stones);
        let before = g.board().history().to_vec();
        let a = decide(
            &mut s,
            &mut g,
            Instant::now(),
            Duration::from_millis(ms),
            &StopToken::new(),
        );
        assert_eq!(g.board().history(), before, "the game is left as it was");
        a
    }

    #[test]
    fn five_stones_strongly_for_black_are_taken_as_black() {
        // Black's open three in the centre, White's two stones in corners, White to move:
        // White can only close one end, and Black keeps the initiative.
        let a = decide_in(&[(6, 7), (0, 0), (7, 7), (0, 14), (8, 7)], 300);
        assert_eq!(a, Swap2Answer::Swap);
    }

    #[test]
    fn five_stones_strongly_for_white_are_played_as_white() {
        // Black's three stones in three corners, White's two joined in the centre and White
        // to move: White makes an open three and Black has nothing to answer with.
        let a = decide_in(&[(0, 0), (7, 7), (14, 0), (8, 8), (0, 14)], 300);
        assert!(matches!(a, Swap2Answer::Play(_)), "{a:?}");
    }

    #[test]
    fn three_stones_give_a_choice_that_fits_the_search() {
        // Black's two stones in corners, White's in the centre, White to move: White is
        // better, so we stay White and play the fourth stone.
        let a = decide_in(&[(0, 0), (7, 7), (14, 14)], 300);
        assert!(matches!(a, Swap2Answer::Play(_)), "{a:?}");
        // Black's two stones joined in the centre, White's in a corner: take Black.
        let a = decide_in(&[(7, 7), (0, 0), (8, 8)], 300);
        assert_eq!(a, Swap2Answer::Swap);
    }

    #[test]
    fn an_empty_board_gets_one_of_the_candidate_openings() {
        let a = decide_in(&[], 260);
        let Swap2Answer::Opening(pts) = a else {
            panic!("{a:?}")
        };
        let g = game_of(&[]);
        let xy = pts.map(|p| g.board().col_row(p));
        assert!(candidate_openings(15).contains(&xy), "{xy:?}");
    }
}
