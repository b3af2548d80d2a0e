//! `--ponder` for Othello and Gomoku, on the real binary: after our `genmove` the engine
//! searches the opponent's position until the next command, silently, and stops at once
//! on `quit`; the next `genmove`, after the reply the ponder expected, starts from the
//! tables the ponder filled and so completes a deeper iteration in the same time than an
//! engine that did not ponder. (The Go ponder has its own test in go_analysis.rs.)
mod common;

use common::live::Live;
use std::time::{Duration, Instant};

/// Our own move time: short, so the ponder (below) is many times longer.
const MOVE_TIME: &str = "0.05";
/// The opponent's thinking time, during which we ponder.
const OPPONENT_THINKS: Duration = Duration::from_millis(3000);

/// The value of `key=` in a log line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let at = line.find(&format!(" {key}="))? + key.len() + 2;
    line[at..].split_whitespace().next()
}

/// The last log line containing `what`, waiting up to 5 s for stderr to be read.
fn last_log_line(q: &Live, what: &str) -> String {
    let waited = Instant::now();
    loop {
        if let Some((_, l)) = q.log().iter().rev().find(|(_, l)| l.contains(what)) {
            return l.clone();
        }
        assert!(
            waited.elapsed() < Duration::from_secs(5),
            "no {what:?} line in the log: {:?}",
            q.log()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

struct Game {
    args: &'static [&'static str],
    setup: &'static str,
    me: &'static str,
    opponent: &'static str,
}

/// What one run saw: our first move, the reply played, and the depth our next search
/// completed.
struct Run {
    first: String,
    reply: String,
    depth: u32,
}

/// One game: `genmove`, the opponent's time, the reply, `genmove` again. With `ponder`
/// the reply is the one the ponder expected (from its log); without, `expected` gives the
/// first move and the reply of the ponder run, so both runs search the same position.
fn run(g: &Game, ponder: bool, expected: Option<&Run>) -> Run {
    let mut args = g.args.to_vec();
    args.extend(["--move-time", MOVE_TIME, "--log-level", "debug"]);
    if ponder {
        args.push("--ponder");
    }
    let mut q = Live::start_logged(&args);
    assert_eq!(q.ask(g.setup), "=");
    let a = q.ask(&format!("genmove {}", g.me));
    let mut first = a.strip_prefix("= ").expect("a move").to_string();
    // Pondering writes nothing on stdout while the opponent thinks.
    assert_eq!(q.line(OPPONENT_THINKS), None, "output while pondering");
    // Any command stops the ponder (and its log line is written before the answer).
    assert!(q.ask("showboard").starts_with('='));
    let reply = match expected {
        None => {
            let line = last_log_line(&q, " ponder ");
            field(&line, "best").expect("best field").to_string()
        }
        Some(e) => {
            if !e.first.eq_ignore_ascii_case(&first) {
                // Same position as the ponder run (the first move depends on timing).
                assert_eq!(q.ask("undo"), "=");
                assert_eq!(q.ask(&format!("play {} {}", g.me, e.first)), "=");
                first = e.first.clone();
            }
            e.reply.clone()
        }
    };
    assert_eq!(q.ask(&format!("play {} {reply}", g.opponent)), "=");
    let before = q.log().len();
    let a = q.ask(&format!("genmove {}", g.me));
    assert!(a.starts_with("= "), "{a}");
    let waited = Instant::now();
    let line = loop {
        assert!(
            waited.elapsed() < Duration::from_secs(5),
            "no genmove log line"
        );
        let log = q.log();
        if let Some((_, l)) = log[before..]
            .iter()
            .find(|(_, l)| l.contains("genmove") && l.contains(" depth="))
        {
            break l.clone();
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let depth = field(&line, "depth").unwrap().parse().unwrap();
    if ponder {
        // Pondering again after that move; `quit` must end it and the process promptly.
        std::thread::sleep(Duration::from_millis(300));
        let sent = Instant::now();
        q.send("quit");
        assert_eq!(q.answer(Duration::from_secs(2)).as_deref(), Some("="));
        let status = q.wait_exit(Duration::from_secs(5)).expect("exit");
        assert!(status.success());
        let took = sent.elapsed();
        assert!(
            took < Duration::from_millis(500),
            "exit {took:?} after quit"
        );
    }
    Run {
        first,
        reply,
        depth,
    }
}

fn pondering_deepens_the_next_search(g: &Game) {
    let with = run(g, true, None);
    let without = run(g, false, Some(&with));
    eprintln!(
        "{:?}: depth {} with pondering, {} without",
        g.args, with.depth, without.depth
    );
    // Measured at load 7.5 on 2 cores over three runs: Othello 12-13 against 10, Gomoku
    // 9-10 against 7-8. A ponder 60 times as long as the move is needed for a clear
    // margin: with 15 times (0.1 s against 1.5 s) Othello once showed 11 against 11.
    assert!(
        with.depth > without.depth,
        "after {} {}: depth {} with pondering, {} without",
        with.first,
        with.reply,
        with.depth,
        without.depth
    );
}

#[test]
fn othello_ponder_deepens_the_next_search() {
    pondering_deepens_the_next_search(&Game {
        args: &["othello"],
        setup: "clear_board",
        me: "b",
        opponent: "w",
    });
}

#[test]
fn gomoku_ponder_deepens_the_next_search() {
    pondering_deepens_the_next_search(&Game {
        args: &["gomoku"],
        setup: "setboard H8 H10 H7 F8 E7 G7",
        me: "b",
        opponent: "w",
    });
}

#[test]
fn ponder_is_off_by_default_and_refused_with_pbrain() {
    // Without --ponder nothing runs between commands: no ponder line in the log.
    let mut q = Live::start_logged(&["gomoku", "--move-time", "0.1", "--log-level", "debug"]);
    assert!(q.ask("genmove b").starts_with("= "));
    std::thread::sleep(Duration::from_millis(300));
    assert!(q.ask("showboard").starts_with('='));
    q.send("quit");
    q.wait_exit(Duration::from_secs(5)).expect("exit");
    assert!(
        !q.log().iter().any(|(_, l)| l.contains(" ponder ")),
        "{:?}",
        q.log()
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(["gomoku", "--pbrain", "--ponder"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--ponder"));
}
