//! Transcript tests against the real `quartet othello` binary. Expected answers come from
//! the rules (the three legal replies to d3, FFO #40's published solution), not from
//! recording our own output.
mod common;
use std::process::{Command, Stdio};

/// Sends `lines` (plus `quit`) one at a time, as a controller does (a pipelined `quit`
/// would stop a running search), and returns one answer per command.
fn session(lines: &[&str]) -> Vec<String> {
    let mut input = String::new();
    for l in lines {
        input.push_str(l);
        input.push('\n');
    }
    input.push_str("quit\n");
    let (text, code) = common::session::run(
        &["othello", "--move-time", "0.2", "--hash-mb", "8"],
        input.as_bytes(),
    );
    assert_eq!(code, 0);
    let mut answers: Vec<String> = text
        .split("\n\n")
        .filter(|s| !s.is_empty())
        .map(|s| s.to_string())
        .collect();
    assert_eq!(answers.pop().as_deref(), Some("="), "quit answer");
    assert_eq!(answers.len(), lines.len(), "{text}");
    answers
}

#[test]
fn a_short_game_with_genmove_undo_and_showboard() {
    let a = session(&[
        "protocol_version",
        "set_game Othello",
        "list_games",
        "boardsize 8",
        "clear_board",
        "gogui-rules_legal_moves",
        "play black d3",
        "gogui-rules_side_to_move",
        "gogui-rules_legal_moves",
        "genmove white",
        "gogui-rules_side_to_move",
        "undo",
        "gogui-rules_legal_moves",
        "showboard",
        "final_score",
        "gogui-rules_final_result",
    ]);
    assert_eq!(a[0], "= 2");
    assert_eq!(a[1], "=");
    assert_eq!(a[2], "= Othello");
    assert_eq!(a[3], "=");
    assert_eq!(a[5], "= D3 C4 F5 E6");
    assert_eq!(a[7], "= white");
    assert_eq!(a[8], "= C3 E3 C5");
    let reply = a[9].strip_prefix("= ").unwrap();
    assert!(["C3", "E3", "C5"].contains(&reply), "{reply}");
    assert_eq!(a[10], "= black");
    assert_eq!(a[11], "=");
    assert_eq!(a[12], "= C3 E3 C5");
    assert!(a[13].contains("3 . . . X . . . . 3"), "{}", a[13]);
    assert!(a[13].contains("white to move"));
    assert_eq!(a[14], "= B+3");
    assert_eq!(a[15], "= unknown");
}

#[test]
fn solve_finds_the_published_ffo_40_result() {
    let a = session(&[
        "setboard O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
        "gogui-rules_side_to_move",
        "solve",
    ]);
    assert_eq!(a[0], "=");
    assert_eq!(a[1], "= black");
    assert_eq!(a[2], "= a2 +38");
}

#[test]
fn solve_refuses_positions_it_could_not_finish() {
    // The start position has 60 empty squares: solving it would never end.
    let a = session(&[
        "solve",
        "showboard",
        "clear_board",
        "play black d3",
        "solve",
    ]);
    assert_eq!(a[0], "? too many empty squares to solve (60, at most 36)");
    assert!(a[1].starts_with('='));
    assert_eq!(a[4], "? too many empty squares to solve (59, at most 36)");
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let sixty_three = "-".repeat(63);
    let a = session(&[
        &format!("setboard {sixty_three} X"),
        "play purple d3",
        "genmove green",
        "boardsize 10",
        "boardsize x",
        "play white d3",
        "play black a1",
        "play black z9",
        "play black pass",
        "undo",
        "set_game Go",
        "gogui-rules_legal_moves",
        "showboard",
        &format!("setboard {}X O", "-".repeat(63)),
        "play",
        "frobnicate",
    ]);
    assert!(a[0].starts_with("? ") && a[0].contains("64"), "{}", a[0]);
    assert_eq!(a[1], "? invalid color 'purple'");
    assert_eq!(a[2], "? invalid color 'green'");
    assert_eq!(a[3], "? unacceptable size");
    assert_eq!(a[4], "? syntax error");
    assert_eq!(a[5], "? illegal move");
    assert_eq!(a[6], "? illegal move");
    assert_eq!(a[7], "? illegal move");
    assert_eq!(a[8], "? illegal move");
    assert_eq!(a[9], "? cannot undo");
    assert_eq!(a[10], "? unsupported game");
    // The start position is untouched by all of the above.
    assert_eq!(a[11], "= D3 C4 F5 E6");
    assert!(a[12].contains("black (X) 2  white (O) 2  black to move"));
    assert_eq!(a[13], "=");
    assert_eq!(a[14], "? syntax error");
    assert_eq!(a[15], "? unknown command");
}

#[test]
fn automatic_pass_and_game_end() {
    // White to move has no legal move (a1 black, b1 white, h8 black): it passes
    // automatically, black takes c1 and the game is over, 64-0 by the empties rule.
    let board = format!("XO{}X", "-".repeat(61));
    let a = session(&[
        &format!("setboard {board} O"),
        "gogui-rules_side_to_move",
        "genmove white",
        "play white pass",
        "play black c1",
        "gogui-rules_legal_moves",
        "genmove black",
        "final_score",
        "gogui-rules_final_result",
    ]);
    assert_eq!(a[1], "= black");
    assert_eq!(a[2], "= pass");
    assert_eq!(a[3], "=");
    assert_eq!(a[4], "=");
    assert_eq!(a[5], "=");
    assert_eq!(a[6], "= pass");
    assert_eq!(a[7], "= B+64");
    assert_eq!(a[8], "= B+64");
}

#[test]
fn a_truncated_weights_file_is_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("quartet-w-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("w.txt");
    std::fs::write(&path, "features mobility potential\nstage 60 1 2").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(["othello", "--weights", path.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("weights file line 1: features must be exactly"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 20 defect 6: `--weights /dev/zero` used to read until memory ran out.
#[test]
fn an_endless_weights_file_is_refused_quickly() {
    if !std::path::Path::new("/dev/zero").exists() {
        eprintln!("skipped: no /dev/zero here");
        return;
    }
    let t = std::time::Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(["othello", "--weights", "/dev/zero"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("larger than 16 MiB"), "{err}");
    assert!(t.elapsed() < std::time::Duration::from_secs(10));
}

#[test]
fn pattern_weights_load_and_a_damaged_copy_names_the_offset() {
    let good = concat!(env!("CARGO_MANIFEST_DIR"), "/data/othello/patterns.bin");
    let (a, code) = common::session::run(
        &["othello", "--weights", good, "--move-time", "0.1"],
        b"play black d3\ngenmove white\nquit\n",
    );
    assert_eq!(code, 0);
    // The three legal answers to d3 (rules, not our output): c3, c5, e3.
    assert!(
        a.starts_with("=\n\n= C3\n\n")
            || a.starts_with("=\n\n= C5\n\n")
            || a.starts_with("=\n\n= E3\n\n"),
        "{a}"
    );
    let mut bytes = std::fs::read(good).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 0x55;
    let dir = std::env::temp_dir().join(format!("quartet-p-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("p.bin");
    std::fs::write(&path, &bytes).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(["othello", "--weights", path.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("byte offset"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
