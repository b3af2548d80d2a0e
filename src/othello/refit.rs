//! Refitting the pattern tables from the learn loop's own games.
//!
//! Every position of a learnt game is labelled with the game's final disc difference from
//! its side to move (the WTHOR "theoretical score" idea with our own games: the players
//! search for seconds and solve the last ~20 empties, so late labels are exact and early
//! ones are the players' outcome). The fit starts from the tables the run began with and
//! its ridge pulls towards them (`pattern_fit::fit_from`): a few games only move the
//! weights they show, so a refit after ten games cannot wreck the evaluation, and the same
//! games always give the same tables (a resumed run refits to what it had).
use super::board::Board;
use super::ggf::GgfGame;
use super::learn::black_result;
use super::pattern::Patterns;
use super::pattern_fit::{fit_from, mean_abs_error, Example, FitConfig};
use crate::color::Color;
use std::time::Instant;

/// Every `HOLDOUT`-th learnt game (the first, the eleventh, ...) is measured, not fitted.
pub const HOLDOUT: usize = 10;

/// Positions of a finished game with a move to play, labelled with the final disc
/// difference for their side to move.
pub fn game_examples(g: &GgfGame) -> Vec<Example> {
    let black = black_result(g) as f32;
    let mut b: Board = g.start;
    let mut color = g.start_to_move;
    let mut out = Vec::with_capacity(g.moves.len());
    for m in &g.moves {
        match m.square.and_then(|s| b.play(s)) {
            Some(next) => {
                out.push(Example {
                    board: b,
                    label: if color == Color::Black { black } else { -black },
                });
                b = next;
            }
            None => b = b.pass(),
        }
        color = color.opponent();
    }
    out
}

/// How a refit went: the held-out error of the tables before and after, in discs.
#[derive(Clone, Copy, Debug)]
pub struct RefitReport {
    pub games: usize,
    pub train_positions: usize,
    pub held_out: usize,
    pub prior_error: f64,
    pub error: f64,
    pub seconds: f64,
}

/// Fits `prior` to `games` (but every `HOLDOUT`-th) and `base` (all trained on), with the
/// prior's stage width and outer term, `epochs` passes and `ridge` pseudo-positions that
/// hold every weight at the prior's value.
pub fn refit(
    prior: &Patterns,
    games: &[GgfGame],
    base: &[Example],
    epochs: u32,
    ridge: f32,
) -> (Patterns, RefitReport) {
    let t = Instant::now();
    let mut train = base.to_vec();
    let mut test = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let ex = game_examples(g);
        if i % HOLDOUT == 0 {
            test.extend(ex);
        } else {
            train.extend(ex);
        }
    }
    // The step and spread of scripts/othello_patterns.sh (the tables' own fit); fewer
    // epochs: the descent starts at the prior, not at zero.
    let cfg = FitConfig {
        width: prior.width,
        outer: prior.outer,
        epochs,
        rate: 0.5,
        ridge,
        spread: 6,
    };
    let p = fit_from(&train, &cfg, Some(prior), |_, _, _| {});
    let report = RefitReport {
        games: games.len(),
        train_positions: train.len(),
        held_out: test.len(),
        prior_error: mean_abs_error(&test, |b| prior.evaluate(b)),
        error: mean_abs_error(&test, |b| p.evaluate(b)),
        seconds: t.elapsed().as_secs_f64(),
    };
    (p, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::bitboard::parse_square;
    use crate::othello::ggf::GgfMove;
    use crate::othello::pattern_fit::fit;

    fn game(moves: &str) -> GgfGame {
        let mut g = GgfGame::new();
        for m in moves.split_whitespace() {
            let sq = parse_square(m).unwrap();
            g.play(GgfMove {
                color: g.to_move,
                square: Some(sq),
                eval: String::new(),
                time: String::new(),
            })
            .unwrap();
        }
        g
    }

    #[test]
    fn labels_are_the_final_result_from_each_side_to_move() {
        // The shortest game: black wins 13-0 after nine moves (a known line).
        let g = game("e6 f4 e3 f6 g5 d6 e7 f5 c5");
        assert!(g.board.is_game_over());
        assert_eq!(black_result(&g), 64);
        let ex = game_examples(&g);
        assert_eq!(ex.len(), 9);
        assert_eq!(ex[0].board, Board::start());
        for (i, e) in ex.iter().enumerate() {
            let want = if i % 2 == 0 { 64.0 } else { -64.0 };
            assert_eq!(e.label, want, "ply {i}");
        }
    }

    #[test]
    fn a_refit_moves_the_prior_towards_the_games_and_keeps_untouched_weights() {
        // A prior fitted to nothing is all zeros; games labelled +-64 must move the weights
        // their positions use (and lower the error on a held-out copy of the same game),
        // while a weight no position uses (an outer-term entry, the term being off) keeps
        // the prior's value.
        let mut prior = fit(
            &[],
            &FitConfig {
                width: 6,
                outer: false,
                epochs: 1,
                rate: 0.5,
                ridge: 5.0,
                spread: 6,
            },
            |_, _, _| {},
        );
        let last = prior.weights.len() - 1;
        prior.weights[last] = 77;
        let g = game("e6 f4 e3 f6 g5 d6 e7 f5 c5");
        let games = vec![g.clone(), g.clone(), g.clone()];
        let (p, r) = refit(&prior, &games, &[], 30, 5.0);
        assert_eq!((r.games, r.held_out, r.train_positions), (3, 9, 18));
        assert!(r.prior_error > 60.0, "{r:?}");
        assert!(r.error < r.prior_error / 2.0, "{r:?}");
        assert_eq!(p.weights[last], 77);
        assert_ne!(p.weights, prior.weights);
    }
}
