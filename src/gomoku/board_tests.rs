//! The board's incremental tables against counts made from the cells alone, after random
//! sequences of moves and take-backs: the point scores and window-pattern counts of every
//! cell (what move ordering and the threat search read) and the per-colour four-window
//! counts (what the leaves read).
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::board::{Board, Point, Rule, OPP, OWN};
use crate::color::Color::{self, Black, White};

/// The paper's score of `p` for `c` to move and its packed window counts (byte k-1: windows
/// with k stones of `c` and none of the other), from the cells.
fn cell_from_scratch(b: &Board, p: Point, c: Color) -> (i32, u32) {
    let n = b.size() as isize;
    let (x, y) = b.col_row(p);
    let (x, y) = (x as isize, y as isize);
    let (mut score, mut pat) = (0, 0u32);
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
        for k in 0..5 {
            let (sx, sy) = (x - k * dx, y - k * dy);
            let (ex, ey) = (sx + 4 * dx, sy + 4 * dy);
            if ![sx, sy, ex, ey].iter().all(|v| (0..n).contains(v)) {
                continue;
            }
            let (own, other) = window_stones(b, c, (sx, sy), (dx, dy));
            score += if other == 0 {
                OWN[own.min(4)]
            } else if own == 0 {
                OPP[other.min(4)]
            } else {
                0
            };
            if other == 0 && (1..=4).contains(&own) {
                pat += 1 << (8 * (own - 1));
            }
        }
    }
    (score, pat)
}

/// Stones of `c` and of the other colour in the window of 5 from `start` along `dir`.
fn window_stones(
    b: &Board,
    c: Color,
    (sx, sy): (isize, isize),
    (dx, dy): (isize, isize),
) -> (usize, usize) {
    let (mut own, mut other) = (0, 0);
    for j in 0..5 {
        match b.stone(b.point((sx + j * dx) as usize, (sy + j * dy) as usize)) {
            Some(s) if s == c => own += 1,
            Some(_) => other += 1,
            None => {}
        }
    }
    (own, other)
}

/// Windows with exactly `k` stones of `c` and none of the other, from the cells.
fn windows_from_scratch(b: &Board, c: Color, k: usize) -> u16 {
    let n = b.size() as isize;
    let mut count = 0;
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
        for sy in 0..n {
            for sx in 0..n {
                let (ex, ey) = (sx + 4 * dx, sy + 4 * dy);
                if !(0..n).contains(&ex) || !(0..n).contains(&ey) {
                    continue;
                }
                let (own, other) = window_stones(b, c, (sx, sy), (dx, dy));
                count += (own == k && other == 0) as u16;
            }
        }
    }
    count
}

/// A random empty point with both coordinates in `lo..hi` (random games for the tests
/// of this folder), or None when there is none.
pub(super) fn random_empty_in(
    b: &Board,
    lo: usize,
    hi: usize,
    rng: &mut SmallRng,
) -> Option<Point> {
    let pts: Vec<Point> = b
        .points()
        .filter(|&p| {
            let (x, y) = b.col_row(p);
            b.is_empty(p) && (lo..hi).contains(&x) && (lo..hi).contains(&y)
        })
        .collect();
    (!pts.is_empty()).then(|| pts[rng.gen_range(0..pts.len())])
}

fn check(b: &Board, what: &str) {
    for p in b.points() {
        for c in [Black, White] {
            let (score, pat) = cell_from_scratch(b, p, c);
            assert_eq!(
                b.point_score(p, c),
                score,
                "{what} score {:?} {c}",
                b.col_row(p)
            );
            assert_eq!(
                b.patterns(p, c),
                pat,
                "{what} patterns {:?} {c}",
                b.col_row(p)
            );
        }
    }
    for c in [Black, White] {
        assert_eq!(
            b.four_windows(c),
            windows_from_scratch(b, c, 4),
            "{what} fours {c}"
        );
    }
}

#[test]
fn cell_tables_and_window_counts_match_the_cells_after_moves_and_undos() {
    let mut rng = SmallRng::seed_from_u64(21);
    for game in 0..12 {
        let n = [15, 9, 5, 20][game % 4];
        let mut b = Board::new(n, Rule::Freestyle);
        check(&b, "empty");
        // Stones near the centre so windows fill up, die and come back on undo.
        let (lo, hi) = (n / 4, n - n / 4);
        for ply in 0..60 {
            let Some(p) = random_empty_in(&b, lo, hi, &mut rng) else {
                break;
            };
            let c = if ply % 2 == 0 { Black } else { White };
            b.place(p, c);
            if rng.gen_range(0..4) == 0 {
                b.undo();
            }
            check(&b, &format!("game {game} ply {ply}"));
        }
        while b.undo().is_some() {}
        check(&b, &format!("game {game} all undone"));
    }
}
