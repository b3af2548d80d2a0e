//! The Go move clock: how much of the game's time one move plans to use, and, while its
//! search runs, whether to stop before the plan (the choice is settled) or to run past it
//! (the choice is still in doubt), never past the clock's hard limit.
//!
//! Saving time only helps when the clock banks it for later moves (sudden death, main
//! time, a Canadian period with moves still to play); with a fixed time per move the plan
//! is not managed and the search simply runs its time.
use std::time::Duration;

use super::board::Move;
use super::mcts::MoveStats;
use crate::color::Color;
use crate::search::time::TimeManager;

/// One move's time: `base` is planned, `max` may be reached by extensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MovePlan {
    pub base: Duration,
    pub max: Duration,
    /// Whether the search may stop early or extend (time saved is banked for later moves).
    pub managed: bool,
}

impl MovePlan {
    /// Exactly `t`, no early stop or extension.
    pub fn fixed(t: Duration) -> MovePlan {
        MovePlan {
            base: t,
            max: t,
            managed: false,
        }
    }
}

/// `color`'s next move's time under the clock `tm` on a board of `size` with `empty`
/// points empty. When the clock banks what a move saves, the plan is managed: its base is
/// the even share of the moves left, its maximum the clock's hard limit (at most three
/// shares, never more than half of what is left, the safety margin already taken off).
/// Otherwise the base is fixed.
pub fn plan(tm: &TimeManager, color: Color, size: usize, empty: usize) -> MovePlan {
    let left = moves_left(size, empty);
    let (base, max) = tm.budget(color, left);
    if !tm.banks_savings(color) {
        return MovePlan::fixed(base);
    }
    tracing::debug!(
        moves_left = left,
        base_ms = base.as_millis() as u64,
        max_ms = max.as_millis() as u64,
        "time plan"
    );
    MovePlan {
        base,
        max,
        managed: true,
    }
}

/// Our own moves still to play, from the board size and the empty points. Self-play
/// games end with about a fifth of the board empty (docs/experiments/go.md): an even
/// share over what is left of the rest spends the clock by the end of a long game. The
/// floor keeps a slice of time for the endgame of games that run longer than expected.
pub fn moves_left(size: usize, empty: usize) -> u32 {
    let area = size * size;
    let to_fill = empty.saturating_sub(area / 5);
    let floor = (area / 10).max(8);
    ((to_fill / 2).max(floor)) as u32
}

/// Fraction of the base plan after which a move holding most visits is taken.
const OBVIOUS_AFTER: f32 = 0.5;
/// Share of the root's visits that makes a move obvious.
const OBVIOUS_SHARE: f32 = 0.9;
/// Least fraction of the base plan before the simulation rate is trusted.
const RATE_AFTER: f32 = 0.125;
/// The runner-up is close when it has this share of the leader's visits.
const CLOSE_SHARE: f32 = 0.65;
/// A runner-up with at least this much better win rate (and enough visits) is a doubt.
const WINRATE_GAP: f32 = 0.05;
/// Each extension adds this fraction of the base plan.
const EXTEND_STEP: f32 = 0.5;

/// What the watch says after a look at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Keep searching, until `until` (from the move's start) at most.
    Continue {
        until: Duration,
    },
    Stop(StopReason),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// One move (or none) to choose from.
    OnlyMove,
    /// The leader's visit lead exceeds the simulations the time left can run.
    Decided,
    /// The leader holds most visits after half the plan.
    Obvious,
    /// The planned time (with its extensions) ran out.
    PlanDone,
}

/// Follows one managed search: call [`Watch::check`] between slices of search.
#[derive(Clone, Debug)]
pub struct Watch {
    plan: MovePlan,
    /// Current end of the search, base plus extensions, at most `plan.max`.
    target: Duration,
    leader: Option<Move>,
    /// When the current leader took the lead (from the move's start).
    leader_since: Duration,
    /// Visits at the root when the move started (a kept tree brings some).
    visits_at_start: u64,
}

impl Watch {
    pub fn new(plan: MovePlan, visits_at_start: u64) -> Watch {
        Watch {
            plan,
            target: plan.base.min(plan.max),
            leader: None,
            leader_since: Duration::ZERO,
            visits_at_start,
        }
    }

    /// The end currently planned (base plus extensions so far).
    pub fn target(&self) -> Duration {
        self.target
    }

    /// How long the next slice of search runs before the next look: short enough to stop
    /// soon after the choice settles, long enough that a look costs nothing.
    pub fn slice(&self) -> Duration {
        (self.plan.base / 16).clamp(Duration::from_millis(10), Duration::from_millis(100))
    }

    /// Looks at the root after `elapsed` of the move. `stats` are the root moves, most
    /// visited first; `candidates` is how many moves the root may choose from;
    /// `root_visits` counts every simulation through the root, a kept tree's included.
    pub fn check(
        &mut self,
        elapsed: Duration,
        stats: &[MoveStats],
        candidates: usize,
        root_visits: u64,
    ) -> Verdict {
        if candidates <= 1 {
            return Verdict::Stop(StopReason::OnlyMove);
        }
        let (Some(top), second) = (stats.first(), stats.get(1)) else {
            return self.go_on(elapsed);
        };
        if self.leader != Some(top.mv) {
            // The first leader seen counts as leading from the start.
            if self.leader.is_some() {
                self.leader_since = elapsed;
            }
            self.leader = Some(top.mv);
        }
        let base = self.plan.base.as_secs_f32();
        let t = elapsed.as_secs_f32();
        let doubt = self.in_doubt(elapsed, top, second);
        if elapsed < self.target && t >= base * RATE_AFTER && t > 0.0 {
            // A move in doubt may still get every extension: count the time up to the
            // maximum, else up to the current end.
            let horizon = if doubt { self.plan.max } else { self.target };
            let run = root_visits.saturating_sub(self.visits_at_start);
            let possible = run as f32 / t * horizon.saturating_sub(elapsed).as_secs_f32();
            let lead = top.visits.saturating_sub(second.map_or(0, |s| s.visits));
            if lead as f32 > possible {
                return Verdict::Stop(StopReason::Decided);
            }
        }
        if t >= base * OBVIOUS_AFTER && top.visits as f32 > OBVIOUS_SHARE * root_visits as f32 {
            return Verdict::Stop(StopReason::Obvious);
        }
        if elapsed < self.target {
            return self.go_on(elapsed);
        }
        if self.target < self.plan.max && doubt {
            let step = self.plan.base.mul_f32(EXTEND_STEP).max(self.slice());
            self.target = (self.target + step).min(self.plan.max);
            return self.go_on(elapsed);
        }
        Verdict::Stop(StopReason::PlanDone)
    }

    /// Whether the leader might still change: it took the lead in the last quarter of the
    /// search, the runner-up is close in visits, or the runner-up wins clearly more often.
    fn in_doubt(&self, elapsed: Duration, top: &MoveStats, second: Option<&MoveStats>) -> bool {
        let recent = self.leader_since * 4 > elapsed * 3;
        let Some(second) = second else {
            return recent;
        };
        let close = second.visits as f32 >= CLOSE_SHARE * top.visits as f32;
        let better =
            second.visits * 8 >= top.visits && second.winrate() > top.winrate() + WINRATE_GAP;
        recent || close || better
    }

    fn go_on(&self, elapsed: Duration) -> Verdict {
        Verdict::Continue {
            until: (elapsed + self.slice()).min(self.target),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(m: u64) -> Duration {
        Duration::from_millis(m)
    }

    fn stat(p: usize, visits: u32, winrate: f32) -> MoveStats {
        MoveStats {
            mv: Move::Play(p),
            visits,
            wins: winrate * visits as f32,
            margin_sum: 0.0,
            prior: 0.5,
        }
    }

    fn managed(base: u64, max: u64) -> MovePlan {
        MovePlan {
            base: ms(base),
            max: ms(max),
            managed: true,
        }
    }

    #[test]
    fn plans_never_exceed_the_clock_less_its_margin() {
        use crate::search::time::{gtp_control, TimeControl, TimeSettings};
        let secs = Duration::from_secs;
        let controls = [
            TimeControl::Absolute { main: secs(60) },
            gtp_control(secs(300), secs(20), 5),
            gtp_control(Duration::ZERO, secs(10), 1),
            TimeControl::Byoyomi {
                main: secs(30),
                period: secs(5),
                periods: 3,
            },
        ];
        for control in controls {
            let mut tm = TimeManager::new(TimeSettings::with_move_time(secs(1)));
            tm.set_control(control);
            for left_ms in [0u64, 40, 100, 150, 900, 3_000, 60_000, 3_600_000] {
                for stones in [0u32, 1, 3] {
                    tm.set_time_left(Color::White, ms(left_ms), stones);
                    for (size, empty) in [(9, 81), (9, 30), (9, 2), (13, 100), (19, 361)] {
                        let p = plan(&tm, Color::White, size, empty);
                        assert!(p.base <= p.max, "{control:?} {left_ms} {stones}: {p:?}");
                        // In main time a move may cross into overtime by what one
                        // overtime move may use; in overtime only the period counts.
                        let left = ms(left_ms);
                        let available = match control {
                            TimeControl::Absolute { .. } => tm.margin(left),
                            TimeControl::Canadian {
                                period, stones: s, ..
                            } if stones == 0 => tm.margin(left) + tm.margin(period / s),
                            TimeControl::Byoyomi { period, .. } if stones == 0 => {
                                tm.margin(left) + tm.margin(period)
                            }
                            _ => tm.margin(left / stones.max(1)).max(tm.margin(left)),
                        };
                        assert!(
                            p.max <= available,
                            "{control:?} {left_ms} ms {stones} stones {size}/{empty}: {p:?}"
                        );
                        if !p.managed {
                            assert_eq!(p.base, p.max);
                        }
                    }
                }
            }
        }
        // A clock that banks nothing (one stone per period, no clock) is never managed.
        let mut tm = TimeManager::new(TimeSettings::with_move_time(secs(1)));
        assert!(!plan(&tm, Color::Black, 9, 81).managed);
        tm.set_control(gtp_control(Duration::ZERO, secs(10), 1));
        tm.set_time_left(Color::Black, secs(10), 1);
        assert!(!plan(&tm, Color::Black, 9, 81).managed);
        tm.set_control(TimeControl::Absolute { main: secs(60) });
        let p = plan(&tm, Color::Black, 9, 81);
        assert!(p.managed);
        // 60 s less 2.5% and 20 ms over 32 moves, three shares at most.
        assert_eq!(p.base, (ms(58_500) - ms(20)) / 32);
        assert_eq!(p.max, p.base * 3);
    }

    #[test]
    fn moves_left_follows_the_board() {
        // 9x9: 32 of our moves on the empty board, the floor of 8 near the end.
        assert_eq!(moves_left(9, 81), 32);
        assert_eq!(moves_left(9, 40), 12);
        assert_eq!(moves_left(9, 5), 8);
        // 19x19 spreads the clock over a longer game.
        assert_eq!(moves_left(19, 361), 144);
        assert_eq!(moves_left(19, 60), 36);
        assert!(moves_left(13, 169) > moves_left(9, 81));
    }

    #[test]
    fn a_single_candidate_stops_at_once() {
        let mut w = Watch::new(managed(1000, 3000), 0);
        assert_eq!(
            w.check(ms(1), &[stat(3, 5, 0.5)], 1, 5),
            Verdict::Stop(StopReason::OnlyMove)
        );
    }

    #[test]
    fn a_lead_the_time_left_cannot_close_stops() {
        // 800 ms in, 1000 simulations: 1.25 per ms, 250 more by the planned end; a lead
        // of 300 is final (and 60% of the visits is not obvious).
        let mut w = Watch::new(managed(1000, 3000), 0);
        let stats = [stat(1, 600, 0.6), stat(2, 300, 0.58)];
        assert_eq!(
            w.check(ms(800), &stats, 5, 1000),
            Verdict::Stop(StopReason::Decided)
        );
        // A lead of 200 can still be caught.
        let mut w = Watch::new(managed(1000, 3000), 0);
        let stats = [stat(1, 550, 0.6), stat(2, 350, 0.58)];
        assert!(matches!(
            w.check(ms(800), &stats, 5, 1000),
            Verdict::Continue { .. }
        ));
        // Visits a kept tree brought do not count in the rate: 500 of the 1000 ran in
        // this search, 125 more possible, so a lead of 200 is final.
        let mut w = Watch::new(managed(1000, 3000), 500);
        assert_eq!(
            w.check(ms(800), &stats, 5, 1000),
            Verdict::Stop(StopReason::Decided)
        );
        // Too early to trust the rate.
        let mut w = Watch::new(managed(1000, 3000), 0);
        assert!(matches!(
            w.check(ms(50), &[stat(1, 100, 0.6), stat(2, 0, 0.5)], 5, 100),
            Verdict::Continue { .. }
        ));
    }

    #[test]
    fn a_lead_in_doubt_counts_the_time_to_the_maximum() {
        // The runner-up wins 8% more often: the leader might lose its place in the
        // extensions, so 250 simulations to the planned end do not settle a lead of 300.
        let mut w = Watch::new(managed(1000, 3000), 0);
        let stats = [stat(1, 600, 0.5), stat(2, 300, 0.58)];
        assert!(matches!(
            w.check(ms(800), &stats, 5, 1000),
            Verdict::Continue { .. }
        ));
    }

    #[test]
    fn an_obvious_move_stops_after_half_the_plan() {
        let mut w = Watch::new(managed(1000, 3000), 0);
        // Before half the plan, 92% of the visits is not enough.
        assert!(matches!(
            w.check(ms(400), &[stat(1, 1480, 0.6), stat(2, 80, 0.5)], 5, 1600),
            Verdict::Continue { .. }
        ));
        // At half: 2000 more simulations could still close a lead of 1750, but 92% of
        // the visits is obvious.
        assert_eq!(
            w.check(ms(500), &[stat(1, 1850, 0.6), stat(2, 100, 0.5)], 5, 2000),
            Verdict::Stop(StopReason::Obvious)
        );
    }

    #[test]
    fn doubt_extends_up_to_the_maximum_and_no_further() {
        // Two moves neck and neck: the plan grows by half the base each time.
        let mut w = Watch::new(managed(1000, 2200), 0);
        let stats = [stat(1, 500, 0.55), stat(2, 480, 0.56)];
        assert!(matches!(
            w.check(ms(1000), &stats, 5, 1000),
            Verdict::Continue { .. }
        ));
        assert_eq!(w.target(), ms(1500));
        assert!(matches!(
            w.check(ms(1500), &stats, 5, 1000),
            Verdict::Continue { .. }
        ));
        assert_eq!(w.target(), ms(2000));
        w.check(ms(2000), &stats, 5, 1000);
        assert_eq!(w.target(), ms(2200));
        assert_eq!(
            w.check(ms(2200), &stats, 5, 1000),
            Verdict::Stop(StopReason::PlanDone)
        );
        // A slice never runs past the target.
        let mut w = Watch::new(managed(1000, 1000), 0);
        let even = [stat(1, 490, 0.55), stat(2, 490, 0.56)];
        if let Verdict::Continue { until } = w.check(ms(995), &even, 5, 1000) {
            assert_eq!(until, ms(1000));
        } else {
            panic!("stopped before the plan");
        }
    }

    #[test]
    fn a_stable_leader_stops_at_the_plan() {
        let mut w = Watch::new(managed(1000, 3000), 0);
        let stats = [stat(1, 700, 0.6), stat(2, 200, 0.55)];
        w.check(ms(100), &stats, 5, 1000);
        assert_eq!(
            w.check(ms(1000), &stats, 5, 1000),
            Verdict::Stop(StopReason::PlanDone)
        );
    }

    #[test]
    fn a_new_leader_or_a_better_runner_up_extends() {
        let mut w = Watch::new(managed(1000, 3000), 0);
        let first = [stat(1, 700, 0.6), stat(2, 200, 0.55)];
        let flipped = [stat(2, 700, 0.6), stat(1, 650, 0.55)];
        w.check(ms(100), &first, 5, 1000);
        assert!(matches!(
            w.check(ms(900), &flipped, 5, 1400),
            Verdict::Continue { .. }
        ));
        // Visits apart, but the runner-up wins 10% more often.
        let mut w = Watch::new(managed(1000, 3000), 0);
        let worse = [stat(1, 700, 0.50), stat(2, 200, 0.60)];
        w.check(ms(100), &worse, 5, 1000);
        w.check(ms(1000), &worse, 5, 1000);
        assert_eq!(w.target(), ms(1500));
    }
}
