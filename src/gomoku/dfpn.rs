//! Depth-first proof-number search (df-pn, Nagai 2002) for VCT, over the threat notion of
//! [`Threats`]: the attacker's moves at an OR node are the moves that are threats (a VCF if
//! the defender passed), or the one block of the defender's four; the defender's moves at an
//! AND node are the replies that may break that VCF (its cells, the counter-four points of
//! its forced blocks, every four the defender has), or the completion point of a four. An
//! OR node with a VCF is proved, an AND node whose defender has a VCF (and faces no four) is
//! disproved, as in [`Threats::vct_root`]. What df-pn changes is the order of the work:
//! it always expands the most-proving node, so it reads the narrow lines deeply and the
//! wide ones late, where iterative deepening re-searches every line at every depth.
//!
//! Stones are only ever added, so a position has one ply in a search (its stone count
//! minus the root's) and the search graph has no cycles: no graph-history problem, and a
//! limit on attacker moves is a property of the position once the horizon (the stone count
//! where the search stops) is part of the key.
//!
//! The table is fixed in size (buckets of four, the entry with the least work replaced),
//! and the children of the nodes on the current path live in per-ply buffers allocated
//! once: a node allocates nothing of its own (the threat helpers it calls still build
//! their short lists).
use super::board::{Board, Point, Rule};
use super::threats::{
    five_at, five_move, five_points, four_moves, threat_candidates, Threats, NODE_VCF_DEPTH,
};
use crate::color::Color;

/// A proof or disproof number that stands for infinity.
const INF: u32 = 1 << 28;
/// Plies the per-ply buffers cover: two per attacker move and the root defence's extra one.
const MAX_PLY: usize = 64;
/// Fours allowed in the VCF checked next to the root (a long VCF is still a win).
const ROOT_VCF_DEPTH: u32 = 120;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    pn: u32,
    dn: u32,
    /// Nodes spent below this entry, for replacement.
    work: u32,
    /// The child that proved an OR node (`u16::MAX`: none).
    best: u16,
    /// Attacker moves that were left (see [`Dfpn::left`]).
    left: u8,
}

/// The outcome of a df-pn search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The attacker wins by VCT starting with this move.
    Won(Point),
    /// No VCT within the limit (under the threat notion of [`Threats`]).
    Lost,
    /// The node budget, the time or the stop token ended the search first.
    Unknown,
}

/// What the root defence found for each of the defender's candidate moves.
#[derive(Clone, Debug, Default)]
pub struct Defences {
    /// Moves after which the attacker has no VCT within the limit.
    pub safe: Vec<Point>,
    /// Moves after which the attacker's VCT is proved.
    pub lost: Vec<Point>,
    /// Moves left undecided when the search stopped.
    pub open: Vec<Point>,
}

#[derive(Clone, Copy)]
struct Child {
    p: Point,
    pn: u32,
    dn: u32,
}

/// The df-pn table and buffers, kept from one search to the next by the caller.
pub struct Dfpn {
    table: Vec<Entry>,
    mask: usize,
    owner: Option<(usize, Rule)>,
    kids: Vec<Vec<Child>>,
    /// Attacker moves allowed (as in [`Threats::vct_root`]'s depth).
    pub max_moves: u32,
    /// Stone count at which the current search stops; part of every key.
    horizon: usize,
    attacker: Color,
    /// Whether an OR node checks each candidate for a threat when it is expanded (else the
    /// AND node below does, when it is first searched). Lazy proved more of the positions
    /// of examples/gomoku_dfpn.rs with fewer nodes (docs/experiments/gomoku.md).
    pub eager: bool,
    /// Children's initial numbers grow by one every this many places in the move order
    /// (point score, best first); 1 proved as many positions of examples/gomoku_dfpn.rs as
    /// any value tried, with the fewest nodes (docs/experiments/gomoku.md).
    pub rank_div: u32,
    /// Node expansions (re-expansions included).
    pub expansions: u64,
    /// Threat-search nodes spent in expansions.
    pub expand_nodes: u64,
}

const KEY_AND: u64 = 0x5bd1_e995_7f4a_7c15;
const KEY_ATTACKER_WHITE: u64 = 0x2545_f491_4f6c_dd1d;
const KEY_DFPN: u64 = 0x94d0_49bb_1331_11eb;

impl Dfpn {
    /// A table of about `mb` MiB (at least one bucket).
    pub fn new(mb: usize) -> Dfpn {
        let want = (mb.max(1) << 20) / std::mem::size_of::<Entry>();
        // The largest power of two that fits, so the bucket index is a mask.
        let n = if want < 8 {
            8
        } else {
            1 << (usize::BITS - 1 - want.leading_zeros())
        };
        Dfpn {
            table: vec![Entry::default(); n],
            mask: n - 1,
            owner: None,
            kids: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            max_moves: 8,
            horizon: 0,
            attacker: Color::Black,
            eager: false,
            rank_div: 1,
            expansions: 0,
            expand_nodes: 0,
        }
    }

    /// A placeholder without a table (it allocates nothing), for moving the real one out
    /// of its owner for a while.
    pub fn empty() -> Dfpn {
        Dfpn {
            table: Vec::new(),
            mask: 0,
            owner: None,
            kids: Vec::new(),
            max_moves: 0,
            horizon: 0,
            attacker: Color::Black,
            eager: false,
            rank_div: 1,
            expansions: 0,
            expand_nodes: 0,
        }
    }

    pub fn clear(&mut self) {
        self.table.fill(Entry::default());
    }

    fn adopt(&mut self, b: &Board) {
        let owner = Some((b.size(), b.rule()));
        if self.owner != owner {
            self.clear();
            self.owner = owner;
        }
    }

    fn key(&self, t: &Threats, b: &Board, or: bool) -> u64 {
        self.key_of(t, b.hash(), or)
    }

    fn key_of(&self, t: &Threats, hash: u64, or: bool) -> u64 {
        let side = if self.attacker == Color::White {
            KEY_ATTACKER_WHITE
        } else {
            0
        };
        let and = if or { 0 } else { KEY_AND };
        // The threat notion's limits (in `t.key`) change what a node's numbers mean.
        t.key_of(hash, self.attacker, KEY_DFPN ^ side ^ and, None)
    }

    /// Attacker moves left at a node of `b` (of either kind) before the horizon.
    fn left(&self, b: &Board) -> u8 {
        (self.horizon.saturating_sub(b.stone_count() + 1) / 2).min(255) as u8
    }

    /// The entry of `key` as it holds for `left` attacker moves: a proof with fewer moves
    /// left and a disproof with more still hold; open numbers only for the same limit.
    fn probe(&self, key: u64, left: u8) -> Option<Entry> {
        let base = (key as usize) & self.mask & !3;
        self.table[base..base + 4]
            .iter()
            .find(|e| {
                e.key == key
                    && (e.pn | e.dn) != 0
                    && ((e.pn == 0 && e.left <= left)
                        || (e.dn == 0 && e.left >= left)
                        || e.left == left)
            })
            .copied()
    }

    fn store(&mut self, e: Entry) {
        let base = (e.key as usize) & self.mask & !3;
        let bucket = &mut self.table[base..base + 4];
        let slot = match bucket
            .iter()
            .position(|x| x.key == e.key && x.left == e.left)
        {
            Some(i) => i,
            None => {
                // Solved entries are worth more than open ones of the same work.
                let value = |x: &Entry| {
                    let solved = x.pn == 0 || x.dn == 0;
                    (x.work as u64) << u64::from(solved)
                };
                (0..4).min_by_key(|&i| value(&bucket[i])).unwrap_or(0)
            }
        };
        bucket[slot] = e;
    }

    /// A VCT for `c` (to move) of at most [`Dfpn::max_moves`] attacker moves. The
    /// precondition of [`Threats::vct_root`] holds: the position has no five.
    pub fn prove(&mut self, t: &mut Threats, b: &mut Board, c: Color) -> Proof {
        self.adopt(b);
        self.attacker = c;
        // Iterative deepening on attacker moves: df-pn alone runs down long lines of fours
        // (one reply each, so the smallest proof numbers) before the short wins; the
        // proofs of one iteration hold in the next (see `probe`).
        let max = self.max_moves;
        for moves in 0..=max {
            self.horizon = b.stone_count() + 2 * moves as usize + 1;
            let (pn, _) = self.mid(t, b, 0, true, INF, INF);
            if t.aborted {
                return Proof::Unknown;
            }
            if pn == 0 {
                return self.proof_move(t, b, c);
            }
        }
        Proof::Lost
    }

    fn proof_move(&mut self, t: &mut Threats, b: &mut Board, c: Color) -> Proof {
        let key = self.key(t, b, true);
        match self.probe(key, self.left(b)) {
            Some(e) if e.pn == 0 && e.best != u16::MAX => Proof::Won(e.best),
            _ => {
                // A VCF or a five at the root itself.
                if let Some(w) = five_move(b, c) {
                    return Proof::Won(w);
                }
                t.vcf_line(b, c, ROOT_VCF_DEPTH);
                t.vcf_moves()
                    .first()
                    .copied()
                    .map_or(Proof::Unknown, Proof::Won)
            }
        }
    }

    /// The root defence: `c` to move, the opponent threatening a VCT. Each of `moves` is
    /// tried as the root of a df-pn for the opponent (the root is an AND node over exactly
    /// these moves, so the effort goes to the moves most likely to hold); the search stops
    /// when `want` moves are proved safe, every move is decided, or the budget ends.
    pub fn defend(
        &mut self,
        t: &mut Threats,
        b: &mut Board,
        c: Color,
        moves: &[Point],
        want: usize,
    ) -> Defences {
        self.adopt(b);
        let o = c.opponent();
        self.attacker = o;
        self.horizon = b.stone_count() + 1 + 2 * self.max_moves as usize + 1;
        let mut kids: Vec<Child> = moves.iter().map(|&p| Child { p, pn: 1, dn: 1 }).collect();
        let mut out = Defences::default();
        while !kids.is_empty() && out.safe.len() < want && !t.aborted {
            // The most-disproving move, as at an AND node; proving a move lost is no
            // goal here, so its proof threshold is unbounded.
            let i = (0..kids.len()).min_by_key(|&j| kids[j].dn).unwrap_or(0);
            let dn2 = (0..kids.len())
                .filter(|&j| j != i)
                .map(|j| kids[j].dn)
                .min()
                .unwrap_or(INF);
            let th_dn = grow(dn2).max(kids[i].dn + 1);
            let k = kids[i];
            b.place(k.p, c);
            let (pn, dn) = if b.makes_five_now(k.p, c) {
                (INF, 0)
            } else {
                self.mid(t, b, 1, true, INF, th_dn)
            };
            b.undo();
            if t.aborted {
                break;
            }
            if dn == 0 {
                out.safe.push(k.p);
                kids.remove(i);
            } else if pn == 0 {
                out.lost.push(k.p);
                kids.remove(i);
            } else {
                kids[i].pn = pn;
                kids[i].dn = dn;
            }
        }
        out.open = kids.iter().map(|k| k.p).collect();
        out
    }

    /// The multiple-iterative-deepening step: searches the node until its proof number
    /// reaches `th_pn` or its disproof number `th_dn`; returns both numbers.
    fn mid(
        &mut self,
        t: &mut Threats,
        b: &mut Board,
        ply: usize,
        or: bool,
        th_pn: u32,
        th_dn: u32,
    ) -> (u32, u32) {
        if t.tick() {
            return (1, 1);
        }
        let key = self.key(t, b, or);
        let left = self.left(b);
        if let Some(e) = self.probe(key, left) {
            if e.pn == 0 || e.dn == 0 || e.pn >= th_pn || e.dn >= th_dn {
                return (e.pn, e.dn);
            }
        }
        let start = t.nodes;
        self.expansions += 1;
        let expansion = self.expand(t, b, ply, or);
        self.expand_nodes += t.nodes - start;
        if let Some((pn, dn)) = expansion {
            self.store(Entry {
                key,
                pn,
                dn,
                work: 1,
                best: u16::MAX,
                left,
            });
            return (pn, dn);
        }
        if t.aborted {
            return (1, 1);
        }
        let me = if or {
            self.attacker
        } else {
            self.attacker.opponent()
        };
        // The children's numbers from the table (a child has one stone more).
        let l = (self.horizon.saturating_sub(b.stone_count() + 2) / 2).min(255) as u8;
        for i in 0..self.kids[ply].len() {
            let p = self.kids[ply][i].p;
            let k = self.key_of(t, b.hash_after(p, me), !or);
            if let Some(e) = self.probe(k, l) {
                self.kids[ply][i].pn = e.pn;
                self.kids[ply][i].dn = e.dn;
            }
        }
        let (mut pn, mut dn);
        loop {
            let kids = &self.kids[ply];
            // (pn, dn) of the node, the best child and the runner-up's number.
            let (mut best, mut second) = (0, INF);
            let mut sum = 0u32;
            for (j, k) in kids.iter().enumerate() {
                let (mine, other) = if or { (k.pn, k.dn) } else { (k.dn, k.pn) };
                sum = (sum + other).min(INF);
                let bm = if or { kids[best].pn } else { kids[best].dn };
                if j == 0 {
                    continue;
                }
                if mine < bm {
                    second = bm;
                    best = j;
                } else if mine < second {
                    second = mine;
                }
            }
            let kb = kids[best];
            if or {
                pn = kb.pn;
                dn = sum;
            } else {
                pn = sum;
                dn = kb.dn;
            }
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || t.aborted {
                break;
            }
            // The 1+epsilon trick: stay in a child until it is clearly worse than the
            // runner-up, not merely equal, which saves re-expanding the node.
            let (c_pn, c_dn) = if or {
                (
                    th_pn.min(grow(second)).max(kb.pn + 1),
                    (th_dn - (dn - kb.dn).min(th_dn - 1)).min(INF),
                )
            } else {
                (
                    (th_pn - (pn - kb.pn).min(th_pn - 1)).min(INF),
                    th_dn.min(grow(second)).max(kb.dn + 1),
                )
            };
            b.place(kb.p, me);
            let (cp, cd) = self.mid(t, b, ply + 1, !or, c_pn, c_dn);
            b.undo();
            self.kids[ply][best].pn = cp;
            self.kids[ply][best].dn = cd;
        }
        if t.aborted {
            return (pn, dn);
        }
        let best = if or && pn == 0 {
            self.kids[ply]
                .iter()
                .find(|k| k.pn == 0)
                .map_or(u16::MAX, |k| k.p)
        } else {
            u16::MAX
        };
        let work = (t.nodes - start).min(u32::MAX as u64) as u32;
        self.store(Entry {
            key,
            pn,
            dn,
            work,
            best,
            left,
        });
        (pn, dn)
    }

    /// Terminal numbers of a node, or its children in `self.kids[ply]` (numbers 1, 1).
    fn expand(
        &mut self,
        t: &mut Threats,
        b: &mut Board,
        ply: usize,
        or: bool,
    ) -> Option<(u32, u32)> {
        let c = self.attacker;
        let o = c.opponent();
        let proved = Some((0, INF));
        let disproved = Some((INF, 0));
        self.kids[ply].clear();
        if ply + 2 >= MAX_PLY {
            return if or { disproved } else { proved };
        }
        if or {
            if five_move(b, c).is_some() {
                return proved;
            }
            let blocks = five_points(b, o);
            let left = self.horizon.saturating_sub(b.stone_count() + 1) / 2;
            if blocks.len() >= 2 {
                return disproved;
            }
            if let [x] = blocks[..] {
                if left == 0 || (c == Color::Black && b.is_forbidden(x)) {
                    return disproved;
                }
                self.kids[ply].push(Child { p: x, pn: 1, dn: 1 });
                return None;
            }
            let vcf_depth = if ply <= 1 {
                ROOT_VCF_DEPTH
            } else {
                NODE_VCF_DEPTH
            };
            if t.vcf_line(b, c, vcf_depth) {
                return proved;
            }
            if left == 0 || t.aborted {
                return disproved;
            }
            let mut cands = threat_candidates(b, c, t.threat_stones);
            // Against a defender's VCF a quiet threat is too slow (see `Threats::attack`).
            if t.vcf_line(b, o, t.threat_depth) {
                let breaks = t.threat_defences(b, o);
                cands.retain(|&p| breaks.contains(&p) || b.patterns(p, c) >> 16 != 0);
            }
            cands.sort_by_key(|&p| std::cmp::Reverse(b.point_score(p, c)));
            let eager = self.eager;
            for x in cands {
                if c == Color::Black && b.is_forbidden(x) {
                    continue;
                }
                if eager {
                    b.place(x, c);
                    let threat = t.vcf_line(b, c, t.threat_depth);
                    b.undo();
                    if t.aborted {
                        return None;
                    }
                    if !threat {
                        continue;
                    }
                }
                // Lower in the order, a larger proof number: the best-looking threat is
                // read deeper before the others are looked at (their threat check is the
                // AND node's first step).
                let rank = self.kids[ply].len() as u32;
                self.kids[ply].push(Child {
                    p: x,
                    pn: 1 + rank / self.rank_div,
                    dn: 1,
                });
            }
            if self.kids[ply].is_empty() {
                return disproved;
            }
        } else {
            if five_move(b, o).is_some() {
                return disproved;
            }
            let fives = five_points(b, c);
            if fives.len() >= 2 {
                return proved;
            }
            if let [q] = fives[..] {
                if o == Color::Black && b.is_forbidden(q) {
                    return proved;
                }
                self.kids[ply].push(Child { p: q, pn: 1, dn: 1 });
                return None;
            }
            if !t.vcf_line(b, c, t.threat_depth) {
                // Not a threat: the defender may do anything.
                return disproved;
            }
            let mut v = t.threat_defences(b, c);
            if t.vcf_line(b, o, NODE_VCF_DEPTH) {
                return disproved;
            }
            for q in four_moves(b, o) {
                if !v.contains(&q) {
                    v.push(q);
                }
            }
            v.retain(|&q| b.is_empty(q));
            v.sort_by_key(|&q| std::cmp::Reverse(b.point_score(q, o)));
            for q in v {
                if o == Color::Black && b.is_forbidden(q) {
                    continue;
                }
                if five_at(b, q, o) {
                    return disproved;
                }
                let rank = self.kids[ply].len() as u32;
                self.kids[ply].push(Child {
                    p: q,
                    pn: 1,
                    dn: 1 + rank / self.rank_div,
                });
            }
            if self.kids[ply].is_empty() {
                return proved;
            }
        }
        None
    }

    /// A principal line of a proved VCT from `b` (attacker `c` to move), both colours
    /// alternating, ending in the attacker's five: at each AND node the defence the table
    /// found hardest, then the VCF that proved the last OR node. Empty when the table has
    /// lost the proof. For replaying proofs in tests.
    pub fn proof_line(&mut self, t: &mut Threats, b: &mut Board, c: Color) -> Vec<Point> {
        self.adopt(b);
        self.attacker = c;
        self.horizon = b.stone_count() + 2 * self.max_moves as usize + 1;
        let mut line = Vec::new();
        let mut placed = 0;
        loop {
            if let Some(w) = five_move(b, c) {
                line.push(w);
                break;
            }
            let key = self.key(t, b, true);
            let e = self.probe(key, self.left(b));
            let next = match e {
                Some(e) if e.pn == 0 && e.best != u16::MAX => e.best,
                _ => {
                    if t.vcf_line(b, c, ROOT_VCF_DEPTH) {
                        line.extend(t.vcf_moves());
                    } else {
                        line.clear();
                    }
                    break;
                }
            };
            line.push(next);
            b.place(next, c);
            placed += 1;
            // The defender's reply: the proved child with the most work.
            self.expand(t, b, MAX_PLY - 3, false);
            let mut reply = None;
            let mut most = 0;
            for k in self.kids[MAX_PLY - 3].clone() {
                b.place(k.p, c.opponent());
                let key = self.key(t, b, true);
                let l = self.left(b);
                b.undo();
                if let Some(e) = self.probe(key, l) {
                    if e.pn == 0 && (reply.is_none() || e.work > most) {
                        most = e.work;
                        reply = Some(k.p);
                    }
                }
            }
            let Some(r) = reply.or_else(|| self.kids[MAX_PLY - 3].first().map(|k| k.p)) else {
                // No defence at all (a double four): the five follows.
                if let Some(w) = five_move(b, c) {
                    // The defender blocks one end; the attacker takes another.
                    let ends = five_points(b, c);
                    line.push(ends[0]);
                    let other = ends.iter().copied().find(|&q| q != ends[0]).unwrap_or(w);
                    line.push(other);
                }
                break;
            };
            line.push(r);
            b.place(r, c.opponent());
            placed += 1;
        }
        for _ in 0..placed {
            b.undo();
        }
        line
    }
}

/// The 1+epsilon threshold over a runner-up's number, epsilon = 1: the fewest threat
/// nodes on examples/gomoku_dfpn.rs of the values tried (docs/experiments/gomoku.md).
fn grow(n: u32) -> u32 {
    (n.saturating_mul(2) + 1).min(INF)
}
