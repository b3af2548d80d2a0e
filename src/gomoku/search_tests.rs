//! Tests of the search's shortcuts against values computed another way: `Board::peek`
//! against window sums counted from scratch off the cells, and the defence filter against
//! the defence points of an open three that gomoku theory names.
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::board::{Board, Point, Rule, EVAL_WEIGHT};
use super::eval::{keep_defences, scan};
use crate::color::Color::{Black, White};

/// Window sums and open four-window counts of both colours, counted from the cells alone.
fn from_scratch(b: &Board) -> ([i32; 2], [u16; 2]) {
    let n = b.size() as isize;
    let mut sums = [0; 2];
    let mut fours = [0; 2];
    for (dc, dr) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
        for r in 0..n {
            for c in 0..n {
                let (ec, er) = (c + 4 * dc, r + 4 * dr);
                if !(0..n).contains(&ec) || !(0..n).contains(&er) {
                    continue;
                }
                let mut k = [0usize; 2];
                for j in 0..5 {
                    let p = b.point((c + j * dc) as usize, (r + j * dr) as usize);
                    if let Some(s) = b.stone(p) {
                        k[s.index()] += 1;
                    }
                }
                for (i, o) in [(0, 1), (1, 0)] {
                    if k[o] == 0 {
                        sums[i] += EVAL_WEIGHT[k[i]];
                        fours[i] += (k[i] == 4) as u16;
                    }
                }
            }
        }
    }
    (sums, fours)
}

#[test]
fn peek_gives_the_sums_of_the_position_after_the_move() {
    let mut rng = SmallRng::seed_from_u64(5);
    for game in 0..20 {
        let mut b = Board::new(if game % 2 == 0 { 15 } else { 9 }, Rule::Freestyle);
        let empties = |b: &Board| -> Vec<Point> { b.points().filter(|&p| b.is_empty(p)).collect() };
        // Stones clustered near the centre, so windows fill up to fours and die.
        let n = b.size();
        for ply in 0..40 {
            let c = if ply % 2 == 0 { Black } else { White };
            for _ in 0..6 {
                let pts = empties(&b);
                let p = pts[rng.gen_range(0..pts.len())];
                b.place(p, c);
                let want = from_scratch(&b);
                b.undo();
                assert_eq!(b.peek(p, c), want, "game {game} ply {ply}");
            }
            // The next stone: a random empty cell of the central half, else anywhere.
            let (lo, hi) = (n / 4, n - n / 4);
            let central: Vec<Point> = empties(&b)
                .into_iter()
                .filter(|&p| {
                    let (x, y) = b.col_row(p);
                    (lo..hi).contains(&x) && (lo..hi).contains(&y)
                })
                .collect();
            let pool = if central.is_empty() {
                empties(&b)
            } else {
                central
            };
            let p = pool[rng.gen_range(0..pool.len())];
            b.place(p, c);
        }
    }
}

#[test]
fn stone_box_spans_the_stones() {
    let mut b = Board::new(15, Rule::Freestyle);
    assert_eq!(b.stone_box(), None);
    b.place(b.point(3, 9), Black);
    b.place(b.point(11, 2), White);
    assert_eq!(b.stone_box(), Some(((3, 11), (2, 9))));
    b.undo();
    assert_eq!(b.stone_box(), Some(((3, 3), (9, 9))));
}

/// White to move against Black's open three `. . X X X . .` on row 7, columns 5..=7, with
/// no four of its own: the defences are the four empty points of the line next to and one
/// beyond the three (blocking farther lets Black make an open four).
#[test]
fn an_open_three_leaves_only_its_four_defence_points() {
    let mut b = Board::new(15, Rule::Freestyle);
    for (col, c) in [(5, Black), (6, Black), (7, Black)] {
        b.place(b.point(col, 7), c);
    }
    b.place(b.point(1, 1), White);
    b.place(b.point(13, 13), White);
    let mut cands = Vec::new();
    let s = scan(&mut b, White, &mut cands);
    assert!(s.opp_double && s.n_blocks == 0);
    keep_defences(&mut cands);
    let mut got: Vec<(usize, usize)> = cands.iter().map(|m| b.col_row(m.p)).collect();
    got.sort();
    assert_eq!(got, vec![(3, 7), (4, 7), (8, 7), (9, 7)]);

    // A closed three (one end blocked) is no double threat: nothing is filtered.
    b.place(b.point(8, 7), White);
    let s = scan(&mut b, White, &mut cands);
    assert!(!s.opp_double);
}
