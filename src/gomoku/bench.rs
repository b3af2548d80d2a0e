//! `quartet bench gomoku ...`: the puzzle suite and the node rate.
use std::time::{Duration, Instant};

use super::board::Rule;
use super::puzzles::{parse, Puzzle};
use super::search::{SearchConfig, Searcher};
use crate::search::{Deadline, Limits, StopToken};

/// One puzzle result.
pub struct PuzzleResult {
    pub name: String,
    pub rule: Rule,
    pub played: String,
    pub solved: bool,
    pub source: &'static str,
    pub elapsed: Duration,
    pub nodes: u64,
}

/// Solves every puzzle: the freestyle wins under freestyle, the renju ones under renju.
pub fn run_puzzles(
    text: &str,
    seconds: f64,
    config: &SearchConfig,
) -> Result<Vec<PuzzleResult>, String> {
    let puzzles = parse(text)?;
    let mut out = Vec::new();
    for p in &puzzles {
        if !p.freestyle.is_empty() {
            // A renju win of a Black attacker is also a freestyle win: freestyle only adds
            // moves for Black (overlines, doubles) and changes nothing for White.
            let mut answers = p.freestyle.clone();
            if p.attacker == crate::color::Color::Black {
                answers.extend(p.renju.iter().copied());
            }
            out.push(solve(p, Rule::Freestyle, &answers, seconds, config));
        }
        if !p.renju.is_empty() {
            out.push(solve(p, Rule::Renju, &p.renju, seconds, config));
        }
    }
    Ok(out)
}

fn solve(
    p: &Puzzle,
    rule: Rule,
    answers: &[(usize, usize)],
    seconds: f64,
    config: &SearchConfig,
) -> PuzzleResult {
    let mut g = p.game(rule);
    let mut s = Searcher::new(config.clone());
    let t = Duration::from_secs_f64(seconds);
    let limits = Limits::new(Deadline::after(t, t), None, StopToken::new());
    let start = Instant::now();
    let c = g.to_move();
    let r = s.search(g.board_mut(), c, &limits);
    let cr = g.board().col_row(r.best);
    PuzzleResult {
        name: p.name.clone(),
        rule,
        played: Puzzle::point_name(r.best, &g),
        solved: answers.contains(&cr),
        source: r.source,
        elapsed: start.elapsed(),
        nodes: r.nodes,
    }
}

/// Nodes per second of the plain alpha-beta (no threat search) from a fixed middle-game
/// position, for `seconds`; `patterns` as in [`SearchConfig::patterns`].
pub fn nps(seconds: f64, width: usize, patterns: bool) -> (u64, f64, u32) {
    let mut g = super::game::Game::new(15, Rule::Freestyle);
    // A quiet opening (no threats), so the search runs the whole time.
    for (c, r) in [(7, 7), (8, 8), (8, 6), (6, 8)] {
        let p = g.board().point(c, r);
        let col = g.to_move();
        g.play(col, p).expect("fixed opening is legal");
    }
    let config = SearchConfig {
        width,
        max_depth: 64,
        threats: false,
        patterns,
        tt_mb: 64,
        ..SearchConfig::default()
    };
    let mut s = Searcher::new(config);
    let t = Duration::from_secs_f64(seconds);
    let limits = Limits::new(Deadline::after(t, t), None, StopToken::new());
    let c = g.to_move();
    let r = s.search(g.board_mut(), c, &limits);
    (r.nodes, r.elapsed.as_secs_f64(), r.depth)
}
