//! Pattern indices kept up to date move by move, for the search.
//!
//! Computing the 46 base-3 indices from scratch (16 board images, 92 digit extractions
//! and table reads) was 43% of the pattern search's time (`perf annotate`, depth-9
//! signature). A move changes only the placed square and the flipped ones, and each square
//! adds one power of 3 to the instances that cover it, so a child's indices are its
//! parent's plus a few vector additions of per-square power rows (Edax does the same).
//!
//! The evaluation reads indices from the side to move (own disc 1, other 2), and the
//! side to move alternates, so both readings are kept: `f` from the side whose discs are
//! `x`, `g` from the other side. At a leaf `b.p == x` says which one is the mover's
//! (two disjoint disc sets are equal only if both are empty, which no position is).
//! Passes need no update: the discs stay, only the side to move changes.
use super::board::Board;
use super::pattern::{indices, INSTANCES, OFFSETS, SHAPES};
use std::sync::OnceLock;

/// Lanes per index vector: the 46 instances, padded to three 256-bit registers.
pub const LANES: usize = 48;

/// Indices of one position read from both sides.
#[derive(Clone, Copy)]
pub struct Features {
    /// The discs of the side that `f` reads as digit 1.
    x: u64,
    f: [u16; LANES],
    g: [u16; LANES],
}

/// Start of each instance's table in a stage's weights (its shape's `OFFSETS` entry).
pub const INSTANCE_OFFSET: [usize; INSTANCES] = {
    let mut o = [0; INSTANCES];
    let (mut n, mut s) = (0, 0);
    while s < SHAPES.len() {
        let mut t = 0;
        while t < SHAPES[s].syms.len() {
            o[n] = OFFSETS[s];
            n += 1;
            t += 1;
        }
        s += 1;
    }
    o
};

/// For each square, what one own disc there adds to each instance's index (the power of 3
/// of its digit, 0 where the instance does not cover the square); read off `indices`
/// itself so the two cannot disagree.
pub fn powers() -> &'static [[u16; LANES]; 64] {
    static POWERS: OnceLock<[[u16; LANES]; 64]> = OnceLock::new();
    POWERS.get_or_init(|| {
        let mut t = [[0u16; LANES]; 64];
        for (sq, row) in t.iter_mut().enumerate() {
            *row = relative(&Board {
                p: 1u64 << sq,
                o: 0,
            });
        }
        t
    })
}

/// The indices of `b` from its side to move, without the shapes' table offsets.
fn relative(b: &Board) -> [u16; LANES] {
    let mut idx = [0u32; INSTANCES];
    indices(b, &mut idx);
    let mut out = [0u16; LANES];
    for k in 0..INSTANCES {
        out[k] = (idx[k] as usize - INSTANCE_OFFSET[k]) as u16;
    }
    out
}

impl Features {
    /// From scratch (the root of a search).
    pub fn new(b: &Board) -> Features {
        Features {
            x: b.p,
            f: relative(b),
            g: relative(&Board { p: b.o, o: b.p }),
        }
    }

    /// The indices of `b` (a position with these features) from its side to move.
    #[inline(always)]
    pub fn for_mover(&self, b: &Board) -> &[u16; LANES] {
        if b.p == self.x {
            &self.f
        } else {
            &self.g
        }
    }

    /// The features after the side to move of `b` plays `sq` flipping `flips`.
    #[inline(always)]
    pub fn play(&self, b: &Board, sq: usize, flips: u64, pow: &[[u16; LANES]; 64]) -> Features {
        let mut sum = [0u16; LANES];
        let mut rest = flips;
        while rest != 0 {
            let row = &pow[rest.trailing_zeros() as usize];
            rest &= rest - 1;
            for k in 0..LANES {
                sum[k] = sum[k].wrapping_add(row[k]);
            }
        }
        let placed = &pow[sq];
        let mut out = *self;
        // The mover's digit is 1 in the reading from its side, 2 in the other; a flipped
        // disc goes from 2 to 1 in the mover's reading and from 1 to 2 in the other.
        let (mine, theirs) = if b.p == self.x {
            out.x = b.p | flips | (1u64 << sq);
            (&mut out.f, &mut out.g)
        } else {
            out.x = b.o & !flips;
            (&mut out.g, &mut out.f)
        };
        for k in 0..LANES {
            mine[k] = mine[k].wrapping_add(placed[k]).wrapping_sub(sum[k]);
            theirs[k] = theirs[k]
                .wrapping_add(placed[k].wrapping_mul(2))
                .wrapping_add(sum[k]);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::bitboard::{flips, nth_square};
    use rand::{rngs::SmallRng, Rng, SeedableRng};

    #[test]
    fn played_features_equal_indices_from_scratch_through_whole_games() {
        // Random games with passes; after every move (and pass) the mover's indices must
        // be what `indices` reads from the new position, for both sides' readings.
        let pow = powers();
        let mut rng = SmallRng::seed_from_u64(17);
        let (mut moves_seen, mut passes) = (0, 0);
        for _ in 0..200 {
            let mut b = Board::start();
            let mut feats = Features::new(&b);
            loop {
                let mv = b.moves();
                if mv == 0 {
                    if b.is_game_over() {
                        break;
                    }
                    b = b.pass();
                    passes += 1;
                } else {
                    let sq = nth_square(mv, rng.gen_range(0..mv.count_ones()));
                    let f = flips(b.p, b.o, sq);
                    feats = feats.play(&b, sq, f, pow);
                    b = b.play_flips(sq, f);
                    moves_seen += 1;
                }
                assert_eq!(*feats.for_mover(&b), relative(&b));
                let swapped = Board { p: b.o, o: b.p };
                assert_eq!(*feats.for_mover(&swapped), relative(&swapped));
            }
        }
        assert!(moves_seen > 10_000 && passes > 0, "{moves_seen} {passes}");
    }

    #[test]
    fn a_square_adds_a_power_of_three_to_each_covering_instance() {
        // 356 covered squares over all instances (10+9+10 per corner/edge instance ...),
        // each a power of 3 below the instance's size.
        let pow = powers();
        let mut covered = 0;
        for row in pow.iter() {
            for (k, &v) in row.iter().enumerate().take(INSTANCES) {
                if v != 0 {
                    covered += 1;
                    assert!(
                        [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683].contains(&v),
                        "{k} {v}"
                    );
                }
            }
        }
        let expected: u32 = SHAPES.iter().map(|s| s.squares * s.syms.len() as u32).sum();
        assert_eq!(covered, expected);
        assert_eq!(expected, 356);
    }
}
