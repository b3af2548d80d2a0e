//! The opening book through the real binary: `train othello book` from GGF records,
//! then `quartet othello --book`: the `book` command's list (values worked out by hand from
//! the records' results) and `genmove` answering from the book instead of searching.
mod common;
use common::live::Live;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

const START: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("quartet-book-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn quartet(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(args)
        .output()
        .expect("run quartet")
}

/// Four games f5 f4 that white won by 10, four f5 d6 that black won by 30, one f5 f6 draw.
fn build(d: &std::path::Path) -> PathBuf {
    let mut ggf = String::new();
    for _ in 0..4 {
        ggf.push_str(&format!("(;GM[Othello]RE[-10.000]{START}B[F5]W[F4];)\n"));
        ggf.push_str(&format!("(;GM[Othello]RE[+30]{START}B[F5]W[D6];)\n"));
    }
    ggf.push_str(&format!("(;GM[Othello]RE[0]{START}B[F5]W[F6];)\n"));
    let games = d.join("games.ggf");
    std::fs::write(&games, ggf).unwrap();
    let book = d.join("b.book");
    let out = quartet(&[
        "train",
        "othello",
        "book",
        "--ggf",
        games.to_str().unwrap(),
        "--out",
        book.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // start, after f5 (all four first moves merge), and the three replies.
    assert!(
        text.contains("9 games added (0 skipped), 5 positions"),
        "{text}"
    );
    book
}

#[test]
fn genmove_plays_the_trusted_book_move_without_searching() {
    let d = dir("genmove");
    let book = build(&d);
    // With 120 s a move, a search would not answer within the 20 s allowed below.
    let mut q = Live::start_logged(&[
        "othello",
        "--book",
        book.to_str().unwrap(),
        "--move-time",
        "120",
        "--hash-mb",
        "8",
        "--log-level",
        "info",
    ]);
    assert_eq!(q.ask("play b c4"), "=");
    // c4 is f5 turned half a turn, so the book moves are the half-turn images of f4, f6
    // and d6 ((row, column) -> (7 - row, 7 - column)): c5, c3, e3. White's values: +10,
    // 0, -30; the draw has one game, fewer than the 4 a trusted move needs.
    assert_eq!(
        q.ask("book"),
        "= C5 +10.00 4\nC3 +0.00 1 untrusted\nE3 -30.00 4"
    );
    q.send("genmove w");
    assert_eq!(q.answer(Duration::from_secs(20)).as_deref(), Some("= C5"));
    // The log line was written before the answer, but its reader thread may lag behind.
    let logged = || {
        q.log()
            .iter()
            .any(|(_, l)| l.contains("genmove: book move") && l.contains("mv=c5"))
    };
    let waited = std::time::Instant::now();
    while !logged() && waited.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(logged(), "{:?}", q.log());
    // Past the book's last position there is nothing to list.
    assert_eq!(q.ask("book"), "=");
    assert_eq!(q.ask("undo"), "=");
    assert_eq!(q.ask("book").lines().count(), 3);
    q.send("quit");
    assert!(q.wait_exit(Duration::from_secs(10)).is_some());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn without_a_book_and_with_a_bad_book() {
    let mut q = Live::start(&["othello", "--hash-mb", "8", "--no-book"]);
    assert_eq!(
        q.ask("book"),
        "? no opening book loaded (started with --no-book)"
    );
    q.send("quit");
    assert!(q.wait_exit(Duration::from_secs(10)).is_some());

    let d = dir("bad");
    let bad = d.join("bad.book");
    std::fs::write(
        &bad,
        "quartet-othello-book 1\n810000000 1008000000 many 0\n",
    )
    .unwrap();
    let out = quartet(&["othello", "--book", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "{}: book line 2: bad game count 'many'",
            bad.display()
        )),
        "{err}"
    );
    std::fs::write(&bad, "quartet-othello-book 7\n").unwrap();
    let out = quartet(&["othello", "--book", bad.to_str().unwrap()]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("book line 1: unsupported book version '7'")
    );
    let out = quartet(&["othello", "--book", bad.to_str().unwrap(), "--no-book"]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn learn_adds_every_game_to_the_book_and_resumes_from_its_files() {
    let d = dir("learn");
    let learn = |games: &str| {
        quartet(&[
            "othello",
            "--hash-mb",
            "4",
            "learn",
            "--games",
            games,
            "--base-time",
            "0.01",
            "--dir",
            d.to_str().unwrap(),
        ])
    };
    let out = learn("2");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("learn: game 1/2  S_B:S_W "), "{err}");
    assert!(err.contains("learn: game 2/2  S_B:S_W "), "{err}");
    let games = d.join("games.ggf");
    // A run stopped in the middle of writing a game leaves a torn line: cut off, replaced.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&games)
        .unwrap();
    std::io::Write::write_all(&mut f, b"(;GM[Othello]B[F5").unwrap();
    drop(f);
    let out = learn("3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cutting off an unfinished last line (17 bytes)"),
        "{err}"
    );
    assert!(err.contains("learn: resumed from 2 games"), "{err}");
    assert!(err.contains("learn: game 3/3"), "{err}");
    // Three finished games, each a legal GGF record with black's result; the book holds the
    // start with all three games and as many positions as the records say.
    let text = std::fs::read_to_string(&games).unwrap();
    assert_eq!(text.lines().count(), 3);
    let mut book = quartet::othello::book::Book::new(1);
    for line in text.lines() {
        let g = quartet::othello::ggf::GgfGame::parse(line).unwrap();
        assert!(g.board.is_game_over());
        quartet::othello::learn::add_to_book(&mut book, &g, 30).unwrap();
    }
    book.propagate();
    let saved = std::fs::read_to_string(d.join("book.book")).unwrap();
    assert_eq!(saved, book.to_text());
    let start = quartet::othello::board::Board::start();
    assert_eq!(book.lookup(&start).map(|x| x.1), Some(3));
    let _ = std::fs::remove_dir_all(&d);
}

/// The line of `stderr` that starts with `prefix`.
fn line_starting<'a>(stderr: &'a str, prefix: &str) -> &'a str {
    stderr
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line {prefix:?} in {stderr}"))
}

/// `learn --refit 2`: after the second game the tables are refitted, saved in the learn
/// directory, and the third game plays with them (the progress line names the tables by
/// their file checksum); a restart loads them, and a restart that finds the refit missing
/// (a run stopped between a game and its refit) makes the same tables again.
#[test]
fn learn_refits_the_tables_every_k_games_and_resumes_with_them() {
    use quartet::othello::pattern_file::{decode, fingerprint};
    let d = dir("refit");
    let learn = |games: &str| {
        let out = quartet(&[
            "othello",
            "--hash-mb",
            "4",
            "learn",
            "--games",
            games,
            "--base-time",
            "0.01",
            "--refit",
            "2",
            // A weak pull towards the starting tables: one trained game must move them.
            "--refit-ridge",
            "5",
            "--dir",
            d.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{err}");
        err
    };
    let builtin = format!(
        "{:08x}",
        fingerprint(&decode(quartet::othello::evaluator::DEFAULT_PATTERNS).unwrap())
    );
    let saved = || {
        let bytes = std::fs::read(d.join("patterns.bin")).unwrap();
        (
            format!("{:08x}", fingerprint(&decode(&bytes).unwrap())),
            bytes,
        )
    };
    let err = learn("3");
    assert!(line_starting(&err, "learn: game 1/3").ends_with(&format!("tables {builtin}")));
    assert!(line_starting(&err, "learn: game 2/3").ends_with(&format!("tables {builtin}")));
    let (refitted, bytes) = saved();
    assert_ne!(refitted, builtin);
    let refit = line_starting(&err, "learn: refit after 2 games:");
    assert!(refit.contains(&format!("tables {refitted}")), "{refit}");
    let third = line_starting(&err, "learn: game 3/3");
    assert!(
        third.contains(&format!("tables {refitted}  last refit ")),
        "{third}"
    );
    let meta = std::fs::read_to_string(d.join("refit.txt")).unwrap();
    assert!(meta.starts_with("games 2\n"), "{meta}");

    // A restart plays with the saved tables, and refits again after game 4.
    let err = learn("4");
    assert!(
        err.contains(&format!(
            "learn: tables of the refit after 2 games from {} ({refitted})",
            d.join("patterns.bin").display()
        )),
        "{err}"
    );
    assert!(line_starting(&err, "learn: game 4/4").contains(&format!("tables {refitted}")));
    let (after4, bytes4) = saved();
    assert_ne!(after4, refitted);
    assert_ne!(bytes4, bytes);

    // Without its record the last refit is made again, to the same bytes.
    std::fs::remove_file(d.join("refit.txt")).unwrap();
    std::fs::remove_file(d.join("patterns.bin")).unwrap();
    let err = learn("4");
    line_starting(&err, "learn: refit after 4 games:");
    assert_eq!(saved().1, bytes4);
    let _ = std::fs::remove_dir_all(&d);
}

/// All lines up to and including the bare `status` that ends an NBoard `go` or `hint`.
fn nboard_until_status(q: &mut Live) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let l = q
            .line(Duration::from_secs(20))
            .expect("an NBoard line within 20 s");
        let done = l == "status";
        lines.push(l);
        if done {
            return lines;
        }
    }
}

/// The book in NBoard mode: `hint` lists the trusted book moves as the protocol's
/// `book <pv> <eval> <# games> <depth> <text>` lines and `go` plays the best of them, both
/// without searching (120 s a move would not answer in the 20 s allowed); out of the book
/// both search again.
#[test]
fn nboard_go_and_hint_answer_from_the_book() {
    let d = dir("nboard");
    let book = build(&d);
    let mut q = Live::start(&[
        "othello",
        "--protocol",
        "nboard",
        "--book",
        book.to_str().unwrap(),
        "--move-time",
        "120",
        "--hint-time",
        "120",
        "--hash-mb",
        "8",
    ]);
    q.send("nboard 2");
    q.send("set depth 20");
    assert_eq!(
        q.line(Duration::from_secs(10)).as_deref(),
        Some("set myname quartet")
    );
    // After black c4 (f5 turned half a turn) white's book moves are c5 (+10, 4 games),
    // c3 (a draw, 1 game: untrusted, not listed) and e3 (-30, 4 games); see `build`.
    q.send(&format!(
        "set game (;GM[Othello]PC[NBoard]TY[8]{START}B[C4];)"
    ));
    q.send("hint 5");
    let lines = nboard_until_status(&mut q);
    assert_eq!(
        lines.iter().map(String::as_str).collect::<Vec<_>>(),
        [
            "status thinking",
            "book C5 10.00 4 0 book",
            "book E3 -30.00 4 0 book",
            lines[3].as_str(),
            "status"
        ],
        "{lines:?}"
    );
    assert!(lines[3].starts_with("nodestats 0 "), "{lines:?}");
    q.send("hint 1");
    let lines = nboard_until_status(&mut q);
    assert_eq!(lines[1], "book C5 10.00 4 0 book", "{lines:?}");
    assert_eq!(lines.len(), 4, "{lines:?}");

    q.send("go");
    let lines = nboard_until_status(&mut q);
    assert_eq!(lines[0], "status thinking");
    assert_eq!(lines[1], "book C5 10.00 4 0 book");
    let f: Vec<&str> = lines[2].split_whitespace().collect();
    assert_eq!(f[..3], ["===", "C5", "10.00"], "{lines:?}");
    f[3].parse::<f64>().unwrap();

    // Past the book (black to move after c4 c5) `hint` searches: `search` lines only. The
    // new line stops the 120 s search, and `pong` follows its `status`.
    q.send("move C5");
    q.send("set depth 2");
    assert_eq!(
        q.line(Duration::from_secs(10)).as_deref(),
        Some("set myname quartet")
    );
    q.send("hint 2");
    let lines = nboard_until_status(&mut q);
    assert!(lines.iter().any(|l| l.starts_with("search ")), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("book ")), "{lines:?}");
    q.send("ping 7");
    assert_eq!(q.line(Duration::from_secs(10)).as_deref(), Some("pong 7"));
    q.send("quit");
    assert!(q.wait_exit(Duration::from_secs(10)).is_some());
    let _ = std::fs::remove_dir_all(&d);
}

/// Plays `genmove` for both sides from the start with the built-in book; returns for each
/// move whether the log says it came from the book.
fn from_book_flags(moves: usize) -> Vec<bool> {
    let mut q = Live::start_logged(&[
        "othello",
        "--move-time",
        "0.05",
        "--hash-mb",
        "8",
        "--log-level",
        "info",
    ]);
    let mut color = ["b", "w"].iter().cycle();
    for _ in 0..moves {
        let a = q.ask(&format!("genmove {}", color.next().unwrap()));
        assert!(a.starts_with("= "), "{a}");
        // A pass is answered before the book or the search is asked (and not logged).
        assert!(
            !a.eq_ignore_ascii_case("= pass"),
            "no pass is expected this early"
        );
    }
    q.send("quit");
    assert!(q.wait_exit(Duration::from_secs(10)).is_some());
    // One log line per genmove: "genmove: book move" or the search's "genmove" line.
    let mut flags: Vec<bool> = Vec::new();
    let waited = std::time::Instant::now();
    while flags.len() < moves && waited.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
        flags = q
            .log()
            .iter()
            .filter(|(_, l)| l.contains("genmove"))
            .map(|(_, l)| l.contains("genmove: book move"))
            .collect();
    }
    assert_eq!(flags.len(), moves, "{:?}", q.log());
    flags
}

#[test]
fn the_built_in_book_plays_the_opening_then_hands_over_to_the_search() {
    let flags = from_book_flags(32);
    // The opening comes from the book, and once it has no trusted move the search plays
    // on; the last moves (past the book's 30 plies) are searched whatever the book holds.
    assert!(flags[0] && flags[1], "{flags:?}");
    assert!(!flags[31], "{flags:?}");
    // `--no-book` turns the built-in book off.
    let mut q = Live::start(&["othello", "--hash-mb", "8", "--no-book"]);
    assert!(q.ask("book").starts_with("? no opening book"));
    q.send("quit");
    assert!(q.wait_exit(Duration::from_secs(10)).is_some());
}
