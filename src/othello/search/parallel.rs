//! Parallel midgame search by young brothers wait (YBWC), as the solver's
//! (`endgame::parallel`): at a node with `split_min` plies or more left, once its first
//! move has been searched without a cut-off, the other moves are handed out one at a time,
//! from an atomic counter, to this thread and every idle helper, each searched with a null
//! window and re-searched by the thread that found it inside the window. A cut-off found by
//! any of them stops the others' work below that node. All threads share the `MidTable`.
//!
//! The split point lives on the stack of the thread that made it, which does not return
//! before every helper has left it. While it waits it may itself help, but only at split
//! points below its own, so it is free again as soon as its own helpers are done.
use super::{Move, Searcher, INF};
use crate::othello::board::Board;
use crate::othello::isa;
use crate::othello::pattern_incr::Features;
use crate::search::{Limits, Poller};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, AtomicUsize, Ordering};

/// The helpers of one parallel search.
pub(super) struct Pool {
    slots: Box<[Slot]>,
    /// Set when the search is over: idle helpers return.
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

    /// Whether some thread other than `id` waits for work.
    #[inline]
    pub(super) fn idle(&self, id: usize) -> bool {
        self.slots
            .iter()
            .enumerate()
            .any(|(t, s)| t != id && s.available.load(Ordering::Relaxed))
    }

    pub(super) fn finish(&self) {
        self.done.store(true, Ordering::Release);
    }
}

/// A node whose remaining moves several threads search.
pub(super) struct SplitPoint {
    parent: *const SplitPoint,
    board: Board,
    /// The node's pattern features (read only by the copies that keep them).
    feats: Features,
    depth: u32,
    ply: usize,
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
    (score + 2 * INF) << 9 | (known as i32) << 8 | sq as i32
}

fn unpack(x: i32) -> (i32, u8) {
    ((x >> 9) - 2 * INF, x as u8)
}

impl SplitPoint {
    fn alpha(&self) -> i32 {
        self.alpha.max(unpack(self.best.load(Ordering::Relaxed)).0)
    }
}

impl Searcher {
    /// Searches moves `from..count` of `list` (all of them ordered already) at node `b`
    /// with helpers, after the moves before gave `best`/`best_sq`; `None` when no helper is
    /// free (the caller goes on alone). The result is the node's best score and move,
    /// meaningless when `aborted` is set.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(super) fn split<const I: u8, const F: bool>(
        &mut self,
        b: &Board,
        list: &[Move; 34],
        from: usize,
        count: usize,
        (alpha, beta): (i32, i32),
        (best, best_sq): (i32, u8),
        depth: u32,
        ply: usize,
        poller: &mut Poller<'_>,
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
        let sp = SplitPoint {
            parent: self.split_chain.0,
            board: *b,
            feats: self.feats[ply],
            depth,
            ply,
            beta,
            alpha,
            list: *list,
            count,
            next: AtomicUsize::new(from),
            best: AtomicI32::new(pack(best, best >= alpha, best_sq)),
            cutoff: AtomicBool::new(false),
            failed: AtomicBool::new(false),
            workers: AtomicUsize::new(0),
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
        self.work::<I, F>(&sp, poller);
        let (aborted, stopped) = (self.aborted, self.stopped);
        self.wait(&pool, ptr, poller);
        self.aborted = aborted || sp.failed.load(Ordering::Acquire);
        self.stopped = stopped;
        Some(unpack(sp.best.load(Ordering::Acquire)))
    }

    /// Takes moves of `sp` until none is left or the node is cut off.
    fn work<const I: u8, const F: bool>(&mut self, sp: &SplitPoint, poller: &mut Poller<'_>) {
        let saved = self.split_chain;
        self.split_chain = Chain(sp);
        if F {
            self.feats[sp.ply] = sp.feats;
        }
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
            if F {
                self.feats[sp.ply + 1] =
                    sp.feats
                        .play(&sp.board, m.sq as usize, m.flips, self.powers);
            }
            let (d, ply) = (sp.depth - 1, sp.ply + 1);
            let mut v = -self.pvs::<I, F>(&next, d, -a - 1, -a, ply, poller);
            let mut known = v > a;
            if !self.aborted && v > a && v < sp.beta {
                // Alpha may have risen meanwhile: only a score above it matters.
                let lower = sp.alpha();
                if lower >= sp.beta {
                    break;
                }
                let r = -self.pvs::<I, F>(&next, d, -sp.beta, -lower, ply, poller);
                known = r > lower;
                v = r;
            }
            if self.aborted {
                // A cut-off at this node is its result; anything else (a stop, a cut-off
                // above, or a split below that another thread's stop left unfinished) leaves
                // it unfinished.
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
        self.split_chain = saved;
    }

    fn work_any(&mut self, sp: &SplitPoint, poller: &mut Poller<'_>) {
        per_copy!(self, work(sp, poller))
    }

    /// Waits until the helpers of `sp` (or, for a free helper with `sp` null, the end of
    /// the search) are done, working on the split points it is given meanwhile.
    pub(super) fn wait(&mut self, pool: &Pool, sp: *mut SplitPoint, poller: &mut Poller<'_>) {
        let slot = &pool.slots[self.id];
        let (aborted, stopped) = (self.aborted, self.stopped);
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
                self.work_any(t, poller);
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
        (self.aborted, self.stopped) = (aborted, stopped);
    }

    /// A free helper of a parallel search: works on the split points it is given until the
    /// search is over; returns its node count.
    pub(super) fn serve(&mut self, pool: &Pool, limits: &Limits) -> u64 {
        let mut poller = limits.poller();
        self.nodes = 0;
        self.wait(pool, std::ptr::null_mut(), &mut poller);
        self.nodes
    }
}
