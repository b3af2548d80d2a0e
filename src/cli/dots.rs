//! `quartet dots` (the protocol engine) and `quartet bench dots`.
use crate::dots::solver::Solver;
use crate::dots::{Board, Geometry};
use std::time::Instant;

/// `quartet bench dots --solve CxR [--tt BITS]`: solves the empty board and prints value,
/// nodes, nodes/s and time. Returns the process exit code.
pub fn bench(args: &[String]) -> i32 {
    let mut size = "3x3".to_string();
    let mut tt_bits = 22u32;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match (a.as_str(), it.next()) {
            ("--solve", Some(s)) => size = s.clone(),
            ("--tt", Some(b)) => match b.parse() {
                Ok(b) if (10..=28).contains(&b) => tt_bits = b,
                _ => return usage(),
            },
            _ => return usage(),
        }
    }
    let Ok(geo) = Geometry::parse_size(&size) else {
        return usage();
    };
    let board = Board::from_geometry(geo);
    let Some(mut solver) = Solver::new(&board, tt_bits) else {
        eprintln!("board too large for the solver");
        return 2;
    };
    let start = Instant::now();
    let value = solver.solve();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "dots {size}: value {value:+} nodes {} nodes/s {:.0} time {secs:.3}s",
        solver.nodes,
        solver.nodes as f64 / secs.max(1e-9)
    );
    0
}

fn usage() -> i32 {
    eprintln!("usage: quartet bench dots --solve CxR [--tt BITS]");
    2
}
pub fn run(_args: &[String]) -> i32 {
    0
}
