//! Threat-search speed on real defence work: for each position (a comma-separated move list,
//! one per line, Black first), the top candidate moves of the side to move are each checked
//! for an opponent VCF/VCT of depth 6, as the root defence does, with a node budget per
//! check instead of a clock so the node counts are reproducible (they are a signature: a
//! speed change that alters them changed behaviour too).
//!
//! usage: cargo run --release --example gomoku_threat_bench -- FILE [candidates=12] [budget=200000]
//!        [threat-stones=1] [patterns]
//! (`#` lines are comments; scripts/gomoku_defence_positions.txt is such a file.) With
//! `patterns` the board keeps its line patterns during the search, as the full engine's
//! did before it paused them for its threat phases.
use std::time::Instant;

use quartet::color::Color;
use quartet::gomoku::board::Rule;
use quartet::gomoku::game::Game;
use quartet::gomoku::threats::{five_move, Threats};
use quartet::search::{Deadline, Limits, StopToken};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("readable file");
    let tries: usize = args.get(2).map_or(12, |s| s.parse().expect("count"));
    let budget: u64 = args.get(3).map_or(200_000, |s| s.parse().expect("budget"));
    let stones: u8 = args.get(4).map_or(1, |s| s.parse().expect("stones"));
    let track = args.get(5).is_some_and(|s| s == "patterns");
    let (mut nodes, mut refuted, mut checks, mut cut) = (0u64, 0, 0, 0);
    let t0 = Instant::now();
    let cpu0 = cpu_seconds();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let mut g = Game::new(15, Rule::Freestyle);
        let mut c = Color::Black;
        for v in line.trim().split(',') {
            let (col, row) = quartet::protocol::coords::parse_vertex(v, 15)
                .expect("vertex")
                .expect("not a pass");
            let p = g.board().point(col, row);
            g.play(c, p).expect("legal move");
            c = c.opponent();
        }
        let o = c.opponent();
        if track {
            g.board_mut().track_patterns();
        }
        let mut root = Vec::new();
        quartet::gomoku::eval::scan(g.board_mut(), c, &mut root);
        root.sort_by_key(|m| std::cmp::Reverse(m.score));
        for m in root.iter().take(tries) {
            let b = g.board_mut();
            b.place(m.p, c);
            let lim = Limits::new(Deadline::unlimited(), None, StopToken::new());
            let mut poll = lim.poller();
            let mut t = Threats::new(&mut poll, budget);
            t.threat_stones = stones;
            let lost = five_move(b, o).is_some()
                || t.vcf_root(b, o, 120).is_some()
                || t.vct_root(b, o, 6).is_some();
            nodes += t.nodes;
            refuted += lost as u32;
            cut += (!lost && t.aborted) as u32;
            checks += 1;
            b.undo();
        }
    }
    let wall = t0.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu0;
    println!(
        "checks {checks} refuted {refuted} cut {cut} nodes {nodes} wall {wall:.2} s cpu {cpu:.2} s nodes/s {:.0}",
        nodes as f64 / cpu.max(1e-9)
    );
}

/// User CPU seconds of this process (Linux), so a loaded machine does not skew the rate.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    fields
        .get(11)
        .and_then(|u| u.parse::<f64>().ok())
        .unwrap_or(0.0)
        / 100.0
}
