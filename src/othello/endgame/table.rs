//! The endgame transposition table: exact disc pairs as keys, score bounds and the best
//! move as values, shared by the threads of a parallel solve without locks.
use crate::othello::board::Board;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

#[derive(Clone, Copy, Default)]
pub(super) struct Entry {
    pub(super) lower: i8,
    pub(super) upper: i8,
    pub(super) best: u8,
    pub(super) empties: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        (self.lower as u8 as u64)
            | (self.upper as u8 as u64) << 8
            | (self.best as u64) << 16
            | (self.empties as u64) << 24
    }

    fn unpack(d: u64) -> Entry {
        Entry {
            lower: d as u8 as i8,
            upper: (d >> 8) as u8 as i8,
            best: (d >> 16) as u8,
            empties: (d >> 24) as u8,
        }
    }
}

/// One slot as three words: the discs each XOR-ed with the data, and the data. Threads
/// write slots without locks; a slot torn by two writers no longer decodes to the
/// position probed and reads as a miss (Hyatt and Mann's lockless hashing).
#[derive(Default)]
struct Slot([AtomicU64; 3]);

impl Slot {
    /// The discs and the data, as read (possibly torn; the caller checks the discs).
    #[inline(always)]
    fn read(&self) -> (u64, u64, u64) {
        let d = self.0[2].load(Relaxed);
        (self.0[0].load(Relaxed) ^ d, self.0[1].load(Relaxed) ^ d, d)
    }

    #[inline(always)]
    fn write(&self, p: u64, o: u64, d: u64) {
        self.0[0].store(p ^ d, Relaxed);
        self.0[1].store(o ^ d, Relaxed);
        self.0[2].store(d, Relaxed);
    }
}

/// Two slots (48 bytes) padded to one cache line: unaligned 48-byte buckets straddled
/// two lines a third of the time, and table probes are cache misses (half the time of the
/// table-backed nodes on FFO #48).
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; 2]);

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
        slots.resize_with(n + extra, Bucket::default);
        EndTable {
            slots,
            start,
            mask: n - 1,
        }
    }

    /// Empties every slot (not while a solve runs on the table).
    pub fn clear(&self) {
        for bucket in &self.slots {
            for slot in &bucket.0 {
                slot.write(0, 0, 0);
            }
        }
    }

    #[inline(always)]
    fn index(&self, b: &Board) -> usize {
        self.start + (b.hash() as usize & self.mask)
    }

    #[inline]
    pub(super) fn probe(&self, b: &Board) -> Option<Entry> {
        let bucket = &self.slots[self.index(b)].0;
        bucket.iter().find_map(|s| {
            let (p, o, d) = s.read();
            (p == b.p && o == b.o && (p | o) != 0).then(|| Entry::unpack(d))
        })
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
    pub(super) fn store(&self, b: &Board, lower: i32, upper: i32, best: u8, empties: u32) {
        let bucket = &self.slots[self.index(b)].0;
        let d = Entry {
            lower: lower as i8,
            upper: upper as i8,
            best,
            empties: empties as u8,
        }
        .pack();
        let (p0, o0, d0) = bucket[0].read();
        if (p0 == b.p && o0 == b.o)
            || Entry::unpack(d0).empties as u32 & EMPTIES_MASK <= empties & EMPTIES_MASK
        {
            bucket[0].write(b.p, b.o, d);
        } else {
            bucket[1].write(b.p, b.o, d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_back_and_a_torn_slot_is_a_miss() {
        let t = EndTable::new(1);
        let b = Board::start();
        assert!(t.probe(&b).is_none());
        t.store(&b, -12, 40, 19, 60);
        let e = t.probe(&b).unwrap();
        assert_eq!((e.lower, e.upper, e.best, e.empties), (-12, 40, 19, 60));
        // Half of another write lands on the slot: the discs no longer decode.
        let slot = &t.slots[t.index(&b)].0[0];
        slot.0[2].store(Entry::default().pack() ^ 0x0101, Relaxed);
        assert!(t.probe(&b).is_none());
        t.clear();
        assert!(t.probe(&b).is_none());
    }
}
