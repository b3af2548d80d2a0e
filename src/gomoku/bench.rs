//! `quartet bench gomoku ...`: the puzzle suite, the node rate and the depth the full
//! engine reaches in a given time.
use std::time::{Duration, Instant};

use super::board::Rule;
use super::puzzles::{parse, Puzzle};
use super::search::{SearchConfig, Searcher};
use super::weights::EvalWeights;
use crate::protocol::coords::{format_vertex, parse_vertex};
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
/// position, for `seconds` on `threads` threads (nodes of all of them); `patterns` as in
/// [`SearchConfig::patterns`].
pub fn nps(
    seconds: f64,
    width: usize,
    patterns: bool,
    threads: usize,
    eval: &EvalWeights,
) -> (u64, f64, u32) {
    let (eval, codes) = eval.clone().into_search();
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
        threads,
        eval,
        codes,
        ..SearchConfig::default()
    };
    let mut s = Searcher::new(config);
    let t = Duration::from_secs_f64(seconds);
    let limits = Limits::new(Deadline::after(t, t), None, StopToken::new());
    let c = g.to_move();
    let r = s.search(g.board_mut(), c, &limits);
    (r.nodes, r.elapsed.as_secs_f64(), r.depth)
}

/// Fixed positions for [`depth`]: the first five openings of
/// scripts/openings/gomoku15-balanced.txt, quiet positions a long search judges near even,
/// so the alpha-beta (not a threat search) decides the move.
pub const DEPTH_POSITIONS: [&str; 5] = [
    "H8 H7 F6 F7 J10",
    "H8 K6 K10 L5 L7",
    "H8 F6 K6 H7 E5",
    "H8 H10 H11 J11 J9",
    "H8 J7 L9 G9 G11",
];

/// What the full engine did from one position of [`depth`].
pub struct DepthResult {
    pub position: &'static str,
    pub best: String,
    /// Deepest completed alpha-beta iteration (0 when a threat search decided).
    pub depth: u32,
    pub nodes: u64,
    /// Nodes of the main thread (see [`super::search::SearchReport::main_nodes`]).
    pub main_nodes: u64,
    pub elapsed: Duration,
    pub source: &'static str,
}

/// The full engine (`config`, freestyle 15x15) searches each of [`DEPTH_POSITIONS`] for
/// `seconds` with a fresh table, or until it completes `config.max_depth`: the depth it
/// reaches, its nodes, its time and its move.
pub fn depth(seconds: f64, config: &SearchConfig) -> Vec<DepthResult> {
    DEPTH_POSITIONS
        .iter()
        .map(|&position| {
            let mut g = super::game::Game::new(15, Rule::Freestyle);
            for v in position.split_whitespace() {
                let (col, row) = parse_vertex(v, 15)
                    .ok()
                    .flatten()
                    .expect("fixed positions are on the board");
                let p = g.board().point(col, row);
                let c = g.to_move();
                g.play(c, p).expect("fixed positions are legal");
            }
            let mut s = Searcher::new(config.clone());
            let t = Duration::from_secs_f64(seconds);
            let limits = Limits::new(Deadline::after(t, t), None, StopToken::new());
            let c = g.to_move();
            let r = s.search(g.board_mut(), c, &limits);
            DepthResult {
                position,
                best: format_vertex(Some(g.board().col_row(r.best))),
                depth: r.depth,
                nodes: r.nodes,
                main_nodes: r.main_nodes,
                elapsed: r.elapsed,
                source: r.source,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_depth_positions_are_legal_and_searched() {
        let config = SearchConfig {
            tt_mb: 1,
            ..SearchConfig::default()
        };
        let results = depth(0.05, &config);
        assert_eq!(results.len(), DEPTH_POSITIONS.len());
        for r in &results {
            // Each position leaves the side to move a legal, empty point to play.
            let stones: Vec<&str> = r.position.split_whitespace().collect();
            assert!(
                !stones.contains(&r.best.as_str()),
                "{}: {}",
                r.position,
                r.best
            );
            assert!(r.nodes > 0);
        }
    }
}
