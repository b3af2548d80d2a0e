//! Claimed wins and losses of the alpha-beta against a brute-force search that tries every
//! empty cell of the board for both sides and finds fives by reading the cells.
use super::board::{Board, Point, Rule};
use super::search::{SearchConfig, Searcher, MATE, MATE_BOUND};
use super::threats::five_move;
use crate::color::Color::{self, Black, White};

/// Whether `c`'s stone at `p` is part of five or more in a row, read off the cells.
fn five_through(b: &Board, p: Point, c: Color) -> bool {
    let n = b.size() as isize;
    let (x, y) = b.col_row(p);
    let (x, y) = (x as isize, y as isize);
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
        let run = |s: isize| {
            let mut k = 0;
            let (mut i, mut j) = (x + s * dx, y + s * dy);
            while (0..n).contains(&i)
                && (0..n).contains(&j)
                && b.stone(b.point(i as usize, j as usize)) == Some(c)
            {
                k += 1;
                i += s * dx;
                j += s * dy;
            }
            k
        };
        1 + run(1) + run(-1) >= 5
    })
}

fn empties(b: &Board) -> Vec<Point> {
    b.points().filter(|&p| b.is_empty(p)).collect()
}

/// `c` to move loses within `k` plies (the opponent's five is the k-th), whatever it plays
/// on any empty cell (freestyle).
fn lost(b: &mut Board, c: Color, k: u32) -> bool {
    if k < 2 {
        return false;
    }
    let moves = empties(b);
    if moves.is_empty() {
        return false;
    }
    for p in moves {
        b.place(p, c);
        let five = five_through(b, p, c);
        let refuted = !five && wins(b, c.opponent(), k - 1);
        b.undo();
        if !refuted {
            return false;
        }
    }
    true
}

/// `c` to move makes a five within `k` plies against every defence.
fn wins(b: &mut Board, c: Color, k: u32) -> bool {
    if k == 0 {
        return false;
    }
    for p in empties(b) {
        b.place(p, c);
        let won = five_through(b, p, c) || lost(b, c.opponent(), k - 1);
        b.undo();
        if won {
            return true;
        }
    }
    false
}

/// Plies to the five a mate score claims, from the root of [`Searcher::value`] (ply 1).
fn plies_claimed(v: i32) -> u32 {
    (MATE - 1 - v.abs()) as u32
}

/// White to move on 9x9 against Black's open three on row 4 (columns 3-5) and Black's
/// three on the anti-diagonal (3,8) . (5,6) (6,5) (7,4 empty). The brute force finds one
/// move that survives four plies: (6,4), the near end of the three that also blocks the
/// diagonal's extension; the far ends and the left end lose to an open four or a
/// four-three. Before the fix, the engine at width 1 (widened to 2) and depth 4 tried only
/// two of the defence cells and claimed a loss in 4 plies (found by a random search of
/// 20,000 positions against [`lost`]).
fn two_threes() -> Board {
    let mut b = Board::new(9, Rule::Freestyle);
    let black = [(3, 4), (4, 4), (5, 4), (5, 6), (6, 5), (3, 8)];
    let white = [(2, 7), (6, 8), (8, 8), (6, 0), (2, 3), (0, 5)];
    for (&(bx, by), &(wx, wy)) in black.iter().zip(&white) {
        b.place(b.point(bx, by), Black);
        b.place(b.point(wx, wy), White);
    }
    b
}

#[test]
fn a_loss_is_claimed_only_when_every_defence_loses() {
    let mut b = two_threes();
    assert!(five_move(&b, Black).is_none() && five_move(&b, White).is_none());
    let mut survivors = Vec::new();
    for p in empties(&b) {
        b.place(p, White);
        let lost = wins(&mut b, Black, 3);
        b.undo();
        if !lost {
            survivors.push(b.col_row(p));
        }
    }
    assert_eq!(survivors, vec![(6, 4)]);
    for width in [1, 2, 3, 10] {
        let config = SearchConfig {
            width,
            ..SearchConfig::default()
        };
        for depth in 1..=6 {
            let v = Searcher::new(config.clone()).value(&mut b, White, depth);
            // Black's five comes on an even ply: no loss within 5 plies, as (6,4) holds 4.
            assert!(
                v > -MATE_BOUND || plies_claimed(v) > 5,
                "width {width} depth {depth}: claims a loss in {} plies",
                plies_claimed(v)
            );
        }
    }
}

/// The brute force itself against positions whose answers are known: an open four wins
/// in one ply for the mover and loses in two for the other side; a lone three does not.
#[test]
fn the_brute_force_sees_fives_and_open_fours() {
    let mut b = Board::new(9, Rule::Freestyle);
    for col in 2..=5 {
        b.place(b.point(col, 4), Black);
        b.place(b.point(col, 0), White);
    }
    b.undo();
    // Black: open four (2..5, 4); White: three (2..4, 0) against the edge.
    assert!(wins(&mut b, Black, 1));
    b.place(b.point(8, 8), Black);
    // White to move, Black has an open four: lost in 2, and White has no five.
    assert!(lost(&mut b, White, 2));
    assert!(!wins(&mut b, White, 1));
    b.undo();
    b.undo();
    // Black's (5,4) gone: an open three only, which White to move holds for 2 plies.
    b.place(b.point(8, 8), Black);
    assert!(!lost(&mut b, White, 2));
}
