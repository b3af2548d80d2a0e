//! Proof rate and time of the two VCT searches, old (iterative deepening, `Threats::vct_root`)
//! and df-pn (`Dfpn::prove`), on the VCF/VCT set and on the puzzles (attacker to move,
//! freestyle wins under freestyle, renju wins under renju), with the same node budget.
//!
//! usage: cargo run --release --example gomoku_dfpn -- [budget=4000000] [moves=8] [mb=64]
use std::time::Instant;

use quartet::color::Color;
use quartet::gomoku::board::{Board, Rule};
use quartet::gomoku::dfpn::{Dfpn, Proof};
use quartet::gomoku::game::Game;
use quartet::gomoku::puzzles::parse;
use quartet::gomoku::threats::Threats;
use quartet::search::{Deadline, Limits, StopToken};

const SET: &str = include_str!("../tests/data/gomoku_vcf_vct.txt");
const PUZZLES: &str = include_str!("../tests/data/gomoku_puzzles.txt");

/// Node budget, attacker moves and df-pn table MiB of every search.
#[derive(Clone, Copy)]
struct Setup {
    budget: u64,
    moves: u32,
    mb: usize,
}

struct Tally {
    proved: [u32; 2],
    nodes: [u64; 2],
    cpu: [f64; 2],
    total: u32,
}

fn run(
    name: &str,
    b: &mut Board,
    c: Color,
    setup: Setup,
    answers: &[(usize, usize)],
    tally: &mut Tally,
) {
    let Setup { budget, moves, mb } = setup;
    let lim = Limits::new(Deadline::unlimited(), None, StopToken::new());
    let mut out = Vec::new();
    for which in 0..2 {
        let mut poll = lim.poller();
        let mut t = Threats::new(&mut poll, budget);
        let cpu0 = cpu_seconds();
        let t0 = Instant::now();
        let p = if which == 0 {
            let blocked = quartet::gomoku::threats::five_move(b, c.opponent()).is_some();
            (if blocked { None } else { t.vcf_root(b, c, 120) }).or_else(|| {
                if t.aborted {
                    None
                } else {
                    t.vct_root(b, c, moves)
                }
            })
        } else {
            let mut d = Dfpn::new(mb);
            d.max_moves = moves;
            let r = match d.prove(&mut t, b, c) {
                Proof::Won(p) => Some(p),
                _ => None,
            };
            if std::env::var("STATS").is_ok() {
                eprintln!(
                    "  expansions {} expand-nodes {} of {}",
                    d.expansions, d.expand_nodes, t.nodes
                );
            }
            r
        };
        let ms = t0.elapsed().as_secs_f64() * 1000.0;
        tally.cpu[which] += cpu_seconds() - cpu0;
        tally.nodes[which] += t.nodes;
        tally.proved[which] += p.is_some() as u32;
        let txt = p.map_or("-".to_string(), |p| {
            let (col, row) = b.col_row(p);
            let ok = answers.is_empty() || answers.contains(&(col, row));
            format!(
                "{}{}{}",
                (b'A' + col as u8) as char,
                row + 1,
                if ok { "" } else { "?" }
            )
        });
        let mut check = String::new();
        if let (Some(p), true) = (p, std::env::var("CHECK").is_ok()) {
            // The other search's verdict on this first move.
            let mut poll = lim.poller();
            let mut t2 = Threats::new(&mut poll, 20_000_000);
            let ok = if which == 1 {
                t2.try_threat(b, c, p, moves) || {
                    b.place(p, c);
                    let five = quartet::gomoku::threats::five_move(b, c).is_some();
                    b.undo();
                    five
                }
            } else {
                b.place(p, c);
                let mut d = Dfpn::new(16);
                d.max_moves = moves;
                let won = d.defend(&mut t2, b, c.opponent(), &[], 1).safe.is_empty();
                b.undo();
                won
            };
            check = format!(" [{}]", if ok { "ok" } else { "OTHER SAYS NO" });
        }
        out.push(format!("{txt:>5} {:>9} {:>8.1}ms{check}", t.nodes, ms));
    }
    tally.total += 1;
    println!("{name:<40} old {} | dfpn {}", out[0], out[1]);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let budget: u64 = args
        .get(1)
        .map_or(4_000_000, |s| s.parse().expect("budget"));
    let moves: u32 = args.get(2).map_or(8, |s| s.parse().expect("moves"));
    let mb: usize = args.get(3).map_or(64, |s| s.parse().expect("mb"));
    let setup = Setup { budget, moves, mb };
    let mut tally = Tally {
        proved: [0; 2],
        nodes: [0; 2],
        cpu: [0.0; 2],
        total: 0,
    };
    for line in SET
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let mut g = Game::new(15, Rule::Freestyle);
        let mut c = Color::Black;
        for m in f[2].split(',') {
            let b = m.as_bytes();
            let (x, y) = ((b[0] - b'a') as usize, (b[1] - b'a') as usize);
            let p = g.board().point(x, 14 - y);
            g.play(c, p).expect("legal");
            c = c.opponent();
        }
        let b = f[3].as_bytes();
        let first = ((b[0] - b'a') as usize, 14 - (b[1] - b'a') as usize);
        let c = g.to_move();
        g.board_mut().pause_patterns();
        run(
            &format!("{} {}", f[0], f[1]),
            g.board_mut(),
            c,
            setup,
            &[first],
            &mut tally,
        );
    }
    let set = (tally.proved, tally.total);
    println!(
        "set: old {}/{} dfpn {}/{}",
        set.0[0], set.1, set.0[1], set.1
    );
    for p in parse(PUZZLES).expect("puzzles") {
        for (rule, answers) in [(Rule::Freestyle, &p.freestyle), (Rule::Renju, &p.renju)] {
            if answers.is_empty() {
                continue;
            }
            let mut g = p.game(rule);
            let c = g.to_move();
            g.board_mut().pause_patterns();
            run(
                &format!("{} {}", p.name, rule.name()),
                g.board_mut(),
                c,
                setup,
                answers,
                &mut tally,
            );
        }
    }
    println!(
        "all: old {}/{} nodes {} cpu {:.2}s | dfpn {}/{} nodes {} cpu {:.2}s",
        tally.proved[0],
        tally.total,
        tally.nodes[0],
        tally.cpu[0],
        tally.proved[1],
        tally.total,
        tally.nodes[1],
        tally.cpu[1]
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
    (ticks(11) + ticks(12)) / 100.0
}
