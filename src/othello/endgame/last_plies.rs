//! The last `SHALLOW` plies: no table, no sorting, parity order, the last four empties
//! from a square list and the very last one counted, not searched.
//!
//! The empties travel down as a list of bytes in a `u64` in the presorted square order,
//! with the quadrants' parity as four bits flipped by each move (Edax keeps a linked list
//! and a parity word): each node then walks its `n` squares twice (odd quadrants, then
//! even) instead of scanning twelve class-and-parity masks and counting the quadrants
//! again. Same nodes in the same order, about 4% less time (docs/experiments/othello.md).
use super::pvs::stability_cut;
use super::Solver;
use crate::othello::bitboard::{flips_f, NEIGHBOUR};
use crate::othello::board::Board;
use crate::othello::lastflip::count_last_flip;

/// The four 4x4 quadrants, for parity ordering.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

impl Solver {
    per_isa!(shallow, shallow_body, shallow_wide, shallow_fast, shallow_plain, (b: Board, alpha: i32, beta: i32, n: u32, list: u64, parity: u32, passed: bool));
    per_isa!(solve_4, solve_4_body, solve_4_wide, solve_4_fast, solve_4_plain, (p: u64, o: u64, alpha: i32, beta: i32, sq: [u8; 4], passed: bool));
    per_isa!(solve_3, solve_3_body, solve_3_wide, solve_3_fast, solve_3_plain, (p: u64, o: u64, alpha: i32, beta: i32, sq: [u8; 3], passed: bool));
    per_isa!(solve_2, solve_2_body, solve_2_wide, solve_2_fast, solve_2_plain, (p: u64, o: u64, alpha: i32, beta: i32, x: u8, y: u8, passed: bool));

    /// Entry to the last `SHALLOW` plies from a position with `n` empties: lists them once
    /// (`presorted`) with their quadrants' parity, so the levels below neither scan square
    /// classes nor count quadrants again.
    #[inline(always)]
    pub(super) fn shallow_entry<const I: u8>(
        &mut self,
        b: Board,
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> i32 {
        let empties = b.empties();
        self.shallow::<I>(
            b,
            alpha,
            beta,
            n,
            presorted(empties),
            parity_bits(empties),
            false,
        )
    }

    /// Plain alpha-beta over 5..=`SHALLOW` empties: parity order, no move mask, squares
    /// without an adjacent opponent disc skipped before any flip computation. `list` holds
    /// the `n` empty squares a byte each in `SQUARE_CLASSES` order; `parity` has bit `q` set
    /// when quadrant `q` holds an odd number of them.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn shallow_body<const I: u8>(
        &mut self,
        b: Board,
        mut alpha: i32,
        beta: i32,
        n: u32,
        list: u64,
        parity: u32,
        passed: bool,
    ) -> i32 {
        if n <= 4 {
            return self.small::<I>(b, alpha, beta, n, list, parity);
        }
        self.nodes += 1;
        if let Some(bound) = stability_cut(b.p, b.o, alpha, n) {
            return bound;
        }
        let mut best = -65;
        for odd in [true, false] {
            for i in 0..n {
                let sq = (list >> (8 * i)) as u8 as usize;
                let q = QUADRANT_BIT[sq];
                if (parity & q != 0) != odd || NEIGHBOUR[sq] & b.o == 0 {
                    continue;
                }
                let f = flips_f::<I>(b.p, b.o, sq);
                if f == 0 {
                    continue;
                }
                let child = without(list, i);
                let next = b.play_flips(sq, f);
                let v = -self.shallow::<I>(next, -beta, -alpha, n - 1, child, parity ^ q, false);
                if raise(v, &mut best, &mut alpha, beta) {
                    return best;
                }
            }
        }
        if best == -65 {
            if passed {
                // Neither side can move: the game is over.
                return b.final_score();
            }
            return -self.shallow::<I>(b.pass(), -beta, -alpha, n, list, parity, true);
        }
        best
    }

    /// Entry to the last four empties: puts the squares of `list` in odd-quadrant-first
    /// order, so the levels below work on named squares instead of bitboard scans.
    #[inline(always)]
    fn small<const I: u8>(
        &mut self,
        b: Board,
        alpha: i32,
        beta: i32,
        n: u32,
        list: u64,
        parity: u32,
    ) -> i32 {
        let mut sq = [0u8; 4];
        let mut k = 0;
        for odd in [true, false] {
            for i in 0..n {
                let s = (list >> (8 * i)) as u8;
                if (parity & QUADRANT_BIT[s as usize] != 0) == odd {
                    sq[k] = s;
                    k += 1;
                }
            }
        }
        let (p, o) = (b.p, b.o);
        match n {
            4 => self.solve_4::<I>(p, o, alpha, beta, sq, false),
            3 => self.solve_3::<I>(p, o, alpha, beta, [sq[0], sq[1], sq[2]], false),
            2 => self.solve_2::<I>(p, o, alpha, beta, sq[0], sq[1], false),
            1 => {
                self.nodes += 1;
                last_one(p, sq[0] as usize)
            }
            _ => {
                self.nodes += 1;
                b.final_score()
            }
        }
    }

    /// Exact alpha-beta over the four squares of `sq` (in that order). The 4-, 3- and
    /// 2-empty levels are written out: no square lists rebuilt per move, no call for the
    /// last square (a generic `n`-square version was 8-16% slower on FFO #45).
    #[inline(always)]
    fn solve_4_body<const I: u8>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        sq: [u8; 4],
        passed: bool,
    ) -> i32 {
        const REST: [[usize; 3]; 4] = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];
        self.nodes += 1;
        if let Some(bound) = stability_cut(p, o, alpha, 4) {
            return bound;
        }
        let mut best = -65;
        for (i, rest) in REST.iter().enumerate() {
            let x = sq[i] as usize;
            if NEIGHBOUR[x] & o == 0 {
                continue;
            }
            let f = flips_f::<I>(p, o, x);
            if f == 0 {
                continue;
            }
            let three = [sq[rest[0]], sq[rest[1]], sq[rest[2]]];
            let v = -self.solve_3::<I>(o & !f, p | f | (1u64 << x), -beta, -alpha, three, false);
            if raise(v, &mut best, &mut alpha, beta) {
                return best;
            }
        }
        if best == -65 {
            if passed {
                return Board { p, o }.final_score();
            }
            return -self.solve_4::<I>(o, p, -beta, -alpha, sq, true);
        }
        best
    }

    /// As `solve_4_body`, three squares.
    #[inline(always)]
    fn solve_3_body<const I: u8>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        sq: [u8; 3],
        passed: bool,
    ) -> i32 {
        const REST: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];
        self.nodes += 1;
        if let Some(bound) = stability_cut(p, o, alpha, 3) {
            return bound;
        }
        let mut best = -65;
        for (i, rest) in REST.iter().enumerate() {
            let x = sq[i] as usize;
            if NEIGHBOUR[x] & o == 0 {
                continue;
            }
            let f = flips_f::<I>(p, o, x);
            if f == 0 {
                continue;
            }
            let (a, b) = (sq[rest[0]], sq[rest[1]]);
            let v = -self.solve_2::<I>(o & !f, p | f | (1u64 << x), -beta, -alpha, a, b, false);
            if raise(v, &mut best, &mut alpha, beta) {
                return best;
            }
        }
        if best == -65 {
            if passed {
                return Board { p, o }.final_score();
            }
            return -self.solve_3::<I>(o, p, -beta, -alpha, sq, true);
        }
        best
    }

    /// Two empties `x` and `y`: each move leaves one square, counted by `last_one`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn solve_2_body<const I: u8>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        x: u8,
        y: u8,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -65;
        for (a, b) in [(x as usize, y as usize), (y as usize, x as usize)] {
            if NEIGHBOUR[a] & o == 0 {
                continue;
            }
            let f = flips_f::<I>(p, o, a);
            if f == 0 {
                continue;
            }
            // The position after the move counts as a node, as a searched one would.
            self.nodes += 1;
            let v = -last_one(o & !f, b);
            if raise(v, &mut best, &mut alpha, beta) {
                return best;
            }
        }
        if best == -65 {
            if passed {
                return Board { p, o }.final_score();
            }
            return -self.solve_2::<I>(o, p, -beta, -alpha, x, y, true);
        }
        best
    }
}

/// The negamax step after a child's score `v`: raises `best` and `alpha`; true on a
/// beta cut-off.
#[inline(always)]
fn raise(v: i32, best: &mut i32, alpha: &mut i32, beta: i32) -> bool {
    if v > *best {
        *best = v;
        if v > *alpha {
            *alpha = v;
            return *alpha >= beta;
        }
    }
    false
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
    let bits = parity_bits(empties);
    let mut odd = 0u64;
    for (q, mask) in QUADRANTS.iter().enumerate() {
        if bits >> q & 1 != 0 {
            odd |= mask;
        }
    }
    odd
}

/// The empty squares, at most eight, a byte each from the lowest: `SQUARE_CLASSES` in
/// order, ascending within a class (the order the bitboard scans used).
#[inline(always)]
fn presorted(empties: u64) -> u64 {
    let mut list = 0u64;
    let mut k = 0;
    for class in SQUARE_CLASSES {
        let mut e = empties & class;
        while e != 0 && k < 8 {
            list |= (e.trailing_zeros() as u64) << (8 * k);
            e &= e - 1;
            k += 1;
        }
    }
    list
}

/// `list` without its byte `i`.
#[inline(always)]
fn without(list: u64, i: u32) -> u64 {
    let below = (1u64 << (8 * i)) - 1;
    (list & below) | ((list >> 8) & !below)
}

/// Bit `q` set when quadrant `q` (`QUADRANTS`) holds an odd number of empties.
#[inline(always)]
fn parity_bits(empties: u64) -> u32 {
    let mut bits = 0;
    for (q, mask) in QUADRANTS.iter().enumerate() {
        bits |= ((empties & mask).count_ones() & 1) << q;
    }
    bits
}

/// `QUADRANT_BIT[sq]`: the bit of the quadrant holding `sq` in `parity_bits`.
static QUADRANT_BIT: [u32; 64] = {
    let mut t = [0u32; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut q = 0;
        while q < 4 {
            if QUADRANTS[q] >> sq & 1 != 0 {
                t[sq] = 1 << q;
            }
            q += 1;
        }
        sq += 1;
    }
    t
};

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
