//! Chain theory: the decomposition of a position into chains, loops and joints, the
//! long-chain rule, and the exact value of simple loony endgames.
//!
//! In strings-and-coins terms every unclaimed box is a coin and every undrawn edge a string
//! (to a neighbour coin or to the ground). Boxes with exactly two sides drawn have two
//! strings and link into chains; a box with 0-1 sides is a joint; a box with 3 sides can be
//! taken now.
use super::geometry::{Geometry, GROUND};
use std::collections::HashMap;

/// What lies beyond the last box of a chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Ground,
    /// A box with two or more undrawn edges besides this chain's (0 or 1 side drawn).
    Joint(u8),
    /// A box with three sides drawn: the chain has been opened at this end.
    Capturable(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chain {
    pub len: u8,
    pub ends: [End; 2],
}

impl Chain {
    /// Chains of three or more boxes are long: the player who is given one can keep control
    /// by declining the last two.
    pub fn is_long(&self) -> bool {
        self.len >= 3
    }
    /// Both ends on the ground: the chain does not touch the rest of the position.
    pub fn is_independent(&self) -> bool {
        self.ends == [End::Ground, End::Ground]
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decomposition {
    pub chains: Vec<Chain>,
    /// Lengths of closed loops (always >= 4 on a grid).
    pub loops: Vec<u8>,
    /// Boxes with 0 or 1 sides drawn.
    pub joints: usize,
    /// Boxes with 3 sides drawn.
    pub capturable: usize,
}

impl Decomposition {
    pub fn long_chains(&self) -> usize {
        self.chains.iter().filter(|c| c.is_long()).count()
    }
    pub fn short_chains(&self) -> usize {
        self.chains.len() - self.long_chains()
    }
    /// A simple loony endgame: only independent chains and loops remain, nothing to take.
    pub fn is_simple(&self) -> bool {
        self.joints == 0 && self.capturable == 0 && self.chains.iter().all(Chain::is_independent)
    }
    /// Components in the encoding `loony_value` takes: chains by length, loops as
    /// `LOOP + length`.
    pub fn components(&self) -> Vec<u8> {
        let mut v: Vec<u8> = self.chains.iter().map(|c| c.len).collect();
        v.extend(self.loops.iter().map(|&l| LOOP + l));
        v
    }
}

/// Decomposes the position given by `sides` (per box) and `drawn` (per edge).
pub fn decompose(geo: &Geometry, sides: &[u8], drawn: impl Fn(usize) -> bool) -> Decomposition {
    let mut d = Decomposition::default();
    let mut seen = 0u64;
    let missing = |b: usize| {
        let mut m = [0u8; 2];
        let mut k = 0;
        for e in geo.box_edges(b) {
            if !drawn(e as usize) && k < 2 {
                m[k] = e;
                k += 1;
            }
        }
        m
    };
    for b in 0..geo.n_boxes() {
        match sides[b] {
            0 | 1 => d.joints += 1,
            3 => d.capturable += 1,
            _ => {}
        }
        if sides[b] != 2 || seen >> b & 1 != 0 {
            continue;
        }
        seen |= 1 << b;
        let mut len = 1u8;
        let mut ends = [End::Ground; 2];
        let mut is_loop = false;
        for (dir, &first) in missing(b).iter().enumerate() {
            let (mut cur, mut via) = (b as u8, first as usize);
            loop {
                let n = geo.across(via, cur);
                if n == GROUND {
                    ends[dir] = End::Ground;
                    break;
                }
                if n as usize == b {
                    is_loop = true;
                    break;
                }
                match sides[n as usize] {
                    2 => {}
                    3 => {
                        ends[dir] = End::Capturable(n);
                        break;
                    }
                    _ => {
                        ends[dir] = End::Joint(n);
                        break;
                    }
                }
                seen |= 1 << n;
                len += 1;
                let [m0, m1] = missing(n as usize);
                via = if m0 as usize == via { m1 } else { m0 } as usize;
                cur = n;
            }
            if is_loop {
                break;
            }
        }
        if is_loop {
            d.loops.push(len);
        } else {
            d.chains.push(Chain { len, ends });
        }
    }
    d
}

/// Component code offset for loops in `loony_value`.
pub const LOOP: u8 = 128;

/// The long-chain rule: the parity of the number of long chains that `first_player` should
/// aim for. Dots + Doublecrosses = Turns, and in a loony endgame kept under control every
/// long chain but the last brings one double-cross, so the first player wants
/// dots + long chains even, the second player odd.
pub fn wanted_long_chain_parity(geo: &Geometry, first_player: bool) -> usize {
    (geo.n_dots() + !first_player as usize) % 2
}

/// Exact value, for the player who must move, of a simple loony endgame whose components
/// are `comps` (chain lengths, and `LOOP + length` for loops): that player must open a
/// component, and the opponent takes it all or declines the last two (four for a loop).
/// The controller's value is `-loony_value`. Only the shortest long chain and the shortest
/// loop need a try (a closed form); short chains are tried one length each.
pub fn loony_value(comps: &[u8], memo: &mut LoonyMemo) -> i32 {
    let mut v: Vec<u8> = comps.to_vec();
    v.sort_unstable();
    memo.value(&v)
}

/// Memo of `loony_value` by sorted component list, so the solver can ask often.
#[derive(Default)]
pub struct LoonyMemo {
    map: HashMap<u128, i32>,
}

impl LoonyMemo {
    fn value(&mut self, sorted: &[u8]) -> i32 {
        if sorted.is_empty() {
            return 0;
        }
        let key =
            (sorted.len() <= 16).then(|| sorted.iter().fold(0u128, |k, &c| k << 8 | c as u128));
        if let Some(v) = key.and_then(|k| self.map.get(&k)) {
            return *v;
        }
        let mut best = i32::MIN;
        let mut tried_long_chain = false;
        for i in 0..sorted.len() {
            let c = sorted[i];
            if i > 0 && sorted[i - 1] == c {
                continue;
            }
            let is_loop = c >= LOOP;
            if !is_loop && c >= 3 {
                if tried_long_chain {
                    continue;
                }
                tried_long_chain = true;
            }
            if is_loop && i > 0 && sorted[i - 1] >= LOOP {
                continue; // a shorter loop was tried
            }
            let mut rest = Vec::with_capacity(sorted.len() - 1);
            rest.extend_from_slice(&sorted[..i]);
            rest.extend_from_slice(&sorted[i + 1..]);
            let after = self.value(&rest);
            let val = open_value(c, after);
            best = best.max(val);
        }
        if let Some(k) = key {
            self.map.insert(k, best);
        }
        best
    }
}

/// The opener's value of opening component `c` when the player who moves after it is gone
/// has value `after` (the opener's opponent is not necessarily that player).
fn open_value(c: u8, after: i32) -> i32 {
    if c >= LOOP {
        let n = (c - LOOP) as i32;
        // Opponent takes all (then moves: -n - after) or all but four (opener gets 4 and
        // must move: -(n-4) + 4 + after); the opponent chooses.
        -(n - 4) - (4 + after).abs()
    } else {
        let n = c as i32;
        if n >= 3 {
            -(n - 2) - (2 + after).abs()
        } else {
            // A single box, or a pair opened in the middle (the hard-hearted handout):
            // nothing to decline, the opponent takes n and moves on.
            -n - after
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dots::Board;

    fn ctrl(comps: &[u8]) -> i32 {
        -loony_value(comps, &mut LoonyMemo::default())
    }

    /// The controller's values of small loony endgames, worked out by hand.
    #[test]
    fn controller_values_in_closed_form() {
        for n in 1..=8u8 {
            assert_eq!(
                loony_value(&[n], &mut LoonyMemo::default()),
                -(n as i32),
                "closed {n}-chain"
            );
        }
        assert_eq!(
            loony_value(&[LOOP + 4, LOOP + 4], &mut LoonyMemo::default()),
            0
        );
        assert_eq!(ctrl(&[3]), 3);
        assert_eq!(ctrl(&[3, 3]), 2);
        assert_eq!(ctrl(&[3, 3, 3]), 1);
        assert_eq!(ctrl(&[4, 4]), 4);
        assert_eq!(ctrl(&[5, 6]), 7);
        assert_eq!(ctrl(&[3, LOOP + 8]), 5);
        assert_eq!(ctrl(&[3, 4, LOOP + 4]), 1);
    }

    /// Trying only the shortest long chain and loop agrees with trying every component.
    #[test]
    fn shortest_component_suffices() {
        fn full(c: &[u8]) -> i32 {
            (0..c.len())
                .map(|i| {
                    let mut r = c.to_vec();
                    r.remove(i);
                    open_value(c[i], full(&r))
                })
                .max()
                .unwrap_or(0)
        }
        let pool = [1, 2, 3, 3, 4, 5, 7, LOOP + 4, LOOP + 6, LOOP + 8, LOOP + 4];
        for mask in 0u32..(1 << pool.len()) {
            let comps: Vec<u8> = (0..pool.len())
                .filter(|i| mask >> i & 1 != 0)
                .map(|i| pool[i])
                .collect();
            if comps.len() <= 6 {
                assert_eq!(
                    loony_value(&comps, &mut LoonyMemo::default()),
                    full(&comps),
                    "{comps:?}"
                );
            }
        }
    }

    fn board(c: usize, r: usize, edges: &[&str]) -> Board {
        let mut b = Board::new(c, r).unwrap();
        for s in edges {
            let e = b.edge_index(&s.parse().unwrap()).unwrap();
            b.play(e).unwrap();
        }
        b
    }

    fn decompose_board(b: &Board) -> Decomposition {
        let sides: Vec<u8> = (0..b.geometry().n_boxes()).map(|i| b.sides(i)).collect();
        decompose(b.geometry(), &sides, |e| b.is_drawn(e))
    }

    #[test]
    fn decomposes_a_chain_and_a_loop() {
        // 3x1: top and bottom drawn: one independent chain of 3 (ends on the ground).
        let b = board(
            3,
            1,
            &["a1-b1", "b1-c1", "c1-d1", "a2-b2", "b2-c2", "c2-d2"],
        );
        let d = decompose_board(&b);
        assert_eq!(
            d.chains,
            vec![Chain {
                len: 3,
                ends: [End::Ground; 2]
            }]
        );
        assert!(d.is_simple() && d.long_chains() == 1);
        // 2x2: all outer edges drawn, inner cross open: a loop of four.
        let outer = [
            "a1-b1", "b1-c1", "a3-b3", "b3-c3", "a1-a2", "a2-a3", "c1-c2", "c2-c3",
        ];
        let d = decompose_board(&board(2, 2, &outer));
        assert_eq!((d.loops.clone(), d.chains.len()), (vec![4], 0));
        // Opening the loop leaves two capturable ends of one chain.
        let mut opened = outer.to_vec();
        opened.push("b1-b2");
        let d = decompose_board(&board(2, 2, &opened));
        assert_eq!(d.capturable, 2);
        assert_eq!(d.chains.len(), 1);
        assert_eq!(d.chains[0].len, 2);
        // Empty 2x2: every box is a joint.
        let d = decompose_board(&board(2, 2, &[]));
        assert_eq!((d.joints, d.is_simple()), (4, false));
    }

    #[test]
    fn long_chain_rule_targets() {
        let g = Geometry::new(5, 5).unwrap(); // 36 dots: the first player wants an even count
        assert_eq!(wanted_long_chain_parity(&g, true), 0);
        assert_eq!(wanted_long_chain_parity(&g, false), 1);
        let g = Geometry::new(2, 3).unwrap(); // 12 dots
        assert_eq!(wanted_long_chain_parity(&g, true), 0);
        let g = Geometry::new(1, 2).unwrap(); // 6 dots
        assert_eq!(wanted_long_chain_parity(&g, true), 0);
        let g = Geometry::new(2, 4).unwrap(); // 15 dots: the first player wants an odd count
        assert_eq!(wanted_long_chain_parity(&g, true), 1);
    }
}
