//! Replays a Gomoku SGF record (as `quartet match gomoku` writes them) and, for every move
//! of the side that lost, asks whether the winner had a forced win (VCF/VCT) after it and
//! what the full engine plays there with more time. A tool for finding why games are lost.
//!
//! usage: cargo run --release --example gomoku_replay -- FILE.sgf [seconds=1]
use std::time::Duration;

use quartet::gomoku::board::Rule;
use quartet::gomoku::game::Game;
use quartet::gomoku::search::{SearchConfig, Searcher};
use quartet::gomoku::threats::Threats;
use quartet::search::{Deadline, Limits, StopToken};

#[path = "shared/gomoku_record.rs"]
mod gomoku_record;

fn name(g: &Game, p: u16) -> String {
    let (c, r) = g.board().col_row(p);
    quartet::protocol::coords::format_vertex(Some((c, r)))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let secs: f64 = args.get(2).map_or(1.0, |s| s.parse().expect("seconds"));
    let size = gomoku_record::SIZE;
    let (moves, winner) = gomoku_record::read(&args[1]);
    let loser = winner.opponent();
    let mut g = Game::new(size, Rule::Freestyle);
    for (i, &(c, x, y)) in moves.iter().enumerate() {
        let p = g.board().point(x, y);
        if c == loser {
            // What would the engine play here, with the match time and with more?
            let mut s = Searcher::new(SearchConfig::default());
            let t = Duration::from_secs_f64(secs);
            let lim = Limits::new(Deadline::after(t, t), None, StopToken::new());
            let r = s.search(g.board_mut(), c, &lim);
            let mut s = Searcher::new(SearchConfig::default());
            let t = Duration::from_secs_f64(secs * 5.0);
            let lim = Limits::new(Deadline::after(t, t), None, StopToken::new());
            let r5 = s.search(g.board_mut(), c, &lim);
            if std::env::var("SAFE").is_ok() {
                // Which replies leave the winner without a VCF/VCT (2 s each)?
                let mut root = Vec::new();
                quartet::gomoku::eval::scan(g.board_mut(), c, &mut root);
                root.sort_by_key(|m| std::cmp::Reverse(m.score));
                let mut safe = Vec::new();
                for m in root.iter().take(30) {
                    g.board_mut().place(m.p, c);
                    let lim = Limits::new(
                        Deadline::after(Duration::from_secs(2), Duration::from_secs(2)),
                        None,
                        StopToken::new(),
                    );
                    let mut poll = lim.poller();
                    let mut t = Threats::new(&mut poll, 50_000_000);
                    let lost = t.vcf_root(g.board_mut(), winner, 120).is_some()
                        || t.vct_root(g.board_mut(), winner, 10).is_some();
                    g.board_mut().undo();
                    if !lost {
                        safe.push(name(&g, m.p));
                    }
                }
                println!("    safe replies among the top 30: {safe:?}");
            }
            g.play(c, p).expect("legal record");
            // Does the winner now have a VCF / VCT?
            let unl = Limits::new(
                Deadline::after(Duration::from_secs(5), Duration::from_secs(5)),
                None,
                StopToken::new(),
            );
            let mut poll = unl.poller();
            let mut t = Threats::new(&mut poll, 50_000_000);
            let vcf = t.vcf_root(g.board_mut(), winner, 120);
            let vct = if vcf.is_none() {
                t.vct_root(g.board_mut(), winner, 10)
            } else {
                None
            };
            println!(
                "{:>3} {} played {:<4} | 1x: {:<4} {:<11} d{:<2} sc {:>8} | 5x: {:<4} {:<11} d{:<2} sc {:>8} | winner vcf {:?} vct {:?}",
                i + 1,
                c.letter(),
                name(&g, p),
                name(&g, r.best),
                r.source,
                r.depth,
                r.score,
                name(&g, r5.best),
                r5.source,
                r5.depth,
                r5.score,
                vcf.map(|q| name(&g, q)),
                vct.map(|q| name(&g, q)),
            );
        } else {
            g.play(c, p).expect("legal record");
            println!("{:>3} {} played {}", i + 1, c.letter(), name(&g, p));
        }
    }
}
