//! Exact and depth-limited alpha-beta search on the "unscored" value: the future boxes of
//! the side to move minus the opponent's. Boxes already owned never matter, so one
//! transposition entry serves both players and every score.
//!
//! Captures do not branch freely. A box with three sides is taken at once unless taking it
//! is the last-but-one box of an opened chain (or the last-but-three of an opened loop),
//! where the only alternative worth trying is the double-dealing move that declines the
//! last two (four). This is the classical "take all or all-but-two" theorem; the tests
//! check it against a plain minimax over every move. Both choices end in the same drawn
//! set, so one search decides the offer (`decision`), and a window at or below zero needs
//! none: an offer is worth `>= 0` to its receiver. The same bound caps loony sacrifices
//! (opening a chain or loop) before they are played, and exact bounds are rounded to the
//! parity of the boxes left.
//!
//! Time goes to table misses: nearly every probe of a 512 MB table misses the caches. So
//! a node computes the keys of all its safe children at once, prefetches their buckets
//! and reads any stored bound before searching one (enhanced transposition cutoffs), and
//! the child reuses the key; the table (`table.rs`) packs an entry in 8 bytes and asks for
//! 2 MB pages. Sacrifices (moves that give a box a third side) get the same treatment: the
//! opponent's replies are forced up to a quiet position, or through a loony offer's boxes
//! to the position `decision` would search, so a node plays each out (`sacrifice_outcome`),
//! prefetches where it ends, and lets stored bounds, an exact simple endgame, or the
//! offer's floor (`>= 0`, `>= 1` with an odd number of boxes left) decide the move. The
//! solver stays memory-latency bound; moves are ordered centre-out, which every other
//! order tried lost to. Measurements and what was tried: docs/experiments/dots.md.
use super::chains::{loony_value, LoonyMemo, LOOP};
use super::geometry::{Geometry, GROUND};
use super::symmetry::Symmetries;
use super::table::{Address, Table};
use super::Board;
use crate::search::StopToken;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

/// Depth meaning "search to the end": never decremented, never evaluated.
pub use super::table::EXACT;
/// The solver keeps the drawn edges in one u128 with a marker bit.
pub const MAX_SOLVER_EDGES: usize = 127;

/// Where a position lives in the table, and the symmetry that maps it to its canonical
/// form (for the stored best move).
#[derive(Clone, Copy, Default)]
struct Probe {
    addr: Address,
    sym: usize,
}

/// Where the forced replies to a move that gives a box a third side lead.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OutcomeKind {
    /// A quiet position, the opponent still to move.
    Quiet,
    /// A loony offer to the opponent whose boxes, once taken, leave a quiet position P.
    Offer,
    /// A loony offer after which more is to take.
    OfferElsewhere,
    /// Offers in several places.
    Other,
}

#[derive(Clone, Copy)]
struct Outcome {
    mv: u8,
    kind: OutcomeKind,
    /// Boxes the opponent takes before any offer.
    captured: u8,
    /// Boxes at stake in the offer.
    stake: u8,
    /// An odd number of boxes is left at the offer (so it is worth >= 1 exactly).
    odd_offer: bool,
    /// The value of the quiet position (for its player to move), when known without
    /// the table.
    exact: Option<i32>,
    /// Undrawn edges of the quiet position.
    undrawn: u8,
    probe: Probe,
    /// The quiet position's images, when `probe` was derived from the node's (`narrow`).
    images: [u64; 8],
}

/// Strokes `decision` takes at most before it searches.
const DECISION_PATH: usize = 8;

enum Capture {
    None,
    Free(u8),
    /// Take `.0`, or play the double-dealing `.1`.
    Decision(u8, u8),
    Multi([u8; 64], usize),
}

pub struct Solver {
    geo: Geometry,
    n_boxes: usize,
    full: u128,
    drawn: u128,
    sides: [u8; 64],
    by_sides: [u64; 5],
    box_mask: [u128; 64],
    /// Edges ordered from the centre outwards.
    order: Vec<u8>,
    /// For each ground edge, the other ground edges of its box with a lower index: only
    /// the first undrawn one of a box is generated.
    twins: Vec<u128>,
    sym: Symmetries,
    tt: Table,
    memo: LoonyMemo,
    /// The key of the next quiet child, computed by its parent (see `search_quiet`).
    pending: Option<Probe>,
    /// `pending` is the key of the quiet position after this node's forced captures.
    pending_after_captures: bool,
    /// The images (`Symmetries::images`) of the position `pending` is the key of, when
    /// the parent derived them from its own.
    pending_images: Option<[u64; 8]>,
    pub nodes: u64,
    /// Search with the copy compiled for popcnt and BMI (`search_fast`).
    fast: bool,
    stop: Option<StopToken>,
    deadline: Option<Instant>,
    stopped: bool,
    /// Set when a depth-limited search used the heuristic evaluation.
    pub hit_horizon: bool,
    /// Positions other threads of a parallel solve are searching (`share_busy`), and the
    /// fewest undrawn edges of a position that is marked or deferred there.
    busy: Option<Arc<Busy>>,
    busy_min: u32,
}

/// Marks of the positions being searched, one word per slot (the position's address, as
/// one number), for the threads of a parallel solve: a thread that meets a child another
/// thread is searching puts it off until its other moves are done (Kerrigan's simplified
/// ABDADA), so threads working on one question spread over different subtrees. A mark
/// lost to a collision only costs that spreading, never a value.
pub struct Busy(Vec<AtomicU64>);

impl Busy {
    /// 2^`bits` slots.
    pub fn new(bits: u32) -> Busy {
        Busy((0..1usize << bits).map(|_| AtomicU64::new(0)).collect())
    }

    #[inline(always)]
    fn slot(&self, tag: u64) -> &AtomicU64 {
        &self.0[(tag >> 40) as usize & (self.0.len() - 1)]
    }

    #[inline(always)]
    fn is_busy(&self, tag: u64) -> bool {
        self.slot(tag).load(Relaxed) == tag
    }
}

impl Solver {
    /// A solver for the position on `board`, with 2^`tt_bits` table entries. `None` if the
    /// board has too many edges for the solver's u128 (only 8x8).
    pub fn new(board: &Board, tt_bits: u32) -> Option<Solver> {
        let n = board.geometry().n_edges();
        if n > MAX_SOLVER_EDGES {
            return None;
        }
        Solver::with_table(board, Table::new(tt_bits, n)).ok()
    }

    /// A solver for the position on `board` searching with `tt`, a table made for this
    /// board's geometry (entries of earlier searches of the same geometry stay valid: a
    /// value depends only on the drawn set). Gives the table back if the board is too big.
    pub fn with_table(board: &Board, tt: Table) -> Result<Solver, Table> {
        let geo = board.geometry().clone();
        let n = geo.n_edges();
        if n > MAX_SOLVER_EDGES {
            return Err(tt);
        }
        let mut box_mask = [0u128; 64];
        for (b, m) in box_mask.iter_mut().enumerate().take(geo.n_boxes()) {
            *m = geo.box_edges(b).iter().fold(0, |m, &e| m | 1 << e);
        }
        let order = centre_out(&geo, 0);
        let twins = (0..n)
            .map(|e| {
                let [p, q] = geo.edge_boxes(e);
                if q != GROUND {
                    return 0;
                }
                geo.box_edges(p as usize)
                    .iter()
                    .filter(|&&f| (f as usize) < e && geo.edge_boxes(f as usize)[1] == GROUND)
                    .fold(0u128, |m, &f| m | 1 << f)
            })
            .collect();
        let mut s = Solver {
            sym: Symmetries::new(&geo),
            n_boxes: geo.n_boxes(),
            full: (1u128 << n) - 1,
            drawn: 0,
            sides: [0; 64],
            by_sides: [0; 5],
            box_mask,
            order,
            twins,
            tt,
            memo: LoonyMemo::default(),
            pending: None,
            pending_after_captures: false,
            pending_images: None,
            nodes: 0,
            fast: cpu_is_fast(),
            stop: None,
            deadline: None,
            stopped: false,
            hit_horizon: false,
            busy: None,
            busy_min: u32::MAX,
            geo,
        };
        s.by_sides[0] = if s.n_boxes == 64 {
            u64::MAX
        } else {
            (1 << s.n_boxes) - 1
        };
        for e in 0..n {
            if board.is_drawn(e) {
                s.apply(e as u8);
            }
        }
        Ok(s)
    }

    /// Orders the moves the way search thread `variant` of a parallel solve does: edges
    /// at one distance from the centre come in another rotation for each variant, so
    /// threads on the same question take different paths through it at equal cost of
    /// move ordering. Variant 0 is the single-threaded order.
    pub fn set_variant(&mut self, variant: usize) {
        self.order = centre_out(&self.geo, variant);
    }

    /// Joins the threads that mark in `busy` the positions they search, at positions of
    /// `min_undrawn` undrawn edges or more (near the root, where subtrees are big enough
    /// to be worth spreading).
    pub fn share_busy(&mut self, busy: Arc<Busy>, min_undrawn: u32) {
        self.busy = Some(busy);
        self.busy_min = min_undrawn.max(1);
    }

    /// Another handle on this solver's table, for a solver on another thread.
    pub fn share_table(&self) -> Table {
        self.tt.share()
    }

    /// The table, for the next search of the same geometry.
    pub fn into_table(self) -> Table {
        self.tt
    }

    /// Stops the search when `flag` is raised or at `deadline`; a stopped search's results
    /// are meaningless and `stopped()` says so.
    pub fn set_limits(&mut self, flag: Option<StopToken>, deadline: Option<Instant>) {
        self.stop = flag;
        self.deadline = deadline;
        self.stopped = false;
    }
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Boxes still unclaimed.
    pub fn remaining(&self) -> i32 {
        (self.n_boxes - self.by_sides[4].count_ones() as usize) as i32
    }
    pub fn undrawn(&self) -> usize {
        (self.full & !self.drawn).count_ones() as usize
    }

    #[inline(always)]
    fn apply(&mut self, e: u8) -> i32 {
        self.drawn |= 1 << e;
        let mut done = 0;
        for b in self.geo.edge_boxes(e as usize) {
            if b != GROUND {
                let s = self.sides[b as usize] as usize;
                self.by_sides[s] ^= 1 << b;
                self.by_sides[s + 1] ^= 1 << b;
                self.sides[b as usize] += 1;
                done += (s == 3) as i32;
            }
        }
        done
    }

    #[inline(always)]
    fn undo(&mut self, e: u8) {
        self.drawn &= !(1 << e);
        for b in self.geo.edge_boxes(e as usize) {
            if b != GROUND {
                self.sides[b as usize] -= 1;
                let s = self.sides[b as usize] as usize;
                self.by_sides[s] ^= 1 << b;
                self.by_sides[s + 1] ^= 1 << b;
            }
        }
    }

    #[inline(always)]
    fn is_safe(&self, e: u8) -> bool {
        let low = self.by_sides[0] | self.by_sides[1];
        self.geo
            .edge_boxes(e as usize)
            .iter()
            .all(|&b| b == GROUND || low >> b & 1 != 0)
    }

    #[inline(always)]
    fn other_missing(&self, b: u8, not: u8) -> u8 {
        (self.box_mask[b as usize] & !self.drawn & !(1u128 << not)).trailing_zeros() as u8
    }

    /// How a three-sided box `b` may be handled (see the module comment).
    #[inline(always)]
    fn classify(&self, b: u8) -> Capture {
        let e = (self.box_mask[b as usize] & !self.drawn).trailing_zeros() as u8;
        let n = self.geo.across(e as usize, b);
        if n == GROUND || self.sides[n as usize] != 2 {
            return Capture::Free(e);
        }
        let f = self.other_missing(n, e);
        let m = self.geo.across(f as usize, n);
        if m == GROUND || self.sides[m as usize] <= 1 {
            return Capture::Decision(e, f);
        }
        if self.sides[m as usize] == 3 {
            return Capture::Free(e);
        }
        let g = self.other_missing(m, f);
        let k = self.geo.across(g as usize, m);
        if k != GROUND && self.sides[k as usize] == 3 {
            // Four boxes with both ends open (a loop remnant): decline with the middle edge.
            return Capture::Decision(e, f);
        }
        Capture::Free(e)
    }

    #[inline(always)]
    fn find_capture(&self) -> Capture {
        let mut three = self.by_sides[3];
        if three == 0 {
            return Capture::None;
        }
        let mut takes = [0u8; 64];
        let mut deals = [0u8; 64];
        let mut n = 0;
        while three != 0 {
            let b = three.trailing_zeros() as u8;
            three &= three - 1;
            match self.classify(b) {
                Capture::Free(e) => return Capture::Free(e),
                Capture::Decision(t, d) => {
                    takes[n] = t;
                    deals[n] = d;
                    n += 1;
                }
                _ => unreachable!("classify returns Free or Decision"),
            }
        }
        if n == 1 || (n == 2 && deals[0] == deals[1]) {
            Capture::Decision(takes[0], deals[0])
        } else {
            Capture::Multi(takes, n)
        }
    }

    #[inline(always)]
    fn check_stop(&mut self) -> bool {
        if self.nodes & 1023 == 0 {
            let flag = self.stop.as_ref().is_some_and(StopToken::is_stopped);
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            self.stopped |= flag || late;
        }
        self.stopped
    }

    /// Value for the side to move, within the window (fail-soft).
    #[inline]
    pub fn search(&mut self, alpha: i32, beta: i32, depth: u8) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.fast {
            // SAFETY: `fast` is set only when the CPU has the features (`cpu_is_fast`).
            return unsafe { self.search_fast(alpha, beta, depth) };
        }
        self.search_plain(alpha, beta, depth)
    }

    #[inline(never)]
    fn search_plain(&mut self, alpha: i32, beta: i32, depth: u8) -> i32 {
        self.search_body(alpha, beta, depth)
    }

    /// The same search compiled with popcnt and BMI: a u128 popcount is two instructions
    /// instead of some thirty on baseline x86-64. The whole recursion (`search_body` and
    /// everything it calls per node) is inlined here, so it never leaves this copy.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    unsafe fn search_fast(&mut self, alpha: i32, beta: i32, depth: u8) -> i32 {
        self.search_body(alpha, beta, depth)
    }

    #[inline(always)]
    fn search_body(&mut self, alpha: i32, beta: i32, depth: u8) -> i32 {
        self.nodes += 1;
        let pending = self.pending.take();
        let after_captures = std::mem::take(&mut self.pending_after_captures);
        let pending_images = self.pending_images.take();
        if self.check_stop() {
            return 0;
        }
        let mut taken = [0u8; 64];
        let mut n = 0;
        let mut gained = 0;
        let cap = loop {
            match self.find_capture() {
                Capture::Free(e) => {
                    gained += self.apply(e);
                    taken[n] = e;
                    n += 1;
                }
                other => break other,
            }
        };
        let (a, b) = (alpha - gained, beta - gained);
        let v = match cap {
            Capture::None => {
                let usable = (n > 0) == after_captures;
                self.search_quiet(
                    a,
                    b,
                    depth,
                    pending.filter(|_| usable),
                    pending_images.filter(|_| usable),
                )
            }
            Capture::Decision(take, _) => self.decision(take, b, depth),
            // Several offers: taking from each in turn ends in a decision, worth >= 0.
            Capture::Multi(..) if b <= 0 => 0,
            Capture::Multi(takes, k) => {
                let mut best = i32::MIN;
                for &t in &takes[..k] {
                    let c = self.apply(t);
                    let v = c + self.search(a.max(best) - c, b - c, depth);
                    self.undo(t);
                    best = best.max(v);
                    if best >= b {
                        break;
                    }
                }
                best
            }
            Capture::Free(_) => unreachable!(),
        };
        for &e in taken[..n].iter().rev() {
            self.undo(e);
        }
        gained + v
    }

    /// An exact value has the parity of the boxes left (mine + theirs = left, so
    /// mine - theirs = left mod 2): a fail-soft bound moves to the nearest value of that
    /// parity on its own side, which lets a bound answer windows one box higher or lower
    /// (MTD(f)'s second probe, and siblings whose captures shifted the window).
    #[inline(always)]
    fn round_to_parity(&self, v: i32, alpha: i32, beta: i32) -> i32 {
        if (v - self.remaining()) & 1 == 0 {
            v
        } else if v <= alpha {
            v - 1
        } else if v >= beta {
            v + 1
        } else {
            v
        }
    }

    /// A loony offer: take everything (the first stroke is `take`), or decline the last
    /// two boxes (four in a loop remnant) with the double-dealing edge. Both end in the
    /// same drawn set P (the decliner draws the edge the taker's last stroke would, the
    /// opponent draws the rest), with the same player to move only after taking. With `c`
    /// the boxes at stake, taking is worth `c + V(P)` and declining `-(c + V(P))`, so one
    /// search of P decides: the value is `|c + V(P)|`, never below zero (the loony-move
    /// theorem), and a window at or below zero is answered without any search.
    #[inline(always)]
    fn decision(&mut self, take: u8, beta: i32, depth: u8) -> i32 {
        if beta <= 0 {
            return 0;
        }
        if depth == EXACT && beta == 1 && self.remaining() % 2 == 1 {
            return 1;
        }
        let mut path = [0u8; DECISION_PATH];
        let mut k = 0;
        let mut c = 0;
        let mut e = take;
        loop {
            c += self.apply(e);
            path[k] = e;
            k += 1;
            match self.find_capture() {
                Capture::Free(x) if k < path.len() => e = x,
                _ => break,
            }
        }
        // |c + V| >= beta iff V >= beta - c or V <= -beta - c; between, V is exact.
        let v = self.search(-beta - c, beta - c, depth);
        for &e in path[..k].iter().rev() {
            self.undo(e);
        }
        if v >= beta - c {
            v + c
        } else if v <= -beta - c {
            -(v + c)
        } else {
            (v + c).abs()
        }
    }

    /// The value of a simple loony endgame (every unclaimed box has two sides), exactly.
    #[inline(always)]
    fn simple_value(&mut self) -> i32 {
        let mut comps = [0u8; 64];
        let mut k = 0;
        let mut seen = self.by_sides[4];
        let mut two = self.by_sides[2];
        while two != 0 {
            let b = two.trailing_zeros() as u8;
            two &= two - 1;
            if seen >> b & 1 != 0 {
                continue;
            }
            seen |= 1 << b;
            let e0 = (self.box_mask[b as usize] & !self.drawn).trailing_zeros() as u8;
            let e1 = self.other_missing(b, e0);
            let mut len = 1u8;
            let mut is_loop = false;
            for first in [e0, e1] {
                let (mut cur, mut via) = (b, first);
                loop {
                    let nb = self.geo.across(via as usize, cur);
                    if nb == GROUND {
                        break;
                    }
                    if nb == b {
                        is_loop = true;
                        break;
                    }
                    seen |= 1 << nb;
                    len += 1;
                    via = self.other_missing(nb, via);
                    cur = nb;
                }
                if is_loop {
                    break;
                }
            }
            comps[k] = if is_loop { LOOP + len } else { len };
            k += 1;
        }
        loony_value(&comps[..k], &mut self.memo)
    }

    /// Unsafe moves that need no search. Every two-sided box lies on one maximal *chain*
    /// of two-sided boxes whose ends lead to the ground or to a joint (a box with at most
    /// one side), or on a *loop* of two-sided boxes only.
    ///
    /// - A chain of three or more: opening it at either end gives the opponent the same
    ///   two choices up to isomorphism (take all, which draws both end edges; or decline the
    ///   last two, which also draws both ends and leaves one domino), and opening it inside
    ///   gives those same positions (take one part, take or decline in the other) plus more.
    ///   So one end edge represents the whole chain.
    /// - A 2-chain: one end edge (both ends offer the same choices) and the middle edge
    ///   (the hard-hearted handout, which cannot be declined).
    /// - A single box: its capture is forced (see `classify`), so either edge gives the
    ///   same position after it.
    /// - A loop: all openings are alike.
    /// - Isolated components (chains with both ends on the ground, and loops) of the same
    ///   kind and length are interchangeable: only the first is searched.
    ///
    /// Returns the mask of edges to skip; the brute-force tests check it. Also marks the
    /// kept loony moves with their bound: opening a chain of `n >= 2` at an end lets the
    /// opponent take `n - 2` and then choose between the last two (worth `>= 0`, see
    /// `decision`), so the opener gets at most `-(n - 2)`; a loop of `n`, at most `-(n - 4)`.
    /// A chain whose two ends meet one joint is left unbounded: the opening edge gives that
    /// joint a side and can extend the chain past it.
    #[inline(always)]
    fn dominated_sacrifices(&self, loony: &mut [i8; 128]) -> (u128, u128) {
        let mut skip = 0u128;
        let mut bounded = 0u128;
        let mut seen_kinds = 0u128;
        let mut todo = self.by_sides[2];
        while todo != 0 {
            let b = todo.trailing_zeros() as u8;
            todo &= todo - 1;
            let e0 = (self.box_mask[b as usize] & !self.drawn).trailing_zeros() as u8;
            let e1 = self.other_missing(b, e0);
            let mut edges = 1u128 << e0 | 1u128 << e1;
            let mut len = 1u8;
            let mut grounded = 0;
            let mut is_loop = false;
            let mut ends = [e0, e1];
            let mut beyond = [GROUND; 2];
            'walk: for (side, first) in [e0, e1].into_iter().enumerate() {
                let (mut cur, mut via) = (b, first);
                loop {
                    let nb = self.geo.across(via as usize, cur);
                    if nb == b {
                        is_loop = true;
                        break 'walk;
                    }
                    if nb == GROUND || self.sides[nb as usize] != 2 {
                        ends[side] = via;
                        beyond[side] = nb;
                        grounded += (nb == GROUND) as u32;
                        break;
                    }
                    todo &= !(1u64 << nb);
                    len += 1;
                    via = self.other_missing(nb, via);
                    edges |= 1u128 << via;
                    cur = nb;
                }
            }
            if is_loop || grounded == 2 {
                let kind = if is_loop { 64 + len as u32 } else { len as u32 };
                if seen_kinds >> kind & 1 != 0 {
                    skip |= edges;
                    continue;
                }
                seen_kinds |= 1u128 << kind;
            }
            let keep = if len == 2 && !is_loop {
                edges & !(1u128 << ends[1])
            } else {
                1u128 << ends[0]
            };
            skip |= edges & !keep;
            let bound = if is_loop {
                Some(4 - len as i8)
            } else if len >= 2 && (beyond[0] == GROUND || beyond[0] != beyond[1]) {
                Some(2 - len as i8)
            } else {
                None
            };
            if let Some(bound) = bound {
                bounded |= 1u128 << ends[0];
                loony[ends[0] as usize] = bound;
            }
        }
        (skip, bounded)
    }

    /// Plays `m` (which gives a box a third side) and the opponent's forced captures as
    /// `search` would, and on an offer the boxes `decision` takes before its search; notes
    /// where they end, and takes them all back.
    /// `images`: this position's images (`Symmetries::images`), if `narrow`; the key of
    /// where the play-out ends is derived from them.
    #[inline(always)]
    fn sacrifice_outcome(&mut self, m: u8, images: &[u64; 8], narrow: bool) -> Outcome {
        let parent = self.drawn;
        let mut path = [0u8; 64];
        let mut n = 0;
        let mut captured = 0;
        self.apply(m);
        let cap = loop {
            match self.find_capture() {
                Capture::Free(e) => {
                    captured += self.apply(e);
                    path[n] = e;
                    n += 1;
                }
                other => break other,
            }
        };
        let odd_offer = self.remaining() % 2 == 1;
        let mut stake = 0;
        let kind = match cap {
            Capture::None => OutcomeKind::Quiet,
            Capture::Decision(take, _) => {
                let first = n;
                let mut e = take;
                let quiet = loop {
                    stake += self.apply(e);
                    path[n] = e;
                    n += 1;
                    match self.find_capture() {
                        Capture::Free(x) if n - first < DECISION_PATH => e = x,
                        Capture::None => break true,
                        _ => break false,
                    }
                };
                if quiet {
                    OutcomeKind::Offer
                } else {
                    OutcomeKind::OfferElsewhere
                }
            }
            _ => OutcomeKind::Other,
        };
        let mut probe = Probe::default();
        let mut exact = None;
        let mut out = [0u64; 8];
        if matches!(kind, OutcomeKind::Quiet | OutcomeKind::Offer) {
            // `search_quiet` answers these two without the table.
            if self.drawn == self.full {
                exact = Some(0);
            } else if self.by_sides[0] | self.by_sides[1] == 0 {
                exact = Some(self.simple_value());
            } else {
                probe = if narrow {
                    let (key, sym) = self.sym.extend_images(images, parent, self.drawn, &mut out);
                    Probe {
                        addr: self.tt.address(key),
                        sym,
                    }
                } else {
                    self.key_of(self.drawn)
                };
            }
        }
        let undrawn = (self.full & !self.drawn).count_ones() as u8;
        for &e in path[..n].iter().rev() {
            self.undo(e);
        }
        self.undo(m);
        Outcome {
            mv: m,
            kind,
            captured: captured as u8,
            stake: stake as u8,
            odd_offer,
            exact,
            undrawn,
            probe,
            images: out,
        }
    }

    /// The table address of the drawn set `drawn`.
    #[inline(always)]
    fn key_of(&self, drawn: u128) -> Probe {
        let (key, sym) = self.sym.canonical(drawn);
        Probe {
            addr: self.tt.address(key),
            sym,
        }
    }

    /// Hands the key and images of the child after safe move `m` to that child.
    #[inline(always)]
    fn set_pending_child(&mut self, images: &[u64; 8], m: u8) {
        let mut child = [0u64; 8];
        let (key, sym) = self
            .sym
            .child_images(images, self.drawn, m as usize, &mut child);
        self.pending = Some(Probe {
            addr: self.tt.address(key),
            sym,
        });
        self.pending_images = Some(child);
    }

    /// Searches child `m` (a quiet move) and folds it into `best`; true on a cutoff.
    #[inline(always)]
    fn try_move(&mut self, m: u8, alpha: i32, beta: i32, depth: u8, best: &mut (i32, u8)) -> bool {
        self.apply(m);
        let v = -self.search(-beta, -alpha.max(best.0), depth);
        self.undo(m);
        if v > best.0 {
            *best = (v, m);
        }
        best.0 >= beta
    }

    /// `pending`: this position's table address if the parent computed it already, and
    /// `pending_images` its images if the parent derived them.
    #[inline(always)]
    fn search_quiet(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: u8,
        pending: Option<Probe>,
        pending_images: Option<[u64; 8]>,
    ) -> i32 {
        if self.drawn == self.full {
            return 0;
        }
        let undrawn = self.full & !self.drawn;
        let all_two = (self.by_sides[0] | self.by_sides[1]) == 0;
        if all_two {
            // No joints and nothing to take: only independent chains and loops remain.
            return self.simple_value();
        }
        if depth == 0 {
            self.hit_horizon = true;
            return self.evaluate();
        }
        // The images of this position give its own key and its children's.
        let mut images = pending_images.unwrap_or([0u64; 8]);
        let mut have_images = pending_images.is_some();
        let here = match pending {
            Some(p) => p,
            None => {
                have_images = self.sym.images(self.drawn, &mut images);
                if have_images {
                    let (key, sym) = Symmetries::least(&images, self.sym.count());
                    Probe {
                        addr: self.tt.address(key),
                        sym,
                    }
                } else {
                    self.key_of(self.drawn)
                }
            }
        };
        let mut hint = u8::MAX;
        if let Some(entry) = self.tt.get(&here.addr) {
            if entry.depth >= depth {
                let (lo, hi) = (entry.lower, entry.upper);
                // A bound from a depth-limited search carries its horizon with it, unless
                // that depth covered every edge left (each ply draws one).
                let horizon = entry.depth != EXACT && (entry.depth as u32) < undrawn.count_ones();
                if lo >= beta || lo == hi {
                    self.hit_horizon |= horizon;
                    return lo;
                }
                if hi <= alpha {
                    self.hit_horizon |= horizon;
                    return hi;
                }
                self.hit_horizon |= horizon;
                alpha = alpha.max(lo);
                beta = beta.min(hi);
            }
            if let Some(mv) = entry.mv {
                let m = self.sym.map_edge(here.sym, mv as usize, false) as u8;
                if undrawn >> m & 1 != 0 {
                    hint = m;
                }
            }
        }
        let alpha0 = alpha;
        let child_depth = if depth == EXACT { EXACT } else { depth - 1 };
        // Marks this position busy, and lets children be put off, near the root of a
        // parallel solve.
        let mark = match &self.busy {
            Some(busy) if undrawn.count_ones() >= self.busy_min => {
                let tag = here.addr.tag();
                busy.slot(tag).store(tag, Relaxed);
                Some(tag)
            }
            _ => None,
        };
        let defer_children = mark.is_some() && undrawn.count_ones() > self.busy_min;
        let mut best = (i32::MIN, u8::MAX);
        // Moves skipped because the table bounds them at or below the window: the largest
        // such bound, still owed to a fail-low result.
        let mut skipped_upper = i32::MIN;
        // Edges next to a two-sided box give it a third side (no box has three here).
        let mut unsafe_edges = 0u128;
        let mut two = self.by_sides[2];
        while two != 0 {
            unsafe_edges |= self.box_mask[two.trailing_zeros() as usize];
            two &= two - 1;
        }
        unsafe_edges &= undrawn;
        'moves: {
            // The table's move first.
            if hint != u8::MAX {
                if have_images && unsafe_edges >> hint & 1 == 0 {
                    self.set_pending_child(&images, hint);
                }
                let cut = self.try_move(hint, alpha, beta, child_depth, &mut best);
                if self.stopped {
                    self.unmark(mark);
                    return 0;
                }
                if cut {
                    break 'moves;
                }
            }
            // Safe moves, centre first. Their children are quiet positions whose keys are
            // known now: prefetch all their buckets, then let any stored bound decide a
            // child without a search (enhanced transposition cutoff).
            let safe = undrawn & !unsafe_edges;
            let mut moves = [0u8; 128];
            // Uninitialised: zeroing 3 KB per node showed in profiles.
            let mut probes = [const { MaybeUninit::<Probe>::uninit() }; 128];
            let mut k = 0;
            let narrow = have_images || self.sym.images(self.drawn, &mut images);
            for &m in &self.order {
                if safe >> m & 1 != 0 && m != hint && self.twins[m as usize] & undrawn == 0 {
                    let p = if narrow {
                        let (key, sym) = self.sym.child_key(&images, self.drawn, m as usize);
                        Probe {
                            addr: self.tt.address(key),
                            sym,
                        }
                    } else {
                        self.key_of(self.drawn | 1 << m)
                    };
                    self.tt.prefetch(&p.addr);
                    moves[k] = m;
                    probes[k].write(p);
                    k += 1;
                }
            }
            // SAFETY (both reads below): entries 0..k were written above.
            let probe = |i: usize| unsafe { probes[i].assume_init() };
            let mut closed = 0u128;
            for (i, &m) in moves[..k].iter().enumerate() {
                let Some(en) = self.tt.get(&probe(i).addr) else {
                    continue;
                };
                if en.depth < child_depth {
                    continue;
                }
                let horizon = en.depth != EXACT && (en.depth as u32) < undrawn.count_ones() - 1;
                let (lo, hi) = (-en.upper, -en.lower);
                if en.upper < 127 && lo > best.0 {
                    self.hit_horizon |= horizon;
                    best = (lo, m);
                    if best.0 >= beta {
                        break 'moves;
                    }
                }
                if en.lower > -127 && hi <= alpha.max(best.0) {
                    self.hit_horizon |= horizon;
                    closed |= 1 << i;
                    skipped_upper = skipped_upper.max(hi);
                }
            }
            // In a parallel solve, children another thread is searching come last (a
            // second pass), once this node has a value.
            let mut deferred = 0u128;
            for pass in 0..2 {
                for (i, &m) in moves[..k].iter().enumerate() {
                    if pass == 0 {
                        if closed >> i & 1 != 0 {
                            continue;
                        }
                        if defer_children
                            && best.0 != i32::MIN
                            && self
                                .busy
                                .as_ref()
                                .is_some_and(|b| b.is_busy(probe(i).addr.tag()))
                        {
                            deferred |= 1 << i;
                            continue;
                        }
                    } else if deferred >> i & 1 == 0 {
                        continue;
                    }
                    if narrow {
                        self.set_pending_child(&images, m);
                    } else {
                        self.pending = Some(probe(i));
                    }
                    let cut = self.try_move(m, alpha, beta, child_depth, &mut best);
                    if self.stopped {
                        self.unmark(mark);
                        return 0;
                    }
                    if cut {
                        break 'moves;
                    }
                }
                if deferred == 0 {
                    break;
                }
            }
            // Moves that give a box a third side, without the dominated ones. The replies
            // to each are forced up to a quiet position or a loony offer: find those first,
            // prefetch their buckets, and let the table or the offer's bound decide a move
            // without a search, as for the safe moves.
            let mut loony = [0i8; 128];
            let (dominated, bounded) = self.dominated_sacrifices(&mut loony);
            let risky = unsafe_edges & !dominated;
            let mut outcomes = [const { MaybeUninit::<Outcome>::uninit() }; 128];
            let mut k = 0;
            for i in 0..self.order.len() {
                let m = self.order[i];
                if risky >> m & 1 == 0 || m == hint || self.twins[m as usize] & undrawn != 0 {
                    continue;
                }
                if bounded >> m & 1 != 0 {
                    let bound = loony[m as usize] as i32;
                    if bound <= alpha.max(best.0) {
                        skipped_upper = skipped_upper.max(bound);
                        continue;
                    }
                }
                let o = self.sacrifice_outcome(m, &images, narrow);
                if o.exact.is_none() && matches!(o.kind, OutcomeKind::Quiet | OutcomeKind::Offer) {
                    self.tt.prefetch(&o.probe.addr);
                }
                outcomes[k].write(o);
                k += 1;
            }
            // SAFETY (both reads below): entries 0..k were written above.
            let outcome = |i: usize| unsafe { outcomes[i].assume_init() };
            let mut closed = 0u128;
            for i in 0..k {
                let o = outcome(i);
                if o.kind == OutcomeKind::Other {
                    continue;
                }
                // Bounds on the value of the quiet position reached, for its player to move.
                let (mut vl, mut vu) = (i32::MIN / 2, i32::MAX / 2);
                if let Some(v) = o.exact {
                    (vl, vu) = (v, v);
                } else if o.kind != OutcomeKind::OfferElsewhere {
                    if let Some(en) = self.tt.get(&o.probe.addr) {
                        if en.depth >= child_depth {
                            let horizon = en.depth != EXACT && (en.depth as u32) < o.undrawn as u32;
                            self.hit_horizon |= horizon;
                            if en.lower > -127 {
                                vl = en.lower;
                            }
                            if en.upper < 127 {
                                vu = en.upper;
                            }
                        }
                    }
                }
                let c = o.captured as i32;
                // The opponent's gain beyond `c`: V itself, or an offer's |stake + V|.
                let (gl, gu) = if o.kind == OutcomeKind::Quiet {
                    (vl, vu)
                } else {
                    let st = o.stake as i32;
                    let (a, b) = (st + vl, st + vu);
                    let lo = if a > 0 {
                        a
                    } else if b < 0 {
                        -b
                    } else {
                        0
                    };
                    let lo = if o.odd_offer && depth == EXACT {
                        lo.max(1)
                    } else {
                        lo
                    };
                    (lo, a.abs().max(b.abs()))
                };
                let (lo, hi) = (-c - gu, -c - gl);
                if gu < i32::MAX / 4 && lo > best.0 {
                    best = (lo, o.mv);
                    if best.0 >= beta {
                        break 'moves;
                    }
                }
                if hi <= alpha.max(best.0) {
                    closed |= 1 << i;
                    skipped_upper = skipped_upper.max(hi);
                }
            }
            for i in 0..k {
                if closed >> i & 1 != 0 {
                    continue;
                }
                let o = outcome(i);
                if o.kind == OutcomeKind::Quiet && o.exact.is_none() {
                    self.pending = Some(o.probe);
                    self.pending_after_captures = true;
                    if narrow {
                        self.pending_images = Some(o.images);
                    }
                }
                let cut = self.try_move(o.mv, alpha, beta, child_depth, &mut best);
                if self.stopped {
                    self.unmark(mark);
                    return 0;
                }
                if cut {
                    break 'moves;
                }
            }
        }
        let (best, best_move) = best;
        let best = if best <= alpha0 {
            best.max(skipped_upper)
        } else {
            best
        };
        let best = if depth == EXACT {
            self.round_to_parity(best, alpha0, beta)
        } else {
            best
        };
        let mv = if best_move == u8::MAX {
            u8::MAX
        } else {
            self.sym.map_edge(here.sym, best_move as usize, true) as u8
        };
        self.tt.put(&here.addr, best, alpha0, beta, depth, mv);
        self.unmark(mark);
        best
    }

    /// Clears the mark `search_quiet` set, unless another thread's mark replaced it.
    #[inline(always)]
    fn unmark(&self, mark: Option<u64>) {
        if let (Some(tag), Some(busy)) = (mark, &self.busy) {
            let _ = busy.slot(tag).compare_exchange(tag, 0, Relaxed, Relaxed);
        }
    }

    /// Heuristic value at the horizon: play safe moves greedily until none remain; whoever
    /// then has to open the first component gets the loony value of what is left (joints
    /// ignored), the other player its negation. Long-chain parity thus decides the sign.
    fn evaluate(&mut self) -> i32 {
        let mut played = [0u8; 128];
        let mut k = 0;
        for i in 0..self.order.len() {
            let m = self.order[i];
            if self.drawn >> m & 1 == 0 && self.is_safe(m) {
                self.apply(m);
                played[k] = m;
                k += 1;
            }
        }
        let sides = self.sides;
        let drawn = self.drawn;
        let d =
            super::chains::decompose(&self.geo, &sides[..self.n_boxes], |e| drawn >> e & 1 != 0);
        let comps = d.components();
        let v = loony_value(&comps, &mut self.memo);
        for &m in played[..k].iter().rev() {
            self.undo(m);
        }
        let rem = self.remaining();
        let v = v.clamp(-rem, rem);
        if k % 2 == 0 {
            v
        } else {
            -v
        }
    }

    /// Exact value for the side to move, by MTD(f) null-window probes.
    pub fn solve(&mut self) -> i32 {
        let rem = self.remaining();
        let (mut lower, mut upper) = (-rem, rem);
        // The first guess: 0, or -1 when an odd number of boxes is left (exact values have
        // that parity, and 0 would first ask whether the value is at least +1). Rounding
        // down searched fewer nodes on every odd board tried (docs/experiments/dots.md).
        let mut g = -(rem & 1);
        while lower < upper {
            let beta = if g == lower { g + 1 } else { g };
            g = self.search(beta - 1, beta, EXACT);
            if self.stopped {
                return 0;
            }
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
        }
        g
    }

    /// The moves worth considering here, under the capture rules.
    pub fn root_moves(&self) -> Vec<u8> {
        match self.find_capture() {
            Capture::Free(e) => vec![e],
            Capture::Decision(t, d) => vec![t, d],
            Capture::Multi(t, n) => t[..n].to_vec(),
            Capture::None => {
                let undrawn = self.full & !self.drawn;
                let mut v: Vec<u8> = self
                    .order
                    .iter()
                    .copied()
                    .filter(|&m| undrawn >> m & 1 != 0)
                    .collect();
                v.sort_by_key(|&m| !self.is_safe(m));
                v
            }
        }
    }

    /// The value of playing `m` (any legal edge), searched within `(alpha, beta)` to `depth`.
    pub fn move_value(&mut self, m: u8, alpha: i32, beta: i32, depth: u8) -> i32 {
        let c = self.apply(m);
        let v = if c > 0 {
            c + self.search(alpha - c, beta - c, depth)
        } else {
            -self.search(-beta, -alpha, depth)
        };
        self.undo(m);
        v
    }

    /// Exact value and a best edge (None only when the board is full).
    pub fn best_move(&mut self) -> (i32, Option<usize>) {
        let v = self.solve();
        if self.stopped {
            return (0, None);
        }
        self.move_of_value(v)
    }

    /// A best edge when the exact value `v` is known (from `solve`, or a parallel solve on
    /// this solver's table, which then answers most of the probes).
    pub fn move_of_value(&mut self, v: i32) -> (i32, Option<usize>) {
        for m in self.root_moves() {
            let x = self.move_value(m, v - 1, v, EXACT);
            if self.stopped {
                return (0, None);
            }
            if x >= v {
                return (v, Some(m as usize));
            }
        }
        (v, None)
    }
}

/// The edges ordered from the centre outwards; `variant` rotates each group of edges at
/// equal distance by that many places (see `Solver::set_variant`).
fn centre_out(geo: &Geometry, variant: usize) -> Vec<u8> {
    // Twice the offsets from the centre, squared: integers, so ties are exact.
    let centre = |e: usize| {
        let name = geo.edge_dots(e);
        let mx = (name.from.col + name.to.col) as i64 - geo.cols() as i64;
        let my = (name.from.row + name.to.row) as i64 - geo.rows() as i64;
        mx * mx + my * my
    };
    let mut order: Vec<u8> = (0..geo.n_edges() as u8).collect();
    order.sort_by_key(|&e| centre(e as usize));
    if variant > 0 {
        for group in order.chunk_by_mut(|&a, &b| centre(a as usize) == centre(b as usize)) {
            let k = variant % group.len();
            group.rotate_left(k);
        }
    }
    order
}

/// Whether this CPU runs `search_fast`.
fn cpu_is_fast() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        has!("popcnt") && has!("bmi1") && has!("bmi2") && has!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(test)]
#[path = "solver_tests.rs"]
mod tests;
