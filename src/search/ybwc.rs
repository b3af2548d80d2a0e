//! Young brothers wait (YBWC), the part every alpha-beta search shares: once the first move
//! of a node has been searched without a cut-off, the other moves are handed out one at a
//! time, from an atomic counter, to the thread that made the split and every idle helper.
//! Each move gets a null window, and a re-search by the thread that found it inside the
//! window. A cut-off found by any of them stops the others' work below that node.
//!
//! The split point lives on the stack of the thread that made it, which does not return
//! before every helper has left it. While it waits it may itself help, but only at split
//! points below its own (made by the threads working for it), so it is free again as soon
//! as its own helpers are done.
//!
//! A search takes part through `Worker`: the node state a split point carries, how a thread
//! adopts it and searches one of its moves. Everything is generic over it (no dynamic calls
//! and no locks or allocation while searching).
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, AtomicUsize, Ordering};
use std::sync::Arc;

/// What a search gives the shared machinery; implemented by a view of the searcher for one
/// compiled copy of its search, so that every call is static.
pub trait Worker: Sized {
    /// What a split point carries of its node: the position, its ordered moves and whatever
    /// else a thread must adopt to search them.
    type Node: Sync;
    /// A position after one of the node's moves, ready to search.
    type Child;
    /// What a thread saves of its own state while it works at a split point (`adopt`).
    type Saved;
    /// Whether a null-window score above alpha is a bound the re-search may start from
    /// (else it starts from the split point's alpha: a selective search need not agree
    /// with itself).
    const RESEARCH_FROM_SCORE: bool;

    /// This thread's place among the threads.
    fn seat(&mut self) -> &mut Seat<Self::Node>;
    /// The search was cut short (a stop, the deadline or a cut-off above): its result is
    /// meaningless.
    fn aborted(&mut self) -> &mut bool;
    /// The stop token or the deadline ended the search.
    fn stopped(&mut self) -> &mut bool;
    /// Readies a thread for a task handed to it while it waits.
    fn begin_task(&mut self) {}
    /// Takes the node's state for searching its moves; `restore` undoes it.
    fn adopt(&mut self, node: &Self::Node) -> Self::Saved;
    fn restore(&mut self, saved: Self::Saved);
    /// Plays move `i` of the node: the child and the move's code (`< 256`).
    fn play(&mut self, node: &Self::Node, i: usize) -> (Self::Child, u8);
    /// The score of the node through `child` within (alpha, beta), from the node's side.
    fn search(&mut self, node: &Self::Node, child: &Self::Child, alpha: i32, beta: i32) -> i32;
}

/// The helpers of one parallel search.
pub struct Pool<N> {
    slots: Box<[Slot<N>]>,
    /// Set when the search is over: idle helpers return.
    done: AtomicBool,
}

/// One thread's mailbox.
#[repr(align(64))]
struct Slot<N> {
    /// The thread waits for work and may be given some (claimed by a compare-exchange).
    available: AtomicBool,
    /// The split point whose helpers the thread waits for (null for a free helper): only
    /// work below it may be given to it.
    waiting_on: AtomicPtr<SplitPoint<N>>,
    /// The split point given to the thread.
    task: AtomicPtr<SplitPoint<N>>,
}

impl<N> Pool<N> {
    pub fn new(threads: usize) -> Pool<N> {
        Pool {
            slots: (0..threads)
                .map(|_| Slot {
                    available: AtomicBool::new(false),
                    waiting_on: AtomicPtr::new(std::ptr::null_mut()),
                    task: AtomicPtr::new(std::ptr::null_mut()),
                })
                .collect(),
            done: AtomicBool::new(false),
        }
    }

    /// Ends the search: free helpers return from `serve`.
    pub fn finish(&self) {
        self.done.store(true, Ordering::Release);
    }

    /// Whether some thread other than `id` waits for work.
    #[inline]
    fn idle(&self, id: usize) -> bool {
        self.slots
            .iter()
            .enumerate()
            .any(|(t, s)| t != id && s.available.load(Ordering::Relaxed))
    }
}

/// Ends the helpers of a pool however the search ends (a panic included: a thread scope
/// joins them before it unwinds).
pub struct Finish<'a, N>(pub &'a Pool<N>);

impl<N> Drop for Finish<'_, N> {
    fn drop(&mut self) {
        self.0.finish();
    }
}

/// A thread's place among the threads of a parallel search.
pub struct Seat<N> {
    /// The helpers of the running parallel search (`None`: the search runs alone).
    pub pool: Option<Arc<Pool<N>>>,
    /// This thread's mailbox in `pool`.
    pub id: usize,
    /// The split point this thread works under, if any.
    pub chain: Chain<N>,
}

impl<N> Seat<N> {
    /// Alone, until a parallel search gives it a pool.
    pub const ALONE: Seat<N> = Seat {
        pool: None,
        id: 0,
        chain: Chain::NONE,
    };

    /// Mailbox `id` of `pool`.
    pub fn in_pool(id: usize, pool: Arc<Pool<N>>) -> Seat<N> {
        Seat {
            pool: Some(pool),
            id,
            chain: Chain::NONE,
        }
    }

    /// Whether a parallel search runs and some other thread waits for work.
    #[inline(always)]
    pub fn others_idle(&self) -> bool {
        self.pool.as_ref().is_some_and(|p| p.idle(self.id))
    }

    /// Whether a cut-off at a split point above ends this thread's work.
    #[inline(always)]
    pub fn cut_above(&self) -> bool {
        !self.chain.0.is_null() && self.chain.cut()
    }
}

/// A node whose remaining moves several threads search.
pub struct SplitPoint<N> {
    parent: *const SplitPoint<N>,
    node: N,
    beta: i32,
    /// Alpha when the split was made.
    alpha: i32,
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
unsafe impl<N: Sync> Sync for SplitPoint<N> {}

/// The innermost split point a thread works under (null: none).
pub struct Chain<N>(*const SplitPoint<N>);

impl<N> Clone for Chain<N> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<N> Copy for Chain<N> {}

// SAFETY: a chain is only followed while the split points on it are alive (see `Sync`).
unsafe impl<N> Send for Chain<N> {}

impl<N> Chain<N> {
    pub const NONE: Chain<N> = Chain(std::ptr::null());

    /// Whether some split point on the chain was cut off.
    #[inline]
    pub fn cut(self) -> bool {
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

    fn contains(self, x: *const SplitPoint<N>) -> bool {
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

/// A score and its move for `fetch_max` (scores within ±2^22). `known` marks a score the
/// move is known to reach (exact or a lower bound): at equal scores it beats an upper
/// bound, whose move may be worse, so the best move is one that reaches the best score.
fn pack(score: i32, known: bool, sq: u8) -> i32 {
    debug_assert!(score.unsigned_abs() < 1 << 22);
    score << 9 | (known as i32) << 8 | sq as i32
}

fn unpack(x: i32) -> (i32, u8) {
    (x >> 9, x as u8)
}

impl<N> SplitPoint<N> {
    fn alpha(&self) -> i32 {
        self.alpha.max(unpack(self.best.load(Ordering::Relaxed)).0)
    }
}

/// Searches moves `from..count` of `node` (made by `node()` only when a helper is free, its
/// moves ordered already) with helpers, after the moves before gave `best`/`best_sq`;
/// `None` when no helper is free (the caller goes on alone). The result is the node's best
/// score and move, meaningless when the worker is left aborted.
#[inline(never)]
pub fn split<W: Worker>(
    w: &mut W,
    node: impl FnOnce(&mut W) -> W::Node,
    (from, count): (usize, usize),
    (alpha, beta): (i32, i32),
    (best, best_sq): (i32, u8),
) -> Option<(i32, u8)> {
    let seat = w.seat();
    let pool = seat.pool.clone()?;
    let (id, parent) = (seat.id, seat.chain);
    let free = |s: &Slot<W::Node>| {
        if !s.available.load(Ordering::Relaxed) {
            return false;
        }
        let wt = s.waiting_on.load(Ordering::Acquire);
        wt.is_null() || parent.contains(wt)
    };
    if !pool.slots.iter().any(free) {
        return None;
    }
    // The first move reached `best` if it raised alpha to it (a fail-low move never
    // decides the best move of a node that cuts or is exact).
    let sp = SplitPoint {
        parent: parent.0,
        node: node(w),
        beta,
        alpha,
        count,
        next: AtomicUsize::new(from),
        best: AtomicI32::new(pack(best, best >= alpha, best_sq)),
        cutoff: AtomicBool::new(false),
        failed: AtomicBool::new(false),
        workers: AtomicUsize::new(0),
    };
    let ptr = &sp as *const SplitPoint<W::Node> as *mut SplitPoint<W::Node>;
    let chain = Chain(ptr as *const _);
    let mut booked = 0;
    for (t, s) in pool.slots.iter().enumerate() {
        if t == id || !s.available.load(Ordering::Relaxed) {
            continue;
        }
        if s.available
            .compare_exchange(true, false, Ordering::AcqRel, Ordering::Relaxed)
            .is_err()
        {
            continue;
        }
        // Read after the claim: the owner changes it only while unavailable.
        let wt = s.waiting_on.load(Ordering::Acquire);
        if !wt.is_null() && !chain.contains(wt) {
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
    work(w, &sp);
    let (aborted, stopped) = (*w.aborted(), *w.stopped());
    wait(w, &pool, ptr);
    *w.aborted() = aborted || sp.failed.load(Ordering::Acquire);
    *w.stopped() = stopped;
    Some(unpack(sp.best.load(Ordering::Acquire)))
}

/// Takes moves of `sp` until none is left or the node is cut off.
fn work<W: Worker>(w: &mut W, sp: &SplitPoint<W::Node>) {
    let chain = std::mem::replace(&mut w.seat().chain, Chain(sp));
    let saved = w.adopt(&sp.node);
    loop {
        let i = sp.next.fetch_add(1, Ordering::Relaxed);
        if i >= sp.count || sp.cutoff.load(Ordering::Relaxed) {
            break;
        }
        let a = sp.alpha();
        if a >= sp.beta {
            break;
        }
        let (child, sq) = w.play(&sp.node, i);
        let mut v = w.search(&sp.node, &child, a, a + 1);
        let mut known = v > a;
        if !*w.aborted() && v > a && v < sp.beta {
            // Alpha may have risen meanwhile: only a score above it matters.
            let lower = if W::RESEARCH_FROM_SCORE {
                v.max(sp.alpha())
            } else {
                sp.alpha()
            };
            if lower >= sp.beta {
                break;
            }
            let r = w.search(&sp.node, &child, lower, sp.beta);
            // At or below `lower`: exact if that was this move's own bound.
            known = r > lower || (W::RESEARCH_FROM_SCORE && lower == v);
            v = r;
        }
        if *w.aborted() {
            // A cut-off at this node is its result; anything else (a stop, a cut-off
            // above, or a split below that another thread's stop left unfinished) leaves
            // it unfinished.
            let failed =
                !sp.cutoff.load(Ordering::Acquire) || *w.stopped() || Chain(sp.parent).cut();
            *w.aborted() = failed;
            if failed {
                sp.failed.store(true, Ordering::Release);
            }
            break;
        }
        sp.best.fetch_max(pack(v, known, sq), Ordering::AcqRel);
        if v >= sp.beta {
            sp.cutoff.store(true, Ordering::Release);
            break;
        }
    }
    w.restore(saved);
    w.seat().chain = chain;
}

/// A free helper of a parallel search: works on the split points it is given until the
/// search is over (`Pool::finish`).
pub fn serve<W: Worker>(w: &mut W) {
    let pool = w.seat().pool.clone().expect("a helper has a pool");
    wait(w, &pool, std::ptr::null_mut());
}

/// Waits until the helpers of `sp` (or, for a free helper with `sp` null, the end of the
/// search) are done, working on the split points it is given meanwhile.
fn wait<W: Worker>(w: &mut W, pool: &Pool<W::Node>, sp: *mut SplitPoint<W::Node>) {
    let slot = &pool.slots[w.seat().id];
    let (aborted, stopped) = (*w.aborted(), *w.stopped());
    slot.waiting_on.store(sp, Ordering::Release);
    slot.available.store(true, Ordering::Release);
    let mut spins = 0u32;
    loop {
        // Taken out of the mailbox at once: a wait inside the task must not see it.
        let task = slot.task.swap(std::ptr::null_mut(), Ordering::Acquire);
        if !task.is_null() {
            // SAFETY: the split point's maker waits for this thread to leave it.
            let t = unsafe { &*task };
            *w.aborted() = false;
            *w.stopped() = false;
            w.begin_task();
            work(w, t);
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
    (*w.aborted(), *w.stopped()) = (aborted, stopped);
}

#[cfg(test)]
mod tests {
    use super::{pack, unpack};

    #[test]
    fn packed_scores_order_as_the_scores() {
        let scores = [-10_001, -6_400, -65, -1, 0, 1, 64, 10_001];
        for &s in &scores {
            for sq in [0u8, 7, 63, 255] {
                assert_eq!(unpack(pack(s, true, sq)), (s, sq));
                assert_eq!(unpack(pack(s, false, sq)), (s, sq));
            }
        }
        for w in scores.windows(2) {
            // A higher score wins whatever the moves and whether known.
            assert!(pack(w[0], true, 255) < pack(w[1], false, 0));
        }
        // At equal scores, a known score beats an upper bound.
        assert!(pack(-3, false, 255) < pack(-3, true, 0));
    }
}
