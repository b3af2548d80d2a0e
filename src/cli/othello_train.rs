//! `quartet bench othello selfplay` and `quartet bench othello train-patterns`: the data
//! and the fit behind `data/othello/patterns.bin` (see `scripts/othello_patterns.sh`).
use crate::othello::endgame::Solver;
use crate::othello::eval::Weights;
use crate::othello::search::Searcher;
use crate::othello::selfplay::{format_line, play_game, SelfPlay};
use rand::{rngs::SmallRng, SeedableRng};
use std::io::Write;
use std::time::{Duration, Instant};

/// Plays `games` self-play games from `seed` and appends their labelled positions to `out`
/// (one game's positions are written together, so a stopped run leaves whole games).
pub fn selfplay(
    out: &std::path::Path,
    games: u32,
    seed: u64,
    depth: u32,
    solve_at: u32,
) -> Result<(), String> {
    let cfg = SelfPlay {
        random_plies: 8..=14,
        depth,
        solve_at,
        solve_limit: Duration::from_secs(60),
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let mut rng = SmallRng::seed_from_u64(seed);
    // The midgame player uses the linear evaluation: the data must not depend on the
    // pattern weights it will fit.
    let mut searcher = Searcher::new(Weights::default_weights(), 16);
    let mut solver = Solver::new(32);
    let t = Instant::now();
    let (mut kept, mut positions) = (0u32, 0usize);
    for g in 0..games {
        searcher.clear();
        if let Some(game) = play_game(&cfg, &mut rng, &mut searcher, &mut solver) {
            let text: String = game.iter().map(|l| format_line(l) + "\n").collect();
            file.write_all(text.as_bytes())
                .map_err(|e| format!("{}: {e}", out.display()))?;
            kept += 1;
            positions += game.len();
        }
        if (g + 1).is_multiple_of(20) || g + 1 == games {
            eprintln!(
                "selfplay: {}/{games} games, {kept} kept, {positions} positions, {:.0} s",
                g + 1,
                t.elapsed().as_secs_f64()
            );
        }
    }
    Ok(())
}

/// Writes `input` to `out` with its midgame labels from `relabel` (one searcher, its
/// table and history cleared at every game, so other games barely matter: only the
/// killer moves carry over); with `shard = (i, n)` only the i-th of n contiguous runs of
/// games, whose outputs concatenated in order give the whole file (seed 31 at depth 6:
/// two shards and one whole run byte-identical).
pub fn relabel(
    input: &std::path::Path,
    out: &std::path::Path,
    cfg: crate::othello::relabel::Relabel,
    eval: crate::othello::evaluator::Evaluator,
    shard: (usize, usize),
) -> Result<(), String> {
    use crate::othello::relabel::relabel;
    use crate::othello::selfplay::parse_line;
    let text = std::fs::read_to_string(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let mut file = std::io::BufWriter::new(
        std::fs::File::create(out).map_err(|e| format!("{}: {e}", out.display()))?,
    );
    // Game numbers as below: a rise in empties starts the next game.
    let mut games = 0usize;
    let mut last = 99;
    for line in text.lines() {
        let e = parse_line(line)
            .map(|l| l.board.empties().count_ones())
            .unwrap_or(99);
        if e >= last {
            games += 1;
        }
        last = e;
    }
    let games = games + 1;
    let range = games * shard.0 / shard.1..games * (shard.0 + 1) / shard.1;
    let mut searcher = Searcher::new(eval, 16);
    let t = Instant::now();
    let (mut game, mut last_empties, mut done, mut searched) = (0usize, 99, 0usize, 0usize);
    for (n, line) in text.lines().enumerate() {
        let l = parse_line(line).map_err(|e| format!("{}:{}: {e}", input.display(), n + 1))?;
        let e = l.board.empties().count_ones();
        // A game's positions come in decreasing empties: a rise starts the next game.
        if e >= last_empties {
            game += 1;
            searcher.clear();
            if game.is_multiple_of(100) {
                eprintln!(
                    "relabel: {game} games, {done} positions written, {searched} searched, {:.0} s",
                    t.elapsed().as_secs_f64()
                );
            }
        }
        last_empties = e;
        if !range.contains(&game) {
            continue;
        }
        let r = relabel(&l, &cfg, &mut searcher);
        if e > cfg.min_empties {
            searched += 1;
        }
        writeln!(file, "{}", format_line(&r)).map_err(|e| format!("{}: {e}", out.display()))?;
        done += 1;
    }
    file.flush()
        .map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!(
        "relabel: games {range:?} of {games}, {done} positions written, {searched} searched, {:.0} s",
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Options of `train-patterns`.
pub struct TrainPatterns<'a> {
    pub positions: &'a [std::path::PathBuf],
    pub wthor: &'a [std::path::PathBuf],
    pub out: &'a std::path::Path,
    pub cfg: crate::othello::pattern_fit::FitConfig,
    /// Every `holdout`-th game is kept out of the fit and measured.
    pub holdout: usize,
    /// Other weights files measured on the same held-out positions (earlier fits).
    pub compare: &'a [std::path::PathBuf],
    /// Pattern tables the fit starts from and its ridge pulls towards (instead of zero).
    pub prior: Option<&'a std::path::Path>,
}

/// Reads the positions files and WTHOR games, fits on all games but every `holdout`-th,
/// reports the held-out mean absolute error at 20-40 empties of the linear evaluation and
/// of the fit, and writes the fitted tables.
pub fn train_patterns(t: TrainPatterns<'_>) -> Result<(), String> {
    use crate::othello::evaluator::Evaluator;
    use crate::othello::pattern_file::encode;
    use crate::othello::pattern_fit::{fit_from, mean_abs_error, Example};
    use crate::othello::selfplay::parse_line;
    use crate::othello::train::{read_wthor, samples};
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
    let mut game = 0usize;
    for f in t.positions {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let mut last_empties = 99;
        for (n, line) in text.lines().enumerate() {
            let l = parse_line(line).map_err(|e| format!("{}:{}: {e}", f.display(), n + 1))?;
            let e = l.board.empties().count_ones();
            // A game's positions come in decreasing empties: a rise starts the next game.
            if e >= last_empties {
                game += 1;
            }
            last_empties = e;
            let ex = Example {
                board: l.board,
                label: l.label as f32,
            };
            if game.is_multiple_of(holdout) {
                test_self.push(ex);
            } else {
                train.push(ex);
            }
        }
        game += 1;
    }
    let self_games = game;
    let mut wthor_games = 0usize;
    for f in t.wthor {
        let bytes = std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?;
        for g in read_wthor(&bytes).map_err(|e| format!("{}: {e}", f.display()))? {
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
    for (name, set) in [("self-play", mid(&test_self)), ("WTHOR", mid(&test_wthor))] {
        println!(
            "held-out {name} positions at 20-40 empties: {}; mean absolute error: linear {:.2} discs, pattern {:.2} discs",
            set.len(),
            mean_abs_error(&set, |b| linear.evaluate(b)),
            mean_abs_error(&set, |b| pattern.evaluate(b))
        );
        for (f, e) in &others {
            println!(
                "  the same {} positions, {}: {:.2} discs",
                set.len(),
                f.display(),
                mean_abs_error(&set, |b| e.evaluate(b))
            );
        }
    }
    let bytes = encode(&p);
    std::fs::write(t.out, &bytes).map_err(|e| format!("{}: {e}", t.out.display()))?;
    println!("wrote {} ({} bytes)", t.out.display(), bytes.len());
    Ok(())
}
