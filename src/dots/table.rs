//! The solver's transposition table: one u64 per entry, four entries to a 32-byte bucket.
//!
//! An exact 4x4 solve probes the table about once per node, and nearly every probe is a
//! cache miss; the table's capacity decides how much of the tree is searched twice. So
//! entries are as small as the solver's needs allow (twice as many per megabyte as a
//! 16-byte entry), and the table asks for 2 MB pages, which spare most TLB misses.
//!
//! Entry layout, from the low bits: key (40), bound kind (2: 0 is an empty slot), value + 64
//! (7), best move in the canonical frame (7, 127 = none), depth (6, 63 = exact).
//!
//! Keys: on boards of at most 40 edges (every board the solver solves exactly: 4x4 has 40)
//! the key *is* the canonical drawn set, so a hit is never a collision. Bigger boards, only
//! searched depth-limited in play, store 40 bits of a hash, with a false-hit chance of about
//! 2^-38 per probe.

/// Depth meaning "search to the end".
pub const EXACT: u8 = u8::MAX;
const KEY_BITS: u32 = 40;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
const NO_MOVE: u8 = 127;
const STORED_EXACT: u64 = 63;

/// What the table knows of a position. Bounds are `-127` / `127` when open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub lower: i32,
    pub upper: i32,
    pub depth: u8,
    /// Best move in the canonical frame.
    pub mv: Option<u8>,
}

/// Where a position lives in the table.
#[derive(Clone, Copy, Debug, Default)]
pub struct Address {
    key: u64,
    bucket: usize,
}

pub struct Table {
    buckets: Vec<[u64; 4]>,
    /// Keys are the drawn sets themselves (see the module comment).
    direct: bool,
    n_edges: u32,
}

impl Table {
    /// A table of 2^`bits` entries (at least one bucket) for a board of `n_edges` edges.
    pub fn new(bits: u32, n_edges: usize) -> Table {
        Table {
            buckets: huge_zeroed(1 << bits.saturating_sub(2)),
            direct: n_edges <= KEY_BITS as usize,
            n_edges: n_edges as u32,
        }
    }

    /// The address of the canonical drawn set `key`.
    #[inline]
    pub fn address(&self, key: u128) -> Address {
        let folded = key as u64 ^ (key >> 64) as u64;
        let h = folded.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let bits = self.buckets.len().trailing_zeros();
        // The bucket takes the high bits of `h`, the stored hash (big boards) the low ones.
        let bucket = if bits == 0 {
            0
        } else {
            (h >> (64 - bits)) as usize
        };
        let key = if self.direct {
            folded
        } else {
            (h ^ h >> 29).wrapping_mul(0xBF58_476D_1CE4_E5B9) & KEY_MASK
        };
        Address { key, bucket }
    }

    /// Asks the memory system for a bucket that will be read soon, so the misses of all
    /// children of a node overlap instead of following one another.
    #[inline]
    pub fn prefetch(&self, a: &Address) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint and never faults; `bucket` is in the table.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch(
                self.buckets.as_ptr().add(a.bucket).cast::<i8>(),
                _MM_HINT_T0,
            );
        }
    }

    #[inline]
    pub fn get(&self, a: &Address) -> Option<Hit> {
        let w = *self.buckets[a.bucket]
            .iter()
            .find(|&&w| w & KEY_MASK == a.key && kind_of(w) != 0)?;
        let v = (w >> 42 & 127) as i32 - 64;
        let (lower, upper) = match kind_of(w) {
            1 => (v, 127),
            2 => (-127, v),
            _ => (v, v),
        };
        let mv = (w >> 49 & 127) as u8;
        let depth = match w >> 56 {
            STORED_EXACT => EXACT,
            d => d as u8,
        };
        Some(Hit {
            lower,
            upper,
            depth,
            mv: (mv != NO_MOVE).then_some(mv),
        })
    }

    /// Stores a fail-soft search result: `value` with the window `(alpha, beta)` it was
    /// searched with. The entry replaces the same position's, else the bucket's entry
    /// with the least work below it (undrawn edges; depth on big boards), so the costly
    /// entries near the root survive the flood of small ones near the leaves.
    #[inline]
    pub fn put(&mut self, a: &Address, value: i32, alpha: i32, beta: i32, depth: u8, mv: u8) {
        let kind = if value <= alpha {
            2
        } else if value >= beta {
            1
        } else {
            3
        };
        let depth = if depth == EXACT {
            STORED_EXACT
        } else {
            depth.min(62) as u64
        };
        let mv = if mv >= NO_MOVE { NO_MOVE } else { mv } as u64;
        let w = a.key
            | kind << 40
            | ((value.clamp(-64, 63) + 64) as u64) << 42
            | mv << 49
            | depth << 56;
        let (direct, n) = (self.direct, self.n_edges);
        let work = |w: u64| -> i32 {
            if kind_of(w) == 0 {
                -1
            } else if direct {
                (n - (w & KEY_MASK).count_ones()) as i32
            } else {
                (w >> 56) as i32
            }
        };
        let b = &mut self.buckets[a.bucket];
        let slot = match b
            .iter()
            .position(|&x| x & KEY_MASK == a.key && kind_of(x) != 0)
        {
            Some(i) => i,
            None => (0..4).min_by_key(|&i| work(b[i])).unwrap_or(0),
        };
        b[slot] = w;
    }
}

#[inline]
fn kind_of(w: u64) -> u64 {
    w >> 40 & 3
}

/// A zeroed vector backed by transparent huge pages where the kernel offers them.
fn huge_zeroed(len: usize) -> Vec<[u64; 4]> {
    let mut t: Vec<[u64; 4]> = Vec::with_capacity(len);
    #[cfg(target_os = "linux")]
    {
        // madvise wants page-aligned ranges: advise the 2 MB-aligned interior, before any
        // page is touched.
        const HUGE: usize = 2 << 20;
        let start = t.as_ptr() as usize;
        let end = start + len * std::mem::size_of::<[u64; 4]>();
        let (lo, hi) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
        if lo < hi {
            // SAFETY: the range lies inside `t`'s own allocation; madvise only changes how
            // its pages are backed, never their contents.
            unsafe {
                libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE);
            }
        }
    }
    t.resize(len, [0; 4]);
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let mut t = Table::new(10, 40);
        let a = t.address(0b1011);
        assert_eq!(t.get(&a), None);
        t.put(&a, -3, -1, 0, EXACT, 39);
        assert_eq!(
            t.get(&a),
            Some(Hit {
                lower: -127,
                upper: -3,
                depth: EXACT,
                mv: Some(39)
            })
        );
        t.put(&a, 2, -1, 0, 7, u8::MAX);
        assert_eq!(
            t.get(&a),
            Some(Hit {
                lower: 2,
                upper: 127,
                depth: 7,
                mv: None
            })
        );
        t.put(&a, 0, -1, 1, 200, 0);
        assert_eq!(
            t.get(&a),
            Some(Hit {
                lower: 0,
                upper: 0,
                depth: 62,
                mv: Some(0)
            })
        );
        // The empty board is a key like any other, not an empty slot.
        let e = t.address(0);
        assert_eq!(t.get(&e), None);
        t.put(&e, 0, -1, 1, EXACT, 5);
        assert_eq!(t.get(&e).map(|h| h.lower), Some(0));
    }

    /// Five positions in one bucket (a one-bucket table): the one with the fewest undrawn
    /// edges is the one that goes.
    #[test]
    fn replacement_keeps_the_biggest_subtrees() {
        let mut t = Table::new(2, 40);
        let keys = [0b1u128, 0b111, 0b11, 0b1111_1111, 0b1_1111];
        for (i, &k) in keys.iter().enumerate() {
            t.put(&t.address(k), i as i32, -99, 99, EXACT, 0);
        }
        let found: Vec<bool> = keys
            .iter()
            .map(|&k| t.get(&t.address(k)).is_some())
            .collect();
        assert_eq!(found, [true, true, true, false, true]);
    }

    #[test]
    fn big_boards_hash_their_keys() {
        let t = Table::new(16, 60);
        let (a, b) = (t.address(1 << 50), t.address(1 << 51));
        assert!(a.key != b.key || a.bucket != b.bucket);
        assert!(a.key <= KEY_MASK);
    }
}
