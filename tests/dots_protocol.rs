//! `quartet dots` as a process: full transcripts, turn order, bad input, solve and time.
mod common;

use std::time::{Duration, Instant};

/// Sends `input` to `quartet dots` and returns the answers (split at the empty lines).
fn session(extra: &[&str], input: &str) -> Vec<String> {
    let all: Vec<&str> = std::iter::once("dots")
        .chain(extra.iter().copied())
        .collect();
    let (out, code) = common::session::run(&all, input.as_bytes());
    assert_eq!(code, 0);
    out.split("\n\n")
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn a_one_box_game_with_turns_and_scores() {
    let answers = session(
        &[],
        "1 boardsize 1x1\n2 play b a1-b1\n3 play b b1-b2\n4 play w B2-B1\n5 play b a2-b2\n\
         6 play w a1-a2\n7 score\n8 final_score\n9 undo\n10 score\n11 genmove b\n12 genmove w\n\
         13 final_score\n14 genmove w\n",
    );
    assert_eq!(
        answers,
        [
            "=1",
            "=2",
            "?3 not your turn",
            "=4",
            "=5",
            "=6",
            "=7 black 0 white 1",
            "=8 W+1",
            "=9",
            "=10 black 0 white 0",
            "?11 not your turn",
            "=12 a1-a2",
            "=13 W+1",
            "?14 game is over",
        ]
    );
}

#[test]
fn the_capturer_moves_again() {
    // 2x1: three single moves (b, w, b) leave white to move; white takes the left box
    // with b1-b2 and must move again.
    let answers = session(
        &[],
        "boardsize 2x1\nsetboard a1-b1 a2-b2 a1-a2\nplay b b1-b2\nplay w b1-b2\nscore\n\
         play b c1-c2\nplay w c1-c2\nplay w b2-c2\nplay b b2-c2\nscore\n",
    );
    assert_eq!(
        answers,
        [
            "=",
            "=",
            "? not your turn",
            "=",
            "= black 0 white 1",
            "? not your turn",
            "=",
            "? not your turn",
            "=",
            "= black 0 white 1",
        ]
    );
}

#[test]
fn bad_input_answers_an_error_and_changes_nothing() {
    let answers = session(
        &[],
        "boardsize 2x2\nplay b a1-b1\nplay w a1-b1\nplay w a1-c1\nplay w a1-b2\nplay w a1a2\n\
         play w c3-d3\nplay w j1-j2\nplay red a1-a2\nplay w\nboardsize 9x9\nboardsize 0x2\nboardsize 2by2\n\
         setboard a1-b1 a1-b1\nloadgame 3x3 a1-b1 zz\nloadgame 10x1\nundo extra\ngenmove purple\n\
         score\nshowboard\n",
    );
    assert_eq!(
        &answers[..answers.len() - 1],
        [
            "=",
            "=",
            "? edge already drawn",
            "? dots are not adjacent",
            "? dots are not adjacent",
            "? malformed edge (expected e.g. a1-b1)",
            "? edge is off the board",
            "? malformed edge (expected e.g. a1-b1)",
            "? invalid color",
            "? syntax error",
            "? unacceptable size",
            "? unacceptable size",
            "? unacceptable size",
            "? move 2: edge already drawn",
            "? move 2: malformed edge (expected e.g. a1-b1)",
            "? unacceptable size",
            "? syntax error",
            "? invalid color",
            "= black 0 white 0",
        ]
    );
    // The board is still 2x2 with the one edge black drew, white to move.
    let board = answers.last().unwrap();
    assert!(board.starts_with("= \n 3 +   +   +\n"), "{board}");
    assert!(board.contains(" 1 +---+   +\n"), "{board}");
    assert!(board.ends_with("white to move"), "{board}");
}

#[test]
fn solve_gives_the_value_and_a_winning_edge_or_refuses() {
    let answers = session(
        &["--solve-limit", "24"],
        "boardsize 2x2\nsolve\nboardsize 3x3\nsolve\nplay b b2-c2\nsolve\nboardsize 5x5\nsolve\n",
    );
    // 2x2: +2 for the first player, and only boundary edges win.
    let (v, edge) = answers[1].trim_start_matches("= ").split_once(' ').unwrap();
    assert_eq!(v, "2");
    let interior = ["a2-b2", "b2-c2", "b1-b2", "b2-b3"];
    assert!(!interior.contains(&edge), "{edge}");
    // 3x3 (24 edges): -3 for the first player whatever it plays; after one move +3 for white.
    assert!(answers[3].starts_with("= -3 "), "{}", answers[3]);
    assert!(answers[5].starts_with("= 3 "), "{}", answers[5]);
    assert_eq!(answers[7], "? too large");
}

#[test]
fn genmove_answers_within_its_time() {
    let start = Instant::now();
    let answers = session(
        &[],
        "boardsize 8x8\ntime_settings 10 0 0\ntime_left b 1 0\ngenmove b\nboardsize 5x5\n\
         time_left w 1 0\ngenmove b\ngenmove w\n",
    );
    assert_eq!(answers.len(), 8);
    for a in [&answers[3], &answers[6], &answers[7]] {
        assert!(a.starts_with("= ") && a.contains('-'), "{a}");
    }
    assert!(
        start.elapsed() < Duration::from_secs(6),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn go_controllers_komi_and_kgs_clock_are_accepted() {
    // GoGui and match scripts send `komi` and `kgs-time_settings` to every engine.
    let answers = session(
        &[],
        "komi 6.5\nkomi x\nkomi\nkgs-time_settings byoyomi 60 5 3\nkgs-time_settings sudden 1\n\
         time_left b 30 0\nboardsize 1x1\nscore\n",
    );
    assert_eq!(
        answers,
        [
            "=",
            "? syntax error",
            "? syntax error",
            "=",
            "? syntax error",
            "=",
            "=",
            "= black 0 white 0",
        ]
    );
}
