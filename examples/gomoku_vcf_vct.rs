//! The VCF/VCT position set (`tests/data/gomoku_vcf_vct.txt`): how it was extracted from
//! games, and the proof times of quartet's threat searches on it.
//!
//! usage: cargo run --release --example gomoku_vcf_vct -- extract SGF... > candidates.txt
//!        cargo run --release --example gomoku_vcf_vct -- times tests/data/gomoku_vcf_vct.txt
//!
//! `extract` replays each freestyle game and, with the winner to move (and no five of the
//! loser to block), finds the earliest position where quartet's VCF proves the win, and the
//! earliest of the 12 plies before it where only a VCT does (counting back while each
//! earlier turn still has one). It prints candidate lines in the file's format (name, kind,
//! the moves in SGF letters from Black, quartet's first move); the test `tests/gomoku_vcf_vct.rs` checks every VCF line with an
//! exhaustive search of its own, and VCT lines carry Rapfi's verdict (scripts/rapfi_mate.py).
//!
//! `times` prints, per position, quartet's proof: the first move, nodes and milliseconds,
//! with a node budget and no clock (so the node counts are reproducible), and the CPU time.
use std::time::Instant;

use quartet::color::Color;
use quartet::gomoku::board::{Board, Rule};
use quartet::gomoku::game::Game;
use quartet::gomoku::threats::{five_move, Threats};
use quartet::search::{Deadline, Limits, StopToken};

const VCF_BUDGET: u64 = 2_000_000;
const VCT_BUDGET: u64 = 4_000_000;
const VCT_DEPTH: u32 = 8;

/// Moves of an SGF game record (`;B[hh];W[hg]...`) as (column, row from the top).
fn sgf_moves(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for part in text.split(';').skip(1) {
        let b = part.as_bytes();
        if b.len() >= 5 && (b[0] == b'B' || b[0] == b'W') && b[1] == b'[' && b[4] == b']' {
            out.push(((b[2] - b'a') as usize, (b[3] - b'a') as usize));
        }
    }
    out
}

fn winner(text: &str) -> Option<Color> {
    if text.contains("RE[B+") {
        Some(Color::Black)
    } else if text.contains("RE[W+") {
        Some(Color::White)
    } else {
        None
    }
}

/// The game after the first `n` moves (Black first).
fn replay(moves: &[(usize, usize)], n: usize) -> Game {
    let mut g = Game::new(15, Rule::Freestyle);
    for (i, &(x, y)) in moves[..n].iter().enumerate() {
        let c = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let p = g.board().point(x, 14 - y);
        g.play(c, p).expect("a legal game");
    }
    g
}

fn sgf_pair((x, y): (usize, usize)) -> String {
    format!("{}{}", (b'a' + x as u8) as char, (b'a' + y as u8) as char)
}

/// (first move, nodes) of quartet's VCF or VCT for `c`, or None.
fn prove(b: &mut Board, c: Color, vct: bool) -> (Option<(usize, usize)>, u64) {
    let lim = Limits::new(Deadline::unlimited(), None, StopToken::new());
    let mut poll = lim.poller();
    let mut t = Threats::new(&mut poll, if vct { VCT_BUDGET } else { VCF_BUDGET });
    let p = if vct {
        t.vct_root(b, c, VCT_DEPTH)
    } else {
        t.vcf_root(b, c, 120)
    };
    let nodes = t.nodes;
    (
        p.map(|p| {
            let (col, row) = b.col_row(p);
            (col, 14 - row)
        }),
        nodes,
    )
}

fn extract(files: &[String]) {
    for f in files {
        let text = std::fs::read_to_string(f).expect("readable SGF");
        let (Some(w), moves) = (winner(&text), sgf_moves(&text)) else {
            continue;
        };
        let name = f
            .trim_end_matches(".sgf")
            .rsplit('/')
            .take(3)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .filter(|s| *s != "records")
            .collect::<Vec<_>>()
            .join("-");
        let first = if w == Color::Black { 0 } else { 1 };
        let mut vcf_at = None;
        for n in (first..moves.len()).step_by(2) {
            let mut g = replay(&moves, n);
            if five_move(g.board(), w.opponent()).is_some() || five_move(g.board(), w).is_some() {
                continue;
            }
            if let (Some(p), _) = prove(g.board_mut(), w, false) {
                vcf_at = Some((n, p));
                break;
            }
        }
        let Some((v, p)) = vcf_at else { continue };
        let moves_text = |n: usize| {
            moves[..n]
                .iter()
                .map(|&m| sgf_pair(m))
                .collect::<Vec<_>>()
                .join(",")
        };
        println!("{name}-p{v} vcf {} {}", moves_text(v), sgf_pair(p));
        let mut vct_at = None;
        // The winner's earlier turns: v-2, v-4, ... down to 12 plies before.
        for n in (v.saturating_sub(12)..v).rev().skip(1).step_by(2) {
            let mut g = replay(&moves, n);
            if five_move(g.board(), w.opponent()).is_some() {
                continue;
            }
            if let (Some(p), _) = prove(g.board_mut(), w, true) {
                vct_at = Some((n, p));
            } else {
                break;
            }
        }
        if let Some((n, p)) = vct_at {
            println!("{name}-p{n} vct {} {}", moves_text(n), sgf_pair(p));
        }
    }
}

fn times(file: &str) {
    let text = std::fs::read_to_string(file).expect("readable file");
    let cpu0 = cpu_seconds();
    let t0 = Instant::now();
    let (mut proved, mut total) = (0, 0);
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let moves: Vec<(usize, usize)> = f[2]
            .split(',')
            .map(|m| {
                let b = m.as_bytes();
                ((b[0] - b'a') as usize, (b[1] - b'a') as usize)
            })
            .collect();
        let mut g = replay(&moves, moves.len());
        let c = g.to_move();
        let t = Instant::now();
        let (p, nodes) = prove(g.board_mut(), c, f[1] == "vct");
        total += 1;
        proved += p.is_some() as usize;
        println!(
            "{:<34} {} {:<5} {:<4} {:>9} nodes {:>8.1} ms",
            f[0],
            f[1],
            if c == Color::Black { "black" } else { "white" },
            p.map_or("-".to_string(), sgf_pair),
            nodes,
            t.elapsed().as_secs_f64() * 1000.0
        );
    }
    println!(
        "proved {proved}/{total} in {:.2} s wall, {:.2} s CPU",
        t0.elapsed().as_secs_f64(),
        cpu_seconds() - cpu0
    );
}

/// This process's CPU seconds (user + system), from /proc/self/stat; 0 elsewhere.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    // Fields 14 and 15 of stat (utime, stime) are 11 and 12 after the name; 100 ticks/s.
    (ticks(11) + ticks(12)) / 100.0
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("extract") => extract(&args[2..]),
        Some("times") => times(args.get(2).expect("a position file")),
        _ => eprintln!("usage: gomoku_vcf_vct extract SGF... | times FILE"),
    }
}
