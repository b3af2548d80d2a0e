//! Rule cross-check against OpenSpiel, a small sample: `scripts/openspiel_xcheck.py` plays
//! random games of each game in OpenSpiel and through our engines' protocols side by side
//! and compares legal moves, boards (captures, flips), boxes, side to move, game end and
//! the result after every move (the script's header says exactly what per game). The long
//! run (10,000 games per game) is by hand; see the script.
//!
//! Needs python3 with OpenSpiel's `pyspiel` module (`python3 -m pip install open_spiel`;
//! `.ci/run` installs it): without it the tests skip with a message, or fail under CI
//! (tests/common/oracle.rs).
use std::process::Command;

mod common;

const QUARTET: &str = env!("CARGO_BIN_EXE_quartet");
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/openspiel_xcheck.py");

fn xcheck(game: &str, games: u32, extra: &[&str]) {
    if !common::oracle::pyspiel() {
        return;
    }
    let games = games.to_string();
    let out = Command::new("python3")
        .arg(SCRIPT)
        .args([game, "--games", &games, "--seed", "7", "--quartet", QUARTET])
        .args(extra)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The summary must count the games asked for and some moves: a run that compared
    // nothing is a failure, not a pass.
    let summary = format!("xcheck {game}: {games} games, ");
    assert!(text.contains(&summary), "{text}");
    assert!(text.contains(" 0 differences"), "{text}");
    assert!(!text.contains(", 0 moves"), "{text}");
}

#[test]
fn go_9x9_agrees_with_openspiel() {
    xcheck("go", 10, &[]);
}

#[test]
fn othello_agrees_with_openspiel() {
    xcheck("othello", 20, &[]);
}

#[test]
fn gomoku_15x15_freestyle_agrees_with_openspiel() {
    xcheck("gomoku", 8, &[]);
}

#[test]
fn dots_agree_with_openspiel() {
    xcheck("dots", 40, &["--size", "1x1,2x3,3x3,5x5"]);
}
