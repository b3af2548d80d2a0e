//! `quartet bench othello ...`: perft, the exact solve of an endgame suite, the depth a
//! timed search reaches, and the fixed-depth signature.
//!
//! Node rates are per CPU second of this thread where the clock is there: wall time on a
//! shared machine measures the neighbours too. Every report goes to `out`.
use super::bitboard::square_name;
use super::board::{perft, Board};
use super::endgame::Solver;
use super::eval::Weights;
use super::evaluator::Evaluator;
use super::obf;
use super::search::Searcher;
use crate::color::Color;
use crate::cpu_time::thread_seconds;
use crate::search::{Deadline, Limits, StopToken};
use rand::{rngs::SmallRng, SeedableRng};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

fn io(e: std::io::Error) -> String {
    format!("output: {e}")
}

/// Counts the leaves `depth` plies from the start and reports the count and its rate.
pub fn perft_timed(depth: u32, out: &mut impl Write) -> Result<(), String> {
    let t = Instant::now();
    let n = perft(&Board::start(), depth);
    let s = t.elapsed().as_secs_f64();
    writeln!(
        out,
        "perft {depth} = {n}  time {s:.3} s  {:.1} M leaves/s",
        n as f64 / s.max(1e-9) / 1e6
    )
    .map_err(io)
}

/// Which lines of a suite file to solve, and with what.
#[derive(Clone, Copy, Debug)]
pub struct Ffo {
    /// Lines left out at the start.
    pub skip: usize,
    /// Lines solved after those (all when `None`).
    pub count: Option<usize>,
    /// Number of the file's first line (`None`: from a name such as `ffo-40-59.obf`).
    pub first_id: Option<usize>,
    pub hash_mb: usize,
    /// Instruction level of the solver copy (`None`: the best this CPU has).
    pub isa: Option<u8>,
    /// Search threads of each solve.
    pub threads: usize,
}

/// Solves the chosen lines of an `.obf` suite exactly, one table row each, and checks
/// every score and move against the suite's; an error names how many were wrong.
pub fn ffo(file: &Path, o: Ffo, out: &mut impl Write) -> Result<f64, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let first = o.first_id.unwrap_or_else(|| {
        obf::first_number(
            &file
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default(),
        )
    });
    let lines = obf::lines(&text);
    let lines = &lines[o.skip.min(lines.len())..];
    let lines = &lines[..o.count.unwrap_or(lines.len()).min(lines.len())];
    let mut solver = Solver::new(o.hash_mb);
    if let Some(level) = o.isa {
        solver.set_isa(level);
    }
    solver.set_threads(o.threads);
    writeln!(
        out,
        "solver copy: {}, threads {}",
        super::isa::name(solver.isa()),
        o.threads
    )
    .map_err(io)?;
    // With helpers the cpu column is this thread's alone, so rates are per wall second.
    let parallel = o.threads > 1;
    let (mut total_nodes, mut total_time, mut failures) = (0u64, 0f64, 0);
    let mut sort_nodes = 0u64;
    let (mut total_cpu, mut cpu_positions) = (0f64, 0);
    let process_cpu0 = crate::cpu_time::process_seconds();
    writeln!(
        out,
        "  #  empties  move  score  known  nodes          time(s)   cpu(s)   Mnodes/s(cpu)"
    )
    .map_err(io)?;
    for (i, line) in lines.iter().enumerate() {
        let p = obf::parse_line(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        solver.table.clear();
        solver.nodes = 0;
        solver.sort_nodes = 0;
        let t = Instant::now();
        let c0 = thread_seconds();
        let r = solver.solve(&p.board);
        let s = t.elapsed().as_secs_f64();
        let cpu = c0.map(|c0| thread_seconds().unwrap_or(c0) - c0);
        let known = p.score();
        let best_ok = match (r.best, known) {
            (Some(b), Some(_)) => p.is_best(b),
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
        let secs = if parallel { s } else { cpu.unwrap_or(s) };
        writeln!(
            out,
            "{:>3}  {:>7}  {:>4}  {:>+5}  {:>+5}  {:>13}  {:>8.3}  {:>7.3}  {:>9.2}  {}",
            first + o.skip + i,
            p.board.empties().count_ones(),
            r.best.map(square_name).unwrap_or_else(|| "pass".into()),
            r.score,
            known.unwrap_or(0),
            solver.nodes,
            s,
            secs,
            solver.nodes as f64 / secs.max(1e-9) / 1e6,
            if ok { "ok" } else { "WRONG" }
        )
        .map_err(io)?;
    }
    let total_secs = if cpu_positions == lines.len() && !parallel {
        total_cpu
    } else {
        total_time
    };
    // With helpers, the CPU seconds of every thread (whether they had the cores).
    if parallel {
        if let (Some(a), Some(b)) = (process_cpu0, crate::cpu_time::process_seconds()) {
            total_cpu = b - a;
        }
    }
    writeln!(
        out,
        "total: {} positions, {} nodes, {:.3} s wall, {:.3} s cpu, {:.2} Mnodes/s (cpu), {} wrong",
        lines.len(),
        total_nodes,
        total_time,
        total_cpu,
        total_nodes as f64 / total_secs.max(1e-9) / 1e6,
        failures
    )
    .map_err(io)?;
    // Nodes above are exact-search positions; the evaluation searches that guess the
    // root score and order moves high in the tree visit these besides.
    writeln!(
        out,
        "ordering searches: {} more nodes; all nodes {:.2} M/s (cpu)",
        sort_nodes,
        (total_nodes + sort_nodes) as f64 / total_secs.max(1e-9) / 1e6
    )
    .map_err(io)?;
    if failures > 0 {
        return Err(format!(
            "{failures} position(s) solved with a wrong score or move"
        ));
    }
    Ok(total_time)
}

/// The game the depth benches search in: the positions after 0, 1, 2, ... plies from
/// the start, each move chosen by a depth-4 search with the built-in linear weights (the
/// same on every run), with the side to move, down to `empties` empties.
fn bench_game(empties: u32, hash_mb: usize) -> Vec<(Board, Color)> {
    let unlimited = Limits::new(Deadline::unlimited(), None, StopToken::new());
    let mut s = Searcher::new(Weights::default_weights(), hash_mb);
    let (mut b, mut side) = (Board::start(), Color::Black);
    let mut game = vec![(b, side)];
    while b.empties().count_ones() > empties && !b.is_game_over() {
        match s.deepen(&b, &unlimited, 4).best.filter(|_| b.moves() != 0) {
            Some(m) => b = b.play(m).expect("searcher returns a legal move"),
            None => b = b.pass(),
        }
        side = side.opponent();
        game.push((b, side));
    }
    game
}

/// What one depth bench measured.
#[derive(Clone, Copy, Debug, Default)]
pub struct DepthRun {
    /// Deepest completed iteration (the smallest over the positions of a fixed-depth run).
    pub depth: u32,
    pub wall: f64,
    /// CPU seconds of the thread that runs the search (the helpers' not included).
    pub main_cpu: Option<f64>,
    /// CPU seconds of every thread of the process.
    pub all_cpu: Option<f64>,
    pub nodes: u64,
}

/// A searcher for the depth benches, its table cleared here so that the first touch of
/// its pages is not timed.
fn bench_searcher(
    eval: &Evaluator,
    hash_mb: usize,
    probcut: Option<i32>,
    threads: usize,
) -> Searcher {
    let mut s = Searcher::new(eval.clone(), hash_mb).with_probcut(probcut);
    s.set_threads(threads);
    s.clear();
    s
}

/// Plays 20 plies from the start (`bench_game`), then deepens from the resulting
/// 40-empties position for `ms` with `eval` and reports the depth it completed.
pub fn depth(
    ms: u64,
    hash_mb: usize,
    eval: &Evaluator,
    probcut: Option<i32>,
    threads: usize,
    out: &mut impl Write,
) -> Result<DepthRun, String> {
    let (b, side) = *bench_game(40, hash_mb).last().expect("a game has a start");
    // A fresh searcher: no killers or history from the plies above.
    let mut s = bench_searcher(eval, hash_mb, probcut, threads);
    let limits = Limits::new(
        Deadline::after(Duration::from_millis(ms), Duration::from_millis(ms)),
        None,
        StopToken::new(),
    );
    let t = Instant::now();
    let (c0, p0) = (thread_seconds(), crate::cpu_time::process_seconds());
    let f = s.deepen(&b, &limits, 60);
    let run = DepthRun {
        depth: f.depth,
        wall: t.elapsed().as_secs_f64(),
        main_cpu: c0.and_then(|c0| thread_seconds().map(|c| c - c0)),
        all_cpu: p0.and_then(|p0| crate::cpu_time::process_seconds().map(|p| p - p0)),
        nodes: f.nodes,
    };
    let x = if side == Color::Black { "X" } else { "O" };
    writeln!(out, "position {} {x}", b.to_obf(side)).map_err(io)?;
    writeln!(
        out,
        "depth {} completed in {:.3} s wall, {} cpu (this thread), {} cpu (all threads), {} nodes, {} threads, best {}, score {:+.2}",
        f.depth,
        run.wall,
        seconds(run.main_cpu),
        seconds(run.all_cpu),
        f.nodes,
        threads,
        f.best.map(square_name).unwrap_or_else(|| "pass".into()),
        f.score as f64 / 100.0
    )
    .map_err(io)?;
    Ok(run)
}

fn seconds(s: Option<f64>) -> String {
    s.map(|c| format!("{c:.3} s"))
        .unwrap_or_else(|| "n/a".into())
}

/// Searches `positions` positions of `bench_game` (from 44 empties, every second ply) to
/// `depth` each, every one with a cleared table, and reports the time and nodes of each
/// and in all.
pub fn fixed_depth(
    depth: u32,
    positions: usize,
    hash_mb: usize,
    eval: &Evaluator,
    probcut: Option<i32>,
    threads: usize,
    out: &mut impl Write,
) -> Result<DepthRun, String> {
    let game = bench_game(44u32.saturating_sub(2 * positions as u32), hash_mb);
    let chosen: Vec<(Board, Color)> = game
        .into_iter()
        .filter(|(b, _)| {
            let n = b.empties().count_ones();
            n <= 44 && n % 2 == 0 && b.moves() != 0
        })
        .take(positions)
        .collect();
    let mut s = bench_searcher(eval, hash_mb, probcut, threads);
    let unlimited = Limits::new(Deadline::unlimited(), None, StopToken::new());
    let mut run = DepthRun {
        depth: depth.max(1),
        ..DepthRun::default()
    };
    let (c0, p0) = (thread_seconds(), crate::cpu_time::process_seconds());
    for (b, side) in &chosen {
        s.clear();
        let t = Instant::now();
        let f = s.deepen(b, &unlimited, depth);
        let wall = t.elapsed().as_secs_f64();
        run.depth = run.depth.min(f.depth);
        run.wall += wall;
        run.nodes += f.nodes;
        writeln!(
            out,
            "{} {}  empties {}  depth {}  best {}  score {:+.2}  nodes {}  {:.3} s",
            b.to_obf(*side),
            if *side == Color::Black { "X" } else { "O" },
            b.empties().count_ones(),
            f.depth,
            f.best.map(square_name).unwrap_or_else(|| "pass".into()),
            f.score as f64 / 100.0,
            f.nodes,
            wall
        )
        .map_err(io)?;
    }
    run.main_cpu = c0.and_then(|c0| thread_seconds().map(|c| c - c0));
    run.all_cpu = p0.and_then(|p0| crate::cpu_time::process_seconds().map(|p| p - p0));
    writeln!(
        out,
        "depth {} on {} positions, {} threads: {:.3} s wall, {} cpu (this thread), {} cpu (all threads), {} nodes",
        run.depth,
        chosen.len(),
        threads,
        run.wall,
        seconds(run.main_cpu),
        seconds(run.all_cpu),
        run.nodes
    )
    .map_err(io)?;
    Ok(run)
}

/// Positions of the signature with this many empties and down to `MIN_EMPTIES`: the
/// midgame, where the evaluation runs (the search hands over to the solver further on).
const MAX_EMPTIES: u32 = 44;
const MIN_EMPTIES: u32 = 24;

/// Position `i` of the signature suite: random legal moves from the start until it has
/// the `i`-th number of empties of a cycle from `MAX_EMPTIES` down to `MIN_EMPTIES`.
pub fn signature_position(rng: &mut SmallRng, i: u32) -> Board {
    let target = MAX_EMPTIES - i % (MAX_EMPTIES - MIN_EMPTIES + 1);
    loop {
        let mut b = Board::start();
        while b.empties().count_ones() > target {
            match b.play_random(rng) {
                Some(next) => b = next,
                None => break,
            }
        }
        if b.empties().count_ones() == target && b.moves() != 0 {
            return b;
        }
    }
}

/// What the signature searches, and how.
#[derive(Clone, Copy, Debug)]
pub struct Signature {
    pub depth: u32,
    pub positions: u32,
    pub seed: u64,
    pub hash_mb: usize,
    /// Instruction level of the search copy (`None`: the best this CPU has).
    pub isa: Option<u8>,
    /// ProbCut selectivity in hundredths (`None`: off).
    pub probcut: Option<i32>,
}

/// Fixed-depth searches of `positions` seeded random midgame positions: each one's best
/// move, score and nodes, then the node rate and a hash of all the results.
///
/// A change that only makes the search faster must leave every best move, score and node
/// count as it was; comparing the printed signature of two builds checks exactly that,
/// independently of the machine's load.
pub fn signature(o: Signature, eval: Evaluator, out: &mut impl Write) -> Result<(), String> {
    let mut rng = SmallRng::seed_from_u64(o.seed);
    let boards: Vec<Board> = (0..o.positions)
        .map(|i| signature_position(&mut rng, i))
        .collect();
    let mut s = Searcher::new(eval, o.hash_mb).with_probcut(o.probcut);
    if let Some(level) = o.isa {
        s.set_isa(level);
    }
    let (mut total, mut cpu, mut sig) = (0u64, 0f64, 0xcbf2_9ce4_8422_2325u64);
    for (i, b) in boards.iter().enumerate() {
        // Each search starts from the same state whatever ran before it.
        s.clear();
        let limits = Limits::new(Deadline::unlimited(), None, StopToken::new());
        let c0 = thread_seconds();
        let f = s.deepen(b, &limits, o.depth);
        if let (Some(c0), Some(c1)) = (c0, thread_seconds()) {
            cpu += c1 - c0;
        }
        total += f.nodes;
        for x in [f.best.map_or(64, |m| m as u64), f.score as u64, f.nodes] {
            sig = (sig ^ x).wrapping_mul(0x0000_0100_0000_01b3);
        }
        writeln!(
            out,
            "{i:3} {:016x} {:016x} empties {} best {} score {:+} nodes {}",
            b.p,
            b.o,
            b.empties().count_ones(),
            f.best.map(square_name).unwrap_or_else(|| "pass".into()),
            f.score,
            f.nodes
        )
        .map_err(io)?;
    }
    writeln!(
        out,
        "depth {}, {} positions (seed {}, {}): {total} nodes, {cpu:.3} s cpu, {:.2} M nodes/s cpu, signature {sig:016x}",
        o.depth,
        o.positions,
        o.seed,
        super::isa::name(s.isa()),
        total as f64 / cpu.max(1e-9) / 1e6
    )
    .map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_positions_cycle_through_the_midgame_and_repeat_with_the_seed() {
        let mut a = SmallRng::seed_from_u64(3);
        let mut b = SmallRng::seed_from_u64(3);
        for i in 0..25 {
            let x = signature_position(&mut a, i);
            assert_eq!(x, signature_position(&mut b, i));
            let n = x.empties().count_ones();
            assert_eq!(n, MAX_EMPTIES - i % 21, "position {i}");
            assert!(x.moves() != 0);
        }
    }

    #[test]
    fn perft_reports_the_published_count() {
        let mut out = Vec::new();
        perft_timed(4, &mut out).unwrap();
        assert!(String::from_utf8(out)
            .unwrap()
            .starts_with("perft 4 = 244 "));
    }
}
