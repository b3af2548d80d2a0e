//! The line patterns and cell classes of `patterns.rs` against truth made without them:
//! hand-written shapes read on a real board, a brute force over every neighbour line
//! (written as strings and 5-cell windows, not runs and recursion), and the board's
//! incremental records after random moves and take-backs against values recomputed from
//! the cells.
use std::collections::HashMap;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::board::{Board, Rule};
use super::board_tests::random_empty_in;
use super::patterns::{tables, Pattern, Pattern4, Tables, LINES, N_CLASSES, N_LINE_CATS};
use crate::color::Color::{self, Black, White};

// ---------------------------------------------------------------- the brute force

/// Whether the 9-cell line (`X` own, `.` empty, anything else blocks) holds five own stones
/// in a window of 5 that contains the centre (index 4).
fn five_at_centre(s: &[u8; 9]) -> bool {
    (0..=4).any(|start| s[start..start + 5].iter().all(|&x| x == b'X'))
}

/// The empty cells that would complete a five through the centre.
fn completions(s: &[u8; 9]) -> usize {
    (0..9)
        .filter(|&i| s[i] == b'.')
        .filter(|&i| {
            let mut t = *s;
            t[i] = b'X';
            five_at_centre(&t)
        })
        .count()
}

/// Every way to add exactly `j` own stones to the empty cells of `s`.
fn additions(s: &[u8; 9], j: usize, from: usize, out: &mut Vec<[u8; 9]>) {
    if j == 0 {
        out.push(*s);
        return;
    }
    for i in from..9 {
        if s[i] == b'.' {
            let mut t = *s;
            t[i] = b'X';
            additions(&t, j - 1, i + 1, out);
        }
    }
}

/// The pattern of a 9-cell line (centre `X`), by its closed form: with no four yet, the
/// level is 4 - j for the fewest added stones j that make a four (some completing cell),
/// Flex if some j stones make two completing cells; Dead if no j <= 3 does (then no five
/// through the centre fits).
fn brute(s: &[u8; 9]) -> Pattern {
    assert_eq!(s[4], b'X');
    if five_at_centre(s) {
        return Pattern::Five;
    }
    match completions(s) {
        0 => {}
        1 => return Pattern::Block4,
        _ => return Pattern::Flex4,
    }
    let flex = [Pattern::Flex3, Pattern::Flex2, Pattern::Flex1];
    let block = [Pattern::Block3, Pattern::Block2, Pattern::Block1];
    for j in 1..=3 {
        let mut lines = Vec::new();
        additions(s, j, 0, &mut lines);
        let best = lines.iter().map(completions).max().unwrap_or(0);
        if best >= 2 {
            return flex[j - 1];
        }
        if best == 1 {
            return block[j - 1];
        }
    }
    Pattern::Dead
}

/// [`brute`] with a cache (walls and opponent stones both block, so lines are cached with
/// every blocker written `O`).
#[derive(Default)]
struct Oracle(HashMap<[u8; 9], Pattern>);

impl Oracle {
    fn get(&mut self, s: &[u8; 9]) -> Pattern {
        let norm = s.map(|x| if x == b'X' || x == b'.' { x } else { b'O' });
        *self.0.entry(norm).or_insert_with(|| brute(&norm))
    }
}

/// The class of four direction patterns, straight from the definitions: the strongest class
/// whose condition holds, "another direction" checked on pairs of distinct directions.
fn class_of(p: [Pattern; 4]) -> Pattern4 {
    use Pattern::*;
    let any = |a: &[Pattern]| p.iter().any(|x| a.contains(x));
    let pair = |a: &[Pattern], b: &[Pattern]| {
        (0..4).any(|i| (0..4).any(|j| i != j && a.contains(&p[i]) && b.contains(&p[j])))
    };
    let holds = |k: Pattern4| match k {
        Pattern4::Five => any(&[Five]),
        Pattern4::Flex4 => any(&[Flex4]) || pair(&[Block4], &[Block4]),
        Pattern4::Block4Flex3 => pair(&[Block4], &[Flex3]),
        Pattern4::Block4Plus => pair(&[Block4], &[Block3, Flex2]),
        Pattern4::Block4 => any(&[Block4]),
        Pattern4::Flex3x2 => pair(&[Flex3], &[Flex3]),
        Pattern4::Flex3Plus => pair(&[Flex3], &[Block3, Flex2]),
        Pattern4::Flex3 => any(&[Flex3]),
        Pattern4::Block3Plus => pair(&[Block3], &[Block3, Flex2]),
        Pattern4::Flex2x2 => pair(&[Flex2], &[Flex2]),
        Pattern4::None => true,
    };
    *Pattern4::ALL.iter().rev().find(|&&k| holds(k)).unwrap()
}

// ---------------------------------------------------------------- hand shapes on a board

/// Line `s` (`X` own, `O` opponent, `.` empty, `*` the cell read, `#` the board edge, only
/// at the ends) laid on a real board along direction `d`, read at `*` for colour `c`.
/// Without edges the line starts at column 6 of a 22 board, so every cell within 4 of the
/// string is empty; with both edges the board is exactly the string's inner length.
fn board_pattern(s: &str, c: Color, d: usize) -> Pattern {
    let left = s.starts_with('#');
    let right = s.ends_with('#');
    let inner = s.trim_matches('#');
    assert!(inner.len() <= 12);
    let n = if left && right { inner.len() } else { 22 };
    let start = if left {
        0
    } else if right {
        n - inner.len()
    } else {
        6
    };
    let mut b = Board::new(n, Rule::Freestyle);
    b.track_patterns();
    let mut centre = None;
    for (k, ch) in inner.chars().enumerate() {
        let x = start + k;
        let p = match d {
            0 => b.point(x, n / 2),
            1 => b.point(n / 2, x),
            2 => b.point(x, x),
            _ => b.point(x, n - 1 - x),
        };
        match ch {
            'X' => b.place(p, c),
            'O' => b.place(p, c.opponent()),
            '*' => centre = Some(p),
            '.' => {}
            _ => panic!("bad shape {s}"),
        }
    }
    b.pattern(centre.expect("a * cell"), c, d)
}

/// Hand shapes with their patterns from the definitions (a comment says why where it is
/// not plain). Cells beyond the string are empty unless an edge `#` is written.
const SHAPES: &[(&str, Pattern)] = &[
    ("XX*XX", Pattern::Five),
    ("#*XXXX", Pattern::Five),
    // Overline: freestyle counts six in a row as a five.
    ("XXXX*X", Pattern::Five),
    ("O.X*XX.O", Pattern::Flex4),
    // Same-line double four: both gaps complete a five through the centre.
    ("X.X*X.X", Pattern::Flex4),
    ("OX*XX.", Pattern::Block4),
    ("#X*XX.", Pattern::Block4),
    // Split four: only the gap completes (an end makes four plus gap, not five).
    ("X*X.X", Pattern::Block4),
    ("OXXX*.O", Pattern::Block4),
    ("..X*X..", Pattern::Flex3),
    // Split three: filling the gap gives the open four .XXXX.
    (".X*.X.", Pattern::Flex3),
    // An O two cells off still leaves .XXXX. reachable on the right.
    ("O.X*X..", Pattern::Flex3),
    ("OX*X..", Pattern::Block3),
    // Five cells between the O's: one window, so a four but never an open four.
    ("O.X*X.O", Pattern::Block3),
    ("OX*.X.", Pattern::Block3),
    ("#X*X..", Pattern::Block3),
    // One cell from the edge an open three is still open: .XXXX. fits.
    ("#.X*X..", Pattern::Flex3),
    ("..X*...", Pattern::Flex2),
    (".X.*...", Pattern::Flex2),
    ("OX*...", Pattern::Block2),
    ("#.X*..O", Pattern::Block2),
    ("....*....", Pattern::Flex1),
    ("O*....", Pattern::Block1),
    ("#*....", Pattern::Block1),
    // Four cells between blockers: no five fits.
    ("OX*XXO", Pattern::Dead),
    ("#*X.O", Pattern::Dead),
    ("O..*.O", Pattern::Dead),
    // An opponent stone next to the cell cuts off the own stones behind it.
    ("XXXXO*....", Pattern::Block1),
];

#[test]
fn hand_shapes_read_on_a_board_in_every_direction_and_colour() {
    let mut seen = [false; 10];
    for &(s, want) in SHAPES {
        seen[want as usize] = true;
        for c in [Black, White] {
            for d in 0..4 {
                assert_eq!(board_pattern(s, c, d), want, "{s} {c} direction {d}");
            }
        }
    }
    assert!(seen.iter().all(|&x| x), "every pattern has a hand case");
}

/// The 9-cell line centred on `*` of a hand shape (edges and beyond read as `#`).
fn window_of(s: &str) -> [u8; 9] {
    let inner = s.trim_matches('#');
    let mid = inner.find('*').unwrap() as isize;
    let (left, right) = (s.starts_with('#'), s.ends_with('#'));
    let mut w = [0u8; 9];
    for (k, x) in w.iter_mut().enumerate() {
        let i = mid + k as isize - 4;
        *x = if i < 0 {
            if left {
                b'#'
            } else {
                b'.'
            }
        } else if i >= inner.len() as isize {
            if right {
                b'#'
            } else {
                b'.'
            }
        } else {
            match inner.as_bytes()[i as usize] {
                b'*' => b'X',
                ch => ch,
            }
        };
    }
    w
}

#[test]
fn brute_force_agrees_with_the_hand_shapes() {
    for &(s, want) in SHAPES {
        assert_eq!(brute(&window_of(s)), want, "{s}");
    }
}

#[test]
fn line_table_matches_the_brute_force_on_every_line_with_walls() {
    // Every neighbour line of raw cells (0 empty, 1 black, 2 white, 3 wall; slots 0..8 =
    // offsets -4..-1, 1..4) whose walls lie at its ends, as on a board, through the index
    // the board builds, for both colours.
    let mut oracle = Oracle::default();
    let t = tables();
    let mut lines = 0;
    for code in 0..1usize << 16 {
        let raw: [u8; 8] = std::array::from_fn(|slot| (code >> (2 * slot)) as u8 & 3);
        // On a board the walls of a line are the outer cells of its two halves.
        let on_board = (0..8).all(|slot| {
            let outer = if slot < 4 { 0..slot } else { slot + 1..8 };
            raw[slot] != 3 || outer.into_iter().all(|o| raw[o] == 3)
        });
        let Some((wall, key)) = Tables::line_index(raw) else {
            assert!(!on_board, "{raw:?} refused");
            continue;
        };
        assert!(on_board, "{raw:?} accepted");
        lines += 1;
        let both = t.line[wall as usize * LINES + key as usize];
        for own in [1, 2] {
            let mut s = [b'X'; 9];
            for (slot, &v) in raw.iter().enumerate() {
                let i = if slot < 4 { slot } else { slot + 1 };
                s[i] = match v {
                    0 => b'.',
                    3 => b'#',
                    x if x == own => b'X',
                    _ => b'O',
                };
            }
            let got = Pattern::from_code(both >> (4 * (own - 1)) & 15);
            assert_eq!(got, oracle.get(&s), "{}", String::from_utf8_lossy(&s));
        }
    }
    // 0..=4 walls at each end, 3 values for every other cell: (81 + 27 + 9 + 3 + 1)^2.
    let with_walls = 121 * 121;
    assert_eq!(lines, with_walls);
}

#[test]
fn class_table_matches_the_definitions_on_every_combination() {
    let t = tables();
    for idx in 0..10usize.pow(4) {
        let p = [0, 1, 2, 3].map(|d| Pattern::ALL[idx / 10usize.pow(d) % 10]);
        assert_eq!(t.class_of(p), class_of(p), "{p:?}");
    }
}

// ---------------------------------------------------------------- classes on a board

/// A board of 15 with the diagram (top row first, `X` black, `O` white, `*` the cell read)
/// placed from column 3, row 3; returns the class of `*` for black.
fn board_class(rows: &[&str]) -> Pattern4 {
    let mut b = Board::new(15, Rule::Freestyle);
    b.track_patterns();
    let mut centre = None;
    for (r, line) in rows.iter().enumerate() {
        for (k, ch) in line.chars().enumerate() {
            let p = b.point(3 + k, 3 + rows.len() - 1 - r);
            match ch {
                'X' => b.place(p, Black),
                'O' => b.place(p, White),
                '*' => centre = Some(p),
                _ => {}
            }
        }
    }
    let p = centre.expect("a * cell");
    b.pattern4(p, Black)
}

#[test]
fn hand_positions_get_their_class() {
    let cases: &[(&[&str], Pattern4)] = &[
        (&["....", "XXXX*", "...."], Pattern4::Five),
        (&[".XX*X."], Pattern4::Flex4),
        // Two closed fours in two directions: one cannot stop both.
        (
            &["....O", "....X", "....X", "....X", "OXXX*"],
            Pattern4::Flex4,
        ),
        // A closed four and an open three.
        (
            &["....X...", "....X...", "OXXX*...", "........"],
            Pattern4::Block4Flex3,
        ),
        (&["....X...", "OXXX*...", "........"], Pattern4::Block4Plus),
        (&["........", "OXXX*...", "........"], Pattern4::Block4),
        // Two open threes.
        (&["..X..", "..X..", "XX*..", "....."], Pattern4::Flex3x2),
        (
            &["..O..", "..X..", "..X..", "XX*..", "....."],
            Pattern4::Flex3Plus,
        ),
        (&[".....", "..X..", "XX*..", "....."], Pattern4::Flex3Plus),
        (&[".....", ".....", "XX*..", "....."], Pattern4::Flex3),
        (
            &["...O..", "...X..", "...X..", "OXX*..", "......"],
            Pattern4::Block3Plus,
        ),
        // A closed three and an open two.
        (
            &["......", "...X..", "OXX*..", "......"],
            Pattern4::Block3Plus,
        ),
        (&[".....", "..X..", ".X*..", "....."], Pattern4::Flex2x2),
        (&[".....", "..X..", ".O*..", "....."], Pattern4::None),
    ];
    for (rows, want) in cases {
        assert_eq!(board_class(rows), *want, "{rows:?}");
    }
}

// ---------------------------------------------------------------- incremental upkeep

/// Every on-board cell's patterns and class, and the class and line-category counts,
/// recomputed from the cells.
fn check(b: &Board, oracle: &mut Oracle, what: &str) {
    let n = b.size() as isize;
    let mut counts = [[0u16; N_CLASSES]; 2];
    let mut lines = [[0u16; N_LINE_CATS]; 2];
    for p in b.points() {
        let (x, y) = b.col_row(p);
        for c in [Black, White] {
            let mut pats = [Pattern::Dead; 4];
            for (d, (dx, dy)) in [(1, 0), (0, 1), (1, 1), (-1, 1)].into_iter().enumerate() {
                let mut s = [b'X'; 9];
                for (k, ch) in s.iter_mut().enumerate() {
                    let off = k as isize - 4;
                    let (u, v) = (x as isize + off * dx, y as isize + off * dy);
                    if off == 0 {
                        continue;
                    }
                    *ch = if !(0..n).contains(&u) || !(0..n).contains(&v) {
                        b'#'
                    } else {
                        match b.stone(b.point(u as usize, v as usize)) {
                            None => b'.',
                            Some(s) if s == c => b'X',
                            Some(_) => b'O',
                        }
                    };
                }
                pats[d] = oracle.get(&s);
                assert_eq!(b.pattern(p, c, d), pats[d], "{what} {:?} {c} d{d}", (x, y));
            }
            let class = if b.is_empty(p) {
                class_of(pats)
            } else {
                Pattern4::None
            };
            assert_eq!(b.pattern4(p, c), class, "{what} class {:?} {c}", (x, y));
            if b.is_empty(p) {
                counts[c.index()][class as usize] += 1;
                for pat in pats {
                    lines[c.index()][Pattern::category(pat as u8) as usize] += 1;
                }
            }
        }
    }
    for c in [Black, White] {
        for k in Pattern4::ALL {
            assert_eq!(
                b.class_count(c, k),
                counts[c.index()][k as usize],
                "{what} count {c} {k:?}"
            );
        }
        for (k, &n) in lines[c.index()].iter().enumerate() {
            assert_eq!(b.line_count(c, k), n, "{what} line count {c} category {k}");
        }
    }
}

#[test]
fn line_records_match_the_cells_after_moves_and_undos() {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut oracle = Oracle::default();
    for game in 0..10 {
        let n = [5, 9, 15, 20, 22][game % 5];
        let mut b = Board::new(n, Rule::Freestyle);
        b.track_patterns();
        check(&b, &mut oracle, "empty");
        // Half the games over the whole board (edges and corners), half near the centre so
        // lines fill up, fours and fives appear and go again on undo.
        let (lo, hi) = if game < 5 { (0, n) } else { (n / 4, n - n / 4) };
        for ply in 0..70 {
            let Some(p) = random_empty_in(&b, lo, hi, &mut rng) else {
                break;
            };
            let c = if rng.gen_range(0..3) == 0 {
                Black
            } else {
                White
            };
            b.place(p, c);
            if rng.gen_range(0..4) == 0 {
                b.undo();
            }
            check(&b, &mut oracle, &format!("game {game} n {n} ply {ply}"));
        }
        while b.undo().is_some() {}
        check(&b, &mut oracle, &format!("game {game} all undone"));
    }
}

#[test]
fn tracking_switched_on_mid_game_reads_the_stones_already_placed() {
    // The engine turns tracking on when a search starts, after the game's stones were
    // placed untracked: the records must then be those of the cells.
    let mut rng = SmallRng::seed_from_u64(11);
    let mut oracle = Oracle::default();
    for n in [7, 15, 22] {
        let mut b = Board::new(n, Rule::Freestyle);
        assert!(!b.tracks_patterns());
        for _ in 0..(n * n / 3) {
            let Some(p) = random_empty_in(&b, 0, n, &mut rng) else {
                break;
            };
            let c = if rng.gen_range(0..2) == 0 {
                Black
            } else {
                White
            };
            b.place(p, c);
        }
        b.undo();
        b.track_patterns();
        assert!(b.tracks_patterns());
        check(&b, &mut oracle, &format!("n {n} switched on"));
        let p = random_empty_in(&b, 0, n, &mut rng).expect("a free cell");
        b.place(p, White);
        check(&b, &mut oracle, &format!("n {n} one more move"));
    }
}

// ---------------------------------------------------------------- line-category counts

/// The line `s` (`X` the colour `c`, `O` the other, `.` empty; at most 9 cells) laid along
/// direction `d` through the centre of an empty 15x15 board, and the board.
fn board_line(s: &str, c: Color, d: usize) -> (Board, Vec<crate::gomoku::board::Point>) {
    let mut b = Board::new(15, Rule::Freestyle);
    b.track_patterns();
    let (dx, dy) = [(1, 0), (0, 1), (1, 1), (-1, 1)][d];
    // The anti-diagonal runs from column 11 down-left; the others from column 3.
    let x0 = if dx < 0 { 11 } else { 3 };
    let cells: Vec<_> = (0..s.len() as isize)
        .map(|k| b.point((x0 + k * dx) as usize, (3 + k * dy) as usize))
        .collect();
    for (ch, &p) in s.chars().zip(&cells) {
        match ch {
            'X' => b.place(p, c),
            'O' => b.place(p, c.opponent()),
            _ => {}
        }
    }
    (b, cells)
}

const FLEX3: usize = 3;
const BLOCK4: usize = 4;
const FLEX4: usize = 5;

#[test]
fn an_open_three_counts_two_flex4_cells_in_its_direction_a_blocked_one_none() {
    for d in 0..4 {
        for c in [Black, White] {
            // .XXX. : each end makes an open four, in direction d only.
            let (b, cells) = board_line("...XXX...", c, d);
            assert_eq!(b.line_count(c, FLEX4), 2, "open three d{d} {c}");
            for end in [cells[2], cells[6]] {
                assert_eq!(b.pattern(end, c, d), Pattern::Flex4, "d{d} {c}");
                for other in (0..4).filter(|&e| e != d) {
                    assert!(b.pattern(end, c, other) < Pattern::Flex3, "d{d} e{other}");
                }
            }
            // The two cells beyond make split fours (X.XXX): closed fours.
            assert_eq!(b.line_count(c, BLOCK4), 2, "open three d{d} {c}");
            assert_eq!(b.line_count(c.opponent(), FLEX4), 0);
            // OXXX. : blocked on one side, no open four anywhere, two closed-four cells.
            let (b, _) = board_line("..OXXX...", c, d);
            assert_eq!(b.line_count(c, FLEX4), 0, "blocked three d{d} {c}");
            assert_eq!(b.line_count(c, BLOCK4), 2, "blocked three d{d} {c}");
            // .XX. : open-three cells (category Flex3), no fours.
            let (b, _) = board_line("...XX....", c, d);
            assert!(b.line_count(c, FLEX3) >= 2, "open two d{d} {c}");
            assert_eq!(b.line_count(c, BLOCK4) + b.line_count(c, FLEX4), 0);
        }
    }
}

#[test]
fn line_counts_swap_with_the_colours() {
    let mut rng = SmallRng::seed_from_u64(23);
    for _ in 0..20 {
        let mut b = Board::new(15, Rule::Freestyle);
        let mut swapped = Board::new(15, Rule::Freestyle);
        b.track_patterns();
        swapped.track_patterns();
        for k in 0..24 {
            let Some(p) = random_empty_in(&b, 3, 12, &mut rng) else {
                break;
            };
            let c = if k % 2 == 0 { Black } else { White };
            b.place(p, c);
            swapped.place(p, c.opponent());
        }
        for k in 0..N_LINE_CATS {
            assert_eq!(b.line_count(Black, k), swapped.line_count(White, k));
            assert_eq!(b.line_count(White, k), swapped.line_count(Black, k));
        }
        assert_eq!(b.class_counts()[0], swapped.class_counts()[1]);
    }
}

#[test]
fn line_weights_reach_the_evaluation() {
    use super::eval::threat_eval;
    use super::weights::ClassWeights;
    let none = ClassWeights {
        mover: [0; N_CLASSES],
        waiter: [0; N_CLASSES],
        line_mover: [0; N_LINE_CATS],
        line_waiter: [0; N_LINE_CATS],
    };
    let mut w = none;
    w.line_waiter[FLEX4] = 100;
    w.line_mover[FLEX3] = 7;
    // White's open three, Black to move: two Flex4 cells for the waiting side.
    let (b, _) = board_line("...XXX...", White, 1);
    assert_eq!(threat_eval(&b, Black, &none), 0);
    assert_eq!(threat_eval(&b, Black, &w), -200);
    // Blocked, it weighs nothing here.
    let (b, _) = board_line("..OXXX...", White, 1);
    assert_eq!(threat_eval(&b, Black, &w), 0);
    // Black's open two, Black to move: its Flex3 cells count for the mover.
    let (b, _) = board_line("...XX....", Black, 2);
    let n = b.line_count(Black, FLEX3) as i32;
    assert_eq!(threat_eval(&b, Black, &w), 7 * n);
}
