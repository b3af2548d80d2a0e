//! `quartet bench othello signature`: fixed-depth midgame searches of seeded random
//! positions, with every result and a hash of them all.
//!
//! A change that only makes the search faster must leave every best move, score and node
//! count as it was; comparing the printed signature of two builds checks exactly that,
//! independently of the machine's load. The node rate is per CPU second of this thread.
use crate::othello::bitboard::square_name;
use crate::othello::board::Board;
use crate::othello::evaluator::Evaluator;
use crate::othello::search::Searcher;
use crate::search::{Deadline, Limits, StopToken};
use rand::{rngs::SmallRng, SeedableRng};

/// Positions with this many empties and down to `MIN_EMPTIES`: the midgame, where the
/// evaluation runs (the search hands over to the solver further on).
const MAX_EMPTIES: u32 = 44;
const MIN_EMPTIES: u32 = 24;

/// Position `i` of the suite: random legal moves from the start until it has the `i`-th
/// number of empties of a cycle from `MAX_EMPTIES` down to `MIN_EMPTIES`.
pub fn position(rng: &mut SmallRng, i: u32) -> Board {
    let target = MAX_EMPTIES - i % (MAX_EMPTIES - MIN_EMPTIES + 1);
    loop {
        let mut b = Board::start();
        while b.empties().count_ones() > target {
            match b.play_random(rng) {
                Some(next) => b = next,
                None => break,
            }
        }
        if b.empties().count_ones() == target && b.moves() != 0 {
            return b;
        }
    }
}

pub fn signature(
    depth: u32,
    positions: u32,
    seed: u64,
    hash_mb: usize,
    eval: Evaluator,
    isa: Option<u8>,
    probcut: Option<i32>,
) -> Result<(), String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let boards: Vec<Board> = (0..positions).map(|i| position(&mut rng, i)).collect();
    let mut s = Searcher::new(eval, hash_mb).with_probcut(probcut);
    if let Some(level) = isa {
        s.set_isa(level);
    }
    let (mut total, mut cpu, mut sig) = (0u64, 0f64, 0xcbf2_9ce4_8422_2325u64);
    for (i, b) in boards.iter().enumerate() {
        // Each search starts from the same state whatever ran before it.
        s.clear();
        let limits = Limits::new(Deadline::unlimited(), None, StopToken::new());
        let c0 = super::bench_othello::thread_cpu_seconds();
        let f = s.deepen(b, &limits, depth);
        if let (Some(c0), Some(c1)) = (c0, super::bench_othello::thread_cpu_seconds()) {
            cpu += c1 - c0;
        }
        total += f.nodes;
        for x in [f.best.map_or(64, |m| m as u64), f.score as u64, f.nodes] {
            sig = (sig ^ x).wrapping_mul(0x0000_0100_0000_01b3);
        }
        println!(
            "{i:3} {:016x} {:016x} empties {} best {} score {:+} nodes {}",
            b.p,
            b.o,
            b.empties().count_ones(),
            f.best.map(square_name).unwrap_or_else(|| "pass".into()),
            f.score,
            f.nodes
        );
    }
    println!(
        "depth {depth}, {positions} positions (seed {seed}, {}): {total} nodes, {cpu:.3} s cpu, {:.2} M nodes/s cpu, signature {sig:016x}",
        crate::othello::isa::name(s.isa()),
        total as f64 / cpu.max(1e-9) / 1e6
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_cycle_through_the_midgame_and_repeat_with_the_seed() {
        let mut a = SmallRng::seed_from_u64(3);
        let mut b = SmallRng::seed_from_u64(3);
        for i in 0..25 {
            let x = position(&mut a, i);
            assert_eq!(x, position(&mut b, i));
            let n = x.empties().count_ones();
            assert_eq!(n, MAX_EMPTIES - i % 21, "position {i}");
            assert!(x.moves() != 0);
        }
    }
}
