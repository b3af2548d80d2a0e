//! Minorization-maximization fit of the generalized Bradley-Terry model of `features.rs`
//! (Coulom 2007), and its move-prediction rate on held-out positions.
//!
//! For feature i, one MM step is `gamma_i <- W_i / sum_j C_ij / E_j`: W_i counts the played
//! moves that have i, E_j is the total strength of the candidates of position j and C_ij the
//! strength of j's candidates that have i, divided by gamma_i. One group is updated at a time
//! (the features of a group never share a candidate, so the step is exact for the group).
//! Every feature also gets one virtual win and one virtual loss against a strength-1
//! opponent, which keeps rare features near 1.
use std::collections::HashMap;

use super::board::{Board, Move, Point};
use super::diamond::{self, DiamondTable};
use super::features::{self, Features, Gammas, DIAMOND, GROUPS};

/// Positions with their candidates' features and the index of the move played.
#[derive(Default)]
pub struct Dataset {
    pub feats: Vec<Features>,
    /// Each candidate's canonical diamond code, beside `feats`: the diamond levels depend
    /// on which codes are frequent in the training data, known only once it is all read
    /// ([`Dataset::assign_diamonds`]).
    pub diamonds: Vec<u32>,
    /// Candidates of position j: `feats[start[j]..start[j + 1]]`.
    pub start: Vec<u32>,
    pub played: Vec<u32>,
}

impl Dataset {
    pub fn positions(&self) -> usize {
        self.played.len()
    }

    fn range(&self, j: usize) -> std::ops::Range<usize> {
        self.start[j] as usize..self.start[j + 1] as usize
    }

    /// Adds a position; `played` indexes `cands`, `diamonds` are their codes.
    pub fn push(&mut self, cands: &[Features], diamonds: &[u32], played: usize) {
        debug_assert_eq!(cands.len(), diamonds.len());
        if self.start.is_empty() {
            self.start.push(0);
        }
        self.feats.extend_from_slice(cands);
        self.diamonds.extend_from_slice(diamonds);
        self.start.push(self.feats.len() as u32);
        self.played.push(played as u32);
    }

    /// Diamond codes that occur among at least `min_count` candidates, most frequent first
    /// (ties by code, so the list is reproducible), at most [`diamond::MAX_DIAMONDS`].
    pub fn frequent_diamonds(&self, min_count: usize) -> Vec<u32> {
        let mut counts: HashMap<u32, usize> = HashMap::new();
        for &c in &self.diamonds {
            *counts.entry(c).or_default() += 1;
        }
        let mut out: Vec<(usize, u32)> = counts
            .into_iter()
            .filter(|&(_, n)| n >= min_count.max(1))
            .map(|(c, n)| (n, c))
            .collect();
        out.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        out.truncate(diamond::MAX_DIAMONDS);
        out.into_iter().map(|(_, c)| c).collect()
    }

    /// Sets every candidate's diamond level from `table` (0 for codes it lacks).
    pub fn assign_diamonds(&mut self, table: &DiamondTable) {
        for (f, &c) in self.feats.iter_mut().zip(&self.diamonds) {
            f[DIAMOND] = table.level(c);
        }
    }
}

/// The candidates the tree considers at `b`: legal moves that do not fill an own eye.
pub fn candidates(b: &Board, out: &mut Vec<Point>) {
    let c = b.to_move();
    out.clear();
    for &p in b.empty_points() {
        let p = p as usize;
        if b.is_legal(c, p) && !b.is_eye(c, p) {
            out.push(p);
        }
    }
}

/// Adds the positions of one game (`moves` from the empty board, Black first) to `data`,
/// skipping the first `skip` moves as targets (random openings) and passes.
pub fn add_game(
    size: usize,
    moves: &[Move],
    skip: usize,
    data: &mut Dataset,
) -> Result<(), String> {
    let mut b = Board::new(size);
    let mut pts = Vec::new();
    let mut cands = Vec::new();
    let mut codes = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        let c = b.to_move();
        if i >= skip {
            if let Move::Play(p) = m {
                candidates(&b, &mut pts);
                if let Some(k) = pts.iter().position(|&q| q == p) {
                    cands.clear();
                    cands.extend(pts.iter().map(|&q| features::features(&b, c, q)));
                    codes.clear();
                    codes.extend(pts.iter().map(|&q| diamond::code(&b, c, q)));
                    data.push(&cands, &codes, k);
                }
            }
        }
        if !b.play(c, m) {
            return Err(format!("move {} is illegal", i + 1));
        }
    }
    Ok(())
}

/// Runs `iterations` rounds of MM over all groups, starting from `g`.
pub fn fit(data: &Dataset, g: &mut Gammas, iterations: usize) {
    let n = g.len();
    let mut wins = vec![0.0f64; n];
    for j in 0..data.positions() {
        let f = &data.feats[data.start[j] as usize + data.played[j] as usize];
        for (grp, &l) in f.iter().enumerate() {
            wins[g.index(grp, l)] += 1.0;
        }
    }
    let mut denom = vec![0.0f64; n];
    for _ in 0..iterations {
        for grp in 0..GROUPS {
            if g.levels(grp) == 1 {
                continue; // only the fixed level 0 (a model without diamonds)
            }
            denom.iter_mut().for_each(|d| *d = 0.0);
            for j in 0..data.positions() {
                let r = data.range(j);
                let total: f64 = data.feats[r.clone()]
                    .iter()
                    .map(|f| g.strength(f) as f64)
                    .sum();
                for f in &data.feats[r] {
                    let i = g.index(grp, f[grp]);
                    // The candidate's strength without feature i.
                    let rest = g.strength(f) as f64 / g.flat()[i] as f64;
                    denom[i] += rest / total;
                }
            }
            let lo = g.index(grp, 0);
            let hi = g.index(grp, g.levels(grp) as u16 - 1);
            for i in lo..=hi {
                if i == lo && grp != features::PATTERN && grp != features::LINE {
                    continue; // "no feature of this group" stays 1
                }
                let old = g.flat()[i] as f64;
                let new = (wins[i] + 1.0) / (denom[i] + 2.0 / (old + 1.0));
                g.set_flat(i, new.clamp(1e-6, 1e6) as f32);
            }
        }
    }
}

/// Prediction figures of a scorer on a dataset.
#[derive(Debug, Default, Clone, Copy)]
pub struct Prediction {
    pub positions: usize,
    /// Expected top-1 hits (ties among the best count as a share).
    pub top1: f64,
    /// Mean log-likelihood of the played move (natural log), for probabilistic scorers.
    pub log_likelihood: f64,
}

impl Prediction {
    pub fn rate(&self) -> f64 {
        self.top1 / self.positions.max(1) as f64
    }
}

/// Top-1 hits of the played move under `scores` (one per candidate).
pub fn top1_share(scores: &[f32], played: usize) -> f64 {
    let best = scores.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
    if scores[played] < best {
        return 0.0;
    }
    1.0 / scores.iter().filter(|&&s| s == best).count() as f64
}

/// Prediction rate and log-likelihood of the model on `data`.
pub fn evaluate(data: &Dataset, g: &Gammas) -> Prediction {
    let mut out = Prediction::default();
    let mut scores = Vec::new();
    for j in 0..data.positions() {
        scores.clear();
        scores.extend(data.feats[data.range(j)].iter().map(|f| g.strength(f)));
        let total: f64 = scores.iter().map(|&s| s as f64).sum();
        let k = data.played[j] as usize;
        out.positions += 1;
        out.top1 += top1_share(&scores, k);
        out.log_likelihood += (scores[k] as f64 / total).ln();
    }
    out.log_likelihood /= out.positions.max(1) as f64;
    out
}

/// One game record line of `scripts/go_mm_games.py`:
/// `size 9 komi 7 random K level L moves C3 D4 ... pass`. Returns size, moves, K.
pub fn parse_record(line: &str) -> Result<(usize, Vec<Move>, usize), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let field = |name: &str| -> Result<usize, String> {
        let i = words
            .iter()
            .position(|&w| w == name)
            .ok_or_else(|| format!("no `{name}`"))?;
        words
            .get(i + 1)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("bad `{name}`"))
    };
    let size = field("size")?;
    if !super::board::valid_size(size) {
        return Err(format!("bad size {size}"));
    }
    let skip = field("random")?;
    let m = words
        .iter()
        .position(|&w| w == "moves")
        .ok_or("no `moves`")?;
    let b = Board::new(size);
    let mut moves = Vec::new();
    for w in &words[m + 1..] {
        let v =
            crate::protocol::coords::parse_vertex(w, size).map_err(|e| format!("{w}: {}", e.0))?;
        moves.push(match v {
            None => Move::Pass,
            Some((c, r)) => Move::Play(b.point(c, r)),
        });
    }
    Ok((size, moves, skip))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Positions whose candidates draw capture and atari levels at random and whose played
    /// move is drawn with the probabilities of known gammas: the fit must find them again.
    #[test]
    fn fit_recovers_the_gammas_that_made_the_data() {
        let mut truth = Gammas::new();
        let want = [
            (features::CAPTURE, 1, 6.0f32),
            (features::CAPTURE, 2, 0.5),
            (features::CAPTURE, 3, 2.0),
            (features::ATARI, 1, 3.0),
            (features::ATARI, 2, 0.25),
        ];
        for &(g, l, v) in &want {
            let i = truth.index(g, l);
            truth.set_flat(i, v);
        }
        let mut rng = SmallRng::seed_from_u64(7);
        let mut data = Dataset::default();
        let mut cands = Vec::new();
        let mut base = [0u16; GROUPS];
        // Every candidate has a pattern and a line (level 1 of each, strength 1).
        base[features::PATTERN] = 1;
        base[features::LINE] = 1;
        for _ in 0..20_000 {
            cands.clear();
            for _ in 0..10 {
                let mut f = base;
                f[features::CAPTURE] = rng.gen_range(0..4);
                f[features::ATARI] = rng.gen_range(0..3);
                cands.push(f);
            }
            let total: f32 = cands.iter().map(|f| truth.strength(f)).sum();
            let mut x = rng.gen::<f32>() * total;
            let mut k = cands.len() - 1;
            for (i, f) in cands.iter().enumerate() {
                x -= truth.strength(f);
                if x < 0.0 {
                    k = i;
                    break;
                }
            }
            data.push(&cands, &vec![0; cands.len()], k);
        }
        let mut g = Gammas::new();
        fit(&data, &mut g, 30);
        // Only ratios within a group matter; the levels with features are relative to
        // level 0 (fixed at 1), pattern and line are free but shared by all candidates.
        for &(grp, l, v) in &want {
            let got = g.get(grp, l);
            assert!(
                (got / v - 1.0).abs() < 0.1,
                "group {grp} level {l}: want {v}, got {got}"
            );
        }
        let p = evaluate(&data, &g);
        assert!(p.rate() > 0.2, "{p:?}");
    }

    #[test]
    fn records_parse_and_yield_positions() {
        let (size, moves, skip) =
            parse_record("size 9 komi 7 random 2 level 0 moves E5 C3 D4 pass pass").unwrap();
        assert_eq!((size, moves.len(), skip), (9, 5, 2));
        let mut d = Dataset::default();
        add_game(size, &moves, skip, &mut d).unwrap();
        // D4 is the only non-random, non-pass move.
        assert_eq!(d.positions(), 1);
        assert!(parse_record("size 9 komi 7 random 2 level 0 moves Z5").is_err());
        let (_, bad, _) = parse_record("size 9 random 0 moves E5 E5").unwrap();
        assert!(add_game(9, &bad, 0, &mut Dataset::default()).is_err());
    }

    #[test]
    fn frequent_diamonds_get_levels_and_the_rest_stay_rare() {
        let mut d = Dataset::default();
        let f = [0u16; GROUPS];
        // Code 5 three times, 9 twice, 7 once.
        d.push(&[f, f, f], &[5, 9, 7], 0);
        d.push(&[f, f, f], &[5, 5, 9], 1);
        let codes = d.frequent_diamonds(2);
        assert_eq!(codes, vec![5, 9]);
        d.assign_diamonds(&DiamondTable::new(codes));
        let levels: Vec<u16> = d.feats.iter().map(|f| f[DIAMOND]).collect();
        assert_eq!(levels, vec![1, 2, 0, 1, 1, 2]);
        assert_eq!(d.frequent_diamonds(4), Vec::<u32>::new());
    }

    #[test]
    fn top1_counts_ties_as_shares() {
        assert_eq!(top1_share(&[1.0, 3.0, 3.0], 1), 0.5);
        assert_eq!(top1_share(&[1.0, 3.0, 3.0], 0), 0.0);
        assert_eq!(top1_share(&[4.0, 3.0], 0), 1.0);
    }
}
