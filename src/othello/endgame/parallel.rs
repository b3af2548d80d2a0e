//! Parallel solving by young brothers wait (YBWC): at a node with `split_min` empties or
//! more, once its first move has been searched without a cut-off, the other moves are
//! handed out one at a time, from an atomic counter, to this thread and every idle helper.
//! A cut-off found by any of them stops the others' work below that node. All threads
//! share the lockless table.
//!
//! The split point lives on the stack of the thread that made it, which does not return
//! before every helper has left it. While it waits it may itself help, but only at split
//! points below its own (made by the threads working for it), so it is free again as soon
//! as its own helpers are done.
use super::order::Move;
use super::Solver;
use crate::othello::board::Board;
use crate::othello::isa;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, AtomicUsize, Ordering};
use std::sync::Arc;

/// The helpers of one parallel solve.
pub(super) struct Pool {
    slots: Box<[Slot]>,
    /// Set when the solve is over: idle helpers return.
    done: AtomicBool,
}

/// One thread's mailbox.
#[repr(align(64))]
#[derive(Default)]
struct Slot {
    /// The thread waits for work and may be given some (claimed by a compare-exchange).
    available: AtomicBool,
    /// The split point whose helpers the thread waits for (null for a free helper): only
    /// work below it may be given to it.
    waiting_on: AtomicPtr<SplitPoint>,
    /// The split point given to the thread.
    task: AtomicPtr<SplitPoint>,
}

impl Pool {
    pub(super) fn new(threads: usize) -> Pool {
        Pool {
            slots: (0..threads).map(|_| Slot::default()).collect(),
            done: AtomicBool::new(false),
        }
    }

    pub(super) fn finish(&self) {
        self.done.store(true, Ordering::Release);
    }
}

/// A node whose remaining moves several threads search.
pub(super) struct SplitPoint {
    parent: *const SplitPoint,
    board: Board,
    n: u32,
    beta: i32,
    /// Alpha when the split was made.
    alpha: i32,
    list: [Move; 34],
    count: usize,
    /// Index of the next move to hand out.
    next: AtomicUsize,
    /// The best score and its move so far (`pack`).
    best: AtomicI32,
    /// A move reached beta: the remaining work is pointless.
    cutoff: AtomicBool,
    /// A helper's search was cut short (stop, deadline or a cut-off higher up): the result
    /// is incomplete.
    failed: AtomicBool,
    /// Helpers currently working here.
    workers: AtomicUsize,
    /// The selective pass in force (`Solver::sel_flag` and the two after it).
    sel: (u32, usize, u32),
}

// SAFETY: `parent` is only read, and a split point outlives every split point below it
// (its maker waits for their helpers before returning).
unsafe impl Sync for SplitPoint {}

/// The innermost split point a thread works under (null: none).
#[derive(Clone, Copy)]
pub(super) struct Chain(pub(super) *const SplitPoint);

// SAFETY: a chain is only followed while the split points on it are alive (see `Sync`).
unsafe impl Send for Chain {}

impl Chain {
    pub(super) const NONE: Chain = Chain(std::ptr::null());

    /// Whether some split point on the chain was cut off.
    #[inline]
    pub(super) fn cut(self) -> bool {
        let mut p = self.0;
        while !p.is_null() {
            // SAFETY: the chain's split points are alive while this thread works under them.
            let sp = unsafe { &*p };
            if sp.cutoff.load(Ordering::Relaxed) {
                return true;
            }
            p = sp.parent;
        }
        false
    }

    fn contains(self, x: *const SplitPoint) -> bool {
        let mut p = self.0;
        while !p.is_null() {
            if p == x {
                return true;
            }
            // SAFETY: as in `cut`.
            p = unsafe { (*p).parent };
        }
        false
    }
}

/// A score and its move for `fetch_max`. `known` marks a score the move is known to
/// reach (exact or a lower bound): at equal scores it beats an upper bound, whose move may
/// be worse, so the best move is one that reaches the best score.
fn pack(score: i32, known: bool, sq: u8) -> i32 {
    (score + 128) << 9 | (known as i32) << 8 | sq as i32
}

fn unpack(x: i32) -> (i32, u8) {
    ((x >> 9) - 128, x as u8)
}

impl SplitPoint {
    fn alpha(&self) -> i32 {
        self.alpha.max(unpack(self.best.load(Ordering::Relaxed)).0)
    }
}

impl Solver {
    /// A helper for a parallel solve: this solver's settings, the same table, its own
    /// counters.
    pub(super) fn helper(&self, id: usize, pool: Arc<Pool>) -> Solver {
        let mut h = Solver::new_sharing(self.table.clone());
        h.stop = self.stop.clone();
        h.deadline = self.deadline;
        h.mtd = self.mtd;
        h.isa = self.isa;
        h.sel_passes = self.sel_passes;
        h.sel_root = self.sel_root;
        h.split_min = self.split_min;
        h.pool = Some(pool);
        h.id = id;
        h
    }

    /// Searches moves `from..count` of `list` (all of them ordered already) at node `b`
    /// (`n` empties) with helpers, after the first move gave `best`/`best_sq`; `None` when
    /// no helper is free (the caller goes on alone). The result is the node's best score
    /// and move, meaningless when `aborted` is set.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(super) fn split<const I: u8>(
        &mut self,
        b: &Board,
        list: &[Move; 34],
        from: usize,
        count: usize,
        alpha: i32,
        beta: i32,
        best: i32,
        best_sq: u8,
        n: u32,
    ) -> Option<(i32, u8)> {
        let pool = self.pool.clone()?;
        let free = |s: &Slot| {
            if !s.available.load(Ordering::Relaxed) {
                return false;
            }
            let w = s.waiting_on.load(Ordering::Acquire);
            w.is_null() || self.split_chain.contains(w)
        };
        if !pool.slots.iter().any(free) {
            return None;
        }
        // The first move reached `best` if it raised alpha to it (a fail-low move never
        // decides the best move of a node that cuts or is exact).
        let sp = SplitPoint {
            parent: self.split_chain.0,
            board: *b,
            n,
            beta,
            alpha,
            list: *list,
            count,
            next: AtomicUsize::new(from),
            best: AtomicI32::new(pack(best, best >= alpha, best_sq)),
            cutoff: AtomicBool::new(false),
            failed: AtomicBool::new(false),
            workers: AtomicUsize::new(0),
            sel: (self.sel_flag, self.sel_moves, self.sel_empties),
        };
        let ptr = &sp as *const SplitPoint as *mut SplitPoint;
        let chain = Chain(ptr);
        let mut booked = 0;
        for (t, s) in pool.slots.iter().enumerate() {
            if t == self.id || !s.available.load(Ordering::Relaxed) {
                continue;
            }
            if s.available
                .compare_exchange(true, false, Ordering::AcqRel, Ordering::Relaxed)
                .is_err()
            {
                continue;
            }
            // Read after the claim: the owner changes it only while unavailable.
            let w = s.waiting_on.load(Ordering::Acquire);
            if !w.is_null() && !chain.contains(w) {
                s.available.store(true, Ordering::Release);
                continue;
            }
            sp.workers.fetch_add(1, Ordering::AcqRel);
            s.task.store(ptr, Ordering::Release);
            booked += 1;
        }
        if booked == 0 {
            return None;
        }
        self.work::<I>(&sp);
        let aborted = self.aborted;
        self.wait(&pool, ptr);
        self.aborted = aborted || sp.failed.load(Ordering::Acquire);
        let (score, sq) = unpack(sp.best.load(Ordering::Acquire));
        Some((score, sq))
    }

    /// Takes moves of `sp` until none is left or the node is cut off.
    fn work<const I: u8>(&mut self, sp: &SplitPoint) {
        let saved = (
            self.split_chain,
            self.sel_flag,
            self.sel_moves,
            self.sel_empties,
        );
        self.split_chain = Chain(sp);
        (self.sel_flag, self.sel_moves, self.sel_empties) = sp.sel;
        loop {
            let i = sp.next.fetch_add(1, Ordering::Relaxed);
            if i >= sp.count || sp.cutoff.load(Ordering::Relaxed) {
                break;
            }
            let a = sp.alpha();
            if a >= sp.beta {
                break;
            }
            let m = sp.list[i];
            let next = sp.board.play_flips(m.sq as usize, m.flips);
            let mut v = -self.search::<I>(next, -a - 1, -a, sp.n - 1);
            let mut known = v > a;
            if !self.aborted && v > a && v < sp.beta {
                // Alpha may have risen meanwhile: only a score above it matters.
                let lower = v.max(sp.alpha());
                if lower >= sp.beta {
                    break;
                }
                let r = -self.search::<I>(next, -sp.beta, -lower, sp.n - 1);
                // At or below `lower`: exact if that was this move's own bound.
                known = r > lower || lower == v;
                v = r;
            }
            if self.aborted {
                // A cut-off at this node is its result; anything else (a stop, a cut-off
                // above, or a split below that another thread's stop left unsolved) leaves
                // it unsolved.
                self.aborted =
                    !sp.cutoff.load(Ordering::Acquire) || self.stopped || Chain(sp.parent).cut();
                if self.aborted {
                    sp.failed.store(true, Ordering::Release);
                }
                break;
            }
            sp.best.fetch_max(pack(v, known, m.sq), Ordering::AcqRel);
            if v >= sp.beta {
                sp.cutoff.store(true, Ordering::Release);
                break;
            }
        }
        (
            self.split_chain,
            self.sel_flag,
            self.sel_moves,
            self.sel_empties,
        ) = saved;
    }

    fn work_any(&mut self, sp: &SplitPoint) {
        match self.isa {
            isa::AVX512 => self.work::<{ isa::AVX512 }>(sp),
            isa::AVX2 => self.work::<{ isa::AVX2 }>(sp),
            _ => self.work::<{ isa::PLAIN }>(sp),
        }
    }

    /// Waits until the helpers of `sp` (or, for a free helper with `sp` null, the end of
    /// the solve) are done, working on the split points it is given meanwhile.
    pub(super) fn wait(&mut self, pool: &Pool, sp: *mut SplitPoint) {
        let slot = &pool.slots[self.id];
        let aborted = self.aborted;
        slot.waiting_on.store(sp, Ordering::Release);
        slot.available.store(true, Ordering::Release);
        let mut spins = 0u32;
        loop {
            // Taken out of the mailbox at once: a wait inside the task must not see it.
            let task = slot.task.swap(std::ptr::null_mut(), Ordering::Acquire);
            if !task.is_null() {
                // SAFETY: the split point's maker waits for this thread to leave it.
                let t = unsafe { &*task };
                self.aborted = false;
                self.stopped = false;
                self.next_check = self.nodes + super::CHECK_INTERVAL;
                self.work_any(t);
                // A wait of its own inside the task left its split point here.
                slot.waiting_on.store(sp, Ordering::Release);
                slot.available.store(true, Ordering::Release);
                // Last: the maker may return (and free `t`) right after.
                t.workers.fetch_sub(1, Ordering::AcqRel);
                spins = 0;
                continue;
            }
            let over = if sp.is_null() {
                pool.done.load(Ordering::Acquire)
            } else {
                // SAFETY: `sp` is this thread's own split point, alive during the wait.
                unsafe { (*sp).workers.load(Ordering::Acquire) == 0 }
            };
            if over
                && slot
                    .available
                    .compare_exchange(true, false, Ordering::AcqRel, Ordering::Relaxed)
                    .is_ok()
            {
                break;
            }
            spins += 1;
            if spins.is_multiple_of(64) {
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        }
        self.aborted = aborted;
    }
}
