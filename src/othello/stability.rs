//! Stable discs: discs that can never be flipped again, used for the endgame stability
//! cut-off (if the opponent already owns `s` stable discs, our score is at most `64 - 2s`).
//!
//! A disc cannot be flipped along a line if that line is full, or if its neighbour along the
//! line is the board edge or a stable disc of the same colour (flipping it would need that
//! neighbour flipped too). A disc safe along all four lines is stable; iterating from the
//! empty set to a fixpoint finds corners first, then what leans on them. Conservative:
//! some truly stable discs are missed, never the reverse.
use super::bitboard::{FILE_A, FILE_H};

const ROW_1: u64 = 0xff;
const ROW_8: u64 = 0xff << 56;
const EDGE: u64 = FILE_A | FILE_H | ROW_1 | ROW_8;

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

/// Lines along a1-h8 (step 9) and h1-a8 (step 7).
static DIAG9: [u64; 15] = diag_masks(false);
static DIAG7: [u64; 15] = diag_masks(true);

/// Squares lying on full lines, per direction: (horizontal, vertical, step-9, step-7).
#[inline]
fn full_lines(filled: u64) -> (u64, u64, u64, u64) {
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

/// Stable discs of the owner of `me` (the other discs being `other`).
#[inline]
pub fn stable(me: u64, other: u64) -> u64 {
    let (fh, fv, f9, f7) = full_lines(me | other);
    let h0 = fh | FILE_A | FILE_H;
    let v0 = fv | ROW_1 | ROW_8;
    let d90 = f9 | EDGE;
    let d70 = f7 | EDGE;
    let mut s = 0u64;
    loop {
        let h = h0 | ((s << 1) & !FILE_A) | ((s >> 1) & !FILE_H);
        let v = v0 | (s << 8) | (s >> 8);
        let d9 = d90 | ((s << 9) & !FILE_A) | ((s >> 9) & !FILE_H);
        let d7 = d70 | ((s << 7) & !FILE_H) | ((s >> 7) & !FILE_A);
        let n = me & h & v & d9 & d7;
        if n == s {
            return s;
        }
        s = n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::board::Board;

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
                let k = rng.gen_range(0..mv.count_ones());
                let mut m = mv;
                for _ in 0..k {
                    m &= m - 1;
                }
                let n = b.play(m.trailing_zeros() as usize).unwrap();
                // After the move `n.o` is the mover's discs.
                assert_eq!(n.o & sp, sp);
                assert_eq!(n.p & so, so);
                b = n;
            }
        }
    }
}
