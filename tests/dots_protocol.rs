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

/// Issue 20, defect 9: `--boardsize` sets the GTP board too, and a size off the
/// 1..8 range stops the program with a message instead of being ignored.
#[test]
fn boardsize_option_sets_the_gtp_board_and_refuses_bad_sizes() {
    // 2x3 boxes: dots a..c by 1..4, so c1-d1 is off the board and b4-c4 is its top edge.
    let answers = session(
        &["--boardsize", "2x3"],
        "play b c1-d1\nplay b b4-c4\nclear_board\nshowboard\n",
    );
    assert_eq!(answers[..3], ["? edge is off the board", "=", "="]);
    assert!(
        answers[3].starts_with("= \n 4 +   +   +\n"),
        "{}",
        answers[3]
    );
    let answers = session(&["--boardsize", "3"], "play b c4-d4\nplay b d4-e4\n");
    assert_eq!(answers, ["=", "? edge is off the board"]);
    for bad in ["99x99", "0x0", "9x1", "2by2", "x"] {
        let (out, code) = common::session::run(&["dots", "--boardsize", bad], b"name\n");
        assert_ne!(code, 0, "--boardsize {bad} accepted");
        assert_eq!(out, "", "--boardsize {bad}");
    }
}

/// GoGui's rules mode (issue 19): the first `gogui-rules_*` command switches moves to grid
/// points. 2x2 boxes make a 5x5 grid: dots at even-even points, edges between them, box
/// centres B2, D2, B4, D4. White's C2 completes the lower-left box (B1, A2, B3, C2) and
/// White moves again; E2 then completes the lower-right one (D1, C2, D3, E2).
#[test]
fn gogui_rules_transcript_with_a_capture_that_keeps_the_turn() {
    let answers = session(
        &[],
        "gogui-rules_game_id\nboardsize 2x2\ngogui-rules_board_size\ngogui-rules_legal_moves\n\
         play b B1\nplay w A2\nplay b B3\ngogui-rules_side_to_move\nplay w C2\n\
         gogui-rules_side_to_move\ngogui-rules_board\ngogui-rules_captured_count\n\
         gogui-rules_final_result\nplay b D1\nplay w A1\nplay w Z9\nplay w C2\n\
         play w D1\nplay b D3\nplay w E2\ngogui-rules_legal_moves\n\
         play w A4\nplay b C4\nplay w B5\nplay w E4\nplay b D5\n\
         gogui-rules_legal_moves\ngogui-rules_final_result\ngogui-rules_board\n",
    );
    assert_eq!(
        answers,
        [
            "= DotsAndBoxes",
            "=",
            "= 5",
            "= B1 D1 B3 D3 B5 D5 A2 C2 E2 A4 C4 E4",
            "=",
            "=",
            "=",
            "= white",
            "=",
            "= white",
            "= . . . . .\n. . . . .\n. X . . .\nO O O . .\n. X . . .",
            "= 0 1",
            "= unknown",
            "? not your turn",
            "? A1 is a dot or a box, not an edge",
            "? no point Z9 on the 5x5 grid",
            "? edge already drawn",
            "=",
            "=",
            "=",
            "= B5 D5 A4 C4 E4",
            "=",
            "=",
            "=",
            "=",
            "=",
            "=",
            "= W+2 (black 1 white 3)",
            "= . O . X .\nO O X X O\n. X . X .\nO O O O O\n. X . O .",
        ]
    );
}

/// GoGui only handles square boards (a rectangle makes it fail at start-up), so GoGui's
/// mode refuses others: at the command line, in `boardsize` and `loadgame`, and a
/// `gogui-rules_*` command on a rectangle does not turn the mode on.
#[test]
fn gogui_mode_refuses_boards_that_are_not_square() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(["dots", "--boardsize", "3x2", "--gogui"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert_eq!(out.stdout, b"");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("GoGui only handles square boards"), "{err}");

    let refusal = "? GoGui only handles square boards (3x2 boxes make a 7x5 grid); \
                   give a square size such as 3x3";
    let answers = session(
        &["--gogui", "--boardsize", "3"],
        "boardsize 3x2\nloadgame 3x2 a1-b1\ngogui-rules_board_size\nplay b B1\n",
    );
    assert_eq!(answers, [refusal, refusal, "= 7", "="]);

    // Not in the mode: the rectangle stays playable by edge names, the rules commands
    // refuse it and the mode stays off (an answer by edge name, not grid point).
    let answers = session(
        &["--boardsize", "3x2", "--player", "greedy"],
        "gogui-rules_game_id\ngogui-rules_board_size\nplay b a1-b1\ngenmove w\n",
    );
    assert_eq!(answers[..3], [refusal, refusal, "="]);
    assert!(answers[3].contains('-'), "{}", answers[3]);
}

/// With `--gogui`, `boardsize N` counts grid points and `genmove` answers a point;
/// edge names still work.
#[test]
fn gogui_flag_sizes_the_grid_and_answers_points() {
    let answers = session(
        &["--gogui", "--move-time", "0.1"],
        "boardsize 3\ngogui-rules_board_size\nboardsize 4\nboardsize 19\nplay b a1-b1\n\
         genmove w\ngogui-rules_legal_moves\n",
    );
    assert_eq!(
        answers[..5],
        [
            "=",
            "= 3",
            "? unacceptable size",
            "? unacceptable size",
            "="
        ]
    );
    let mv = answers[5].trim_start_matches("= ");
    assert!(["A2", "C2", "B3"].contains(&mv), "{}", answers[5]);
    let left: Vec<&str> = answers[6].trim_start_matches("= ").split(' ').collect();
    assert_eq!(left.len(), 2);
    assert!(!left.contains(&mv) && !left.contains(&"B1"), "{left:?}");
}
