//! Replays a Gomoku SGF record (as `quartet match gomoku` writes them) and, at every move
//! of the side that lost, runs the full engine as in the match (one searcher kept for the
//! game, the given seconds per move), printing its choice and where its time went (the
//! search's debug log goes to stderr). A tool for finding why games are lost.
//!
//! usage: RUST_LOG=quartet=debug cargo run --release --example gomoku_trace -- FILE.sgf [seconds=1]
use std::time::Duration;

use quartet::gomoku::board::Rule;
use quartet::gomoku::game::Game;
use quartet::gomoku::search::{SearchConfig, Searcher};
use quartet::search::{Deadline, Limits, StopToken};

#[path = "shared/gomoku_record.rs"]
mod gomoku_record;

fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .without_time()
        .init();
    let args: Vec<String> = std::env::args().collect();
    let secs: f64 = args.get(2).map_or(1.0, |s| s.parse().expect("seconds"));
    let size = gomoku_record::SIZE;
    let (moves, winner) = gomoku_record::read(&args[1]);
    let loser = winner.opponent();
    let name = |g: &Game, p: u16| {
        let (c, r) = g.board().col_row(p);
        quartet::protocol::coords::format_vertex(Some((c, r)))
    };
    let mut g = Game::new(size, Rule::Freestyle);
    let mut s = Searcher::new(SearchConfig::default());
    for (i, &(c, x, y)) in moves.iter().enumerate() {
        let p = g.board().point(x, y);
        if c == loser && i >= 4 {
            let t = Duration::from_secs_f64(secs);
            let lim = Limits::new(Deadline::after(t, t), None, StopToken::new());
            let r = s.search(g.board_mut(), c, &lim);
            eprintln!(
                "{:>3} {} played {:<4} engine {:<4} {:<12} d{:<2} sc {:>8} {} ms",
                i + 1,
                c.letter(),
                name(&g, p),
                name(&g, r.best),
                r.source,
                r.depth,
                r.score,
                r.elapsed.as_millis()
            );
        }
        g.play(c, p).expect("legal record");
    }
}
