//! `quartet train gomoku fit`: fits the [`ClassWeights`] of the line-pattern evaluation to
//! self-play positions (`selfplay.rs`) by logistic regression ("Texel" tuning).
//!
//! The model, for the side to move: P(win) = sigmoid(a * paper + sum_k (m_k * mover_k -
//! w_k * waiter_k) + sum_j (lm_j * lmover_j - lw_j * lwaiter_j) + t), where `paper` is the
//! window-sum evaluation (`evaluate_sums`), mover_k / waiter_k count the empty cells in
//! class k of the two sides and lmover_j / lwaiter_j their (empty cell, direction) pairs in
//! line category j (the line terms are left out with `lines: false`). `a` is not fitted
//! with the rest: it is the scale that maps the search's scores (in the same units) to the
//! results, fitted first. The weights the engine adds to `paper` are m_k / a and w_k / a.
//! The target blends the game's result with the search's own opinion: `lambda * result +
//! (1 - lambda) * sigmoid(a * score + b)` (a result alone blames every move of a lost
//! game; a score alone is only as good as the search that gave
//! it). Positions the evaluation never values are left out: either side with a five to
//! complete (the search answers those), the mover with an open four, or a four-three or
//! double three against no fours (`threat_eval` rules those won).
//!
//! Every `holdout`-th game is kept out of the fit; the held-out error of the classic weights
//! (their scale and tempo fitted the same way) and of the fitted ones is printed.
//!
//! The pattern-code model ([`CodeWeights`], `--model codes`) replaces the class and line
//! terms by one weight per pattern code and side: its features are how many empty cells of
//! the mover and of the waiting side have each code (420 columns, most of them 0 in a
//! position), kept sparse and fitted by Newton's method with the Hessian summed over each
//! row's non-zero pairs ([`fit_sparse`]), for each L2 penalty asked. It is fitted twice: the
//! codes alone, and with one more column per threat mask ([`threat_mask`]: which threat
//! classes each side holds, weighed together rather than cell by cell; masks in fewer than
//! [`MASK_MIN_ROWS`] training positions keep weight 0). The fit with the lowest held-out
//! log-loss against the targets is written.
use super::board::{Board, Rule};
use super::eval::{evaluate_sums, threat_eval_counts, threat_mask, N_MASKS};
use super::patterns::{tables, Pattern4, PatternCounts, N_CLASSES, N_CODES, N_LINE_CATS};
use super::selfplay::GameRecord;
use super::weights::{ClassWeights, CodeWeights, MAX_WEIGHT};
use crate::color::Color;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Classes fitted for the mover: Flex2x2 ..= Block4Flex3 (an own Flex4 is ruled won).
const MOVER_K: std::ops::RangeInclusive<usize> = 1..=8;
/// Classes fitted for the waiting side: Flex2x2 ..= Flex4.
const WAITER_K: std::ops::RangeInclusive<usize> = 1..=9;
/// Line categories fitted for the mover: Flex2 ..= Block4 (an own Flex4 direction makes the
/// cell a Flex4, ruled won).
const MOVER_L: std::ops::RangeInclusive<usize> = 1..=4;
/// Line categories fitted for the waiting side: Flex2 ..= Flex4 (its fives are left out).
const WAITER_L: std::ops::RangeInclusive<usize> = 1..=5;
/// Features: paper, the mover's and the waiter's classes, the mover's and the waiter's line
/// categories, then the constant.
const NF: usize = 1 + 8 + 9 + 4 + 5 + 1;
/// Where the line features start in [`Sample::x`].
const L0: usize = 1 + 8 + 9;

/// Columns of the code model: codes 1.. of the mover, then of the waiting side (code 0,
/// nothing above Block2, weighs 0), then (with masks) one per threat mask, then the
/// constant.
const CODE_NF: usize = 2 * (N_CODES - 1);
/// The code model's columns with the threat masks.
const MASK_NF: usize = CODE_NF + N_MASKS;
/// Threat masks seen in fewer training positions keep weight 0.
const MASK_MIN_ROWS: usize = 200;

/// One position's features and labels.
#[derive(Clone, Debug)]
pub struct Sample {
    pub x: [f64; NF],
    /// The code model's non-zero columns, ascending: column << 8 | how many cells.
    pub codes: Vec<u32>,
    /// Class and line counts of both sides (mover first, as Black's slot) and the paper
    /// value, to value the position with any weights.
    pub counts: PatternCounts,
    pub paper: i32,
    /// The mover's result: 1 won, 0.5 drawn, 0 lost.
    pub result: f64,
    /// The search's score for the mover.
    pub score: f64,
    pub held_out: bool,
}

/// The positions of `games` worth fitting, every `holdout`-th game held out.
pub fn samples(size: usize, games: &[GameRecord], holdout: usize) -> Vec<Sample> {
    let mut out = Vec::new();
    for (gi, g) in games.iter().enumerate() {
        let mut b = Board::new(size, Rule::Freestyle);
        b.track_patterns();
        let held_out = holdout > 0 && gi % holdout == holdout - 1;
        for (i, &m) in g.moves.iter().enumerate() {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            if i >= g.random {
                if let Some(s) = sample(&b, c, g, i - g.random, held_out) {
                    out.push(s);
                }
            }
            let p = b.point(m as usize % size, m as usize / size);
            b.place(p, c);
        }
    }
    out
}

fn sample(b: &Board, c: Color, g: &GameRecord, k: usize, held_out: bool) -> Option<Sample> {
    let all = b.counts();
    let (ci, oi) = (c.index(), c.opponent().index());
    let counts = PatternCounts {
        class: [all.class[ci], all.class[oi]],
        line: [all.line[ci], all.line[oi]],
        code: [all.code[ci], all.code[oi]],
    };
    let (own, opp) = (&counts.class[0], &counts.class[1]);
    let five = Pattern4::Five as usize;
    let opp_fours: u16 = opp[Pattern4::Block4 as usize..].iter().sum();
    if own[five] > 0 || opp[five] > 0 || own[Pattern4::Flex4 as usize] > 0 {
        return None;
    }
    if opp_fours == 0 && own[Pattern4::Block4Flex3 as usize] + own[Pattern4::Flex3x2 as usize] > 0 {
        return None;
    }
    let paper = evaluate_sums(b.eval_sum(c), b.eval_sum(c.opponent()));
    let mut codes = code_columns(b, c);
    // The threat mask's column, last (the columns ascend).
    codes.push(((CODE_NF + threat_mask(all, c)) as u32) << 8 | 1);
    let mut x = [0.0; NF];
    x[0] = paper as f64;
    for (j, k) in MOVER_K.enumerate() {
        x[1 + j] = own[k] as f64;
    }
    for (j, k) in WAITER_K.enumerate() {
        x[9 + j] = opp[k] as f64;
    }
    for (j, k) in MOVER_L.enumerate() {
        x[L0 + j] = counts.line[0][k] as f64;
    }
    for (j, k) in WAITER_L.enumerate() {
        x[L0 + 4 + j] = counts.line[1][k] as f64;
    }
    x[NF - 1] = 1.0;
    let result = match g.winner {
        None => 0.5,
        Some(w) if w == c => 1.0,
        Some(_) => 0.0,
    };
    Some(Sample {
        x,
        codes,
        counts,
        paper,
        result,
        score: g.scores[k] as f64,
        held_out,
    })
}

/// The code model's columns of `b` for `c` to move (see [`Sample::codes`]).
fn code_columns(b: &Board, c: Color) -> Vec<u32> {
    let code = &tables().code;
    let mut n = [[0u32; N_CODES]; 2];
    for p in b.points() {
        if b.is_empty(p) {
            n[0][code[b.cats(p, c) as usize] as usize] += 1;
            n[1][code[b.cats(p, c.opponent()) as usize] as usize] += 1;
        }
    }
    let mut out = Vec::new();
    for (side, counts) in n.iter().enumerate() {
        for (k, &m) in counts.iter().enumerate().skip(1) {
            if m > 0 {
                let col = side * (N_CODES - 1) + k - 1;
                out.push((col as u32) << 8 | m);
            }
        }
    }
    out
}

/// Column and value of a packed sparse entry.
#[inline]
fn unpack(e: u32) -> (usize, f64) {
    ((e >> 8) as usize, (e & 0xff) as f64)
}

/// Logistic regression like [`fit`] over sparse rows: `rows[i]` holds row i's non-zero
/// columns among `nf`, ascending, packed as in [`Sample::codes`]; a constant column is
/// added last (no penalty). Columns non-zero in fewer than `min_rows` rows are left out
/// (weight 0): a rare column's weight would rest on a handful of games. Newton's method
/// from `start` (standardised weights as returned in `.1`, or zeros), the Hessian summed
/// over each row's non-zero pairs; stops after `iters` steps or when no weight moves by
/// 1e-7. Returns the weights in the columns' units (`nf + 1`, the constant last) and the
/// standardised ones (to start the next fit from).
#[allow(clippy::too_many_arguments)]
pub fn fit_sparse(
    rows: &[&[u32]],
    nf: usize,
    ys: &[f64],
    offset: &[f64],
    l2: f64,
    iters: usize,
    start: Option<&[f64]>,
    min_rows: usize,
) -> (Vec<f64>, Vec<f64>) {
    let m = rows.len() as f64;
    let (mut s1, mut s2, mut seen) = (vec![0.0; nf], vec![0.0; nf], vec![0usize; nf]);
    for r in rows {
        for &e in r.iter() {
            let (j, x) = unpack(e);
            s1[j] += x;
            s2[j] += x * x;
            seen[j] += 1;
        }
    }
    // Dense index of each column kept (the constant last), usize::MAX for the left out.
    let mut dense = vec![usize::MAX; nf];
    let mut kept = Vec::new();
    for j in 0..nf {
        if seen[j] >= min_rows.max(1) {
            dense[j] = kept.len();
            kept.push(j);
        }
    }
    let nk = kept.len();
    let n = nk + 1;
    let sd: Vec<f64> = kept
        .iter()
        .map(|&j| (s2[j] / m - (s1[j] / m).powi(2)).sqrt().max(1e-9))
        .collect();
    let mut w = vec![0.0; n];
    if let Some(s) = start {
        for (d, &j) in kept.iter().enumerate() {
            w[d] = s[j];
        }
        w[nk] = s[nf];
    }
    let mut z: Vec<(usize, f64)> = Vec::with_capacity(n);
    let mut h = vec![0.0; n * n];
    for _ in 0..iters {
        let mut g = vec![0.0; n];
        h.iter_mut().for_each(|v| *v = 0.0);
        for (i, (r, &y)) in rows.iter().zip(ys).enumerate() {
            z.clear();
            z.extend(r.iter().filter_map(|&e| {
                let (j, x) = unpack(e);
                let d = dense[j];
                (d != usize::MAX).then(|| (d, x / sd[d]))
            }));
            z.push((nk, 1.0));
            let off = offset.get(i).copied().unwrap_or(0.0);
            let p = sigmoid(off + z.iter().map(|&(j, v)| w[j] * v).sum::<f64>());
            let (res, q) = (p - y, p * (1.0 - p));
            for (a, &(ja, va)) in z.iter().enumerate() {
                g[ja] += res * va;
                let qa = q * va;
                let row = &mut h[ja * n..(ja + 1) * n];
                for &(jb, vb) in &z[a..] {
                    row[jb] += qa * vb;
                }
            }
        }
        let mut hm = vec![vec![0.0; n]; n];
        for a in 0..n {
            for b in a..n {
                let v = h[a * n + b] / m;
                hm[a][b] = v;
                hm[b][a] = v;
            }
            g[a] /= m;
            if a < nk {
                g[a] += l2 * w[a];
                hm[a][a] += l2;
            }
        }
        let step = solve(hm, g);
        let mut biggest: f64 = 0.0;
        for j in 0..n {
            w[j] -= step[j];
            biggest = biggest.max(step[j].abs());
        }
        if biggest < 1e-7 {
            break;
        }
    }
    let (mut unscaled, mut std) = (vec![0.0; nf + 1], vec![0.0; nf + 1]);
    for (d, &j) in kept.iter().enumerate() {
        unscaled[j] = w[d] / sd[d];
        std[j] = w[d];
    }
    unscaled[nf] = w[nk];
    std[nf] = w[nk];
    (unscaled, std)
}

fn sigmoid(v: f64) -> f64 {
    1.0 / (1.0 + (-v).exp())
}

/// Cross-entropy of prediction `p` against target `y` (both in [0, 1]).
fn log_loss(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// Logistic regression by Newton's method with an L2 penalty `l2` (not on the last
/// feature, the constant) over rows `xs` (each `n` features) and targets `ys`, each row's
/// prediction shifted by its `offset` (a fixed part of the model; empty for none). The
/// features are scaled to unit variance inside, so one penalty fits all.
pub fn fit(xs: &[Vec<f64>], ys: &[f64], offset: &[f64], l2: f64) -> Vec<f64> {
    let n = xs[0].len();
    let m = xs.len() as f64;
    let mut sd = vec![1.0; n];
    for (j, s) in sd.iter_mut().enumerate().take(n - 1) {
        let mean = xs.iter().map(|x| x[j]).sum::<f64>() / m;
        let var = xs.iter().map(|x| (x[j] - mean).powi(2)).sum::<f64>() / m;
        *s = var.sqrt().max(1e-9);
    }
    let mut w = vec![0.0; n];
    let mut z = vec![0.0; n];
    for _ in 0..50 {
        let mut g = vec![0.0; n];
        let mut h = vec![vec![0.0; n]; n];
        for (i, (x, &y)) in xs.iter().zip(ys).enumerate() {
            for j in 0..n {
                z[j] = x[j] / sd[j];
            }
            let off = offset.get(i).copied().unwrap_or(0.0);
            let p = sigmoid(off + z.iter().zip(&w).map(|(a, b)| a * b).sum::<f64>());
            let (r, q) = (p - y, p * (1.0 - p));
            for j in 0..n {
                g[j] += r * z[j];
                let qz = q * z[j];
                for (hk, zk) in h[j].iter_mut().zip(&z) {
                    *hk += qz * zk;
                }
            }
        }
        for j in 0..n {
            g[j] /= m;
            for v in h[j].iter_mut() {
                *v /= m;
            }
            if j < n - 1 {
                g[j] += l2 * w[j];
                h[j][j] += l2;
            }
        }
        let step = solve(h, g);
        let mut biggest: f64 = 0.0;
        for j in 0..n {
            w[j] -= step[j];
            biggest = biggest.max(step[j].abs());
        }
        if biggest < 1e-10 {
            break;
        }
    }
    w.iter().zip(&sd).map(|(a, s)| a / s).collect()
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (small, dense, positive
/// definite systems).
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for col in 0..n {
        let piv = (col..n)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, piv);
        b.swap(col, piv);
        let d = a[col][col];
        if d.abs() < 1e-300 {
            continue;
        }
        let pivot_row = a[col].clone();
        for r in col + 1..n {
            let f = a[r][col] / d;
            for (x, p) in a[r][col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[r] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|k| a[r][k] * x[k]).sum();
        x[r] = if a[r][r].abs() < 1e-300 {
            0.0
        } else {
            (b[r] - s) / a[r][r]
        };
    }
    x
}

/// The fit's outcome.
pub struct Fitted {
    pub weights: ClassWeights,
    /// The pattern-code model, when it was fitted.
    pub codes: Option<CodeWeights>,
    /// Lines of the report (also the weights file's comment).
    pub report: Vec<String>,
}

/// The fitted columns of a sample (everything after the window sums): the classes, the
/// line categories when `lines`, and the constant.
fn columns(s: &Sample, lines: bool) -> Vec<f64> {
    if lines {
        s.x[1..].to_vec()
    } else {
        let mut v = s.x[1..L0].to_vec();
        v.push(1.0);
        v
    }
}

/// Fits the weights to `samples` with targets blended by `lambda` (see the module comment).
/// Both models are fitted and measured, classes alone and classes with line categories;
/// `lines` says which one's weights are returned.
/// With `code_l2` non-empty the code model is fitted too, once per penalty, and the best on
/// the held-out positions returned.
pub fn train(
    samples: &[Sample],
    lambda: f64,
    l2: f64,
    lines: bool,
    code_l2: &[f64],
) -> Result<Fitted, String> {
    let (train, test): (Vec<&Sample>, Vec<&Sample>) = samples.iter().partition(|s| !s.held_out);
    if train.len() < 1000 || test.len() < 100 {
        return Err(format!(
            "{} training and {} held-out positions: too few to fit",
            train.len(),
            test.len()
        ));
    }
    let mut report = Vec::new();
    // How the search's scores map to results: one scale and a tempo.
    let score_fit = fit(
        &train.iter().map(|s| vec![s.score, 1.0]).collect::<Vec<_>>(),
        &train.iter().map(|s| s.result).collect::<Vec<_>>(),
        &[],
        0.0,
    );
    let target = |s: &Sample| {
        lambda * s.result + (1.0 - lambda) * sigmoid(score_fit[0] * s.score + score_fit[1])
    };
    report.push(format!(
        "{} positions fitted, {} held out; lambda {lambda}, l2 {l2}; search score scale {:.3e}",
        train.len(),
        test.len(),
        score_fit[0]
    ));
    let ys: Vec<f64> = train.iter().map(|s| target(s)).collect();
    // The models, each judged on the held-out positions against the results and against
    // the blended targets: the paper's sums alone, the classic weights and the shipped
    // class fits (their scale and tempo fitted here), the fit over the classes, the fit
    // over classes and line categories (and the code model below).
    let valued = |s: &Sample, w: &ClassWeights| {
        // Mover at index 0 here is Black's slot for threat_eval_counts.
        (s.paper + threat_eval_counts(&s.counts, Color::Black, w)) as f64
    };
    let paper_w = fit(
        &train.iter().map(|s| vec![s.x[0], 1.0]).collect::<Vec<_>>(),
        &ys,
        &[],
        0.0,
    );
    let given: Vec<(&str, ClassWeights, Vec<f64>)> = [
        ("classic weights", ClassWeights::CLASSIC),
        ("shipped eval-v1.txt", ClassWeights::learnt()),
        ("shipped eval-v2-lines.txt", ClassWeights::shipped_v2()),
    ]
    .into_iter()
    .map(|(name, w)| {
        let rows: Vec<Vec<f64>> = train.iter().map(|s| vec![valued(s, &w), 1.0]).collect();
        (name, w, fit(&rows, &ys, &[], 0.0))
    })
    .collect();
    // The window sums keep the scale that maps the search's scores to results: the
    // engine's values are in those units, and fitted freely their weight came out
    // negative on 214k positions (they overlap the classes), leaving no scale at all.
    let a = score_fit[0];
    let offsets: Vec<f64> = train.iter().map(|s| a * s.x[0]).collect();
    let fit_cols = |with_lines: bool| {
        fit(
            &train
                .iter()
                .map(|s| columns(s, with_lines))
                .collect::<Vec<_>>(),
            &ys,
            &offsets,
            l2,
        )
    };
    let class_w = fit_cols(false);
    let line_w = fit_cols(true);
    let errors = |pred: &dyn Fn(&Sample) -> f64| {
        let (mut lr, mut lt, mut mse) = (0.0, 0.0, 0.0);
        for s in &test {
            let p = pred(s);
            lr += log_loss(p, s.result);
            lt += log_loss(p, target(s));
            mse += (p - target(s)).powi(2);
        }
        let n = test.len() as f64;
        (lr / n, lt / n, mse / n)
    };
    let linear = |w: &[f64], s: &Sample, with_lines: bool| {
        let z: f64 = columns(s, with_lines)
            .iter()
            .zip(w)
            .map(|(x, w)| x * w)
            .sum();
        sigmoid(a * s.x[0] + z)
    };
    type Model<'m> = Box<dyn Fn(&Sample) -> f64 + 'm>;
    let mut models: Vec<(&str, Model)> = vec![(
        "window sums alone",
        Box::new(|s: &Sample| sigmoid(paper_w[0] * s.x[0] + paper_w[1])),
    )];
    for (name, w, sw) in &given {
        models.push((
            name,
            Box::new(move |s: &Sample| sigmoid(sw[0] * valued(s, w) + sw[1])),
        ));
    }
    models.push((
        "fitted weights, classes",
        Box::new(|s: &Sample| linear(&class_w, s, false)),
    ));
    models.push((
        "fitted weights, classes and line categories",
        Box::new(|s: &Sample| linear(&line_w, s, true)),
    ));
    for (name, pred) in &models {
        let (lr, lt, mse) = errors(pred.as_ref());
        report.push(format!(
            "held out, {name}: log-loss vs results {lr:.4}, vs targets {lt:.4}, squared error vs targets {mse:.4}"
        ));
    }
    let (mut codes, mut code_tempo) = (None, None);
    if !code_l2.is_empty() && a > 0.0 {
        // Each row's last column is its threat mask: left off for the codes alone.
        let with_masks: Vec<&[u32]> = train.iter().map(|s| &s.codes[..]).collect();
        let alone: Vec<&[u32]> = train
            .iter()
            .map(|s| &s.codes[..s.codes.len() - 1])
            .collect();
        let mut best: Option<(f64, Vec<f64>, usize)> = None;
        for (rows, nf, what) in [
            (&alone, CODE_NF, "pattern codes"),
            (&with_masks, MASK_NF, "pattern codes and threat masks"),
        ] {
            let mut start: Option<Vec<f64>> = None;
            for &l2 in code_l2 {
                let (w, std) = fit_sparse(
                    rows,
                    nf,
                    &ys,
                    &offsets,
                    l2,
                    12,
                    start.as_deref(),
                    MASK_MIN_ROWS,
                );
                start = Some(std);
                let pred = |s: &Sample| {
                    let z: f64 = s
                        .codes
                        .iter()
                        .map(|&e| {
                            // Without masks, the row's mask column is not the model's.
                            let (j, x) = unpack(e);
                            if j < nf {
                                w[j] * x
                            } else {
                                0.0
                            }
                        })
                        .sum();
                    sigmoid(a * s.x[0] + z + w[nf])
                };
                let (lr, lt, mse) = errors(&pred);
                report.push(format!(
                    "held out, fitted weights, {what}, l2 {l2}: log-loss vs results {lr:.4}, vs targets {lt:.4}, squared error vs targets {mse:.4}"
                ));
                if best.as_ref().is_none_or(|(b, _, _)| lt < *b) {
                    best = Some((lt, w, nf));
                }
            }
        }
        let (_, w, nf) = best.expect("at least one penalty");
        code_tempo = Some((w[nf] / a, nf == MASK_NF));
        let to_int = |v: f64| ((v / a).round() as i32).clamp(-MAX_WEIGHT, MAX_WEIGHT);
        let mut cw = CodeWeights::zero();
        for k in 1..N_CODES {
            cw.mover[k] = to_int(w[k - 1]);
            cw.waiter[k] = to_int(-w[N_CODES - 1 + k - 1]);
        }
        if nf == MASK_NF {
            // Every position has one mask, so the masks also carry the constant (the
            // mover's tempo), which the code model has no other place for.
            for (m, slot) in cw.mask.iter_mut().enumerate() {
                *slot = to_int(w[CODE_NF + m] + w[nf]);
            }
        }
        codes = Some(cw);
    }
    if a <= 0.0 {
        return Err(format!(
            "the search scores came out with scale {a:.3e} <= 0: no scale to convert to"
        ));
    }
    let w = if lines { &line_w } else { &class_w };
    let to_int = |v: f64| ((v / a).round() as i32).clamp(-MAX_WEIGHT, MAX_WEIGHT);
    let mut weights = ClassWeights {
        mover: [0; N_CLASSES],
        waiter: [0; N_CLASSES],
        line_mover: [0; N_LINE_CATS],
        line_waiter: [0; N_LINE_CATS],
    };
    for (j, k) in MOVER_K.enumerate() {
        weights.mover[k] = to_int(w[j]);
    }
    for (j, k) in WAITER_K.enumerate() {
        weights.waiter[k] = to_int(-w[8 + j]);
    }
    if lines {
        for (j, k) in MOVER_L.enumerate() {
            weights.line_mover[k] = to_int(w[L0 - 1 + j]);
        }
        for (j, k) in WAITER_L.enumerate() {
            weights.line_waiter[k] = to_int(-w[L0 - 1 + 4 + j]);
        }
    }
    let (what, tempo) = match code_tempo {
        Some((t, false)) => ("pattern codes", t),
        Some((t, true)) => ("pattern codes and threat masks", t),
        None if lines => ("classes and line categories", w[w.len() - 1] / a),
        None => ("classes", w[w.len() - 1] / a),
    };
    report.push(format!(
        "written: {what}; window-sum scale (fixed, the search scores') {a:.3e}, tempo {tempo:.0} window units"
    ));
    Ok(Fitted {
        weights,
        codes,
        report,
    })
}

/// Which model's weights `fit_files` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FitModel {
    /// Cell classes alone (a version 1 file).
    Classes,
    /// Classes and per-direction line categories (version 2).
    Lines,
    /// Pattern codes (version 3); fits the code model besides the others.
    Codes,
}

/// What `fit_files` fits, on what.
#[derive(Clone, Debug)]
pub struct FitFiles {
    /// Files written by `quartet train gomoku selfplay`.
    pub positions: Vec<PathBuf>,
    /// Share of the game result in the target (the rest: the search score).
    pub lambda: f64,
    /// L2 penalty on the standardised weights.
    pub l2: f64,
    /// Every `holdout`-th game is held out of the fit and measured (at least 2).
    pub holdout: usize,
    /// The model whose weights are written.
    pub model: FitModel,
    /// L2 penalties tried for the code model (the best on the held-out games is written).
    pub code_l2: Vec<f64>,
}

/// Reads the self-play files, fits (`train`), writes the report and the weights file (to
/// `report` and `out`; the file's comment is the command and the report). A file still
/// being written may end in a cut record: it is dropped with a warning.
pub fn fit_files(f: &FitFiles, out: &Path, report: &mut impl Write) -> Result<(), String> {
    let mut all = Vec::new();
    let mut games = 0;
    for p in &f.positions {
        let data = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
        let (size, recs, cut) =
            super::selfplay::read_growing(&data).map_err(|e| format!("{}: {e}", p.display()))?;
        if let Some(n) = cut {
            eprintln!(
                "train: {}: dropped a cut record after game {n}",
                p.display()
            );
        }
        games += recs.len();
        all.extend(samples(size, &recs, f.holdout));
    }
    eprintln!("train: {games} games, {} positions kept", all.len());
    let codes = f.model == FitModel::Codes;
    let code_l2: &[f64] = if codes { &f.code_l2 } else { &[] };
    let fitted = train(&all, f.lambda, f.l2, f.model != FitModel::Classes, code_l2)?;
    let io = |e: std::io::Error| format!("output: {e}");
    for l in &fitted.report {
        writeln!(report, "{l}").map_err(io)?;
    }
    let files: Vec<String> = f
        .positions
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let model = match f.model {
        FitModel::Classes => " --model classes".to_string(),
        FitModel::Lines => String::new(),
        FitModel::Codes => {
            let l2s: Vec<String> = f.code_l2.iter().map(|v| v.to_string()).collect();
            format!(" --model codes --code-l2 {}", l2s.join(","))
        }
    };
    let comment = format!(
        "quartet train gomoku fit --lambda {} --l2 {} --holdout {}{model} on {games} games: {}\n{}",
        f.lambda,
        f.l2,
        f.holdout,
        files.join(" "),
        fitted.report.join("\n")
    );
    let text = match (&fitted.codes, codes) {
        (Some(c), true) => c.to_text(&comment),
        (None, true) => return Err("the code model was not fitted".into()),
        _ => fitted.weights.to_text(&comment),
    };
    write!(report, "{text}").map_err(io)?;
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newton_recovers_a_known_logistic_model() {
        // Targets are the model's own probabilities, so the fit must return the model.
        let truth = [0.8, -1.5, 0.3];
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        for i in 0..400 {
            let x = vec![(i % 17) as f64 / 4.0 - 2.0, (i % 5) as f64 - 2.0, 1.0];
            ys.push(sigmoid(x.iter().zip(&truth).map(|(a, b)| a * b).sum()));
            xs.push(x);
        }
        let w = fit(&xs, &ys, &[], 0.0);
        for (a, b) in w.iter().zip(&truth) {
            assert!((a - b).abs() < 1e-6, "{w:?}");
        }
        // A penalty shrinks the slopes, never the constant's share alone.
        let shrunk = fit(&xs, &ys, &[], 0.5);
        assert!(shrunk[0].abs() < truth[0] && shrunk[1].abs() < truth[1].abs());
        // With the first term as a fixed offset, the rest is found alone.
        let offsets: Vec<f64> = xs.iter().map(|x| truth[0] * x[0]).collect();
        let rest: Vec<Vec<f64>> = xs.iter().map(|x| x[1..].to_vec()).collect();
        let w = fit(&rest, &ys, &offsets, 0.0);
        assert!(
            (w[0] - truth[1]).abs() < 1e-6 && (w[1] - truth[2]).abs() < 1e-6,
            "{w:?}"
        );
    }

    #[test]
    fn samples_skip_positions_the_rules_decide_and_hold_out_games() {
        // Black builds an open four on row 7 from col 5: once it stands, Black to move
        // has a five and the position is skipped.
        let g = GameRecord {
            random: 0,
            winner: Some(Color::Black),
            moves: vec![
                7 * 15 + 5,
                0,
                7 * 15 + 6,
                14,
                7 * 15 + 7,
                14 * 15,
                7 * 15 + 8,
                14 * 15 + 14,
                7 * 15 + 9,
            ],
            scores: vec![0; 9],
        };
        let all = samples(15, &[g.clone(), g], 2);
        // Nine positions a game; skipped: Black to move with its open three (an open four
        // to make), White to move facing the four, Black to move with the five to make.
        let per_game = all.len() / 2;
        assert_eq!(per_game, 6);
        assert_eq!(all.iter().filter(|s| s.held_out).count(), per_game);
        let first = &all[0];
        assert_eq!(first.result, 1.0);
        assert_eq!(all[1].result, 0.0);
    }

    #[test]
    fn sparse_newton_recovers_a_known_model() {
        // Rows of a few random columns among 12 with small counts; the targets are the
        // model's own probabilities, so the fit must return the model.
        let nf = 12;
        let truth: Vec<f64> = (0..=nf).map(|j| ((j * 7 % 5) as f64 - 2.0) * 0.3).collect();
        let mut state = 1u64;
        let mut next = |m: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % m
        };
        let mut rows: Vec<Vec<u32>> = Vec::new();
        let mut offsets = Vec::new();
        let mut ys = Vec::new();
        for _ in 0..3000 {
            let mut r: Vec<u32> = Vec::new();
            for j in 0..nf as u32 {
                if next(3) == 0 {
                    r.push(j << 8 | (1 + next(4) as u32));
                }
            }
            let off = next(5) as f64 * 0.1 - 0.2;
            let z: f64 = r
                .iter()
                .map(|&e| truth[(e >> 8) as usize] * (e & 0xff) as f64)
                .sum();
            ys.push(sigmoid(off + z + truth[nf]));
            offsets.push(off);
            rows.push(r);
        }
        let refs: Vec<&[u32]> = rows.iter().map(|r| &r[..]).collect();
        let (w, std) = fit_sparse(&refs, nf, &ys, &offsets, 0.0, 30, None, 1);
        for (a, b) in w.iter().zip(&truth) {
            assert!((a - b).abs() < 1e-6, "{w:?} vs {truth:?}");
        }
        // Started from the answer, it stays there; a penalty shrinks the slopes.
        let (again, _) = fit_sparse(&refs, nf, &ys, &offsets, 0.0, 1, Some(&std), 1);
        assert!(again.iter().zip(&w).all(|(a, b)| (a - b).abs() < 1e-9));
        let (shrunk, _) = fit_sparse(&refs, nf, &ys, &offsets, 0.1, 30, None, 1);
        let norm = |v: &[f64]| v[..nf].iter().map(|x| x * x).sum::<f64>();
        assert!(norm(&shrunk) < 0.5 * norm(&w), "{shrunk:?}");
        // A column never seen gets no weight.
        let (w, _) = fit_sparse(&refs, nf + 1, &ys, &offsets, 1e-6, 30, None, 1);
        assert_eq!(w[nf], 0.0);
        // A column in fewer rows than asked is left out; the others are fitted without it.
        let mut rare = rows.clone();
        for r in rare.iter_mut().take(5) {
            r.push((nf as u32) << 8 | 1);
        }
        let refs: Vec<&[u32]> = rare.iter().map(|r| &r[..]).collect();
        let (w, _) = fit_sparse(&refs, nf + 1, &ys, &offsets, 0.0, 30, None, 6);
        assert_eq!(w[nf], 0.0);
        assert!((w[0] - truth[0]).abs() < 1e-6, "{w:?}");
        let (w, _) = fit_sparse(&refs, nf + 1, &ys, &offsets, 1e-3, 30, None, 5);
        assert_ne!(w[nf], 0.0);
    }

    #[test]
    fn code_columns_weighed_by_integer_weights_are_the_boards_code_sums() {
        use super::super::weights::CodeWeights;
        use std::sync::Arc;
        let mut w = CodeWeights::zero();
        for k in 1..N_CODES {
            w.mover[k] = (k as i32 * 37) % 101 - 50;
            w.waiter[k] = (k as i32 * 53) % 89 - 44;
        }
        let mut b = Board::new(15, Rule::Freestyle);
        b.set_codes(Some(Arc::new(w.table())));
        b.track_patterns();
        let moves = [
            (7, 7),
            (8, 8),
            (8, 7),
            (6, 7),
            (9, 9),
            (7, 9),
            (6, 6),
            (10, 10),
        ];
        let mut c = Color::Black;
        for (col, row) in moves {
            b.place(b.point(col, row), c);
            c = c.opponent();
            let cols = code_columns(&b, c);
            assert!(cols.windows(2).all(|p| p[0] >> 8 < p[1] >> 8), "{cols:?}");
            let mut v = 0;
            for e in cols {
                let (j, x) = unpack(e);
                v += x as i32
                    * if j < N_CODES - 1 {
                        w.mover[j + 1]
                    } else {
                        -w.waiter[j + 2 - N_CODES]
                    };
            }
            let s = b.counts().code;
            assert_eq!(v, s[c.index()][0] - s[c.opponent().index()][1]);
        }
    }
}
