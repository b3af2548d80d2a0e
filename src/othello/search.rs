//! Midgame search: iterative deepening principal-variation search (negascout) with
//! aspiration windows, a transposition table, and move ordering by table move, killers,
//! history and (at depth >= 3) opponent mobility. Near the end it hands over to the exact
//! solver. Search never does I/O; it stops on the shared `Limits` (stop token, hard
//! deadline) polled every node, and starts no iteration after the soft limit. With
//! `set_threads`, the threads split the tree (young brothers wait, `parallel`).
use super::bitboard::{flips_f, moves_f};
use super::board::Board;
use super::endgame::Solver;
use super::evaluator::Evaluator;
use super::isa;
use super::pattern_incr::{powers, Features, LANES};
use super::probcut;
use crate::search::ybwc::{Finish, Seat};
use crate::search::{no_progress, Deadline, Limits, Poller, Progress};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Exact results are scaled to centi-discs like the evaluation.
pub const DISC: i32 = 100;
const INF: i32 = 100 * DISC;
/// At or below this many empties `think` always solves exactly (a fraction of a second).
const ALWAYS_SOLVE: u32 = 14;
/// Up to this many empties `think` tries an exact solve after a short midgame search.
const TRY_SOLVE: u32 = 22;
const ASPIRATION: i32 = 2 * DISC;
const MAX_PLY: usize = 64;
/// With helpers, nodes with this many plies left or more are split between the threads.
const SPLIT_MIN: u32 = 5;

/// Cheap static order: corners best, X-squares worst.
#[rustfmt::skip]
const SQUARE_ORDER: [i32; 64] = [
    20, -3, 11,  8,  8, 11, -3, 20,
    -3, -7, -4,  1,  1, -4, -7, -3,
    11, -4,  2,  2,  2,  2, -4, 11,
     8,  1,  2, -3, -3,  2,  1,  8,
     8,  1,  2, -3, -3,  2,  1,  8,
    11, -4,  2,  2,  2,  2, -4, 11,
    -3, -7, -4,  1,  1, -4, -7, -3,
    20, -3, 11,  8,  8, 11, -3, 20,
];

#[derive(Clone, Copy, Default)]
struct Entry {
    value: i16,
    depth: u8,
    /// 0 empty, 1 upper bound, 2 lower bound, 3 exact.
    bound: u8,
    best: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        (self.value as u16 as u64)
            | (self.depth as u64) << 16
            | (self.bound as u64) << 24
            | (self.best as u64) << 32
    }

    fn unpack(d: u64) -> Entry {
        Entry {
            value: d as u16 as i16,
            depth: (d >> 16) as u8,
            bound: (d >> 24) as u8,
            best: (d >> 32) as u8,
        }
    }
}

const UPPER: u8 = 1;
const LOWER: u8 = 2;
const EXACT: u8 = 3;

/// One slot as three words, the discs each XOR-ed with the data: threads share the table
/// without locks, and a slot torn by two writers reads as a miss (lockless hashing).
#[derive(Default)]
struct Slot([AtomicU64; 3]);

/// The midgame transposition table, one slot per hash, depth-preferred within a search;
/// shared by the threads of a search.
pub struct MidTable {
    slots: Vec<Slot>,
    mask: usize,
}

impl MidTable {
    pub fn new(mb: usize) -> MidTable {
        let n = ((mb.max(1) << 20) / std::mem::size_of::<Slot>()).next_power_of_two() / 2;
        let mut slots = Vec::new();
        slots.resize_with(n.max(1), Slot::default);
        MidTable {
            slots,
            mask: n.max(1) - 1,
        }
    }

    /// The discs and the entry of `b`'s slot (possibly torn; callers compare the discs).
    #[inline(always)]
    fn read(&self, b: &Board) -> (u64, u64, Entry) {
        let w = &self.slots[b.hash() as usize & self.mask].0;
        let d = w[2].load(Relaxed);
        (
            w[0].load(Relaxed) ^ d,
            w[1].load(Relaxed) ^ d,
            Entry::unpack(d),
        )
    }

    fn probe(&self, b: &Board) -> Option<Entry> {
        let (p, o, e) = self.read(b);
        (e.bound != 0 && p == b.p && o == b.o).then_some(e)
    }
    /// Starts loading `b`'s slot into the cache. The probe's miss was a quarter of the
    /// search's time; a node prefetches its children's slots while it orders them.
    #[inline(always)]
    fn prefetch(&self, b: &Board) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the index is masked into the table; a prefetch reads nothing and cannot
        // fault (SSE, part of baseline x86-64).
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let slot = self.slots.as_ptr().add(b.hash() as usize & self.mask);
            _mm_prefetch::<_MM_HINT_T0>(slot as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = b;
    }

    fn store(&self, b: &Board, depth: u32, value: i32, bound: u8, best: u8) {
        let (p, o, old) = self.read(b);
        let same = p == b.p && o == b.o;
        if same || old.depth as u32 <= depth + 2 {
            let d = Entry {
                value: value as i16,
                depth: depth as u8,
                bound,
                best,
            }
            .pack();
            let w = &self.slots[b.hash() as usize & self.mask].0;
            w[0].store(b.p ^ d, Relaxed);
            w[1].store(b.o ^ d, Relaxed);
            w[2].store(d, Relaxed);
        }
    }

    /// Empties every slot (not while a search runs on the table).
    pub fn clear(&self) {
        for s in &self.slots {
            for w in &s.0 {
                w.store(0, Relaxed);
            }
        }
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// `None`: the side to move must pass (or the game is over).
    pub best: Option<usize>,
    /// Centi-discs for the side to move; exact when `exact`.
    pub score: i32,
    /// Deepest completed iteration (for exact results, the number of empties).
    pub depth: u32,
    pub exact: bool,
    pub nodes: u64,
}

pub struct Searcher {
    pub eval: Evaluator,
    /// Shared with the helper threads of a search.
    table: Arc<MidTable>,
    pub solver: Solver,
    killers: [[u8; 2]; MAX_PLY],
    history: [i32; 64],
    nodes: u64,
    aborted: bool,
    /// Instruction level of the copy of the search that runs (`isa`; as the solver's).
    isa: u8,
    /// The pattern features of the position at each ply (`pattern_incr`), kept only in
    /// the copies of the search for an evaluation that reads them (`F`).
    feats: Vec<Features>,
    powers: &'static [[u16; LANES]; 64],
    /// ProbCut's `t` in hundredths (`probcut`), `None`: off. Only the copies that keep
    /// pattern features (`F`) use it.
    pub probcut: Option<i32>,
    /// Search threads (`set_threads`).
    threads: usize,
    /// Nodes with this many plies left or more are split between threads (`parallel`; a
    /// field so that the tests can split small searches).
    split_min: u32,
    /// This thread's place among the threads of a parallel search.
    seat: Seat<parallel::Node>,
    /// The stop token or the deadline ended the search (a cut-off at a split point also
    /// sets `aborted`, but only for the work below it).
    stopped: bool,
}

#[derive(Clone, Copy, Default)]
struct Move {
    sq: u8,
    score: i32,
    flips: u64,
}

/// Calls the copy of a search method for the running instruction level and evaluation
/// kind (the constants `I` and `F` of `pvs`).
macro_rules! per_copy {
    ($self:ident, $f:ident ( $($arg:expr),* )) => {
        match ($self.isa, $self.eval.uses_features()) {
            (isa::AVX512, true) => $self.$f::<{ isa::AVX512 }, true>($($arg),*),
            (isa::AVX512, false) => $self.$f::<{ isa::AVX512 }, false>($($arg),*),
            (isa::AVX2, true) => $self.$f::<{ isa::AVX2 }, true>($($arg),*),
            (isa::AVX2, false) => $self.$f::<{ isa::AVX2 }, false>($($arg),*),
            (_, true) => $self.$f::<{ isa::PLAIN }, true>($($arg),*),
            (_, false) => $self.$f::<{ isa::PLAIN }, false>($($arg),*),
        }
    };
}

mod parallel;

impl Searcher {
    pub fn new(eval: impl Into<Evaluator>, hash_mb: usize) -> Searcher {
        Searcher {
            eval: eval.into(),
            table: Arc::new(MidTable::new(hash_mb.div_ceil(2).max(1))),
            solver: Solver::new(hash_mb.div_ceil(2).max(1)),
            killers: [[64; 2]; MAX_PLY],
            history: [0; 64],
            nodes: 0,
            aborted: false,
            isa: isa::detect(),
            feats: vec![Features::new(&Board::start()); MAX_PLY + 2],
            powers: powers(),
            probcut: None,
            threads: 1,
            split_min: SPLIT_MIN,
            seat: Seat::ALONE,
            stopped: false,
        }
    }

    /// Search threads for one move: the midgame search and the solver split their trees
    /// between them (young brothers wait). 1 keeps the search reproducible.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        self.solver.set_threads(threads);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// A helper of the midgame search: the same evaluation and settings on the same table,
    /// its own killers and history (starting as copies of this thread's), mailbox `id` of
    /// `pool`.
    fn helper(&self, id: usize, pool: Arc<parallel::Pool>) -> Searcher {
        Searcher {
            eval: self.eval.clone(),
            table: self.table.clone(),
            solver: Solver::new(1),
            killers: self.killers,
            history: self.history,
            nodes: 0,
            aborted: false,
            isa: self.isa,
            feats: vec![Features::new(&Board::start()); MAX_PLY + 2],
            powers: self.powers,
            probcut: self.probcut,
            threads: 1,
            split_min: self.split_min,
            seat: Seat::in_pool(id, pool),
            stopped: false,
        }
    }

    /// ProbCut with selectivity `t` in hundredths (`probcut`), or off.
    pub fn with_probcut(mut self, t: Option<i32>) -> Searcher {
        self.probcut = t;
        self
    }

    /// Runs the copy of instruction level `level` (`isa`), at most what the CPU has; the
    /// solver's too. For comparing the copies, which must search exactly alike.
    pub fn set_isa(&mut self, level: u8) {
        self.isa = level.min(isa::detect());
        self.solver.set_isa(level);
    }

    /// The instruction level of the copy that runs.
    pub fn isa(&self) -> u8 {
        self.isa
    }

    /// Forget everything learnt about earlier positions (new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.solver.table.clear();
        self.history = [0; 64];
    }

    /// Chooses a move within `limits` (blocks until the soft limit ends the deepening or the
    /// hard limit / stop token ends the search). `max_depth` caps the midgame depth.
    pub fn think(&mut self, b: &Board, limits: &Limits, max_depth: u32) -> Found {
        self.think_reporting(b, limits, max_depth, &mut no_progress)
    }

    /// [`Searcher::think`], telling `progress` the result of each completed midgame
    /// iteration and of a completed solve (one thread's: the main one).
    pub fn think_reporting(
        &mut self,
        b: &Board,
        limits: &Limits,
        max_depth: u32,
        progress: Progress<'_, Found>,
    ) -> Found {
        let n = b.empties().count_ones();
        if b.moves() == 0 {
            let score = if b.is_game_over() {
                b.final_score() * DISC
            } else {
                0
            };
            return Found {
                best: None,
                score,
                depth: 0,
                exact: b.is_game_over(),
                nodes: 0,
            };
        }
        if n <= ALWAYS_SOLVE {
            if let Some(f) = self.try_solve(b, limits) {
                progress(&f);
                return f;
            }
        }
        if n <= TRY_SOLVE {
            // A short midgame search first, so an aborted solve still leaves a good move.
            let d = limits.deadline;
            let quarter = |t: Option<Instant>| {
                t.map(|t| d.start + (t.saturating_duration_since(d.start) / 4))
            };
            // A phase: its deadline passing must not stop the solve that follows.
            let short = limits.phase(Deadline {
                start: d.start,
                soft: quarter(d.soft),
                hard: quarter(d.soft),
            });
            let mid = self.deepen_reporting(b, &short, max_depth, progress);
            if limits.stop.is_stopped() {
                return mid;
            }
            if let Some(f) = self.try_solve(b, limits) {
                progress(&f);
                return f;
            }
            return mid;
        }
        self.deepen_reporting(b, limits, max_depth, progress)
    }

    fn try_solve(&mut self, b: &Board, limits: &Limits) -> Option<Found> {
        self.solver
            .set_limits(limits.stop.clone(), limits.deadline.hard);
        self.solver.nodes = 0;
        let r = self.solver.solve(b);
        if self.solver.was_aborted() {
            return None;
        }
        Some(Found {
            best: r.best,
            score: r.score * DISC,
            depth: b.empties().count_ones(),
            exact: true,
            nodes: self.solver.nodes,
        })
    }

    /// Iterative deepening with aspiration windows; with helpers (`set_threads`), they
    /// take part in this thread's search tree (`parallel`) until it is done, and are joined
    /// before it returns.
    pub fn deepen(&mut self, b: &Board, limits: &Limits, max_depth: u32) -> Found {
        self.deepen_reporting(b, limits, max_depth, &mut no_progress)
    }

    /// [`Searcher::deepen`], telling `progress` the main thread's result after each
    /// completed iteration.
    fn deepen_reporting(
        &mut self,
        b: &Board,
        limits: &Limits,
        max_depth: u32,
        progress: Progress<'_, Found>,
    ) -> Found {
        if self.threads <= 1 {
            return self.deepen_alone(b, limits, max_depth, progress);
        }
        let pool = Arc::new(parallel::Pool::new(self.threads));
        let mut helpers: Vec<Searcher> = (1..self.threads)
            .map(|id| self.helper(id, pool.clone()))
            .collect();
        self.seat = Seat::in_pool(0, pool.clone());
        let found = std::thread::scope(|s| {
            let joins: Vec<_> = helpers
                .iter_mut()
                .map(|h| s.spawn(move || h.serve(limits)))
                .collect();
            let finish = Finish(&pool);
            let mut found = self.deepen_alone(b, limits, max_depth, progress);
            drop(finish);
            for j in joins {
                found.nodes += j.join().expect("search helper panicked");
            }
            found
        });
        self.seat = Seat::ALONE;
        found
    }

    fn deepen_alone(
        &mut self,
        b: &Board,
        limits: &Limits,
        max_depth: u32,
        progress: Progress<'_, Found>,
    ) -> Found {
        self.nodes = 0;
        self.aborted = false;
        self.stopped = false;
        let n = b.empties().count_ones();
        let mut poller = limits.poller();
        let mut found = Found {
            best: Some(b.moves().trailing_zeros() as usize),
            score: 0,
            depth: 0,
            exact: false,
            nodes: 0,
        };
        let max_depth = max_depth.min(n).max(1);
        // Scores of the last two completed iterations: the window is centred on the one of
        // the same parity. A leaf's side to move is the root's on even depths only, and the
        // pattern tables' error has a sign by side to move (the mover at the ply above
        // picked the leaf its error favoured): their scores alternate by about 4.5 discs
        // from one depth to the next, so a window around the last score failed on most
        // iterations (docs/experiments/othello.md).
        let (mut prev, mut prev2) = (0, 0);
        for depth in 1..=max_depth {
            if depth > 1 && !limits.may_start_iteration(self.nodes) {
                break;
            }
            // Each iteration costs several times the last: do not start one that the
            // remaining soft budget cannot pay for.
            if depth > 2 {
                if let Some(soft) = limits.deadline.soft {
                    let used = limits.deadline.elapsed();
                    let left = soft.saturating_duration_since(Instant::now());
                    if left < used.mul_f64(1.5) && used > Duration::from_millis(5) {
                        break;
                    }
                }
            }
            let (mut lo, mut hi) = if depth >= 4 {
                (prev2 - ASPIRATION, prev2 + ASPIRATION)
            } else {
                (-INF, INF)
            };
            loop {
                let first = found.best;
                let (score, best) = per_copy!(self, root(b, depth, lo, hi, &mut poller, first));
                if self.aborted {
                    // A move that beat the previous best in this iteration is still better.
                    if let Some(m) = best {
                        if score > lo && score > found.score - ASPIRATION {
                            found.best = Some(m);
                        }
                    }
                    break;
                }
                if score <= lo && lo > -INF {
                    lo = -INF;
                    continue;
                }
                if score >= hi && hi < INF {
                    hi = INF;
                    continue;
                }
                found.best = best.or(found.best);
                found.score = score;
                found.depth = depth;
                prev2 = prev;
                prev = score;
                break;
            }
            tracing::debug!(depth, score = found.score, nodes = self.nodes, "iteration");
            if self.aborted {
                break;
            }
            progress(&Found {
                nodes: self.nodes,
                exact: found.depth >= n,
                ..found
            });
        }
        found.nodes = self.nodes;
        found.exact = found.depth >= n;
        found
    }

    /// The full-window value of a plain fixed-depth search of `b`, with ProbCut off (for
    /// fitting ProbCut's error table).
    pub fn fixed_depth(&mut self, b: &Board, depth: u32) -> i32 {
        let limits = Limits::new(Deadline::unlimited(), None, crate::search::StopToken::new());
        let mut poller = limits.poller();
        let cut = self.probcut.take();
        self.aborted = false;
        self.feats[0] = Features::new(b);
        let v = per_copy!(self, pvs(b, depth, -INF, INF, 0, &mut poller));
        self.probcut = cut;
        v
    }

    /// ProbCut at a null-window node (`probcut`): `Some(bound)` when a shallow search
    /// predicts the deep one fails high or low with the error table's confidence.
    #[inline(always)]
    fn probcut<const I: u8, const F: bool>(
        &mut self,
        b: &Board,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
        poller: &mut Poller<'_>,
    ) -> Option<i32> {
        let t = self.probcut?;
        let d = probcut::shallow(depth);
        let margin = probcut::margin(depth, b.empties().count_ones(), t);
        let hi = beta + margin;
        if hi < 64 * DISC {
            let v = self.pvs::<I, F>(b, d, hi - 1, hi, ply, poller);
            if self.aborted {
                return Some(0);
            }
            if v >= hi {
                return Some(beta);
            }
        }
        let lo = alpha - margin;
        if lo > -64 * DISC {
            let v = self.pvs::<I, F>(b, d, lo, lo + 1, ply, poller);
            if self.aborted {
                return Some(0);
            }
            if v <= lo {
                return Some(alpha);
            }
        }
        None
    }

    /// Root of one iteration: returns (score, best move) within (alpha, beta).
    fn root<const I: u8, const F: bool>(
        &mut self,
        b: &Board,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        poller: &mut Poller<'_>,
        first: Option<usize>,
    ) -> (i32, Option<usize>) {
        if F {
            self.feats[0] = Features::new(b);
        }
        let mut list = [Move::default(); 34];
        let count = self.order::<I>(b, b.moves(), depth, 0, first.map(|m| m as u8), &mut list);
        let mut best = -INF - 1;
        let mut best_sq = None;
        for i in 0..count {
            if i >= 1 && depth >= self.split_min && self.seat.others_idle() {
                let first = best_sq.unwrap_or(list[0].sq as usize) as u8;
                if let Some((v, sq)) = self.split::<I, F>(
                    b,
                    &mut list,
                    (i, count),
                    (alpha, beta),
                    (best, first),
                    depth,
                    0,
                    poller,
                ) {
                    (best, best_sq) = (v, Some(sq as usize));
                    break;
                }
            }
            pick(&mut list, i, count);
            let m = list[i];
            let next = b.play_flips(m.sq as usize, m.flips);
            if F {
                self.feats[1] = self.feats[0].play(b, m.sq as usize, m.flips, self.powers);
            }
            let mut v;
            if i == 0 {
                v = -self.pvs::<I, F>(&next, depth - 1, -beta, -alpha, 1, poller);
            } else {
                v = -self.pvs::<I, F>(&next, depth - 1, -alpha - 1, -alpha, 1, poller);
                if v > alpha && v < beta && !self.aborted {
                    v = -self.pvs::<I, F>(&next, depth - 1, -beta, -alpha, 1, poller);
                }
            }
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_sq = Some(m.sq as usize);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        (best, best_sq)
    }

    /// One node of the search, from the copy of instruction level `I` compiled with that
    /// level's features (the default build targets baseline x86-64): `I` is a constant,
    /// so each copy recurses only into itself, as the solver's `per_isa!` copies do.
    #[inline(always)]
    fn pvs<const I: u8, const F: bool>(
        &mut self,
        b: &Board,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
        poller: &mut Poller<'_>,
    ) -> i32 {
        if I >= isa::AVX512 {
            // SAFETY: `I` is AVX512 only when `isa::detect()` found the features.
            unsafe { self.pvs_wide::<F>(b, depth, alpha, beta, ply, poller) }
        } else if I >= isa::AVX2 {
            // SAFETY: `I` is at least AVX2 only when `isa::detect()` found the features.
            unsafe { self.pvs_fast::<F>(b, depth, alpha, beta, ply, poller) }
        } else {
            self.pvs_plain::<F>(b, depth, alpha, beta, ply, poller)
        }
    }

    fn pvs_plain<const F: bool>(
        &mut self,
        b: &Board,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
        poller: &mut Poller<'_>,
    ) -> i32 {
        self.pvs_body::<{ isa::PLAIN }, F>(b, depth, alpha, beta, ply, poller)
    }

    #[cfg_attr(
        target_arch = "x86_64",
        target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2,avx512f,avx512vl,avx512cd")
    )]
    unsafe fn pvs_wide<const F: bool>(
        &mut self,
        b: &Board,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
        poller: &mut Poller<'_>,
    ) -> i32 {
        self.pvs_body::<{ isa::AVX512 }, F>(b, depth, alpha, beta, ply, poller)
    }

    #[cfg_attr(
        target_arch = "x86_64",
        target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")
    )]
    unsafe fn pvs_fast<const F: bool>(
        &mut self,
        b: &Board,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
        poller: &mut Poller<'_>,
    ) -> i32 {
        self.pvs_body::<{ isa::AVX2 }, F>(b, depth, alpha, beta, ply, poller)
    }

    #[inline(always)]
    fn pvs_body<const I: u8, const F: bool>(
        &mut self,
        b: &Board,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        poller: &mut Poller<'_>,
    ) -> i32 {
        self.nodes += 1;
        if poller.poll(self.nodes) {
            self.aborted = true;
            self.stopped = true;
        }
        // In a parallel search: a cut-off at a split point above ends this work.
        if depth >= 2 && self.seat.cut_above() {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if depth == 0 {
            if b.empties() == 0 {
                return b.final_score() * DISC;
            }
            return if F {
                self.eval.evaluate_with::<I>(b, &self.feats[ply])
            } else {
                self.eval.evaluate_f::<I>(b)
            };
        }
        let entry = self.table.probe(b);
        let mut tt_move = None;
        if let Some(e) = entry {
            tt_move = Some(e.best);
            if e.depth as u32 >= depth {
                let v = e.value as i32;
                match e.bound {
                    EXACT => return v,
                    LOWER if v >= beta => return v,
                    UPPER if v <= alpha => return v,
                    LOWER => alpha = alpha.max(v),
                    UPPER => beta = beta.min(v),
                    _ => {}
                }
                if alpha >= beta {
                    return v;
                }
            }
        }
        let mv = moves_f::<I>(b.p, b.o);
        if mv == 0 {
            if moves_f::<I>(b.o, b.p) == 0 {
                return b.final_score() * DISC;
            }
            return -self.pvs::<I, F>(&b.pass(), depth, -beta, -alpha, ply, poller);
        }
        if F && depth >= probcut::MIN_DEPTH && beta == alpha + 1 {
            if let Some(v) = self.probcut::<I, F>(b, depth, alpha, beta, ply, poller) {
                return v;
            }
        }
        let mut list = [Move::default(); 34];
        let count = self.order::<I>(b, mv, depth, ply, tt_move, &mut list);
        let orig_alpha = alpha;
        let mut best = -INF - 1;
        let mut best_sq = list[0].sq;
        for i in 0..count {
            if i >= 1 && depth >= self.split_min && self.seat.others_idle() {
                if let Some((v, sq)) = self.split::<I, F>(
                    b,
                    &mut list,
                    (i, count),
                    (alpha, beta),
                    (best, best_sq),
                    depth,
                    ply,
                    poller,
                ) {
                    if self.aborted {
                        return 0;
                    }
                    (best, best_sq) = (v, sq);
                    if best >= beta {
                        self.note_cutoff(sq, depth, ply);
                    }
                    break;
                }
            }
            pick(&mut list, i, count);
            let m = list[i];
            let next = b.play_flips(m.sq as usize, m.flips);
            if F {
                self.feats[ply + 1] = self.feats[ply].play(b, m.sq as usize, m.flips, self.powers);
            }
            let mut v;
            if i == 0 {
                v = -self.pvs::<I, F>(&next, depth - 1, -beta, -alpha, ply + 1, poller);
            } else {
                v = -self.pvs::<I, F>(&next, depth - 1, -alpha - 1, -alpha, ply + 1, poller);
                if v > alpha && v < beta && !self.aborted {
                    v = -self.pvs::<I, F>(&next, depth - 1, -beta, -alpha, ply + 1, poller);
                }
            }
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = m.sq;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        self.note_cutoff(m.sq, depth, ply);
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            LOWER
        } else if best > orig_alpha {
            EXACT
        } else {
            UPPER
        };
        self.table.store(b, depth, best, bound, best_sq);
        best
    }

    /// Killers and history learn the move `sq` that cut at a node `depth` plies deep.
    #[inline(always)]
    fn note_cutoff(&mut self, sq: u8, depth: u32, ply: usize) {
        let k = &mut self.killers[ply.min(MAX_PLY - 1)];
        if k[0] != sq {
            k[1] = k[0];
            k[0] = sq;
        }
        self.history[sq as usize] += (depth * depth) as i32;
    }

    #[inline(always)]
    fn order<const I: u8>(
        &self,
        b: &Board,
        mut mv: u64,
        depth: u32,
        ply: usize,
        tt: Option<u8>,
        list: &mut [Move; 34],
    ) -> usize {
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        let mut count = 0;
        while mv != 0 {
            let sq = mv.trailing_zeros() as usize;
            mv &= mv - 1;
            let f = flips_f::<I>(b.p, b.o, sq);
            let mut score = SQUARE_ORDER[sq] * 64 + self.history[sq].min(1 << 20) / 16;
            if depth >= 2 {
                // Children at depth 1 and more probe the table.
                let next = b.play_flips(sq, f);
                self.table.prefetch(&next);
                if depth >= 3 {
                    let reply = moves_f::<I>(next.p, next.o);
                    score += (20 - reply.count_ones() as i32) << 12;
                }
            }
            if killers[0] == sq as u8 {
                score += 1 << 22;
            } else if killers[1] == sq as u8 {
                score += 1 << 21;
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
}

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
    use crate::othello::eval::Weights;
    use crate::search::StopToken;
    use rand::{rngs::SmallRng, Rng, SeedableRng};

    /// The position after `plies` uniformly random moves (passes included) from the start.
    fn random_plies(rng: &mut SmallRng, plies: u32) -> Board {
        let mut b = Board::start();
        for _ in 0..plies {
            let mv = b.moves();
            if mv == 0 {
                b = b.pass();
                continue;
            }
            let sq = crate::othello::bitboard::nth_square(mv, rng.gen_range(0..mv.count_ones()));
            b = b.play(sq).unwrap();
        }
        b
    }

    fn limits(ms: u64) -> Limits {
        Limits::new(
            Deadline::after(Duration::from_millis(ms), Duration::from_millis(ms * 2)),
            None,
            StopToken::new(),
        )
    }

    #[test]
    fn finds_a_legal_move_and_respects_the_hard_limit() {
        let mut s = Searcher::new(Weights::default_weights(), 8);
        let b = Board::start();
        let t = Instant::now();
        let f = s.think(&b, &limits(200), 60);
        assert!(t.elapsed() < Duration::from_millis(1500));
        let m = f.best.unwrap();
        assert!(b.moves() >> m & 1 != 0);
        assert!(f.depth >= 3, "depth {}", f.depth);
    }

    #[test]
    fn threaded_search_returns_a_legal_move_and_stops_on_the_token() {
        let mut rng = SmallRng::seed_from_u64(21);
        for threads in [2, 4] {
            let b = random_plies(&mut rng, 16);
            if b.moves() == 0 {
                continue;
            }
            let mut s = Searcher::new(Evaluator::default_patterns(), 8);
            s.set_threads(threads);
            s.split_min = 2;
            // No deadline: only the token ends the search.
            let stop = StopToken::new();
            let l = Limits::new(Deadline::unlimited(), None, stop.clone());
            let stopper = std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(100));
                stop.stop();
            });
            let f = s.think(&b, &l, 60);
            stopper.join().unwrap();
            let m = f.best.unwrap();
            assert!(b.moves() >> m & 1 != 0, "{threads} threads: {f:?}");
            assert!(f.depth >= 1, "{f:?}");
            // A fixed depth with helpers completes and gives a legal move too.
            let unlimited = Limits::new(Deadline::unlimited(), None, StopToken::new());
            let g = s.deepen(&b, &unlimited, 5);
            assert_eq!(g.depth, 5, "{g:?}");
            assert!(b.moves() >> g.best.unwrap() & 1 != 0);
        }
    }

    #[test]
    fn split_search_gives_the_single_threaded_score_at_a_fixed_depth() {
        // Without ProbCut a fixed-depth search's score is the minimax value of that depth,
        // whoever searches which move: with splits from 2 plies left (so that these small
        // searches split at nearly every node), 2 and 3 threads must give the score of one,
        // with either evaluation (the pattern one carries features to the helpers).
        let mut rng = SmallRng::seed_from_u64(44);
        let unlimited = || Limits::new(Deadline::unlimited(), None, StopToken::new());
        let mut tried = 0;
        while tried < 8 {
            let plies = rng.gen_range(10..36);
            let b = random_plies(&mut rng, plies);
            if b.moves() == 0 {
                continue;
            }
            tried += 1;
            let linear = tried % 4 == 0;
            let eval = || {
                if linear {
                    Evaluator::from(Weights::default_weights())
                } else {
                    Evaluator::default_patterns()
                }
            };
            let one = Searcher::new(eval(), 4).deepen(&b, &unlimited(), 7);
            for threads in [2, 3] {
                let mut s = Searcher::new(eval(), 4);
                s.set_threads(threads);
                s.split_min = 2;
                let f = s.deepen(&b, &unlimited(), 7);
                assert_eq!(
                    (f.score, f.depth),
                    (one.score, one.depth),
                    "{threads} threads"
                );
                assert!(b.moves() >> f.best.unwrap() & 1 != 0, "{f:?}");
            }
        }
    }

    #[test]
    fn split_search_with_probcut_returns_a_legal_move_in_range() {
        let mut rng = SmallRng::seed_from_u64(45);
        let unlimited = || Limits::new(Deadline::unlimited(), None, StopToken::new());
        let mut tried = 0;
        while tried < 6 {
            let plies = rng.gen_range(10..36);
            let b = random_plies(&mut rng, plies);
            if b.moves() == 0 {
                continue;
            }
            tried += 1;
            let mut s = Searcher::new(Evaluator::default_patterns(), 4).with_probcut(Some(150));
            s.set_threads(2);
            s.split_min = 3;
            let f = s.deepen(&b, &unlimited(), 9);
            assert_eq!(f.depth, 9, "{f:?}");
            assert!(f.score.abs() <= 64 * DISC, "{f:?}");
            assert!(b.moves() >> f.best.unwrap() & 1 != 0, "{f:?}");
        }
    }

    #[test]
    fn threaded_think_solves_an_endgame_exactly() {
        // FFO #40 trimmed to 16 empties by solver moves: the threaded think solves it
        // and agrees with the single-threaded solver.
        let (mut b, _) = Board::from_obf(
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------",
            "X",
        )
        .unwrap();
        let mut solver = Solver::new(8);
        while b.empties().count_ones() > 16 {
            match solver.solve(&b).best {
                Some(m) => b = b.play(m).unwrap(),
                None => b = b.pass(),
            }
        }
        let exact = Solver::new(8).solve(&b).score;
        let mut s = Searcher::new(Weights::default_weights(), 8);
        s.set_threads(2);
        let l = Limits::new(Deadline::unlimited(), None, StopToken::new());
        let f = s.think(&b, &l, 60);
        assert!(f.exact, "{f:?}");
        assert_eq!(f.score, exact * DISC);
    }

    #[test]
    fn the_short_search_before_a_solve_does_not_stop_the_move() {
        // FFO #40 (20 empties): `think` runs a midgame search for a quarter of the time,
        // then tries the solve. The short search runs into its own deadline; that must
        // leave the move's token clear (it once tripped it, so the solve never ran and
        // the command looked interrupted).
        let (b, _) = Board::from_obf(
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------",
            "X",
        )
        .unwrap();
        assert!(b.empties().count_ones() > ALWAYS_SOLVE);
        let mut s = Searcher::new(Weights::default_weights(), 8);
        let l = limits(40);
        let f = s.think(&b, &l, 64);
        assert!(f.best.is_some());
        assert!(!l.stop.is_stopped(), "the short search stopped the move");
    }

    #[test]
    fn full_depth_search_equals_the_exact_solver() {
        // With depth = empties the midgame search is exact; compare it with the solver on
        // FFO #40-like positions trimmed to a few empties by playing solver moves.
        let (mut b, _) = Board::from_obf(
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------",
            "X",
        )
        .unwrap();
        let mut solver = Solver::new(8);
        while b.empties().count_ones() > 10 {
            match solver.solve(&b).best {
                Some(m) => b = b.play(m).unwrap(),
                None => b = b.pass(),
            }
        }
        let exact = solver.solve(&b).score;
        let mut s = Searcher::new(Weights::default_weights(), 8);
        let l = Limits::new(Deadline::unlimited(), None, StopToken::new());
        let f = s.deepen(&b, &l, 64);
        assert!(f.exact, "{f:?}");
        assert_eq!(f.score, exact * DISC);
    }

    #[test]
    fn takes_the_corner_when_it_is_free() {
        // Black to move can take a1 (flipping b2 towards c3); nothing else compares.
        let mut sq = ["-"; 64];
        for (i, c) in [
            (9, "O"),
            (18, "X"),
            (27, "X"),
            (28, "O"),
            (35, "O"),
            (36, "X"),
        ] {
            sq[i] = c;
        }
        let (b, _) = Board::from_obf(&sq.concat(), "X").unwrap();
        assert!(b.moves() & 1 != 0);
        // The hand-set weights: this checks the search, and the fitted ones barely value a
        // corner 58 empties from the end (WTHOR games never take one that early).
        let hand = Weights::parse(crate::othello::eval::HAND_WEIGHTS).unwrap();
        let mut s = Searcher::new(hand, 8);
        let f = s.deepen(&b, &limits(300), 4);
        assert_eq!(f.best, Some(0));
    }

    #[test]
    fn every_instruction_level_searches_alike() {
        // The copies differ in instructions only: the same moves, scores and node counts,
        // with either evaluation (the linear one counts stable discs, the patterns read
        // mobility).
        let mut rng = SmallRng::seed_from_u64(4);
        let unlimited = || Limits::new(Deadline::unlimited(), None, StopToken::new());
        for _ in 0..6 {
            let plies = rng.gen_range(12..34);
            let b = random_plies(&mut rng, plies);
            if b.moves() == 0 {
                continue;
            }
            for linear in [false, true] {
                let mut seen = Vec::new();
                for level in [isa::PLAIN, isa::AVX2, isa::AVX512] {
                    if level > isa::detect() {
                        continue;
                    }
                    let eval = if linear {
                        Evaluator::from(Weights::default_weights())
                    } else {
                        Evaluator::default_patterns()
                    };
                    let mut s = Searcher::new(eval, 4);
                    s.set_isa(level);
                    seen.push(s.deepen(&b, &unlimited(), 6));
                }
                assert!(seen.iter().all(|f| *f == seen[0]), "{seen:?}");
                assert!(seen[0].nodes > 100, "{seen:?}");
            }
        }
    }

    #[test]
    fn probcut_searches_fewer_nodes_and_never_leaves_the_score_range() {
        // A cut returns the window's bound: scores must stay within the game's range and
        // the move legal; a cut that never fires (or fires wrongly everywhere) shows in
        // the node counts against the plain search of the same depth.
        let mut rng = SmallRng::seed_from_u64(9);
        let unlimited = || Limits::new(Deadline::unlimited(), None, StopToken::new());
        let (mut plain_nodes, mut cut_nodes, mut same) = (0, 0, 0);
        let mut tried = 0;
        while tried < 8 {
            let plies = rng.gen_range(14..30);
            let b = random_plies(&mut rng, plies);
            if b.moves() == 0 {
                continue;
            }
            tried += 1;
            let plain = Searcher::new(Evaluator::default_patterns(), 4).deepen(&b, &unlimited(), 8);
            let mut s = Searcher::new(Evaluator::default_patterns(), 4).with_probcut(Some(150));
            let cut = s.deepen(&b, &unlimited(), 8);
            assert!(cut.score.abs() <= 64 * DISC, "{cut:?}");
            assert!(b.moves() & (1u64 << cut.best.unwrap()) != 0, "{cut:?}");
            plain_nodes += plain.nodes;
            cut_nodes += cut.nodes;
            same += usize::from(plain.best == cut.best);
            // The fitting search ignores the setting.
            let mut off = Searcher::new(Evaluator::default_patterns(), 4);
            s.clear();
            assert_eq!(s.fixed_depth(&b, 5), off.fixed_depth(&b, 5));
        }
        assert!(cut_nodes * 2 < plain_nodes, "{cut_nodes} vs {plain_nodes}");
        assert!(same >= 4, "{same} of 8 best moves agree");
        // The linear evaluation has no error table: ProbCut leaves its search alone.
        let b = Board::start().play(19).unwrap();
        let lin = || Searcher::new(Evaluator::from(Weights::default_weights()), 4);
        assert_eq!(
            lin().deepen(&b, &unlimited(), 7),
            lin().with_probcut(Some(150)).deepen(&b, &unlimited(), 7)
        );
    }
}
