//! Move choice under a clock: iterative deepening over the solver's alpha-beta with the
//! long-chain/loony heuristic at the horizon. An iteration that never reaches the horizon
//! is an exact solve, and then the search ends early.
//!
//! Time: a soft limit (no new iteration starts after it) and a hard limit (the running
//! search stops, polled every 1024 nodes), both from the shared time manager
//! (`quartet::search::time`), plus the shared `StopToken`.
use super::solver::{Solver, EXACT, MAX_SOLVER_EDGES};
use super::table::Table;
use super::Board;
use crate::search::{no_progress, Progress, StopToken};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    pub edge: usize,
    /// Value for the side to move (future boxes), exact if `exact`.
    pub value: i32,
    pub exact: bool,
    /// Deepest completed iteration (quiet plies).
    pub depth: u8,
    pub nodes: u64,
}

/// Transposition table size for play (2^22 entries of 8 bytes = 32 MB).
pub const PLAY_TT_BITS: u32 = 22;

/// The play table, kept from one move to the next. A fresh 32 MB table per move cost
/// page faults (and, with transparent huge pages, compaction stalls) on every move: at
/// 0.05 s per move, enough to lose games on time. A kept table also keeps what the last
/// search learnt, which stays true: values depend only on the drawn set.
pub struct PlayTable {
    /// The table and the (columns, rows) of the boards it was filled for.
    kept: Option<((usize, usize), Table)>,
    /// log2 of the table's entries.
    bits: u32,
    /// Search threads per move, all sharing the table.
    threads: usize,
}

impl Default for PlayTable {
    fn default() -> PlayTable {
        PlayTable::new(PLAY_TT_BITS, 1)
    }
}

impl PlayTable {
    /// A table of 2^`bits` entries (made when the first board is known), searched by
    /// `threads` threads per move.
    pub fn new(bits: u32, threads: usize) -> PlayTable {
        PlayTable {
            kept: None,
            bits,
            threads: threads.max(1),
        }
    }

    /// Makes (or keeps) the table for `board`'s geometry now, so that no timed search
    /// pays for the allocation: 32 MB of fresh pages took up to half a second on a loaded
    /// machine. Boards too big for the solver get none.
    pub fn prepare(&mut self, board: &Board) {
        if board.geometry().n_edges() <= MAX_SOLVER_EDGES {
            let table = self.take(board);
            self.keep(board, table);
        }
    }

    fn take(&mut self, board: &Board) -> Table {
        let geo = board.geometry();
        let shape = (geo.cols(), geo.rows());
        match self.kept.take() {
            Some((s, t)) if s == shape => t,
            _ => Table::new(self.bits, geo.n_edges()),
        }
    }

    fn keep(&mut self, board: &Board, table: Table) {
        let geo = board.geometry();
        self.kept = Some(((geo.cols(), geo.rows()), table));
    }
}

/// Picks a move for the side to move. Blocks until the search ends: at the first iteration
/// boundary after `soft`, or at `hard` at the latest (both from the call). `None` only when
/// the game is over.
pub fn choose_move(
    board: &Board,
    soft: Duration,
    hard: Duration,
    stop: Option<StopToken>,
) -> Option<Choice> {
    choose_move_avoiding(board, soft, hard, stop, &[], &mut PlayTable::default())
}

/// As `choose_move`, never choosing an edge of `avoid`, searching with `table`; `None`
/// when no other edge is left. When the capture rules leave only avoided moves, every
/// other legal edge is searched.
pub fn choose_move_avoiding(
    board: &Board,
    soft: Duration,
    hard: Duration,
    stop: Option<StopToken>,
    avoid: &[usize],
    table: &mut PlayTable,
) -> Option<Choice> {
    choose_move_reporting(board, soft, hard, stop, avoid, table, &mut no_progress)
}

/// [`choose_move_avoiding`], telling `progress` the first thread's choice (its nodes so
/// far) after each completed iteration. A move chosen without a search (one root move,
/// boards too big for the solver) is not reported.
pub fn choose_move_reporting(
    board: &Board,
    soft: Duration,
    hard: Duration,
    stop: Option<StopToken>,
    avoid: &[usize],
    table: &mut PlayTable,
    progress: Progress<'_, Choice>,
) -> Option<Choice> {
    let legal: Vec<usize> = board.legal_edges().filter(|e| !avoid.contains(e)).collect();
    if legal.is_empty() {
        return None;
    }
    // Boards too big for the solver (8x8) never allocate its table.
    if board.geometry().n_edges() > MAX_SOLVER_EDGES {
        return Some(rule_choice(board, avoid, &legal));
    }
    let threads = table.threads;
    let mut solver = match Solver::with_table(board, table.take(board)) {
        Ok(s) => s,
        Err(_) => return Some(rule_choice(board, avoid, &legal)),
    };
    let best = if threads <= 1 {
        let c = deepen(&mut solver, soft, hard, stop, avoid, &legal, 0, progress);
        Choice {
            nodes: solver.nodes,
            ..c
        }
    } else {
        deepen_shared(
            &mut solver,
            board,
            threads,
            soft,
            hard,
            stop,
            avoid,
            &legal,
            progress,
        )
    };
    table.keep(board, solver.into_table());
    Some(best)
}

/// `deepen` on `threads` threads sharing `solver`'s table: the helpers deepen too, each
/// from another first root move and with another order of equally central edges, until
/// the first thread (whose answer counts) is done; they store what they find in the
/// table, where the first thread meets it. Every helper is stopped and joined before this
/// returns. `Choice::nodes` counts all threads.
#[allow(clippy::too_many_arguments)]
fn deepen_shared(
    solver: &mut Solver,
    board: &Board,
    threads: usize,
    soft: Duration,
    hard: Duration,
    stop: Option<StopToken>,
    avoid: &[usize],
    legal: &[usize],
    progress: Progress<'_, Choice>,
) -> Choice {
    let helpers_stop = stop.as_ref().map_or_else(StopToken::new, StopToken::child);
    let helpers: Vec<Solver> = (1..threads)
        .filter_map(|i| {
            let mut s = Solver::with_table(board, solver.share_table()).ok()?;
            s.set_variant(i);
            Some(s)
        })
        .collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = helpers
            .into_iter()
            .enumerate()
            .map(|(i, mut s)| {
                let token = helpers_stop.clone();
                // No soft limit: a helper searches until the first thread is done.
                scope.spawn(move || {
                    deepen(
                        &mut s,
                        hard,
                        hard,
                        Some(token),
                        avoid,
                        legal,
                        i + 1,
                        &mut no_progress,
                    );
                    s.nodes
                })
            })
            .collect();
        let mut best = deepen(solver, soft, hard, stop, avoid, legal, 0, progress);
        helpers_stop.stop();
        for h in handles {
            best.nodes += h.join().expect("a search thread panicked");
        }
        best.nodes += solver.nodes;
        best
    })
}

/// The rule player's move, or the first of `legal` if that one is avoided.
fn rule_choice(board: &Board, avoid: &[usize], legal: &[usize]) -> Choice {
    let choice = rule_move(board);
    if avoid.contains(&choice.edge) {
        Choice {
            edge: legal[0],
            ..choice
        }
    } else {
        choice
    }
}

/// Iterative deepening from `solver`'s position, timed from the call. `variant` > 0 (a
/// helper thread) starts from another root move. `Choice::nodes` is left to the caller;
/// `progress` gets each completed iteration's choice with the solver's nodes so far.
#[allow(clippy::too_many_arguments)]
fn deepen(
    solver: &mut Solver,
    soft: Duration,
    hard: Duration,
    stop: Option<StopToken>,
    avoid: &[usize],
    legal: &[usize],
    variant: usize,
    progress: Progress<'_, Choice>,
) -> Choice {
    let start = Instant::now();
    let mut roots: Vec<u8> = solver
        .root_moves()
        .into_iter()
        .filter(|&m| !avoid.contains(&(m as usize)))
        .collect();
    if roots.is_empty() {
        roots = legal.iter().map(|&e| e as u8).collect();
    }
    let mut best = Choice {
        edge: roots[0] as usize,
        value: 0,
        exact: false,
        depth: 0,
        nodes: 0,
    };
    if roots.len() == 1 {
        return best;
    }
    let n = roots.len();
    roots.rotate_left(variant % n);
    solver.set_limits(stop, Some(start + hard));
    let mut order = roots;
    for depth in 1..EXACT {
        solver.hit_horizon = false;
        let mut iter_best: Option<(u8, i32)> = None;
        for &m in &order {
            let alpha = iter_best.map_or(-127, |(_, v)| v);
            let v = solver.move_value(m, alpha, 127, depth);
            if solver.stopped() {
                break;
            }
            if iter_best.is_none_or(|(_, b)| v > b) {
                iter_best = Some((m, v));
            }
        }
        if solver.stopped() {
            // A move that beat the previous iteration's first move completely is kept.
            if let Some((m, v)) = iter_best {
                if m != order[0] {
                    best.edge = m as usize;
                    best.value = v;
                }
            }
            break;
        }
        let (m, v) = iter_best.expect("at least two root moves");
        best = Choice {
            edge: m as usize,
            value: v,
            exact: !solver.hit_horizon,
            depth,
            nodes: 0,
        };
        progress(&Choice {
            nodes: solver.nodes,
            ..best
        });
        if best.exact || start.elapsed() >= soft {
            break;
        }
        let i = order.iter().position(|&x| x == m).unwrap_or(0);
        order[..=i].rotate_right(1);
    }
    best
}

/// For boards too large for the solver (8x8): take what can be taken, else a safe edge,
/// else the edge that hands the fewest boxes to a greedy reply.
pub fn rule_move(board: &Board) -> Choice {
    let geo = board.geometry();
    let legal: Vec<usize> = board.legal_edges().collect();
    let gives = |e: usize| {
        geo.edge_boxes(e)
            .iter()
            .filter(|&&b| b != super::geometry::GROUND && board.sides(b as usize) == 2)
            .count()
    };
    let capture = legal.iter().copied().find(|&e| {
        geo.edge_boxes(e)
            .iter()
            .any(|&b| b != super::geometry::GROUND && board.sides(b as usize) == 3)
    });
    let edge = capture
        .or_else(|| legal.iter().copied().find(|&e| gives(e) == 0))
        .unwrap_or_else(|| {
            *legal
                .iter()
                .min_by_key(|&&e| {
                    let mut b = board.clone();
                    let _ = b.play(e);
                    let mover = b.to_move();
                    let before = b.score(mover);
                    // Greedy reply: keep taking boxes with three sides.
                    loop {
                        let next = b.legal_edges().find(|&t| {
                            geo.edge_boxes(t)
                                .iter()
                                .any(|&x| x != super::geometry::GROUND && b.sides(x as usize) == 3)
                        });
                        match next {
                            Some(t) => {
                                let _ = b.play(t);
                            }
                            None => break,
                        }
                    }
                    b.score(mover) - before
                })
                .expect("legal moves exist")
        });
    Choice {
        edge,
        value: 0,
        exact: false,
        depth: 0,
        nodes: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_boards_are_played_perfectly() {
        // 2x2: only boundary first moves win (+2); the chosen move must be one.
        let b = Board::new(2, 2).unwrap();
        let c = choose_move(&b, Duration::from_secs(5), Duration::from_secs(5), None).unwrap();
        assert!(c.exact);
        assert_eq!(c.value, 2);
        assert!(b
            .geometry()
            .edge_boxes(c.edge)
            .contains(&super::super::geometry::GROUND));
    }

    #[test]
    fn answers_in_time_on_big_boards() {
        for (c, r) in [(5, 5), (7, 8), (8, 8)] {
            let b = Board::new(c, r).unwrap();
            let t = Instant::now();
            let choice = choose_move(
                &b,
                Duration::from_millis(100),
                Duration::from_millis(300),
                None,
            )
            .unwrap();
            // The hard limit is 300 ms; the slack is for a busy test machine, where a
            // correct search once took 804 ms. One that ignored its deadline would take
            // minutes here.
            assert!(
                t.elapsed() < Duration::from_millis(2000),
                "{c}x{r}: {:?}",
                t.elapsed()
            );
            assert!(!b.is_drawn(choice.edge));
        }
    }

    /// Two and three threads: the 2x2 board still played perfectly, and on big boards an
    /// answer within the time, every helper joined (the call returns only then).
    #[test]
    fn threads_play_perfectly_and_in_time() {
        for threads in [2, 3] {
            let mut table = PlayTable::new(16, threads);
            let b = Board::new(2, 2).unwrap();
            let five = Duration::from_secs(5);
            let c = choose_move_avoiding(&b, five, five, None, &[], &mut table).unwrap();
            assert!(c.exact);
            assert_eq!(c.value, 2);
            assert!(b
                .geometry()
                .edge_boxes(c.edge)
                .contains(&super::super::geometry::GROUND));
            let b = Board::new(5, 5).unwrap();
            let t = Instant::now();
            let (soft, hard) = (Duration::from_millis(100), Duration::from_millis(300));
            let c = choose_move_avoiding(&b, soft, hard, None, &[], &mut table).unwrap();
            // As above: slack for a busy machine; a helper left running would take minutes.
            assert!(
                t.elapsed() < Duration::from_millis(2000),
                "{:?}",
                t.elapsed()
            );
            assert!(!b.is_drawn(c.edge));
            assert!(c.nodes > 0);
            // A raised stop token ends all threads at once.
            let stop = StopToken::new();
            stop.stop();
            let long = Duration::from_secs(600);
            let t = Instant::now();
            let c = choose_move_avoiding(&b, long, long, Some(stop), &[], &mut table).unwrap();
            assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
            assert!(!b.is_drawn(c.edge));
        }
    }

    #[test]
    fn takes_a_free_box() {
        let mut b = Board::new(5, 5).unwrap();
        for s in ["a1-b1", "a1-a2", "b1-b2"] {
            b.play(b.edge_index(&s.parse().unwrap()).unwrap()).unwrap();
        }
        let c = choose_move(
            &b,
            Duration::from_millis(200),
            Duration::from_millis(200),
            None,
        )
        .unwrap();
        assert_eq!(b.edge_name(c.edge).to_string(), "a2-b2");
    }
}
