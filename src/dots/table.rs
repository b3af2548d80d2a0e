//! The solver's transposition table: one u64 per entry, four entries to a 32-byte bucket.
//!
//! An exact 4x4 solve probes the table about once per node, and nearly every probe is a
//! cache miss; the table's capacity decides how much of the tree is searched twice. So
//! entries are as small as the solver's needs allow (twice as many per megabyte as a
//! 16-byte entry), and the table asks for 2 MB pages, which spare most TLB misses.
//!
//! An entry keeps both bounds (Barker and Korf's "two bounds"): the same position is probed
//! with windows shifted by the boxes taken on the way to it, and MTD(f)'s second probe asks
//! the opposite question of the first, so a lower bound from one search and an upper bound
//! from another often meet in an exact value that one stored bound would have lost.
//!
//! Entry layout, from the low bits: key (37), lower bound (7), upper bound (7), best move
//! in the canonical frame (7, 127 = none), depth + 1 (6, 63 = exact; 0 is an empty slot).
//! Bounds are stored as value + 64; 0 and 127 are the open bounds.
//!
//! Search threads share one table (`Table::share`) without locks: an entry is one
//! `AtomicU64`, read and written whole with relaxed loads and stores (plain moves on
//! x86-64), so no reader ever sees half of one write and the key it checks belongs to the
//! bounds it reads. Two threads storing in one bucket at once may lose one of the two
//! results or keep a position twice; either costs a search again, never a wrong value,
//! since every stored bound is true of its position.
//!
//! Keys: on boards of at most 40 edges (every board the solver solves exactly: 4x4 has 40)
//! the canonical drawn set goes through a bijection of 40-bit numbers whose low bits pick
//! the bucket and whose high bits are stored, so a hit is never a collision (the table has
//! at least 8 buckets, so at most 37 bits are left to store). Bigger boards, only searched
//! depth-limited in play, store 37 bits of a hash, with a false-hit chance of about 2^-35
//! per probe.

/// Depth meaning "search to the end".
pub const EXACT: u8 = u8::MAX;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

const KEY_BITS: u32 = 37;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
const DIRECT_BITS: u32 = 40;
const NO_MOVE: u8 = 127;
const STORED_EXACT: u64 = 63;
const LOWER_SHIFT: u32 = 37;
const UPPER_SHIFT: u32 = 44;
const MOVE_SHIFT: u32 = 51;
const DEPTH_SHIFT: u32 = 58;
/// Fewer buckets would leave more than `KEY_BITS` of a direct key to store.
const MIN_BUCKET_BITS: u32 = DIRECT_BITS - KEY_BITS;

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

impl Address {
    /// The address as one nonzero number, its high bits well mixed (for `solver::Busy`).
    #[inline(always)]
    pub fn tag(&self) -> u64 {
        ((self.key << 24) ^ self.bucket as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1
    }
}

/// Four entries, aligned so that a bucket never straddles two cache lines: a plain
/// `Vec<[u64; 4]>` of this size comes from `mmap` 16 bytes into a page, which put every
/// other bucket across a line boundary, so one prefetch brought only part of it.
#[derive(Default)]
#[repr(C, align(32))]
struct Bucket([AtomicU64; 4]);

impl Bucket {
    #[inline(always)]
    fn words(&self) -> [u64; 4] {
        self.0.each_ref().map(|w| w.load(Relaxed))
    }
}

pub struct Table {
    /// Shared by every search thread of one solve (and kept between searches).
    buckets: Arc<Vec<Bucket>>,
    /// Keys are the drawn sets themselves (see the module comment).
    direct: bool,
    n_edges: u32,
}

/// A bijection of 40-bit numbers (xor-shifts and odd multipliers are invertible modulo
/// 2^40) that spreads neighbouring drawn sets over the buckets.
#[inline(always)]
fn mix40(mut x: u64) -> u64 {
    const M: u64 = (1 << DIRECT_BITS) - 1;
    x ^= x >> 21;
    x = x.wrapping_mul(0x9E37_79B9_7F4B) & M;
    x ^= x >> 19;
    x = x.wrapping_mul(0xBF58_476D_1CE5) & M;
    x ^ x >> 20
}

/// log2 of the entries of the largest table within `mb` MiB (8 bytes an entry), `mb >= 1`.
pub fn bits_for_mb(mb: usize) -> u32 {
    mb.max(1).ilog2() + 17
}

/// MiB taken by a table of 2^`bits` entries.
pub fn mb_of_bits(bits: u32) -> u64 {
    (8u64 << bits) >> 20
}

impl Table {
    /// A table of 2^`bits` entries (at least 8 buckets) for a board of `n_edges` edges.
    pub fn new(bits: u32, n_edges: usize) -> Table {
        Table {
            buckets: Arc::new(huge_zeroed(
                1 << bits.saturating_sub(2).max(MIN_BUCKET_BITS),
            )),
            direct: n_edges <= DIRECT_BITS as usize,
            n_edges: n_edges as u32,
        }
    }

    /// Another handle on the same entries, for another search thread.
    pub fn share(&self) -> Table {
        Table {
            buckets: Arc::clone(&self.buckets),
            direct: self.direct,
            n_edges: self.n_edges,
        }
    }

    /// The number of entries.
    pub fn entries(&self) -> usize {
        self.buckets.len() * 4
    }

    /// The address of the canonical drawn set `key`.
    #[inline(always)]
    pub fn address(&self, key: u128) -> Address {
        let bits = self.buckets.len().trailing_zeros();
        if self.direct {
            let h = mix40(key as u64);
            return Address {
                key: h >> bits,
                bucket: (h & ((1 << bits) - 1)) as usize,
            };
        }
        let folded = key as u64 ^ (key >> 64) as u64;
        let h = folded.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // The bucket takes the high bits of `h`, the stored hash the low ones.
        let bucket = (h >> (64 - bits)) as usize;
        let key = (h ^ h >> 29).wrapping_mul(0xBF58_476D_1CE4_E5B9) & KEY_MASK;
        Address { key, bucket }
    }

    /// Asks the memory system for a bucket that will be read soon, so the misses of all
    /// children of a node overlap instead of following one another.
    #[inline(always)]
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

    #[inline(always)]
    pub fn get(&self, a: &Address) -> Option<Hit> {
        let w = self.buckets[a.bucket]
            .words()
            .into_iter()
            .find(|&w| w & KEY_MASK == a.key && occupied(w))?;
        let mv = (w >> MOVE_SHIFT & 127) as u8;
        let depth = match w >> DEPTH_SHIFT {
            STORED_EXACT => EXACT,
            d => d as u8 - 1,
        };
        Some(Hit {
            lower: lower_of(w),
            upper: upper_of(w),
            depth,
            mv: (mv != NO_MOVE).then_some(mv),
        })
    }

    /// Stores a fail-soft search result: `value` with the window `(alpha, beta)` it was
    /// searched with. A result for a position already stored at the same depth narrows its
    /// bounds; otherwise the entry replaces the same position's, else the bucket's entry
    /// with the least work below it (undrawn edges; depth on big boards), so the costly
    /// entries near the root survive the flood of small ones near the leaves.
    #[inline(always)]
    pub fn put(&self, a: &Address, value: i32, alpha: i32, beta: i32, depth: u8, mv: u8) {
        let value = value.clamp(-63, 62);
        let mut lower = if value > alpha { value } else { -127 };
        let mut upper = if value < beta { value } else { 127 };
        let depth = if depth == EXACT {
            STORED_EXACT
        } else {
            depth.min(61) as u64 + 1
        };
        let mut mv = if mv >= NO_MOVE { NO_MOVE } else { mv } as u64;
        let (direct, n) = (self.direct, self.n_edges);
        let (bits, bucket) = (self.buckets.len().trailing_zeros(), a.bucket as u64);
        let work = |w: u64| -> i32 {
            if !occupied(w) {
                -1
            } else if direct {
                let key = unmix40((w & KEY_MASK) << bits | bucket);
                (n - key.count_ones()) as i32
            } else {
                (w >> DEPTH_SHIFT) as i32
            }
        };
        let bucket = &self.buckets[a.bucket];
        let b = bucket.words();
        let slot = match b.iter().position(|&x| x & KEY_MASK == a.key && occupied(x)) {
            Some(i) => {
                let old = b[i];
                if old >> DEPTH_SHIFT == depth {
                    let (lo, hi) = (lower.max(lower_of(old)), upper.min(upper_of(old)));
                    // Bounds that cross come from a search whose horizon moved: keep the
                    // new result alone.
                    if lo <= hi {
                        (lower, upper) = (lo, hi);
                    }
                    if mv == NO_MOVE as u64 {
                        mv = old >> MOVE_SHIFT & 127;
                    }
                }
                i
            }
            // An empty slot first: working out the others' work means unmixing their keys.
            None => b
                .iter()
                .position(|&x| !occupied(x))
                .unwrap_or_else(|| (0..4).min_by_key(|&i| work(b[i])).unwrap_or(0)),
        };
        bucket.0[slot].store(
            a.key
                | code(lower) << LOWER_SHIFT
                | code(upper) << UPPER_SHIFT
                | mv << MOVE_SHIFT
                | depth << DEPTH_SHIFT,
            Relaxed,
        );
    }
}

/// The inverse of `mix40`.
#[inline(always)]
fn unmix40(mut x: u64) -> u64 {
    const M: u64 = (1 << DIRECT_BITS) - 1;
    x ^= x >> 20;
    x = x.wrapping_mul(inverse40(0xBF58_476D_1CE5)) & M;
    x ^= x >> 19 ^ x >> 38;
    x = x.wrapping_mul(inverse40(0x9E37_79B9_7F4B)) & M;
    x ^ x >> 21
}

/// The inverse of odd `a` modulo 2^40 (Newton's iteration doubles the correct bits).
const fn inverse40(a: u64) -> u64 {
    let mut x = a;
    let mut i = 0;
    while i < 6 {
        x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
        i += 1;
    }
    x & ((1 << DIRECT_BITS) - 1)
}

#[inline]
fn occupied(w: u64) -> bool {
    w >> DEPTH_SHIFT != 0
}

#[inline]
fn code(v: i32) -> u64 {
    match v {
        -127 => 0,
        127 => 127,
        v => (v + 64) as u64,
    }
}

#[inline]
fn lower_of(w: u64) -> i32 {
    match w >> LOWER_SHIFT & 127 {
        0 => -127,
        c => c as i32 - 64,
    }
}

#[inline]
fn upper_of(w: u64) -> i32 {
    match w >> UPPER_SHIFT & 127 {
        127 => 127,
        c => c as i32 - 64,
    }
}

/// A zeroed vector backed by transparent huge pages where the kernel offers them.
fn huge_zeroed(len: usize) -> Vec<Bucket> {
    let mut t: Vec<Bucket> = Vec::with_capacity(len);
    #[cfg(target_os = "linux")]
    {
        // madvise wants page-aligned ranges: advise the 2 MB-aligned interior, before any
        // page is touched.
        const HUGE: usize = 2 << 20;
        let start = t.as_ptr() as usize;
        let end = start + len * std::mem::size_of::<Bucket>();
        let (lo, hi) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
        if lo < hi {
            // SAFETY: the range lies inside `t`'s own allocation; madvise only changes how
            // its pages are backed, never their contents.
            unsafe {
                libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE);
            }
        }
    }
    t.resize_with(len, Bucket::default);
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let t = Table::new(10, 40);
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
                depth: 61,
                mv: Some(0)
            })
        );
        // The empty board is a key like any other, not an empty slot.
        let e = t.address(0);
        assert_eq!(t.get(&e), None);
        t.put(&e, 0, -1, 1, EXACT, 5);
        assert_eq!(t.get(&e).map(|h| h.lower), Some(0));
    }

    /// Five positions in one bucket: of the four stored first, the one with the fewest
    /// undrawn edges is the one that goes.
    #[test]
    fn replacement_keeps_the_biggest_subtrees() {
        let t = Table::new(5, 40);
        let bucket = t.address(0b1).bucket;
        // Distinct counts of drawn edges, so exactly one entry does the least work.
        let mut counts = 0u64;
        let keys: Vec<u128> = (1u128..)
            .filter(|&k| {
                let fresh = t.address(k).bucket == bucket && counts >> k.count_ones() & 1 == 0;
                counts |= (fresh as u64) << k.count_ones();
                fresh
            })
            .take(5)
            .collect();
        let fewest = keys[..4].iter().max_by_key(|k| k.count_ones()).unwrap();
        for (i, &k) in keys.iter().enumerate() {
            t.put(&t.address(k), i as i32, -99, 99, EXACT, 0);
        }
        for k in &keys {
            assert_eq!(t.get(&t.address(*k)).is_some(), k != fewest, "{k:b}");
        }
    }

    /// A lower bound and an upper bound of the same position from two searches are both
    /// kept, and meet in an exact value; a result from another depth replaces them.
    #[test]
    fn bounds_of_two_searches_combine() {
        let t = Table::new(12, 40);
        let a = t.address(0b1_0110);
        t.put(&a, 2, 1, 2, EXACT, 7); // >= 2
        t.put(&a, 4, 4, 5, EXACT, u8::MAX); // <= 4
        let h = t.get(&a).unwrap();
        assert_eq!((h.lower, h.upper, h.mv), (2, 4, Some(7)));
        t.put(&a, 2, 2, 3, EXACT, 9); // <= 2
        let h = t.get(&a).unwrap();
        assert_eq!((h.lower, h.upper, h.mv), (2, 2, Some(9)));
        t.put(&a, -3, -1, 0, 5, u8::MAX);
        let h = t.get(&a).unwrap();
        assert_eq!((h.lower, h.upper, h.depth, h.mv), (-127, -3, 5, None));
    }

    /// Direct keys are recovered from what an entry stores and its bucket.
    #[test]
    fn direct_keys_round_trip_through_the_mix() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(9);
        for _ in 0..10_000 {
            let k = rng.gen::<u64>() & ((1 << DIRECT_BITS) - 1);
            assert_eq!(unmix40(mix40(k)), k);
            assert!(mix40(k) < 1 << DIRECT_BITS);
        }
        let t = Table::new(16, 40);
        let bits = t.buckets.len().trailing_zeros();
        let a = t.address(0xAB_CDEF_0123);
        assert_eq!(unmix40(a.key << bits | a.bucket as u64), 0xAB_CDEF_0123);
    }

    /// Every bucket lies within one 64-byte cache line (a table big enough to come from
    /// `mmap`, where the allocator's header once shifted it by 16 bytes).
    #[test]
    fn buckets_do_not_straddle_cache_lines() {
        for bits in [10, 22] {
            let t = Table::new(bits, 40);
            let start = t.buckets.as_ptr() as usize;
            assert_eq!(std::mem::size_of::<Bucket>(), 32);
            assert_eq!(start % 32, 0, "table of 2^{bits} entries at {start:#x}");
        }
    }

    #[test]
    fn big_boards_hash_their_keys() {
        let t = Table::new(16, 60);
        let (a, b) = (t.address(1 << 50), t.address(1 << 51));
        assert!(a.key != b.key || a.bucket != b.bucket);
        assert!(a.key <= KEY_MASK);
    }
}
