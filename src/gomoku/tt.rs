//! A fixed-size transposition table: one entry per slot, always replaced (depth-preferred
//! schemes measured no better at these search depths), 16 bytes per entry.
//!
//! Shared by the search threads without locks: an entry is two relaxed atomic words, the
//! data and the key XOR-ed with the data, so a slot half overwritten by another thread
//! reads as a miss instead of a wrong entry (Hyatt and Mann's lockless hashing).
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::board::Point;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u64,
    pub score: i32,
    pub mv: Point,
    pub depth: u8,
    pub bound: Bound,
}

/// Set in the data word of every stored entry: an empty slot (all zero) is never a hit,
/// whatever the key.
const USED: u64 = 1 << 63;

impl Entry {
    /// Score in bits 0-31, move 32-47, depth 48-55, bound 56-57, [`USED`].
    #[inline]
    fn pack(&self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        (self.score as u32 as u64)
            | (self.mv as u64) << 32
            | (self.depth as u64) << 48
            | bound << 56
            | USED
    }

    #[inline]
    fn unpack(key: u64, data: u64) -> Entry {
        Entry {
            key,
            score: data as u32 as i32,
            mv: (data >> 32) as Point,
            depth: (data >> 48) as u8,
            bound: match (data >> 56) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
        }
    }
}

struct Slot {
    /// The key XOR-ed with `data`.
    check: AtomicU64,
    data: AtomicU64,
}

pub struct Tt {
    slots: Box<[Slot]>,
    mask: usize,
}

impl Tt {
    /// A table of at most `mb` MiB (at least 1024 entries), a power of two of entries.
    pub fn new(mb: usize) -> Tt {
        let bytes = mb.max(1) * 1024 * 1024;
        let per = std::mem::size_of::<Slot>();
        let mut n = 1024;
        while n * 2 * per <= bytes {
            n *= 2;
        }
        Tt {
            slots: (0..n)
                .map(|_| Slot {
                    check: AtomicU64::new(0),
                    data: AtomicU64::new(0),
                })
                .collect(),
            mask: n - 1,
        }
    }

    /// Empties the table (call only while no search uses it).
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s.data.store(0, Relaxed);
            s.check.store(0, Relaxed);
        }
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = &self.slots[key as usize & self.mask];
        let data = slot.data.load(Relaxed);
        let check = slot.check.load(Relaxed);
        (data & USED != 0 && check ^ data == key).then(|| Entry::unpack(key, data))
    }

    #[inline]
    pub fn store(&self, key: u64, score: i32, depth: u8, bound: Bound, mv: Point) {
        let slot = &self.slots[key as usize & self.mask];
        if bound != Bound::Exact {
            if let Some(e) = self.probe(key) {
                if e.depth > depth {
                    return;
                }
            }
        }
        let data = Entry {
            key,
            score,
            mv,
            depth,
            bound,
        }
        .pack();
        slot.data.store(data, Relaxed);
        slot.check.store(key ^ data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_back_as_stored() {
        let tt = Tt::new(1);
        for (i, (score, bound)) in [
            (-1_000_000 - 1, Bound::Upper),
            (0, Bound::Exact),
            (999_123, Bound::Lower),
            (-7, Bound::Exact),
        ]
        .into_iter()
        .enumerate()
        {
            let key = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1);
            assert!(tt.probe(key).is_none());
            tt.store(key, score, 40 + i as u8, bound, 224 - i as Point);
            let e = tt.probe(key).expect("stored");
            assert_eq!(
                (e.key, e.score, e.depth, e.bound, e.mv),
                (key, score, 40 + i as u8, bound, 224 - i as Point)
            );
            // Another key in the same slot misses.
            assert!(tt.probe(key ^ (1 << 40)).is_none());
        }
        // A key of zero misses in an empty slot.
        assert!(tt.probe(0).is_none());
        tt.clear();
        assert!(tt.probe(0x9E37_79B9_7F4A_7C15).is_none());
    }

    #[test]
    fn a_shallower_bound_does_not_replace_a_deeper_entry_of_the_same_key() {
        let tt = Tt::new(1);
        tt.store(5, 10, 6, Bound::Lower, 3);
        tt.store(5, 20, 4, Bound::Upper, 4);
        assert_eq!(tt.probe(5).map(|e| (e.score, e.depth)), Some((10, 6)));
        tt.store(5, 30, 4, Bound::Exact, 5);
        assert_eq!(tt.probe(5).map(|e| (e.score, e.depth)), Some((30, 4)));
        // Another key takes the slot whatever the depth.
        let other = 5 + (1 << 40);
        tt.store(other, 1, 0, Bound::Upper, 0);
        assert!(tt.probe(5).is_none());
        assert_eq!(tt.probe(other).map(|e| e.depth), Some(0));
    }

    /// Two threads writing different keys into one slot: every hit is an entry one of
    /// them wrote for that key, never a mix of the two.
    #[test]
    fn racing_writers_never_produce_a_mixed_entry() {
        let tt = Tt::new(1);
        let keys = [7u64, 7 + (1 << 40)];
        std::thread::scope(|s| {
            for (t, &key) in keys.iter().enumerate() {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..200_000u32 {
                        let depth = (i % 50) as u8;
                        tt.store(
                            key,
                            t as i32 * 1000 + depth as i32,
                            depth,
                            Bound::Exact,
                            t as Point,
                        );
                        if let Some(e) = tt.probe(keys[1 - t]) {
                            let other = 1 - t;
                            assert_eq!(e.mv, other as Point);
                            assert_eq!(e.score, other as i32 * 1000 + e.depth as i32);
                        }
                    }
                });
            }
        });
    }
}
