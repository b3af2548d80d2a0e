//! Bitboard primitives: square numbering, move generation and flip computation.
//!
//! Square `i` is bit `i`, `i = 8 * row + col`, with a1 = 0 (top-left), h1 = 7, a8 = 56: the
//! same order as the 64-character FFO/Edax board strings, so parsing is a straight scan.

use super::isa::{AVX2, AVX512};

/// Bits of column a (left edge).
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Bits of column h (right edge).
pub const FILE_H: u64 = 0x8080_8080_8080_8080;
/// The four corners.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Legal moves for the player owning `p` against `o`.
///
/// Direction-wise shift propagation (a Kogge-Stone variant unrolled to the 6 steps a run of
/// opponent discs can take); the edge masks stop horizontal and diagonal runs from wrapping.
#[inline(always)]
pub fn moves(p: u64, o: u64) -> u64 {
    let empty = !(p | o);
    let inner = o & !(FILE_A | FILE_H);
    let mut m = 0u64;
    m |= dir_moves_left(p, inner, 1);
    m |= dir_moves_right(p, inner, 1);
    m |= dir_moves_left(p, o, 8);
    m |= dir_moves_right(p, o, 8);
    m |= dir_moves_left(p, inner, 7);
    m |= dir_moves_right(p, inner, 7);
    m |= dir_moves_left(p, inner, 9);
    m |= dir_moves_right(p, inner, 9);
    m & empty
}

#[inline(always)]
fn dir_moves_left(p: u64, mask: u64, s: u32) -> u64 {
    let mut t = mask & (p << s);
    t |= mask & (t << s);
    let m2 = mask & (mask << s);
    t |= m2 & (t << (2 * s));
    t |= m2 & (t << (2 * s));
    t << s
}

#[inline(always)]
fn dir_moves_right(p: u64, mask: u64, s: u32) -> u64 {
    let mut t = mask & (p >> s);
    t |= mask & (t >> s);
    let m2 = mask & (mask >> s);
    t |= m2 & (t >> (2 * s));
    t |= m2 & (t >> (2 * s));
    t >> s
}

/// `moves`, from the copy of instruction level `I` (`super::isa`; see the endgame
/// solver's `per_isa!`). `I` must not exceed `isa::detect()`.
#[inline(always)]
pub fn moves_f<const I: u8>(p: u64, o: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if I >= AVX2 {
        // SAFETY: `I` is at least AVX2 only when the CPU has AVX2.
        return unsafe { avx2::moves(p, o) };
    }
    moves(p, o)
}

/// `flips`, from the copy of instruction level `I` (as `moves_f`).
#[inline(always)]
pub fn flips_f<const I: u8>(p: u64, o: u64, sq: usize) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if I >= AVX512 {
        // SAFETY: `I` is AVX512 only when the CPU has AVX-512 F/VL/CD.
        return unsafe { avx512::flips(p, o, sq) };
    }
    #[cfg(target_arch = "x86_64")]
    if I >= AVX2 {
        // SAFETY: `I` is at least AVX2 only when the CPU has AVX2.
        return unsafe { avx2::flips(p, o, sq) };
    }
    flips(p, o, sq)
}

/// Four directions at once in the lanes of a 256-bit vector: shifts 1 (row), 8 (column),
/// 7 and 9 (diagonals), each applied both ways. The same run-filling as `moves`, a quarter
/// of the instructions: move generation and flips are a third of the endgame solver's time.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{FILE_A, FILE_H};
    use std::arch::x86_64::*;

    /// Lanes of the opponent's discs a run may pass through: the edge columns are cut out
    /// for the directions with a sideways step (a run there would wrap to the next row).
    #[inline(always)]
    unsafe fn run_masks(o: u64) -> __m256i {
        let inner = (o & !(FILE_A | FILE_H)) as i64;
        _mm256_set_epi64x(inner, inner, o as i64, inner)
    }

    #[inline(always)]
    unsafe fn shifts() -> (__m256i, __m256i) {
        (
            _mm256_set_epi64x(9, 7, 8, 1),
            _mm256_set_epi64x(18, 14, 16, 2),
        )
    }

    /// Bitwise or of the four lanes.
    #[inline(always)]
    unsafe fn or_lanes(v: __m256i) -> u64 {
        let x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        _mm_cvtsi128_si64(_mm_or_si128(x, _mm_unpackhi_epi64(x, x))) as u64
    }

    /// Runs of `mask` squares that start next to a square of `from`, towards higher
    /// indices (left shifts), up to six long.
    #[inline(always)]
    unsafe fn runs_up(from: __m256i, mask: __m256i, sh: __m256i, sh2: __m256i) -> __m256i {
        let mut t = _mm256_and_si256(mask, _mm256_sllv_epi64(from, sh));
        t = _mm256_or_si256(t, _mm256_and_si256(mask, _mm256_sllv_epi64(t, sh)));
        let m2 = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, sh));
        t = _mm256_or_si256(t, _mm256_and_si256(m2, _mm256_sllv_epi64(t, sh2)));
        _mm256_or_si256(t, _mm256_and_si256(m2, _mm256_sllv_epi64(t, sh2)))
    }

    /// As `runs_up`, towards lower indices.
    #[inline(always)]
    unsafe fn runs_down(from: __m256i, mask: __m256i, sh: __m256i, sh2: __m256i) -> __m256i {
        let mut t = _mm256_and_si256(mask, _mm256_srlv_epi64(from, sh));
        t = _mm256_or_si256(t, _mm256_and_si256(mask, _mm256_srlv_epi64(t, sh)));
        let m2 = _mm256_and_si256(mask, _mm256_srlv_epi64(mask, sh));
        t = _mm256_or_si256(t, _mm256_and_si256(m2, _mm256_srlv_epi64(t, sh2)));
        _mm256_or_si256(t, _mm256_and_si256(m2, _mm256_srlv_epi64(t, sh2)))
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn moves(p: u64, o: u64) -> u64 {
        let (sh, sh2) = shifts();
        let mask = run_masks(o);
        let pp = _mm256_set1_epi64x(p as i64);
        let up = _mm256_sllv_epi64(runs_up(pp, mask, sh, sh2), sh);
        let down = _mm256_srlv_epi64(runs_down(pp, mask, sh, sh2), sh);
        or_lanes(_mm256_or_si256(up, down)) & !(p | o)
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn flips(p: u64, o: u64, sq: usize) -> u64 {
        let (sh, sh2) = shifts();
        let mask = run_masks(o);
        let pp = _mm256_set1_epi64x(p as i64);
        let x = _mm256_set1_epi64x((1u64 << sq) as i64);
        let zero = _mm256_setzero_si256();
        // A run flips when the square just past it is ours.
        let up = runs_up(x, mask, sh, sh2);
        let up_end = _mm256_and_si256(_mm256_sllv_epi64(up, sh), pp);
        let up = _mm256_andnot_si256(_mm256_cmpeq_epi64(up_end, zero), up);
        let down = runs_down(x, mask, sh, sh2);
        let down_end = _mm256_and_si256(_mm256_srlv_epi64(down, sh), pp);
        let down = _mm256_andnot_si256(_mm256_cmpeq_epi64(down_end, zero), down);
        or_lanes(_mm256_or_si256(up, down))
    }
}

/// `flips` as in the scalar version, all eight rays at once: the increasing rays find
/// their first non-opponent square by isolating the lowest set bit, the decreasing ones
/// by a vector leading-zero count (AVX-512 CD), so no direction needs the run-filling
/// steps of `avx2::flips`: about 17% less solver time on FFO #40-#49
/// (docs/experiments/othello.md).
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
    #[inline]
    pub(super) unsafe fn flips(p: u64, o: u64, sq: usize) -> u64 {
        let rays = super::RAYS[sq].as_ptr();
        let up = _mm256_loadu_si256(rays as *const __m256i);
        let down = _mm256_loadu_si256(rays.add(4) as *const __m256i);
        let pp = _mm256_set1_epi64x(p as i64);
        let oo = _mm256_set1_epi64x(o as i64);
        let zero = _mm256_setzero_si256();
        // Increasing rays: the squares below an outflanking disc of ours flip.
        let blocker = _mm256_andnot_si256(oo, up);
        let first = _mm256_and_si256(blocker, _mm256_sub_epi64(zero, blocker));
        let hit = _mm256_and_si256(first, pp);
        let below = _mm256_and_si256(_mm256_add_epi64(hit, _mm256_set1_epi64x(-1)), up);
        let f_up = _mm256_andnot_si256(_mm256_cmpeq_epi64(hit, zero), below);
        // Decreasing rays: the nearest non-opponent square is the highest set bit (a
        // shift by the count 64 of an empty lane gives 0); the squares above it flip.
        let blocker = _mm256_andnot_si256(oo, down);
        let top = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(blocker));
        let hit = _mm256_and_si256(top, pp);
        let f_down = _mm256_and_si256(down, _mm256_sub_epi64(zero, _mm256_add_epi64(hit, hit)));
        let f = _mm256_or_si256(f_up, f_down);
        let x = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256::<1>(f));
        _mm_cvtsi128_si64(_mm_or_si128(x, _mm_unpackhi_epi64(x, x))) as u64
    }
}

/// The (col, row) steps of the eight directions; the first four increase the square index.
const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (-1, -1),
    (1, -1),
];

const fn ray(sq: usize, d: usize) -> u64 {
    let (dc, dr) = DIRS[d];
    let mut c = (sq % 8) as i32 + dc;
    let mut r = (sq / 8) as i32 + dr;
    let mut m = 0u64;
    while c >= 0 && c < 8 && r >= 0 && r < 8 {
        m |= 1u64 << (r * 8 + c);
        c += dc;
        r += dr;
    }
    m
}

const fn build_rays() -> [[u64; 8]; 64] {
    let mut t = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            t[sq][d] = ray(sq, d);
            d += 1;
        }
        sq += 1;
    }
    t
}

/// `RAYS[sq][d]`: the squares strictly beyond `sq` in direction `d`, up to the board edge
/// (`d` < 4: the increasing directions, loaded as one vector by `avx512::flips`).
static RAYS: [[u64; 8]; 64] = build_rays();

/// Discs flipped when the owner of `p` plays on `sq` (0 if the move flips nothing, i.e. is
/// illegal on an empty square).
///
/// Along an increasing ray the first square that is not an opponent disc is the lowest set
/// bit of `ray & !o`; if it is ours, every ray square below it is a flipped opponent disc.
/// Decreasing rays use the highest set bit symmetrically. No loops over discs, no tables
/// beyond the 64x8 rays.
#[inline(always)]
pub fn flips(p: u64, o: u64, sq: usize) -> u64 {
    let rays = &RAYS[sq];
    let mut f = 0u64;
    let mut d = 0;
    while d < 4 {
        let r = rays[d];
        let blocker = r & !o;
        let first = blocker & blocker.wrapping_neg();
        if first & p != 0 {
            f |= (first - 1) & r;
        }
        d += 1;
    }
    while d < 8 {
        let r = rays[d];
        let blocker = r & !o;
        if blocker != 0 {
            let idx = 63 - blocker.leading_zeros();
            if (1u64 << idx) & p != 0 {
                f |= r & (u64::MAX << idx << 1);
            }
        }
        d += 1;
    }
    f
}

/// The square of the `k`-th set bit of `set` (from a1), for drawing a random move with
/// one random number. `k` must be below `set.count_ones()`.
pub fn nth_square(set: u64, k: u32) -> usize {
    let mut m = set;
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}

/// Squares 8-adjacent to any bit of `b` (edges do not wrap).
#[inline]
pub fn neighbours(b: u64) -> u64 {
    let l = (b >> 1) & !FILE_H;
    let r = (b << 1) & !FILE_A;
    let h = b | l | r;
    l | r | (h << 8) | (h >> 8)
}

/// `NEIGHBOUR[sq]`: the squares 8-adjacent to `sq`. A move on `sq` must flip an adjacent
/// opponent disc, so `NEIGHBOUR[sq] & o == 0` rules it out before any flip computation.
pub static NEIGHBOUR: [u64; 64] = build_neighbours();

const fn build_neighbours() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let b = 1u64 << sq;
        let l = (b >> 1) & !FILE_H;
        let r = (b << 1) & !FILE_A;
        let h = b | l | r;
        t[sq] = l | r | (h << 8) | (h >> 8);
        sq += 1;
    }
    t
}

/// Square index from 0-based column and row (row 0 is the top row, "1").
#[inline]
pub const fn square(col: usize, row: usize) -> usize {
    row * 8 + col
}

/// `a1`..`h8` (lowercase) for a square.
pub fn square_name(sq: usize) -> String {
    let c = (b'a' + (sq % 8) as u8) as char;
    let r = (b'1' + (sq / 8) as u8) as char;
    format!("{c}{r}")
}

/// Parses `a1`..`h8`, case-insensitive.
pub fn parse_square(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let c = b[0].to_ascii_lowercase();
    let r = b[1];
    if !(b'a'..=b'h').contains(&c) || !(b'1'..=b'8').contains(&r) {
        return None;
    }
    Some(square((c - b'a') as usize, (r - b'1') as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_square_counts_set_bits_from_a1() {
        let set = 1 << 2 | 1 << 5 | 1 << 63;
        assert_eq!([0, 1, 2].map(|k| nth_square(set, k)), [2, 5, 63]);
    }

    /// Slow reference: walk each direction square by square.
    fn flips_ref(p: u64, o: u64, sq: usize) -> u64 {
        if (p | o) >> sq & 1 != 0 {
            return 0;
        }
        let mut f = 0;
        for (dc, dr) in DIRS {
            let (mut c, mut r) = ((sq % 8) as i32 + dc, (sq / 8) as i32 + dr);
            let mut run = 0u64;
            while (0..8).contains(&c) && (0..8).contains(&r) {
                let b = 1u64 << (r * 8 + c);
                if o & b != 0 {
                    run |= b;
                } else {
                    if p & b != 0 {
                        f |= run;
                    }
                    break;
                }
                c += dc;
                r += dr;
            }
        }
        f
    }

    #[test]
    fn flips_and_moves_match_reference_on_random_boards() {
        use rand::{rngs::SmallRng, Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(7);
        for _ in 0..3000 {
            let a: u64 = rng.gen();
            let b: u64 = rng.gen::<u64>() & rng.gen::<u64>();
            let p = a & !b & rng.gen::<u64>();
            let o = b;
            let mut mv = 0u64;
            for sq in 0..64 {
                let r = flips_ref(p, o, sq);
                if (p | o) >> sq & 1 == 0 {
                    assert_eq!(flips(p, o, sq), r, "sq {sq}");
                }
                if r != 0 {
                    mv |= 1 << sq;
                }
            }
            assert_eq!(moves(p, o), mv);
        }
    }

    #[test]
    fn vector_copies_match_the_reference() {
        let level = crate::othello::isa::detect();
        if level >= AVX2 {
            check_level::<AVX2>(8);
        }
        if level >= AVX512 {
            check_level::<AVX512>(9);
        }
    }

    /// The copy of level `I` against the square-by-square reference on random boards.
    fn check_level<const I: u8>(seed: u64) {
        use rand::{rngs::SmallRng, Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(seed);
        for _ in 0..3000 {
            let a: u64 = rng.gen();
            let b: u64 = rng.gen::<u64>() & rng.gen::<u64>();
            let (p, o) = (a & !b & rng.gen::<u64>(), b);
            let mut mv = 0u64;
            for sq in 0..64 {
                let r = flips_ref(p, o, sq);
                if (p | o) >> sq & 1 == 0 {
                    assert_eq!(flips_f::<I>(p, o, sq), r, "sq {sq}");
                }
                if r != 0 {
                    mv |= 1 << sq;
                }
            }
            assert_eq!(moves_f::<I>(p, o), mv);
        }
    }

    #[test]
    fn hand_built_flips() {
        // a1 black; b1..g1 white; h1 empty: playing h1 flips six discs along the top edge.
        let p = 1u64;
        let o = 0x7e;
        assert_eq!(flips(p, o, 7), 0x7e);
        // Nothing to outflank with: a lone white run to the edge flips nothing.
        assert_eq!(flips(0, o, 7), 0);
        // No wrap from h1 to a2: a2 black, h1 white, g1 empty.
        let p = 1u64 << 8;
        let o = 1u64 << 7;
        assert_eq!(flips(p, o, 6), 0);
    }

    #[test]
    fn square_names_round_trip() {
        for sq in 0..64 {
            assert_eq!(parse_square(&square_name(sq)), Some(sq));
        }
        assert_eq!(parse_square("A1"), Some(0));
        assert_eq!(parse_square("h8"), Some(63));
        assert_eq!(parse_square("i1"), None);
        assert_eq!(parse_square("a9"), None);
    }
}
