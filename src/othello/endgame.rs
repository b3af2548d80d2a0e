//! Exact endgame solver: final disc difference with perfect play.
//!
//! Layers, by number of empty squares:
//! - more than `SHALLOW`: principal-variation search with a transposition table, the table
//!   move first, then fastest-first (fewest opponent replies, opponent corner replies
//!   counted double) with a parity bonus; stability cut-off when alpha is high.
//! - `SHALLOW` or fewer: no table, no sorting; empties are tried odd-parity quadrants first
//!   (the player who gets the last move of a region usually gains), flips computed directly
//!   without generating a move mask.
//! - one empty: counted, not searched.
//!
//! Scores are disc differences for the side to move, empties to the winner.
use super::bitboard::{flips, moves, CORNERS, NEIGHBOUR};
use super::board::Board;
use super::lastflip::count_last_flip;
use super::stability::stable;
use crate::search::StopToken;
use std::time::Instant;

/// Below this many empties the table and sorting cost more than they save.
const SHALLOW: u32 = 7;
/// Nodes between two looks at the stop flag and the clock (about 3 ms).
const CHECK_INTERVAL: u64 = 1 << 16;
/// Enhanced transposition cut-offs pay for their probes only high in the tree.
const ETC_EMPTIES: u32 = 12;

/// The four 4x4 quadrants, for parity ordering.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

#[derive(Clone, Copy, Default)]
struct Entry {
    p: u64,
    o: u64,
    lower: i8,
    upper: i8,
    best: u8,
    empties: u8,
}

/// A two-slot-per-bucket table keyed by the exact disc pair: slot 0 keeps the deepest
/// entry, slot 1 always takes the newest.
pub struct EndTable {
    slots: Vec<[Entry; 2]>,
    mask: usize,
}

impl EndTable {
    pub fn new(mb: usize) -> EndTable {
        let bytes = mb.max(1) << 20;
        let n = (bytes / std::mem::size_of::<[Entry; 2]>())
            .next_power_of_two()
            .max(2)
            / 2;
        EndTable {
            slots: vec![[Entry::default(); 2]; n],
            mask: n - 1,
        }
    }

    pub fn clear(&mut self) {
        self.slots.fill([Entry::default(); 2]);
    }

    #[inline]
    fn probe(&self, b: &Board) -> Option<Entry> {
        let bucket = &self.slots[b.hash() as usize & self.mask];
        bucket
            .iter()
            .find(|e| e.p == b.p && e.o == b.o && (e.p | e.o) != 0)
            .copied()
    }

    #[inline]
    fn store(&mut self, b: &Board, lower: i32, upper: i32, best: u8, empties: u32) {
        let bucket = &mut self.slots[b.hash() as usize & self.mask];
        let e = Entry {
            p: b.p,
            o: b.o,
            lower: lower as i8,
            upper: upper as i8,
            best,
            empties: empties as u8,
        };
        if (bucket[0].p == b.p && bucket[0].o == b.o) || bucket[0].empties as u32 <= empties {
            bucket[0] = e;
        } else {
            bucket[1] = e;
        }
    }
}

/// Move + flips + ordering score, kept on the stack.
#[derive(Clone, Copy, Default)]
struct Move {
    sq: u8,
    score: i32,
    flips: u64,
}

/// Makes the recursive solver function `$body::<F>` callable as `$name::<F>`, compiled
/// twice: `$fast` with the popcnt/lzcnt/bmi1 instructions (a popcount is one instruction
/// instead of a dozen, and the solver counts discs at every leaf: about 20% of its time),
/// `$plain` for any x86-64. `F` is a constant, so each copy only ever recurses into itself.
/// The default build targets baseline x86-64, hence the run-time choice (`Solver::fast`).
macro_rules! twin {
    ($name:ident, $body:ident, $fast:ident, $plain:ident, ($($arg:ident: $ty:ty),*)) => {
        #[inline(always)]
        #[allow(clippy::too_many_arguments)]
        fn $name<const F: bool>(&mut self, $($arg: $ty),*) -> i32 {
            if F {
                // SAFETY: `F` is true only when `cpu_is_fast()` found the features.
                unsafe { self.$fast($($arg),*) }
            } else {
                self.$plain($($arg),*)
            }
        }

        #[cfg_attr(target_arch = "x86_64", target_feature(enable = "popcnt,lzcnt,bmi1"))]
        #[allow(clippy::too_many_arguments)]
        unsafe fn $fast(&mut self, $($arg: $ty),*) -> i32 {
            self.$body::<true>($($arg),*)
        }

        #[allow(clippy::too_many_arguments)]
        fn $plain(&mut self, $($arg: $ty),*) -> i32 {
            self.$body::<false>($($arg),*)
        }
    };
}

/// Whether this CPU has the instructions of the fast solver copy.
fn cpu_is_fast() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

pub struct Solver {
    pub table: EndTable,
    pub nodes: u64,
    stop: StopToken,
    deadline: Option<Instant>,
    /// Root by MTD(f) probes (default) or one full-window PVS.
    pub mtd: bool,
    aborted: bool,
    /// Node count at which the stop flag and the clock are read next.
    next_check: u64,
    /// Use the popcnt copy of the search (see `twin!`).
    fast: bool,
}

/// Result of a root solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    pub score: i32,
    /// Best move, `None` when the side to move must pass or the game is over.
    pub best: Option<usize>,
}

impl Solver {
    pub fn new(hash_mb: usize) -> Solver {
        Solver {
            table: EndTable::new(hash_mb),
            nodes: 0,
            stop: StopToken::new(),
            deadline: None,
            mtd: true,
            aborted: false,
            next_check: 0,
            fast: cpu_is_fast(),
        }
    }

    /// Shares a stop flag and a hard deadline; when either trips, the current solve returns
    /// early and `was_aborted()` says its result is meaningless. Both are checked every
    /// `CHECK_INTERVAL` nodes (a clock read is ~25 ns; at that interval it costs nothing).
    pub fn set_limits(&mut self, stop: StopToken, deadline: Option<Instant>) {
        self.stop = stop;
        self.deadline = deadline;
    }

    pub fn was_aborted(&self) -> bool {
        self.aborted
    }

    /// Solves `b` exactly within (alpha, beta); a fail-low/high result is a bound.
    pub fn solve_window(&mut self, b: &Board, alpha: i32, beta: i32) -> Solved {
        self.aborted = false;
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
        let count = self.order(b, mv, &mut list, self.table.probe(b).map(|e| e.best));
        let mut best = list[0].sq as usize;
        let mut a = alpha;
        let mut best_score = -65;
        for i in 0..count {
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
    pub fn solve(&mut self, b: &Board) -> Solved {
        if !self.mtd {
            return self.solve_window(b, -64, 64);
        }
        let mut g = guess(b);
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
        if self.fast {
            self.search::<true>(b, alpha, beta, n)
        } else {
            self.search::<false>(b, alpha, beta, n)
        }
    }

    twin!(search, search_body, search_fast, search_plain, (b: Board, alpha: i32, beta: i32, n: u32));
    twin!(shallow, shallow_body, shallow_fast, shallow_plain, (b: Board, alpha: i32, beta: i32, n: u32, passed: bool));
    twin!(solve_n, solve_n_body, solve_n_fast, solve_n_plain, (p: u64, o: u64, alpha: i32, beta: i32, sq: &[u8; 4], n: usize, passed: bool));

    /// Fills `list` with the legal moves and their ordering scores; returns the count.
    #[inline(always)]
    fn order(&self, b: &Board, mut mv: u64, list: &mut [Move; 34], tt: Option<u8>) -> usize {
        let odd = odd_quadrants(b.empties());
        let mut count = 0;
        while mv != 0 {
            let sq = mv.trailing_zeros() as usize;
            mv &= mv - 1;
            let f = flips(b.p, b.o, sq);
            let next = b.play_flips(sq, f);
            let reply = moves(next.p, next.o);
            // Edax-style fastest-first: opponent mobility (corners double) dominates, then
            // our corner-anchored discs, then opponent potential mobility, then parity.
            let mob = (reply.count_ones() + (reply & CORNERS).count_ones()) as i32;
            let mut score = (36 - mob) << 15;
            score += (corner_stability(next.o) as i32) << 11;
            let frontier = super::bitboard::neighbours(next.o) & next.empties();
            score += (36 - frontier.count_ones() as i32) << 6;
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

    /// Table-backed principal-variation search for positions with more than `SHALLOW`
    /// empties; delegates below that.
    #[inline(always)]
    fn search_body<const F: bool>(
        &mut self,
        b: Board,
        mut alpha: i32,
        mut beta: i32,
        n: u32,
    ) -> i32 {
        if n <= SHALLOW {
            return self.shallow::<F>(b, alpha, beta, n, false);
        }
        self.nodes += 1;
        // Compared with a threshold, not `nodes % k == 0`: this runs only at table nodes
        // while the last plies add to `nodes` too, so a modulo test would hit by chance
        // (about once per 40 M nodes, seconds late: two games were lost on time that way).
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_INTERVAL;
            if self.stop.is_stopped() || self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = true;
            }
        }
        if self.aborted {
            return 0;
        }
        if alpha >= stability_threshold(n) {
            let bound = 64 - 2 * stable(b.o, b.p).count_ones() as i32;
            if bound <= alpha {
                return bound;
            }
        }
        let entry = self.table.probe(&b);
        let mut tt_move = None;
        if let Some(e) = entry {
            if e.empties as u32 == n {
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
        let mv = b.moves();
        if mv == 0 {
            if moves(b.o, b.p) == 0 {
                return b.final_score();
            }
            return -self.search::<F>(b.pass(), -beta, -alpha, n);
        }
        let mut list = [Move::default(); 34];
        let count = self.order(&b, mv, &mut list, tt_move);
        if n >= ETC_EMPTIES {
            // Enhanced transposition cut-off: a child whose stored upper bound already
            // refutes beta from our side settles this node without searching.
            for m in &list[..count] {
                let next = b.play_flips(m.sq as usize, m.flips);
                if let Some(e) = self.table.probe(&next) {
                    if e.empties as u32 == n - 1 && -(e.upper as i32) >= beta {
                        return -(e.upper as i32);
                    }
                }
            }
        }
        let orig_alpha = alpha;
        let mut best_score = -65;
        let mut best_sq = list[0].sq;
        for i in 0..count {
            pick(&mut list, i, count);
            let m = list[i];
            let next = b.play_flips(m.sq as usize, m.flips);
            let mut v;
            if i == 0 {
                v = -self.search::<F>(next, -beta, -alpha, n - 1);
            } else {
                v = -self.search::<F>(next, -alpha - 1, -alpha, n - 1);
                if v > alpha && v < beta {
                    v = -self.search::<F>(next, -beta, -v, n - 1);
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
        self.table.store(&b, lo, hi, best_sq, n);
        best_score
    }

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
    fn small<const F: bool>(&mut self, b: Board, alpha: i32, beta: i32) -> i32 {
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

/// Below this alpha the opponent cannot own enough stable discs to cut at `n` empties, so
/// computing them is wasted (Edax's NWS_STABILITY_THRESHOLD).
#[inline]
fn stability_threshold(n: u32) -> i32 {
    const T: [i32; 24] = [
        99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44,
        46,
    ];
    T.get(n as usize).copied().unwrap_or(48)
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
fn odd_quadrants(empties: u64) -> u64 {
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
#[inline]
fn last_one(p: u64, sq: usize) -> i32 {
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

/// A midgame estimate of the final score (even, in discs) to start MTD(f) from.
///
/// Always the built-in (fitted) weights, whatever `--weights` says: their guesses on FFO
/// #40-#49 are off by 7.0 discs on average against 10.8 for the hand-set ones, and every
/// 2 discs of error is one more null-window probe (#40-#44: 9% fewer nodes).
fn guess(b: &Board) -> i32 {
    use std::sync::OnceLock;
    static W: OnceLock<super::eval::Weights> = OnceLock::new();
    let w = W.get_or_init(super::eval::Weights::default_weights);
    let v = guess_search(w, b, 3, -100_000, 100_000);
    (((v as f64 / 200.0).round() as i32) * 2).clamp(-64, 64)
}

fn guess_search(w: &super::eval::Weights, b: &Board, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if depth == 0 {
        return super::eval::evaluate(w, b);
    }
    let mut mv = b.moves();
    if mv == 0 {
        if moves(b.o, b.p) == 0 {
            return b.final_score() * 100;
        }
        return -guess_search(w, &b.pass(), depth, -beta, -alpha);
    }
    let mut best = -100_000;
    while mv != 0 {
        let sq = mv.trailing_zeros() as usize;
        mv &= mv - 1;
        let v = -guess_search(
            w,
            &b.play_flips(sq, flips(b.p, b.o, sq)),
            depth - 1,
            -beta,
            -alpha,
        );
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
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
fn pick(list: &mut [Move; 34], i: usize, count: usize) {
    let mut best = i;
    for j in i + 1..count {
        if list[j].score > list[best].score {
            best = j;
        }
    }
    list.swap(i, best);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::board::Board;

    /// Plain minimax to the end, the independent reference for small positions.
    fn minimax(b: &Board, passed: bool) -> i32 {
        let mut mv = b.moves();
        if mv == 0 {
            if passed {
                return -b.pass().final_score();
            }
            return -minimax(&b.pass(), true);
        }
        let mut best = -65;
        while mv != 0 {
            let sq = mv.trailing_zeros() as usize;
            mv &= mv - 1;
            best = best.max(-minimax(&b.play(sq).unwrap(), false));
        }
        best
    }

    #[test]
    fn solver_agrees_with_minimax_near_the_end() {
        use rand::{rngs::SmallRng, Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(11);
        let mut solver = Solver::new(4);
        let mut checked = 0;
        while checked < 60 {
            // Random game down to 9..=11 empties.
            let target = rng.gen_range(9..=11);
            let mut b = Board::start();
            let mut over = false;
            while b.empties().count_ones() > target {
                let mv = b.moves();
                if mv == 0 {
                    if b.is_game_over() {
                        over = true;
                        break;
                    }
                    b = b.pass();
                    continue;
                }
                let k = rng.gen_range(0..mv.count_ones());
                let mut m = mv;
                for _ in 0..k {
                    m &= m - 1;
                }
                b = b.play(m.trailing_zeros() as usize).unwrap();
            }
            if over {
                continue;
            }
            let exact = minimax(&b, false);
            solver.mtd = checked % 2 == 0;
            let s = solver.solve(&b);
            assert_eq!(s.score, exact, "{}", b.to_obf(crate::color::Color::Black));
            if let Some(sq) = s.best {
                assert_eq!(-minimax(&b.play(sq).unwrap(), false), exact);
            }
            // Null-window probes bound the score on the right side.
            let lo = solver.solve_window(&b, exact - 1, exact).score;
            assert!(lo >= exact);
            let hi = solver.solve_window(&b, exact, exact + 1).score;
            assert!(hi <= exact);
            checked += 1;
        }
    }

    #[test]
    fn a_deadline_stops_a_long_solve_promptly() {
        // FFO #46 (24 empties) takes seconds; a 50 ms deadline must end it at once.
        let (b, _) = Board::from_obf(
            "---XXX----OOOX----OOOXX--OOOOXXX--OOOOXX--OXOXXX--XXOO---XXXX-O-",
            "X",
        )
        .unwrap();
        let mut solver = Solver::new(8);
        let t = Instant::now();
        solver.set_limits(
            StopToken::new(),
            Some(t + std::time::Duration::from_millis(50)),
        );
        solver.solve(&b);
        assert!(solver.was_aborted());
        assert!(
            t.elapsed() < std::time::Duration::from_millis(400),
            "{:?}",
            t.elapsed()
        );
    }

    #[test]
    fn last_one_counts_flips_and_the_winner_takes_the_empty() {
        // 63 black discs, a1 empty, white... nobody: black to move cannot flip anything.
        assert_eq!(last_one(!1u64, 0), 64);
        // White owns h8 and the rest is black's; white to move on a1 flips b2..g7.
        assert_eq!(last_one(1u64 << 63, 0), 2 * (1 + 1 + 6) - 64);
    }
}
