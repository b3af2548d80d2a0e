//! Stable discs: discs that can never be flipped again, used for the endgame stability
//! cut-off (if the opponent already owns `s` stable discs, our score is at most `64 - 2s`).
//!
//! A disc cannot be flipped along a line if that line is full, or if its neighbour along the
//! line is the board edge or a stable disc of the same colour (flipping it would need that
//! neighbour flipped too). A disc safe along all four lines is stable; iterating from the
//! empty set to a fixpoint finds corners first, then what leans on them. Conservative:
//! some truly stable discs are missed, never the reverse.
use super::bitboard::{CORNERS, FILE_A, FILE_H};

const ROW_1: u64 = 0xff;
const ROW_8: u64 = 0xff << 56;
const EDGE: u64 = FILE_A | FILE_H | ROW_1 | ROW_8;

#[cfg(test)]
const fn diag_masks(anti: bool) -> [u64; 15] {
    let mut m = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = (sq % 8, sq / 8);
        let k = if anti { c + r } else { c + 7 - r };
        m[k] |= 1u64 << sq;
        sq += 1;
    }
    m
}

/// Lines along a1-h8 (step 9) and h1-a8 (step 7), for the reference in the tests.
#[cfg(test)]
static DIAG9: [u64; 15] = diag_masks(false);
#[cfg(test)]
static DIAG7: [u64; 15] = diag_masks(true);

/// Squares `x` whose square `k` steps away in direction `(dc, dr)` is off the board.
const fn off_board(dc: i32, dr: i32, k: i32) -> u64 {
    let mut m = 0u64;
    let mut sq = 0;
    while sq < 64 {
        let c = sq % 8 + k * dc;
        let r = sq / 8 + k * dr;
        if c < 0 || c > 7 || r < 0 || r > 7 {
            m |= 1u64 << sq;
        }
        sq += 1;
    }
    m
}

/// One direction: the bit offset of a step and the off-board masks for 1, 2 and 4 steps.
struct Dir {
    step: i32,
    off: [u64; 3],
}

const fn dir(dc: i32, dr: i32) -> Dir {
    Dir {
        step: 8 * dr + dc,
        off: [
            off_board(dc, dr, 1),
            off_board(dc, dr, 2),
            off_board(dc, dr, 4),
        ],
    }
}

/// The eight directions, opposite ones side by side; pairs are the axes in the order
/// horizontal, vertical, step 9, step 7.
static DIRS: [Dir; 8] = [
    dir(1, 0),
    dir(-1, 0),
    dir(0, 1),
    dir(0, -1),
    dir(1, 1),
    dir(-1, -1),
    dir(-1, 1),
    dir(1, -1),
];

/// `bits` moved so that square `x` reads square `x + step`.
#[inline(always)]
fn read(bits: u64, step: i32) -> u64 {
    if step > 0 {
        bits >> step
    } else {
        bits << -step
    }
}

/// Squares from which every square up to the edge in direction `d` is filled: doubling
/// (1, 2, 4 steps), where a step past the edge counts as filled. No wrap-around can leak
/// in: a square whose k-step target is off the board takes the mask, not the shifted bit.
#[inline(always)]
fn filled_to_edge(filled: u64, d: &Dir) -> u64 {
    let f1 = filled & (read(filled, d.step) | d.off[0]);
    let f2 = f1 & (read(f1, 2 * d.step) | d.off[1]);
    f2 & (read(f2, 4 * d.step) | d.off[2])
}

/// Squares lying on full lines, per direction: (horizontal, vertical, step-9, step-7).
#[inline(always)]
fn full_lines(filled: u64) -> (u64, u64, u64, u64) {
    let axis =
        |a: usize| filled_to_edge(filled, &DIRS[2 * a]) & filled_to_edge(filled, &DIRS[2 * a + 1]);
    (axis(0), axis(1), axis(2), axis(3))
}

/// Stable discs of the owner of `me` (the other discs being `other`).
#[inline(always)]
pub fn stable(me: u64, other: u64) -> u64 {
    stable_on(me, &Lines::new(me | other))
}

/// Stable discs of both sides, `(me, other)`: the full lines are found once for the two
/// (the evaluation wants both, and the lines are half the work).
#[inline(always)]
pub fn stable_both(me: u64, other: u64) -> (u64, u64) {
    let lines = Lines::new(me | other);
    (stable_on(me, &lines), stable_on(other, &lines))
}

/// Per axis, the squares where that axis cannot be used to flip: a full line or the edge.
struct Lines {
    h: u64,
    v: u64,
    d9: u64,
    d7: u64,
}

impl Lines {
    #[inline(always)]
    fn new(filled: u64) -> Lines {
        let (fh, fv, f9, f7) = full_lines(filled);
        Lines {
            h: fh | FILE_A | FILE_H,
            v: fv | ROW_1 | ROW_8,
            d9: f9 | EDGE,
            d7: f7 | EDGE,
        }
    }
}

/// The least fixpoint of "stable along all four axes", found by iterating from a seed of
/// discs already known stable: `me`'s discs joined to an owned corner along an edge.
///
/// From the empty set the iteration adds one disc per round along a line (a run of seven
/// edge discs takes eight rounds: a quarter of the evaluation's time in the endgame
/// ordering searches). The seed is a subset of the fixpoint and is stable given itself, so
/// the iterates still only grow and stop at the same least fixpoint.
#[inline(always)]
fn stable_on(me: u64, l: &Lines) -> u64 {
    let mut s = edge_anchored(me);
    loop {
        let h = l.h | ((s << 1) & !FILE_A) | ((s >> 1) & !FILE_H);
        let v = l.v | (s << 8) | (s >> 8);
        let d9 = l.d9 | ((s << 9) & !FILE_A) | ((s >> 9) & !FILE_H);
        let d7 = l.d7 | ((s << 7) & !FILE_H) | ((s >> 7) & !FILE_A);
        let n = me & h & v & d9 & d7;
        if n == s {
            return s;
        }
        s = n;
    }
}

/// `me`'s discs joined to an owned corner by a run of `me`'s discs along an edge: every one
/// of them is stable (the edge protects them across the board, the run along it).
#[inline(always)]
fn edge_anchored(me: u64) -> u64 {
    let corners = me & CORNERS;
    // Occluded fills (three doubling steps reach seven squares) along rows 1 and 8 and
    // files a and h; a shift never carries a bit from one of these lines onto another.
    let fill = |seed: u64, line: u64, up: bool, step: u32| {
        let sh = |x: u64, k: u32| if up { x << k } else { x >> k };
        let mut g = seed;
        let mut p = me & line;
        g |= p & sh(g, step);
        p &= sh(p, step);
        g |= p & sh(g, 2 * step);
        p &= sh(p, 2 * step);
        g | (p & sh(g, 4 * step))
    };
    let rows = ROW_1 | ROW_8;
    let files = FILE_A | FILE_H;
    fill(corners, rows, true, 1)
        | fill(corners, rows, false, 1)
        | fill(corners, files, true, 8)
        | fill(corners, files, false, 8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::bitboard::nth_square;
    use crate::othello::board::Board;

    /// Line by line, the reference for `full_lines`.
    fn full_lines_ref(filled: u64) -> (u64, u64, u64, u64) {
        let mut h = 0u64;
        for r in 0..8 {
            if (filled >> (8 * r)) & 0xff == 0xff {
                h |= 0xff << (8 * r);
            }
        }
        let mut c = filled;
        c &= c >> 32;
        c &= c >> 16;
        c &= c >> 8;
        let v = (c & 0xff).wrapping_mul(FILE_A);
        let mut d9 = 0;
        let mut d7 = 0;
        for k in 0..15 {
            if filled & DIAG9[k] == DIAG9[k] {
                d9 |= DIAG9[k];
            }
            if filled & DIAG7[k] == DIAG7[k] {
                d7 |= DIAG7[k];
            }
        }
        (h, v, d9, d7)
    }

    #[test]
    fn full_lines_match_the_line_by_line_reference() {
        use rand::{rngs::SmallRng, Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(9);
        for i in 0..20000 {
            // Dense boards, so that full lines are common.
            let filled = match i % 3 {
                0 => rng.gen::<u64>() | rng.gen::<u64>() | rng.gen::<u64>(),
                1 => !(rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>()),
                _ => rng.gen::<u64>(),
            };
            assert_eq!(full_lines(filled), full_lines_ref(filled), "{filled:#x}");
        }
        assert_eq!(
            full_lines(u64::MAX),
            (u64::MAX, u64::MAX, u64::MAX, u64::MAX)
        );
        assert_eq!(full_lines(0), (0, 0, 0, 0));
    }

    #[test]
    fn corners_and_full_edge_runs_are_stable() {
        // Black owns a1, b1, c1 and a2; white d1. Only the corner-anchored discs are stable.
        let (b, _) = Board::from_obf(&format!("XXXO----X{}", "-".repeat(55)), "X").unwrap();
        assert_eq!(stable(b.p, b.o), 0b111 | (1 << 8));
        assert_eq!(stable(b.o, b.p), 0);
        // Nothing is stable at the start.
        let s = Board::start();
        assert_eq!(stable(s.p, s.o), 0);
    }

    /// The fixpoint iterated from the empty set, square by square: the plain definition
    /// the seeded iteration must reproduce.
    fn stable_ref(me: u64, other: u64) -> u64 {
        let filled = me | other;
        let (fh, fv, f9, f7) = full_lines_ref(filled);
        let full = [fh, fv, f9, f7];
        let axes = [(1i32, 0i32), (0, 1), (1, 1), (-1, 1)];
        let mut s = 0u64;
        loop {
            let mut n = 0u64;
            for sq in 0..64 {
                if me >> sq & 1 == 0 {
                    continue;
                }
                let (c, r) = (sq % 8, sq / 8);
                let safe = axes.iter().enumerate().all(|(a, &(dc, dr))| {
                    if full[a] >> sq & 1 != 0 {
                        return true;
                    }
                    [(dc, dr), (-dc, -dr)].iter().any(|&(x, y)| {
                        let (c2, r2) = (c + x, r + y);
                        !(0..8).contains(&c2)
                            || !(0..8).contains(&r2)
                            || s >> (r2 * 8 + c2) & 1 != 0
                    })
                });
                if safe {
                    n |= 1 << sq;
                }
            }
            if n == s {
                return s;
            }
            s = n;
        }
    }

    #[test]
    fn seeded_iteration_matches_the_plain_definition() {
        use rand::{rngs::SmallRng, Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(17);
        for i in 0..4000 {
            // Dense boards with owned edges, where the seed matters.
            let filled = !(rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>());
            let me = if i % 2 == 0 {
                filled & (rng.gen::<u64>() | 0xff00_0000_0000_00ff)
            } else {
                filled & rng.gen::<u64>()
            };
            let other = filled & !me;
            assert_eq!(
                stable(me, other),
                stable_ref(me, other),
                "{me:#x} {other:#x}"
            );
        }
    }

    #[test]
    fn both_sides_at_once_match_one_side_at_a_time() {
        use rand::{rngs::SmallRng, Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(21);
        for _ in 0..5000 {
            let filled = rng.gen::<u64>() | rng.gen::<u64>();
            let me = filled & rng.gen::<u64>();
            let other = filled & !me;
            assert_eq!(
                stable_both(me, other),
                (stable(me, other), stable(other, me))
            );
        }
    }

    /// Soundness check against play: no stable disc of either side ever flips in random
    /// games.
    #[test]
    fn stable_discs_never_flip_in_random_games() {
        use rand::{rngs::SmallRng, Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(3);
        for _ in 0..300 {
            let mut b = Board::start();
            loop {
                let mv = b.moves();
                if mv == 0 {
                    if b.is_game_over() {
                        break;
                    }
                    b = b.pass();
                    continue;
                }
                let sp = stable(b.p, b.o);
                let so = stable(b.o, b.p);
                let sq = nth_square(mv, rng.gen_range(0..mv.count_ones()));
                let n = b.play(sq).unwrap();
                // After the move `n.o` is the mover's discs.
                assert_eq!(n.o & sp, sp);
                assert_eq!(n.p & so, so);
                b = n;
            }
        }
    }
}
