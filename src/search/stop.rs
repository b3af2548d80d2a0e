//! Stopping a search: a shared stop flag and the time/node limits of one search.
//!
//! Thread contract:
//! - [`StopToken`] is cloned into every worker. Any thread may call [`StopToken::stop`]
//!   (the dispatcher on a position-changing command, a worker that hit the hard deadline);
//!   workers poll it. Only the search's owner calls [`StopToken::reset`], and only while no
//!   worker of a previous search still runs (after joining them).
//! - [`Limits`] is a plain `Copy`-able value plus the token; each worker owns a [`Poller`]
//!   and calls [`Poller::poll`] once per node or playout. The poller reads the clock only
//!   every [`CHECK_EVERY`] calls (about 25 ns per clock read would otherwise be a few
//!   percent of a light playout) and, when the hard deadline or node limit passes, trips the
//!   shared token so the other workers stop at their next poll too.
//! - The soft limit is checked by the search driver between iterations (iterative deepening
//!   depth, or an MCTS batch): "do not start what cannot finish".
//!
//! Safety margins are already subtracted by the time manager (`search::time`), so the
//! instants here are the real last moments to stop.
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Calls to [`Poller::poll`] between two clock reads.
pub const CHECK_EVERY: u32 = 256;

/// A cloneable "stop now" flag shared by a search's workers and its owner, optionally the
/// child of another (see [`StopToken::child`]).
#[derive(Clone, Debug, Default)]
pub struct StopToken(Arc<Inner>);

#[derive(Debug, Default)]
struct Inner {
    flag: AtomicBool,
    parent: Option<StopToken>,
}

impl StopToken {
    pub fn new() -> StopToken {
        StopToken::default()
    }
    /// A token for one phase of the search this token stops (a threat search given part
    /// of the move's time, one step of an analysis stream): stopping this token stops
    /// the child, stopping the child (its own deadline passed) leaves this one running.
    pub fn child(&self) -> StopToken {
        StopToken(Arc::new(Inner {
            flag: AtomicBool::new(false),
            parent: Some(self.clone()),
        }))
    }
    /// Asks every holder (and every holder of a child) to stop; never blocks.
    pub fn stop(&self) {
        self.0.flag.store(true, Ordering::Relaxed);
    }
    /// One relaxed load per generation (one for a token made by `new`): cheap enough for
    /// every node.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        let mut t = self;
        loop {
            if t.0.flag.load(Ordering::Relaxed) {
                return true;
            }
            match &t.0.parent {
                Some(p) => t = p,
                None => return false,
            }
        }
    }
    /// Whether another clone of this token (or a child) is still alive (its command still
    /// runs).
    pub fn is_shared(&self) -> bool {
        Arc::strong_count(&self.0) > 1
    }
    /// The flag itself, for searches that poll a plain `AtomicBool`. A child's flag does
    /// not show its parent's stop, so this is only for tokens made by `new`.
    pub fn flag(&self) -> &AtomicBool {
        debug_assert!(self.0.parent.is_none(), "flag() of a child token");
        &self.0.flag
    }
    /// Clears the flag for the next search (not the parent's). Call only when no worker
    /// runs.
    pub fn reset(&self) {
        self.0.flag.store(false, Ordering::Relaxed);
    }
}

/// When a search must stop, measured from its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    pub start: Instant,
    /// Do not start a new iteration after this instant.
    pub soft: Option<Instant>,
    /// Stop inside the search at this instant.
    pub hard: Option<Instant>,
}

impl Deadline {
    /// No time limit (fixed playouts or depth, or `stop` only).
    pub fn unlimited() -> Deadline {
        Deadline {
            start: Instant::now(),
            soft: None,
            hard: None,
        }
    }

    /// Limits starting now, as returned by `TimeManager::budget`. `hard` is raised to
    /// `soft` if smaller.
    pub fn after(soft: Duration, hard: Duration) -> Deadline {
        Deadline::starting_at(Instant::now(), soft, hard)
    }

    /// Like [`Deadline::after`] from a given start (e.g. when the command arrived).
    pub fn starting_at(start: Instant, soft: Duration, hard: Duration) -> Deadline {
        Deadline {
            start,
            soft: start.checked_add(soft),
            hard: start.checked_add(hard.max(soft)),
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
    pub fn soft_passed(&self) -> bool {
        self.soft.is_some_and(|t| Instant::now() >= t)
    }
    pub fn hard_passed(&self) -> bool {
        self.hard.is_some_and(|t| Instant::now() >= t)
    }
}

/// Everything that may end one search.
#[derive(Clone, Debug)]
pub struct Limits {
    pub deadline: Deadline,
    /// Stop after this many nodes/playouts in total (counted by the caller).
    pub max_nodes: Option<u64>,
    pub stop: StopToken,
}

impl Limits {
    pub fn new(deadline: Deadline, max_nodes: Option<u64>, stop: StopToken) -> Limits {
        Limits {
            deadline,
            max_nodes,
            stop,
        }
    }

    /// Full check (reads the clock): stop flag, hard deadline, node limit.
    /// Trips the token when a limit is reached so other workers follow.
    pub fn should_stop(&self, nodes: u64) -> bool {
        if self.stop.is_stopped() {
            return true;
        }
        let done = self.deadline.hard_passed() || self.max_nodes.is_some_and(|max| nodes >= max);
        if done {
            self.stop.stop();
        }
        done
    }

    /// Between iterations: may another iteration start? False once the soft limit passed
    /// or the search must stop anyway.
    pub fn may_start_iteration(&self, nodes: u64) -> bool {
        !self.should_stop(nodes) && !self.deadline.soft_passed()
    }

    /// Limits for one phase of this search ending at `deadline`, with a child token: the
    /// phase reaching its deadline trips its own token and must not stop the rest of the
    /// search, while a stop of this search (interrupt, new input, a departed controller) stops the phase.
    /// The node cap is not inherited.
    pub fn phase(&self, deadline: Deadline) -> Limits {
        Limits::new(deadline, None, self.stop.child())
    }

    /// A per-worker poller over these limits.
    pub fn poller(&self) -> Poller<'_> {
        Poller {
            limits: self,
            countdown: CHECK_EVERY,
        }
    }
}

/// Per-worker cheap polling; see the module contract.
#[derive(Debug)]
pub struct Poller<'a> {
    limits: &'a Limits,
    countdown: u32,
}

impl<'a> Poller<'a> {
    /// The limits this poller reads (for starting more workers under the same ones).
    pub fn limits(&self) -> &'a Limits {
        self.limits
    }

    /// Call once per node or playout with the node count the limit refers to (the worker's
    /// own count, or a shared total). True means stop now. Every call reads the stop flag;
    /// every [`CHECK_EVERY`]-th call also reads the clock and the node limit.
    #[inline]
    pub fn poll(&mut self, nodes: u64) -> bool {
        if self.limits.stop.is_stopped() {
            return true;
        }
        self.countdown -= 1;
        if self.countdown == 0 {
            self.countdown = CHECK_EVERY;
            return self.limits.should_stop(nodes);
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_is_shared_by_clones() {
        let a = StopToken::new();
        let b = a.clone();
        assert!(!b.is_stopped());
        a.stop();
        assert!(b.is_stopped());
        b.reset();
        assert!(!a.is_stopped());
    }

    #[test]
    fn node_limit_trips_the_token_at_a_check() {
        let limits = Limits::new(Deadline::unlimited(), Some(1000), StopToken::new());
        let mut poller = limits.poller();
        let mut stopped_at = None;
        for n in 1..=5000u64 {
            if poller.poll(n) {
                stopped_at = Some(n);
                break;
            }
        }
        // Checks happen at calls 256, 512, 768, 1024: the first with n >= 1000 is 1024.
        assert_eq!(stopped_at, Some(1024));
        assert!(limits.stop.is_stopped());
        // Every other poller now stops at once.
        assert!(limits.poller().poll(0));
    }

    #[test]
    fn deadlines() {
        let d = Deadline::after(Duration::ZERO, Duration::from_secs(3600));
        assert!(d.soft_passed());
        assert!(!d.hard_passed());
        let limits = Limits::new(d, None, StopToken::new());
        assert!(!limits.should_stop(0));
        assert!(!limits.may_start_iteration(0));

        let past = Deadline::starting_at(
            Instant::now() - Duration::from_millis(50),
            Duration::from_millis(10),
            Duration::from_millis(20),
        );
        assert!(past.hard_passed());
        let limits = Limits::new(past, None, StopToken::new());
        assert!(limits.should_stop(0));
        assert!(limits.stop.is_stopped());

        // hard below soft is raised to soft.
        let d = Deadline::starting_at(d.start, Duration::from_secs(2), Duration::from_secs(1));
        assert_eq!(d.hard, d.soft);
        assert!(!Deadline::unlimited().hard_passed());
    }

    #[test]
    fn a_phase_stops_with_its_search_but_not_the_other_way() {
        let search = Limits::new(Deadline::unlimited(), None, StopToken::new());
        // A phase whose deadline has passed trips its own token only.
        let past = Deadline::starting_at(
            Instant::now() - Duration::from_millis(50),
            Duration::from_millis(10),
            Duration::from_millis(10),
        );
        let expired = search.phase(past);
        assert!(expired.should_stop(0));
        assert!(expired.stop.is_stopped());
        assert!(!search.stop.is_stopped());
        assert!(search.may_start_iteration(0));
        // Stopping the search stops a running phase, and a phase of that phase, at the
        // next poll (the flag is read on every call, not only at clock checks).
        let phase = search.phase(Deadline::unlimited());
        let inner = phase.phase(Deadline::unlimited());
        let (mut p, mut q) = (phase.poller(), inner.poller());
        assert!(!p.poll(1) && !q.poll(1));
        search.stop.stop();
        assert!(p.poll(2) && q.poll(2));
        assert!(inner.stop.is_stopped());
        // Resetting the phase's own flag does not hide the search's stop.
        phase.stop.reset();
        assert!(phase.stop.is_stopped());
    }

    #[test]
    fn hard_deadline_stops_a_busy_worker_promptly() {
        let limits = Limits::new(
            Deadline::after(Duration::from_millis(20), Duration::from_millis(30)),
            None,
            StopToken::new(),
        );
        let mut poller = limits.poller();
        let mut n = 0u64;
        while !poller.poll(n) {
            n += 1;
        }
        let elapsed = limits.deadline.elapsed();
        assert!(elapsed >= Duration::from_millis(30));
        assert!(elapsed < Duration::from_millis(500), "{elapsed:?}");
    }
}
