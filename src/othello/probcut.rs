//! Multi-ProbCut (Buro 1997, as Logistello and Edax use it): at a null-window node of
//! depth `D` a search of depth `d = shallow(D)` predicts the deep value, `v_D ~ v_d`, with
//! an error whose spread `sigma` was measured on self-play positions (`quartet bench
//! othello probcut-fit`); when the shallow value clears the window by `t * sigma` the node
//! is cut without the deep search. The deep searches it saves buy more depth in the same time.
//!
//! The errors are the pattern evaluation's (the linear one was not fitted: the search uses
//! ProbCut only with the pattern tables).

/// The engine's selectivity (`quartet othello --probcut`).
pub const DEFAULT_T: f64 = 1.5;

/// A `--probcut` selectivity as the searcher takes it: hundredths, `None` when 0 (off).
pub fn hundredths(t: f64) -> Option<i32> {
    (t > 0.0).then(|| (t * 100.0).round() as i32)
}

/// Shallowest node depth that tries a cut.
pub const MIN_DEPTH: u32 = 3;

/// Depth of the predicting search: about a quarter, of the same parity as `depth` (the
/// pattern tables' scores swing by side to move from one depth to the next).
pub fn shallow(depth: u32) -> u32 {
    2 * (depth / 4) + (depth & 1)
}

/// Stage bucket of a position for the error table: 8 empties per bucket from 20 up.
pub fn bucket(empties: u32) -> usize {
    ((empties.saturating_sub(20) / 8) as usize).min(BUCKETS - 1)
}

pub const BUCKETS: usize = 5;
/// Deepest node depth with its own row; deeper nodes use this row.
pub const MAX_FITTED: u32 = 11;

/// Standard deviation of `v_D - v_shallow(D)` in centi-discs, by node depth `D` (from
/// `MIN_DEPTH`) and stage bucket: `quartet train othello probcut --positions
/// selfplay-s31.txt --count 600 --max-depth 11` (the v4 tables; self-play positions made
/// by scripts/othello_patterns.sh). Each cell had 121-170 positions, except 52+ empties
/// (4: the 44-51 row's value). The means were within +-1 disc, inside their noise: taken as 0.
#[rustfmt::skip]
const SIGMA: [[i16; BUCKETS]; (MAX_FITTED - MIN_DEPTH + 1) as usize] = [
    [379, 388, 410, 291, 291], // D=3 d=1
    [326, 341, 323, 267, 267], // D=4 d=2
    [287, 300, 258, 220, 220], // D=5 d=3
    [414, 437, 421, 340, 340], // D=6 d=2
    [391, 404, 304, 278, 278], // D=7 d=3
    [362, 309, 298, 239, 239], // D=8 d=4
    [344, 328, 265, 247, 247], // D=9 d=5
    [406, 361, 356, 289, 289], // D=10 d=4
    [387, 371, 313, 296, 296], // D=11 d=5
];

/// How far the shallow search must clear the window, `t * sigma` in centi-discs, for a
/// node of `depth` with `empties`; `t` in hundredths.
#[inline]
pub fn margin(depth: u32, empties: u32, t_pct: i32) -> i32 {
    let row = (depth.min(MAX_FITTED) - MIN_DEPTH) as usize;
    SIGMA[row][bucket(empties)] as i32 * t_pct / 100
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_predicting_search_is_shallower_with_the_same_parity() {
        for depth in MIN_DEPTH..=40 {
            let d = shallow(depth);
            assert!(d >= 1 && d < depth, "{depth} -> {d}");
            assert_eq!(d % 2, depth % 2, "{depth} -> {d}");
        }
    }

    #[test]
    fn margins_grow_with_t_and_cover_every_stage() {
        for depth in MIN_DEPTH..=30 {
            for empties in 0..=60 {
                let m = margin(depth, empties, 100);
                assert!((100..=1000).contains(&m), "{depth} {empties}: {m}");
                assert_eq!(margin(depth, empties, 200), 2 * m);
            }
        }
    }
}
