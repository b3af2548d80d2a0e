//! A whole NBoard session with the real `quartet othello --protocol nboard`, line by line
//! as the GUI sends it. The line formats are those of the NBoard protocol document
//! (NTest's `instructions/Protocol.htm` and the version-2 page in NBoard.zip): `pong n`,
//! `search <pv> <eval> 0 <depth> [text]`, `=== <move> <eval> <time>`, `status ...`,
//! `learned`. The legal-move sets below come from a separate replay of the document's
//! example game (a dictionary board, eight directions), not from the engine.
mod common;
use common::live::Live;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// The `set game` of the protocol document's example session.
const DOC_GAME: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";
/// Black's moves after the example game.
const BLACK_MOVES: &[&str] = &[
    "B5", "B6", "C4", "C6", "D6", "G3", "G4", "G5", "G6", "G7", "G8",
];
/// White's moves after that game and black d6.
const WHITE_MOVES_AFTER_D6: &[&str] = &["C2", "C3", "C4", "C6", "C7", "D7", "D8", "E3", "F8"];

const WAIT: Duration = Duration::from_secs(30);

fn next(e: &mut Live) -> String {
    e.line(WAIT).expect("an output line within 30 s")
}

/// Lines up to and including the bare `status` that ends a search.
fn until_status(e: &mut Live) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let l = next(e);
        let done = l == "status";
        lines.push(l);
        if done {
            return lines;
        }
    }
}

/// A `search` line's (move, eval, depth), checking its shape.
fn search_line(l: &str) -> (String, f64, u32) {
    let f: Vec<&str> = l.split_whitespace().collect();
    assert!(f.len() >= 5 && f[0] == "search" && f[3] == "0", "{l}");
    let eval: f64 = f[2].parse().unwrap_or_else(|_| panic!("eval in {l}"));
    assert!(eval.abs() <= 64.0, "{l}");
    (f[1].to_string(), eval, f[4].parse().unwrap())
}

/// `hint 20` (more than there are moves) at depth 2: the moves of the deepest printed
/// depth are every legal move of the engine's position.
fn hinted_moves(e: &mut Live) -> BTreeSet<String> {
    e.send("hint 20");
    let lines = until_status(e);
    assert_eq!(lines[0], "status thinking");
    let rows: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("search "))
        .map(|l| search_line(l))
        .collect();
    let deepest = rows.iter().map(|r| r.2).max().expect("search lines");
    rows.into_iter()
        .filter(|r| r.2 == deepest)
        .map(|r| r.0)
        .collect()
}

fn set(moves: &[&str]) -> BTreeSet<String> {
    moves.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_full_nboard_session() {
    let mut e = Live::start_logged(&[
        "othello",
        "--protocol",
        "nboard",
        "--move-time",
        "0.3",
        "--hint-time",
        "20",
        "--hash-mb",
        "8",
    ]);
    e.send("nboard 2");
    e.send("set depth 4");
    assert_eq!(next(&mut e), "set myname quartet");
    e.send(&format!("set game {DOC_GAME}"));
    e.send("ping 1");
    assert_eq!(next(&mut e), "pong 1");

    // hint 3: streamed search lines, at most three a depth, deepening, then `status`.
    e.send("hint 3");
    let lines = until_status(&mut e);
    assert_eq!(lines[0], "status thinking");
    assert!(
        lines[lines.len() - 2].starts_with("nodestats "),
        "{lines:?}"
    );
    let rows: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("search "))
        .map(|l| search_line(l))
        .collect();
    let depths: BTreeSet<u32> = rows.iter().map(|r| r.2).collect();
    assert_eq!(depths, [2, 3, 4].into_iter().collect(), "{lines:?}");
    for d in depths {
        let at: Vec<_> = rows.iter().filter(|r| r.2 == d).collect();
        assert_eq!(at.len(), 3, "{lines:?}");
        assert!(
            at.windows(2).all(|w| w[0].1 >= w[1].1),
            "best first: {lines:?}"
        );
        assert!(
            at.iter().all(|r| BLACK_MOVES.contains(&r.0.as_str())),
            "{lines:?}"
        );
    }

    // go: `=== move eval time` with a legal move; the position does not change.
    e.send("go");
    let lines = until_status(&mut e);
    assert_eq!(lines[0], "status thinking");
    let answer = lines
        .iter()
        .find(|l| l.starts_with("=== "))
        .expect("=== line");
    let f: Vec<&str> = answer.split_whitespace().collect();
    assert_eq!(f.len(), 4, "{answer}");
    assert!(BLACK_MOVES.contains(&f[1]), "{answer}");
    f[2].parse::<f64>().unwrap();
    f[3].parse::<f64>().unwrap();
    e.send("ping 2");
    assert_eq!(next(&mut e), "pong 2");
    assert_eq!(hinted_moves(&mut e), set(BLACK_MOVES));

    // A bad GGF (white f5 is taken) is reported on stderr with where and which field,
    // and the engine keeps its game.
    e.send("set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F5];)");
    e.send("ping 3");
    assert_eq!(next(&mut e), "pong 3");
    // Stderr is read by another thread: give it a moment.
    let reported = |e: &Live| {
        e.log().iter().any(|(_, l)| {
            l.contains("offset 92") && l.contains("field W") && l.contains("f5 is not a legal move")
        })
    };
    let t = Instant::now();
    while !reported(&e) && t.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(reported(&e), "{:?}", e.log());
    assert_eq!(hinted_moves(&mut e), set(BLACK_MOVES));
    // So does an illegal move.
    e.send("move A1");
    assert_eq!(hinted_moves(&mut e), set(BLACK_MOVES));

    // move with eval and time: now white moves.
    e.send("move D6/2.00/0.3");
    assert_eq!(hinted_moves(&mut e), set(WHITE_MOVES_AFTER_D6));

    // `ping` stops a running hint: it is answered after the hint's `status`, fast.
    e.send("set depth 60");
    assert_eq!(next(&mut e), "set myname quartet");
    e.send("hint 1");
    assert_eq!(next(&mut e), "status thinking");
    let first = next(&mut e);
    search_line(&first);
    let sent = Instant::now();
    e.send("ping 4");
    loop {
        let l = next(&mut e);
        if l == "status" {
            break;
        }
        assert!(
            l.starts_with("search ") || l.starts_with("nodestats "),
            "{l}"
        );
    }
    assert_eq!(next(&mut e), "pong 4");
    assert!(
        sent.elapsed() < Duration::from_secs(10),
        "hint stopped late"
    );

    e.send("learn");
    assert_eq!(next(&mut e), "learned");
    e.send("quit");
    assert!(e.wait_exit(WAIT).is_some_and(|s| s.success()));
}
