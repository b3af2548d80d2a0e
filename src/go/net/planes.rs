//! The network's input: binary planes over the board, seen from the side to move.
//!
//! | plane | a point is set when |
//! |---|---|
//! | 0, 1, 2 | it holds a stone of the mover, of the opponent; it is empty |
//! | 3, 4, 5 | it holds a mover's stone whose string has 1, 2, 3 liberties |
//! | 6, 7, 8 | the same for the opponent's strings |
//! | 9 | it is the simple-ko point the mover may not take back |
//! | 10, 11 | the last move, the move before it, were played there |
//! | 12 | the mover may play there |
//! | 13 | it holds a mover's stone whose string, in atari, cannot run (a lost ladder) |
//! | 14 | the mover's atari there starts a ladder it wins (or captures next move) |
//! | 15 | it is on the board (the convolutions pad with zeros past the edge) |
//! | 16 | Black is to move (the side komi counts against) |
use super::super::board::{Board, Move, Point};
use super::super::ladder;
use crate::color::Color;

/// Number of input planes.
pub const PLANES: usize = 17;

/// Calls `set(plane, point)` for every set point of every plane of `b` with `mover` to
/// move, each pair once.
pub fn for_each_set(b: &Board, mover: Color, mut set: impl FnMut(usize, Point)) {
    let mut ladder_read = [false; super::super::board::MAX_POINTS];
    for p in b.points() {
        set(15, p);
        if mover == Color::Black {
            set(16, p);
        }
        match b.stone(p) {
            None => {
                set(2, p);
                if b.is_legal(mover, p) {
                    set(12, p);
                    if ladder::atari_captures(b, mover, p) {
                        set(14, p);
                    }
                }
            }
            Some(c) => {
                let own = c == mover;
                set(if own { 0 } else { 1 }, p);
                let libs = b.libs(p);
                if (1..=3).contains(&libs) {
                    set(if own { 2 } else { 5 } + libs, p);
                }
                if own && libs == 1 {
                    let head = b.string_head(p);
                    if !ladder_read[head] {
                        ladder_read[head] = true;
                        let mut moved = b.clone();
                        moved.set_to_move(mover);
                        if !ladder::escapes(&moved, p) {
                            b.for_each_stone(p, |q| set(13, q));
                        }
                    }
                }
            }
        }
    }
    if let Some(k) = b.ko_point() {
        if !b.is_legal(mover, k) && b.is_empty(k) {
            set(9, k);
        }
    }
    if let Some(Move::Play(p)) = b.last_move() {
        set(10, p);
    }
    if let Some(Move::Play(p)) = b.last2_move() {
        set(11, p);
    }
}

/// The planes as bytes (0 or 1), plane by plane, row by row: what the training data holds.
pub fn to_bytes(b: &Board, mover: Color) -> Vec<u8> {
    let n = b.size();
    let mut out = vec![0u8; PLANES * n * n];
    for_each_set(b, mover, |k, p| {
        let (col, row) = b.col_row(p);
        out[k * n * n + row * n + col] = 1;
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planes(rows: &[&str], mover: Color) -> (Board, Vec<u8>) {
        let b = Board::from_diagram(rows).unwrap();
        let v = to_bytes(&b, mover);
        (b, v)
    }

    /// Plane `k` at (col, row), row 0 being the diagram's last line.
    fn at(b: &Board, v: &[u8], k: usize, col: usize, row: usize) -> u8 {
        let n = b.size();
        v[k * n * n + row * n + col]
    }

    #[test]
    fn stones_and_liberties_are_seen_from_the_side_to_move() {
        // A white stone in the corner with one liberty, a black stone with two beside it,
        // a black pair with six.
        let rows = ["OX...", ".....", "..XX.", ".....", "....."];
        let (b, v) = planes(&rows, Color::Black);
        assert_eq!(at(&b, &v, 0, 1, 4), 1);
        assert_eq!(at(&b, &v, 1, 0, 4), 1);
        assert_eq!(at(&b, &v, 6, 0, 4), 1, "opponent string with 1 liberty");
        assert_eq!(at(&b, &v, 4, 1, 4), 1, "own string with 2 liberties");
        for k in 3..=8 {
            assert_eq!(at(&b, &v, k, 2, 2), 0, "6 liberties is none of 1, 2, 3");
        }
        assert_eq!(at(&b, &v, 16, 3, 3), 1, "Black to move");
        assert_eq!(at(&b, &v, 12, 0, 3), 1, "an empty point is legal");
        let (_, w) = planes(&rows, Color::White);
        assert_eq!(at(&b, &w, 0, 0, 4), 1);
        assert_eq!(at(&b, &w, 3, 0, 4), 1);
        assert_eq!(at(&b, &w, 7, 1, 4), 1);
        assert_eq!(at(&b, &w, 16, 3, 3), 0);
        // Every point is on the board and exactly one of own, opponent or empty.
        let n = 25;
        assert!(v[15 * n..16 * n].iter().all(|&x| x == 1));
        for i in 0..n {
            assert_eq!(v[i] + v[n + i] + v[2 * n + i], 1);
        }
    }

    #[test]
    fn a_lost_ladder_and_the_atari_that_starts_one_are_marked() {
        // White C3 in atari; extending runs into a ladder Black wins on an empty board.
        let ladder = [
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "..X......",
            ".XO......",
            "..XX.....",
            ".........",
        ];
        let (b, v) = planes(&ladder, Color::White);
        assert_eq!(at(&b, &v, 13, 2, 2), 1, "White's string in a lost ladder");
        let (_, v) = planes(&ladder, Color::Black);
        assert_eq!(at(&b, &v, 13, 2, 2), 0, "only the mover's strings are read");
        // A white stone on the ladder's path lets it run.
        let mut broken = ladder;
        broken[2] = "......O..";
        let (b, v) = planes(&broken, Color::White);
        assert_eq!(at(&b, &v, 13, 2, 2), 0);
        // Before the atari: Black C2 starts the ladder, Black B4 is no atari.
        let before = [
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "..X......",
            ".XO......",
            "...X.....",
            ".........",
        ];
        let (b, v) = planes(&before, Color::Black);
        assert_eq!(at(&b, &v, 14, 2, 1), 1);
        assert_eq!(at(&b, &v, 14, 1, 3), 0);
    }

    #[test]
    fn the_last_moves_and_the_ko_point_are_marked() {
        let mut b = Board::new(5);
        // White B4 (1, 3) is surrounded but for C4 (2, 3); Black takes it there, making a
        // ko White may not retake at once.
        for (c, col, row) in [
            (Color::Black, 1, 4),
            (Color::White, 2, 4),
            (Color::Black, 0, 3),
            (Color::White, 1, 3),
            (Color::Black, 1, 2),
            (Color::White, 2, 2),
            (Color::Black, 0, 0),
            (Color::White, 3, 3),
            (Color::Black, 2, 3),
        ] {
            assert!(b.play(c, Move::Play(b.point(col, row))));
        }
        assert!(b.is_empty(b.point(1, 3)), "the capture");
        let v = to_bytes(&b, Color::White);
        assert_eq!(at(&b, &v, 9, 1, 3), 1, "the ko point");
        assert_eq!(at(&b, &v, 12, 1, 3), 0, "not legal for White");
        assert_eq!(at(&b, &v, 10, 2, 3), 1, "last move");
        assert_eq!(at(&b, &v, 11, 3, 3), 1, "the move before");
        assert_eq!(v[9 * 25..10 * 25].iter().filter(|&&x| x == 1).count(), 1);
        // Black may play there: no ko point for Black.
        let v = to_bytes(&b, Color::Black);
        assert!(v[9 * 25..10 * 25].iter().all(|&x| x == 0));
    }
}
