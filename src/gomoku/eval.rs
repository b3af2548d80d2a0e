//! The window evaluation after the value-estimation paper: every empty point is scored for
//! the side to move over the 4 directions and the 5 windows of 5 cells through it in each,
//! a window counting only when it holds stones of one colour (an empty window counts too,
//! which favours the centre). Own windows score as attack, the opponent's as defence. The
//! weights are the widely used five-tuple table (`board::OWN`, `board::OPP`); they were not
//! checked against the paper's own numbers. The position value is the incremental sum kept
//! by the board.
use super::board::{Board, Point, Rule};
use super::patterns::{CodeTable, Pattern4, PatternCounts, N_CLASSES, N_LINE_CATS};
use super::weights::ClassWeights;
use crate::color::Color;

/// A candidate move and its ordering score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cand {
    pub p: Point,
    pub score: i32,
    /// [`THREAT_OWN`] and [`THREAT_OPP`] bits.
    pub threat: u8,
}

/// The mover makes a four here (the cell lies in a window of three of its stones and none
/// of the opponent's).
pub const THREAT_OWN: u8 = 1;
/// The cell lies in a window of three opponent stones and none of the mover's: playing it
/// breaks that window.
pub const THREAT_OPP: u8 = 2;

/// What one scan of the candidate points found besides the scores.
#[derive(Clone, Copy, Debug, Default)]
pub struct Scan {
    /// A point where the mover makes a winning five.
    pub win: Option<Point>,
    /// Points where the opponent would make a winning five (distinct, at most 4 kept).
    pub blocks: [Point; 4],
    pub n_blocks: usize,
    /// The opponent has a point that gives it two five-points at once (an open four or a
    /// double four: two of its three-stone windows through one empty cell). Unless the
    /// mover has a four to play, it must break one of those windows now, so only
    /// [`THREAT_OWN`] and [`THREAT_OPP`] moves can hold.
    pub opp_double: bool,
}

/// Keeps only the moves that may answer an opponent's double threat (see
/// [`Scan::opp_double`]): own fours and cells breaking the opponent's three-stone windows.
/// A superset of the real defences (every real defence breaks one of the windows through
/// the double point, or makes a four). Leaves `out` unchanged if nothing would be left.
pub fn keep_defences(out: &mut Vec<Cand>) {
    if out.iter().any(|m| m.threat != 0) {
        out.retain(|m| m.threat != 0);
    }
}

/// Scores every empty point next to a stone (within 2 cells) for `c` to move into `out`
/// (unsorted). On an empty board the centre is the only candidate. Renju forbidden points
/// are left out for Black.
pub fn scan(b: &mut Board, c: Color, out: &mut Vec<Cand>) -> Scan {
    out.clear();
    let mut s = Scan::default();
    if b.stone_count() == 0 {
        let m = b.size() / 2;
        out.push(Cand {
            p: b.point(m, m),
            score: 1,
            threat: 0,
        });
        return s;
    }
    let dirs = b.dirs();
    let renju_black = b.rule() == Rule::Renju && c == Color::Black;
    // Candidates lie within 2 cells of a stone, so inside the stones' box widened by 2.
    let n = b.size();
    let ((c0, c1), (r0, r1)) = b.stone_box().expect("stones on the board");
    for r in r0.saturating_sub(2)..(r1 + 3).min(n) {
        for col in c0.saturating_sub(2)..(c1 + 3).min(n) {
            let p = b.point(col, r);
            if !b.is_empty(p) || !b.near(p) {
                continue;
            }
            let score = b.point_score(p, c);
            let own = b.patterns(p, c);
            let opp = b.patterns(p, c.opponent());
            let own4 = own >> 24 != 0;
            let opp4 = opp >> 24 != 0;
            let opp3 = (opp >> 16) & 0xff;
            s.opp_double |= opp3 >= 2;
            let threat = if (own >> 16) & 0xff != 0 {
                THREAT_OWN
            } else {
                0
            } | if opp3 != 0 { THREAT_OPP } else { 0 };
            if own4 && s.win.is_none() && b.makes_five(p, c) {
                s.win = Some(p);
            }
            if opp4 && s.n_blocks < 4 && b.makes_five(p, c.opponent()) {
                s.blocks[s.n_blocks] = p;
                s.n_blocks += 1;
            }
            if renju_black
                && s.win != Some(p)
                && (own4 || busy_dirs(b, p, &dirs) >= 2)
                && b.is_forbidden(p)
            {
                continue;
            }
            out.push(Cand { p, score, threat });
        }
    }
    s
}

/// Directions through `p` with a window holding two or more black stones and no white one
/// (a renju double needs two).
fn busy_dirs(b: &Board, p: Point, dirs: &[isize; 4]) -> u32 {
    let mut n = 0;
    for (d, &dir) in dirs.iter().enumerate() {
        n += (0..5).any(|k| {
            b.window(d, p as isize - k * dir, Color::Black)
                .is_some_and(|(own, other)| other == 0 && own >= 2)
        }) as u32;
    }
    n
}

/// Static value of the position for `c` to move. The mover's windows weigh a bit more: it
/// is its turn to extend them.
#[inline]
pub fn evaluate(b: &Board, c: Color) -> i32 {
    evaluate_sums(b.eval_sum(c), b.eval_sum(c.opponent()))
}

/// [`evaluate`] from the mover's and the opponent's window sums.
#[inline]
pub fn evaluate_sums(own: i32, other: i32) -> i32 {
    own + own / 4 - other
}

/// Value a leaf position is given when the mover has a win the window sums cannot see (an
/// open four to make, or a four-three or double three against an opponent without fours):
/// above any sum of windows, below the search's proved wins ([`super::search::MATE_BOUND`]),
/// since a static guess is not a proof.
pub const WIN_LIKE: i32 = 100_000;

/// Empty cells of a colour's class counts (`counts`, indexed by class) in class `k` or
/// stronger.
fn count_from(counts: &[u16; N_CLASSES], k: Pattern4) -> u16 {
    counts[k as usize..].iter().sum()
}

/// The line-pattern part of the full engine's evaluation, for `c` to move, added to the
/// window sums: the sums count stones in windows and cannot tell an open three from a
/// closed one, nor see one cell making threats in two directions, which is what decides
/// Gomoku games. The opponent must have no five to complete (the search answers those).
/// `w` weighs the classes and line categories (see [`ClassWeights`]).
pub fn threat_eval(b: &Board, c: Color, w: &ClassWeights) -> i32 {
    threat_eval_counts(b.counts(), c, w)
}

/// [`threat_eval`] from both colours' counts (as [`Board::peek_counts`] gives them for the
/// position after a move).
#[inline]
pub fn threat_eval_counts(counts: &PatternCounts, c: Color, w: &ClassWeights) -> i32 {
    if let Some(v) = win_like(counts, c) {
        return v;
    }
    let (own, opp) = (
        &counts.class[c.index()],
        &counts.class[c.opponent().index()],
    );
    let mut v = 0;
    for k in 0..N_CLASSES {
        v += w.mover[k] * own[k] as i32 - w.waiter[k] * opp[k] as i32;
    }
    let (own, opp) = (&counts.line[c.index()], &counts.line[c.opponent().index()]);
    // Category 0 (Block2 and weaker) is everywhere and carries no weight.
    for k in 1..N_LINE_CATS {
        v += w.line_mover[k] * own[k] as i32 - w.line_waiter[k] * opp[k] as i32;
    }
    v
}

/// The static "won" values of `counts` for `c` to move, shared by both pattern models: an
/// open four to make, or a four-three or double three against no fours.
#[inline(always)]
fn win_like(counts: &PatternCounts, c: Color) -> Option<i32> {
    let (own, opp) = (
        &counts.class[c.index()],
        &counts.class[c.opponent().index()],
    );
    // An open four to make wins: in the fitted games the mover won all 823 such positions
    // where the opponent had fours to interpose, and all of those where it had none.
    if own[Pattern4::Flex4 as usize] > 0 {
        return Some(WIN_LIKE);
    }
    if count_from(opp, Pattern4::Block4) == 0 {
        // Without fours to interpose, the opponent can block only one of the two threats
        // of a four-three or a double three.
        if own[Pattern4::Block4Flex3 as usize] + own[Pattern4::Flex3x2 as usize] > 0 {
            return Some(WIN_LIKE / 2);
        }
    }
    None
}

/// The pattern-code model's part of the evaluation for `c` to move, from counts kept with
/// a [`super::patterns::CodeTable`] on the board: after the same "won" shortcuts as
/// [`threat_eval_counts`], the mover's empty cells weighed by the mover's table minus the
/// opponent's weighed by the waiting side's. One code per cell sees all four directions
/// together, which the classes and line categories fold into a few numbers.
///
/// Plus the table's weight of the position's [`threat_mask`]: which threat classes each
/// side holds, weighed together, since a three is worth more when the opponent has no four
/// to gain a tempo with, which a sum over cells cannot say.
#[inline]
pub fn code_eval_counts(counts: &PatternCounts, c: Color, table: &CodeTable) -> i32 {
    if let Some(v) = win_like(counts, c) {
        return v;
    }
    counts.code[c.index()][0] - counts.code[c.opponent().index()][1]
        + table.mask[threat_mask(counts, c)] as i32
}

/// Number of [`threat_mask`] values.
pub const N_MASKS: usize = 1 << 11;

/// Which threat classes the mover and the waiting side hold on some empty cell, as 11 bits:
/// the mover's four (Block4 and up), four-three or double three, three (Flex3 and up),
/// three with another threat, and double three-or-two (Block3Plus or Flex2x2); the waiting
/// side's open four, four-three or double three, four, three, three with another threat,
/// and double three-or-two.
#[inline]
pub fn threat_mask(counts: &PatternCounts, c: Color) -> usize {
    use Pattern4::*;
    // Bit k: the side has a cell of class k.
    let present = |s: &[u16; N_CLASSES]| {
        (s.iter().enumerate()).fold(0u16, |m, (k, &n)| m | ((n > 0) as u16) << k)
    };
    let of = |ks: &[Pattern4]| ks.iter().fold(0u16, |m, &k| m | 1 << k as u16);
    let side = |p: u16| {
        [
            of(&[Block4, Block4Plus, Block4Flex3]),
            of(&[Block4Flex3, Flex3x2]),
            of(&[Flex3, Flex3Plus, Flex3x2]),
            of(&[Flex3Plus]),
            of(&[Block3Plus, Flex2x2]),
        ]
        .iter()
        .enumerate()
        .fold(0, |m, (bit, &ks)| m | ((p & ks != 0) as usize) << bit)
    };
    let (own, opp) = (
        present(&counts.class[c.index()]),
        present(&counts.class[c.opponent().index()]),
    );
    side(own) | side(opp) << 5 | ((opp & of(&[Flex4]) != 0) as usize) << 10
}

/// Ordering bonus of the empty cell `p` for `c` to move (index = class): its own class as
/// attack, the opponent's class there as defence. Set by hand, on the scale of the point
/// scores (a window of two own stones adds 800 to them).
const ORDER_OWN: [i32; N_CLASSES] = [0, 300, 300, 600, 1200, 6000, 400, 1000, 8000, 20000, 0];
const ORDER_OPP: [i32; N_CLASSES] = [0, 200, 200, 400, 800, 4000, 300, 600, 5000, 10000, 0];

/// Turns the paper's point scores of `cands` (for `c` to move) into the full engine's
/// candidate scores: plus the line-pattern classes of each cell for both colours (a double
/// three outranks a cell that merely lies in many windows).
pub fn add_pattern_scores(b: &Board, c: Color, cands: &mut [Cand]) {
    let o = c.opponent();
    for m in cands {
        m.score += ORDER_OWN[b.pattern4(m.p, c) as usize] + ORDER_OPP[b.pattern4(m.p, o) as usize];
    }
}
