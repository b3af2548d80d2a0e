//! Threat-space search: VCF (victory by continuous fours) and VCT (victory by continuous
//! threats).
//!
//! VCF is exact for the lines it explores: after each four the defender's only reply is the
//! completion point (a renju Black defender that cannot play there has lost), and a four the
//! defender makes while blocking must be blocked by the attacker at once. A successful VCF
//! leaves its proof line in `Threats::line`.
//!
//! VCT uses the general notion of a threat (as renju solvers such as renju-note/quintet do):
//! a move is a threat when the attacker would have a VCF if the defender passed. That covers
//! fours, open threes, split threes and quiet "fukumi" moves that prepare a VCF alike, with no
//! list of shapes. The defender then has to break that VCF, so its replies are the cells of
//! the VCF's proof line (attacker moves, forced blocks, the winning ends; for a renju end on a
//! forbidden point also the cells near it, which can change its status), the points where the
//! defender's forced blocks would give it a four (a counter-four breaks the sequence), and
//! every four the defender has now. A defender with a VCF of its own refutes any threat that
//! is not a four. Outside those replies the proof line still works, except for a defender
//! stone that only later joins a counter-threat: that is the usual approximation of
//! threat-space search.
use std::collections::HashMap;

use super::board::{Board, Point, Rule};
use crate::color::Color;
use crate::search::Poller;

/// How a cell takes part in a VCF proof line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// The attacker's four (or forced block that is a four).
    Attack,
    /// The defender's forced block.
    Defend,
    /// A cell completing the attacker's five.
    End,
    /// The renju Black defender's only block, which is forbidden for it.
    ForbiddenEnd,
}

/// Fours allowed in the VCF that decides whether a move is a threat (the attacker's
/// "threat limit"): longer hidden VCFs make bigger defence sets for little gain.
pub const THREAT_VCF_DEPTH: u32 = 6;
/// Fours allowed in a VCF found at a VCT node, and in the defender's counter VCF.
pub(super) const NODE_VCF_DEPTH: u32 = 16;

/// Moves of a threat search, with a shared node count and stop polling.
pub struct Threats<'a, 'l> {
    pub nodes: u64,
    pub poller: &'a mut Poller<'l>,
    pub aborted: bool,
    /// Node cap for one root call, so a VCT cannot eat the move's time.
    pub budget: u64,
    /// What earlier searches proved (see [`ThreatCache`]).
    cache: ThreatCache,
    /// The last successful VCF's proof line, last step first (it is built while unwinding).
    line: Vec<(Point, Step)>,
    /// Fours allowed in the VCF that makes a move a threat.
    pub threat_depth: u32,
    /// Own stones a window through a threat candidate must already hold (see
    /// [`threat_candidates`]).
    pub threat_stones: u8,
}

/// Results of threat searches by position, kept by the caller from one search to the next.
///
/// Every entry is a fact about one position (the key is its Zobrist hash with the side, the
/// kind of search and a forced first move), found by a search that ran to completion: an
/// aborted search stores nothing. The rule and the board size are part of the position, so
/// the cache forgets everything when either changes. Kept across the root defence's
/// candidates and across moves, it pays twice: a defence proved at the previous move is
/// largely what the next move has to prove again one move deeper, and the iterative
/// deepening of [`Threats::vct_root`] re-runs its shallow iterations from the table.
pub struct ThreatCache {
    /// Positions disproved, with the deepest limit disproved.
    vcf_failed: HashMap<u64, u32>,
    vct_failed: HashMap<u64, u32>,
    /// Positions won by VCT, with the smallest depth proved and the move: threat sequences
    /// transpose often.
    vct_won: HashMap<u64, (u32, Point)>,
    /// The (size, rule) the entries belong to.
    owner: Option<(usize, Rule)>,
    /// Entries kept at most: past it the cache starts again empty.
    limit: usize,
}

/// Bytes an entry may take in the hash maps (16-24 byte slots, a control byte, load at
/// most 7/8, capacities in powers of two), for turning a memory budget into `limit`.
pub const CACHE_ENTRY_BYTES: usize = 48;

impl Default for ThreatCache {
    fn default() -> Self {
        Self::with_limit(1_000_000)
    }
}

impl ThreatCache {
    /// An empty cache that keeps at most `limit` entries.
    pub fn with_limit(limit: usize) -> Self {
        ThreatCache {
            vcf_failed: HashMap::new(),
            vct_failed: HashMap::new(),
            vct_won: HashMap::new(),
            owner: None,
            limit,
        }
    }

    /// True at the limit: searches then store nothing more until the next one starts the
    /// cache again, so the memory stays bounded within a long search too.
    fn full(&self) -> bool {
        self.len() >= self.limit
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Keeps at most `limit` entries from now on (the memory budget changed).
    pub fn set_limit(&mut self, limit: usize) {
        self.limit = limit;
        if self.len() > limit {
            self.clear();
        }
    }

    pub fn clear(&mut self) {
        self.vcf_failed.clear();
        self.vct_failed.clear();
        self.vct_won.clear();
    }

    pub fn len(&self) -> usize {
        self.vcf_failed.len() + self.vct_failed.len() + self.vct_won.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets the entries of another board size or rule than `b`'s, or when full.
    fn adopt(&mut self, b: &Board) {
        let owner = Some((b.size(), b.rule()));
        if self.owner != owner || self.len() >= self.limit {
            self.clear();
            self.owner = owner;
        }
    }
}

const KEY_VCF: u64 = 0x1234_5678_9abc_def1;
const KEY_VCT: u64 = 0x0fed_cba9_8765_4321;
const KEY_WHITE: u64 = 0x7777_1111_3333_5555;

impl<'a, 'l> Threats<'a, 'l> {
    pub fn new(poller: &'a mut Poller<'l>, budget: u64) -> Self {
        Self::with_cache(poller, budget, ThreatCache::default())
    }

    /// A search starting from what `cache` holds; [`Threats::into_cache`] gives it back.
    pub fn with_cache(poller: &'a mut Poller<'l>, budget: u64, cache: ThreatCache) -> Self {
        Threats {
            nodes: 0,
            poller,
            aborted: false,
            budget,
            cache,
            line: Vec::with_capacity(64),
            threat_depth: THREAT_VCF_DEPTH,
            threat_stones: 1,
        }
    }

    /// The cache, with what this search added.
    pub fn into_cache(self) -> ThreatCache {
        self.cache
    }

    pub(super) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.aborted || self.nodes > self.budget || self.poller.poll(self.nodes) {
            self.aborted = true;
        }
        self.aborted
    }

    /// The cache key: the threat limit is part of it, as it changes what a threat is.
    pub(super) fn key(&self, b: &Board, c: Color, kind: u64, forced: Option<Point>) -> u64 {
        self.key_of(b.hash(), c, kind, forced)
    }

    /// [`Threats::key`] of a position with the Zobrist hash `hash`.
    pub(super) fn key_of(&self, hash: u64, c: Color, kind: u64, forced: Option<Point>) -> u64 {
        let side = if c == Color::White { KEY_WHITE } else { 0 };
        let limit = (self.threat_depth as u64 + 64 * self.threat_stones as u64)
            .wrapping_mul(0xd6e8_feb8_6659_fd93);
        hash ^ side ^ kind ^ limit ^ forced.map_or(0, |p| (p as u64 + 1).wrapping_mul(0x9e37_79b9))
    }

    /// A winning first move for `c` (to move) by continuous fours, if one is found.
    /// Precondition: the opponent has no five to complete.
    pub fn vcf_root(&mut self, b: &mut Board, c: Color, depth: u32) -> Option<Point> {
        self.cache.adopt(b);
        self.line.clear();
        if self.vcf(b, c, depth, None) {
            self.line.last().map(|&(p, _)| p)
        } else {
            None
        }
    }

    /// A winning first move for `c` (to move) by continuous threats, if one is found, by
    /// iterative deepening on the number of attacker moves.
    pub fn vct_root(&mut self, b: &mut Board, c: Color, depth: u32) -> Option<Point> {
        self.cache.adopt(b);
        for d in 1..=depth {
            if let Some(p) = self.attack(b, c, d) {
                return Some(p);
            }
            if self.aborted {
                break;
            }
        }
        None
    }

    /// The defender's replies worth trying first against `c`'s threat at `x` (empty): `x`
    /// itself, the cells of the VCF that `x` would prepare (see [`Threats::try_threat`]) and
    /// the counter-four points of its forced blocks, then every four the defender has. A
    /// defence against a VCT starting at `x` that lies outside this set has to work by some
    /// later counter-threat, which is rarer, so a root defence search checks these first.
    pub fn threat_replies(&mut self, b: &mut Board, c: Color, x: Point) -> Vec<Point> {
        self.cache.adopt(b);
        let mut v = vec![x];
        if !b.is_empty(x) {
            return v;
        }
        b.place(x, c);
        self.line.clear();
        if self.vcf(b, c, self.threat_depth, None) {
            for q in self.threat_defences(b, c) {
                if !v.contains(&q) {
                    v.push(q);
                }
            }
        }
        b.undo();
        for q in four_moves(b, c.opponent()) {
            if !v.contains(&q) {
                v.push(q);
            }
        }
        v.retain(|&q| b.is_empty(q));
        v
    }

    /// Whether `c` (to move) wins by at most `depth` fours; the proof line is kept for
    /// [`Threats::threat_defences`] and [`Threats::vcf_moves`].
    pub(super) fn vcf_line(&mut self, b: &mut Board, c: Color, depth: u32) -> bool {
        self.cache.adopt(b);
        self.line.clear();
        self.vcf(b, c, depth, None)
    }

    /// The moves of the last VCF proof line in playing order, both colours alternating from
    /// the attacker's, ending in the attacker's five (a line ending on a renju defender's
    /// forbidden block stops before that block). For replaying a proof.
    pub fn vcf_moves(&self) -> Vec<Point> {
        let mut v = Vec::new();
        for &(p, step) in self.line.iter().rev() {
            match step {
                Step::Attack | Step::Defend => v.push(p),
                // A double four: the defender blocks one end, the attacker takes the other.
                Step::End => {
                    v.push(p);
                    if v.len() % 2 == 0 {
                        continue;
                    }
                    break;
                }
                Step::ForbiddenEnd => break,
            }
        }
        v
    }

    /// `forced`: the attacker must play this point first (to block the defender's four).
    fn vcf(&mut self, b: &mut Board, c: Color, depth: u32, forced: Option<Point>) -> bool {
        if self.tick() || depth == 0 {
            return false;
        }
        let key = self.key(b, c, KEY_VCF, forced);
        if self.cache.vcf_failed.get(&key).is_some_and(|&d| d >= depth) {
            return false;
        }
        let moves = match forced {
            Some(f) => vec![f],
            None => {
                if let Some(w) = five_move(b, c) {
                    self.line.push((w, Step::End));
                    return true;
                }
                four_moves(b, c)
            }
        };
        for p in moves {
            if let Some(true) = self.attack_four(b, c, p, depth) {
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        if !self.cache.full() {
            let e = self.cache.vcf_failed.entry(key).or_insert(0);
            *e = (*e).max(depth);
        }
        false
    }

    /// Plays `p` for `c`; if it is a four, the defender blocks and the VCF continues.
    /// `None` when `p` is not a (legal) four.
    fn attack_four(&mut self, b: &mut Board, c: Color, p: Point, depth: u32) -> Option<bool> {
        if c == Color::Black && b.is_forbidden(p) {
            return None;
        }
        if five_at(b, p, c) {
            self.line.push((p, Step::End));
            return Some(true);
        }
        b.place(p, c);
        let mut qs = [0; 4];
        let n = completions(b, p, c, &mut qs);
        let result = match n {
            0 => None,
            1 => Some(self.defend_four(b, c, qs[0], depth)),
            _ => {
                for &q in &qs[..n] {
                    self.line.push((q, Step::End));
                }
                Some(true)
            }
        };
        b.undo();
        if result == Some(true) {
            self.line.push((p, Step::Attack));
        }
        result
    }

    /// The defender blocks the attacker's four at `q`; true when the attacker still wins.
    fn defend_four(&mut self, b: &mut Board, c: Color, q: Point, depth: u32) -> bool {
        let o = c.opponent();
        if o == Color::Black && b.rule() == Rule::Renju && b.is_forbidden(q) {
            self.line.push((q, Step::ForbiddenEnd));
            return true;
        }
        if five_at(b, q, o) {
            return false;
        }
        b.place(q, o);
        let mut rs = [0; 4];
        let won = match completions(b, q, o, &mut rs) {
            0 => self.vcf(b, c, depth - 1, None),
            1 => self.vcf(b, c, depth - 1, Some(rs[0])),
            _ => false,
        };
        b.undo();
        if won {
            self.line.push((q, Step::Defend));
        }
        won
    }

    /// The attacker `c` to move: a first move of a VCT with at most `depth` attacker moves.
    fn attack(&mut self, b: &mut Board, c: Color, depth: u32) -> Option<Point> {
        if self.tick() {
            return None;
        }
        if let Some(w) = five_move(b, c) {
            return Some(w);
        }
        let o = c.opponent();
        let blocks = five_points(b, o);
        if blocks.len() >= 2 || (depth == 0 && !blocks.is_empty()) {
            return None;
        }
        if let [x] = blocks[..] {
            // The defender's four must be blocked; the block has to be a threat itself.
            let ok = !(c == Color::Black && b.is_forbidden(x)) && self.try_threat(b, c, x, depth);
            return ok.then_some(x);
        }
        self.line.clear();
        if self.vcf(b, c, NODE_VCF_DEPTH, None) {
            return self.line.last().map(|&(p, _)| p);
        }
        if depth == 0 || self.aborted {
            return None;
        }
        let key = self.key(b, c, KEY_VCT, None);
        if self.cache.vct_failed.get(&key).is_some_and(|&d| d >= depth) {
            return None;
        }
        if let Some(&(d, p)) = self.cache.vct_won.get(&key) {
            if d <= depth {
                return Some(p);
            }
        }
        let mut cands = threat_candidates(b, c, self.threat_stones);
        // If the defender could win by VCF were it to move, a quiet threat loses to that VCF:
        // only the attacker's fours and the moves that may break it are worth trying.
        self.line.clear();
        if self.vcf(b, o, self.threat_depth, None) {
            let breaks = self.threat_defences(b, o);
            cands.retain(|&p| breaks.contains(&p) || b.patterns(p, c) >> 16 != 0);
        }
        cands.sort_by_key(|&p| std::cmp::Reverse(b.point_score(p, c)));
        for x in cands {
            if c == Color::Black && b.is_forbidden(x) {
                continue;
            }
            if self.try_threat(b, c, x, depth) {
                if !self.cache.full() {
                    self.cache.vct_won.insert(key, (depth, x));
                }
                return Some(x);
            }
            if self.aborted {
                return None;
            }
        }
        if !self.cache.full() {
            let e = self.cache.vct_failed.entry(key).or_insert(0);
            *e = (*e).max(depth);
        }
        None
    }

    /// Plays the attacker's `x`; true when it is a threat (a VCF if the defender passed)
    /// that every defence loses to within `depth - 1` further attacker moves.
    pub fn try_threat(&mut self, b: &mut Board, c: Color, x: Point, depth: u32) -> bool {
        self.cache.adopt(b);
        b.place(x, c);
        self.line.clear();
        let won = self.vcf(b, c, self.threat_depth, None) && self.defend(b, c, depth);
        b.undo();
        won
    }

    /// The defender to move against the threat whose proof is in `self.line`: true when
    /// every reply loses.
    fn defend(&mut self, b: &mut Board, c: Color, depth: u32) -> bool {
        let o = c.opponent();
        let fives = five_points(b, c);
        let replies = if !fives.is_empty() {
            // A four: only its completion points can be answered.
            fives
        } else {
            let mut v = self.threat_defences(b, c);
            self.line.clear();
            if self.vcf(b, o, NODE_VCF_DEPTH, None) {
                return false;
            }
            for q in four_moves(b, o) {
                if !v.contains(&q) {
                    v.push(q);
                }
            }
            // The defender's best-looking replies first: one that holds ends the node.
            v.sort_by_key(|&q| std::cmp::Reverse(b.point_score(q, o)));
            v
        };
        for q in replies {
            if !b.is_empty(q) || (o == Color::Black && b.is_forbidden(q)) {
                continue;
            }
            if five_at(b, q, o) {
                return false;
            }
            b.place(q, o);
            let won = self.attack(b, c, depth - 1).is_some();
            b.undo();
            if !won {
                return false;
            }
        }
        true
    }

    /// The replies that may break the VCF in `self.line` (see the module comment).
    pub(super) fn threat_defences(&mut self, b: &mut Board, c: Color) -> Vec<Point> {
        let o = c.opponent();
        let steps: Vec<(Point, Step)> = self.line.iter().rev().copied().collect();
        let mut v: Vec<Point> = Vec::with_capacity(32);
        fn add(v: &mut Vec<Point>, q: Point) {
            if !v.contains(&q) {
                v.push(q);
            }
        }
        let dirs = b.dirs();
        let mut placed = 0;
        for &(p, step) in &steps {
            add(&mut v, p);
            match step {
                Step::Attack => {
                    b.place(p, c);
                    placed += 1;
                }
                Step::Defend => {
                    b.place(p, o);
                    placed += 1;
                    // Windows where this forced block gives the defender three stones: its
                    // empty cells would make a counter-four.
                    for (d, &dir) in dirs.iter().enumerate() {
                        for k in 0..5 {
                            let s = p as isize - k * dir;
                            if let Some((own, other)) = b.window(d, s, o) {
                                if own >= 3 && other == 0 {
                                    for j in 0..5 {
                                        let q = s + j * dir;
                                        if b.raw(q) == 0 {
                                            add(&mut v, q as Point);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                Step::End => {}
                Step::ForbiddenEnd => {
                    for &dir in &dirs {
                        for k in -4..=4isize {
                            let q = p as isize + k * dir;
                            if k != 0 && b.raw(q) == 0 {
                                add(&mut v, q as Point);
                            }
                        }
                    }
                }
            }
        }
        for _ in 0..placed {
            b.undo();
        }
        v
    }
}

/// Whether `c` makes a winning five at the empty `p`. A five through `p` needs a window of
/// four stones of `c` and none of the other colour through it: the window counts rule most
/// cells out before the slower line test.
#[inline]
pub(super) fn five_at(b: &Board, p: Point, c: Color) -> bool {
    b.fours_at(p, c) != 0 && b.makes_five(p, c)
}

/// A point where `c` completes a winning five.
pub fn five_move(b: &Board, c: Color) -> Option<Point> {
    window_cells(b, c, 4)
        .into_iter()
        .find(|&p| b.makes_five(p, c))
}

/// Every point where `c` completes a winning five.
pub(super) fn five_points(b: &Board, c: Color) -> Vec<Point> {
    let mut v = window_cells(b, c, 4);
    v.retain(|&p| b.makes_five(p, c));
    v
}

/// Empty cells of the windows holding at least `k` (1..=4) stones of `c` and none of the
/// other colour, in board order (rows from the bottom, columns from the left), read from
/// the board's incremental window counts.
fn window_cells(b: &Board, c: Color, k: u8) -> Vec<Point> {
    let mask: u32 = !((1u32 << (8 * (k as u32 - 1))) - 1);
    let mut v = Vec::new();
    // A window holding a stone reaches at most 4 cells past it: only the stones' box
    // widened by 4 can hold such cells.
    let Some(((c0, c1), (r0, r1))) = b.stone_box() else {
        return v;
    };
    let n = b.size();
    let (c0, c1) = (c0.saturating_sub(4), (c1 + 4).min(n - 1));
    for r in r0.saturating_sub(4)..=(r1 + 4).min(n - 1) {
        let row = b.point(c0, r);
        for p in row..=row + (c1 - c0) as Point {
            if b.patterns(p, c) & mask != 0 && b.is_empty(p) {
                v.push(p);
            }
        }
    }
    v
}

/// Points where `c` makes a four (a window of 4 own stones with one empty cell).
pub fn four_moves(b: &Board, c: Color) -> Vec<Point> {
    window_cells(b, c, 3)
}

/// Points that may be threats for `c`. A threat ends in a VCF that needs the move (else
/// the VCF was there before), so the move lies in a window of one of the VCF's fours, which
/// may hold only one of `c`'s stones now: the quiet "fukumi" move prepares a four whose
/// other stones come with the VCF.
pub(super) fn threat_candidates(b: &Board, c: Color, stones: u8) -> Vec<Point> {
    window_cells(b, c, stones)
}

/// Empty points completing a winning five for `c` that includes `p` (`c`'s stone).
pub fn completions(b: &Board, p: Point, c: Color, out: &mut [Point; 4]) -> usize {
    let mut n = 0;
    for dir in b.dirs() {
        for k in -4..=4isize {
            let q = p as isize + k * dir;
            if k == 0 || b.raw(q) != 0 {
                continue;
            }
            let q = q as Point;
            if five_at(b, q, c) && n < 4 && !out[..n].contains(&q) && in_line(b, q, p, dir, c) {
                out[n] = q;
                n += 1;
            }
        }
    }
    n
}

/// Whether the stones of `c` between `q` and `p` along `dir` are unbroken (so the five made
/// at `q` contains `p`).
fn in_line(b: &Board, q: Point, p: Point, dir: isize, c: Color) -> bool {
    let step = if (p as isize - q as isize) * dir.signum() > 0 {
        dir
    } else {
        -dir
    };
    let mut i = q as isize + step;
    let v = super::board::cell_of(c);
    while i != p as isize {
        if b.raw(i) != v {
            return false;
        }
        i += step;
    }
    true
}
