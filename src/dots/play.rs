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
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicUsize, Ordering};
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
    /// Iterations shorter than this are searched by one thread (see [`SPLIT_AFTER`]).
    split_after: Duration,
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
            split_after: SPLIT_AFTER,
        }
    }

    /// Splits every iteration, however short: for tests on boards small enough to be
    /// solved in a few short iterations.
    #[cfg(test)]
    fn split_always(mut self) -> PlayTable {
        self.split_after = Duration::ZERO;
        self
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
    let (threads, split_after) = (table.threads, table.split_after);
    let mut solver = match Solver::with_table(board, table.take(board)) {
        Ok(s) => s,
        Err(_) => return Some(rule_choice(board, avoid, &legal)),
    };
    let best = deepen(
        &mut solver,
        board,
        threads,
        split_after,
        soft,
        hard,
        stop,
        avoid,
        &legal,
        progress,
    );
    table.keep(board, solver.into_table());
    Some(best)
}

/// Iterative deepening from `solver`'s position, timed from the call, on `threads`
/// threads sharing `solver`'s table and splitting at the root: each iteration the first
/// thread searches the first root move with the full window while the others take the
/// remaining root moves one at a time from a shared counter, each searched against the
/// best value known so far, or against the last iteration's value while the first move is
/// not done. A move that fails low against a bound above the iteration's final best is
/// searched again, so the result is what one thread would find (the best value, exact or
/// not) and the time goes into depth. Helper threads are started per iteration, and only
/// once an iteration lasts long enough to pay for them; all are joined before this
/// returns. With one thread it is the plain iterative deepening. `Choice::nodes` counts
/// all threads; `progress` gets each completed iteration's choice.
#[allow(clippy::too_many_arguments)]
fn deepen(
    solver: &mut Solver,
    board: &Board,
    threads: usize,
    split_after: Duration,
    soft: Duration,
    hard: Duration,
    stop: Option<StopToken>,
    avoid: &[usize],
    legal: &[usize],
    progress: Progress<'_, Choice>,
) -> Choice {
    let start = Instant::now();
    let mut order = root_order(solver, avoid, legal);
    let mut best = first_choice(&order);
    if order.len() == 1 {
        return best;
    }
    let deadline = Some(start + hard);
    let mut helpers: Vec<Solver> = (1..threads)
        .filter_map(|_| Solver::with_table(board, solver.share_table()).ok())
        .collect();
    for h in &mut helpers {
        h.set_limits(stop.clone(), deadline);
    }
    solver.set_limits(stop, deadline);
    let mut last_iteration = Duration::ZERO;
    let mut guess = -127;
    for depth in 1..EXACT {
        let began = Instant::now();
        let share = RootShare::new(&order, guess);
        if !helpers.is_empty() && last_iteration >= split_after && order.len() > 2 {
            std::thread::scope(|scope| {
                for h in helpers.iter_mut() {
                    let share = &share;
                    scope.spawn(move || share.work(h, depth));
                }
                share.first(solver, depth);
                share.work(solver, depth);
            });
        } else {
            share.first(solver, depth);
            share.work(solver, depth);
        }
        last_iteration = began.elapsed();
        let stopped = solver.stopped() || helpers.iter().any(Solver::stopped);
        let (v, i) = RootShare::unpack(share.best.load(Ordering::Relaxed));
        if stopped {
            // As with one thread: a move that beat this iteration's first move completely
            // is kept.
            if share.first_done.load(Ordering::Relaxed) && i != 0 {
                best.edge = order[i] as usize;
                best.value = v;
            }
            break;
        }
        best = Choice {
            edge: order[i] as usize,
            value: v,
            exact: !share.horizon.load(Ordering::Relaxed),
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
        guess = v;
        order[..=i].rotate_right(1);
    }
    best.nodes = solver.nodes + helpers.iter().map(|h| h.nodes).sum::<u64>();
    best
}

/// An iteration shorter than this is searched by the first thread alone: starting the
/// helpers costs tens of microseconds.
const SPLIT_AFTER: Duration = Duration::from_millis(1);

/// What the threads of one root-split iteration share.
struct RootShare<'a> {
    order: &'a [u8],
    /// The next root move (index into the order, from 1) to hand out.
    next: AtomicUsize,
    /// The best completed move, packed by [`RootShare::pack`]: the highest value, and the
    /// earliest move among equal ones, is the largest number.
    best: AtomicU32,
    /// The first move's value is in `best`.
    first_done: AtomicBool,
    /// The first move's search was stopped: its value will never come.
    first_stopped: AtomicBool,
    /// The bound searched against while the first move is not done.
    guess: i32,
    /// For each move that failed low: the bound it failed against (its value is at most
    /// that); `i32::MIN` for the others.
    failed: Vec<AtomicI32>,
    /// Some search of this iteration used the heuristic evaluation: the result is not exact.
    horizon: AtomicBool,
}

impl<'a> RootShare<'a> {
    fn new(order: &'a [u8], guess: i32) -> RootShare<'a> {
        RootShare {
            order,
            next: AtomicUsize::new(1),
            best: AtomicU32::new(0),
            first_done: AtomicBool::new(false),
            first_stopped: AtomicBool::new(false),
            guess,
            failed: order.iter().map(|_| AtomicI32::new(i32::MIN)).collect(),
            horizon: AtomicBool::new(false),
        }
    }

    fn pack(value: i32, index: usize) -> u32 {
        ((value + 128) as u32) << 8 | (255 - index as u32)
    }

    fn unpack(packed: u32) -> (i32, usize) {
        ((packed >> 8) as i32 - 128, 255 - (packed & 255) as usize)
    }

    /// The first move with the full window (this thread's start of the iteration).
    fn first(&self, s: &mut Solver, depth: u8) {
        s.hit_horizon = false;
        let v = s.move_value(self.order[0], -127, 127, depth);
        if s.stopped() {
            self.first_stopped.store(true, Ordering::Release);
        } else {
            self.best.fetch_max(Self::pack(v, 0), Ordering::Relaxed);
            self.first_done.store(true, Ordering::Release);
        }
        if s.hit_horizon {
            self.horizon.store(true, Ordering::Relaxed);
        }
    }

    /// The bound a move is searched against now.
    fn bound(&self) -> i32 {
        // The flag first: once it is seen set, `best` holds at least the first move's value
        // (never the empty start, which would make the bound fall outside -127..=127).
        let first_done = self.first_done.load(Ordering::Acquire);
        let known = Self::unpack(self.best.load(Ordering::Relaxed)).0;
        if first_done {
            known
        } else {
            known.max(self.guess)
        }
    }

    /// Searches root moves from the counter until none is left, then (one thread at a
    /// time each) those that failed low against a bound above the best found since, or
    /// until the search is stopped. A move that does not fail low has an exact value.
    fn work(&self, s: &mut Solver, depth: u8) {
        s.hit_horizon = false;
        let n = self.order.len();
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if s.stopped() {
                break;
            }
            if i < n {
                self.search(s, i, depth);
                continue;
            }
            // Every move is handed out: wait for the first move, then search again what
            // failed against too high a bound.
            if !self.first_done.load(Ordering::Acquire) {
                if self.first_stopped.load(Ordering::Acquire) {
                    break;
                }
                std::thread::yield_now();
                continue;
            }
            let best = Self::unpack(self.best.load(Ordering::Relaxed)).0;
            let redo = (1..n).find(|&k| {
                let f = self.failed[k].load(Ordering::Relaxed);
                f > best
                    && self.failed[k]
                        .compare_exchange(f, i32::MIN, Ordering::Relaxed, Ordering::Relaxed)
                        .is_ok()
            });
            match redo {
                Some(k) => self.search(s, k, depth),
                None => break,
            }
        }
        if s.hit_horizon {
            self.horizon.store(true, Ordering::Relaxed);
        }
    }

    fn search(&self, s: &mut Solver, i: usize, depth: u8) {
        let alpha = self.bound();
        let v = s.move_value(self.order[i], alpha, 127, depth);
        if s.stopped() {
            return;
        }
        if v > alpha {
            self.best.fetch_max(Self::pack(v, i), Ordering::Relaxed);
        } else {
            self.failed[i].store(alpha, Ordering::Relaxed);
        }
    }
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

/// The root moves to search, best first: the solver's, less `avoid` (or every edge of
/// `legal` when the capture rules leave only avoided ones).
fn root_order(solver: &Solver, avoid: &[usize], legal: &[usize]) -> Vec<u8> {
    let roots: Vec<u8> = solver
        .root_moves()
        .into_iter()
        .filter(|&m| !avoid.contains(&(m as usize)))
        .collect();
    if roots.is_empty() {
        legal.iter().map(|&e| e as u8).collect()
    } else {
        roots
    }
}

/// The choice before any search: the first root move.
fn first_choice(order: &[u8]) -> Choice {
    Choice {
        edge: order[0] as usize,
        value: 0,
        exact: false,
        depth: 0,
        nodes: 0,
    }
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

    /// Root splitting on 2 and 3 threads, with time to finish: the exact value one thread
    /// finds in mid-game positions, and a chosen move that is worth that value (checked by
    /// an exact search of the move alone).
    #[test]
    fn split_threads_find_the_exact_value_of_one_thread() {
        let long = Duration::from_secs(120);
        let mut searched = 0;
        for b in quiet_positions(45) {
            let geo = b.geometry();
            let (c, r) = (geo.cols(), geo.rows());
            {
                let mut one = PlayTable::new(16, 1);
                let want = choose_move_avoiding(&b, long, long, None, &[], &mut one).unwrap();
                if want.depth == 0 {
                    // One move to play (a forced capture): no search to compare.
                    continue;
                }
                assert!(want.exact);
                searched += 1;
                for threads in [2, 3] {
                    let mut table = PlayTable::new(16, threads).split_always();
                    let got = choose_move_avoiding(&b, long, long, None, &[], &mut table).unwrap();
                    let at = format!("{c}x{r} {:b}, {threads} threads", b.drawn().lo);
                    assert!(got.exact, "{at}");
                    assert_eq!(got.value, want.value, "{at}");
                    let mut check = Solver::new(&b, 16).unwrap();
                    assert_eq!(
                        check.move_value(got.edge as u8, -127, 127, EXACT),
                        got.value,
                        "{at}: edge {}",
                        got.edge
                    );
                }
            }
        }
        assert!(searched >= 10, "only {searched} positions searched");
    }

    /// Mid-game positions with only safe edges drawn (no forced capture), drawn at random.
    fn quiet_positions(seed: u64) -> Vec<Board> {
        use rand::rngs::SmallRng;
        use rand::seq::SliceRandom;
        use rand::{Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut out = Vec::new();
        for (c, r, count, left) in [(3, 3, 8, 14..20), (3, 4, 5, 18..22), (4, 4, 4, 20..23)] {
            let empty = Board::new(c, r).unwrap();
            let geo = empty.geometry().clone();
            for _ in 0..count {
                let mut b = empty.clone();
                let mut edges: Vec<usize> = (0..geo.n_edges()).collect();
                edges.shuffle(&mut rng);
                let keep = rng.gen_range(left.clone());
                for &e in &edges {
                    let safe = geo
                        .edge_boxes(e)
                        .iter()
                        .all(|&x| x == super::super::geometry::GROUND || b.sides(x as usize) < 2);
                    if b.legal_edges().count() > keep && safe {
                        b.play(e).unwrap();
                    }
                }
                out.push(b);
            }
        }
        out
    }

    /// The other moves searched entirely before the first one is done, against guesses
    /// above and below the true value (what a helper does at the start of an iteration):
    /// those that failed against too high a guess are searched again, and the exact best
    /// value comes out every time.
    #[test]
    fn root_moves_searched_against_a_wrong_guess_are_searched_again() {
        let mut tested = 0;
        for b in quiet_positions(46) {
            let mut one = Solver::new(&b, 16).unwrap();
            let order = root_order(&one, &[], &[]);
            if order.len() < 3 {
                continue;
            }
            let want = order
                .iter()
                .map(|&m| one.move_value(m, -127, 127, EXACT))
                .max()
                .unwrap();
            for guess in [want - 3, want, want + 1, want + 4, 100] {
                let share = RootShare::new(&order, guess);
                let mut first = Solver::new(&b, 16).unwrap();
                let mut helper = Solver::new(&b, 16).unwrap();
                std::thread::scope(|scope| {
                    let share = &share;
                    let helper = &mut helper;
                    scope.spawn(move || share.work(helper, EXACT));
                    while share.next.load(Ordering::Relaxed) < order.len() {
                        std::thread::yield_now();
                    }
                    share.first(&mut first, EXACT);
                    share.work(&mut first, EXACT);
                });
                let (v, i) = RootShare::unpack(share.best.load(Ordering::Relaxed));
                assert_eq!(v, want, "{:b}, guess {guess}", b.drawn().lo);
                assert_eq!(one.move_value(order[i], -127, 127, EXACT), want);
                tested += 1;
            }
        }
        assert!(tested >= 50, "only {tested} searches");
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
