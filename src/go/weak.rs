//! Weak groups for the tree's priors. Against Pachi, quartet lost most games in slow
//! slides: groups cut apart and attacked one after another while its search still rated the
//! position even, because the moves that save a thin group (or press the opponent's) had no
//! more prior than any quiet move and RAVE spread their value thin. Here a string is weak
//! when it has few liberties and the playouts' ownership leaves its fate open (neither
//! clearly alive nor clearly dead); a move that adds liberties to an own weak string, or
//! takes them from an enemy one without leaving the attacker weaker, earns a prior.
use super::board::{Board, Point, MAX_POINTS};
use super::tactics;
use crate::color::Color;

/// Strings with more liberties than this are not short of them.
const MAX_LIBS: usize = 4;
/// A string whose stones end the playouts its owner's in a share of them between these
/// bounds (ownership -0.6 to 0.6) is contested: it lives in 20-80% of the playouts.
const OPEN_FATE: f32 = 0.6;

/// The weak strings of one position, by string head.
pub struct WeakStrings {
    weak: [bool; MAX_POINTS],
    any: bool,
}

impl WeakStrings {
    /// Marks the weak strings of `b` under `ownership` (per point, +1 = every playout
    /// ended with it Black's, -1 = White's).
    pub fn find(b: &Board, ownership: &[f32]) -> WeakStrings {
        let mut out = WeakStrings {
            weak: [false; MAX_POINTS],
            any: false,
        };
        for p in b.points() {
            let Some(c) = b.stone(p) else { continue };
            if b.string_head(p) != p || !(2..=MAX_LIBS).contains(&b.libs(p)) {
                continue;
            }
            let (mut sum, mut n) = (0.0f32, 0usize);
            b.for_each_stone(p, |q| {
                sum += ownership[q];
                n += 1;
            });
            let own = if c == Color::Black { sum } else { -sum } / n as f32;
            if own.abs() < OPEN_FATE {
                out.weak[p] = true;
                out.any = true;
            }
        }
        out
    }

    pub fn is_weak(&self, b: &Board, p: Point) -> bool {
        self.any && b.stone(p).is_some() && self.weak[b.string_head(p)]
    }

    /// Whether `c` playing at empty `p` gives an own weak string next to it more
    /// liberties, or takes a liberty from an enemy weak string while the attacking
    /// stone keeps at least two liberties and as many as the string it attacks.
    pub fn urgent(&self, b: &Board, c: Color, p: Point) -> bool {
        if !self.any {
            return false;
        }
        let mut after = None;
        let mut libs_after =
            || *after.get_or_insert_with(|| tactics::libs_after_play(b, c, p, 0, 8));
        for n in b.neighbors(p) {
            if !self.is_weak(b, n) {
                continue;
            }
            let libs = b.libs(n);
            let gains = if b.stone(n) == Some(c) {
                libs_after() > libs
            } else {
                let mine = libs_after();
                mine >= 2 && mine >= libs
            };
            if gains {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Black C5-C4 with two liberties (D5, D4) between white stones at C6, B5-B4 and C3.
    fn fight() -> Board {
        Board::from_diagram(&[
            ".......", "..O....", ".OX....", ".OX....", "..O....", ".......", ".......",
        ])
        .unwrap()
    }

    #[test]
    fn short_strings_of_open_fate_are_weak_settled_ones_are_not() {
        let b = fight();
        let (c5, b5, c6) = (b.point(2, 4), b.point(1, 4), b.point(2, 5));
        assert_eq!(b.libs(c5), 2);
        let w = WeakStrings::find(&b, &[0.1; MAX_POINTS]);
        assert!(w.is_weak(&b, c5) && w.is_weak(&b, b5) && w.is_weak(&b, c6));
        assert!(!w.is_weak(&b, b.point(0, 0)), "an empty point is no string");
        // Black owns everything in 90% of the playouts: its string is safe and White's
        // stones are dead, neither is in doubt.
        let w = WeakStrings::find(&b, &[0.9; MAX_POINTS]);
        assert!(!w.is_weak(&b, c5) && !w.is_weak(&b, b5) && !w.is_weak(&b, c6));
        // A string with five or more liberties is never weak: two black stones alone in
        // the middle have six.
        let free = Board::from_diagram(&[".....", "..X..", "..X..", ".....", "....."]).unwrap();
        let w = WeakStrings::find(&free, &[0.0; MAX_POINTS]);
        assert!(!w.is_weak(&free, free.point(2, 2)));
    }

    #[test]
    fn extending_a_weak_string_and_pressing_one_are_urgent() {
        let b = fight();
        let (d5, d4, a1, e5) = (b.point(3, 4), b.point(3, 3), b.point(0, 0), b.point(4, 4));
        let w = WeakStrings::find(&b, &[0.1; MAX_POINTS]);
        assert!(
            w.urgent(&b, Color::Black, d5),
            "D5 gives C5-C4 three liberties"
        );
        assert!(
            w.urgent(&b, Color::White, d4),
            "D4 takes one and keeps three"
        );
        assert!(
            !w.urgent(&b, Color::Black, a1),
            "far from every weak string"
        );
        assert!(!w.urgent(&b, Color::Black, e5), "not touching the string");
        // With the fight settled, nothing is.
        let settled = WeakStrings::find(&b, &[0.9; MAX_POINTS]);
        assert!(!settled.urgent(&b, Color::Black, d5));
        assert!(!settled.urgent(&b, Color::White, d4));
    }

    #[test]
    fn an_attack_that_leaves_the_attacker_shorter_is_not_urgent() {
        // White's lone stone at B2 has two liberties, B3 and C2; Black C2 takes one but
        // is left in atari itself.
        let b = Board::from_diagram(&[".....", ".....", "O.O..", "XO.O.", ".X..."]).unwrap();
        let (b2, c2) = (b.point(1, 1), b.point(2, 1));
        assert_eq!(b.stone(b2), Some(Color::White));
        let w = WeakStrings::find(&b, &[0.0; MAX_POINTS]);
        assert!(w.is_weak(&b, b2), "B2 has {} liberties", b.libs(b2));
        assert!(!w.urgent(&b, Color::Black, c2), "C2 would be in atari");
    }
}
