//! Replays a Gomoku SGF record (as `quartet match gomoku` writes them) and, at every move
//! of the side that lost, runs the full engine as in the match (one searcher kept for the
//! game, the given seconds per move), printing its choice and where its time went (the
//! search's debug log goes to stderr). A tool for finding why games are lost.
//!
//! usage: RUST_LOG=quartet=debug cargo run --release --example gomoku_trace -- FILE.sgf [seconds=1]
use std::time::Duration;

use quartet::color::Color;
use quartet::gomoku::board::Rule;
use quartet::gomoku::game::Game;
use quartet::gomoku::search::{SearchConfig, Searcher};
use quartet::search::{Deadline, Limits, StopToken};

fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .without_time()
        .init();
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("readable file");
    let secs: f64 = args.get(2).map_or(1.0, |s| s.parse().expect("seconds"));
    let size = 15;
    let mut moves = Vec::new();
    for part in text.split(';').skip(2) {
        let colour = if part.starts_with('B') {
            Color::Black
        } else {
            Color::White
        };
        let xy = &part[2..4];
        let x = (xy.as_bytes()[0] - b'a') as usize;
        let y = (xy.as_bytes()[1] - b'a') as usize;
        moves.push((colour, x, size - 1 - y));
    }
    let loser = if text.contains("RE[B") {
        Color::White
    } else {
        Color::Black
    };
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
