//! Fitting the pattern tables: regularised least squares by gradient descent, one stage at
//! a time.
//!
//! Each position contributes its active weights (46 pattern instances, two mobility
//! entries, parity, and the outer squares when that term is on); mirror-image
//! configurations share one weight (`pattern::mirror_table`). The step for a weight is its
//! summed residual divided by its occurrence count plus the ridge term (Buro's scaling for
//! sparse pattern fits): a weight seen once moves little, one seen everywhere moves at the
//! full rate, and the ridge pulls unseen-enough weights towards zero, or towards a prior's
//! weights (`fit_from`: a refit on a few games then only moves what those games show).
use super::board::Board;
use super::pattern::{active, mirror_table, Patterns, INSTANCES, STAGE_LEN};

/// A position and its label (final disc difference for the side to move, in discs).
#[derive(Clone, Copy, Debug)]
pub struct Example {
    pub board: Board,
    pub label: f32,
}

/// Settings of one fit.
#[derive(Clone, Copy, Debug)]
pub struct FitConfig {
    pub width: u32,
    pub outer: bool,
    pub epochs: u32,
    /// Step size: 1 moves a position's prediction by about its residual per epoch.
    pub rate: f32,
    /// Ridge: pseudo-occurrences of a zero residual added to every weight's count.
    pub ridge: f32,
    /// Stage `s` also trains on positions up to this many empties outside its range.
    pub spread: u32,
}

const MAX_ACTIVE: usize = INSTANCES + 3 + 48;

/// Fits every stage from zero; `progress(stage, stages, rms)` is called after each.
pub fn fit(data: &[Example], cfg: &FitConfig, progress: impl FnMut(usize, usize, f64)) -> Patterns {
    fit_from(data, cfg, None, progress)
}

/// Fits every stage starting from `prior` (which must have `cfg`'s width and outer term)
/// with the ridge pulling towards the prior's weights instead of zero: weights the data
/// never touch keep the prior's value.
pub fn fit_from(
    data: &[Example],
    cfg: &FitConfig,
    prior: Option<&Patterns>,
    mut progress: impl FnMut(usize, usize, f64),
) -> Patterns {
    let mut out = match prior {
        Some(p) => {
            assert!(
                p.width == cfg.width && p.outer == cfg.outer,
                "prior tables have another shape"
            );
            p.clone()
        }
        None => Patterns::zero(cfg.width, cfg.outer),
    };
    let mirror = mirror_table();
    let canon = |i: u32| i.min(mirror[i as usize]);
    let stages = Patterns::stages(cfg.width);
    // Active (canonical) indices of every position, computed once.
    let mut feats: Vec<(u32, u8, [u32; MAX_ACTIVE])> = Vec::with_capacity(data.len());
    for ex in data {
        let mut a = [0u32; MAX_ACTIVE];
        let n = active(&ex.board, cfg.outer, &mut a);
        for x in &mut a[..n] {
            *x = canon(*x);
        }
        feats.push((ex.board.empties().count_ones(), n as u8, a));
    }
    let mut w = vec![0f32; STAGE_LEN];
    let mut w0 = vec![0f32; STAGE_LEN];
    let mut grad = vec![0f32; STAGE_LEN];
    let mut count = vec![0f32; STAGE_LEN];
    for s in 0..stages {
        let lo = (s as u32 * cfg.width).saturating_sub(cfg.spread);
        let hi = s as u32 * cfg.width + cfg.width - 1 + cfg.spread;
        let members: Vec<usize> = (0..data.len())
            .filter(|&i| (lo..=hi).contains(&feats[i].0))
            .collect();
        let base = s * STAGE_LEN;
        for (w0, &v) in w0.iter_mut().zip(&out.weights[base..base + STAGE_LEN]) {
            *w0 = v as f32 / 100.0;
        }
        w.copy_from_slice(&w0);
        count.fill(0.0);
        for &i in &members {
            let (_, n, a) = &feats[i];
            for &x in &a[..*n as usize] {
                count[x as usize] += 1.0;
            }
        }
        // Every position moves all its active weights at once: divide the step among them
        // or the prediction overshoots by that factor and the descent diverges.
        let per_position: f32 =
            members.iter().map(|&i| feats[i].1 as f32).sum::<f32>() / members.len().max(1) as f32;
        let step = cfg.rate / per_position.max(1.0);
        let mut rms = 0.0;
        for _ in 0..cfg.epochs {
            grad.fill(0.0);
            let mut se = 0f64;
            for &i in &members {
                let (_, n, a) = &feats[i];
                let a = &a[..*n as usize];
                let pred: f32 = a.iter().map(|&x| w[x as usize]).sum();
                let r = data[i].label - pred;
                se += (r * r) as f64;
                for &x in a {
                    grad[x as usize] += r;
                }
            }
            rms = (se / members.len().max(1) as f64).sqrt();
            for x in 0..STAGE_LEN {
                if count[x] > 0.0 {
                    w[x] += step * (grad[x] - cfg.ridge * (w[x] - w0[x])) / (count[x] + cfg.ridge);
                }
            }
        }
        for x in 0..STAGE_LEN {
            let v = w[canon(x as u32) as usize] * 100.0;
            out.weights[base + x] = v.round().clamp(-32000.0, 32000.0) as i16;
        }
        progress(s, stages, rms);
    }
    out
}

/// Mean absolute error in discs of `eval` over `data`.
pub fn mean_abs_error(data: &[Example], eval: impl Fn(&Board) -> i32) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let s: f64 = data
        .iter()
        .map(|e| (eval(&e.board) as f64 / 100.0 - e.label as f64).abs())
        .sum();
    s / data.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::bitboard::nth_square;
    use crate::othello::pattern::symmetries;
    use rand::{rngs::SmallRng, Rng, SeedableRng};

    /// A move at `sq` flips something in some direction: walked square by square.
    fn legal_by_rays(p: u64, o: u64, sq: usize) -> bool {
        if (p | o) >> sq & 1 != 0 {
            return false;
        }
        let (r0, c0) = ((sq / 8) as i32, (sq % 8) as i32);
        for (dr, dc) in [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ] {
            let (mut r, mut c, mut seen) = (r0 + dr, c0 + dc, 0);
            while (0..8).contains(&r) && (0..8).contains(&c) {
                let s = (r * 8 + c) as usize;
                if o >> s & 1 != 0 {
                    seen += 1;
                } else {
                    if p >> s & 1 != 0 && seen > 0 {
                        return true;
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        false
    }

    #[test]
    fn recovers_a_mobility_rule_from_labels_made_by_it() {
        // Labels from an independent rule: the difference of the two sides' move counts
        // (counted square by square below, not with the move generator). The mobility
        // tables can represent it exactly and occur in every position, so even with a
        // ridge that keeps the rare pattern entries near zero the fit must get close.
        let mut rng = SmallRng::seed_from_u64(4);
        let mut data = Vec::new();
        while data.len() < 3000 {
            let mut b = Board::start();
            for _ in 0..rng.gen_range(30..56) {
                let mv = b.moves();
                if mv == 0 {
                    b = b.pass();
                    if b.moves() == 0 {
                        break;
                    }
                    continue;
                }
                b = b
                    .play(nth_square(mv, rng.gen_range(0..mv.count_ones())))
                    .unwrap();
            }
            let legal = |p: u64, o: u64| (0..64).filter(|&sq| legal_by_rays(p, o, sq)).count();
            let label = legal(b.p, b.o) as f32 - legal(b.o, b.p) as f32;
            data.push(Example { board: b, label });
        }
        let cfg = FitConfig {
            width: 60,
            outer: false,
            epochs: 600,
            rate: 1.0,
            ridge: 10.0,
            spread: 0,
        };
        let (train, test) = data.split_at(2500);
        let p = fit(train, &cfg, |_, _, _| {});
        let before = mean_abs_error(test, |_| 0);
        let after = mean_abs_error(test, |b| p.evaluate(b));
        assert!(before > 2.0, "{before}");
        assert!(after < 0.45 * before, "{after} vs {before}");
        // And the fit is symmetric: a rotated board scores the same.
        let b = test[0].board;
        let (ps, os) = (symmetries(b.p), symmetries(b.o));
        for t in 0..8 {
            assert_eq!(p.evaluate(&Board { p: ps[t], o: os[t] }), p.evaluate(&b));
        }
    }
}
