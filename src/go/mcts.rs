//! Monte-Carlo tree search with UCT and RAVE, after Gelly & Silver (2007/2011) and Michi:
//! a child's urgency mixes its RAVE (all-moves-as-first) value and its own mean with the
//! weight `beta = n_rave / (n_rave + n + n * n_rave / RAVE_EQUIV)`, which moves from RAVE
//! toward the real mean as visits grow, plus a small UCB exploration term. New children start
//! with prior knowledge (captures, self-ataris, 3x3 shapes, distance to the last move, empty
//! edges) expressed as virtual wins and visits.
//!
//! Thread contract: a `Tree` is owned by one thread, and `search` runs its simulations on
//! as many threads as asked, all in this one tree, without a lock: the statistics are
//! atomics (see `stats`), a node's children are made by the one thread that claims it and
//! published at once, and a node counts its visit when the walk down ends, before the
//! playout, so the threads spread over different lines.
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{
    AtomicBool, AtomicU16, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering,
};
use std::time::Instant;

mod stats;

use self::stats::{AtomicF32, Prior, Stats, Zeroable, Zeroed};
use super::board::{Board, Move, Point};
use super::features;
use super::ladder;
use super::lgrf::{Replies, Stage};
use super::net;
use super::patterns;
use super::playout::{self, Amaf};
use super::settings::{SearchParams, TreeNet};
use super::weak::WeakStrings;
use crate::color::Color;

const MIN_PLAYOUTS: u64 = 16;
const EXPAND_VISITS: u32 = 8;
const UCB_C: f32 = 0.02;
const PRIOR_EVEN: f32 = 10.0;
const PRIOR_SELF_ATARI: f32 = 10.0;
const PRIOR_CAPTURE_ONE: f32 = 15.0;
const PRIOR_CAPTURE_MANY: f32 = 30.0;
const PRIOR_PATTERN: f32 = 10.0;
const PRIOR_DISTANCE: [f32; 3] = [24.0, 22.0, 8.0];
const PRIOR_EMPTY_AREA: f32 = 10.0;
const PRIOR_OPENING_LOW_LINE: f32 = 20.0;
/// Most nodes one tree grows to (38 bytes each with their statistics: about 160 MB).
/// Past it, leaves are no longer expanded and simulations start their playouts there: a
/// 10-minute move or an hour of analysis must not exhaust memory.
const MAX_NODES: usize = 1 << 22;
/// Room for the children that expansions under way when the tree reaches `MAX_NODES`
/// add (one per thread), so that a reservation never fails.
const CAPACITY: usize = MAX_NODES + 256 * (super::board::MAX_POINTS + 1);
/// A node's `state`: no children yet, a thread is making them, or they are published.
const LEAF: u8 = 0;
const EXPANDING: u8 = 1;
const EXPANDED: u8 = 2;
/// Playouts before a search's own ownership replaces the previous search's in the
/// weak-group priors, and new playouts between two copies of it.
const OWNER_MIN_SAMPLES: u32 = 64;
const OWNER_REFRESH: u32 = 256;

/// A node of the tree; its move and search statistics are in `Grown::stats`, at the same
/// index.
struct Node {
    /// Sum of the final area margins (Black minus White, komi included) of the
    /// simulations through this node, for the score estimate.
    black_margin: AtomicF32,
    first_child: AtomicU32,
    n_children: AtomicU16,
    /// `LEAF`, `EXPANDING` or `EXPANDED`; its store of `EXPANDED` publishes the children.
    state: AtomicU8,
    /// 1 once a thread has taken the node for the network's judgement (`judge`).
    judged: AtomicU8,
}

// SAFETY: atomics only, valid as zeros (a leaf without children).
unsafe impl Zeroable for Node {}

/// Statistics of one root move, for choosing and reporting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveStats {
    pub mv: Move,
    pub visits: u32,
    pub wins: f32,
    /// Sum of final margins, Black minus White (see [`MoveStats::black_margin`]).
    pub margin_sum: f32,
    /// The prior knowledge's win estimate for this move (virtual wins / virtual visits).
    pub prior: f32,
}

impl MoveStats {
    pub fn winrate(&self) -> f32 {
        if self.visits == 0 {
            0.5
        } else {
            self.wins / self.visits as f32
        }
    }
}

/// How long a search may run.
pub struct Limits<'a> {
    pub playouts: Option<u64>,
    pub deadline: Option<Instant>,
    pub stop: &'a AtomicBool,
}

pub struct Tree {
    /// What simulations change, shared by the search threads.
    grown: Grown,
    root_board: Board,
    /// The komi the simulations count with (the game's plus `komi_shift`).
    komi: f32,
    /// Dynamic komi's part of `komi` (`dynkomi`), taken out of reported margins.
    komi_shift: f32,
    /// Positions the root's children may not recreate (positional superko).
    history: Vec<u64>,
    /// The first search thread's generator; it also seeds the others.
    rng: SmallRng,
    amaf: Box<Amaf>,
    /// The first search thread's last good replies, kept from move to move.
    replies: Box<Replies>,
    /// The ownership (+1 Black's, -1 White's) the previous search ended with, for the
    /// weak-group priors before this search has its own; empty when there was none.
    prev_owner: Vec<f32>,
    /// The settings every simulation of this tree reads (the player's, copied).
    params: SearchParams,
}

/// The nodes and the playouts' ownership counts: the part of a tree that simulations
/// write, shared by all search threads without a lock.
struct Grown {
    nodes: Zeroed<Node>,
    stats: Stats,
    /// Nodes in use, from index 0 (the root).
    len: AtomicUsize,
    /// Ownership counts from playouts (black- and white-owned counts per point) for
    /// dead-stone estimates and the ownership map.
    owner_black: Vec<AtomicU32>,
    owner_white: Vec<AtomicU32>,
    owner_samples: AtomicU32,
}

/// What simulations only read: the root position and the search's settings.
struct Root<'a> {
    board: &'a Board,
    komi: f32,
    history: &'a [u64],
    prev_owner: &'a [f32],
    params: &'a SearchParams,
}

/// One search thread's own state.
struct Worker<'a> {
    rng: &'a mut SmallRng,
    amaf: &'a mut Amaf,
    replies: &'a mut Replies,
    /// New children with their priors, made before they go into the tree.
    kids: Vec<(Move, Prior)>,
    /// The ownership the weak-group priors read (empty: none yet), copied from the tree
    /// now and then so that expansions need not hold the lock while reading it.
    owner: Vec<f32>,
    /// The tree's ownership samples when `owner` was copied.
    owner_at: u32,
    /// The board a simulation plays on, reused so that each copies only the used part.
    board: Box<Board>,
    /// Ownership counts of playouts not yet added to the tree's (`Grown::add_owners`).
    owned: Owned,
    /// The policy network's buffers (unused without a network).
    net: NetBuffers,
}

/// One thread's network buffers and output, reused from evaluation to evaluation.
#[derive(Default)]
struct NetBuffers {
    scratch: net::Scratch,
    eval: net::Evaluation,
}

/// A search thread's ownership counts, added to the tree's now and then: several threads
/// adding every playout's would fight over the same few cache lines.
struct Owned {
    black: Vec<u32>,
    white: Vec<u32>,
    samples: u32,
    /// Playouts counted before they are added; 1 when the thread searches alone, which
    /// keeps one thread's search what it was before the tree was shared.
    every: u32,
}

impl Owned {
    fn new(threads: usize) -> Owned {
        Owned {
            black: vec![0; super::board::MAX_POINTS],
            white: vec![0; super::board::MAX_POINTS],
            samples: 0,
            every: if threads > 1 { 32 } else { 1 },
        }
    }
}

impl Worker<'_> {
    /// Copies the tree's ownership into `owner` when enough new samples came in since the
    /// last copy (at `owner_at` samples). Takes the fields, not the worker, so that the
    /// simulation's board can stay borrowed.
    fn refresh_owner(owner: &mut Vec<f32>, owner_at: &mut u32, g: &Grown) {
        let n = g.owner_samples.load(Relaxed);
        if n < OWNER_MIN_SAMPLES || *owner_at > 0 && n < *owner_at + OWNER_REFRESH {
            return;
        }
        owner.clear();
        owner.extend(
            g.owner_black
                .iter()
                .zip(&g.owner_white)
                .map(|(b, w)| (b.load(Relaxed) as f32 - w.load(Relaxed) as f32) / n as f32),
        );
        *owner_at = n;
    }
}

impl Tree {
    /// A tree for `board` whose simulations count with `komi`, never recreate a position
    /// of `history` at the root, draw their random numbers from `seed` and search with
    /// `params`.
    pub fn new(
        board: &Board,
        komi: f32,
        history: &[u64],
        seed: u64,
        params: &SearchParams,
    ) -> Tree {
        patterns::warm_up();
        let t = Tree {
            grown: Grown::new(),
            root_board: board.clone(),
            komi,
            komi_shift: 0.0,
            history: history.to_vec(),
            rng: SmallRng::seed_from_u64(seed),
            amaf: Box::new(Amaf::new()),
            replies: Box::new(Replies::new()),
            prev_owner: Vec::new(),
            params: params.clone(),
        };
        t.grown.stats.init(0, Prior::default(), 0);
        t.grown.len.store(1, Relaxed);
        t
    }

    /// Moves the root down along `moves` (played since this tree's root), keeping that
    /// subtree when it exists and leads to `board`, else starting afresh from `board`.
    /// `komi` is the game's; `shift` the dynamic komi added for the search: a new shift
    /// keeps the subtree (its statistics were gathered with a komi a point or two away).
    pub fn advance(
        &mut self,
        moves: &[Move],
        board: &Board,
        komi: f32,
        shift: f32,
        history: &[u64],
    ) {
        let mut idx = Some(0usize);
        let mut b = self.root_board.clone();
        for &m in moves {
            let Some(i) = idx else { break };
            idx = self
                .grown
                .kids(i)
                .find(|&k| self.grown.expanded(i) && self.grown.mv(k) == m);
            // Moves not alternating in colour (GTP allows it) fail here and reset the tree.
            if !b.play(b.to_move(), m) {
                idx = None;
            }
        }
        let same = b.hash() == board.hash() && b.to_move() == board.to_move();
        let seed = self.rng.gen();
        let Some(idx) = idx.filter(|_| same && self.komi - self.komi_shift == komi) else {
            *self = Tree::new(board, komi + shift, history, seed, &self.params).with_shift(shift);
            return;
        };
        self.komi = komi + shift;
        self.komi_shift = shift;
        self.prev_owner = (0..self.grown.owner_black.len())
            .map(|p| self.ownership(p))
            .collect();
        let kept = Grown::new();
        kept.copy_node(0, &self.grown, idx);
        kept.len.store(1, Relaxed);
        kept.copy_children(0, &self.grown, idx);
        self.grown = kept;
        self.root_board = board.clone();
        self.history = history.to_vec();
        self.filter_root_superko();
    }

    /// Drops root children that would repeat an earlier position.
    fn filter_root_superko(&mut self) {
        if !self.grown.expanded(0) {
            return;
        }
        let c = self.root_board.to_move();
        for i in self.grown.kids(0) {
            if let Move::Play(p) = self.grown.mv(i) {
                if self.repeats(c, p) {
                    // A hopeless prior keeps it from ever being chosen.
                    let s = &self.grown.stats;
                    s.prior_visits[i].set(1e9);
                    s.prior_wins[i].set(0.0);
                    s.visits[i].store(0, Relaxed);
                    s.wins[i].store(0, Relaxed);
                }
            }
        }
    }

    fn repeats(&self, c: Color, p: Point) -> bool {
        Root {
            board: &self.root_board,
            komi: self.komi,
            history: &self.history,
            prev_owner: &self.prev_owner,
            params: &self.params,
        }
        .repeats(c, p)
    }

    /// Marks `shift` of this tree's komi as dynamic komi (`Tree::new` got the sum).
    pub fn with_shift(mut self, shift: f32) -> Tree {
        self.komi_shift = shift;
        self
    }

    /// The dynamic komi in the search's komi: margins plus this are the game's margins.
    pub fn komi_shift(&self) -> f32 {
        self.komi_shift
    }

    pub fn root_board(&self) -> &Board {
        &self.root_board
    }

    /// Runs simulations on `threads` threads sharing this tree until a limit is reached
    /// (`limits.playouts` counts them all); returns how many ran. One thread gives the
    /// same simulations as before the tree was shared, for a given seed.
    pub fn search(&mut self, limits: &Limits, threads: usize) -> u64 {
        let root = Root {
            board: &self.root_board,
            komi: self.komi,
            history: &self.history,
            prev_owner: &self.prev_owner,
            params: &self.params,
        };
        let grown = &self.grown;
        let started = AtomicU64::new(0);
        let seeds: Vec<u64> = (1..threads.max(1)).map(|_| self.rng.gen()).collect();
        let mut first = Worker {
            rng: &mut self.rng,
            amaf: &mut self.amaf,
            replies: &mut self.replies,
            kids: Vec::with_capacity(super::board::MAX_POINTS + 1),
            owner: root.prev_owner.to_vec(),
            owner_at: 0,
            board: Box::new(root.board.clone()),
            owned: Owned::new(threads),
            net: NetBuffers::default(),
        };
        if seeds.is_empty() {
            return run_worker(&root, grown, &mut first, limits, &started);
        }
        std::thread::scope(|s| {
            let helpers: Vec<_> = seeds
                .into_iter()
                .map(|seed| {
                    let (root, started) = (&root, &started);
                    s.spawn(move || {
                        let mut rng = SmallRng::seed_from_u64(seed);
                        let mut amaf = Box::new(Amaf::new());
                        let mut replies = Box::new(Replies::new());
                        let mut w = Worker {
                            rng: &mut rng,
                            amaf: &mut amaf,
                            replies: &mut replies,
                            kids: Vec::with_capacity(super::board::MAX_POINTS + 1),
                            owner: root.prev_owner.to_vec(),
                            owner_at: 0,
                            board: Box::new(root.board.clone()),
                            owned: Owned::new(threads),
                            net: NetBuffers::default(),
                        };
                        run_worker(root, grown, &mut w, limits, started)
                    })
                })
                .collect();
            let own = run_worker(&root, grown, &mut first, limits, &started);
            own + helpers
                .into_iter()
                .map(|h| h.join().unwrap_or(0))
                .sum::<u64>()
        })
    }

    /// Fraction of playouts that ended with `p` owned by black.
    pub fn black_ownership(&self, p: Point) -> f32 {
        let g = &self.grown;
        let n = g.owner_samples.load(Relaxed);
        if n == 0 {
            0.5
        } else {
            g.owner_black[p].load(Relaxed) as f32 / n as f32
        }
    }

    /// Ownership of `p` in [-1, 1]: +1 when every playout ended with it Black's, -1 White's.
    pub fn ownership(&self, p: Point) -> f32 {
        let g = &self.grown;
        let n = g.owner_samples.load(Relaxed);
        if n == 0 {
            0.0
        } else {
            (g.owner_black[p].load(Relaxed) as f32 - g.owner_white[p].load(Relaxed) as f32)
                / n as f32
        }
    }

    /// Mean final margin (Black minus White, komi included) over the root's simulations.
    pub fn root_black_margin(&self) -> f32 {
        let visits = self.grown.stats.visits(0);
        if visits == 0 {
            0.0
        } else {
            self.grown.nodes[0].black_margin.get() / visits as f32
        }
    }

    /// The most visited line after root move `first` (itself included), at most `len`
    /// moves, with each move's visits.
    pub fn principal_variation(&self, first: Move, len: usize) -> Vec<(Move, u32)> {
        let mut out = Vec::new();
        let g = &self.grown;
        let Some(mut idx) = g.kids(0).find(|&k| g.mv(k) == first) else {
            return out;
        };
        loop {
            let visits = g.stats.visits(idx);
            if visits == 0 || out.len() >= len {
                break;
            }
            out.push((g.mv(idx), visits));
            let kids = g.kids(idx);
            if !g.expanded(idx) || kids.is_empty() {
                break;
            }
            idx = kids
                .clone()
                .max_by_key(|&k| g.stats.visits(k))
                .unwrap_or(kids.start);
        }
        out
    }

    /// Root moves with their statistics (visits and wins of the mover), most visited first.
    pub fn root_stats(&self) -> Vec<MoveStats> {
        let g = &self.grown;
        let only = g.kids(0).len() == 1;
        let mut v: Vec<MoveStats> = g
            .kids(0)
            .map(|i| g.move_stats(i))
            .filter(|s| s.visits > 0 || only)
            .collect();
        v.sort_by_key(|s| std::cmp::Reverse(s.visits));
        v
    }

    /// Every root move (unvisited ones too, for `minmoves`), most visited first.
    pub fn all_root_stats(&self) -> Vec<MoveStats> {
        let g = &self.grown;
        let mut v: Vec<MoveStats> = g
            .kids(0)
            // Superko repeats carry a hopeless prior.
            .filter(|&i| g.stats.prior_visits[i].get() < 1e8)
            .map(|i| g.move_stats(i))
            .collect();
        v.sort_by_key(|s| std::cmp::Reverse(s.visits));
        v
    }

    /// How many moves the root may choose from (superko repeats left out); `None` before
    /// the root is expanded.
    pub fn root_candidates(&self) -> Option<usize> {
        let g = &self.grown;
        g.expanded(0).then(|| {
            g.kids(0)
                .filter(|&i| g.stats.prior_visits[i].get() < 1e8)
                .count()
        })
    }

    pub fn root_visits(&self) -> u32 {
        self.grown.stats.visits(0)
    }

    pub fn node_count(&self) -> usize {
        self.grown.len()
    }
}

/// Simulations of one search thread until a limit is reached; returns how many it ran.
fn run_worker(
    root: &Root,
    grown: &Grown,
    w: &mut Worker,
    limits: &Limits,
    started: &AtomicU64,
) -> u64 {
    let mut n = 0u64;
    loop {
        if limits
            .playouts
            .is_some_and(|p| started.fetch_add(1, Ordering::Relaxed) >= p)
            || n >= MIN_PLAYOUTS && limits.stop.load(Ordering::Relaxed)
        {
            break;
        }
        // A few simulations always run, so even a zero budget yields a searched move.
        if n >= MIN_PLAYOUTS && n.is_multiple_of(64) {
            if let Some(d) = limits.deadline {
                if Instant::now() >= d {
                    break;
                }
            }
        }
        simulate(root, grown, w);
        n += 1;
    }
    grown.add_owners(&mut w.owned);
    n
}

/// One simulation: down the tree, the playout, then the results back up. The nodes
/// passed count their visit before the playout (a virtual loss: other threads see them
/// as tried and lost until the result arrives).
fn simulate(root: &Root, g: &Grown, w: &mut Worker) {
    let board = &mut *w.board;
    board.copy_from(root.board);
    w.amaf.clear();
    let params = root.params;
    let learn = params.playout.lgrf != Stage::Off;
    if learn {
        w.replies
            .begin(board.to_move(), board.last2_move(), board.last_move());
    }
    let mut path: [u32; 512] = [0; 512];
    let mut depth = 0usize;
    let mut idx = 0usize;
    // The game ends at the second pass in a row, counting the opponent's pass before
    // the root: after it, our pass child ends the game.
    let mut passes = usize::from(board.last_move() == Some(Move::Pass));
    loop {
        if !g.expanded(idx) {
            let due = g.stats.visits(idx) >= EXPAND_VISITS && g.len() < MAX_NODES || idx == 0;
            // Another thread making the children: this simulation's playout starts here.
            if !due || passes >= 2 || !g.claim(idx) {
                break;
            }
            let weak_prior = params.weak_prior > 0.0;
            if weak_prior {
                Worker::refresh_owner(&mut w.owner, &mut w.owner_at, g);
            }
            let owner = (weak_prior && !w.owner.is_empty()).then_some(&w.owner[..]);
            children(
                (idx == 0).then_some(root),
                board,
                owner,
                params,
                &mut w.kids,
            );
            if !g.attach(idx, &w.kids) {
                break;
            }
        }
        if let Some(tn) = params.net.as_deref() {
            let due = idx == 0 || g.stats.visits(idx) >= tn.visits;
            if due && g.claim_judgement(idx) {
                judge(g, idx, board, tn, &mut w.net);
            }
        }
        if depth + 1 >= path.len() || passes >= 2 {
            break;
        }
        let child = g.select(idx, params.rave_equiv);
        let c = board.to_move();
        let mv = g.mv(child);
        match mv {
            Move::Pass => passes += 1,
            Move::Play(p) => {
                passes = 0;
                w.amaf.record(c, p);
            }
        }
        if learn {
            w.replies.record(c, mv);
        }
        board.play_legal(c, mv);
        path[depth] = idx as u32;
        depth += 1;
        idx = child;
    }
    path[depth] = idx as u32;
    depth += 1;
    for &i in &path[..depth] {
        g.stats.visits[i as usize].fetch_add(1, Relaxed);
    }
    if passes >= 2 {
        // The game is over, but its count is what a judge of life and death would say:
        // a playout settles the stones still on the board. The root player's opponent
        // moves first in it, so passing with an unsettled group counts that group lost
        // (whoever moves first kills or saves it) and passing is worth what the
        // position is worth without our next move.
        board.set_to_move(root.board.to_move().opponent());
    }
    let replies = learn.then_some(&mut *w.replies);
    let balance = playout::run(
        board,
        true,
        w.rng,
        Some(w.amaf),
        replies,
        root.komi,
        &params.playout,
    );
    let margin = balance as f32 - root.komi;
    if learn {
        w.replies.learn(margin > 0.0);
    }
    record_ownership(&mut w.owned, board);
    if w.owned.samples >= w.owned.every {
        g.add_owners(&mut w.owned);
    }
    g.backup(root, &path[..depth], margin, w.amaf);
}

/// Counts who owns each point at the end of a playout.
fn record_ownership(owned: &mut Owned, board: &Board) {
    owned.samples += 1;
    let size = board.size();
    for row in 0..size {
        let start = board.point(0, row);
        for p in start..start + size {
            // Cell codes are 0 empty, 1 Black, 2 White, 3 off the board. An empty
            // point belongs to the one colour around it: `1 << code` in bits 1 and 2.
            let mut owner = board.cell_code(p);
            if owner == 0 {
                let seen = board
                    .neighbors(p)
                    .iter()
                    .fold(0u8, |s, &n| s | (1 << board.cell_code(n)) & 0b110);
                owner = seen >> 1;
            }
            match owner {
                1 => owned.black[p] += 1,
                2 => owned.white[p] += 1,
                _ => {}
            }
        }
    }
}

impl Grown {
    /// An empty tree of `CAPACITY` nodes, of which none is in use.
    fn new() -> Grown {
        Grown {
            nodes: Zeroed::new(CAPACITY),
            stats: Stats::zeroed(CAPACITY),
            len: AtomicUsize::new(0),
            owner_black: (0..super::board::MAX_POINTS)
                .map(|_| AtomicU32::new(0))
                .collect(),
            owner_white: (0..super::board::MAX_POINTS)
                .map(|_| AtomicU32::new(0))
                .collect(),
            owner_samples: AtomicU32::new(0),
        }
    }

    /// Nodes in use.
    fn len(&self) -> usize {
        self.len.load(Relaxed).min(CAPACITY)
    }

    /// Whether node `i`'s children are published (and may be read).
    #[inline]
    fn expanded(&self, i: usize) -> bool {
        self.nodes[i].state.load(Acquire) == EXPANDED
    }

    /// Node `i`'s children: none before it is expanded.
    #[inline]
    fn kids(&self, i: usize) -> std::ops::Range<usize> {
        let n = &self.nodes[i];
        let f = n.first_child.load(Relaxed) as usize;
        f..f + n.n_children.load(Relaxed) as usize
    }

    /// The move that leads to node `i` (a pass for the root).
    #[inline]
    fn mv(&self, i: usize) -> Move {
        match self.stats.point[i].load(Relaxed) {
            0 => Move::Pass,
            p => Move::Play(p as Point),
        }
    }

    /// Makes node `i` this thread's to judge with the network; `false` when it is, or is
    /// being, judged already.
    fn claim_judgement(&self, i: usize) -> bool {
        let j = &self.nodes[i].judged;
        j.load(Relaxed) == 0 && j.swap(1, Relaxed) == 0
    }

    /// Makes node `i` this thread's to expand; `false` when another thread has it.
    fn claim(&self, i: usize) -> bool {
        self.nodes[i]
            .state
            .compare_exchange(LEAF, EXPANDING, Acquire, Relaxed)
            .is_ok()
    }

    /// Gives node `i`, claimed by this thread, the children computed for it, and
    /// publishes them; `false` (the node stays a leaf) when the tree has no room.
    fn attach(&self, i: usize, kids: &[(Move, Prior)]) -> bool {
        let Some(first) = self.reserve(kids.len()) else {
            self.nodes[i].state.store(LEAF, Release);
            return false;
        };
        for (k, &(mv, prior)) in kids.iter().enumerate() {
            let point = match mv {
                Move::Play(p) => p as u16,
                Move::Pass => 0,
            };
            self.stats.init(first + k, prior, point);
            let n = &self.nodes[first + k];
            n.black_margin.set(0.0);
            n.first_child.store(0, Relaxed);
            n.n_children.store(0, Relaxed);
            n.state.store(LEAF, Relaxed);
            n.judged.store(0, Relaxed);
        }
        let n = &self.nodes[i];
        n.first_child.store(first as u32, Relaxed);
        n.n_children.store(kids.len() as u16, Relaxed);
        n.state.store(EXPANDED, Release);
        true
    }

    /// The first of `n` adjacent unused nodes, now in use; `None` when there is no room.
    fn reserve(&self, n: usize) -> Option<usize> {
        let first = self.len.fetch_add(n, Relaxed);
        (first + n <= CAPACITY).then_some(first)
    }

    /// Adds a search thread's ownership counts to the tree's.
    fn add_owners(&self, owned: &mut Owned) {
        if owned.samples == 0 {
            return;
        }
        let add = |to: &[AtomicU32], from: &mut [u32]| {
            for (t, f) in to.iter().zip(from.iter_mut()) {
                if *f > 0 {
                    t.fetch_add(std::mem::take(f), Relaxed);
                }
            }
        };
        add(&self.owner_black, &mut owned.black);
        add(&self.owner_white, &mut owned.white);
        self.owner_samples.fetch_add(owned.samples, Relaxed);
        owned.samples = 0;
    }

    /// Makes node `i` a copy of node `j` of `from` without its children.
    fn copy_node(&self, i: usize, from: &Grown, j: usize) {
        self.stats.copy(i, &from.stats, j);
        let n = &self.nodes[i];
        n.black_margin.set(from.nodes[j].black_margin.get());
        let state = if from.expanded(j) { EXPANDED } else { LEAF };
        n.state.store(state, Relaxed);
        n.judged.store(from.nodes[j].judged.load(Relaxed), Relaxed);
    }

    /// Copies the subtree below node `j` of `from` under node `i`, children adjacent.
    fn copy_children(&self, i: usize, from: &Grown, j: usize) {
        let kids = from.kids(j);
        if !from.expanded(j) || kids.is_empty() {
            return;
        }
        let first = self.reserve(kids.len()).expect("a subtree fits a tree");
        for (k, jk) in kids.clone().enumerate() {
            self.copy_node(first + k, from, jk);
        }
        self.nodes[i].first_child.store(first as u32, Relaxed);
        self.nodes[i].n_children.store(kids.len() as u16, Relaxed);
        for (k, jk) in kids.enumerate() {
            self.copy_children(first + k, from, jk);
        }
    }

    /// Adds a finished simulation; its nodes counted the visit on the way down.
    fn backup(&self, root: &Root, path: &[u32], margin: f32, amaf: &Amaf) {
        let black_wins = margin > 0.0;
        let root_color = root.board.to_move();
        let s = &self.stats;
        for (d, &i) in path.iter().enumerate() {
            let i = i as usize;
            // Player to move at this node; the node's own move was made by the other one.
            let to_move = if d % 2 == 0 {
                root_color
            } else {
                root_color.opponent()
            };
            let mover_won = (to_move.opponent() == Color::Black) == black_wins;
            self.nodes[i].black_margin.add(margin);
            if mover_won {
                s.wins[i].fetch_add(1, Relaxed);
            }
            if self.expanded(i) {
                let child_won = (to_move == Color::Black) == black_wins;
                s.record_rave(self.kids(i), &amaf.first, to_move as u8 + 1, child_won);
            }
        }
    }

    /// A node's statistics as reported to the player and the analysis commands.
    fn move_stats(&self, i: usize) -> MoveStats {
        let s = &self.stats;
        let (prior_wins, prior_visits) = (s.prior_wins[i].get(), s.prior_visits[i].get());
        MoveStats {
            mv: self.mv(i),
            visits: s.visits(i),
            wins: s.wins(i) as f32,
            margin_sum: self.nodes[i].black_margin.get(),
            prior: if prior_visits > 0.0 {
                prior_wins / prior_visits
            } else {
                0.5
            },
        }
    }

    fn select(&self, idx: usize, rave_equiv: f32) -> usize {
        let log_parent = ((self.stats.visits(idx) + 1) as f32).ln();
        self.stats
            .most_urgent(self.kids(idx), log_parent, rave_equiv)
    }
}

/// The network's judgement of expanded node `i` at `board`: its children get virtual wins
/// (and visits) growing with the square root of their probability relative to the
/// likeliest child's, as the learnt model's priors do; its value counts as virtual
/// simulations of the node's own move.
fn judge(g: &Grown, i: usize, board: &Board, tn: &TreeNet, buffers: &mut NetBuffers) {
    let NetBuffers { scratch, eval } = buffers;
    tn.net.evaluate(board, board.to_move(), scratch, eval);
    let prob = |k: usize| match g.mv(k) {
        Move::Play(p) => eval.policy[p],
        Move::Pass => eval.pass,
    };
    let kids = g.kids(i);
    let best = kids.clone().map(prob).fold(0.0f32, f32::max);
    if best > 0.0 && tn.weight > 0.0 {
        for k in kids {
            let w = tn.weight * (prob(k) / best).sqrt();
            g.stats.prior_wins[k].add(w);
            g.stats.prior_visits[k].add(w);
        }
    }
    if tn.value_weight > 0.0 && i != 0 {
        let mover_wins = (1.0 - eval.value) / 2.0;
        g.stats.prior_visits[i].add(tn.value_weight);
        g.stats.prior_wins[i].add(tn.value_weight * mover_wins);
    }
}

/// The prior win rate (virtual wins over virtual visits) of every candidate at `board`
/// that is not the root, as the tree gives it under `params`; for comparing priors with
/// learnt models.
pub fn prior_means(board: &Board, params: &SearchParams, out: &mut Vec<(Point, f32)>) {
    let mut kids = Vec::new();
    children(None, board, None, params, &mut kids);
    out.clear();
    out.extend(kids.iter().filter_map(|&(mv, prior)| match mv {
        Move::Play(p) => Some((p, prior.wins / prior.visits)),
        Move::Pass => None,
    }));
}

/// The children of a new node at `board` (the root's if `root` is given) with their
/// priors under `params`, into `out`: computed outside the tree's lock. `owner` is the
/// playouts' ownership for the weak-group priors (none: no such priors).
fn children(
    root: Option<&Root>,
    board: &Board,
    owner: Option<&[f32]>,
    params: &SearchParams,
    out: &mut Vec<(Move, Prior)>,
) {
    let weak = owner.map(|o| (WeakStrings::find(board, o), params.weak_prior));
    let model = params.model.as_deref();
    // The learnt strength of each child in `out`, for scaling by the strongest.
    let mut strength = [0f32; super::board::MAX_POINTS];
    let c = board.to_move();
    out.clear();
    let last = board.last_move();
    let mut near_captures = [0usize; 16];
    let mut n_near = match last {
        Some(Move::Play(l)) => playout::capture_moves(board, c, l, &mut near_captures, false),
        _ => 0,
    };
    // Ataris anywhere on the board: capturing, or saving a string that can run (a
    // ladder reader decides), and ataris that start a working ladder.
    let mut futile = [0usize; 16];
    let mut n_futile = 0;
    for p in board.points() {
        if board.stone(p).is_none() || board.string_head(p) != p {
            continue;
        }
        let own = board.stone(p) == Some(c);
        match board.libs(p) {
            1 => {
                let Some(lib) = board.atari_lib(p) else {
                    continue;
                };
                if own && !ladder::escapes(board, p) {
                    if n_futile < futile.len() {
                        futile[n_futile] = lib;
                        n_futile += 1;
                    }
                } else if n_near < near_captures.len() && !near_captures[..n_near].contains(&lib) {
                    near_captures[n_near] = lib;
                    n_near += 1;
                }
            }
            2 if !own => {
                for a in board.two_libs(p).into_iter().flatten() {
                    if n_near < near_captures.len()
                        && !near_captures[..n_near].contains(&a)
                        && ladder::atari_captures(board, c, a)
                    {
                        near_captures[n_near] = a;
                        n_near += 1;
                    }
                }
            }
            _ => {}
        }
    }
    for &p in board.empty_points() {
        let p = p as usize;
        if !board.is_legal(c, p) || board.is_eye(c, p) {
            continue;
        }
        if root.is_some_and(|r| r.repeats(c, p)) {
            continue;
        }
        let mut prior = Prior::default();
        if let Some(m) = model {
            strength[out.len()] = m.gammas.strength(&m.gammas.features(board, c, p));
        }
        priors(
            &mut prior,
            board,
            c,
            p,
            last,
            &near_captures[..n_near],
            model.is_some_and(|m| m.replace),
        );
        if futile[..n_futile].contains(&p) && !near_captures[..n_near].contains(&p) {
            prior.visits += 2.0 * PRIOR_SELF_ATARI;
        }
        if let Some((weak, w)) = &weak {
            if weak.urgent(board, c, p) {
                prior.wins += w;
                prior.visits += w;
            }
        }
        out.push((Move::Play(p), prior));
    }
    if let Some(m) = model {
        let scale = if m.by_probability {
            strength[..out.len()].iter().sum::<f32>()
        } else {
            strength[..out.len()].iter().fold(0.0f32, |a, &b| a.max(b))
        };
        for ((_, prior), &s) in out.iter_mut().zip(&strength) {
            // Virtual wins growing with the square root of the move's probability
            // (or of its ratio to the likeliest move's), as Pachi's pattern priors.
            let w = m.weight * (s / scale).sqrt();
            prior.wins += w;
            prior.visits += w;
        }
    }
    if out.is_empty() {
        out.push((Move::Pass, Prior::default()));
    } else if board.last_move() == Some(Move::Pass) {
        // After a pass, passing back ends the game: a candidate the search must weigh
        // (its worth is the judged count, see `simulate`). An optimistic prior makes
        // sure it is tried even beside moves that win every simulation; a losing end
        // quickly falls behind the moves that play on.
        let pass = Prior {
            wins: PRIOR_EVEN,
            visits: PRIOR_EVEN,
        };
        out.push((Move::Pass, pass));
    }
}

/// Prior knowledge of a new child, as virtual wins and visits.
fn priors(
    prior: &mut Prior,
    b: &Board,
    c: Color,
    p: Point,
    last: Option<Move>,
    near_captures: &[Point],
    learnt: bool,
) {
    let mut add = |wins: f32, visits: f32| {
        prior.wins += wins;
        prior.visits += visits;
    };
    add(PRIOR_EVEN / 2.0, PRIOR_EVEN);
    let mut captured = 0;
    for n in b.neighbors(p) {
        if b.stone(n) == Some(c.opponent()) && b.libs(n) == 1 {
            captured += b.string_len(n);
        }
    }
    let tactical = captured > 0 || near_captures.contains(&p);
    if tactical && !learnt {
        let w = if captured > 1 {
            PRIOR_CAPTURE_MANY
        } else {
            PRIOR_CAPTURE_ONE
        };
        add(w, w);
    }
    if !learnt && playout::is_self_atari(b, c, p) {
        add(0.0, PRIOR_SELF_ATARI);
    }
    if !learnt && patterns::matches(b, p) {
        add(PRIOR_PATTERN, PRIOR_PATTERN);
    }
    let (col, row) = b.col_row(p);
    if let (false, Some(Move::Play(l))) = (learnt, last) {
        let (lc, lr) = b.col_row(l);
        let d = col.abs_diff(lc) + row.abs_diff(lr);
        if (1..=3).contains(&d) {
            let w = PRIOR_DISTANCE[d - 1];
            add(w, w);
        }
    }
    let size = b.size();
    let line = col.min(row).min(size - 1 - col).min(size - 1 - row);
    // Opening on small boards: the third to fifth lines build, the first two lines
    // only defend or undermine; the search overrides this when a move there works.
    let stones = size * size - b.empty_points().len();
    if size <= 13 && stones < size * size / 8 && line <= 1 && !tactical {
        add(0.0, PRIOR_OPENING_LOW_LINE);
    }
    if line <= 2 && features::empty_around(b, p, 3) {
        if line <= 1 {
            add(0.0, PRIOR_EMPTY_AREA);
        } else {
            add(PRIOR_EMPTY_AREA, PRIOR_EMPTY_AREA);
        }
    }
}

impl Root<'_> {
    /// Whether `c` playing `p` at the root recreates an earlier position.
    fn repeats(&self, c: Color, p: Point) -> bool {
        let mut b = self.board.clone();
        b.play_legal(c, Move::Play(p));
        self.history.contains(&b.hash())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(board: &Board, playouts: u64, threads: usize, seed: u64) -> (Tree, u64) {
        let mut t = Tree::new(board, 7.5, &[], seed, &SearchParams::default());
        let stop = AtomicBool::new(false);
        let limits = Limits {
            playouts: Some(playouts),
            deadline: None,
            stop: &stop,
        };
        let n = t.search(&limits, threads);
        (t, n)
    }

    /// Every simulation passed each node of its path once, whichever thread ran it, and
    /// every virtual loss was settled by a result: a node's visits are those of its
    /// children plus the simulations that ended at it, and the ends add up to `sims`.
    fn check_counts(t: &Tree, threads: usize, sims: u64) {
        let g = &t.grown;
        let mut reachable = 1;
        let mut ends = 0u64;
        for i in 0..g.len() {
            let (visits, wins) = (g.stats.visits(i), g.stats.wins(i));
            let state = g.nodes[i].state.load(Relaxed);
            assert_ne!(state, EXPANDING, "node {i} left half-expanded");
            assert!(wins <= visits, "node {i}: {wins} wins in {visits} visits");
            if state != EXPANDED {
                ends += visits as u64;
                continue;
            }
            reachable += g.kids(i).len();
            let below: u32 = g.kids(i).map(|k| g.stats.visits(k)).sum();
            assert!(
                below <= visits,
                "node {i}: children {below} > visits {visits}"
            );
            ends += (visits - below) as u64;
            // One thread expands a node at its visit after EXPAND_VISITS (the root at
            // once). More threads also end simulations at a node while another one makes
            // its children, as many as that takes (a preempted thread can take long).
            if threads == 1 {
                let slack = if i == 0 { 0 } else { EXPAND_VISITS };
                assert!(
                    visits - below <= slack,
                    "node {i}: {visits} visits, {below} through its children"
                );
            }
        }
        assert_eq!(ends, sims, "each simulation ends at one node");
        assert_eq!(
            reachable,
            g.len(),
            "every node hangs under exactly one parent"
        );
    }

    #[test]
    fn threads_share_one_tree_and_count_every_simulation_once() {
        for (size, threads) in [(9, 1), (9, 2), (9, 3), (9, 4), (13, 4)] {
            let board = Board::new(size);
            let (t, n) = search(&board, 4000, threads, 11);
            assert_eq!(n, 4000, "{threads} threads ran {n} simulations for 4000");
            assert_eq!(t.root_visits(), 4000);
            assert_eq!(t.grown.owner_samples.load(Relaxed), 4000);
            check_counts(&t, threads, 4000);
        }
    }

    #[test]
    fn one_thread_is_reproducible_from_its_seed() {
        let board = Board::new(9);
        let (a, _) = search(&board, 1500, 1, 5);
        let (b, _) = search(&board, 1500, 1, 5);
        assert_eq!(a.all_root_stats(), b.all_root_stats());
        let (c, _) = search(&board, 1500, 1, 6);
        assert_ne!(
            a.all_root_stats(),
            c.all_root_stats(),
            "the seed must matter"
        );
    }
}
