//! `quartet bench othello perft <depth>` and `quartet bench othello ffo <file.obf>`.
use crate::othello::bitboard::{parse_square, square_name};
use crate::othello::board::{perft, Board};
use crate::othello::endgame::Solver;
use crate::othello::evaluator::Evaluator;
use clap::Subcommand;
use std::time::{Duration, Instant};

const MIN_FIT: u32 = crate::othello::probcut::MIN_DEPTH;

#[derive(Subcommand, Debug)]
pub enum BenchOthello {
    /// Leaf count from the start position (passes count as a ply).
    Perft { depth: u32 },
    /// Solve every line of an FFO/Edax .obf file exactly and check the known score.
    Ffo {
        file: std::path::PathBuf,
        /// Skip the first N lines.
        #[arg(long, default_value_t = 0)]
        skip: usize,
        /// Only N lines (after the skipped ones).
        #[arg(long)]
        count: Option<usize>,
        /// Number of the first line in the suite (default: taken from a name like ffo-40-59).
        #[arg(long)]
        first_id: Option<usize>,
        /// Transposition table size.
        #[arg(long, default_value_t = 64)]
        hash_mb: usize,
        /// Instruction level of the solver copy: plain, avx2 or avx512 (default: the
        /// highest this CPU has; a higher one than that falls back to it).
        #[arg(long, value_parser = crate::othello::isa::parse)]
        isa: Option<u8>,
    },
    /// Midgame search depth completed within a time budget from a 40-empties position.
    Depth {
        /// Budget per search in milliseconds.
        #[arg(long, default_value_t = 1000)]
        ms: u64,
        /// Transposition table size.
        #[arg(long, default_value_t = 64)]
        hash_mb: usize,
        /// Weights of the timed search (as `quartet othello --weights`); the position is
        /// reached with the built-in linear weights whatever this says.
        #[arg(long, conflicts_with = "eval")]
        weights: Option<std::path::PathBuf>,
        /// Built-in evaluation of the timed search when no --weights is given (as `quartet
        /// othello --eval`; the engine's default is `pattern`).
        #[arg(long, default_value = "pattern", value_parser = ["pattern", "linear"])]
        eval: String,
        /// ProbCut selectivity (as `quartet othello --probcut`; 0: off).
        #[arg(long, default_value_t = crate::othello::probcut::DEFAULT_T)]
        probcut: f64,
    },
    /// Fixed-depth searches of seeded random midgame positions: each one's best move, score
    /// and nodes, the node rate, and a signature that a pure speedup must leave unchanged.
    Signature {
        #[arg(long, default_value_t = 8)]
        depth: u32,
        #[arg(long, default_value_t = 42)]
        positions: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 16)]
        hash_mb: usize,
        /// Built-in evaluation (as `quartet othello --eval`).
        #[arg(long, default_value = "pattern", value_parser = ["pattern", "linear"])]
        eval: String,
        /// A weights file instead of the built-in evaluation (as `quartet othello --weights`).
        #[arg(long)]
        weights: Option<std::path::PathBuf>,
        /// ProbCut selectivity (as `quartet othello --probcut`; 0: off).
        #[arg(long, default_value_t = 0.0)]
        probcut: f64,
        /// Instruction level of the search copy: plain, avx2 or avx512 (default: the
        /// highest this CPU has; a higher one than that falls back to it).
        #[arg(long, value_parser = crate::othello::isa::parse)]
        isa: Option<u8>,
    },
    /// Mean absolute and signed error of the linear and the built-in pattern evaluation
    /// (and of --weights files) by stage, every 4 empties, on `selfplay` positions files.
    EvalError {
        #[arg(long, required = true)]
        positions: Vec<std::path::PathBuf>,
        #[arg(long)]
        weights: Vec<std::path::PathBuf>,
    },
    /// Measure ProbCut's error table (`othello::probcut`): deep minus shallow search values
    /// on positions of a `selfplay` file, by node depth and stage.
    ProbcutFit {
        #[arg(long)]
        positions: std::path::PathBuf,
        #[arg(long, default_value_t = 400)]
        count: usize,
        #[arg(long, default_value_t = 11)]
        max_depth: u32,
        #[arg(long, default_value_t = 16)]
        hash_mb: usize,
        /// A weights file instead of the built-in pattern tables.
        #[arg(long)]
        weights: Option<std::path::PathBuf>,
    },
    /// Fit the evaluation weights to WTHOR games (labels: their theoretical scores) and
    /// write a weights file loadable with `quartet othello --weights`.
    Train {
        /// WTHOR `.wtb` files.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        #[arg(long)]
        out: std::path::PathBuf,
        /// Stages every this many empties; each fits the positions within half of it.
        #[arg(long, default_value_t = 4)]
        step: u32,
        /// Ridge penalty (relative to the sample count) that keeps rare features tame.
        #[arg(long, default_value_t = 0.01)]
        ridge: f64,
    },
    /// Self-play games labelled by the exact solver, appended to a positions file
    /// (`<p hex> <o hex> <disc difference>` per line) for `train-patterns`.
    Selfplay {
        #[arg(long)]
        out: std::path::PathBuf,
        #[arg(long, default_value_t = 100)]
        games: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Depth of the midgame search that plays until the solve point.
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// Empties at which each game is solved exactly (and then finished perfectly).
        #[arg(long, default_value_t = 20)]
        solve_at: u32,
    },
    /// Copies a `selfplay` positions file with the labels of its midgame positions
    /// replaced by (or blended with) a fixed-depth search's score, for `train-patterns`.
    Relabel {
        #[arg(long)]
        positions: std::path::PathBuf,
        #[arg(long)]
        out: std::path::PathBuf,
        /// Positions with more empties than this are relabelled (the rest are exact).
        #[arg(long, default_value_t = 20)]
        min_empties: u32,
        #[arg(long, default_value_t = 8)]
        depth: u32,
        /// Weight of the search score in the new label (the rest: the file's label).
        #[arg(long, default_value_t = 1.0)]
        mix: f32,
        /// Evaluation of the search (default: the built-in pattern tables).
        #[arg(long)]
        weights: Option<std::path::PathBuf>,
        /// Relabel only the shard-th of --shards contiguous runs of games (parallel runs;
        /// the outputs concatenated in shard order are the whole file's).
        #[arg(long, default_value_t = 0)]
        shard: usize,
        #[arg(long, default_value_t = 1)]
        shards: usize,
    },
    /// Build an opening book from WTHOR databases and GGF game records (loadable with
    /// `quartet othello --book FILE`); prints its size and the line it would play.
    BookBuild {
        /// WTHOR `.wtb` files (each game valued by its theoretical score).
        #[arg(long)]
        wthor: Vec<std::path::PathBuf>,
        /// Files of GGF records (valued by their final position, or their `RE`).
        #[arg(long)]
        ggf: Vec<std::path::PathBuf>,
        /// Add to this book instead of starting empty.
        #[arg(long)]
        add_to: Option<std::path::PathBuf>,
        #[arg(long)]
        out: std::path::PathBuf,
        /// Moves of each game stored.
        #[arg(long, default_value_t = crate::othello::book::DEFAULT_PLIES)]
        plies: usize,
        /// Games a move needs to be trusted (for the summary printed; not stored).
        #[arg(long, default_value_t = crate::othello::book::DEFAULT_MIN_VISITS)]
        book_visits: u32,
        /// Leave out the positions fewer games reached: at most --book-visits, this changes
        /// no value and no move played at that trust, and makes the file far smaller.
        #[arg(long, default_value_t = 1)]
        min_games: u32,
    },
    /// Fit the pattern evaluation to positions files from `selfplay` and WTHOR games;
    /// prints the held-out error of the linear and the pattern evaluation.
    TrainPatterns {
        /// Positions files written by `selfplay`.
        #[arg(long, required = true)]
        positions: Vec<std::path::PathBuf>,
        /// WTHOR `.wtb` files (labels: their theoretical scores).
        #[arg(long)]
        wthor: Vec<std::path::PathBuf>,
        #[arg(long)]
        out: std::path::PathBuf,
        /// Empties per stage.
        #[arg(long, default_value_t = 4)]
        width: u32,
        /// Positions this many empties outside a stage also train it.
        #[arg(long, default_value_t = 2)]
        spread: u32,
        /// Add the outer-region term (every square but the centre 16, own or opponent).
        #[arg(long)]
        outer: bool,
        #[arg(long, default_value_t = 60)]
        epochs: u32,
        #[arg(long, default_value_t = 0.5)]
        rate: f32,
        #[arg(long, default_value_t = 2.0)]
        ridge: f32,
        /// Every N-th game is held out of the fit and measured.
        #[arg(long, default_value_t = 10)]
        holdout: usize,
        /// Weights files (earlier fits) whose error on the same held-out positions is
        /// printed beside the new fit's.
        #[arg(long)]
        compare: Vec<std::path::PathBuf>,
        /// Pattern tables to start from: the ridge pulls towards them instead of zero.
        #[arg(long)]
        prior: Option<std::path::PathBuf>,
    },
}

pub fn run(cmd: BenchOthello) -> Result<(), String> {
    match cmd {
        BenchOthello::Perft { depth } => {
            let t = Instant::now();
            let n = perft(&Board::start(), depth);
            let s = t.elapsed().as_secs_f64();
            println!(
                "perft {depth} = {n}  time {s:.3} s  {:.1} M leaves/s",
                n as f64 / s.max(1e-9) / 1e6
            );
            Ok(())
        }
        BenchOthello::Ffo {
            file,
            skip,
            count,
            first_id,
            hash_mb,
            isa,
        } => {
            crate::memory::check_hash_mb(hash_mb, hash_mb as u64)?;
            ffo(&file, skip, count, first_id, hash_mb, isa)
        }
        BenchOthello::Depth {
            ms,
            hash_mb,
            weights,
            eval,
            probcut,
        } => {
            crate::memory::check_hash_mb(hash_mb, hash_mb as u64)?;
            let eval = Evaluator::chosen(weights.as_deref(), &eval)?;
            depth(
                ms,
                hash_mb,
                eval,
                crate::othello::probcut::hundredths(probcut),
            )
        }
        BenchOthello::ProbcutFit {
            positions,
            count,
            max_depth,
            hash_mb,
            weights,
        } => {
            crate::memory::check_hash_mb(hash_mb, hash_mb as u64)?;
            let eval = Evaluator::chosen(weights.as_deref(), "pattern")?;
            super::othello_probcut::probcut_fit(
                &positions,
                count,
                max_depth.clamp(MIN_FIT, 16),
                hash_mb,
                eval,
            )
        }
        BenchOthello::EvalError { positions, weights } => {
            super::othello_eval_error::eval_error(&positions, &weights)
        }
        BenchOthello::Signature {
            depth,
            positions,
            seed,
            hash_mb,
            eval,
            weights,
            probcut,
            isa,
        } => {
            crate::memory::check_hash_mb(hash_mb, hash_mb as u64)?;
            let eval = Evaluator::chosen(weights.as_deref(), &eval)?;
            super::othello_signature::signature(
                depth.clamp(1, 20),
                positions,
                seed,
                hash_mb,
                eval,
                isa,
                crate::othello::probcut::hundredths(probcut),
            )
        }
        BenchOthello::Train {
            files,
            out,
            step,
            ridge,
        } => train(&files, &out, step.max(1), ridge),
        BenchOthello::TrainPatterns {
            positions,
            wthor,
            out,
            width,
            spread,
            outer,
            epochs,
            rate,
            ridge,
            holdout,
            compare,
            prior,
        } => super::othello_train::train_patterns(super::othello_train::TrainPatterns {
            positions: &positions,
            wthor: &wthor,
            out: &out,
            cfg: crate::othello::pattern_fit::FitConfig {
                width: width.clamp(1, 60),
                outer,
                epochs,
                rate,
                ridge,
                spread,
            },
            holdout,
            compare: &compare,
            prior: prior.as_deref(),
        }),
        BenchOthello::BookBuild {
            wthor,
            ggf,
            add_to,
            out,
            plies,
            book_visits,
            min_games,
        } => {
            if wthor.is_empty() && ggf.is_empty() {
                return Err("book-build needs --wthor or --ggf files".into());
            }
            super::othello_book::build_book(super::othello_book::BuildBook {
                wthor: &wthor,
                ggf: &ggf,
                base: add_to.as_deref(),
                out: &out,
                plies: plies.clamp(1, 60),
                min_visits: book_visits.max(1),
                min_games: min_games.max(1),
            })
        }
        BenchOthello::Relabel {
            positions,
            out,
            min_empties,
            depth,
            mix,
            weights,
            shard,
            shards,
        } => {
            if !(0.0..=1.0).contains(&mix) || shards == 0 || shard >= shards {
                return Err("--mix in [0, 1], --shard below --shards".into());
            }
            let eval = Evaluator::chosen(weights.as_deref(), "pattern")?;
            super::othello_train::relabel(
                &positions,
                &out,
                crate::othello::relabel::Relabel {
                    min_empties,
                    depth: depth.clamp(1, 30),
                    mix,
                },
                eval,
                (shard, shards),
            )
        }
        BenchOthello::Selfplay {
            out,
            games,
            seed,
            depth,
            solve_at,
        } => {
            super::othello_train::selfplay(&out, games, seed, depth.clamp(1, 20), solve_at.min(30))
        }
    }
}

/// Plays 20 plies from the start (each chosen by a depth-4 search, so the position is
/// the same on every run), then deepens from the resulting 40-empties position for `ms`.
fn depth(
    ms: u64,
    hash_mb: usize,
    eval: crate::othello::evaluator::Evaluator,
    probcut: Option<i32>,
) -> Result<(), String> {
    use crate::color::Color;
    use crate::othello::eval::Weights;
    use crate::othello::search::Searcher;
    use crate::search::{Deadline, Limits, StopToken};
    let unlimited = || Limits::new(Deadline::unlimited(), None, StopToken::new());
    let mut s = Searcher::new(Weights::default_weights(), hash_mb);
    let (mut b, mut side) = (Board::start(), Color::Black);
    while b.empties().count_ones() > 40 {
        match s
            .deepen(&b, &unlimited(), 4)
            .best
            .filter(|_| b.moves() != 0)
        {
            Some(m) => b = b.play(m).expect("searcher returns a legal move"),
            None => b = b.pass(),
        }
        side = side.opponent();
    }
    // A fresh searcher (no killers or history from the plies above), its table cleared
    // here so that the first touch of its pages is not timed.
    s = Searcher::new(eval, hash_mb).with_probcut(probcut);
    s.clear();
    let limits = Limits::new(
        Deadline::after(Duration::from_millis(ms), Duration::from_millis(ms)),
        None,
        StopToken::new(),
    );
    let t = Instant::now();
    let c0 = thread_cpu_seconds();
    let f = s.deepen(&b, &limits, 60);
    let cpu = c0.and_then(|c0| thread_cpu_seconds().map(|c| c - c0));
    let x = if side == Color::Black { "X" } else { "O" };
    println!("position {} {x}", b.to_obf(side));
    println!(
        "depth {} completed in {:.3} s wall, {} cpu, {} nodes, best {}, score {:+.2}",
        f.depth,
        t.elapsed().as_secs_f64(),
        cpu.map(|c| format!("{c:.3} s"))
            .unwrap_or_else(|| "n/a".into()),
        f.nodes,
        f.best.map(square_name).unwrap_or_else(|| "pass".into()),
        f.score as f64 / 100.0
    );
    Ok(())
}

/// One suite line: board, side, and `move:score;` pairs, best first.
struct Problem {
    board: Board,
    moves: Vec<(usize, i32)>,
}

fn parse_line(line: &str) -> Result<Problem, String> {
    let mut parts = line.split_whitespace();
    let sq = parts.next().ok_or("empty line")?;
    let side = parts
        .next()
        .ok_or("missing side to move")?
        .trim_end_matches(';');
    let (board, _) = Board::from_obf(sq, side).map_err(|e| e.to_string())?;
    let mut moves = Vec::new();
    for item in parts.collect::<Vec<_>>().join(" ").split(';') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let (m, s) = item
            .split_once(':')
            .ok_or(format!("bad move score '{item}'"))?;
        let sq = parse_square(m.trim()).ok_or(format!("bad move '{m}'"))?;
        let v: i32 = s.trim().parse().map_err(|_| format!("bad score '{s}'"))?;
        moves.push((sq, v));
    }
    Ok(Problem { board, moves })
}

fn ffo(
    file: &std::path::Path,
    skip: usize,
    count: Option<usize>,
    first_id: Option<usize>,
    hash_mb: usize,
    isa: Option<u8>,
) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let first = first_id.unwrap_or_else(|| {
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        name.split(|c: char| !c.is_ascii_digit())
            .find(|s| !s.is_empty())
            .and_then(|s| s.parse().ok())
            .unwrap_or(1)
    });
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let lines = &lines[skip.min(lines.len())..];
    let lines = &lines[..count.unwrap_or(lines.len()).min(lines.len())];
    let mut solver = Solver::new(hash_mb);
    if let Some(level) = isa {
        solver.set_isa(level);
    }
    println!("solver copy: {}", crate::othello::isa::name(solver.isa()));
    let (mut total_nodes, mut total_time, mut failures) = (0u64, 0f64, 0);
    let mut sort_nodes = 0u64;
    let (mut total_cpu, mut cpu_positions) = (0f64, 0);
    println!("  #  empties  move  score  known  nodes          time(s)   cpu(s)   Mnodes/s(cpu)");
    for (i, line) in lines.iter().enumerate() {
        let p = parse_line(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        solver.table.clear();
        solver.nodes = 0;
        solver.sort_nodes = 0;
        let t = Instant::now();
        let c0 = thread_cpu_seconds();
        let r = solver.solve(&p.board);
        let s = t.elapsed().as_secs_f64();
        let cpu = c0.map(|c0| thread_cpu_seconds().unwrap_or(c0) - c0);
        let known = p.moves.iter().map(|m| m.1).max();
        let best_ok = match (r.best, known) {
            (Some(b), Some(k)) => p.moves.iter().any(|&(m, v)| m == b && v == k),
            _ => true,
        };
        let ok = known == Some(r.score) && best_ok;
        if !ok {
            failures += 1;
        }
        total_nodes += solver.nodes;
        sort_nodes += solver.sort_nodes;
        total_time += s;
        if let Some(c) = cpu {
            total_cpu += c;
            cpu_positions += 1;
        }
        // Node rate per CPU second: wall time on a shared machine measures the neighbours.
        let secs = cpu.unwrap_or(s);
        println!(
            "{:>3}  {:>7}  {:>4}  {:>+5}  {:>+5}  {:>13}  {:>8.3}  {:>7.3}  {:>9.2}  {}",
            first + skip + i,
            p.board.empties().count_ones(),
            r.best.map(square_name).unwrap_or_else(|| "pass".into()),
            r.score,
            known.unwrap_or(0),
            solver.nodes,
            s,
            secs,
            solver.nodes as f64 / secs.max(1e-9) / 1e6,
            if ok { "ok" } else { "WRONG" }
        );
    }
    let total_secs = if cpu_positions == lines.len() {
        total_cpu
    } else {
        total_time
    };
    println!(
        "total: {} positions, {} nodes, {:.3} s wall, {:.3} s cpu, {:.2} Mnodes/s (cpu), {} wrong",
        lines.len(),
        total_nodes,
        total_time,
        total_cpu,
        total_nodes as f64 / total_secs.max(1e-9) / 1e6,
        failures
    );
    // Nodes above are exact-search positions; the evaluation searches that guess the
    // root score and order moves high in the tree visit these besides.
    println!(
        "ordering searches: {} more nodes; all nodes {:.2} M/s (cpu)",
        sort_nodes,
        (total_nodes + sort_nodes) as f64 / total_secs.max(1e-9) / 1e6
    );
    if failures > 0 {
        return Err(format!(
            "{failures} position(s) solved with a wrong score or move"
        ));
    }
    Ok(())
}

/// CPU seconds used by the calling thread (`None` where the clock is unavailable).
pub(super) fn thread_cpu_seconds() -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec we pass.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
}

/// Stages fitted: the opening has too few distinct positions to fit nine weights (the
/// nearest fitted stage covers it), and at the very end the search sees exact scores.
const FIRST_STAGE: u32 = 4;
const LAST_STAGE: u32 = 52;

/// Fits on the even-numbered games and reports the error on the odd ones (against the
/// hand-set weights), then fits on everything and writes `out`.
fn train(
    files: &[std::path::PathBuf],
    out: &std::path::Path,
    step: u32,
    ridge: f64,
) -> Result<(), String> {
    use crate::othello::eval::Weights;
    use crate::othello::train::{fit_all, format_weights, read_wthor, rms_error, samples};
    let mut games = Vec::new();
    for f in files {
        let bytes = std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?;
        games.extend(read_wthor(&bytes).map_err(|e| format!("{}: {e}", f.display()))?);
    }
    let all: Vec<_> = games.iter().map(samples).collect();
    let complete = all.iter().filter(|s| s.len() >= 50).count();
    let flat = |pick: &dyn Fn(usize) -> bool| -> Vec<_> {
        all.iter()
            .enumerate()
            .filter(|(i, _)| pick(*i))
            .flat_map(|(_, s)| s.iter().copied())
            .collect()
    };
    let (even, odd, every) = (
        flat(&|i| i % 2 == 0),
        flat(&|i| i % 2 == 1),
        flat(&|_| true),
    );
    println!(
        "{} games ({} replayed to 50+ moves), {} positions",
        games.len(),
        complete,
        every.len()
    );
    let fit = |data: &[crate::othello::train::Sample]| -> Result<Weights, String> {
        let stages = fit_all(data, FIRST_STAGE, LAST_STAGE, step, ridge);
        if stages.is_empty() {
            return Err("too few positions to fit any stage".into());
        }
        Weights::parse(&format_weights(&stages, "")).map_err(|e| e.to_string())
    };
    let held = fit(&even)?;
    // The hand-set weights never saw these games; the built-in default did (all of them).
    let hand = Weights::parse(crate::othello::eval::HAND_WEIGHTS).map_err(|e| e.to_string())?;
    println!(
        "held-out games: rms error {:.2} discs with weights fitted on the other half, {:.2} with the hand-set weights",
        rms_error(&held, &odd),
        rms_error(&hand, &odd)
    );
    let stages = fit_all(&every, FIRST_STAGE, LAST_STAGE, step, ridge);
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let note = format!(
        "Fitted by `quartet bench othello train --step {step} --ridge {ridge}` on\n{} ({} games,\n{} positions), labels: WTHOR theoretical scores, centi-discs.",
        names.join(" "),
        games.len(),
        every.len()
    );
    let text = format_weights(&stages, &note);
    let w = Weights::parse(&text).map_err(|e| e.to_string())?;
    println!(
        "all games: rms error {:.2} discs (training fit)",
        rms_error(&w, &every)
    );
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}
