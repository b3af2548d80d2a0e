//! The brain's clock under the Gomocup limits: `INFO timeout_turn` (per move),
//! `INFO timeout_match` (per game) and `INFO time_left` (what the manager says is left of
//! the game). A move is timed from the arrival of its command, so time spent queued or
//! reading counts as the manager counts it.
use std::time::Duration;

/// Milliseconds kept back from each move for pipe and process latency.
pub const SAFETY_MS: u64 = 60;

#[derive(Clone, Debug, Default)]
pub struct Clock {
    pub timeout_turn: Option<u64>,
    /// 0 means no match limit (the protocol's convention).
    pub timeout_match: Option<u64>,
    pub time_left: Option<u64>,
    /// Our thinking time so far in this game, for a manager that sends `timeout_match` but
    /// no `time_left`.
    pub used_ms: u64,
}

impl Clock {
    /// A new game: the limits stay, the time used restarts.
    pub fn new_game(&mut self) {
        self.used_ms = 0;
        self.time_left = None;
    }

    /// What is left of the match time, if there is a match limit.
    fn left(&self) -> Option<u64> {
        self.time_left.or(self
            .timeout_match
            .filter(|&m| m > 0)
            .map(|m| m.saturating_sub(self.used_ms)))
    }

    /// This move's thinking time with `empties` empty points: the turn limit (or `default`
    /// without one) and at most a tenth of the match time left, less 5% and [`SAFETY_MS`].
    /// Never more than the turn limit or the time left (at least 1 ms when something is).
    pub fn budget(&self, empties: usize, default: Duration) -> Duration {
        let mut ms = match self.timeout_turn {
            // "As fast as possible".
            Some(0) => 10,
            Some(t) => t,
            None => default.as_millis().min(u64::MAX as u128) as u64,
        };
        if let Some(left) = self.left() {
            // Spread what is left over our remaining moves, as if half the empty points
            // will be ours, between 10 and 40 of them.
            let moves = (empties as u64 / 2).clamp(10, 40);
            ms = ms.min(left / moves);
        }
        let margin = ms / 20 + SAFETY_MS;
        Duration::from_millis(if ms > 2 * margin {
            ms - margin
        } else {
            // Too little time for the full margin: keep half of what there is.
            (ms / 2).max(1)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFAULT: Duration = Duration::from_secs(1);

    fn ms(d: Duration) -> u64 {
        d.as_millis() as u64
    }

    #[test]
    fn turn_limit_less_the_margins() {
        let mut c = Clock::default();
        assert_eq!(ms(c.budget(225, DEFAULT)), 1000 - 50 - 60);
        c.timeout_turn = Some(5000);
        assert_eq!(ms(c.budget(225, DEFAULT)), 5000 - 250 - 60);
        c.timeout_turn = Some(100);
        assert_eq!(ms(c.budget(225, DEFAULT)), 50);
        c.timeout_turn = Some(0);
        assert_eq!(ms(c.budget(225, DEFAULT)), 5);
    }

    #[test]
    fn never_more_than_a_tenth_of_the_time_left() {
        for left in [0u64, 1, 30, 99, 150, 1000, 7777, 100_000, 10_000_000] {
            for empties in [0usize, 1, 20, 100, 225, 484] {
                for turn in [None, Some(0), Some(5), Some(1000), Some(30_000)] {
                    let c = Clock {
                        timeout_turn: turn,
                        timeout_match: Some(180_000),
                        time_left: Some(left),
                        used_ms: 0,
                    };
                    let b = ms(c.budget(empties, DEFAULT));
                    assert!(b <= (left / 10).max(1), "{b} ms of {left}");
                    assert!(b <= turn.map_or(1000, |t| t.max(10)));
                    assert!(b >= 1);
                }
            }
        }
    }

    #[test]
    fn match_time_without_time_left_counts_our_own_use() {
        let mut c = Clock {
            timeout_turn: Some(30_000),
            timeout_match: Some(100_000),
            ..Clock::default()
        };
        // 225 empties: 40 moves to go.
        assert_eq!(ms(c.budget(225, DEFAULT)), 2500 - 125 - 60);
        c.used_ms = 60_000;
        assert_eq!(ms(c.budget(225, DEFAULT)), 1000 - 50 - 60);
        c.used_ms = 200_000;
        assert_eq!(ms(c.budget(225, DEFAULT)), 1);
        // 0 is "no match limit".
        c.timeout_match = Some(0);
        assert_eq!(ms(c.budget(225, DEFAULT)), 30_000 - 1500 - 60);
        c.new_game();
        assert_eq!(c.used_ms, 0);
    }
}
