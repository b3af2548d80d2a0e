//! Exact endgame solver: final disc difference with perfect play.
//!
//! Layers, by number of empty squares:
//! - `EVAL_ORDER_EMPTIES` (14) or more: as below, the moves after the table move also
//!   ordered by a shallow search with the evaluation.
//! - `TABLE_EMPTIES` (9) or more: principal-variation search with a transposition table,
//!   the table move first, then fastest-first (fewest opponent replies, opponent corner
//!   replies counted double) with a parity bonus; stability cut-off when alpha is high;
//!   enhanced transposition cut-offs from `ETC_EMPTIES` (10) up.
//! - more than `SHALLOW` (8 empties): the same search without the table, sorted by
//!   mobility and parity only.
//! - `SHALLOW` (7) or fewer: no table, no sorting; empties are tried odd-parity quadrants first
//!   (the player who gets the last move of a region usually gains), flips computed directly
//!   without generating a move mask; the stability cut-off down to 3 empties.
//! - one empty: counted, not searched.
//!
//! Scores are disc differences for the side to move, empties to the winner.
//!
//! Files: `table` (the transposition table), `order` (move ordering), `pvs` (the
//! sorted search), `last_plies` (the last `SHALLOW` plies), `estimate` (the
//! evaluation searches behind the root guess and the ordering high in the tree),
//! `parallel` (the solver's side of the threads' split, `crate::search::ybwc`); this file
//! holds the root driver.
//!
//! The thresholds between the layers, the ordering and the cut-offs were tuned on FFO
//! #40-#59 by node counts (the time of one binary spreads by 10% between runs on a shared
//! host); the measurements and the variants tried and dropped are in
//! docs/experiments/othello.md.
use super::bitboard::moves;
use super::board::Board;
use super::isa;
use crate::search::ybwc::{Finish, Seat};
use crate::search::StopToken;
use std::sync::Arc;
use std::time::Instant;

/// At this many empties or fewer, sorting costs more than it saves (6 was no faster and
/// 8 was 5% slower on FFO #40-#49: docs/experiments/othello.md).
const SHALLOW: u32 = 7;
/// Fewest empties at which the table is probed and stored: at 8 empties its
/// transpositions hardly pay for the memory traffic once the moves are sorted anyway
/// (measured from 7 to 10: docs/experiments/othello.md).
const TABLE_EMPTIES: u32 = 9;
/// Nodes between two looks at the stop flag and the clock (about 3 ms).
const CHECK_INTERVAL: u64 = 1 << 16;
/// Enhanced transposition cut-offs pay for their probes only high in the tree (10 beat
/// 8, 12 and 16 on FFO #41-#47 by 2-7% in nodes).
const ETC_EMPTIES: u32 = 10;

/// Makes the recursive solver function `$body::<I>` callable as `$name::<I>`, compiled
/// once per instruction level `I` (`isa`): `$wide` with AVX-512 (flips by a vector
/// leading-zero count), `$fast` with popcnt/lzcnt/BMI/AVX2 (a popcount is one instruction
/// instead of a dozen, and move generation and flips run four directions per AVX2
/// instruction: `bitboard::moves_f`/`flips_f`), `$plain` for any x86-64. `I` is a
/// constant, so each copy only ever recurses into itself. The default build targets
/// baseline x86-64, hence the run-time choice (`Solver::isa`).
macro_rules! per_isa {
    ($name:ident, $body:ident, $wide:ident, $fast:ident, $plain:ident, ($($arg:ident: $ty:ty),*)) => {
        #[inline(always)]
        #[allow(clippy::too_many_arguments)]
        pub(super) fn $name<const I: u8>(&mut self, $($arg: $ty),*) -> i32 {
            if I >= crate::othello::isa::AVX512 {
                // SAFETY: `I` is AVX512 only when `isa::detect()` found the features.
                unsafe { self.$wide($($arg),*) }
            } else if I >= crate::othello::isa::AVX2 {
                // SAFETY: `I` is at least AVX2 only when `isa::detect()` found the features.
                unsafe { self.$fast($($arg),*) }
            } else {
                self.$plain($($arg),*)
            }
        }

        #[cfg_attr(
            target_arch = "x86_64",
            target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2,avx512f,avx512vl,avx512cd")
        )]
        #[allow(clippy::too_many_arguments)]
        unsafe fn $wide(&mut self, $($arg: $ty),*) -> i32 {
            self.$body::<{ crate::othello::isa::AVX512 }>($($arg),*)
        }

        #[cfg_attr(target_arch = "x86_64", target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2"))]
        #[allow(clippy::too_many_arguments)]
        unsafe fn $fast(&mut self, $($arg: $ty),*) -> i32 {
            self.$body::<{ crate::othello::isa::AVX2 }>($($arg),*)
        }

        #[allow(clippy::too_many_arguments)]
        fn $plain(&mut self, $($arg: $ty),*) -> i32 {
            self.$body::<{ crate::othello::isa::PLAIN }>($($arg),*)
        }
    };
}

mod estimate;
mod last_plies;
mod order;
mod parallel;
mod pvs;
mod table;
#[cfg(test)]
mod tests;

use estimate::guess;
use order::{pick, Move};
pub use table::EndTable;

pub struct Solver {
    /// Shared with the helper threads of a parallel solve.
    pub table: Arc<EndTable>,
    pub nodes: u64,
    stop: StopToken,
    deadline: Option<Instant>,
    /// Root by MTD(f) probes (default) or one full-window PVS.
    pub mtd: bool,
    aborted: bool,
    /// Node count at which the stop flag and the clock are read next.
    next_check: u64,
    /// Instruction level of the copy of the search that runs (`isa`, `per_isa!`).
    isa: u8,
    /// Positions visited by the evaluation searches (root guess, move ordering); not in
    /// `nodes`, which counts exact-search positions only.
    pub sort_nodes: u64,
    /// The mark of the running selective pass (`SELECTIVE_MARKS`), else 0 (see `solve`).
    sel_flag: u32,
    /// Moves looked at, and fewest empties where the cut applies, in the running
    /// selective pass.
    sel_moves: usize,
    sel_empties: u32,
    /// The selective passes, (moves, empties) each (fields rather than constants so that
    /// the tests can bring the selective search down to sizes minimax can check).
    sel_passes: &'static [(usize, u32)],
    /// Roots with at least this many empties get the selective pre-search.
    sel_root: u32,
    /// Search threads of one solve (`set_threads`).
    threads: usize,
    /// Fewest empties at which a node's moves are shared between threads
    /// (`parallel`; a field so that the tests can split small positions).
    split_min: u32,
    /// This thread's place among the threads of a parallel solve.
    seat: Seat<parallel::Node>,
    /// The stop flag or the deadline ended the search (a cut-off at a split point also
    /// sets `aborted`, but only for the work below it).
    stopped: bool,
}

/// Fewest empties at which a parallel solve shares a node's moves between threads:
/// smaller subtrees take less time than handing them over.
const SPLIT_MIN: u32 = 12;

/// Or-ed into the empties of the table entries a selective pass stores at and above its
/// `sel_empties`, one mark per pass: later passes and the exact search take their moves
/// but never their bounds (probes compare the empties with the mark exactly), and slot
/// choice masks the marks off (`table::EMPTIES_MASK`).
const SELECTIVE_MARKS: [u32; 3] = [0x80, 0x40, 0xc0];
/// The selective passes, (moves, empties): each looks at only that many moves (in the
/// usual order) at nodes with that many empties or more, and leaves its best moves in the
/// table for the next (Edax's rising selectivity, crudely). These three passes searched
/// the fewest nodes of the sets tried (docs/experiments/othello.md).
const SELECTIVE_PASSES: &[(usize, u32)] = &[(2, 12), (3, 12), (3, 15)];
/// Smaller roots solve in a fraction of a second; the pre-search pays on the long ones.
const SELECTIVE_ROOT: u32 = 20;

/// Result of a root solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    pub score: i32,
    /// Best move, `None` when the side to move must pass or the game is over.
    pub best: Option<usize>,
}

impl Solver {
    pub fn new(hash_mb: usize) -> Solver {
        Solver::new_sharing(Arc::new(EndTable::new(hash_mb)))
    }

    fn new_sharing(table: Arc<EndTable>) -> Solver {
        Solver {
            table,
            nodes: 0,
            stop: StopToken::new(),
            deadline: None,
            mtd: true,
            aborted: false,
            next_check: 0,
            isa: isa::detect(),
            sort_nodes: 0,
            sel_flag: 0,
            sel_moves: 0,
            sel_empties: 0,
            sel_passes: SELECTIVE_PASSES,
            sel_root: SELECTIVE_ROOT,
            threads: 1,
            split_min: SPLIT_MIN,
            seat: Seat::ALONE,
            stopped: false,
        }
    }

    /// Search threads of each solve: this one and `threads - 1` helpers. Any count gives
    /// the same scores; the moves chosen and the nodes visited may differ from run to run.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Shares a stop flag and a hard deadline; when either trips, the current solve returns
    /// early and `was_aborted()` says its result is meaningless. Both are checked every
    /// `CHECK_INTERVAL` nodes (a clock read is ~25 ns; at that interval it costs nothing).
    pub fn set_limits(&mut self, stop: StopToken, deadline: Option<Instant>) {
        self.stop = stop;
        self.deadline = deadline;
    }

    /// Runs the copy of instruction level `level` (`isa`), at most what the CPU has:
    /// for comparing the copies (`quartet bench othello ffo --isa`).
    pub fn set_isa(&mut self, level: u8) {
        self.isa = level.min(isa::detect());
    }

    pub fn isa(&self) -> u8 {
        self.isa
    }

    pub fn was_aborted(&self) -> bool {
        self.aborted
    }

    /// Solves `b` exactly within (alpha, beta); a fail-low/high result is a bound.
    pub fn solve_window(&mut self, b: &Board, alpha: i32, beta: i32) -> Solved {
        self.aborted = false;
        self.stopped = false;
        self.next_check = self.nodes + CHECK_INTERVAL;
        let n = b.empties().count_ones();
        let mv = b.moves();
        if mv == 0 {
            let score = if moves(b.o, b.p) == 0 {
                b.final_score()
            } else {
                -self.search_any(b.pass(), -beta, -alpha, n)
            };
            return Solved { score, best: None };
        }
        let mut list = [Move::default(); 34];
        let count = self.order::<{ isa::PLAIN }>(
            b,
            mv,
            &mut list,
            self.table.probe(b).map(|e| e.best),
            false,
            false,
        );
        let mut best = list[0].sq as usize;
        let mut a = alpha;
        let mut best_score = -65;
        for i in 0..count {
            if i == 1 && self.seat.pool.is_some() && n >= self.split_min {
                for j in 1..count {
                    pick(&mut list, j, count);
                }
                let r = match self.isa {
                    isa::AVX512 => self.split::<{ isa::AVX512 }>(
                        b, &list, 1, count, a, beta, best_score, best as u8, n,
                    ),
                    isa::AVX2 => self.split::<{ isa::AVX2 }>(
                        b, &list, 1, count, a, beta, best_score, best as u8, n,
                    ),
                    _ => self.split::<{ isa::PLAIN }>(
                        b, &list, 1, count, a, beta, best_score, best as u8, n,
                    ),
                };
                if let Some((score, sq)) = r {
                    best_score = score;
                    best = sq as usize;
                    break;
                }
            }
            pick(&mut list, i, count);
            let m = list[i];
            let next = b.play_flips(m.sq as usize, m.flips);
            let mut v;
            if i == 0 {
                v = -self.search_any(next, -beta, -a, n - 1);
            } else {
                v = -self.search_any(next, -a - 1, -a, n - 1);
                if v > a && v < beta {
                    v = -self.search_any(next, -beta, -v, n - 1);
                }
            }
            if self.aborted {
                break;
            }
            if v > best_score {
                best_score = v;
                best = m.sq as usize;
                if v > a {
                    a = v;
                }
                if a >= beta {
                    break;
                }
            }
        }
        Solved {
            score: best_score,
            best: Some(best),
        }
    }

    /// Exact score and a best move.
    ///
    /// MTD(f): a sequence of null-window probes converging from a midgame guess. Scores are
    /// always even (64 squares, empties to the winner), so each probe "score >= g" moves a
    /// bound by at least 2, and the table makes every re-probe cheap. On FFO #41-#44 this
    /// visited 16% fewer nodes than one full-window PVS (363.5 M instead of 433.6 M).
    ///
    /// From `SELECTIVE_ROOT` empties selective MTD(f) passes run first (Edax's selective
    /// levels, crudely): the same search, but looking at only the first few moves where
    /// many squares are empty (`SELECTIVE_PASSES`). One pass cost 3-4% of the
    /// nodes, guesses the score better than the evaluation (each 2 discs of error is one
    /// more probe) and leaves a best move in the table at every node it saw, so the whole
    /// solve visits fewer nodes (docs/experiments/othello.md). Its nodes count in
    /// `nodes`: they are positions this search visits.
    pub fn solve(&mut self, b: &Board) -> Solved {
        if self.threads <= 1
            || self.seat.pool.is_some()
            || b.empties().count_ones() < self.split_min
        {
            return self.solve_alone(b);
        }
        let pool = Arc::new(parallel::Pool::new(self.threads));
        let helpers: Vec<Solver> = (1..self.threads)
            .map(|id| self.helper(id, pool.clone()))
            .collect();
        self.seat = Seat::in_pool(0, pool.clone());
        let r = std::thread::scope(|s| {
            let joins: Vec<_> = helpers
                .into_iter()
                .map(|mut h| {
                    s.spawn(move || {
                        h.serve();
                        (h.nodes, h.sort_nodes)
                    })
                })
                .collect();
            let finish = Finish(&pool);
            let r = self.solve_alone(b);
            drop(finish);
            for j in joins {
                let (nodes, sort_nodes) = j.join().expect("solver helper panicked");
                self.nodes += nodes;
                self.sort_nodes += sort_nodes;
            }
            r
        });
        self.seat = Seat::ALONE;
        r
    }

    /// `solve` in this thread, with the helpers of `pool` if there are.
    fn solve_alone(&mut self, b: &Board) -> Solved {
        if !self.mtd {
            return self.solve_window(b, -64, 64);
        }
        let mut g = guess(b, &mut self.sort_nodes, self.isa);
        if b.empties().count_ones() >= self.sel_root {
            for (&(moves, empties), mark) in self.sel_passes.iter().zip(SELECTIVE_MARKS) {
                self.sel_flag = mark;
                self.sel_moves = moves;
                self.sel_empties = empties;
                let r = self.mtd(b, g);
                self.sel_flag = 0;
                if self.aborted {
                    return r;
                }
                g = r.score;
            }
        }
        self.mtd(b, g)
    }

    /// MTD(f) from the guess `g`.
    fn mtd(&mut self, b: &Board, mut g: i32) -> Solved {
        let (mut lo, mut hi) = (-64, 64);
        let mut best = None;
        loop {
            let r = self.solve_window(b, g - 1, g);
            if self.aborted {
                return r;
            }
            if r.score >= g {
                lo = r.score;
                best = r.best;
            } else {
                hi = r.score;
            }
            if lo >= hi {
                break;
            }
            g = if r.score >= g {
                (lo + 2).min(hi)
            } else {
                hi.max(lo + 2)
            };
        }
        Solved { score: lo, best }
    }

    /// Root-level entry: picks the compiled copy of the search for this CPU.
    fn search_any(&mut self, b: Board, alpha: i32, beta: i32, n: u32) -> i32 {
        match self.isa {
            isa::AVX512 => self.search::<{ isa::AVX512 }>(b, alpha, beta, n),
            isa::AVX2 => self.search::<{ isa::AVX2 }>(b, alpha, beta, n),
            _ => self.search::<{ isa::PLAIN }>(b, alpha, beta, n),
        }
    }
}
