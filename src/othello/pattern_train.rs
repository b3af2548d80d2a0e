//! `quartet train othello patterns`: the pattern tables fitted to self-play positions
//! files and WTHOR games, measured on held-out games, written as a tables file (how
//! `data/othello/patterns.bin` was made: `scripts/othello_patterns.sh`).
use super::eval::Weights;
use super::evaluator::Evaluator;
use super::pattern_file::encode;
use super::pattern_fit::{fit_from, mean_abs_error, Example, FitConfig};
use super::selfplay::{games, read_file};
use super::train::{read_wthor_file, samples};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What to fit, on what.
pub struct TrainPatterns<'a> {
    /// Positions files written by `quartet train othello selfplay` (or `relabel`).
    pub positions: &'a [PathBuf],
    /// WTHOR `.wtb` files (labels: their theoretical scores).
    pub wthor: &'a [PathBuf],
    pub out: &'a Path,
    pub cfg: FitConfig,
    /// Every `holdout`-th game is kept out of the fit and measured.
    pub holdout: usize,
    /// Other weights files measured on the same held-out positions (earlier fits).
    pub compare: &'a [PathBuf],
    /// Pattern tables the fit starts from and its ridge pulls towards (instead of zero).
    pub prior: Option<&'a Path>,
}

/// Reads the positions files and WTHOR games, fits on all games but every `holdout`-th,
/// reports (to `report`) the held-out mean absolute error at 20-40 empties of the linear
/// evaluation and of the fit, and writes the fitted tables. Progress goes to stderr.
pub fn train_patterns(t: TrainPatterns<'_>, report: &mut impl Write) -> Result<(), String> {
    let holdout = t.holdout.max(2);
    let prior = match t.prior {
        None => None,
        Some(f) => match Evaluator::load(f)? {
            Evaluator::Pattern(p) if p.width == t.cfg.width && p.outer == t.cfg.outer => Some(p),
            _ => {
                return Err(format!(
                    "{}: --prior needs pattern tables of the fit's --width and --outer",
                    f.display()
                ))
            }
        },
    };
    let (mut train, mut test_self, mut test_wthor) = (Vec::new(), Vec::new(), Vec::new());
    // Games are numbered across all the files, in order.
    let mut self_games = 0usize;
    for f in t.positions {
        for game in games(&read_file(f)?) {
            let dest = if self_games.is_multiple_of(holdout) {
                &mut test_self
            } else {
                &mut train
            };
            dest.extend(game.iter().map(|&l| Example::from(l)));
            self_games += 1;
        }
    }
    let mut wthor_games = 0usize;
    for f in t.wthor {
        for g in read_wthor_file(f)? {
            wthor_games += 1;
            let dest = if wthor_games.is_multiple_of(holdout) {
                &mut test_wthor
            } else {
                &mut train
            };
            dest.extend(samples(&g).iter().map(|s| Example {
                board: s.board,
                label: (s.label / 100.0) as f32,
            }));
        }
    }
    eprintln!(
        "{self_games} self-play games, {wthor_games} WTHOR games: {} training positions, {} + {} held out",
        train.len(),
        test_self.len(),
        test_wthor.len()
    );
    let t0 = Instant::now();
    let p = fit_from(&train, &t.cfg, prior.as_deref(), |s, n, rms| {
        eprintln!(
            "stage {:>2}/{n}: training rms {rms:.2} discs ({:.0} s)",
            s + 1,
            t0.elapsed().as_secs_f64()
        )
    });
    let linear = Evaluator::from(Weights::default_weights());
    let pattern = Evaluator::from(p.clone());
    let others = t
        .compare
        .iter()
        .map(|f| Evaluator::load(f).map(|e| (f, e)))
        .collect::<Result<Vec<_>, _>>()?;
    let mid = |d: &[Example]| -> Vec<Example> {
        d.iter()
            .copied()
            .filter(|e| (20..=40).contains(&e.board.empties().count_ones()))
            .collect()
    };
    let io = |e: std::io::Error| format!("output: {e}");
    for (name, set) in [("self-play", mid(&test_self)), ("WTHOR", mid(&test_wthor))] {
        writeln!(
            report,
            "held-out {name} positions at 20-40 empties: {}; mean absolute error: linear {:.2} discs, pattern {:.2} discs",
            set.len(),
            mean_abs_error(&set, |b| linear.evaluate(b)),
            mean_abs_error(&set, |b| pattern.evaluate(b))
        )
        .map_err(io)?;
        for (f, e) in &others {
            writeln!(
                report,
                "  the same {} positions, {}: {:.2} discs",
                set.len(),
                f.display(),
                mean_abs_error(&set, |b| e.evaluate(b))
            )
            .map_err(io)?;
        }
    }
    let bytes = encode(&p);
    std::fs::write(t.out, &bytes).map_err(|e| format!("{}: {e}", t.out.display()))?;
    writeln!(report, "wrote {} ({} bytes)", t.out.display(), bytes.len()).map_err(io)
}
