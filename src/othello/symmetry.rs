//! The eight symmetries of the Othello board (the dihedral group of the square) acting on
//! bitboards, and the canonical form of a position under them.
//!
//! The start position is symmetric under the two diagonal reflections and the half turn,
//! so the four first moves lead to one position up to symmetry: an opening book keyed by
//! the canonical form stores each line once, whatever its orientation.
use super::board::Board;

/// Reverses the rows: a1 <-> a8 (square `8r + c` goes to `8(7 - r) + c`).
#[inline]
pub fn flip_vertical(x: u64) -> u64 {
    x.swap_bytes()
}

/// Reverses the columns: a1 <-> h1 (square `8r + c` goes to `8r + 7 - c`).
#[inline(always)]
pub fn mirror_horizontal(x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let x = ((x >> 1) & K1) | ((x & K1) << 1);
    let x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Reflects in the a1-h8 diagonal (square `8r + c` goes to `8c + r`): three delta swaps.
#[inline(always)]
pub fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// Symmetry `s` (0..8) of a bitboard: bit 2 transposes, then bit 0 flips the rows and
/// bit 1 mirrors the columns. The eight results are the eight elements of the group.
#[inline]
pub fn apply(s: u8, mut x: u64) -> u64 {
    if s & 4 != 0 {
        x = transpose(x);
    }
    if s & 1 != 0 {
        x = flip_vertical(x);
    }
    if s & 2 != 0 {
        x = mirror_horizontal(x);
    }
    x
}

/// The least `(p, o)` pair over the eight symmetries: equal for two positions exactly
/// when one is a symmetric image of the other (same side to move).
pub fn canonical(b: &Board) -> (u64, u64) {
    let mut best = (b.p, b.o);
    for s in 1..8 {
        let t = (apply(s, b.p), apply(s, b.o));
        if t < best {
            best = t;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Square by square, from the coordinate formulas (independent of the bit tricks).
    fn naive(x: u64, f: impl Fn(usize, usize) -> (usize, usize)) -> u64 {
        let mut y = 0;
        for sq in 0..64 {
            if x >> sq & 1 != 0 {
                let (r, c) = f(sq / 8, sq % 8);
                y |= 1u64 << (8 * r + c);
            }
        }
        y
    }

    #[test]
    fn bit_tricks_match_the_coordinate_formulas() {
        let mut x = 0x0123_4567_89ab_cdefu64;
        for _ in 0..200 {
            assert_eq!(flip_vertical(x), naive(x, |r, c| (7 - r, c)));
            assert_eq!(mirror_horizontal(x), naive(x, |r, c| (r, 7 - c)));
            assert_eq!(transpose(x), naive(x, |r, c| (c, r)));
            x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17) ^ 0x5bd1_e995;
        }
    }

    #[test]
    fn the_eight_symmetries_are_distinct_and_closed() {
        // An asymmetric set of squares: a1, b1, c1, a2 (an L-shape) has 8 distinct images.
        let x = 0b111 | 1 << 8;
        let images: std::collections::BTreeSet<u64> = (0..8).map(|s| apply(s, x)).collect();
        assert_eq!(images.len(), 8);
        for s in 0..8 {
            for t in 0..8 {
                assert!(images.contains(&apply(t, apply(s, x))));
            }
        }
    }
}
