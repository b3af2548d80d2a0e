//! Pattern evaluation: a table lookup per pattern instance, one weight set per stage.
//!
//! The shapes are the usual ones (Logistello, Edax): an edge with its two X-squares, the
//! corner 3x3 and 2x5 blocks, the lines 2-4 squares in from an edge, the diagonals of
//! length 4-8; plus mobility tables and a parity/bias term, and optionally the
//! "outer region" term (see `OUTER`). Symmetric instances share one table: instead of
//! one square list per instance, the board itself is rotated/mirrored (a few shifts per
//! symmetry) and the shape's canonical instance is read from each transformed board with
//! shifts and one multiply, then turned into a base-3 index by two 1024-entry tables. No
//! allocation, no per-square loop. Scores are centi-discs from the side to move.
use super::bitboard::{moves, moves_f};
use super::board::Board;
use super::symmetry::{mirror_horizontal, transpose};

/// One shape: name, number of squares, and the symmetries that give its instances.
pub struct Shape {
    pub name: &'static str,
    pub squares: u32,
    /// Indices into the eight symmetries (see `symmetries`).
    pub syms: &'static [usize],
}

const ROT: &[usize] = &[0, 1, 2, 3];
const ALL: &[usize] = &[0, 1, 2, 3, 4, 5, 6, 7];

/// The shapes, in table order. Their canonical instances (on the untransformed board,
/// a1 = bit 0 at the top left):
/// edge+2X = row 1 plus b2 and g2; corner3x3 = a1..c3; corner2x5 = a1..e2;
/// lineN = row N; diag8 = a1-h8; diagK = the K squares from a(9-K) down-right to row 8.
pub const SHAPES: [Shape; 11] = [
    Shape {
        name: "edge+2x",
        squares: 10,
        syms: ROT,
    },
    Shape {
        name: "corner3x3",
        squares: 9,
        syms: ROT,
    },
    Shape {
        name: "corner2x5",
        squares: 10,
        syms: ALL,
    },
    Shape {
        name: "line2",
        squares: 8,
        syms: ROT,
    },
    Shape {
        name: "line3",
        squares: 8,
        syms: ROT,
    },
    Shape {
        name: "line4",
        squares: 8,
        syms: ROT,
    },
    Shape {
        name: "diag8",
        squares: 8,
        syms: &[0, 1],
    },
    Shape {
        name: "diag7",
        squares: 7,
        syms: ROT,
    },
    Shape {
        name: "diag6",
        squares: 6,
        syms: ROT,
    },
    Shape {
        name: "diag5",
        squares: 5,
        syms: ROT,
    },
    Shape {
        name: "diag4",
        squares: 4,
        syms: ROT,
    },
];

/// Mobility tables: the side to move's and the opponent's move counts, capped.
pub const MOBILITY_CAP: usize = 31;
/// The 16 centre squares; the "outer region" is everything else.
pub const CENTRE: u64 = 0x0000_3c3c_3c3c_0000;

const fn pow3(n: u32) -> usize {
    let mut r = 1;
    let mut i = 0;
    while i < n {
        r *= 3;
        i += 1;
    }
    r
}

const fn shape_offsets() -> [usize; 12] {
    let mut o = [0; 12];
    let mut i = 0;
    while i < 11 {
        o[i + 1] = o[i] + pow3(SHAPES[i].squares);
        i += 1;
    }
    o
}

/// Start of each shape's table in a stage's weights; `[11]` is the end of the patterns.
pub const OFFSETS: [usize; 12] = shape_offsets();
pub const MOB_P: usize = OFFSETS[11];
pub const MOB_O: usize = MOB_P + MOBILITY_CAP + 1;
/// Two entries: even and odd number of empties (acts as the stage's bias too).
pub const PARITY: usize = MOB_O + MOBILITY_CAP + 1;
/// Outer region: 64 squares x (own, opponent); the 16 centre squares stay zero.
pub const OUTER: usize = PARITY + 2;
/// Weights in one stage.
pub const STAGE_LEN: usize = OUTER + 128;
/// Pattern instances summed per evaluation.
pub const INSTANCES: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < 11 {
        n += SHAPES[i].syms.len();
        i += 1;
    }
    n
};

/// Base-3 value of a bit set read as digits (bit i = digit i).
const B2T: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut v = 0u32;
        let mut p = 1u32;
        let mut i = 0;
        while i < 10 {
            if b >> i & 1 != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v as u16;
        b += 1;
    }
    t
};

#[inline(always)]
fn rotate(x: u64) -> u64 {
    transpose(x).swap_bytes()
}

/// The eight images of `x`: rotations by 0-3 quarter turns, then the same after a mirror.
#[inline(always)]
pub fn symmetries(x: u64) -> [u64; 8] {
    let r1 = rotate(x);
    let r2 = rotate(r1);
    let r3 = rotate(r2);
    let m = mirror_horizontal(x);
    let m1 = rotate(m);
    let m2 = rotate(m1);
    let m3 = rotate(m2);
    [x, r1, r2, r3, m, m1, m2, m3]
}

const BYTES: u64 = 0x0101_0101_0101_0101;

/// Diagonal squares whose `* BYTES >> 56` gathers them by column: bit i = column i.
const fn diag_mask(k: u32) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < k {
        m |= 1u64 << ((i + 8 - k) * 8 + i);
        i += 1;
    }
    m
}
const DIAG: [u64; 9] = [
    0,
    0,
    0,
    0,
    diag_mask(4),
    diag_mask(5),
    diag_mask(6),
    diag_mask(7),
    diag_mask(8),
];

/// The canonical instance of shape `s` read from `x`, as bits 0..squares.
#[inline(always)]
fn extract(s: usize, x: u64) -> usize {
    (match s {
        0 => (x & 0xff) | ((x >> 1) & 0x100) | ((x >> 5) & 0x200),
        1 => (x & 7) | ((x >> 5) & 0x38) | ((x >> 10) & 0x1c0),
        2 => (x & 0x1f) | ((x >> 3) & 0x3e0),
        3 => (x >> 8) & 0xff,
        4 => (x >> 16) & 0xff,
        5 => (x >> 24) & 0xff,
        _ => {
            let k = 14 - s as u32; // 6 -> 8 ... 10 -> 4
            (x & DIAG[k as usize]).wrapping_mul(BYTES) >> 56
        }
    }) as usize
}

/// Fills `out` with the index (into a stage's weights) of every pattern instance of `b`.
///
/// Written out instance by instance (the order of `SHAPES` and their `syms`, which the
/// tests check): as a loop over the shapes, the shape number reached `extract` as a
/// variable and each instance cost an indirect jump; a third of the evaluation's time.
#[inline(always)]
pub fn indices(b: &Board, out: &mut [u32; INSTANCES]) {
    let ps = symmetries(b.p);
    let os = symmetries(b.o);
    let mut n = 0;
    macro_rules! shape {
        ($s:literal, [$($t:literal),*]) => {$(
            let i = B2T[extract($s, ps[$t])] as usize + 2 * B2T[extract($s, os[$t])] as usize;
            out[n] = (OFFSETS[$s] + i) as u32;
            n += 1;
        )*};
    }
    shape!(0, [0, 1, 2, 3]);
    shape!(1, [0, 1, 2, 3]);
    shape!(2, [0, 1, 2, 3, 4, 5, 6, 7]);
    shape!(3, [0, 1, 2, 3]);
    shape!(4, [0, 1, 2, 3]);
    shape!(5, [0, 1, 2, 3]);
    shape!(6, [0, 1]);
    shape!(7, [0, 1, 2, 3]);
    shape!(8, [0, 1, 2, 3]);
    shape!(9, [0, 1, 2, 3]);
    shape!(10, [0, 1, 2, 3]);
    debug_assert_eq!(n, INSTANCES);
}

/// Every weight index that contributes to `b`'s score (patterns, mobility, parity and, if
/// `outer`, the outer-region squares), with its multiplicity 1; `n` is how many were written.
pub fn active(b: &Board, outer: bool, out: &mut [u32; INSTANCES + 3 + 48]) -> usize {
    let mut pat = [0u32; INSTANCES];
    indices(b, &mut pat);
    out[..INSTANCES].copy_from_slice(&pat);
    let mut n = INSTANCES;
    let mp = (moves(b.p, b.o).count_ones() as usize).min(MOBILITY_CAP);
    let mo = (moves(b.o, b.p).count_ones() as usize).min(MOBILITY_CAP);
    out[n] = (MOB_P + mp) as u32;
    out[n + 1] = (MOB_O + mo) as u32;
    out[n + 2] = (PARITY + (b.empties().count_ones() & 1) as usize) as u32;
    n += 3;
    if outer {
        let mut occ = (b.p | b.o) & !CENTRE;
        while occ != 0 {
            let sq = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            let theirs = (b.o >> sq & 1) as usize;
            out[n] = (OUTER + 2 * sq + theirs) as u32;
            n += 1;
        }
    }
    n
}

/// Where digit i of a shape's canonical instance goes under the board symmetry that maps
/// the instance onto itself (a mirror); `None` for corner2x5, which has none.
fn mirror_digits(s: usize) -> Option<Vec<usize>> {
    match s {
        0 => Some(vec![7, 6, 5, 4, 3, 2, 1, 0, 9, 8]),
        1 => Some(vec![0, 3, 6, 1, 4, 7, 2, 5, 8]),
        2 => None,
        _ => {
            let n = SHAPES[s].squares as usize;
            Some((0..n).rev().collect())
        }
    }
}

/// For every weight index of a stage, the index of its mirror image (itself where the shape
/// has no mirror or for the non-pattern terms). Fitting ties the two so that mirror-image
/// positions score the same and each configuration's data counts twice.
pub fn mirror_table() -> Vec<u32> {
    let mut t: Vec<u32> = (0..STAGE_LEN as u32).collect();
    for s in 0..SHAPES.len() {
        let Some(perm) = mirror_digits(s) else {
            continue;
        };
        let n = SHAPES[s].squares as usize;
        for idx in 0..pow3(n as u32) {
            let (mut rest, mut out) = (idx, 0);
            for &to in perm.iter().take(n) {
                out += (rest % 3) * pow3(to as u32);
                rest /= 3;
            }
            t[OFFSETS[s] + idx] = (OFFSETS[s] + out) as u32;
        }
    }
    t
}

/// Fitted pattern weights: `stages` tables of `STAGE_LEN` centi-disc values.
#[derive(Clone)]
pub struct Patterns {
    /// Empties per stage: stage = min(empties, 60) / width.
    pub width: u32,
    pub outer: bool,
    pub weights: Vec<i16>,
}

impl std::fmt::Debug for Patterns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let nonzero = self.weights.iter().filter(|&&w| w != 0).count();
        write!(
            f,
            "Patterns {{ width: {}, outer: {}, {} of {} weights non-zero }}",
            self.width,
            self.outer,
            nonzero,
            self.weights.len()
        )
    }
}

impl Patterns {
    pub fn stages(width: u32) -> usize {
        60 / width as usize + 1
    }

    pub fn zero(width: u32, outer: bool) -> Patterns {
        Patterns {
            width,
            outer,
            weights: vec![0; Self::stages(width) * STAGE_LEN],
        }
    }

    #[inline(always)]
    pub fn stage_of(&self, empties: u32) -> usize {
        (empties.min(60) / self.width) as usize
    }

    /// Static evaluation in centi-discs for the side to move.
    #[inline]
    pub fn evaluate(&self, b: &Board) -> i32 {
        self.evaluate_f::<{ super::isa::PLAIN }>(b)
    }

    /// `evaluate` with the move generator (and, inside the search's copies, the popcount)
    /// of instruction level `I` (`super::isa`).
    #[inline(always)]
    pub fn evaluate_f<const I: u8>(&self, b: &Board) -> i32 {
        let n = b.empties().count_ones();
        let w = &self.weights[self.stage_of(n) * STAGE_LEN..][..STAGE_LEN];
        let mut pat = [0u32; INSTANCES];
        indices(b, &mut pat);
        let mut s: i32 = 0;
        for &i in &pat {
            s += w[i as usize] as i32;
        }
        self.finish::<I>(w, b, n, s)
    }

    /// `evaluate_f` with the pattern indices given (`pattern_incr::Features::for_mover`
    /// of `b`, without the shapes' table offsets): the same value.
    #[inline(always)]
    pub fn evaluate_indexed<const I: u8>(
        &self,
        b: &Board,
        idx: &[u16; super::pattern_incr::LANES],
    ) -> i32 {
        let n = b.empties().count_ones();
        let w = &self.weights[self.stage_of(n) * STAGE_LEN..][..STAGE_LEN];
        let mut s: i32 = 0;
        for k in 0..INSTANCES {
            s += w[super::pattern_incr::INSTANCE_OFFSET[k] + idx[k] as usize] as i32;
        }
        self.finish::<I>(w, b, n, s)
    }

    /// The mobility, parity and outer terms added to the patterns' sum `s`, clamped.
    #[inline(always)]
    fn finish<const I: u8>(&self, w: &[i16], b: &Board, n: u32, mut s: i32) -> i32 {
        let mp = (moves_f::<I>(b.p, b.o).count_ones() as usize).min(MOBILITY_CAP);
        let mo = (moves_f::<I>(b.o, b.p).count_ones() as usize).min(MOBILITY_CAP);
        s += w[MOB_P + mp] as i32 + w[MOB_O + mo] as i32;
        s += w[PARITY + (n & 1) as usize] as i32;
        if self.outer {
            let mut own = b.p & !CENTRE;
            while own != 0 {
                let sq = own.trailing_zeros() as usize;
                own &= own - 1;
                s += w[OUTER + 2 * sq] as i32;
            }
            let mut theirs = b.o & !CENTRE;
            while theirs != 0 {
                let sq = theirs.trailing_zeros() as usize;
                theirs &= theirs - 1;
                s += w[OUTER + 2 * sq + 1] as i32;
            }
        }
        // Keep clear of exact endgame scores (±6400) so the search can tell them apart.
        s.clamp(-6000, 6000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::SmallRng, Rng, SeedableRng};

    /// The squares of each shape's canonical instance, listed by hand (digit order).
    fn canonical_squares(s: usize) -> Vec<usize> {
        match s {
            0 => vec![0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
            1 => vec![0, 1, 2, 8, 9, 10, 16, 17, 18],
            2 => vec![0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
            3 => (8..16).collect(),
            4 => (16..24).collect(),
            5 => (24..32).collect(),
            _ => {
                let k = 14 - s;
                (0..k).map(|i| (i + 8 - k) * 8 + i).collect()
            }
        }
    }

    /// A symmetry applied square by square: (row, col) -> ...
    fn map_square(t: usize, sq: usize) -> usize {
        let (mut r, mut c) = (sq / 8, sq % 8);
        if t >= 4 {
            c = 7 - c;
        }
        for _ in 0..t % 4 {
            // One quarter turn as `rotate` does: transpose then flip rows.
            (r, c) = (7 - c, r);
        }
        r * 8 + c
    }

    fn random_board(rng: &mut SmallRng) -> Board {
        let mut b = Board::start();
        for _ in 0..rng.gen_range(0..60) {
            match b.play_random(rng) {
                Some(next) => b = next,
                None => break,
            }
        }
        b
    }

    #[test]
    fn transforms_move_squares_like_the_square_formula() {
        for sq in 0..64 {
            let s = symmetries(1u64 << sq);
            for (t, img) in s.iter().enumerate() {
                assert_eq!(*img, 1u64 << map_square(t, sq), "t {t} sq {sq}");
            }
        }
    }

    #[test]
    fn indices_equal_a_square_by_square_base3_reading() {
        // Independent reading: for each instance, pull the squares back through the
        // symmetry and read digits one square at a time.
        let mut rng = SmallRng::seed_from_u64(5);
        for _ in 0..300 {
            let b = random_board(&mut rng);
            let mut got = [0u32; INSTANCES];
            indices(&b, &mut got);
            let mut n = 0;
            for (s, shape) in SHAPES.iter().enumerate() {
                for &t in shape.syms {
                    let mut idx = 0usize;
                    let mut p3 = 1;
                    for &csq in &canonical_squares(s) {
                        // The transformed board has at csq what the board has at the
                        // square that the symmetry maps onto csq.
                        let src = (0..64).find(|&q| map_square(t, q) == csq).unwrap();
                        let d = if b.p >> src & 1 != 0 {
                            1
                        } else if b.o >> src & 1 != 0 {
                            2
                        } else {
                            0
                        };
                        idx += d * p3;
                        p3 *= 3;
                    }
                    assert_eq!(got[n] as usize, OFFSETS[s] + idx, "shape {}", shape.name);
                    n += 1;
                }
            }
        }
    }

    #[test]
    fn every_square_is_covered_and_instances_are_distinct() {
        // Each shape's instances are different square sets (no symmetry counted twice).
        for (s, shape) in SHAPES.iter().enumerate() {
            let sets: Vec<u64> = shape
                .syms
                .iter()
                .map(|&t| {
                    canonical_squares(s)
                        .iter()
                        .map(|&c| 1u64 << (0..64).find(|&q| map_square(t, q) == c).unwrap())
                        .fold(0, |a, b| a | b)
                })
                .collect();
            for i in 0..sets.len() {
                for j in 0..i {
                    assert_ne!(sets[i], sets[j], "{} {i} {j}", shape.name);
                }
            }
        }
        assert_eq!(INSTANCES, 46);
    }

    #[test]
    fn symmetric_positions_evaluate_the_same() {
        // Random weights made mirror-symmetric the way fitting ties them.
        let mut rng = SmallRng::seed_from_u64(8);
        let mut w = Patterns::zero(4, true);
        let mirror = mirror_table();
        for (i, x) in w.weights.iter_mut().enumerate() {
            let j = i % STAGE_LEN;
            let k = (i - j) + j.min(mirror[j] as usize);
            *x = ((k * 2_654_435_761) % 201) as i16 - 100;
        }
        // The outer term is a per-square table and is not symmetric by construction.
        w.outer = false;
        for _ in 0..200 {
            let b = random_board(&mut rng);
            let v = w.evaluate(&b);
            let (ps, os) = (symmetries(b.p), symmetries(b.o));
            for t in 1..8 {
                assert_eq!(w.evaluate(&Board { p: ps[t], o: os[t] }), v);
            }
        }
    }

    #[test]
    fn evaluate_sums_the_active_weights() {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut w = Patterns::zero(5, true);
        for (i, x) in w.weights.iter_mut().enumerate() {
            *x = ((i * 40503) % 31) as i16 - 15;
        }
        for _ in 0..200 {
            let b = random_board(&mut rng);
            let mut act = [0u32; INSTANCES + 3 + 48];
            let n = active(&b, true, &mut act);
            let base = w.stage_of(b.empties().count_ones()) * STAGE_LEN;
            let sum: i32 = act[..n]
                .iter()
                .map(|&i| w.weights[base + i as usize] as i32)
                .sum();
            assert_eq!(w.evaluate(&b), sum.clamp(-6000, 6000));
        }
    }
}
