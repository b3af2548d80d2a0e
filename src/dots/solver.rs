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
//! offer's floor (`>= 0`, `>= 1` with an odd number of boxes left) decide the move. A
//! profile before this (4x4, 2026-12-03) put half the solver's time on two loads: the
//! prefetches of the safe children (the line-fill buffers were full) and the first table
//! read of positions reached through sacrifices, which no parent had prefetched (63% of
//! the quiet nodes of a 3x4 solve, 80% of them answered by the table). Tried and dropped (more nodes): a history heuristic over the centre-out
//! order (2.6x the nodes), ordering safe moves by whether they touch a one-sided box,
//! returning the boxes-left bound before the table probe, 8- or 2-entry buckets, and
//! (2026-12-02) ordering safe moves by the horizon evaluation of each child near the root
//! (3x4: 2.4x the nodes with it on from 24 undrawn edges, worse the deeper it reaches).
//! 2026-12-03: a killer move per number of undrawn edges tried first among the safe moves
//! (3x4 1.94M -> 1.89M nodes, but 3x3 56k -> 73k and 2x4 21k -> 30k), and safe moves that
//! leave an even (or odd) number of safe edges first, a long-chain parity guess (3x4 2.87M
//! and 2.78M nodes against 1.94M): the centre-out order is hard to beat.
//! 2026-12-03 (session 16), counted on 3x4: 29% of quiet nodes reach the sacrifices; their
//! 1.17M play-outs (for 1.08M quiet nodes) close 61% of their moves without a search and
//! cut 4%, and a searched sacrifice cuts in 9% of the searches, so a lazy play-out (only
//! when the first sacrifice did not cut) has little to save. No enhanced transposition
//! cutoffs below U undrawn edges (3x4 nodes: U = 10 +0.05%, 14 +4%, 18 +54%), no play-outs
//! below U (14: +7%, 18: +46%), or prefetching only the first P safe children (P = 2 +61%,
//! 4 +24%, 8 +3%): no time gain that load 10-11 let show (3x4, 2^26 entries, 3 runs each).
//! 8-entry buckets filling a cache line, least work replaced or 6 entries kept by work and
//! 2 taking what they evict: 3x4 with 2^18 entries 2.89M nodes (4-entry buckets 2.55M),
//! with 2^19 and 2^20 entries 1.5% and 3% fewer; not pursued.
//!
//! Measured (`quartet bench dots`, one thread, 2026-12-01, a 2-core machine at load 3-4):
//! 3x4 3.55M nodes, 1.0 s CPU (5.66M, 1.6 s before the prefetching cutoffs); 4x4 value 0:
//! 446M nodes, 181 s CPU (272 s wall at load 5) with the default 2^26 entries (512 MB);
//! 402M, 178 s CPU with `--tt-bits 27` (before the cheap child keys). Before all this:
//! 1.31G nodes, 522 s with 2^25 16-byte entries.
//! 2026-12-02, with the loony-offer shortcut, the sacrifice bounds and parity rounding, at
//! load 8-9 (so CPU seconds are inflated by the shared cores): 3x4 2.39M nodes; 3x5 value
//! -1: 331M nodes, 140 s CPU (564M, 173 s before); 4x4: 249M nodes, 125 s CPU (446M before).
//! 2026-12-02 (later), with both bounds in each table entry, back to back at load 3-4:
//! 3x4 1.94M nodes; 3x5 233M nodes, 96.1 s (331M, 128.8 s before); 4x4 191M, 77.3 s (249M,
//! 92.4 s before).
//! 2026-12-03, with the sacrifice cutoffs (user CPU seconds, back to back against the
//! previous binary, load 9-14 on the 2 cores: the CPU seconds are inflated by the memory
//! traffic of the other jobs): 3x4 1.11M nodes (1.94M before), 0.50-0.55 s (0.54-0.58 s);
//! 3x5 121M nodes (233M), 88.0 s and 94.5 s (101.3 s and 110.0 s); 4x4 99.2M nodes (191M), 66.9 s and 81.5 s at
//! load 9 and 13 (84.2 s and 99.9 s). The nodes halve but each costs about 50% more CPU
//! (the play-outs of every sacrifice at every node that reaches them): the time gains
//! 13-20%, not the 25% asked for.
//! On a quiet machine (load 0.3-2, nothing else running) the gain is smaller: 4x4 82.0 s and
//! 77.8 s (90.3 s and 79.5 s before), 3x5 94.1 s (99.3 s): the halved nodes pay most when
//! memory is contended.
//! 2026-12-03 (session 16): 32-byte-aligned buckets (`table.rs`'s `Vec<[u64; 4]>` came
//! from `mmap` 16 bytes into a page, so every other bucket straddled two cache lines and a
//! prefetch brought half of it). At load 6-21 no gain could be seen (runs of one binary
//! spread by up to 23%); on a quiet machine (load 1-2.4, nothing else running, back to back
//! with the unaligned code) 4x4 72.4 s and 68.6 s against 83.9 s and 78.5 s, 3x5 68.4 s
//! against 79.3 s: kept. Tried and reverted: the play-out keys derived from the node's images
//! (same keys, no gain shown at load 7-13: 3x5 95.3, 89.4 s, 4x4 92.2, 82.2 s against
//! 96.8, 85.0 and 73.9, 84.8 s). docs/dots-split.md has the table.
//! 2026-12-03 (session 17), same nodes (3x4 1,108,200, 3x5 120,613,834, 4x4 99,196,905):
//! the play-out keys again (3x5 86.0, 86.7 s against main's 86.3, 88.9 s at load 3: kept,
//! no loss), and the search compiled a second time with popcnt and BMI (`search_fast`; the
//! default build targets baseline x86-64, where a u128 popcount is some thirty
//! instructions): 4x4 63.2, 54.7, 69.7, 72.7 s against main's 63.4, 66.3, 91.1, 83.1 s in
//! pairs back to back (load 2-5), 3x5 63.2, 66.0, 87.0 s against 65.8, 64.1, 87.4 s (no
//! gain: 4x4 computes eight images per key, 3x5 four). Tried and dropped:
//! a near table for positions with at most U undrawn edges (3x5 nodes: U 16 in 2^20 entries
//! +9%, U 18 in 2^20 +79%, U 18 in 2^22 +14%, no time gain; the quiet nodes peak at 21
//! undrawn of 38, and only 8% of them have 16 or fewer); `--tt-bits 27` (3x5 105M nodes,
//! 4x4 91.6M, but each node costs more: 4x4 72.8, 65.7 s against 59.1, 74.1 s).
//! 2026-12-04 (session 22): children get their symmetry images from the parent (same
//! nodes, 6-10% less time), 2^27 entries became the default (alone on a quiet host each
//! node no longer cost more), and MTD(f) starts from -1 on odd boards (3x5 97.8M nodes):
//! 4x4 median 56.0 s, 3x5 58.4 s. Dropped: no ETC below 10-14 undrawn edges, ordering safe
//! children by their stored bounds (3x4 +0.1% to +49% nodes). docs/dots-split.md has it all.
use super::chains::{loony_value, LoonyMemo, LOOP};
use super::geometry::{Geometry, GROUND};
use super::symmetry::Symmetries;
use super::table::{Address, Table};
use super::Board;
use crate::search::StopToken;
use std::mem::MaybeUninit;
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
        let centre = |e: usize| {
            let name = geo.edge_dots(e);
            let mx = (name.from.col + name.to.col) as f64 / 2.0 - geo.cols() as f64 / 2.0;
            let my = (name.from.row + name.to.row) as f64 / 2.0 - geo.rows() as f64 / 2.0;
            mx * mx + my * my
        };
        let mut order: Vec<u8> = (0..n as u8).collect();
        order.sort_by(|&a, &b| centre(a as usize).total_cmp(&centre(b as usize)));
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
            for (i, &m) in moves[..k].iter().enumerate() {
                if closed >> i & 1 != 0 {
                    continue;
                }
                if narrow {
                    self.set_pending_child(&images, m);
                } else {
                    self.pending = Some(probe(i));
                }
                let cut = self.try_move(m, alpha, beta, child_depth, &mut best);
                if self.stopped {
                    return 0;
                }
                if cut {
                    break 'moves;
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
        best
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
        // down searched fewer nodes on every odd board tried (3x5: 97.8 M against 104.9 M,
        // 3x3: 27.6 K against 33.1 K, 1x3 to 1x7, 3x1, 5x1; docs/dots-split.md).
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
