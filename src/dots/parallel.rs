//! The exact solve on several threads sharing one table.
//!
//! MTD(f) asks null-window questions, "is the value at least t?", until a yes and a no
//! meet. Exact values have the parity of the boxes left, so proving a value g takes two
//! answers: "at least g" (yes) and "at least g + 1" (no). Neither needs the other's answer,
//! only the choice of the next guess does; so the threads take the two questions around
//! the current guess at once, and a thread that finds both taken joins the one fewer
//! threads work on (the shared table passes results between them, and each thread orders
//! equally central edges differently, so they part ways). Near the root the threads
//! mark the positions they are in, and a thread puts off a child another thread is
//! searching until its other moves are done (Kerrigan's simplified ABDADA), so threads on
//! one question split its subtrees instead of walking them together. An answer that
//! settles a question another thread still works on stops that thread, which then takes
//! a new one. With one thread this is the plain `Solver::solve`, node for node.
use super::solver::{Busy, Solver, EXACT};
use super::table::Table;
use super::Board;
use crate::search::StopToken;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// log2 of the slots of the busy marks (8 bytes each: they stay in the caches).
const BUSY_BITS: u32 = 14;
/// Positions within this many edges of the root are marked busy and may be put off
/// (deeper marking spread the threads less well: docs/experiments/dots.md).
const NEAR_ROOT: u32 = 8;

/// An exact solve's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Future boxes of the side to move minus the opponent's, with perfect play.
    pub value: i32,
    /// Nodes of all threads together.
    pub nodes: u64,
}

/// What the threads know, under one lock taken once per question.
struct Shared {
    /// The value lies in `lower..=upper`.
    lower: i32,
    upper: i32,
    /// The last answer's fail-soft value: the next questions go either side of it.
    guess: i32,
    /// The question each thread works on (`t` of "at least t"), and its stop token.
    asking: Vec<Option<(i32, StopToken)>>,
}

impl Shared {
    /// The next question: "at least c" or "at least c + 1" around the guess c
    /// (of the parity of the value), the first one no thread asks, else the one fewer ask.
    fn pick(&self, parity: i32) -> i32 {
        let mut c = self.guess.clamp(self.lower, self.upper);
        if (c - parity) & 1 != 0 {
            c += if c > self.lower { -1 } else { 1 };
        }
        let mut options = [0; 2];
        let mut k = 0;
        if c > self.lower {
            options[k] = c;
            k += 1;
        }
        if c < self.upper {
            options[k] = c + 1;
            k += 1;
        }
        let askers = |t: i32| self.asking.iter().flatten().filter(|a| a.0 == t).count();
        *options[..k]
            .iter()
            .min_by_key(|&&t| askers(t))
            .expect("lower < upper leaves a question")
    }

    /// Takes the answer `g` to "at least t" and stops the threads whose question it settles.
    fn answer(&mut self, t: i32, g: i32) {
        if g >= t {
            self.lower = self.lower.max(g);
        } else {
            self.upper = self.upper.min(g);
        }
        self.guess = g;
        for (q, token) in self.asking.iter().flatten() {
            if *q <= self.lower || *q > self.upper {
                token.stop();
            }
        }
    }
}

/// The exact value of `board` for the side to move, searched by `threads` threads that
/// share `table` (made for this board's geometry). `None` when `stop` or `deadline` ended
/// the solve first, or when the board is too big for the solver.
pub fn solve(
    board: &Board,
    table: &Table,
    threads: usize,
    stop: Option<StopToken>,
    deadline: Option<Instant>,
) -> Option<Solved> {
    let mut first = Solver::with_table(board, table.share()).ok()?;
    if threads <= 1 {
        first.set_limits(stop, deadline);
        let value = first.solve();
        return (!first.stopped()).then_some(Solved {
            value,
            nodes: first.nodes,
        });
    }
    let rem = first.remaining();
    let all = stop.map_or_else(StopToken::new, |s| s.child());
    let shared = Mutex::new(Shared {
        lower: -rem,
        upper: rem,
        guess: -(rem & 1),
        asking: vec![None; threads],
    });
    let mut solvers = vec![first];
    for _ in 1..threads {
        solvers.push(Solver::with_table(board, table.share()).ok()?);
    }
    let busy = Arc::new(Busy::new(BUSY_BITS));
    let undrawn = solvers[0].undrawn() as u32;
    let nodes: u64 = std::thread::scope(|scope| {
        let mut rest = solvers.split_off(1);
        let work = |me: usize, mut s: Solver| {
            s.set_variant(me);
            s.share_busy(Arc::clone(&busy), undrawn.saturating_sub(NEAR_ROOT));
            ask_until_solved(me, &mut s, &shared, &all, deadline, rem & 1);
            s.nodes
        };
        let helpers: Vec<_> = rest
            .drain(..)
            .enumerate()
            .map(|(i, s)| scope.spawn(move || work(i + 1, s)))
            .collect();
        let mine = work(0, solvers.pop().expect("the first solver"));
        mine + helpers
            .into_iter()
            .map(|h| h.join().expect("a solver thread panicked"))
            .sum::<u64>()
    });
    let s = shared
        .into_inner()
        .expect("no thread panicked holding the lock");
    (s.lower >= s.upper).then_some(Solved {
        value: s.lower,
        nodes,
    })
}

/// One thread's share of `solve`: questions until the bounds meet or the solve is stopped.
fn ask_until_solved(
    me: usize,
    s: &mut Solver,
    shared: &Mutex<Shared>,
    all: &StopToken,
    deadline: Option<Instant>,
    parity: i32,
) {
    loop {
        let (t, token) = {
            let mut sh = shared.lock().expect("no thread panicked holding the lock");
            if sh.lower >= sh.upper {
                return;
            }
            let t = sh.pick(parity);
            let token = all.child();
            sh.asking[me] = Some((t, token.clone()));
            (t, token)
        };
        s.set_limits(Some(token), deadline);
        let nodes = s.nodes;
        let g = s.search(t - 1, t, EXACT);
        tracing::debug!(
            "thread {me}: at least {t}? {g} ({} nodes{})",
            s.nodes - nodes,
            if s.stopped() { ", stopped" } else { "" }
        );
        let mut sh = shared.lock().expect("no thread panicked holding the lock");
        sh.asking[me] = None;
        if s.stopped() {
            if all.is_stopped() || deadline.is_some_and(|d| Instant::now() >= d) {
                // Stops the others too (a deadline they may not have reached yet).
                all.stop();
                return;
            }
            // Another thread's answer settled this question.
            continue;
        }
        sh.answer(t, g);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    fn solve_with(board: &Board, threads: usize, bits: u32) -> Solved {
        let table = Table::new(bits, board.geometry().n_edges());
        solve(board, &table, threads, None, None).expect("not stopped")
    }

    /// The published values of the small boards (as in the solver's tests), on 2 and 4
    /// threads; a table of 2^10 entries on 3x3 also makes the threads overwrite each
    /// other's entries all the time.
    #[test]
    fn threads_find_the_published_values() {
        for (c, r, v) in [
            (1, 1, -1),
            (2, 2, 2),
            (2, 3, -2),
            (3, 2, -2),
            (2, 4, 2),
            (3, 3, -3),
        ] {
            let b = Board::new(c, r).unwrap();
            for threads in [1, 2, 4] {
                for bits in [10, 18] {
                    let got = solve_with(&b, threads, bits).value;
                    assert_eq!(got, v, "{c}x{r}, {threads} threads, 2^{bits} entries");
                }
            }
        }
    }

    /// Mid-game positions of bigger boards (drawn at random, with enough left to keep
    /// both questions and several threads busy): 2 and 4 threads against one.
    #[test]
    fn threads_agree_with_one_thread_in_the_middle_game() {
        let mut rng = SmallRng::seed_from_u64(44);
        for (c, r, count, left) in [(3, 3, 12, 14..20), (3, 4, 6, 18..24), (4, 4, 4, 20..24)] {
            let empty = Board::new(c, r).unwrap();
            let n = empty.geometry().n_edges();
            for _ in 0..count {
                let mut b = empty.clone();
                let mut edges: Vec<usize> = (0..n).collect();
                edges.shuffle(&mut rng);
                let keep = rng.gen_range(left.clone());
                for &e in &edges[..n - keep] {
                    b.play(e).unwrap();
                }
                let one = solve_with(&b, 1, 16).value;
                for threads in [2, 4] {
                    assert_eq!(
                        solve_with(&b, threads, 16).value,
                        one,
                        "{c}x{r} {:b}, {threads} threads",
                        b.drawn().lo
                    );
                }
            }
        }
    }

    /// 3x4 from empty (the published tie) on 2 threads, against its own single-threaded
    /// solve, which counts the same nodes as the plain solver.
    #[test]
    fn three_by_four_on_two_threads_is_a_tie() {
        let b = Board::new(3, 4).unwrap();
        let one = solve_with(&b, 1, 20);
        let mut plain = Solver::new(&b, 20).unwrap();
        assert_eq!(plain.solve(), 0);
        assert_eq!(
            one,
            Solved {
                value: 0,
                nodes: plain.nodes
            }
        );
        assert_eq!(solve_with(&b, 2, 20).value, 0);
    }

    /// A stopped solve answers nothing, and every thread comes back.
    #[test]
    fn a_stopped_solve_gives_no_value() {
        let b = Board::new(4, 4).unwrap();
        let table = Table::new(16, b.geometry().n_edges());
        let stop = StopToken::new();
        stop.stop();
        assert_eq!(solve(&b, &table, 3, Some(stop), None), None);
        let past = Instant::now();
        assert_eq!(solve(&b, &table, 2, None, Some(past)), None);
    }
}
