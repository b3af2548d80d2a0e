//! The search statistics of the tree's nodes, one vector per field (a structure of
//! arrays) indexed like the nodes. A node's children sit at adjacent indices, so `select`
//! reads their statistics straight into SIMD lanes: about a third of the tree's time went
//! into gathering them from whole nodes and scoring them one by one.
use std::ops::Range;

use super::UCB_C;

/// Children scored together. Division and square root are correctly rounded in every SIMD
/// lane, and each lane does the same operations in the same order as one child alone
/// would, so the scores keep their bits whether a child falls in the vector part or in
/// the rest.
const BATCH: usize = 16;

/// A new node's prior knowledge, as virtual wins and visits.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Prior {
    pub wins: f32,
    pub visits: f32,
}

#[derive(Default)]
pub(super) struct Stats {
    /// Simulations through the node, counted on the way down.
    pub visits: Vec<u32>,
    /// Wins for the player who made the node's move.
    pub wins: Vec<f32>,
    /// Simulations below the parent in which the node's player played the node's point
    /// first (all moves as first), and their wins.
    pub rave_visits: Vec<u32>,
    pub rave_wins: Vec<f32>,
    pub prior_visits: Vec<f32>,
    pub prior_wins: Vec<f32>,
    /// The point of the node's move, 0 (never on the board) for a pass or the root: what
    /// the RAVE update looks up in the simulation's first moves.
    pub point: Vec<u16>,
}

impl Stats {
    pub fn with_capacity(n: usize) -> Stats {
        Stats {
            visits: Vec::with_capacity(n),
            wins: Vec::with_capacity(n),
            rave_visits: Vec::with_capacity(n),
            rave_wins: Vec::with_capacity(n),
            prior_visits: Vec::with_capacity(n),
            prior_wins: Vec::with_capacity(n),
            point: Vec::with_capacity(n),
        }
    }

    /// Adds a node not visited yet, for a move at `point` (0 for a pass).
    pub fn push(&mut self, prior: Prior, point: u16) {
        self.point.push(point);
        self.visits.push(0);
        self.wins.push(0.0);
        self.rave_visits.push(0);
        self.rave_wins.push(0.0);
        self.prior_visits.push(prior.visits);
        self.prior_wins.push(prior.wins);
    }

    /// Adds a copy of node `i` of `from`.
    pub fn push_copy(&mut self, from: &Stats, i: usize) {
        self.visits.push(from.visits[i]);
        self.wins.push(from.wins[i]);
        self.rave_visits.push(from.rave_visits[i]);
        self.rave_wins.push(from.rave_wins[i]);
        self.prior_visits.push(from.prior_visits[i]);
        self.prior_wins.push(from.prior_wins[i]);
        self.point.push(from.point[i]);
    }

    /// Counts a simulation in the RAVE statistics of the nodes `kids`: those whose point
    /// `first` gives to `code` (the player to move at their parent, plus one) were played
    /// first by that player, and `won` says whether that player won. Without branches,
    /// which the hits would mispredict; adding 0.0 to a count of wins leaves its bits.
    pub fn record_rave(&mut self, kids: Range<usize>, first: &[u8], code: u8, won: bool) {
        let win = if won { 1.0 } else { 0.0 };
        let points = &self.point[kids.clone()];
        let visits = &mut self.rave_visits[kids.clone()];
        let wins = &mut self.rave_wins[kids];
        for ((&p, v), w) in points.iter().zip(visits).zip(wins) {
            let hit = first[p as usize] == code;
            *v += u32::from(hit);
            *w += if hit { win } else { 0.0 };
        }
    }

    /// The most urgent of the nodes `kids` (a parent's children) given the log of their
    /// parent's visits plus one: the first of equals, never one scored NaN (the first
    /// when all are).
    pub fn most_urgent(&self, kids: Range<usize>, log_parent: f32, rave_equiv: f32) -> usize {
        let mut best = kids.start;
        let mut best_u = f32::NEG_INFINITY;
        if self.visits.len() < BATCH {
            for i in kids {
                let u = self.lane(i).urgency(log_parent, rave_equiv);
                if u > best_u {
                    best_u = u;
                    best = i;
                }
            }
            return best;
        }
        let mut start = kids.start;
        while start < kids.end {
            // Always a whole batch, moved back when the vectors end sooner: the extra
            // lanes score other nodes, for nothing but the fixed length.
            let first = start.min(self.visits.len() - BATCH);
            let end = kids.end.min(first + BATCH);
            let mut scores = self.batch(first, log_parent, rave_equiv);
            scores[..start - first].fill(f32::NEG_INFINITY);
            scores[end - first..].fill(f32::NEG_INFINITY);
            // Lanes that are not children never win. The batch's best is the first
            // lane holding its greatest score, and it beats the earlier batches' only
            // when strictly greater: as if the children were compared one by one.
            let top = greatest(scores);
            if top > best_u {
                best_u = top;
                best = first + scores.iter().position(|&u| u == top).unwrap_or(0);
            }
            start = end;
        }
        best
    }

    /// The urgencies of nodes `first..first + BATCH`, in a loop of fixed length without
    /// branches, which the compiler vectorizes; minus infinity, which never wins, for
    /// NaN.
    fn batch(&self, first: usize, log_parent: f32, rave_equiv: f32) -> [f32; BATCH] {
        // Copied into arrays of its own: the compiler loads from those without proving
        // each lane's address valid, which it needs to compute both sides of `urgency`.
        fn lanes<T: Copy>(v: &[T], first: usize) -> [T; BATCH] {
            v[first..first + BATCH].try_into().expect("BATCH long")
        }
        let visits = lanes(&self.visits, first);
        let wins = lanes(&self.wins, first);
        let rave_visits = lanes(&self.rave_visits, first);
        let rave_wins = lanes(&self.rave_wins, first);
        let prior_visits = lanes(&self.prior_visits, first);
        let prior_wins = lanes(&self.prior_wins, first);
        let mut scores = [0f32; BATCH];
        for (k, u) in scores.iter_mut().enumerate() {
            let x = Lane {
                visits: visits[k],
                wins: wins[k],
                rave_visits: rave_visits[k],
                rave_wins: rave_wins[k],
                prior_visits: prior_visits[k],
                prior_wins: prior_wins[k],
            }
            .urgency(log_parent, rave_equiv);
            *u = if x.is_nan() { f32::NEG_INFINITY } else { x };
        }
        scores
    }

    fn lane(&self, i: usize) -> Lane {
        Lane {
            visits: self.visits[i],
            wins: self.wins[i],
            rave_visits: self.rave_visits[i],
            rave_wins: self.rave_wins[i],
            prior_visits: self.prior_visits[i],
            prior_wins: self.prior_wins[i],
        }
    }
}

/// The greatest of `scores` (none NaN), in a few SIMD steps.
fn greatest(mut scores: [f32; BATCH]) -> f32 {
    let mut half = BATCH / 2;
    while half > 0 {
        for k in 0..half {
            let (a, b) = (scores[k], scores[k + half]);
            scores[k] = if a > b { a } else { b };
        }
        half /= 2;
    }
    scores[0]
}

/// One node's statistics, for scoring it.
struct Lane {
    visits: u32,
    wins: f32,
    rave_visits: u32,
    rave_wins: f32,
    prior_visits: f32,
    prior_wins: f32,
}

impl Lane {
    /// The node's RAVE value mixed with its mean, plus the UCB exploration term.
    #[inline(always)]
    fn urgency(&self, log_parent: f32, rave_equiv: f32) -> f32 {
        let v = self.visits as f32 + self.prior_visits;
        let mean = (self.wins + self.prior_wins) / v;
        // Both computed, one picked: no branch in the vector loop.
        let av = self.rave_visits as f32;
        let beta = av / (av + v + v * av / rave_equiv);
        let mixed = beta * (self.rave_wins / av) + (1.0 - beta) * mean;
        let value = if self.rave_visits == 0 { mean } else { mixed };
        value + UCB_C * (log_parent / v).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// The urgency as it was computed one child at a time before the batches.
    fn urgency_alone(s: &Stats, i: usize, log_parent: f32, rave_equiv: f32) -> f32 {
        let v = s.visits[i] as f32 + s.prior_visits[i];
        let mean = (s.wins[i] + s.prior_wins[i]) / v;
        let value = if s.rave_visits[i] == 0 {
            mean
        } else {
            let av = s.rave_visits[i] as f32;
            let beta = av / (av + v + v * av / rave_equiv);
            beta * (s.rave_wins[i] / av) + (1.0 - beta) * mean
        };
        value + UCB_C * (log_parent / v).sqrt()
    }

    #[test]
    fn batches_choose_as_one_child_at_a_time_would() {
        let mut rng = SmallRng::seed_from_u64(3);
        for round in 0..400 {
            let n = rng.gen_range(1..80);
            let mut s = Stats::with_capacity(n + 40);
            // Unrelated nodes before the children, as in a tree.
            let offset = rng.gen_range(0..5);
            for _ in 0..offset + n {
                // Pass nodes without priors score NaN until visited; ties are common.
                let prior = match rng.gen_range(0..8) {
                    0 => Prior::default(),
                    1 => Prior {
                        wins: 5.0,
                        visits: 10.0,
                    },
                    _ => Prior {
                        wins: rng.gen_range(0.0..40.0f32).floor(),
                        visits: rng.gen_range(10.0..60.0f32).floor() + 40.0,
                    },
                };
                s.push(prior, 0);
                let i = s.visits.len() - 1;
                if rng.gen_bool(0.7) {
                    s.visits[i] = rng.gen_range(0..5000);
                    s.wins[i] = rng.gen_range(0..=s.visits[i]) as f32;
                    s.rave_visits[i] = rng.gen_range(0..20000);
                    s.rave_wins[i] = rng.gen_range(0..=s.rave_visits[i]) as f32;
                }
            }
            let kids = offset..offset + n;
            // Sometimes nodes after them too.
            for _ in 0..rng.gen_range(0..3) * rng.gen_range(0..10) {
                s.push(
                    Prior {
                        wins: 1.0,
                        visits: 2.0,
                    },
                    0,
                );
            }
            let log_parent = (rng.gen_range(1..100_000u32) as f32).ln();
            let rave_equiv = if round % 2 == 0 { 3500.0 } else { 150.0 };
            let mut best = kids.start;
            let mut best_u = f32::NEG_INFINITY;
            for i in kids.clone() {
                let u = urgency_alone(&s, i, log_parent, rave_equiv);
                if u > best_u {
                    best_u = u;
                    best = i;
                }
            }
            assert_eq!(s.most_urgent(kids.clone(), log_parent, rave_equiv), best);
            for i in kids.clone() {
                let (a, b) = (
                    s.lane(i).urgency(log_parent, rave_equiv),
                    urgency_alone(&s, i, log_parent, rave_equiv),
                );
                assert!(a.to_bits() == b.to_bits() || a.is_nan() && b.is_nan());
            }
        }
    }
}
