//! `quartet train othello probcut`: the error table of `probcut.rs`, measured.
//!
//! Each sampled position is searched at every depth from 0 to `max_depth` with a full
//! window and ProbCut off; for each node depth `D` the difference `v_D - v_shallow(D)` is
//! gathered by stage bucket, and its mean and standard deviation printed as the table's
//! rows (centi-discs).
use super::board::Board;
use super::evaluator::Evaluator;
use super::probcut::{bucket, shallow, BUCKETS, MIN_DEPTH};
use super::search::Searcher;
use super::selfplay::read_file;
use std::io::Write;
use std::path::Path;

/// Searches `count` midgame positions spread over the positions file `positions` with
/// `eval` and writes the table rows (as Rust source) to `report`; progress goes to stderr.
pub fn probcut_fit(
    positions: &Path,
    count: usize,
    max_depth: u32,
    hash_mb: usize,
    eval: Evaluator,
    report: &mut impl Write,
) -> Result<(), String> {
    let boards: Vec<Board> = read_file(positions)?
        .into_iter()
        .map(|l| l.board)
        .filter(|b| (20..=56).contains(&b.empties().count_ones()) && b.moves() != 0)
        .collect();
    if boards.is_empty() {
        return Err("no midgame positions (20-56 empties, side to move has a move)".into());
    }
    let step = (boards.len() / count.max(1)).max(1);
    let rows = (max_depth.max(MIN_DEPTH) - MIN_DEPTH + 1) as usize;
    // Per (node depth, bucket): count, sum, sum of squares of the differences.
    let mut acc = vec![[(0u32, 0f64, 0f64); BUCKETS]; rows];
    let mut s = Searcher::new(eval, hash_mb);
    let mut done = 0;
    for b in boards.iter().step_by(step).take(count) {
        s.clear();
        let v: Vec<i32> = (0..=max_depth).map(|d| s.fixed_depth(b, d)).collect();
        let k = bucket(b.empties().count_ones());
        for depth in MIN_DEPTH..=max_depth {
            let diff = (v[depth as usize] - v[shallow(depth) as usize]) as f64;
            let a = &mut acc[(depth - MIN_DEPTH) as usize][k];
            a.0 += 1;
            a.1 += diff;
            a.2 += diff * diff;
        }
        done += 1;
        if done % 50 == 0 {
            eprintln!("{done} positions");
        }
    }
    let io = |e: std::io::Error| format!("output: {e}");
    writeln!(report, "// {done} positions from {}, depths {MIN_DEPTH}..={max_depth}; per bucket (20+8k empties): (mean, sd) [count]", positions.display()).map_err(io)?;
    for (r, row) in acc.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .map(|&(n, sum, sq)| {
                let n = n.max(1) as f64;
                let mean = sum / n;
                let sd = (sq / n - mean * mean).max(0.0).sqrt();
                format!("({:.0}, {:.0})", mean, sd)
            })
            .collect();
        let counts: Vec<String> = row.iter().map(|a| a.0.to_string()).collect();
        writeln!(
            report,
            "    [{}], // D={} d={} [{}]",
            cells.join(", "),
            r as u32 + MIN_DEPTH,
            shallow(r as u32 + MIN_DEPTH),
            counts.join(" ")
        )
        .map_err(io)?;
    }
    Ok(())
}
