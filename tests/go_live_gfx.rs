//! `quartet go --gfx`: GoGui's live graphics on stderr while `genmove` thinks, checked
//! against the syntax of GoGui's manual (doc/manual/xml/live-gfx.xml, analyze.xml) as
//! GoGui 1.6 parses it (LiveGfx.java: `gogui-gfx:` alone opens a set that ends at an empty
//! line; AnalyzeShow.java: `VAR` takes `b|w point` pairs, `LABEL` point-text pairs,
//! points as GoPoint.parsePoint reads them), and nothing of it on stdout.
mod common;

use common::live::Live;
use std::time::Duration;

/// A point GoGui's `GoPoint.parsePoint` accepts on a `size` board (or `pass`).
fn gogui_point(s: &str, size: usize) -> bool {
    let s = s.to_ascii_uppercase();
    if s == "PASS" {
        return true;
    }
    let mut chars = s.chars();
    let Some(c) = chars.next() else { return false };
    if !c.is_ascii_uppercase() || c == 'I' {
        return false;
    }
    let x = (c as u8 - b'A') as usize - usize::from(c > 'I');
    let y: usize = match chars.as_str().parse() {
        Ok(y) => y,
        Err(_) => return false,
    };
    x < size && (1..=size).contains(&y)
}

/// Checks one draw command line of a set; returns its command word.
fn check_draw_command(line: &str, size: usize, to_move: &str) -> String {
    let args: Vec<&str> = line.split_whitespace().collect();
    let cmd = args[0];
    match cmd {
        "VAR" => {
            let rest = &args[1..];
            assert!(rest.len() >= 2 && rest.len().is_multiple_of(2), "{line}");
            for (i, pair) in rest.chunks(2).enumerate() {
                // Alternating colours from the side to move.
                let side = if (i % 2 == 0) == (to_move == "b") {
                    "b"
                } else {
                    "w"
                };
                assert_eq!(pair[0], side, "{line}");
                assert!(gogui_point(pair[1], size), "{line}");
            }
        }
        "LABEL" => {
            let rest = &args[1..];
            assert!(rest.len() >= 2 && rest.len().is_multiple_of(2), "{line}");
            for pair in rest.chunks(2) {
                assert!(gogui_point(pair[0], size) && pair[0] != "pass", "{line}");
                // Our labels are win rates in whole percent: three characters at most,
                // as GoGui clips a label to its point's width.
                assert!(pair[1].parse::<u8>().is_ok_and(|p| p <= 100), "{line}");
                assert!(pair[1].len() <= 3, "{line}");
            }
        }
        "TEXT" => assert!(line.len() > 5, "{line}"),
        _ => panic!("unexpected draw command {line:?}"),
    }
    cmd.to_string()
}

#[test]
fn gfx_draws_well_formed_sets_on_stderr_during_genmove_and_nothing_on_stdout() {
    let mut q = Live::start_logged(&["go", "--gfx", "--move-time", "1.6"]);
    assert_eq!(q.ask("boardsize 9"), "=");
    assert_eq!(q.ask("play b E5"), "=");
    // Two moves: each draws about every 0.5 s and clears before it answers.
    for color in ["w", "b"] {
        let a = q.ask(&format!("genmove {color}"));
        assert!(a.starts_with("= ") && !a.contains('\n'), "{a:?}");
        assert!(!a.contains("gogui"), "{a:?}");
    }
    // Nothing else arrives on stdout.
    assert_eq!(q.line(Duration::from_millis(300)), None);
    q.send("quit");
    assert_eq!(q.answer(Duration::from_secs(5)).as_deref(), Some("="));
    q.wait_exit(Duration::from_secs(5)).expect("exit");

    let log: Vec<String> = q.log().into_iter().map(|(_, l)| l).collect();
    let mut sets = Vec::new();
    let mut clears = 0;
    let mut i = 0;
    let mut to_move = "w";
    while i < log.len() {
        let line = log[i].trim();
        i += 1;
        if line == "gogui-gfx: CLEAR" {
            clears += 1;
            to_move = "b";
            continue;
        }
        if line == "gogui-gfx:" {
            let mut cmds = Vec::new();
            while i < log.len() && !log[i].trim().is_empty() {
                cmds.push(check_draw_command(log[i].trim(), 9, to_move));
                i += 1;
            }
            assert!(i < log.len(), "a set not ended by an empty line: {log:?}");
            i += 1;
            sets.push(cmds);
            continue;
        }
        assert!(!line.starts_with("gogui-gfx"), "malformed: {line:?}");
    }
    assert_eq!(clears, 2, "one CLEAR per genmove: {log:?}");
    // 1.6 s per move in 0.5 s steps: three sets each, at least two on a loaded machine.
    assert!(sets.len() >= 4, "{} sets: {log:?}", sets.len());
    for cmds in &sets {
        assert_eq!(cmds, &["VAR", "LABEL", "TEXT"], "{log:?}");
    }
}
