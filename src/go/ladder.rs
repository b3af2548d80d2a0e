//! Ladder reading: can a string in atari escape by extending, when the attacker keeps
//! putting it back in atari? Random moves cannot follow a ladder (the chase is long and
//! forced), so the tree's priors and the playouts' atari answers ask this reader instead.
use std::cell::RefCell;

use super::board::{Board, Move, Point};
use crate::color::Color;

/// Longest chase read; a ladder across a 19x19 board is shorter.
const MAX_DEPTH: usize = 60;

/// Whether the string through `s` (in atari, its owner to move) gets away: by capturing an
/// attacker in atari, or by extending to three or more liberties with every atari the
/// attacker can then give being escapable in turn.
pub fn escapes(b: &Board, s: Point) -> bool {
    with_scratch(|stack| escapes_at(b, s, 0, &mut stack[1..]))
}

thread_local! {
    /// Boards for the positions a chase reads, two per ply and one for the atari that
    /// starts it, reused so that reading a ladder in a playout copies only the used part
    /// of a board and never allocates.
    static SCRATCH: RefCell<Vec<Board>> = RefCell::new(new_stack());
}

fn new_stack() -> Vec<Board> {
    vec![Board::new(1); 2 * MAX_DEPTH + 1]
}

fn with_scratch<R>(f: impl FnOnce(&mut [Board]) -> R) -> R {
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut boards) => f(&mut boards),
        // Not reached (reading never re-enters itself), but a fresh stack is as good.
        Err(_) => f(&mut new_stack()),
    })
}

fn escapes_at(b: &Board, s: Point, depth: usize, stack: &mut [Board]) -> bool {
    let Some(defender) = b.stone(s) else {
        return false;
    };
    let Some(lib) = b.atari_lib(s) else {
        // Not in atari (or already captured): nothing to read.
        return b.libs(s) > 1;
    };
    if depth >= MAX_DEPTH || captures_attacker(b, s, defender) {
        return true;
    }
    if !b.is_legal(defender, lib) {
        return false;
    }
    let [ext, chase, deeper @ ..] = stack else {
        return true;
    };
    ext.copy_from(b);
    ext.play_legal(defender, Move::Play(lib));
    match ext.libs(s) {
        0 | 1 => false,
        2 => {
            let libs = ext.two_libs(s);
            let attacker = defender.opponent();
            for a in libs.into_iter().flatten() {
                if !ext.is_legal(attacker, a) {
                    continue;
                }
                chase.copy_from(ext);
                chase.play_legal(attacker, Move::Play(a));
                // The attacker's own stone must not be capturable at once.
                if chase.libs(a) >= 2
                    && chase.libs(s) == 1
                    && !escapes_at(chase, s, depth + 1, deeper)
                {
                    return false;
                }
            }
            true
        }
        _ => true,
    }
}

/// Whether a string of `defender` through `s` touches an attacker string in atari.
fn captures_attacker(b: &Board, s: Point, defender: Color) -> bool {
    let mut found = false;
    b.for_each_stone(s, |q| {
        for n in b.neighbors(q) {
            if b.stone(n) == Some(defender.opponent()) && b.libs(n) == 1 {
                found = true;
            }
        }
    });
    found
}

/// Whether `attacker` playing at `p` puts an adjacent enemy string in an atari it cannot
/// escape (a working ladder or a plain capture next move).
pub fn atari_captures(b: &Board, attacker: Color, p: Point) -> bool {
    if !b.is_legal(attacker, p) {
        return false;
    }
    let targets: Vec<Point> = b
        .neighbors(p)
        .into_iter()
        .filter(|&n| b.stone(n) == Some(attacker.opponent()) && b.libs(n) == 2)
        .collect();
    if targets.is_empty() {
        return false;
    }
    with_scratch(|stack| {
        let [after, chase @ ..] = stack else {
            unreachable!("the scratch stack is never empty")
        };
        after.copy_from(b);
        after.play_legal(attacker, Move::Play(p));
        after.libs(p) >= 2
            && targets
                .into_iter()
                .any(|t| after.libs(t) == 1 && !escapes_at(after, t, 0, chase))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color::Black;

    fn board(rows: &[&str]) -> Board {
        Board::from_diagram(rows).unwrap()
    }

    #[test]
    fn classic_ladder_on_an_empty_board_works() {
        // White C3 in atari (black B3, C4, C2); extending to D3 leaves two liberties
        // because of black D2, and the chase runs to the upper right over an empty board.
        let b = board(&[
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "..X......",
            ".XO......",
            "..XX.....",
            ".........",
        ]);
        let s = b.point(2, 2);
        assert_eq!(b.libs(s), 1);
        assert!(!escapes(&b, s));
    }

    #[test]
    fn ladder_breaker_lets_the_string_escape() {
        // Same shape with a white stone on the ladder's path at G7.
        let b = board(&[
            ".........",
            ".........",
            "......O..",
            ".........",
            ".........",
            "..X......",
            ".XO......",
            "..XX.....",
            ".........",
        ]);
        let s = b.point(2, 2);
        assert!(escapes(&b, s));
    }

    #[test]
    fn atari_that_starts_a_working_ladder_is_found() {
        let b = board(&[
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "..X......",
            ".XO......",
            "...X.....",
            ".........",
        ]);
        // Black C2 puts C3 in atari and the ladder works.
        assert!(atari_captures(&b, Black, b.point(2, 1)));
        // Black B4 gives no atari at all.
        assert!(!atari_captures(&b, Black, b.point(1, 3)));
    }
}
