//! The endgame transposition table: exact disc pairs as keys, score bounds and the best
//! move as values.
use crate::othello::board::Board;

#[derive(Clone, Copy, Default)]
pub(super) struct Entry {
    p: u64,
    o: u64,
    pub(super) lower: i8,
    pub(super) upper: i8,
    pub(super) best: u8,
    pub(super) empties: u8,
}

/// Two entries (48 bytes) padded to one cache line: unaligned 48-byte buckets straddled
/// two lines a third of the time, and table probes are cache misses (half the time of the
/// table-backed nodes on FFO #48).
#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct Bucket([Entry; 2]);

/// A two-slot-per-bucket table keyed by the exact disc pair: slot 0 keeps the deepest
/// entry, slot 1 always takes the newest.
pub struct EndTable {
    /// The buckets in use are `slots[start..start + mask + 1]`, the first of them on a
    /// huge-page boundary (see `new`).
    slots: Vec<Bucket>,
    start: usize,
    mask: usize,
}

/// The empties of an entry without the selective-pass marks (`super::SELECTIVE_MARKS`).
pub(super) const EMPTIES_MASK: u32 = 0x3f;

/// Transparent huge page size on x86-64 Linux.
const HUGE_PAGE: usize = 2 << 20;

impl EndTable {
    /// A table of the largest power-of-two bucket count within `mb` megabytes.
    ///
    /// Every probe lands on a random bucket, so with 4 KB pages nearly each one also
    /// misses the TLB; on 2 MB pages the whole table fits the TLB. The buckets are placed
    /// on a 2 MB boundary and the kernel is asked for huge pages before they are touched
    /// (the prefetches of the children's buckets stalled on page walks: 14% of FFO #48).
    pub fn new(mb: usize) -> EndTable {
        let bytes = mb.max(1) << 20;
        let fit = bytes / std::mem::size_of::<Bucket>();
        let n = if fit.is_power_of_two() {
            fit
        } else {
            fit.next_power_of_two() / 2
        };
        let extra = HUGE_PAGE / std::mem::size_of::<Bucket>();
        let mut slots: Vec<Bucket> = Vec::with_capacity(n + extra);
        let addr = slots.as_ptr() as usize;
        let start = (addr.next_multiple_of(HUGE_PAGE) - addr) / std::mem::size_of::<Bucket>();
        #[cfg(target_os = "linux")]
        // SAFETY: the range lies inside the vector's allocation; MADV_HUGEPAGE is only
        // advice and changes no contents.
        unsafe {
            libc::madvise(
                slots.as_mut_ptr().add(start) as *mut libc::c_void,
                n * std::mem::size_of::<Bucket>(),
                libc::MADV_HUGEPAGE,
            );
        }
        slots.resize(n + extra, Bucket::default());
        EndTable {
            slots,
            start,
            mask: n - 1,
        }
    }

    pub fn clear(&mut self) {
        self.slots.fill(Bucket::default());
    }

    #[inline(always)]
    fn index(&self, b: &Board) -> usize {
        self.start + (b.hash() as usize & self.mask)
    }

    #[inline]
    pub(super) fn probe(&self, b: &Board) -> Option<Entry> {
        let bucket = &self.slots[self.index(b)].0;
        bucket
            .iter()
            .find(|e| e.p == b.p && e.o == b.o && (e.p | e.o) != 0)
            .copied()
    }

    /// Starts loading the bucket of `b` into the cache, so that a probe issued a little
    /// later (after the move ordering work) does not wait for memory.
    #[inline(always)]
    pub(super) fn prefetch(&self, b: &Board) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket = &self.slots[self.index(b)];
            // SAFETY: a prefetch is only a hint; the address is a valid reference.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    bucket as *const Bucket as *const i8,
                )
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = b;
    }

    #[inline]
    pub(super) fn store(&mut self, b: &Board, lower: i32, upper: i32, best: u8, empties: u32) {
        let i = self.index(b);
        let bucket = &mut self.slots[i].0;
        let e = Entry {
            p: b.p,
            o: b.o,
            lower: lower as i8,
            upper: upper as i8,
            best,
            empties: empties as u8,
        };
        if (bucket[0].p == b.p && bucket[0].o == b.o)
            || bucket[0].empties as u32 & EMPTIES_MASK <= empties & EMPTIES_MASK
        {
            bucket[0] = e;
        } else {
            bucket[1] = e;
        }
    }
}
