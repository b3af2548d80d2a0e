//! The last `SHALLOW` plies: no table, no sorting, parity order, the last four empties
//! from a square list and the very last one counted, not searched.
use super::pvs::stability_threshold;
use super::Solver;
use crate::othello::bitboard::{flips, NEIGHBOUR};
use crate::othello::board::Board;
use crate::othello::lastflip::count_last_flip;
use crate::othello::stability::stable;

/// The four 4x4 quadrants, for parity ordering.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

impl Solver {
    twin!(shallow, shallow_body, shallow_fast, shallow_plain, (b: Board, alpha: i32, beta: i32, n: u32, passed: bool));
    twin!(solve_n, solve_n_body, solve_n_fast, solve_n_plain, (p: u64, o: u64, alpha: i32, beta: i32, sq: &[u8; 4], n: usize, passed: bool));

    /// Plain alpha-beta over 5..=`SHALLOW` empties: parity order, no move mask, squares
    /// without an adjacent opponent disc skipped before any flip computation.
    #[inline(always)]
    fn shallow_body<const F: bool>(
        &mut self,
        b: Board,
        mut alpha: i32,
        beta: i32,
        n: u32,
        passed: bool,
    ) -> i32 {
        if n <= 4 {
            return self.small::<F>(b, alpha, beta);
        }
        self.nodes += 1;
        if alpha >= stability_threshold(n) {
            let bound = 64 - 2 * stable(b.o, b.p).count_ones() as i32;
            if bound <= alpha {
                return bound;
            }
        }
        let empties = b.empties();
        let odd = odd_quadrants(empties);
        let mut best = -65;
        for set in [empties & odd, empties & !odd] {
            for class in SQUARE_CLASSES {
                let mut e = set & class;
                while e != 0 {
                    let sq = e.trailing_zeros() as usize;
                    e &= e - 1;
                    if NEIGHBOUR[sq] & b.o == 0 {
                        continue;
                    }
                    let f = flips(b.p, b.o, sq);
                    if f == 0 {
                        continue;
                    }
                    let v = -self.shallow::<F>(b.play_flips(sq, f), -beta, -alpha, n - 1, false);
                    if v > best {
                        best = v;
                        if v > alpha {
                            alpha = v;
                            if alpha >= beta {
                                return best;
                            }
                        }
                    }
                }
            }
        }
        if best == -65 {
            if passed {
                // Neither side can move: the game is over.
                return b.final_score();
            }
            return -self.shallow::<F>(b.pass(), -beta, -alpha, n, true);
        }
        best
    }

    /// Entry to the last four empties: lists them once, odd quadrants first, so the
    /// levels below work on a 4-square array instead of bitboard scans.
    #[inline(always)]
    pub(super) fn small<const F: bool>(&mut self, b: Board, alpha: i32, beta: i32) -> i32 {
        let empties = b.empties();
        let odd = odd_quadrants(empties);
        let mut sq = [0u8; 4];
        let mut k = 0;
        for set in [empties & odd, empties & !odd] {
            for class in SQUARE_CLASSES {
                let mut e = set & class;
                while e != 0 && k < 4 {
                    sq[k] = e.trailing_zeros() as u8;
                    e &= e - 1;
                    k += 1;
                }
            }
        }
        self.solve_n::<F>(b.p, b.o, alpha, beta, &sq, k, false)
    }

    /// Exact alpha-beta over the `n <= 4` squares of `sq` (in that order).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn solve_n_body<const F: bool>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        sq: &[u8; 4],
        n: usize,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        if n <= 1 {
            return if n == 1 {
                last_one(p, sq[0] as usize)
            } else {
                Board { p, o }.final_score()
            };
        }
        let mut best = -65;
        for i in 0..n {
            let x = sq[i] as usize;
            if NEIGHBOUR[x] & o == 0 {
                continue;
            }
            let f = flips(p, o, x);
            if f == 0 {
                continue;
            }
            let mut rest = [0u8; 4];
            let mut k = 0;
            for (j, &s) in sq[..n].iter().enumerate() {
                if j != i {
                    rest[k] = s;
                    k += 1;
                }
            }
            let v = -self.solve_n::<F>(
                o & !f,
                p | f | (1u64 << x),
                -beta,
                -alpha,
                &rest,
                n - 1,
                false,
            );
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        return best;
                    }
                }
            }
        }
        if best == -65 {
            if passed {
                return Board { p, o }.final_score();
            }
            return -self.solve_n::<F>(o, p, -beta, -alpha, sq, n, true);
        }
        best
    }
}

/// Squares grouped best-first for the unsorted last plies (Edax's presorted order):
/// corners; the inner ring; the A and B edge squares; the squares between edge and centre;
/// C squares; X squares and the four centre squares (always full by then).
const SQUARE_CLASSES: [u64; 6] = [
    0x8100_0000_0000_0081,
    0x0000_3c24_243c_0000,
    0x3c00_8181_8181_003c,
    0x003c_4242_4242_3c00,
    0x4281_0000_0000_8142,
    0x0042_0018_1800_4200,
];

/// Union of the quadrants holding an odd number of empties.
#[inline]
pub(super) fn odd_quadrants(empties: u64) -> u64 {
    let mut odd = 0u64;
    for q in QUADRANTS {
        if (empties & q).count_ones() & 1 == 1 {
            odd |= q;
        }
    }
    odd
}

/// Score with exactly one empty square `sq`, the side to move owning `p`: whoever can play
/// there does (side to move first), then the game is over. Flip counts come from
/// `count_last_flip`: the board is full, so no flip mask is needed.
#[inline(always)]
pub(super) fn last_one(p: u64, sq: usize) -> i32 {
    let pc = p.count_ones() as i32;
    let n = count_last_flip(p, sq) as i32;
    if n != 0 {
        return 2 * (pc + 1 + n) - 64;
    }
    let n = count_last_flip(!p & !(1u64 << sq), sq) as i32;
    if n != 0 {
        return 2 * (pc - n) - 64;
    }
    // Nobody can play: 63 discs on board, the empty goes to the winner.
    let d = 2 * pc - 63;
    if d > 0 {
        d + 1
    } else {
        d - 1
    }
}
