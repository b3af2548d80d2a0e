//! Last good reply with forgetting (Baier and Drake, "The Power of Forgetting", 2010): the
//! playouts remember, per colour, the reply that won after the previous move (LGRF-1) and
//! after the previous two (LGRF-2), learnt from the simulations of the search itself, and
//! play it when it is legal. A reply whose simulation was lost is forgotten, so the tables
//! follow the position as the search moves through it.
//!
//! Each search thread keeps its own tables (no sharing, no locks); the first thread's
//! survive from one move to the next, as its tree does.
use super::board::{Move, Point, MAX_POINTS};
use crate::color::Color;

/// No stored reply; also the code of a pass or of no move as context (point 0 is a border
/// point, never a move).
const NONE: u16 = 0;

/// Where in the playout policy the stored replies are tried (`quartet go --lgrf`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stage {
    /// Never: no tables are learnt either.
    #[default]
    Off,
    /// Before every heuristic but the eye poke after a capture.
    First,
    /// After the capture and atari answers, before the two-liberty fights and the patterns.
    AfterCaptures,
    /// After all the heuristics, before the random move.
    BeforeRandom,
}

#[inline]
fn code(m: Option<Move>) -> u16 {
    match m {
        Some(Move::Play(p)) => p as u16,
        _ => NONE,
    }
}

/// The reply tables and the moves of the running simulation.
pub struct Replies {
    /// `[colour][previous move]`.
    one: Box<[u16]>,
    /// `[colour][move before the previous][previous move]`.
    two: Box<[u16]>,
    /// The simulation's moves so far, each with its mover, the two moves before the
    /// root first (context only).
    seq: Vec<(Color, u16)>,
}

impl Default for Replies {
    fn default() -> Self {
        Replies::new()
    }
}

impl Replies {
    pub fn new() -> Replies {
        Replies {
            one: vec![NONE; 2 * MAX_POINTS].into_boxed_slice(),
            two: vec![NONE; 2 * MAX_POINTS * MAX_POINTS].into_boxed_slice(),
            seq: Vec::with_capacity(4 * MAX_POINTS),
        }
    }

    /// Starts a simulation from a position whose last two moves were `last2`, `last`
    /// (`last` played by the opponent of `to_move`).
    pub fn begin(&mut self, to_move: Color, last2: Option<Move>, last: Option<Move>) {
        self.seq.clear();
        self.seq.push((to_move, code(last2)));
        self.seq.push((to_move.opponent(), code(last)));
    }

    /// Adds a move of the running simulation.
    #[inline]
    pub fn record(&mut self, c: Color, m: Move) {
        self.seq.push((c, code(Some(m))));
    }

    /// The stored replies of `c` after `last2`, `last`: the two-move one first, then the
    /// one-move one when it differs.
    #[inline]
    pub fn reply(&self, c: Color, last2: Option<Move>, last: Option<Move>) -> [Option<Point>; 2] {
        let (p2, p1) = (code(last2) as usize, code(last) as usize);
        let c = c.index();
        let two = self.two[(c * MAX_POINTS + p2) * MAX_POINTS + p1];
        let one = self.one[c * MAX_POINTS + p1];
        [
            (two != NONE).then_some(two as Point),
            (one != NONE && one != two).then_some(one as Point),
        ]
    }

    /// Learns from the finished simulation: the winner's moves become the replies to the
    /// moves before them, the loser's are forgotten where they were the stored reply.
    pub fn learn(&mut self, black_won: bool) {
        for i in 2..self.seq.len() {
            let (c, m) = self.seq[i];
            if m == NONE {
                continue;
            }
            let p1 = self.seq[i - 1].1 as usize;
            let p2 = self.seq[i - 2].1 as usize;
            let one = c.index() * MAX_POINTS + p1;
            let two = (c.index() * MAX_POINTS + p2) * MAX_POINTS + p1;
            if (c == Color::Black) == black_won {
                self.one[one] = m;
                self.two[two] = m;
            } else {
                if self.one[one] == m {
                    self.one[one] = NONE;
                }
                if self.two[two] == m {
                    self.two[two] = NONE;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    fn play(r: &mut Replies, first: Color, moves: &[Move], black_won: bool) {
        r.begin(first, None, None);
        let mut c = first;
        for &m in moves {
            r.record(c, m);
            c = c.opponent();
        }
        r.learn(black_won);
    }

    #[test]
    fn a_winning_reply_is_stored_and_a_losing_one_forgotten() {
        let mut r = Replies::new();
        let (a, b, x, y) = (30, 31, 40, 41);
        let (pa, pb, px, py) = (Move::Play(a), Move::Play(b), Move::Play(x), Move::Play(y));
        // Black a, White b, Black x, won by Black: x answers a-b (and b) for Black; White's
        // b is not learnt.
        play(&mut r, Black, &[pa, pb, px], true);
        assert_eq!(r.reply(Black, Some(pa), Some(pb)), [Some(x), None]);
        assert_eq!(r.reply(Black, None, Some(pb)), [None, Some(x)]);
        assert_eq!(r.reply(White, None, Some(pa)), [None, None]);
        // The same line lost by Black: x is forgotten in both tables, b learnt for White.
        play(&mut r, Black, &[pa, pb, px], false);
        assert_eq!(r.reply(Black, Some(pa), Some(pb)), [None, None]);
        assert_eq!(r.reply(White, None, Some(pa)), [Some(b), None]);
        // A loss with another move keeps what is stored: y is not White's reply to a.
        play(&mut r, Black, &[pa, py], true);
        assert_eq!(r.reply(White, None, Some(pa)), [Some(b), None]);
        // Passes are context, never replies: White's y after Black's pass is learnt.
        play(&mut r, Black, &[Move::Pass, py], false);
        assert_eq!(r.reply(White, None, Some(Move::Pass)), [Some(y), None]);
        // Black's a, first in the won third line, answers "no move before", and the
        // lost pass did not forget it.
        assert_eq!(r.reply(Black, None, None), [Some(a), None]);
    }
}
