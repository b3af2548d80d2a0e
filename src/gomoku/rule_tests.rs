//! Rule tests: fives in every direction, overlines per rule, renju forbidden points. The
//! expected answers come from the rules as written (RIF renju rules, Gomocup rule bitmask),
//! not from this code.
use super::board::{Board, Rule};
use super::game::{Game, Outcome, PlayError};
use crate::color::Color::{self, Black, White};

/// A board from rows printed top first: `X` black, `O` white, `.` empty; columns from 0.
fn board(rule: Rule, rows: &[&str]) -> Board {
    let n = rows.len();
    let mut b = Board::new(n, rule);
    for (i, row) in rows.iter().enumerate() {
        let r = n - 1 - i;
        for (c, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
            match ch {
                'X' => b.place(b.point(c, r), Black),
                'O' => b.place(b.point(c, r), White),
                _ => {}
            }
        }
    }
    b
}

fn play_line(rule: Rule, c: Color, cells: &[(usize, usize)]) -> Game {
    let mut g = Game::new(15, rule);
    for (i, &(x, y)) in cells.iter().enumerate() {
        // Our stones on the line; the other side plays far away on the top row.
        let p = g.board().point(x, y);
        g.play(c, p).unwrap();
        if i + 1 < cells.len() {
            let q = g.board().point(2 * i, 14);
            g.play(c.opponent(), q).unwrap();
        }
    }
    g
}

#[test]
fn five_wins_in_all_four_directions_for_both_colours() {
    let lines: [[(usize, usize); 5]; 4] = [
        [(2, 3), (3, 3), (4, 3), (5, 3), (6, 3)],
        [(7, 1), (7, 2), (7, 3), (7, 4), (7, 5)],
        [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)],
        [(10, 1), (9, 2), (8, 3), (7, 4), (6, 5)],
    ];
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        for line in &lines {
            for c in [Black, White] {
                // The winning stone in the middle of the line, not only at an end.
                let order = [line[0], line[1], line[3], line[4], line[2]];
                let g = play_line(rule, c, &order);
                assert_eq!(
                    g.outcome(),
                    Some(Outcome::Win(c)),
                    "{rule:?} {c:?} {line:?}"
                );
                let g4 = play_line(rule, c, &order[..4]);
                assert_eq!(g4.outcome(), None);
            }
        }
    }
}

#[test]
fn overline_wins_only_in_freestyle_and_for_white_in_renju() {
    let six = [(1, 5), (2, 5), (3, 5), (5, 5), (6, 5), (4, 5)];
    let cases = [
        (Rule::Freestyle, Black, true),
        (Rule::Freestyle, White, true),
        (Rule::Standard, Black, false),
        (Rule::Standard, White, false),
        (Rule::Renju, White, true),
    ];
    for (rule, c, wins) in cases {
        let g = play_line(rule, c, &six);
        assert_eq!(g.outcome().is_some(), wins, "{rule:?} {c:?}");
    }
    // Renju: the overline point is forbidden for black, so the move is refused.
    let mut g = play_line(Rule::Renju, Black, &six[..5]);
    let p = g.board().point(4, 5);
    g.play(White, g.board().point(14, 0)).unwrap();
    assert_eq!(g.play(Black, p), Err(PlayError::Forbidden));
}

#[test]
fn draw_on_a_full_board() {
    // 5x5 filled in columns pattern with no five: colour by (col + 2*row) % 4 < 2.
    let mut g = Game::new(5, Rule::Freestyle);
    let mut blacks = Vec::new();
    let mut whites = Vec::new();
    for r in 0..5 {
        for c in 0..5 {
            let p = g.board().point(c, r);
            if (c + 2 * r) % 4 < 2 {
                blacks.push(p)
            } else {
                whites.push(p)
            }
        }
    }
    assert_eq!(blacks.len(), 13);
    for i in 0..13 {
        g.play(Black, blacks[i]).unwrap();
        if i < 12 {
            g.play(White, whites[i]).unwrap();
        }
    }
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    assert_eq!(g.play(White, blacks[0]), Err(PlayError::GameOver));
}

#[test]
fn renju_double_three_and_double_four_are_forbidden() {
    // Double three: two open twos crossing at the empty point (7,7).
    let mut b = board(
        Rule::Renju,
        &[
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            ".......X.......",
            ".......X.......",
            ".....XX*.......",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    );
    let p = b.point(7, 7);
    assert!(b.is_forbidden(p));
    b.set_rule(Rule::Freestyle);
    assert!(!b.is_forbidden(p));

    // Double four on two lines.
    let mut b = board(
        Rule::Renju,
        &[
            "...............",
            "...............",
            "...............",
            "...............",
            ".......O.......",
            ".......X.......",
            ".......X.......",
            "....XXX*O......",
            ".......X.......",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    );
    assert!(b.is_forbidden(b.point(7, 7)));

    // Double four on one line: X.XXX.X with the middle stone missing -> X.X*X.X gives
    // two fours (both gaps complete a five).
    let mut b = board(
        Rule::Renju,
        &[
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "..X.X.X.X......",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    );
    assert!(b.is_forbidden(b.point(5, 7)));
    // One line with at most one threat is fine.
    assert!(!b.is_forbidden(b.point(9, 7)));
}

#[test]
fn renju_five_wins_even_with_a_double_four() {
    // (7,7) completes a horizontal exact five and also a vertical four: not forbidden.
    let mut b = board(
        Rule::Renju,
        &[
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            ".......X.......",
            ".......X.......",
            "...XXXX*.O.....",
            ".......X.......",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    );
    let p = b.point(7, 7);
    assert!(!b.is_forbidden(p));
    assert!(b.makes_five(p, Black));
}

#[test]
fn renju_three_whose_extension_is_forbidden_is_not_a_three() {
    // Horizontal: X X at (5,7),(6,7), white at (9,7): after black (7,7) the only straight
    // four is made at (4,7). Vertical: X X at (7,8),(7,9): a real three. Column 4 holds
    // black at rows 5,6,8,9,10, so black at (4,7) would be an overline: forbidden. The
    // horizontal "three" is therefore not a three, and (7,7) is a single three: allowed.
    let rows = [
        "...............",
        "...............",
        "...............",
        "...............",
        "....X..........",
        "....X..X.......",
        "....X..X.......",
        ".....XX*.O.....",
        "....X..........",
        "....X..........",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
    ];
    let mut b = board(Rule::Renju, &rows);
    assert!(
        b.is_forbidden(b.point(4, 7)),
        "the extension is an overline"
    );
    assert!(!b.is_forbidden(b.point(7, 7)));
    // Without the column-4 stones the same shape is a true double three.
    let plain: Vec<String> = rows
        .iter()
        .map(|r| {
            let mut s: Vec<char> = r.chars().collect();
            s[4] = '.';
            s.into_iter().collect()
        })
        .collect();
    let plain: Vec<&str> = plain.iter().map(|s| s.as_str()).collect();
    let mut b = board(Rule::Renju, &plain);
    assert!(b.is_forbidden(b.point(7, 7)));
}
