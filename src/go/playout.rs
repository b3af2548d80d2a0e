//! Monte-Carlo playouts: a light policy (uniformly random legal moves that do not fill an
//! own eye) and the heavy policy the search uses, the 9x9 thesis's priority list after the
//! opponent's move: poke the eye its capture left, answer ataris next to it (capture the
//! attacker, or extend when the ladder lets the string run), capture what our previous move
//! put in atari, fight around two-liberty strings next to it, kill the small eye space it walled
//! in at its vital point (nakade, off unless `--nakade`), play 3x3 shape replies, then random
//! moves with self-ataris mostly rejected.
use rand::rngs::SmallRng;
use rand::Rng;

use super::board::{Board, Move, Point, MAX_POINTS};
use super::lgrf::{Replies, Stage};
use super::tactics::{self, push, Candidates};
use super::{ladder, patterns};
use crate::color::Color;

/// Probabilities of trying each heuristic (Michi's tuned values).
const PROB_CAPTURE: f64 = 0.9;
const PROB_TWO_LIBS: f64 = 0.9;
const PROB_PATTERN: f64 = 0.95;
const PROB_HEURISTIC_SELF_ATARI_REJECT: f64 = 0.9;
const PROB_RANDOM_SELF_ATARI_REJECT: f64 = 0.5;

/// Probability of the nakade stage unless `--nakade` says: off (no gain shown in
/// self-play, see docs/experiments/go.md).
pub const DEFAULT_NAKADE: f64 = 0.0;

/// Early termination (the thesis's "mercy rule"): a playout stops once one side has
/// captured this many stones more than the other since it began, and that side wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mercy {
    /// A quarter of the board's points: 20 stones on 9x9, 42 on 13x13, 90 on 19x19.
    #[default]
    Auto,
    /// This many stones; 0 plays every playout out.
    Stones(u32),
}

impl Mercy {
    /// The lead in captures that ends a playout on a `size` board (0: none does).
    pub fn stones(self, size: usize) -> u32 {
        match self {
            Mercy::Auto => (size * size / 4) as u32,
            Mercy::Stones(n) => n,
        }
    }
}

/// The heavy policy's settings (`quartet go --lgrf`, `--global-capture`, `--nakade`,
/// `--mercy`); the playouts read them by reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutParams {
    /// Where the last good replies are tried (with the search's reply tables).
    pub lgrf: Stage,
    /// Probability of the global capture stage (captures anywhere before a random move,
    /// as Pachi's playouts do); 0 turns it off.
    pub global_capture: f64,
    /// Probability of the nakade stage; 0 turns it off.
    pub nakade: f64,
    pub mercy: Mercy,
}

impl Default for PlayoutParams {
    fn default() -> Self {
        PlayoutParams {
            lgrf: Stage::Off,
            global_capture: 0.0,
            nakade: DEFAULT_NAKADE,
            mercy: Mercy::Auto,
        }
    }
}

/// Which colour first played each point during one simulation (0 none, 1 black, 2 white),
/// the "all moves as first" record RAVE learns from.
pub struct Amaf {
    pub first: [u8; MAX_POINTS],
}

impl Amaf {
    pub fn new() -> Amaf {
        Amaf {
            first: [0; MAX_POINTS],
        }
    }

    pub fn clear(&mut self) {
        self.first = [0; MAX_POINTS];
    }

    #[inline]
    pub fn record(&mut self, c: Color, p: Point) {
        if self.first[p] == 0 {
            self.first[p] = c as u8 + 1;
        }
    }
}

impl Default for Amaf {
    fn default() -> Self {
        Amaf::new()
    }
}

/// Whether playing `c` at empty `p` leaves the new string with a single liberty (and captures
/// nothing that would give it more).
pub fn is_self_atari(b: &Board, c: Color, p: Point) -> bool {
    let mut found: [Point; 2] = [0; 2];
    let mut n_found = 0;
    let add = |q: Point, found: &mut [Point; 2], n: &mut usize| -> bool {
        if q != p && (*n == 0 || found[0] != q) {
            if *n < 2 {
                found[*n] = q;
            }
            *n += 1;
        }
        *n >= 2
    };
    for n in b.neighbors(p) {
        match b.stone(n) {
            None if b.is_on_board(n) && add(n, &mut found, &mut n_found) => return false,
            None if b.is_on_board(n) => {}
            Some(s) if s == c => {
                if b.libs(n) >= 3 {
                    return false;
                }
                if let Some(o) = b.lib_other_than(n, p) {
                    if add(o, &mut found, &mut n_found) {
                        return false;
                    }
                }
            }
            // A capture frees at least this neighbour.
            Some(_) if b.libs(n) == 1 => return false,
            Some(_) => {}
            None => {}
        }
    }
    true
}

/// Fills `out` with moves that capture a string in atari next to `last`, or save an own
/// string that `last` put in atari. With `read_ladders`, an extension that leaves two
/// liberties is proposed only when the ladder reader lets the string escape (one that
/// leaves one liberty never is). Returns how many were written.
pub(crate) fn capture_moves(
    b: &Board,
    c: Color,
    last: Point,
    out: &mut Candidates,
    read_ladders: bool,
) -> usize {
    let mut n = 0;
    let w = b.width();
    let around = [
        last,
        last - w,
        last - 1,
        last + 1,
        last + w,
        last - w - 1,
        last - w + 1,
        last + w - 1,
        last + w + 1,
    ];
    let mut seen_heads = [0usize; 9];
    for (i, &q) in around.iter().enumerate() {
        let Some(owner) = b.stone(q) else { continue };
        // Most strings have liberties to spare: that test is cheaper than the others.
        if b.libs(q) != 1 {
            continue;
        }
        let h = b.string_head(q);
        if seen_heads[..i].contains(&h) {
            continue;
        }
        seen_heads[i] = h;
        let Some(lib) = b.atari_lib(q) else { continue };
        if owner != c {
            push(out, &mut n, lib);
        } else {
            // Escape by extending, or by capturing an attacker in atari.
            let runs = !read_ladders
                || match tactics::libs_after_play(b, c, lib, 0, 3) {
                    0 | 1 => false,
                    2 => ladder::escapes(b, q),
                    _ => true,
                };
            if runs {
                push(out, &mut n, lib);
            }
            let mut attackers = [0usize; 8];
            let mut na = 0;
            b.for_each_stone(q, |s| {
                for m in [s - w, s - 1, s + 1, s + w] {
                    if na < 8 && b.stone(m) == Some(c.opponent()) && b.libs(m) == 1 {
                        attackers[na] = m;
                        na += 1;
                    }
                }
            });
            for &a in &attackers[..na] {
                if let Some(l) = b.atari_lib(a) {
                    push(out, &mut n, l);
                }
            }
        }
    }
    n
}

/// Chooses the next playout move for `c` with the heavy policy under `params`. Inlined
/// into the playout loop, which keeps `params` in a register from move to move.
#[inline(always)]
pub fn heavy_move(
    b: &mut Board,
    c: Color,
    rng: &mut SmallRng,
    replies: Option<&Replies>,
    params: &PlayoutParams,
) -> Move {
    let mut cand: Candidates = [0; 16];
    let stage = if replies.is_some() {
        params.lgrf
    } else {
        Stage::Off
    };
    if let Some(Move::Play(last)) = b.last_move() {
        // A capture of three to six stones leaves an eye space with one vital point.
        if let Some(p) = tactics::eye_poke(b) {
            if b.is_legal(c, p) {
                return Move::Play(p);
            }
        }
        if stage == Stage::First {
            if let Some(p) = good_reply(b, c, replies, rng) {
                return Move::Play(p);
            }
        }
        if rng.gen_bool(PROB_CAPTURE) {
            let mut n = capture_moves(b, c, last, &mut cand, true);
            if let Some(Move::Play(prev)) = b.last2_move() {
                tactics::captures_near(b, c, prev, &mut cand, &mut n);
            }
            if let Some(p) = pick(b, c, &mut cand[..n], rng, PROB_HEURISTIC_SELF_ATARI_REJECT) {
                return Move::Play(p);
            }
        }
        if stage == Stage::AfterCaptures {
            if let Some(p) = good_reply(b, c, replies, rng) {
                return Move::Play(p);
            }
        }
        if rng.gen_bool(PROB_TWO_LIBS) {
            let n = tactics::two_lib_moves(b, c, last, &mut cand);
            if let Some(p) = pick(b, c, &mut cand[..n], rng, PROB_HEURISTIC_SELF_ATARI_REJECT) {
                return Move::Play(p);
            }
        }
        let nakade = params.nakade;
        if nakade > 0.0 && rng.gen_bool(nakade) {
            if let Some(p) = tactics::nakade_point(b, c, last) {
                if b.is_legal(c, p) {
                    return Move::Play(p);
                }
            }
        }
        if rng.gen_bool(PROB_PATTERN) {
            let w = b.width();
            let mut n = 0;
            for q in [
                last - w - 1,
                last - w,
                last - w + 1,
                last - 1,
                last + 1,
                last + w - 1,
                last + w,
                last + w + 1,
            ] {
                if b.is_empty(q) && patterns::matches(b, q) {
                    cand[n] = q;
                    n += 1;
                }
            }
            if let Some(p) = pick(b, c, &mut cand[..n], rng, PROB_HEURISTIC_SELF_ATARI_REJECT) {
                return Move::Play(p);
            }
        }
    }
    if stage == Stage::BeforeRandom {
        if let Some(p) = good_reply(b, c, replies, rng) {
            return Move::Play(p);
        }
    }
    let global = params.global_capture;
    if global > 0.0 && rng.gen_bool(global) {
        let mut n = 0;
        tactics::captures_anywhere(b, c, &mut cand, &mut n);
        if let Some(p) = pick(b, c, &mut cand[..n], rng, PROB_HEURISTIC_SELF_ATARI_REJECT) {
            return Move::Play(p);
        }
    }
    random_move(b, c, rng, PROB_RANDOM_SELF_ATARI_REJECT)
}

/// The stored last good reply (`lgrf`) to the last two moves, if it is a move the
/// heuristics would accept.
#[inline]
fn good_reply(b: &Board, c: Color, replies: Option<&Replies>, rng: &mut SmallRng) -> Option<Point> {
    let r = replies?;
    for p in r
        .reply(c, b.last2_move(), b.last_move())
        .into_iter()
        .flatten()
    {
        if b.is_legal(c, p) && !b.is_eye(c, p) {
            if is_self_atari(b, c, p) && rng.gen_bool(PROB_HEURISTIC_SELF_ATARI_REJECT) {
                continue;
            }
            return Some(p);
        }
    }
    None
}

/// Picks a random acceptable candidate; candidates are consumed in random order.
fn pick(
    b: &Board,
    c: Color,
    cand: &mut [Point],
    rng: &mut SmallRng,
    reject_self_atari: f64,
) -> Option<Point> {
    let mut n = cand.len();
    while n > 0 {
        let i = rng.gen_range(0..n);
        let p = cand[i];
        cand.swap(i, n - 1);
        n -= 1;
        if !b.is_legal(c, p) || b.is_eye(c, p) {
            continue;
        }
        if reject_self_atari > 0.0 && is_self_atari(b, c, p) && rng.gen_bool(reject_self_atari) {
            continue;
        }
        return Some(p);
    }
    None
}

/// A uniformly random legal move that does not fill an eye of `c`; pass if there is none.
#[inline]
pub fn random_move(b: &Board, c: Color, rng: &mut SmallRng, reject_self_atari: f64) -> Move {
    let empties = b.empty_points();
    let n = empties.len();
    if n == 0 {
        return Move::Pass;
    }
    let start = rng.gen_range(0..n);
    for k in 0..n {
        let mut i = start + k;
        if i >= n {
            i -= n;
        }
        let p = empties[i] as usize;
        if b.is_eye(c, p) || !b.is_legal(c, p) {
            continue;
        }
        if reject_self_atari > 0.0 && is_self_atari(b, c, p) && rng.gen_bool(reject_self_atari) {
            continue;
        }
        return Move::Play(p);
    }
    Move::Pass
}

/// Plays a simulation to the end and returns the final board's area balance
/// (black minus white, komi not included), counting eyes as territory.
/// With `replies`, the playout tries their stored replies (`lgrf`) and adds its moves
/// to their record. A playout cut short by the mercy rule returns the area balance of its
/// board as it stands, moved just past `komi` when needed so that the side ahead in
/// captures wins. `params` is read only by the heavy policy and the mercy rule.
pub fn run(
    b: &mut Board,
    heavy: bool,
    rng: &mut SmallRng,
    mut amaf: Option<&mut Amaf>,
    mut replies: Option<&mut Replies>,
    komi: f32,
    params: &PlayoutParams,
) -> i32 {
    let limit = 3 * b.size() * b.size();
    let mercy = i64::from(params.mercy.stones(b.size()));
    let lead =
        |b: &Board| i64::from(b.captures(Color::Black)) - i64::from(b.captures(Color::White));
    let lead_at_start = lead(b);
    let mut passes = 0;
    for _ in 0..limit {
        let c = b.to_move();
        let mv = if heavy {
            heavy_move(b, c, rng, replies.as_deref(), params)
        } else {
            random_move(b, c, rng, 0.0)
        };
        match mv {
            Move::Pass => passes += 1,
            Move::Play(p) => {
                passes = 0;
                if let Some(a) = amaf.as_deref_mut() {
                    a.record(c, p);
                }
            }
        }
        if let Some(r) = replies.as_deref_mut() {
            r.record(c, mv);
        }
        b.play_legal(c, mv);
        if passes >= 2 {
            break;
        }
        if mercy > 0 && b.last_captured().0 > 0 {
            let gained = lead(b) - lead_at_start;
            if gained >= mercy {
                return final_balance(b).max(komi.floor() as i32 + 1);
            }
            if gained <= -mercy {
                return final_balance(b).min(komi.ceil() as i32 - 1);
            }
        }
    }
    final_balance(b)
}

/// Area balance of a played-out board: stones plus empty points whose neighbours are all
/// one colour (after a playout every remaining empty point is an eye or dame).
pub fn final_balance(b: &Board) -> i32 {
    let mut balance = 0;
    for &p in b.empty_points() {
        let p = p as usize;
        let mut seen = 0u8;
        for n in b.neighbors(p) {
            match b.stone(n) {
                Some(Color::Black) => seen |= 1,
                Some(Color::White) => seen |= 2,
                None => {}
            }
        }
        match seen {
            1 => balance += 1,
            2 => balance -= 1,
            _ => {}
        }
    }
    balance + b.stone_count(Color::Black) as i32 - b.stone_count(Color::White) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color::*;
    use rand::SeedableRng;

    fn board(rows: &[&str]) -> Board {
        Board::from_diagram(rows).unwrap()
    }

    /// The classic ladder: Black C4 has just put white C3 in atari (black B3, C2, D2).
    /// White D3 leaves two liberties and the chase runs over the empty board to the upper
    /// right, so extending is futile; a white stone at G7 breaks the ladder.
    fn ladder(breaker: bool) -> Board {
        let mut rows = [
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".XO......",
            "..XX.....",
            ".........",
        ];
        if breaker {
            rows[2] = "......O..";
        }
        let mut b = board(&rows);
        assert!(b.play(Black, Move::Play(b.point(2, 3))));
        b
    }

    #[test]
    fn a_stored_reply_is_played_unless_it_is_occupied_or_fills_an_own_eye() {
        // Black A2 and B1 make A1 an eye; then Black E5 and White E6 are the last moves.
        let rows = [
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "X........",
            ".X.......",
        ];
        let mut b = board(&rows);
        let (e5, e6) = (Move::Play(b.point(4, 4)), Move::Play(b.point(4, 5)));
        assert!(b.play(Black, e5) && b.play(White, e6));
        let mut rng = SmallRng::seed_from_u64(5);
        let stored = |reply: Point| {
            let mut r = Replies::new();
            r.begin(Black, Some(e5), Some(e6));
            r.record(Black, Move::Play(reply));
            r.learn(true);
            r
        };
        let f6 = b.point(5, 5);
        assert_eq!(good_reply(&b, Black, Some(&stored(f6)), &mut rng), Some(f6));
        let (a1, b1) = (b.point(0, 0), b.point(1, 0));
        assert_eq!(good_reply(&b, Black, Some(&stored(a1)), &mut rng), None);
        assert_eq!(good_reply(&b, Black, Some(&stored(b1)), &mut rng), None);
        assert_eq!(good_reply(&b, Black, None, &mut rng), None);
        // White has no stored reply to these moves.
        assert_eq!(good_reply(&b, White, Some(&stored(f6)), &mut rng), None);
    }

    #[test]
    fn a_laddered_string_does_not_extend_in_the_playout() {
        let d3 = |b: &Board| b.point(3, 2);
        let mut cand = [0; 16];
        let b = ladder(false);
        let last = b.point(2, 3);
        let n = capture_moves(&b, White, last, &mut cand, true);
        assert!(!cand[..n].contains(&d3(&b)), "{:?}", &cand[..n]);
        // Without the reader the extension is proposed (the tree's priors read ladders
        // themselves).
        let n = capture_moves(&b, White, last, &mut cand, false);
        assert!(cand[..n].contains(&d3(&b)));
        let b = ladder(true);
        let n = capture_moves(&b, White, last, &mut cand, true);
        assert!(cand[..n].contains(&d3(&b)), "{:?}", &cand[..n]);
    }

    #[test]
    fn the_playout_answers_an_atari_next_to_the_last_move() {
        // White E5 has just put black D5 in atari (white C5 and D6; its last liberty is
        // D4). E5 itself has one liberty left, F5 (black E6 and E4). Black saves D5 by
        // capturing E5 at F5 or by extending to D4 (four liberties): both are answers, and
        // nothing else is. The atari stage runs with probability 0.9 and rejects only
        // self-ataris, so one of the two must come in about nine playouts of ten.
        let mut b = board(&[
            ".........",
            ".........",
            ".........",
            "...OX....",
            "..OX.....",
            "....X....",
            ".........",
            ".........",
            ".........",
        ]);
        let e5 = b.point(4, 4);
        assert!(b.play(White, Move::Play(e5)));
        assert_eq!(b.libs(b.point(3, 4)), 1, "D5 in atari");
        assert_eq!(b.libs(e5), 1, "E5 in atari");
        let (f5, d4) = (b.point(5, 4), b.point(3, 3));
        let mut cand = [0; 16];
        let n = capture_moves(&b, Black, e5, &mut cand, true);
        let mut got = cand[..n].to_vec();
        got.sort();
        assert_eq!(got, vec![d4, f5]);
        let mut hits = 0;
        for seed in 0..400 {
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut copy = b.clone();
            let mv = heavy_move(&mut copy, Black, &mut rng, None, &PlayoutParams::default());
            if mv == Move::Play(f5) || mv == Move::Play(d4) {
                hits += 1;
            }
        }
        assert!(hits >= 330, "an answer chosen {hits} times of 400");
    }

    #[test]
    fn the_playout_pokes_the_eye_a_capture_leaves() {
        // White E3 captures black B3-C3-D3 inside its wall; the space left is a straight
        // three whose middle C3 kills (one eye only), and Black plays it every time.
        let mut b = board(&[
            ".......", ".......", ".......", "OOOOOO.", "OXXX.O.", "OOOOOO.", ".......",
        ]);
        assert!(b.play(White, Move::Play(b.point(4, 2))));
        let c3 = b.point(2, 2);
        for seed in 0..50 {
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut copy = b.clone();
            let mv = heavy_move(&mut copy, Black, &mut rng, None, &PlayoutParams::default());
            assert_eq!(mv, Move::Play(c3));
        }
    }

    #[test]
    fn the_mercy_rule_stops_at_the_capture_that_reaches_it_and_gives_the_game_to_the_leader() {
        let mercy = 6;
        let params = PlayoutParams {
            mercy: Mercy::Stones(mercy),
            ..PlayoutParams::default()
        };
        let (mut stopped, mut moved_past_komi) = (0, 0);
        for seed in 0..300u64 {
            let mut b = Board::new(9);
            let mut rng = SmallRng::seed_from_u64(seed);
            // Komi far off on some seeds: the leader must win all the same.
            let komi = [7.5, 60.5, -60.5][seed as usize % 3];
            let balance = run(&mut b, seed % 2 == 0, &mut rng, None, None, komi, &params);
            let lead = i64::from(b.captures(Black)) - i64::from(b.captures(White));
            if lead.abs() < i64::from(mercy) {
                // Played out: two passes end it, and the balance is the board's.
                assert_eq!(
                    (b.last_move(), b.last2_move()),
                    (Some(Move::Pass), Some(Move::Pass))
                );
                assert_eq!(balance, final_balance(&b));
                continue;
            }
            stopped += 1;
            // The last move's capture crossed the line; the lead before it had not.
            let taken = b.last_captured().0 as i64;
            let mover = b.to_move().opponent();
            let before = if mover == Black {
                lead - taken
            } else {
                lead + taken
            };
            assert!(taken > 0 && before.abs() < i64::from(mercy), "seed {seed}");
            assert_eq!(balance as f32 > komi, lead > 0, "seed {seed}");
            assert!((balance as f32 - komi).abs() >= 0.5);
            if balance != final_balance(&b) {
                moved_past_komi += 1;
                assert!((balance as f32 - komi).abs() <= 1.0);
            }
        }
        assert!(
            stopped >= 30 && moved_past_komi >= 5,
            "{stopped} stopped, {moved_past_komi} moved"
        );
    }
}
