//! Phase-dependent linear evaluation over hand-crafted features, weights from a data file.
//!
//! The weights live in `data/othello/weights.txt` (embedded as the default, replaceable
//! with `--weights FILE`) so that learning can swap them without touching code. The
//! default is fitted to WTHOR games by `quartet train othello linear` (92.5% against GRhino
//! level 3, where the hand-set `weights-hand.txt` had 76%).
//! Scores are centi-discs (100 = one disc) from the side to move.
use super::bitboard::{moves_f, neighbours, CORNERS, FILE_A, FILE_H};
use super::board::Board;
use super::stability::stable_both;
use std::fmt;

/// The default weights, fitted to WTHOR theoretical scores by `quartet train othello linear`.
pub const DEFAULT_WEIGHTS: &str = include_str!("../../data/othello/weights.txt");

/// Largest weights file `--weights` reads (64 MiB): far above any text table of
/// weights (today's is 2 KB), and a bound for `/dev/zero`.
pub const MAX_WEIGHTS_BYTES: u64 = 64 << 20;

/// The hand-set weights the fitted ones replaced (`--weights data/othello/weights-hand.txt`).
pub const HAND_WEIGHTS: &str = include_str!("../../data/othello/weights-hand.txt");

/// Feature names in file order.
pub const FEATURES: [&str; 9] = [
    "mobility",
    "potential",
    "corners",
    "xsquares",
    "csquares",
    "stable",
    "edges",
    "parity",
    "discs",
];
const NF: usize = FEATURES.len();

const X_SQUARES: [(usize, usize); 4] = [(9, 0), (14, 7), (49, 56), (54, 63)];
const C_SQUARES: [(usize, usize); 8] = [
    (1, 0),
    (8, 0),
    (6, 7),
    (15, 7),
    (48, 56),
    (57, 56),
    (55, 63),
    (62, 63),
];
const EDGES: u64 = (FILE_A | FILE_H | 0xff | (0xff << 56)) & !CORNERS;

/// A malformed weights file, with the line it was found on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "weights file: {}", self.message)
        } else {
            write!(f, "weights file line {}: {}", self.line, self.message)
        }
    }
}

/// Weights for every number of empties 0..=60, interpolated from the file's stages.
#[derive(Clone, Debug)]
pub struct Weights {
    per_empties: Vec<[i32; NF]>,
}

impl Weights {
    pub fn default_weights() -> Weights {
        Weights::parse(DEFAULT_WEIGHTS).expect("embedded weights parse")
    }

    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let err = |line: usize, m: String| WeightsError { line, message: m };
        let mut have_features = false;
        let mut stages: Vec<(u32, [f64; NF])> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut tok = line.split_whitespace();
            match tok.next() {
                Some("features") => {
                    let names: Vec<&str> = tok.collect();
                    if names != FEATURES {
                        return Err(err(
                            n,
                            format!("features must be exactly: {}", FEATURES.join(" ")),
                        ));
                    }
                    have_features = true;
                }
                Some("stage") => {
                    if !have_features {
                        return Err(err(n, "'features' line must come before stages".into()));
                    }
                    let e: u32 = tok
                        .next()
                        .and_then(|t| t.parse().ok())
                        .filter(|&e| e <= 60)
                        .ok_or_else(|| err(n, "stage needs an empties count 0..=60".into()))?;
                    let vals: Vec<&str> = tok.collect();
                    if vals.len() != NF {
                        return Err(err(
                            n,
                            format!("stage {e} has {} weights, expected {NF}", vals.len()),
                        ));
                    }
                    let mut w = [0f64; NF];
                    for (k, v) in vals.iter().enumerate() {
                        w[k] = v
                            .parse::<f64>()
                            .ok()
                            .filter(|x| x.is_finite() && x.abs() <= 1e5)
                            .ok_or_else(|| err(n, format!("bad weight '{v}'")))?;
                    }
                    if stages.iter().any(|s| s.0 == e) {
                        return Err(err(n, format!("stage {e} given twice")));
                    }
                    stages.push((e, w));
                }
                Some(other) => return Err(err(n, format!("unknown keyword '{other}'"))),
                None => {}
            }
        }
        if stages.is_empty() {
            return Err(err(
                0,
                "no 'stage' lines (truncated or not a weights file?)".into(),
            ));
        }
        stages.sort_by_key(|s| s.0);
        let per_empties = (0..=60u32)
            .map(|e| {
                let hi = stages.iter().position(|s| s.0 >= e);
                let w = match hi {
                    None => stages[stages.len() - 1].1,
                    Some(0) => stages[0].1,
                    Some(h) => {
                        let (e0, w0) = stages[h - 1];
                        let (e1, w1) = stages[h];
                        let t = (e - e0) as f64 / (e1 - e0) as f64;
                        let mut w = [0f64; NF];
                        for k in 0..NF {
                            w[k] = w0[k] + (w1[k] - w0[k]) * t;
                        }
                        w
                    }
                };
                w.map(|x| x.round() as i32)
            })
            .collect();
        Ok(Weights { per_empties })
    }

    pub fn load(path: &std::path::Path) -> Result<Weights, String> {
        let text = crate::bounded_read::read_to_string_capped(path, MAX_WEIGHTS_BYTES)?;
        Weights::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The feature vector of `b`, side to move minus opponent.
pub fn features(b: &Board) -> [i32; NF] {
    features_f::<{ super::isa::PLAIN }>(b)
}

/// `features` with the move generator of instruction level `I` (`super::isa`).
#[inline(always)]
pub fn features_f<const I: u8>(b: &Board) -> [i32; NF] {
    let (p, o) = (b.p, b.o);
    let empty = b.empties();
    let mp = moves_f::<I>(p, o);
    let mo = moves_f::<I>(o, p);
    let mob = (mp.count_ones() + (mp & CORNERS).count_ones()) as i32
        - (mo.count_ones() + (mo & CORNERS).count_ones()) as i32;
    let pot =
        (neighbours(o) & empty).count_ones() as i32 - (neighbours(p) & empty).count_ones() as i32;
    let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
    let mut x = 0;
    for (sq, c) in X_SQUARES {
        if empty >> c & 1 != 0 {
            x += (p >> sq & 1) as i32 - (o >> sq & 1) as i32;
        }
    }
    let mut cs = 0;
    for (sq, c) in C_SQUARES {
        if empty >> c & 1 != 0 {
            cs += (p >> sq & 1) as i32 - (o >> sq & 1) as i32;
        }
    }
    let st = if (p | o) & CORNERS != 0 {
        let (sp, so) = stable_both(p, o);
        sp.count_ones() as i32 - so.count_ones() as i32
    } else {
        0
    };
    let edges = (p & EDGES).count_ones() as i32 - (o & EDGES).count_ones() as i32;
    let parity = if empty.count_ones() & 1 == 1 { 1 } else { -1 };
    let discs = p.count_ones() as i32 - o.count_ones() as i32;
    [mob, pot, corners, x, cs, st, edges, parity, discs]
}

/// Static evaluation in centi-discs for the side to move.
pub fn evaluate(w: &Weights, b: &Board) -> i32 {
    evaluate_f::<{ super::isa::PLAIN }>(w, b)
}

/// `evaluate` with the move generator of instruction level `I` (`super::isa`).
#[inline(always)]
pub fn evaluate_f<const I: u8>(w: &Weights, b: &Board) -> i32 {
    let f = features_f::<I>(b);
    let ws = &w.per_empties[(b.empties().count_ones() as usize).min(60)];
    let mut s = 0;
    for k in 0..NF {
        s += ws[k] * f[k];
    }
    // Keep clear of exact endgame scores (±6400) so the search can tell them apart.
    s.clamp(-6000, 6000)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-set weights, a fixed test input.
    const HAND: &str = HAND_WEIGHTS;

    #[test]
    fn fitted_weights_agree_with_othello_knowledge() {
        let w = Weights::default_weights();
        assert_eq!(w.per_empties.len(), 61);
        for e in 12..=28 {
            let ws = w.per_empties[e];
            assert!(ws[0] > 0, "mobility at {e}");
            assert!(ws[2] > 0, "corners at {e}");
            assert!(ws[3] < 0, "x-squares at {e}");
            assert!(ws[5] > 0, "stable discs at {e}");
        }
    }

    #[test]
    fn weights_load_and_interpolate() {
        let w = Weights::parse(HAND).unwrap();
        assert_eq!(w.per_empties.len(), 61);
        assert_eq!(w.per_empties[60][2], 800);
        assert_eq!(w.per_empties[0][8], 100);
        // Halfway between stage 0 (discs 100) and stage 14 (discs 30).
        assert_eq!(w.per_empties[7][8], 65);
    }

    #[test]
    fn broken_files_are_rejected_with_a_reason() {
        let truncated = &HAND[..HAND.find("stage 44").unwrap() + 12];
        let e = Weights::parse(truncated).unwrap_err();
        assert!(e.message.contains("weights, expected 9"), "{e}");
        let e = Weights::parse("\u{0}\u{1}garbage").unwrap_err();
        assert!(e.message.contains("unknown keyword"), "{e}");
        let e = Weights::parse("").unwrap_err();
        assert!(e.to_string().contains("no 'stage' lines"));
        let bad = HAND.replace("stage 28    70", "stage 28    x70");
        assert!(Weights::parse(&bad)
            .unwrap_err()
            .message
            .contains("bad weight"));
    }

    #[test]
    fn a_corner_is_worth_having() {
        let w = Weights::parse(HAND).unwrap();
        // Same material, but the side to move owns a1.
        let mut sq = ["-"; 64];
        sq[0] = "X";
        sq[27] = "O";
        let (with, _) = Board::from_obf(&sq.concat(), "X").unwrap();
        assert!(evaluate(&w, &with) > 0);
        assert!(evaluate(&w, &with.pass()) < 0);
        // Start position is symmetric.
        assert_eq!(
            evaluate(&w, &Board::start()),
            evaluate(&w, &Board::start().pass())
        );
    }
}
