//! Match statistics: wins per engine and per colour, score with a Wilson 95% interval, and
//! the reasons for losses (so "zero time losses, zero illegal moves" can be read off).
use super::referee::{EndReason, Outcome};
use crate::color::Color;
use std::fmt::Write;

/// The normal quantile for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wilson score interval for `successes` out of `n` trials at normal quantile `z`.
/// Chosen over the plain normal approximation because it stays inside [0, 1] and is sane
/// for 0% or 100% scores, which short matches often produce. `n == 0` gives [0, 1].
pub fn wilson_interval(successes: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = successes / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// Counts for one engine.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineTally {
    pub name: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub black_games: u32,
    pub black_wins: u32,
    pub white_games: u32,
    pub white_wins: u32,
    pub losses_on_time: u32,
    pub losses_illegal: u32,
    pub losses_malformed: u32,
    pub losses_failure: u32,
}

impl EngineTally {
    /// Wins plus half the draws.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Points per game (0 when no game was played).
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.points() / self.games as f64
        }
    }

    /// 95% Wilson interval of the score; draws count as half a success.
    pub fn interval(&self) -> (f64, f64) {
        wilson_interval(self.points(), self.games as f64, Z95)
    }
}

/// Statistics of a match between engines identified by index.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchStats {
    pub engines: Vec<EngineTally>,
}

impl MatchStats {
    pub fn new(names: &[String]) -> MatchStats {
        MatchStats {
            engines: names
                .iter()
                .map(|n| EngineTally {
                    name: n.clone(),
                    ..EngineTally::default()
                })
                .collect(),
        }
    }

    /// Adds one game where engine `black` had Black and engine `white` had White.
    pub fn record(&mut self, black: usize, white: usize, outcome: &Outcome) {
        for (idx, color) in [(black, Color::Black), (white, Color::White)] {
            let t = &mut self.engines[idx];
            t.games += 1;
            let won = outcome.winner == Some(color);
            match color {
                Color::Black => {
                    t.black_games += 1;
                    t.black_wins += won as u32;
                }
                Color::White => {
                    t.white_games += 1;
                    t.white_wins += won as u32;
                }
            }
            match outcome.winner {
                None => t.draws += 1,
                Some(c) if c == color => t.wins += 1,
                Some(_) => {
                    t.losses += 1;
                    match outcome.reason {
                        EndReason::Time => t.losses_on_time += 1,
                        EndReason::Illegal(_) => t.losses_illegal += 1,
                        EndReason::Malformed(_) => t.losses_malformed += 1,
                        EndReason::EngineFailure(_) => t.losses_failure += 1,
                        EndReason::Resignation
                        | EndReason::Adjudicated
                        | EndReason::Score { .. } => {}
                    }
                }
            }
        }
    }

    /// The results table, one row per engine.
    pub fn table(&self) -> String {
        let width = self
            .engines
            .iter()
            .map(|e| e.name.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:<width$}  games  wins draws losses  as black  as white   score  95% interval    \
             lost on time/illegal/malformed/failure",
            "engine"
        );
        for e in &self.engines {
            let (lo, hi) = e.interval();
            let _ = writeln!(
                s,
                "{:<width$}  {:>5} {:>5} {:>5} {:>6}  {:>8}  {:>8}  {:>5.1}%  [{:>5.1}%, {:>5.1}%]  {}/{}/{}/{}",
                e.name,
                e.games,
                e.wins,
                e.draws,
                e.losses,
                format!("{}/{}", e.black_wins, e.black_games),
                format!("{}/{}", e.white_wins, e.white_games),
                100.0 * e.score(),
                100.0 * lo,
                100.0 * hi,
                e.losses_on_time,
                e.losses_illegal,
                e.losses_malformed,
                e.losses_failure,
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 5e-5 && (a.1 - b.1).abs() < 5e-5
    }

    /// Values worked out by hand from the formula with z = 1.96 (checked with a calculator):
    /// 5/10: centre 0.5, half-width 1.96/1.38415 * sqrt(0.025 + 0.0096040) = 0.26341.
    /// 0/10: centre = half-width = 0.19208/1.38415 = 0.13877, so [0, 0.27753].
    /// 10/10 mirrors 0/10; 30/40: [0.59806, 0.85813].
    #[test]
    fn wilson_against_hand_values() {
        assert!(close(wilson_interval(5.0, 10.0, Z95), (0.23659, 0.76341)));
        assert!(close(wilson_interval(0.0, 10.0, Z95), (0.0, 0.27753)));
        assert!(close(wilson_interval(10.0, 10.0, Z95), (0.72247, 1.0)));
        assert!(close(wilson_interval(30.0, 40.0, Z95), (0.59806, 0.85813)));
        assert_eq!(wilson_interval(0.0, 0.0, Z95), (0.0, 1.0));
    }

    #[test]
    fn tallies_by_colour_and_reason() {
        let mut st = MatchStats::new(&["a".to_string(), "b".to_string()]);
        let o = |winner, reason| Outcome {
            winner,
            reason,
            moves: 10,
        };
        st.record(0, 1, &o(Some(Color::Black), EndReason::Resignation));
        st.record(1, 0, &o(Some(Color::Black), EndReason::Time));
        let draw = EndReason::Score {
            margin: 0.0,
            agreed: true,
        };
        st.record(0, 1, &o(None, draw));
        st.record(
            1,
            0,
            &o(Some(Color::Black), EndReason::Illegal("A1".into())),
        );
        let a = &st.engines[0];
        assert_eq!((a.games, a.wins, a.draws, a.losses), (4, 1, 1, 2));
        assert_eq!((a.black_wins, a.black_games, a.white_wins), (1, 2, 0));
        assert_eq!((a.losses_on_time, a.losses_illegal), (1, 1));
        assert_eq!(a.score(), 1.5 / 4.0);
        let b = &st.engines[1];
        assert_eq!((b.wins, b.draws, b.losses, b.black_wins), (2, 1, 1, 2));
        let table = st.table();
        // 1.5 points of 4: Wilson [0.0919, 0.7806] by hand.
        let row = "a           4     1     1      2       1/2       0/2   37.5%  [  9.2%,  78.1%]  1/1/0/0";
        assert!(table.contains(row), "{table}");
    }
}
