//! Threat-space search: VCF (victory by continuous fours) and VCT (victory by continuous
//! threats: fours and open threes).
//!
//! VCF is exact for the lines it explores: after each four the defender's only reply is the
//! completion point (a renju Black defender that cannot play there has lost), and a four the
//! defender makes while blocking must be blocked by the attacker at once. VCT answers each
//! open three with every defence that kills the three's straight four on its line and with
//! every four of the defender, and gives up when the defender has a VCF of its own; a
//! defence that works only through a far-away three of the defender is not tried, which is
//! the usual approximation of threat-space search.
use super::board::{Board, Point, Rule};
use crate::color::Color;
use crate::search::Poller;

/// Moves of a threat search, with a shared node count and stop polling.
pub struct Threats<'a, 'l> {
    pub nodes: u64,
    pub poller: &'a mut Poller<'l>,
    pub aborted: bool,
    /// Node cap for one root call, so a VCT cannot eat the move's time.
    pub budget: u64,
    /// Cache of positions (hash ^ side ^ kind) already disproved.
    failed: std::collections::HashSet<u64>,
}

const KEY_VCF: u64 = 0x1234_5678_9abc_def1;
const KEY_VCT: u64 = 0x0fed_cba9_8765_4321;
const KEY_WHITE: u64 = 0x7777_1111_3333_5555;

impl<'a, 'l> Threats<'a, 'l> {
    pub fn new(poller: &'a mut Poller<'l>, budget: u64) -> Self {
        Threats {
            nodes: 0,
            poller,
            aborted: false,
            budget,
            failed: Default::default(),
        }
    }

    fn tick(&mut self, base: u64) -> bool {
        self.nodes += 1;
        if self.aborted || self.nodes > self.budget || self.poller.poll(base + self.nodes) {
            self.aborted = true;
        }
        self.aborted
    }

    fn key(b: &Board, c: Color, kind: u64, depth: u32) -> u64 {
        let side = if c == Color::White { KEY_WHITE } else { 0 };
        b.hash() ^ side ^ kind.rotate_left(depth)
    }

    /// A winning first move for `c` (to move) by continuous fours, if one is found.
    /// Precondition: the opponent has no five to complete.
    pub fn vcf_root(&mut self, b: &mut Board, c: Color, depth: u32) -> Option<Point> {
        let mut first = None;
        if self.vcf(b, c, depth, None, &mut first) {
            first
        } else {
            None
        }
    }

    /// A winning first move for `c` by continuous threats, if one is found.
    pub fn vct_root(&mut self, b: &mut Board, c: Color, depth: u32) -> Option<Point> {
        let mut first = None;
        for d in 1..=depth {
            if self.vct(b, c, d, None, &mut first) {
                return first;
            }
            if self.aborted {
                break;
            }
        }
        None
    }

    /// `forced`: the attacker must play this point first (to block the defender's four).
    fn vcf(
        &mut self,
        b: &mut Board,
        c: Color,
        depth: u32,
        forced: Option<Point>,
        first: &mut Option<Point>,
    ) -> bool {
        if self.tick(0) || depth == 0 {
            return false;
        }
        let key = Self::key(b, c, KEY_VCF, 0) ^ forced.map_or(0, |p| p as u64 * 0x9e37);
        if self.failed.contains(&key) {
            return false;
        }
        let moves = match forced {
            Some(f) => vec![f],
            None => {
                if let Some(w) = five_move(b, c) {
                    *first = Some(w);
                    return true;
                }
                four_moves(b, c)
            }
        };
        for p in moves {
            if let Some(true) = self.attack_four(b, c, p, depth, first, false) {
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        self.failed.insert(key);
        false
    }

    /// Plays `p` for `c`; if it is a four, the defender blocks and the search continues
    /// (VCF or VCT). `None` when `p` is not a four.
    fn attack_four(
        &mut self,
        b: &mut Board,
        c: Color,
        p: Point,
        depth: u32,
        first: &mut Option<Point>,
        vct: bool,
    ) -> Option<bool> {
        if c == Color::Black && b.is_forbidden(p) {
            return None;
        }
        if b.makes_five(p, c) {
            *first = Some(p);
            return Some(true);
        }
        b.place(p, c);
        let mut qs = [0; 4];
        let n = completions(b, p, c, &mut qs);
        let result = if n == 0 {
            None
        } else if n >= 2 {
            Some(true)
        } else {
            Some(self.defend_four(b, c, qs[0], depth, vct))
        };
        b.undo();
        if result == Some(true) {
            *first = Some(p);
        }
        result
    }

    /// The defender blocks the attacker's four at `q`; true when the attacker still wins.
    fn defend_four(&mut self, b: &mut Board, c: Color, q: Point, depth: u32, vct: bool) -> bool {
        let o = c.opponent();
        if o == Color::Black && b.rule() == Rule::Renju && b.is_forbidden(q) {
            return true;
        }
        if b.makes_five(q, o) {
            return false;
        }
        b.place(q, o);
        let mut rs = [0; 4];
        let n = completions(b, q, o, &mut rs);
        let mut dummy = None;
        let won = match n {
            0 if vct => self.vct(b, c, depth - 1, None, &mut dummy),
            0 => self.vcf(b, c, depth - 1, None, &mut dummy),
            1 if vct => self.vct(b, c, depth - 1, Some(rs[0]), &mut dummy),
            1 => self.vcf(b, c, depth - 1, Some(rs[0]), &mut dummy),
            _ => false,
        };
        b.undo();
        won
    }

    fn vct(
        &mut self,
        b: &mut Board,
        c: Color,
        depth: u32,
        forced: Option<Point>,
        first: &mut Option<Point>,
    ) -> bool {
        if self.tick(0) {
            return false;
        }
        if self.vcf(b, c, 12, forced, first) {
            return true;
        }
        if depth == 0 || self.aborted {
            return false;
        }
        let key = Self::key(b, c, KEY_VCT, depth) ^ forced.map_or(0, |p| p as u64 * 0x9e37);
        if self.failed.contains(&key) {
            return false;
        }
        let (fours, threes) = match forced {
            Some(f) => (vec![f], vec![f]),
            None => (four_moves(b, c), three_moves(b, c)),
        };
        for &p in &fours {
            if let Some(true) = self.attack_four(b, c, p, depth, first, true) {
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        for &p in &threes {
            if c == Color::Black && b.is_forbidden(p) {
                continue;
            }
            b.place(p, c);
            let won = open_three_dirs(b, p, c) != 0 && self.refute_three(b, c, p, depth);
            b.undo();
            if won {
                *first = Some(p);
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        self.failed.insert(key);
        false
    }

    /// After the attacker's three at `p`: true when every defence loses.
    fn refute_three(&mut self, b: &mut Board, c: Color, p: Point, depth: u32) -> bool {
        let o = c.opponent();
        let mut none = None;
        if self.vcf(b, o, 12, None, &mut none) {
            return false;
        }
        let mut replies = defence_points(b, p, c);
        for q in four_moves(b, o) {
            if !replies.contains(&q) {
                replies.push(q);
            }
        }
        for q in replies {
            if o == Color::Black && b.is_forbidden(q) {
                continue;
            }
            if b.makes_five(q, o) {
                return false;
            }
            b.place(q, o);
            let mut rs = [0; 4];
            let n = completions(b, q, o, &mut rs);
            let mut dummy = None;
            let won = match n {
                0 => self.vct(b, c, depth - 1, None, &mut dummy),
                1 => self.vct(b, c, depth - 1, Some(rs[0]), &mut dummy),
                _ => false,
            };
            b.undo();
            if !won {
                return false;
            }
        }
        true
    }
}

/// A point where `c` completes a winning five.
pub fn five_move(b: &Board, c: Color) -> Option<Point> {
    candidates(b, c, 4)
        .into_iter()
        .find(|&p| b.makes_five(p, c))
}

/// Empty points near stones lying in a window with at least `k` stones of `c` and none of
/// the other colour.
fn candidates(b: &Board, c: Color, k: u8) -> Vec<Point> {
    let dirs = b.dirs();
    let mut v = Vec::new();
    for p in b.points() {
        if !b.is_empty(p) || !b.near(p) {
            continue;
        }
        let hit = dirs.iter().enumerate().any(|(d, &dir)| {
            (0..5).any(|j| {
                b.window(d, p as isize - j * dir, c)
                    .is_some_and(|(own, other)| other == 0 && own >= k)
            })
        });
        if hit {
            v.push(p);
        }
    }
    v
}

/// Points where `c` makes a four (a window of 4 own stones with one empty cell).
pub fn four_moves(b: &Board, c: Color) -> Vec<Point> {
    candidates(b, c, 3)
}

/// Points where `c` may make an open three (filtered exactly after placing).
fn three_moves(b: &Board, c: Color) -> Vec<Point> {
    candidates(b, c, 2)
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
            if b.makes_five(q, c) && n < 4 && !out[..n].contains(&q) && in_line(b, q, p, dir, c) {
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

/// Bitmask of directions in which `c`'s stone at `p` is part of an open three: one more
/// stone on that line makes a straight four (two winning completions five cells apart).
pub fn open_three_dirs(b: &mut Board, p: Point, c: Color) -> u8 {
    let dirs = b.dirs();
    let mut mask = 0;
    for (d, &dir) in dirs.iter().enumerate() {
        for k in -4..=4isize {
            let q = p as isize + k * dir;
            if k == 0 || b.raw(q) != 0 {
                continue;
            }
            b.place(q as Point, c);
            let open = straight_four(b, p, dir, c);
            b.undo();
            if open {
                mask |= 1 << d;
                break;
            }
        }
    }
    mask
}

fn straight_four(b: &Board, p: Point, dir: isize, c: Color) -> bool {
    let mut ks = [0isize; 9];
    let mut n = 0;
    for k in -5..=5isize {
        let q = p as isize + k * dir;
        if k == 0 || b.raw(q) != 0 {
            continue;
        }
        if b.makes_five(q as Point, c) && in_line(b, q as Point, p, dir, c) {
            ks[n] = k;
            n += 1;
        }
    }
    (0..n).any(|i| (0..n).any(|j| ks[j] - ks[i] == 5))
}

/// Empty points on the lines of `c`'s open three at `p` where a defender stone leaves no
/// straight four on that line.
fn defence_points(b: &mut Board, p: Point, c: Color) -> Vec<Point> {
    let mask = open_three_dirs(b, p, c);
    let dirs = b.dirs();
    let o = c.opponent();
    let mut v = Vec::new();
    for (d, &dir) in dirs.iter().enumerate() {
        if mask & (1 << d) == 0 {
            continue;
        }
        for k in -5..=5isize {
            let q = p as isize + k * dir;
            if k == 0 || b.raw(q) != 0 {
                continue;
            }
            b.place(q as Point, o);
            let still = open_three_dirs(b, p, c) & (1 << d) != 0;
            b.undo();
            if !still && !v.contains(&(q as Point)) {
                v.push(q as Point);
            }
        }
    }
    v
}
