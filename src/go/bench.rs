//! `quartet bench go`: playouts per second on the empty board, one thread, or whole
//! simulations per second of the tree search on N threads.
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::board::Board;
use super::mcts::{Limits, Tree};
use super::playout::{self, PlayoutParams};
use super::settings::SearchParams;

pub struct PlayoutRate {
    pub playouts: u64,
    pub moves: u64,
    pub seconds: f64,
    /// CPU time this thread used: on a shared machine playouts per CPU-second is the figure
    /// that does not depend on what else runs.
    pub cpu_seconds: f64,
    /// Black wins with komi 7.5 (a sanity figure: light playouts favour white a little).
    pub black_wins: u64,
}

/// Runs light (uniformly random, eye-avoiding) or heavy playouts (with the default
/// policy settings) from the empty board for about `duration`.
pub fn playout_rate(size: usize, duration: Duration, heavy: bool, seed: u64) -> PlayoutRate {
    let empty = Board::new(size);
    let params = PlayoutParams::default();
    let mut rng = SmallRng::seed_from_u64(seed);
    let start = Instant::now();
    let cpu_start = thread_cpu_seconds();
    let (mut playouts, mut moves, mut black_wins) = (0u64, 0u64, 0u64);
    while playouts % 256 != 0 || start.elapsed() < duration {
        let mut b = empty.clone();
        let balance = playout::run(&mut b, heavy, &mut rng, None, None, 7.5, &params);
        moves += (b.stone_count(crate::color::Color::Black)
            + b.stone_count(crate::color::Color::White)) as u64;
        if balance as f32 > 7.5 {
            black_wins += 1;
        }
        playouts += 1;
    }
    PlayoutRate {
        playouts,
        moves,
        seconds: start.elapsed().as_secs_f64(),
        cpu_seconds: thread_cpu_seconds() - cpu_start,
        black_wins,
    }
}

pub struct SearchRate {
    pub simulations: u64,
    pub seconds: f64,
    /// CPU time of the whole process (every search thread).
    pub cpu_seconds: f64,
    pub nodes: usize,
}

/// Searches the empty board with `threads` threads sharing one tree for about `duration`:
/// the figure that says how well the threads scale.
pub fn search_rate(
    size: usize,
    duration: Duration,
    threads: usize,
    seed: u64,
    params: &SearchParams,
) -> SearchRate {
    let empty = Board::new(size);
    let mut tree = Tree::new(&empty, 7.5, &[], seed, params);
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let cpu_start = process_cpu_seconds();
    let limits = Limits {
        playouts: None,
        deadline: Some(start + duration),
        stop: &stop,
    };
    let simulations = tree.search(&limits, threads);
    SearchRate {
        simulations,
        seconds: start.elapsed().as_secs_f64(),
        cpu_seconds: process_cpu_seconds() - cpu_start,
        nodes: tree.node_count(),
    }
}

pub struct NetRate {
    pub evaluations: u64,
    pub seconds: f64,
    pub cpu_seconds: f64,
}

/// Evaluates positions of random light playouts from the empty board with `net` for about
/// `duration`, one thread (input planes, trunk and heads: what one tree evaluation costs).
pub fn net_rate(size: usize, duration: Duration, seed: u64, net: &super::net::Network) -> NetRate {
    let mut rng = SmallRng::seed_from_u64(seed);
    // Positions part way through games: stones, strings and liberties as in play.
    let mut positions = Vec::new();
    for k in 0..32 {
        let mut b = Board::new(size);
        let plies = (k * size * size) / 48;
        for _ in 0..plies {
            let c = b.to_move();
            let mv = playout::random_move(&b, c, &mut rng, 1.0);
            b.play(c, mv);
        }
        positions.push(b);
    }
    let mut scratch = super::net::Scratch::default();
    let mut out = super::net::Evaluation::default();
    let start = Instant::now();
    let cpu_start = thread_cpu_seconds();
    let mut evaluations = 0u64;
    while !evaluations.is_multiple_of(32) || start.elapsed() < duration {
        let b = &positions[evaluations as usize % positions.len()];
        net.evaluate(b, b.to_move(), &mut scratch, &mut out);
        evaluations += 1;
    }
    NetRate {
        evaluations,
        seconds: start.elapsed().as_secs_f64(),
        cpu_seconds: thread_cpu_seconds() - cpu_start,
    }
}

/// CPU seconds of the calling thread (0 where the clock is unavailable).
fn thread_cpu_seconds() -> f64 {
    crate::cpu_time::thread_seconds().unwrap_or(0.0)
}

/// CPU seconds of the whole process (0 where the clock is unavailable).
fn process_cpu_seconds() -> f64 {
    crate::cpu_time::process_seconds().unwrap_or(0.0)
}
