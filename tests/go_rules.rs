//! Go rules on hand-built positions; expected values were worked out by hand.
use quartet::color::Color::{self, Black, White};
use quartet::go::board::{Board, Move};
use quartet::go::game::Game;

/// Builds a board from rows written top row first: `X` black, `O` white, `.` empty.
fn board(rows: &[&str]) -> Board {
    let size = rows.len();
    let mut b = Board::new(size);
    let mut stones = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        for (col, ch) in row.chars().enumerate() {
            let p = b.point(col, size - 1 - i);
            match ch {
                'X' => stones.push((Black, p)),
                'O' => stones.push((White, p)),
                _ => {}
            }
        }
    }
    assert!(b.add_setup_stones(&stones));
    b
}

fn at(b: &Board, v: &str) -> Move {
    let (c, r) = quartet::protocol::coords::parse_vertex(v, b.size())
        .unwrap()
        .unwrap();
    Move::Play(b.point(c, r))
}

fn play(b: &mut Board, c: Color, v: &str) -> bool {
    let m = at(b, v);
    b.play(c, m)
}

#[test]
fn single_capture_counts_prisoner_and_frees_liberties() {
    let mut b = board(&[".....", "..X..", ".XO..", "..X..", "....."]);
    let o = at(&b, "C3");
    if let Move::Play(p) = o {
        assert_eq!(b.libs(p), 1);
    }
    assert!(play(&mut b, Black, "D3"));
    assert_eq!(b.captures(Black), 1);
    assert_eq!(b.diagram(), ".....\n..X..\n.X.X.\n..X..\n.....\n");
    // The capturing stones each got the freed point back as a liberty.
    if let Move::Play(p) = at(&b, "B3") {
        assert_eq!(b.libs(p), 4);
    }
}

#[test]
fn multi_stone_capture_on_the_edge() {
    let mut b = board(&[".OOX.", "XXX..", ".....", ".....", "....."]);
    assert!(play(&mut b, Black, "A5"));
    assert_eq!(b.captures(Black), 2);
    assert_eq!(b.diagram().lines().next(), Some("X..X."));
}

#[test]
fn setup_without_liberties_is_rejected() {
    let mut b = Board::new(3);
    let p = |c, r| b.point(c, r);
    let stones = [(White, p(0, 0)), (Black, p(1, 0)), (Black, p(0, 1))];
    assert!(!b.clone().add_setup_stones(&stones));
    assert!(b.add_setup_stones(&stones[1..]));
}

#[test]
fn suicide_is_illegal_but_capture_is_not() {
    // White at A1 would have no liberty: suicide.
    let mut b = board(&["...", "X..", ".X."]);
    let before = b.diagram();
    assert!(!play(&mut b, White, "A1"));
    assert_eq!(b.diagram(), before);
    // Multi-stone suicide: white filling its last liberty.
    let mut b = board(&["X....", "OX...", "OX...", ".X...", "X...."]);
    assert!(!play(&mut b, White, "A2"));
    // Black A2 is fine: it captures the two white stones.
    assert!(play(&mut b, Black, "A2"));
    assert_eq!(b.captures(Black), 2);
}

#[test]
fn simple_ko_forbids_immediate_recapture_only() {
    let mut g = Game::new(5, 7.5);
    let b = Board::new(5);
    let mv = |v: &str| at(&b, v);
    // Ko shape around C3/D3.
    for (c, v) in [
        (Black, "C4"),
        (White, "D4"),
        (Black, "B3"),
        (White, "E3"),
        (Black, "C2"),
        (White, "D2"),
        (Black, "A1"),
        (White, "C3"),
    ] {
        g.play(c, mv(v)).unwrap();
    }
    // Black captures at D3.
    g.play(Black, mv("D3")).unwrap();
    assert_eq!(g.board().captures(Black), 1);
    // White may not retake at once.
    assert!(g.play(White, mv("C3")).is_err());
    // After an exchange elsewhere white can retake.
    g.play(White, mv("E5")).unwrap();
    g.play(Black, mv("A5")).unwrap();
    g.play(White, mv("C3")).unwrap();
    assert_eq!(g.board().captures(White), 1);
}

#[test]
fn positional_superko_forbids_retaking_after_passes() {
    let mut g = Game::new(5, 7.5);
    let b = Board::new(5);
    let mv = |v: &str| at(&b, v);
    for (c, v) in [
        (Black, "C4"),
        (White, "D4"),
        (Black, "B3"),
        (White, "E3"),
        (Black, "C2"),
        (White, "D2"),
        (Black, "A1"),
        (White, "C3"),
    ] {
        g.play(c, mv(v)).unwrap();
    }
    g.play(Black, mv("D3")).unwrap();
    g.play(White, Move::Pass).unwrap();
    g.play(Black, Move::Pass).unwrap();
    // The simple-ko rule no longer applies after passes, so the board alone allows it...
    let mut copy = g.board().clone();
    assert!(copy.play(White, mv("C3")));
    // ...but it recreates the position before black's capture: superko forbids it.
    assert!(!g.is_legal(White, mv("C3")));
    assert!(g.play(White, mv("C3")).is_err());
    assert_eq!(g.moves().len(), 11);
}

#[test]
fn undo_restores_every_level() {
    let mut g = Game::new(9, 7.0);
    let b = Board::new(9);
    let start = g.board().diagram();
    g.play(Black, at(&b, "E5")).unwrap();
    let one = g.board().diagram();
    g.play(White, at(&b, "E6")).unwrap();
    assert!(g.undo());
    assert_eq!(g.board().diagram(), one);
    assert!(g.undo());
    assert_eq!(g.board().diagram(), start);
    assert!(!g.undo());
}

#[test]
fn true_eyes_and_false_eyes() {
    // A1 corner eye of black, B2-like diagonal clear: true eye.
    let b = board(&[".....", ".....", "XX...", ".X...", "XX..."]);
    if let Move::Play(p) = at(&b, "A2") {
        assert!(b.is_eye(Black, p));
        assert!(!b.is_eye(White, p));
    }
    // Centre eye with two enemy diagonals is false.
    let b = board(&[".....", ".OXO.", ".X.X.", "..X..", "....."]);
    if let Move::Play(p) = at(&b, "C3") {
        assert!(!b.is_eye(Black, p));
    }
    // One enemy diagonal in the centre: still an eye.
    let b = board(&[".....", ".OX..", ".X.X.", "..X..", "....."]);
    if let Move::Play(p) = at(&b, "C3") {
        assert!(b.is_eye(Black, p));
    }
    // On the edge a single enemy diagonal makes it false.
    let b = board(&[".....", ".....", ".....", "OX...", ".X..."]);
    if let Move::Play(p) = at(&b, "A1") {
        assert!(!b.is_eye(Black, p));
    }
}

#[test]
fn area_scoring_counts_stones_and_surrounded_empty_points() {
    // Black: columns A-B (10 empty) and the C stones (5); white: D stones and E (10).
    let b = board(&["..XO.", "..XO.", "..XO.", "..XO.", "..XO."]);
    assert_eq!(b.area_balance(), 15 - 10);
    let mut g = Game::new(5, 0.5);
    for v in ["C1", "C2", "C3", "C4", "C5"] {
        g.play(Black, at(&b, v)).unwrap();
    }
    for v in ["D1", "D2", "D3", "D4", "D5"] {
        g.play(White, at(&b, v)).unwrap();
    }
    assert_eq!(g.area_score(), 15.0 - 10.0 - 0.5);
    // An empty region touching both colours is neutral.
    let b = board(&["X...O", ".....", ".....", ".....", "....."]);
    assert_eq!(b.area_balance(), 0);
    // A lone black stone in white's area makes E2-E5 neutral: black 16, white 5.
    // Removed as dead, white gets the whole E column back.
    let b = board(&["..XO.", "..XO.", "..XO.", "..XO.", "..XOX"]);
    assert_eq!(b.area_balance(), 16 - 5);
    let mut g2 = Game::new(5, 0.0);
    for v in ["C1", "C2", "C3", "C4", "C5", "E1"] {
        g2.play(Black, at(&b, v)).unwrap();
    }
    for v in ["D1", "D2", "D3", "D4", "D5"] {
        g2.play(White, at(&b, v)).unwrap();
    }
    if let Move::Play(e1) = at(&b, "E1") {
        assert_eq!(g2.area_score_without(&[e1]), 5.0);
    }
}
