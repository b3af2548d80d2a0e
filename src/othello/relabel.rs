//! Deeper labels for the midgame positions of a `selfplay` file.
//!
//! A self-play label before the solve point is the outcome that two depth-4 players
//! reached from the position: one noisy sample of its value, and the noise is largest
//! where the game is longest (40-50 empties). A fixed-depth search from the position
//! itself (with the current evaluation) is a lower-variance estimate of the same value;
//! `mix` blends the two, so a fit can be pulled towards the search without forgetting the
//! game's outcome. Positions at or below `min_empties` keep their label: it is exact there.
use super::evaluator::Evaluator;
use super::search::{Searcher, DISC};
use super::selfplay::{format_line, games, read_file, Labelled};
use crate::search::{Deadline, Limits, StopToken};
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// How positions are relabelled.
#[derive(Clone, Copy, Debug)]
pub struct Relabel {
    /// Positions with more empties than this get a search label.
    pub min_empties: u32,
    /// Depth of that search.
    pub depth: u32,
    /// Weight of the search score in the new label (1: the search alone, 0: unchanged).
    pub mix: f32,
}

/// The new label of `l` (unchanged at or below `min_empties` empties or without moves:
/// a pass position's search is its opponent's, and its outcome label is as good).
pub fn relabel(l: &Labelled, cfg: &Relabel, searcher: &mut Searcher) -> Labelled {
    let b = l.board;
    if b.empties().count_ones() <= cfg.min_empties || b.moves() == 0 {
        return *l;
    }
    let unlimited = Limits::new(Deadline::unlimited(), None, StopToken::new());
    let f = searcher.deepen(&b, &unlimited, cfg.depth);
    let search = f.score as f32 / DISC as f32;
    let label = (cfg.mix * search + (1.0 - cfg.mix) * l.label as f32)
        .round()
        .clamp(-64.0, 64.0) as i8;
    Labelled { board: b, label }
}

/// Writes `input` to `out` with its midgame labels from `relabel`, searched with `eval`
/// (one searcher, its table and history cleared at every game, so other games barely
/// matter: only the killer moves carry over); with `shard = (i, n)` only the i-th of n
/// contiguous runs of games, whose outputs concatenated in order give the whole file (seed
/// 31 at depth 6: two shards and one whole run byte-identical). Progress goes to stderr.
pub fn relabel_file(
    input: &Path,
    out: &Path,
    cfg: &Relabel,
    eval: Evaluator,
    shard: (usize, usize),
) -> Result<(), String> {
    let positions = read_file(input)?;
    let mut file = std::io::BufWriter::new(
        std::fs::File::create(out).map_err(|e| format!("{}: {e}", out.display()))?,
    );
    let n_games = games(&positions).count().max(1);
    let range = n_games * shard.0 / shard.1..n_games * (shard.0 + 1) / shard.1;
    let mut searcher = Searcher::new(eval, 16);
    let t = Instant::now();
    let (mut done, mut searched) = (0usize, 0usize);
    for (game, lines) in games(&positions).enumerate() {
        if game > 0 {
            searcher.clear();
            if game.is_multiple_of(100) {
                eprintln!(
                    "relabel: {game} games, {done} positions written, {searched} searched, {:.0} s",
                    t.elapsed().as_secs_f64()
                );
            }
        }
        if !range.contains(&game) {
            continue;
        }
        for l in lines {
            let r = relabel(l, cfg, &mut searcher);
            if l.board.empties().count_ones() > cfg.min_empties {
                searched += 1;
            }
            writeln!(file, "{}", format_line(&r)).map_err(|e| format!("{}: {e}", out.display()))?;
            done += 1;
        }
    }
    file.flush()
        .map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!(
        "relabel: games {range:?} of {n_games}, {done} positions written, {searched} searched, {:.0} s",
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::board::Board;
    use crate::othello::endgame::Solver;
    use crate::othello::eval::Weights;

    /// FFO #40 played down to `n` empties by the solver's own moves.
    fn endgame(n: u32) -> Board {
        let (mut b, _) = Board::from_obf(
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------",
            "X",
        )
        .unwrap();
        let mut solver = Solver::new(8);
        while b.empties().count_ones() > n {
            match solver.solve(&b).best {
                Some(m) => b = b.play(m).unwrap(),
                None => b = b.pass(),
            }
        }
        b
    }

    #[test]
    fn a_search_to_the_end_gives_the_exact_value() {
        // With depth >= empties the search label is the exact value, computed here
        // independently by the endgame solver; a wrong label in the file must not leak.
        let b = endgame(9);
        assert!(b.moves() != 0);
        let exact = Solver::new(8).solve(&b).score;
        let mut s = Searcher::new(Weights::default_weights(), 4);
        let wrong = Labelled {
            board: b,
            label: (exact + 20) as i8,
        };
        let cfg = Relabel {
            min_empties: 4,
            depth: 20,
            mix: 1.0,
        };
        assert_eq!(relabel(&wrong, &cfg, &mut s).label as i32, exact);
        // Half and half: the midpoint of the file's label and the exact value.
        let half = Relabel { mix: 0.5, ..cfg };
        assert_eq!(relabel(&wrong, &half, &mut s).label as i32, exact + 10);
    }

    #[test]
    fn labels_at_or_below_the_threshold_are_kept() {
        let b = endgame(9);
        let mut s = Searcher::new(Weights::default_weights(), 4);
        let l = Labelled {
            board: b,
            label: 33,
        };
        let cfg = Relabel {
            min_empties: 9,
            depth: 20,
            mix: 1.0,
        };
        assert_eq!(relabel(&l, &cfg, &mut s), l);
    }
}
