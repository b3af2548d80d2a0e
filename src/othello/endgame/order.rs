//! Move ordering for the table-backed levels of the solver: fastest-first with stability
//! and parity tie-breaks, the table move first.
use super::estimate::{eval_search, weights};
use super::last_plies::odd_quadrants;
use super::Solver;
use crate::othello::bitboard::{flips_f, moves_f, neighbours, CORNERS};
use crate::othello::board::Board;

/// From this many empties on, moves are also ordered by a shallow evaluation search, one
/// ply below `DEEP_SORT_EMPTIES` (as Edax starts its eval sort at 14 empties with depth
/// 0-1): the fastest of the starts and depths tried on FFO #40-#49
/// (docs/experiments/othello.md).
pub(super) const EVAL_ORDER_EMPTIES: u32 = 14;
/// From this many empties the ordering search goes `(n - 7) / 3` plies deep (Edax's rule
/// shifted by two plies: measured best at 17 and more empties).
const DEEP_SORT_EMPTIES: u32 = 18;
/// Moves more than this many discs below alpha are not told apart by the ordering search.
const SORT_WINDOW: i32 = 8;
/// Ordering score per centi-disc of evaluation: one disc weighs as much as one opponent
/// move of mobility (`1 << 15`). Measured: a third or three times this order worse.
const EVAL_WEIGHT: i32 = 328;

/// Move + flips + ordering score, kept on the stack.
#[derive(Clone, Copy, Default)]
pub(super) struct Move {
    pub(super) sq: u8,
    pub(super) score: i32,
    pub(super) flips: u64,
}

impl Solver {
    /// Fills `list` with the legal moves and their ordering scores; returns the count.
    /// With `prefetch`, starts loading the children's table buckets (probed soon after by
    /// the enhanced transposition cut-off or the children themselves). With `lite`, only
    /// mobility and parity: below the table the tie-breaks cost more than they save.
    #[inline(always)]
    pub(super) fn order<const I: u8>(
        &self,
        b: &Board,
        mut mv: u64,
        list: &mut [Move; 34],
        tt: Option<u8>,
        prefetch: bool,
        lite: bool,
    ) -> usize {
        let odd = odd_quadrants(b.empties());
        let mut count = 0;
        while mv != 0 {
            let sq = mv.trailing_zeros() as usize;
            mv &= mv - 1;
            let f = flips_f::<I>(b.p, b.o, sq);
            let next = b.play_flips(sq, f);
            if prefetch {
                self.table.prefetch(&next);
            }
            let reply = moves_f::<I>(next.p, next.o);
            // Edax-style fastest-first: opponent mobility (corners double) dominates, then
            // our corner-anchored discs, then opponent potential mobility, then parity.
            let mob = (reply.count_ones() + (reply & CORNERS).count_ones()) as i32;
            let mut score = (36 - mob) << 15;
            if !lite {
                score += (corner_stability(next.o) as i32) << 11;
                let frontier = neighbours(next.o) & next.empties();
                score += (36 - frontier.count_ones() as i32) << 6;
            }
            if odd >> sq & 1 != 0 {
                score += 1 << 5;
            }
            if tt == Some(sq as u8) {
                score = i32::MAX;
            }
            list[count] = Move {
                sq: sq as u8,
                score,
                flips: f,
            };
            count += 1;
        }
        count
    }

    /// Adds a shallow evaluation search of each move to its ordering score (positions with
    /// `EVAL_ORDER_EMPTIES` or more empties). Fastest-first alone sends the search down
    /// many refutations that a 2-5 ply look with the evaluation rejects: on FFO #41-#47
    /// this cut the exact-search nodes from 2.74 G to 0.69 G.
    ///
    /// The search runs to depth 1, or `(n - 7) / 3` from `DEEP_SORT_EMPTIES`, in a window that only separates moves within `SORT_WINDOW` discs below
    /// `alpha`: worse ones are all losing and their order hardly matters.
    pub(super) fn order_by_eval<const I: u8>(&mut self, b: &Board, list: &mut [Move], alpha: i32) {
        let n = b.empties().count_ones();
        let depth = if n < DEEP_SORT_EMPTIES {
            1
        } else {
            (n - 7) / 3
        };
        let beta = -(alpha - SORT_WINDOW).max(-64) * 100;
        let w = weights();
        for m in list.iter_mut() {
            let next = b.play_flips(m.sq as usize, m.flips);
            let e = eval_search::<I>(w, &next, depth, -100_000, beta, &mut self.sort_nodes);
            m.score -= e * EVAL_WEIGHT;
        }
    }
}

/// Our discs on corners and the squares directly beside owned corners: cheap, certainly
/// stable.
#[inline]
fn corner_stability(p: u64) -> u32 {
    let s = (((0x0100_0000_0000_0001 & p) << 1)
        | ((0x8000_0000_0000_0080 & p) >> 1)
        | ((0x0000_0000_0000_0081 & p) << 8)
        | ((0x8100_0000_0000_0000 & p) >> 8)
        | CORNERS)
        & p;
    s.count_ones()
}

/// Selection step: moves the best-scored remaining move to position `i`.
#[inline]
pub(super) fn pick(list: &mut [Move; 34], i: usize, count: usize) {
    let mut best = i;
    for j in i + 1..count {
        if list[j].score > list[best].score {
            best = j;
        }
    }
    list.swap(i, best);
}
