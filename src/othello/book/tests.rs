//! Book tests: expected values are worked out by hand from the games each test adds
//! (means of their results, then negamax with the signs flipping at every ply), and the
//! symmetric positions are written out square by square, not produced by the code.
use super::*;
use crate::othello::bitboard::parse_square;

fn sq(name: &str) -> usize {
    parse_square(name).unwrap()
}

fn line(moves: &str) -> Vec<usize> {
    moves.split_whitespace().map(sq).collect()
}

fn obf(s: &str, side: &str) -> Board {
    Board::from_obf(s, side).unwrap().0
}

fn add(book: &mut Book, moves: &str, black_result: i32) {
    book.add_game(Board::start(), Color::Black, &line(moves), black_result, 30)
        .unwrap();
}

fn names(ms: &[BookMove]) -> Vec<String> {
    ms.iter()
        .map(|m| crate::othello::bitboard::square_name(m.square))
        .collect()
}

#[test]
fn the_four_first_moves_and_hand_transformed_positions_merge() {
    // The four first moves give one position up to symmetry.
    let mut book = Book::new(1);
    for (i, m) in ["d3", "c4", "f5", "e6"].iter().enumerate() {
        add(&mut book, m, 0);
        assert_eq!(book.len(), 2, "after {m}: start + one merged position");
        assert_eq!(
            book.lookup(&Board::start().play(sq(m)).unwrap()).unwrap().1,
            i as u32 + 1
        );
    }
    // After f5 (black f5 flips e5), written by hand; and its half-turn image, which is
    // the position after c4 (black c4 flips d4).
    let after_f5 = obf(
        &format!("{}---OX------XXX--{}", "-".repeat(24), "-".repeat(24)),
        "O",
    );
    let after_c4 = obf(
        &format!("{}--XXX------XO---{}", "-".repeat(24), "-".repeat(24)),
        "O",
    );
    assert_eq!(Some(after_f5), Board::start().play(sq("f5")));
    assert_eq!(book.lookup(&after_f5), Some((0.0, 4)));
    assert_eq!(book.lookup(&after_c4), Some((0.0, 4)));
    // The same discs with the other side to move are another position.
    assert_eq!(book.lookup(&after_f5.pass()), None);
    // Diagonal (f5 f6) and perpendicular (f5 d6) openings are not symmetric images, while
    // f5 f6 and its reflection in the a1-h8 diagonal, e6 f6, are.
    add(&mut book, "f5 f6", 2);
    add(&mut book, "f5 d6", 4);
    assert_eq!(book.len(), 4);
    add(&mut book, "e6 f6", 6);
    assert_eq!(book.len(), 4);
    let diag = Board::start()
        .play(sq("f5"))
        .unwrap()
        .play(sq("f6"))
        .unwrap();
    assert_eq!(book.lookup(&diag).map(|x| x.1), Some(2));
}

#[test]
fn negamax_on_a_small_hand_made_tree() {
    // Black results: f5 f6 +10 and -4 (mean +3), f5 d6 +6, f5 f4 -20. After f5 white
    // picks, by value for white: f6 -3, d6 -6, f4 +20.
    let mut book = Book::new(1);
    add(&mut book, "f5 f6", 10);
    add(&mut book, "f5 f6", -4);
    add(&mut book, "f5 d6", 6);
    add(&mut book, "f5 f4", -20);
    let after_f5 = Board::start().play(sq("f5")).unwrap();
    let ms = book.moves(&after_f5);
    assert_eq!(names(&ms), ["f4", "f6", "d6"]);
    assert_eq!(
        ms.iter().map(|m| (m.value, m.visits)).collect::<Vec<_>>(),
        [(20.0, 1), (-3.0, 2), (-6.0, 1)]
    );
    // Negamax: white's best is +20, so black's first move is worth -20 (all four first
    // moves lead to the same position), and so is the start.
    assert_eq!(book.lookup(&after_f5), Some((20.0, 4)));
    assert_eq!(book.lookup(&Board::start()), Some((-20.0, 4)));
    assert!(book.moves(&Board::start()).iter().all(|m| m.value == -20.0));
    // Trusting only children with 2 games leaves f6: white -3, black +3.
    book.set_min_visits(2);
    assert_eq!(book.best_move(&after_f5).map(|m| m.square), Some(sq("f6")));
    assert_eq!(book.lookup(&Board::start()), Some((3.0, 4)));
    // With 3 games required nothing below the start is trusted: the start takes its own
    // mean, (10 - 4 + 6 - 20) / 4 = -2.
    book.set_min_visits(3);
    assert_eq!(book.best_move(&after_f5), None);
    assert_eq!(book.lookup(&Board::start()), Some((-2.0, 4)));
}

#[test]
fn a_lost_line_gives_way_to_another_move() {
    let mut book = Book::new(1);
    add(&mut book, "f5 f6 e6", -4); // white +4 with f6
    add(&mut book, "f5 d6 c3", -2); // white +2 with d6
    let after_f5 = Board::start().play(sq("f5")).unwrap();
    assert_eq!(book.best_move(&after_f5).map(|m| m.square), Some(sq("f6")));
    // White plays f6 again and loses by 20: the f6 line now averages black +8.
    add(&mut book, "f5 f6 e6", 20);
    let best = book.best_move(&after_f5).unwrap();
    assert_eq!((best.square, best.value), (sq("d6"), 2.0));
    let f6 = book
        .moves(&after_f5)
        .into_iter()
        .find(|m| m.square == sq("f6"))
        .unwrap();
    assert_eq!((f6.value, f6.visits), (-8.0, 2));
}

#[test]
fn the_deepest_trusted_line_decides_not_the_average() {
    // Two games through f5 f6 diverge at black's third move: e6 (black +8) and d3 (black
    // -12). Black chooses e6, so f5 f6 is worth +8 to black although its games average -2.
    let mut book = Book::new(1);
    add(&mut book, "f5 f6 e6", 8);
    add(&mut book, "f5 f6 d3", -12);
    let diag = Board::start()
        .play(sq("f5"))
        .unwrap()
        .play(sq("f6"))
        .unwrap();
    assert_eq!(book.lookup(&diag), Some((8.0, 2)));
    assert_eq!(names(&book.moves(&diag)), ["e6", "d3"]);
}

#[test]
fn replay_keeps_pass_positions_and_refuses_illegal_moves() {
    // White (to move) has no move: black a1 and h8, white b1. Black then takes c1.
    let b = obf(&format!("XO{}X", "-".repeat(61)), "O");
    let got = replay(b, Color::White, &[sq("c1")], 10).unwrap();
    assert_eq!(got.len(), 3);
    assert_eq!(got[0], (b, Color::White));
    assert_eq!(got[1], (b.pass(), Color::Black));
    assert!(got[2].0.is_game_over());
    assert_eq!(got[2].1, Color::White);
    // The second move (d3 after d3) is illegal: nothing is stored.
    let mut book = Book::new(1);
    assert_eq!(
        book.add_game(Board::start(), Color::Black, &line("d3 d3"), 0, 30),
        Err(1)
    );
    assert!(book.is_empty());
    // Only the first `plies` moves are stored, plus the position they lead to.
    assert_eq!(
        replay(Board::start(), Color::Black, &line("f5 f6 e6 f4"), 2)
            .unwrap()
            .len(),
        3
    );
    assert_eq!(
        replay(Board::start(), Color::Black, &line("f5 f6"), 2)
            .unwrap()
            .len(),
        3
    );
}

#[test]
fn files_round_trip_and_bad_files_name_the_line() {
    let mut book = Book::new(1);
    add(&mut book, "f5 f6 e6", -4);
    add(&mut book, "f5 d6 c3", 6);
    let text = book.to_text();
    let back = Book::parse(&text, 1).unwrap();
    assert_eq!(back.to_text(), text);
    let after_f5 = Board::start().play(sq("f5")).unwrap();
    assert_eq!(back.moves(&after_f5), book.moves(&after_f5));

    let err = |t: &str| Book::parse(t, 1).unwrap_err();
    assert_eq!(err("").line, 1);
    assert!(err("hello\n").message.contains("not an opening book"));
    assert!(err("quartet-othello-book 2\n")
        .message
        .contains("unsupported book version '2'"));
    let start = "quartet-othello-book 1\n# c\n";
    let (p, o) = canonical(&Board::start());
    let ok = format!("{p:x} {o:x} 3 -6\n");
    let e = err(&format!("{start}{ok}zz {o:x} 1 0\n"));
    assert_eq!(
        (e.line, e.message.as_str()),
        (4, "bad side-to-move bitboard 'zz'")
    );
    assert!(err(&format!("{start}{p:x} {p:x} 1 0\n"))
        .message
        .contains("overlap"));
    assert!(err(&format!("{start}1 2 1 0\n"))
        .message
        .contains("fewer than"));
    assert!(err(&format!("{start}{ok}{ok}")).message.contains("twice"));
    assert!(err(&format!("{start}{p:x} {o:x} 1\n"))
        .message
        .contains("expected 4 fields"));
    assert!(err(&format!("{start}{p:x} {o:x} 0 0\n"))
        .message
        .contains("bad game count"));
    assert!(err(&format!("{start}{p:x} {o:x} 1 65\n"))
        .message
        .contains("exceeds"));
    // A position after a first move, written as played rather than as its least image.
    // (At most one of the four symmetric first moves can give the least image.)
    let first = ["d3", "c4", "f5", "e6"]
        .map(|m| Board::start().play(sq(m)).unwrap())
        .into_iter()
        .find(|b| canonical(b) != (b.p, b.o))
        .unwrap();
    let e = err(&format!("{start}{:x} {:x} 1 0\n", first.p, first.o));
    assert_eq!(e.line, 3);
    assert!(e.message.contains("canonical"));
    assert!(Book::parse(&format!("{start}{ok}"), 1).is_ok());

    let dir = std::env::temp_dir().join(format!("quartet-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("b.book");
    book.save(&path).unwrap();
    assert_eq!(Book::load(&path, 1).unwrap().to_text(), text);
    std::fs::write(&path, format!("{start}{ok}zz\n")).unwrap();
    let e = Book::load(&path, 1).unwrap_err();
    assert!(
        e.starts_with(&format!("{}: book line 4:", path.display())),
        "{e}"
    );
    assert!(Book::load(&dir.join("missing"), 1).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_built_in_book_parses_and_answers_every_image_of_a_position_alike() {
    let book = Book::default_book(DEFAULT_MIN_VISITS);
    // Written with --min-games at the default trust: every position is trusted.
    assert!(book.len() > 100, "{}", book.len());
    assert!(book.nodes.values().all(|n| n.visits >= DEFAULT_MIN_VISITS));
    let mut pruned = book.clone();
    assert_eq!(pruned.prune(DEFAULT_MIN_VISITS), 0);
    // A trusted move from the start, and the line it gives runs some plies.
    let mut b = Board::start();
    let mut plies = 0;
    while let Some(m) = book.best_move(&b) {
        // The same book moves (mapped square by square) in all 8 images of the position.
        for s in 0..8u8 {
            let img = Board {
                p: crate::othello::symmetry::apply(s, b.p),
                o: crate::othello::symmetry::apply(s, b.o),
            };
            let map = |sq: usize| crate::othello::symmetry::apply(s, 1u64 << sq).trailing_zeros();
            let mut want: Vec<(u32, u32)> = book
                .moves(&b)
                .iter()
                .map(|m| (map(m.square), m.visits))
                .collect();
            let mut got: Vec<(u32, u32)> = book
                .moves(&img)
                .iter()
                .map(|m| (m.square as u32, m.visits))
                .collect();
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want, "image {s} at ply {plies}");
        }
        b = b.play(m.square).unwrap();
        if b.moves() == 0 {
            b = b.pass();
        }
        plies += 1;
    }
    assert!(plies >= 10, "{plies}");
}

#[test]
fn pruning_below_the_trust_changes_no_value_and_no_move() {
    let mut book = Book::new(2);
    add(&mut book, "f5 f6 e6", -4);
    add(&mut book, "f5 f6 e6", -8);
    add(&mut book, "f5 f6 e6 f4", 10);
    add(&mut book, "f5 d6 c3", 6);
    add(&mut book, "f5 d6 c5", -2);
    add(&mut book, "f5 d6 c3", 6);
    let before = book.clone();
    // Dropped: f5 f6 e6 f4 (1 game), f5 d6 c5 (1 game).
    assert_eq!(book.prune(2), 2);
    book.propagate();
    let mut b = Board::start();
    for m in ["f5", "f6", "e6"] {
        assert_eq!(book.lookup(&b), before.lookup(&b));
        assert_eq!(book.best_move(&b), before.best_move(&b));
        b = b.play(sq(m)).unwrap();
    }
    let after_f5_d6 = Board::start()
        .play(sq("f5"))
        .unwrap()
        .play(sq("d6"))
        .unwrap();
    assert_eq!(book.lookup(&after_f5_d6), before.lookup(&after_f5_d6));
    assert_eq!(names(&book.moves(&after_f5_d6)), ["c3"]);
    assert_eq!(names(&before.moves(&after_f5_d6)), ["c3", "c5"]);
    // Pruning above the trust is not neutral: f5 d6 c3 (2 games, white to move, mean -6)
    // goes at 3 games, and f5 d6 falls back from its value +6 to its own mean (6 - 2 + 6) / 3.
    let mut over = before.clone();
    assert_eq!(over.prune(3), 3);
    over.propagate();
    assert_eq!(before.lookup(&after_f5_d6), Some((6.0, 3)));
    assert_eq!(over.lookup(&after_f5_d6), Some((10.0 / 3.0, 3)));
}
