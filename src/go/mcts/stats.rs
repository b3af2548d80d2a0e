//! The search statistics of the tree's nodes, one vector per field (a structure of
//! arrays) indexed like the nodes. A node's children sit at adjacent indices, so `select`
//! reads their statistics straight into SIMD lanes: about a third of the tree's time went
//! into gathering them from whole nodes and scoring them one by one. Wins are counts (a
//! simulation is won or lost), exact in the `f32` of the urgency up to 2^24.
use std::ops::Range;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU16, AtomicU32};

use super::UCB_C;

/// Children scored together. Division and square root are correctly rounded in every SIMD
/// lane, and each lane does the same operations in the same order as one child alone
/// would, so the scores keep their bits whether a child falls in the vector part or in
/// the rest.
const BATCH: usize = 16;

/// A new node's prior knowledge, as virtual wins and visits.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Prior {
    pub wins: f32,
    pub visits: f32,
}

/// An `f32` kept as its bits, so that search threads can read and write it without a
/// lock.
#[derive(Default)]
#[repr(transparent)]
pub(super) struct AtomicF32(AtomicU32);

impl AtomicF32 {
    #[inline(always)]
    pub fn get(&self) -> f32 {
        f32::from_bits(self.0.load(Relaxed))
    }
    #[inline(always)]
    pub fn set(&self, x: f32) {
        self.0.store(x.to_bits(), Relaxed)
    }
    /// Adds `x` without losing another thread's addition.
    #[inline(always)]
    pub fn add(&self, x: f32) {
        let mut old = self.0.load(Relaxed);
        while let Err(now) =
            self.0
                .compare_exchange_weak(old, (f32::from_bits(old) + x).to_bits(), Relaxed, Relaxed)
        {
            old = now;
        }
    }
}

/// `n` values of `T`, all zero bytes, in memory that the operating system maps on first
/// touch: a tree's full capacity costs only the nodes it grows, and goes back to the
/// system when the tree is dropped (memory from the allocator's heap would be cleared
/// in full at every new tree).
pub(super) struct Zeroed<T: Zeroable> {
    ptr: std::ptr::NonNull<T>,
    len: usize,
}

// SAFETY: a `Zeroed` owns its values like a `Box<[T]>`.
unsafe impl<T: Zeroable + Send> Send for Zeroed<T> {}
// SAFETY: as above.
unsafe impl<T: Zeroable + Sync> Sync for Zeroed<T> {}

impl<T: Zeroable> Zeroed<T> {
    pub fn new(n: usize) -> Zeroed<T> {
        let bytes = std::mem::size_of::<T>()
            .checked_mul(n)
            .filter(|&b| b > 0 && b <= isize::MAX as usize)
            .expect("a tree's capacity fits the address space");
        let ptr = map_zeroed(bytes).cast::<T>();
        Zeroed { ptr, len: n }
    }
}

#[cfg(unix)]
fn map_zeroed(bytes: usize) -> std::ptr::NonNull<u8> {
    // SAFETY: an anonymous private mapping touches no existing memory; it is page-aligned
    // (enough for any `T` here) and reads as zeros.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            bytes,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        panic!("cannot map {bytes} bytes for the search tree");
    }
    std::ptr::NonNull::new(p.cast::<u8>()).expect("mmap gives no null mapping")
}

#[cfg(not(unix))]
fn map_zeroed(bytes: usize) -> std::ptr::NonNull<u8> {
    let layout = std::alloc::Layout::from_size_align(bytes, 4096).expect("valid layout");
    // SAFETY: the layout has a non-zero size.
    let p = unsafe { std::alloc::alloc_zeroed(layout) };
    std::ptr::NonNull::new(p).unwrap_or_else(|| std::alloc::handle_alloc_error(layout))
}

impl<T: Zeroable> Drop for Zeroed<T> {
    fn drop(&mut self) {
        let bytes = std::mem::size_of::<T>() * self.len;
        // SAFETY: the mapping (allocation) made in `new` with these bytes, used no more.
        #[cfg(unix)]
        unsafe {
            libc::munmap(self.ptr.as_ptr().cast(), bytes);
        }
        #[cfg(not(unix))]
        unsafe {
            let layout = std::alloc::Layout::from_size_align(bytes, 4096).expect("valid layout");
            std::alloc::dealloc(self.ptr.as_ptr().cast(), layout);
        }
    }
}

impl<T: Zeroable> std::ops::Deref for Zeroed<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `len` values of `T`, valid as all zeros (`Zeroable`), owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

/// Types whose all-zero bytes are a valid value (atomics, and structures of them).
///
/// # Safety
/// Implement only for types for which all-zero memory is a valid value.
pub(super) unsafe trait Zeroable {}
// SAFETY: atomics have the in-memory representation of their integer, for which zero is
// valid.
unsafe impl Zeroable for AtomicU32 {}
// SAFETY: as above.
unsafe impl Zeroable for AtomicU16 {}
// SAFETY: a transparent wrapper of an `AtomicU32`.
unsafe impl Zeroable for AtomicF32 {}

/// The statistics of a tree of a fixed capacity. Search threads update them without a
/// lock: a node's visits and wins with atomic additions, so none is lost; the RAVE counts
/// with plain loads and stores (an addition two threads make at the same instant may be
/// lost, as in Fuego's lock-free search: an estimate loses nothing by it, and it costs a
/// tenth of the atomic additions over every child of every node of a simulation).
/// Everything is `Relaxed`: a node's children are published by its state (`Release`).
pub(super) struct Stats {
    /// Simulations through the node, counted on the way down.
    pub visits: Zeroed<AtomicU32>,
    /// Wins for the player who made the node's move.
    pub wins: Zeroed<AtomicU32>,
    /// Simulations below the parent in which the node's player played the node's point
    /// first (all moves as first), and their wins.
    pub rave_visits: Zeroed<AtomicU32>,
    pub rave_wins: Zeroed<AtomicU32>,
    pub prior_visits: Zeroed<AtomicF32>,
    pub prior_wins: Zeroed<AtomicF32>,
    /// The point of the node's move, 0 (never on the board) for a pass or the root: what
    /// the RAVE update looks up in the simulation's first moves.
    pub point: Zeroed<AtomicU16>,
}

impl Stats {
    /// Room for `n` nodes, all unvisited, without priors.
    pub fn zeroed(n: usize) -> Stats {
        Stats {
            visits: Zeroed::new(n),
            wins: Zeroed::new(n),
            rave_visits: Zeroed::new(n),
            rave_wins: Zeroed::new(n),
            prior_visits: Zeroed::new(n),
            prior_wins: Zeroed::new(n),
            point: Zeroed::new(n),
        }
    }

    /// Makes node `i` one not visited yet, for a move at `point` (0 for a pass), before
    /// it is published.
    pub fn init(&self, i: usize, prior: Prior, point: u16) {
        self.visits[i].store(0, Relaxed);
        self.wins[i].store(0, Relaxed);
        self.rave_visits[i].store(0, Relaxed);
        self.rave_wins[i].store(0, Relaxed);
        self.point[i].store(point, Relaxed);
        self.prior_visits[i].set(prior.visits);
        self.prior_wins[i].set(prior.wins);
    }

    /// Makes node `i` a copy of node `j` of `from`.
    pub fn copy(&self, i: usize, from: &Stats, j: usize) {
        self.visits[i].store(from.visits[j].load(Relaxed), Relaxed);
        self.wins[i].store(from.wins[j].load(Relaxed), Relaxed);
        self.rave_visits[i].store(from.rave_visits[j].load(Relaxed), Relaxed);
        self.rave_wins[i].store(from.rave_wins[j].load(Relaxed), Relaxed);
        self.prior_visits[i].set(from.prior_visits[j].get());
        self.prior_wins[i].set(from.prior_wins[j].get());
        self.point[i].store(from.point[j].load(Relaxed), Relaxed);
    }

    pub fn visits(&self, i: usize) -> u32 {
        self.visits[i].load(Relaxed)
    }

    pub fn wins(&self, i: usize) -> u32 {
        self.wins[i].load(Relaxed)
    }

    /// Counts a simulation in the RAVE statistics of the nodes `kids`: those whose point
    /// `first` gives to `code` (the player to move at their parent, plus one) were played
    /// first by that player, and `won` says whether that player won.
    pub fn record_rave(&self, kids: Range<usize>, first: &[u8], code: u8, won: bool) {
        let win = u32::from(won);
        let points = &self.point[kids.clone()];
        let visits = &self.rave_visits[kids.clone()];
        let wins = &self.rave_wins[kids];
        for ((p, v), w) in points.iter().zip(visits).zip(wins) {
            if first[p.load(Relaxed) as usize] == code {
                v.store(v.load(Relaxed) + 1, Relaxed);
                w.store(w.load(Relaxed) + win, Relaxed);
            }
        }
    }

    /// The most urgent of the nodes `kids` (a parent's children) given the log of their
    /// parent's visits plus one: the first of equals, never one scored NaN (the first
    /// when all are).
    pub fn most_urgent(&self, kids: Range<usize>, log_parent: f32, rave_equiv: f32) -> usize {
        let mut best = kids.start;
        let mut best_u = f32::NEG_INFINITY;
        if self.visits.len() < BATCH {
            for i in kids {
                let u = self.lane(i).urgency(log_parent, rave_equiv);
                if u > best_u {
                    best_u = u;
                    best = i;
                }
            }
            return best;
        }
        let mut start = kids.start;
        while start < kids.end {
            // Always a whole batch, moved back when the vectors end sooner: the extra
            // lanes score other nodes, for nothing but the fixed length.
            let first = start.min(self.visits.len() - BATCH);
            let end = kids.end.min(first + BATCH);
            let mut scores = self.batch(first, log_parent, rave_equiv);
            scores[..start - first].fill(f32::NEG_INFINITY);
            scores[end - first..].fill(f32::NEG_INFINITY);
            // Lanes that are not children never win. The batch's best is the first
            // lane holding its greatest score, and it beats the earlier batches' only
            // when strictly greater: as if the children were compared one by one.
            let top = greatest(scores);
            if top > best_u {
                best_u = top;
                best = first + scores.iter().position(|&u| u == top).unwrap_or(0);
            }
            start = end;
        }
        best
    }

    /// The urgencies of nodes `first..first + BATCH`, in a loop of fixed length without
    /// branches, which the compiler vectorizes; minus infinity, which never wins, for
    /// NaN.
    fn batch(&self, first: usize, log_parent: f32, rave_equiv: f32) -> [f32; BATCH] {
        // Read into arrays of its own (plain loads: the atomics are `Relaxed`), from
        // which the compiler computes every lane without proving each address valid.
        fn lanes<T, U: Copy + Default>(v: &[T], first: usize, get: impl Fn(&T) -> U) -> [U; BATCH] {
            let mut out = [U::default(); BATCH];
            for (o, x) in out.iter_mut().zip(&v[first..first + BATCH]) {
                *o = get(x);
            }
            out
        }
        let visits = lanes(&self.visits, first, |x| x.load(Relaxed));
        let wins = lanes(&self.wins, first, |x| x.load(Relaxed));
        let rave_visits = lanes(&self.rave_visits, first, |x| x.load(Relaxed));
        let rave_wins = lanes(&self.rave_wins, first, |x| x.load(Relaxed));
        let prior_visits = lanes(&self.prior_visits, first, AtomicF32::get);
        let prior_wins = lanes(&self.prior_wins, first, AtomicF32::get);
        let mut scores = [0f32; BATCH];
        for (k, u) in scores.iter_mut().enumerate() {
            let x = Lane {
                visits: visits[k],
                wins: wins[k] as f32,
                rave_visits: rave_visits[k],
                rave_wins: rave_wins[k] as f32,
                prior_visits: prior_visits[k],
                prior_wins: prior_wins[k],
            }
            .urgency(log_parent, rave_equiv);
            *u = if x.is_nan() { f32::NEG_INFINITY } else { x };
        }
        scores
    }

    fn lane(&self, i: usize) -> Lane {
        Lane {
            visits: self.visits[i].load(Relaxed),
            wins: self.wins[i].load(Relaxed) as f32,
            rave_visits: self.rave_visits[i].load(Relaxed),
            rave_wins: self.rave_wins[i].load(Relaxed) as f32,
            prior_visits: self.prior_visits[i].get(),
            prior_wins: self.prior_wins[i].get(),
        }
    }
}

/// The greatest of `scores` (none NaN), in a few SIMD steps.
fn greatest(mut scores: [f32; BATCH]) -> f32 {
    let mut half = BATCH / 2;
    while half > 0 {
        for k in 0..half {
            let (a, b) = (scores[k], scores[k + half]);
            scores[k] = if a > b { a } else { b };
        }
        half /= 2;
    }
    scores[0]
}

/// One node's statistics, for scoring it.
struct Lane {
    visits: u32,
    wins: f32,
    rave_visits: u32,
    rave_wins: f32,
    prior_visits: f32,
    prior_wins: f32,
}

impl Lane {
    /// The node's RAVE value mixed with its mean, plus the UCB exploration term.
    #[inline(always)]
    fn urgency(&self, log_parent: f32, rave_equiv: f32) -> f32 {
        let v = self.visits as f32 + self.prior_visits;
        let mean = (self.wins + self.prior_wins) / v;
        // Both computed, one picked: no branch in the vector loop.
        let av = self.rave_visits as f32;
        let beta = av / (av + v + v * av / rave_equiv);
        let mixed = beta * (self.rave_wins / av) + (1.0 - beta) * mean;
        let value = if self.rave_visits == 0 { mean } else { mixed };
        value + UCB_C * (log_parent / v).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// The urgency as it was computed one child at a time before the batches.
    fn urgency_alone(s: &Stats, i: usize, log_parent: f32, rave_equiv: f32) -> f32 {
        let v = s.visits(i) as f32 + s.prior_visits[i].get();
        let mean = (s.wins(i) as f32 + s.prior_wins[i].get()) / v;
        let rave_visits = s.rave_visits[i].load(Relaxed);
        let value = if rave_visits == 0 {
            mean
        } else {
            let av = rave_visits as f32;
            let beta = av / (av + v + v * av / rave_equiv);
            beta * (s.rave_wins[i].load(Relaxed) as f32 / av) + (1.0 - beta) * mean
        };
        value + UCB_C * (log_parent / v).sqrt()
    }

    #[test]
    fn batches_choose_as_one_child_at_a_time_would() {
        let mut rng = SmallRng::seed_from_u64(3);
        for round in 0..400 {
            let n = rng.gen_range(1..80);
            // Unrelated nodes before the children, as in a tree, and sometimes after.
            let offset = rng.gen_range(0..5);
            let after = rng.gen_range(0..3) * rng.gen_range(0..10);
            let s = Stats::zeroed(offset + n + after);
            for i in 0..offset + n {
                // Pass nodes without priors score NaN until visited; ties are common.
                let prior = match rng.gen_range(0..8) {
                    0 => Prior::default(),
                    1 => Prior {
                        wins: 5.0,
                        visits: 10.0,
                    },
                    _ => Prior {
                        wins: rng.gen_range(0.0..40.0f32).floor(),
                        visits: rng.gen_range(10.0..60.0f32).floor() + 40.0,
                    },
                };
                s.init(i, prior, 0);
                if rng.gen_bool(0.7) {
                    let visits = rng.gen_range(0..5000);
                    s.visits[i].store(visits, Relaxed);
                    s.wins[i].store(rng.gen_range(0..=visits), Relaxed);
                    let rave = rng.gen_range(0..20000);
                    s.rave_visits[i].store(rave, Relaxed);
                    s.rave_wins[i].store(rng.gen_range(0..=rave), Relaxed);
                }
            }
            let kids = offset..offset + n;
            for i in offset + n..offset + n + after {
                s.init(
                    i,
                    Prior {
                        wins: 1.0,
                        visits: 2.0,
                    },
                    0,
                );
            }
            let log_parent = (rng.gen_range(1..100_000u32) as f32).ln();
            let rave_equiv = if round % 2 == 0 { 3500.0 } else { 150.0 };
            let mut best = kids.start;
            let mut best_u = f32::NEG_INFINITY;
            for i in kids.clone() {
                let u = urgency_alone(&s, i, log_parent, rave_equiv);
                if u > best_u {
                    best_u = u;
                    best = i;
                }
            }
            assert_eq!(s.most_urgent(kids.clone(), log_parent, rave_equiv), best);
            for i in kids.clone() {
                let (a, b) = (
                    s.lane(i).urgency(log_parent, rave_equiv),
                    urgency_alone(&s, i, log_parent, rave_equiv),
                );
                assert!(a.to_bits() == b.to_bits() || a.is_nan() && b.is_nan());
            }
        }
    }

    #[test]
    fn float_additions_from_several_threads_are_all_counted() {
        let x = AtomicF32::default();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| (0..10_000).for_each(|_| x.add(0.5)));
            }
        });
        assert_eq!(x.get(), 20_000.0);
    }
}
