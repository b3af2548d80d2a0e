//! `quartet train go mm`: fits the learnt Go move model (`features.rs`, `mm.rs`) to game
//! records and reports its move-prediction rate on held-out games beside the tree's
//! hand-set priors' (how `data/go/mm-v*.txt` were made: `scripts/go_mm.sh`).
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use super::board::{Board, Move};
use super::features::{self, Gammas};
use super::mcts;
use super::mm::{self, Dataset, Prediction};
use super::settings::SearchParams;

/// What to fit, on what.
#[derive(Clone, Debug)]
pub struct MmTrain {
    /// Game records, one game a line (`mm::parse_record`).
    pub games: Vec<PathBuf>,
    /// Where to write the fitted weights.
    pub out: Option<PathBuf>,
    pub iterations: usize,
    /// Every Nth game is held out for the prediction figures (at least 2).
    pub holdout_every: usize,
    /// Diamonds seen among at least this many training candidates get their own strength;
    /// 0 leaves the diamond feature out.
    pub diamond_min: usize,
    /// Weights files scored on the same held-out positions.
    pub compare: Vec<PathBuf>,
}

/// Reads the records, fits for `a.iterations` rounds (progress to stderr), reports the
/// held-out figures to `report` and writes the weights to `a.out`.
pub fn train(a: &MmTrain, report: &mut impl Write) -> Result<(), String> {
    let io = |e: std::io::Error| format!("output: {e}");
    let t0 = Instant::now();
    let (mut train, mut test) = (Dataset::default(), Dataset::default());
    let mut test_games = Vec::new();
    let mut n_games = 0usize;
    for path in &a.games {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let path = path.display();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let (size, moves, skip) =
                mm::parse_record(line).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
            let held_out = n_games.is_multiple_of(a.holdout_every);
            n_games += 1;
            let data = if held_out { &mut test } else { &mut train };
            mm::add_game(size, &moves, skip, data).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
            if held_out {
                test_games.push((size, moves, skip));
            }
        }
    }
    eprintln!(
        "{n_games} games: {} training positions ({} candidates), {} held-out positions, read in {:.1} s",
        train.positions(),
        train.feats.len(),
        test.positions(),
        t0.elapsed().as_secs_f64()
    );
    let classic = classic_prediction(&test_games);
    let uniform = mm::evaluate(&test, &Gammas::new());
    let mut g = if a.diamond_min > 0 {
        let codes = train.frequent_diamonds(a.diamond_min);
        let g = Gammas::with_diamonds(codes);
        train.assign_diamonds(g.diamonds());
        test.assign_diamonds(g.diamonds());
        let rare = |d: &Dataset| {
            let n = d.feats.iter().filter(|f| f[features::DIAMOND] == 0).count();
            100.0 * n as f64 / d.feats.len().max(1) as f64
        };
        eprintln!(
            "{} diamonds seen among at least {} training candidates; rare: {:.1}% of training, {:.1}% of held-out candidates",
            g.diamonds().len(),
            a.diamond_min,
            rare(&train),
            rare(&test)
        );
        g
    } else {
        Gammas::new()
    };
    let t1 = Instant::now();
    for round in 0..a.iterations {
        mm::fit(&train, &mut g, 1);
        if round % 5 == 4 || round + 1 == a.iterations {
            let p = mm::evaluate(&test, &g);
            eprintln!(
                "iteration {}: held-out top-1 {:.2}%, log-likelihood {:.4} ({:.0} s)",
                round + 1,
                100.0 * p.rate(),
                p.log_likelihood,
                t1.elapsed().as_secs_f64()
            );
        }
    }
    let fitted_train = mm::evaluate(&train, &g);
    let fitted = mm::evaluate(&test, &g);
    writeln!(report, "held-out positions: {}", fitted.positions).map_err(io)?;
    writeln!(
        report,
        "uniform (random legal move): top-1 {:.2}%",
        100.0 * uniform.rate()
    )
    .map_err(io)?;
    writeln!(
        report,
        "hand-set tree priors (argmax of the prior win rate): top-1 {:.2}%",
        100.0 * classic.rate()
    )
    .map_err(io)?;
    writeln!(
        report,
        "MM model: top-1 {:.2}% held out ({:.2}% on training), log-likelihood {:.4} (uniform {:.4})",
        100.0 * fitted.rate(),
        100.0 * fitted_train.rate(),
        fitted.log_likelihood,
        uniform.log_likelihood
    )
    .map_err(io)?;
    for path in &a.compare {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let path = path.display();
        let other = Gammas::parse(&text).map_err(|e| format!("{path}: {e}"))?;
        test.assign_diamonds(other.diamonds());
        let p = mm::evaluate(&test, &other);
        writeln!(
            report,
            "{path}: top-1 {:.2}% held out, log-likelihood {:.4}",
            100.0 * p.rate(),
            p.log_likelihood
        )
        .map_err(io)?;
    }
    if let Some(out) = &a.out {
        let comment = format!(
            "fitted by `quartet train go mm --iterations {}{}` to {} games ({} positions), \
             held-out top-1 {:.2}% (hand-set priors {:.2}%), log-likelihood {:.4}",
            a.iterations,
            if a.diamond_min > 0 {
                format!(" --diamond-min {}", a.diamond_min)
            } else {
                String::new()
            },
            n_games,
            train.positions(),
            100.0 * fitted.rate(),
            100.0 * classic.rate(),
            fitted.log_likelihood
        );
        std::fs::write(out, g.to_text(&comment)).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    Ok(())
}

/// Top-1 of the tree's hand-set priors on the held-out games' positions (the same
/// positions as the model's: non-random, non-pass moves that are candidates).
fn classic_prediction(games: &[(usize, Vec<Move>, usize)]) -> Prediction {
    let classic = SearchParams::default();
    let mut out = Prediction::default();
    let mut means = Vec::new();
    let mut scores = Vec::new();
    for (size, moves, skip) in games {
        let mut b = Board::new(*size);
        for (i, &m) in moves.iter().enumerate() {
            if let (true, Move::Play(p)) = (i >= *skip, m) {
                mcts::prior_means(&b, &classic, &mut means);
                if let Some(k) = means.iter().position(|&(q, _)| q == p) {
                    scores.clear();
                    scores.extend(means.iter().map(|&(_, s)| s));
                    out.positions += 1;
                    out.top1 += mm::top1_share(&scores, k);
                }
            }
            let c = b.to_move();
            b.play(c, m);
        }
    }
    out
}
