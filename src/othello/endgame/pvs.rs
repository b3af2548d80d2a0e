//! Sorted principal-variation search for positions with more than `SHALLOW` empties, with
//! the transposition table from `TABLE_EMPTIES` on.
use super::order::EVAL_ORDER_EMPTIES;
use super::order::{pick, Move};
use super::{Solver, CHECK_INTERVAL, ETC_EMPTIES, SHALLOW, TABLE_EMPTIES};
use crate::othello::bitboard::moves_f;
use crate::othello::board::Board;
use crate::othello::stability::stable;
use std::time::Instant;

impl Solver {
    per_isa!(search, search_body, search_wide, search_fast, search_plain, (b: Board, alpha: i32, beta: i32, n: u32));

    /// Principal-variation search for positions with more than `SHALLOW` empties, backed
    /// by the table from `TABLE_EMPTIES` on; delegates below `SHALLOW`.
    #[inline(always)]
    fn search_body<const I: u8>(&mut self, b: Board, mut alpha: i32, mut beta: i32, n: u32) -> i32 {
        if n <= SHALLOW {
            return self.shallow_entry::<I>(b, alpha, beta, n);
        }
        self.nodes += 1;
        // Compared with a threshold, not `nodes % k == 0`: this runs only at table nodes
        // while the last plies add to `nodes` too, so a modulo test would hit by chance
        // (about once per 40 M nodes, seconds late: two games were lost on time that way).
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_INTERVAL;
            if self.stop.is_stopped() || self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = true;
                self.stopped = true;
            }
        }
        // In a parallel solve: a cut-off at a split point above ends this work.
        if self.seat.cut_above() {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if let Some(bound) = stability_cut(b.p, b.o, alpha, n) {
            return bound;
        }
        let use_table = n >= TABLE_EMPTIES;
        let entry = if use_table {
            self.table.probe(&b)
        } else {
            None
        };
        let mut tt_move = None;
        if let Some(e) = entry {
            if e.empties as u32 == n || e.empties as u32 == n | self.sel_flag {
                let (lo, hi) = (e.lower as i32, e.upper as i32);
                if lo >= beta {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                if lo == hi {
                    return lo;
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
            }
            tt_move = Some(e.best);
        }
        let mv = moves_f::<I>(b.p, b.o);
        if mv == 0 {
            if moves_f::<I>(b.o, b.p) == 0 {
                return b.final_score();
            }
            return -self.search::<I>(b.pass(), -beta, -alpha, n);
        }
        let mut list = [Move::default(); 34];
        let count = self.order::<I>(&b, mv, &mut list, tt_move, n > TABLE_EMPTIES, !use_table);
        if n >= ETC_EMPTIES {
            // Enhanced transposition cut-off: a child whose stored upper bound already
            // refutes beta from our side settles this node without searching.
            for m in &list[..count] {
                let next = b.play_flips(m.sq as usize, m.flips);
                if let Some(e) = self.table.probe(&next) {
                    if (e.empties as u32 == n - 1 || e.empties as u32 == (n - 1) | self.sel_flag)
                        && -(e.upper as i32) >= beta
                    {
                        return -(e.upper as i32);
                    }
                }
            }
        }
        // The evaluation ordering is the costly part of a node: with a legal table move,
        // which usually cuts, it waits until that move has failed to.
        let eval_order = n >= EVAL_ORDER_EMPTIES;
        let tt_first = tt_move.is_some_and(|t| mv >> t & 1 != 0);
        if eval_order && !tt_first {
            self.order_by_eval::<I>(&b, &mut list[..count], alpha);
        }
        let orig_alpha = alpha;
        let mut best_score = -65;
        let mut best_sq = list[0].sq;
        for i in 0..count {
            if i == 1 {
                if eval_order && tt_first {
                    self.order_by_eval::<I>(&b, &mut list[1..count], alpha);
                }
                if self.seat.pool.is_some() && n >= self.split_min {
                    let selective = self.sel_flag != 0 && n >= self.sel_empties;
                    let end = if selective {
                        count.min(self.sel_moves)
                    } else {
                        count
                    };
                    if end > 1 {
                        for j in 1..end {
                            pick(&mut list, j, count);
                        }
                        if let Some((score, sq)) =
                            self.split::<I>(&b, &list, 1, end, alpha, beta, best_score, best_sq, n)
                        {
                            if self.aborted {
                                return 0;
                            }
                            best_score = score;
                            best_sq = sq;
                            break;
                        }
                    }
                }
            }
            // The selective pre-search (see `Solver::solve`) stops after the first moves.
            if i >= self.sel_moves && self.sel_flag != 0 && n >= self.sel_empties {
                break;
            }
            pick(&mut list, i, count);
            let m = list[i];
            let next = b.play_flips(m.sq as usize, m.flips);
            let mut v;
            if i == 0 {
                v = -self.search::<I>(next, -beta, -alpha, n - 1);
            } else {
                v = -self.search::<I>(next, -alpha - 1, -alpha, n - 1);
                if v > alpha && v < beta {
                    v = -self.search::<I>(next, -beta, -v, n - 1);
                }
            }
            if self.aborted {
                return 0;
            }
            if v > best_score {
                best_score = v;
                best_sq = m.sq;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let (lo, hi) = if best_score >= beta {
            (best_score, 64)
        } else if best_score > orig_alpha {
            (best_score, best_score)
        } else {
            (-64, best_score)
        };
        if use_table {
            let mark = if n >= self.sel_empties {
                self.sel_flag
            } else {
                0
            };
            self.table.store(&b, lo, hi, best_sq, n | mark);
        }
        best_score
    }
}

/// The stability cut-off at a node with `n` empties: when the opponent (`o`) already owns
/// so many discs it can never lose that the side to move (`p`) cannot beat `alpha`, that
/// bound. Tried only from `stability_threshold(n)`.
#[inline(always)]
pub(super) fn stability_cut(p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
    if alpha < stability_threshold(n) {
        return None;
    }
    let bound = 64 - 2 * stable(o, p).count_ones() as i32;
    (bound <= alpha).then_some(bound)
}

/// Below this alpha the opponent cannot own enough stable discs to cut at `n` empties, so
/// computing them is wasted (Edax's NWS_STABILITY_THRESHOLD, which starts at 4 empties).
/// The 3- and 4-empty rows cut FFO #40-#49 from 1,114 M to 894 M nodes
/// (docs/experiments/othello.md).
#[inline]
fn stability_threshold(n: u32) -> i32 {
    const T: [i32; 24] = [
        99, 99, 99, 6, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46,
    ];
    T.get(n as usize).copied().unwrap_or(48)
}
