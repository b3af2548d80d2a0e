//! `--ponder` for Othello and Gomoku, on the real binary: after our `genmove` the engine
//! searches the opponent's position until the next command, silently, and stops at once
//! on `quit`; the next `genmove`, after the reply the ponder expected, starts from the
//! tables the ponder filled. Both searches are capped by `--depth` (the clock is far away),
//! so they are the same search with and without pondering, and the one that starts from
//! the ponder's tables needs fewer nodes. (The Go ponder has its own test in
//! go_analysis.rs.)
mod common;

use common::live::Live;
use std::time::{Duration, Instant};

/// Far more than any capped search takes: the depth ends every search, not the clock.
const MOVE_TIME: &str = "30";

/// The value of `key=` in a log line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let at = line.find(&format!(" {key}="))? + key.len() + 2;
    line[at..].split_whitespace().next()
}

/// The first log line from index `from` on for which `pick` holds, waiting up to `limit`
/// for stderr to be read.
fn wait_log(
    q: &Live,
    from: usize,
    limit: Duration,
    pick: impl Fn(&str) -> bool,
) -> (usize, String) {
    let waited = Instant::now();
    loop {
        if let Some((i, (_, l))) = q
            .log()
            .iter()
            .enumerate()
            .skip(from)
            .find(|(_, (_, l))| pick(l))
        {
            return (i, l.clone());
        }
        assert!(
            waited.elapsed() < limit,
            "no such line in the log: {:?}",
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
    /// `--depth`: the deepest iteration of every search.
    depth: u32,
    /// The ponder iteration to wait for before the opponent replies.
    ponder_depth: u32,
}

/// What one run saw: our first move, the reply played, and the nodes our next search
/// needed to complete its depth.
struct Run {
    first: String,
    reply: String,
    nodes: u64,
}

/// One game: `genmove`, the opponent's time, the reply, `genmove` again. With `ponder`
/// the reply is the one the ponder expected (from its log); without, `expected` gives the
/// first move and the reply of the ponder run, so both runs search the same position.
fn run(g: &Game, ponder: bool, expected: Option<&Run>) -> Run {
    let mut args = g.args.to_vec();
    let depth = g.depth.to_string();
    args.extend([
        "--move-time",
        MOVE_TIME,
        "--depth",
        &depth,
        "--log-level",
        "debug",
    ]);
    if ponder {
        args.push("--ponder");
    }
    let mut q = Live::start_logged(&args);
    assert_eq!(q.ask(g.setup), "=");
    let a = q.ask(&format!("genmove {}", g.me));
    let first = a.strip_prefix("= ").expect("a move").to_string();
    let (ours, _) = wait_log(&q, 0, Duration::from_secs(5), |l| l.contains("genmove"));
    if ponder {
        // The opponent thinks until our ponder is deep enough (a slow machine only waits
        // longer); pondering writes nothing on stdout meanwhile.
        wait_log(&q, ours, Duration::from_secs(120), |l| {
            l.contains("iteration")
                && field(l, "depth").and_then(|d| d.parse::<u32>().ok()) >= Some(g.ponder_depth)
        });
        assert_eq!(
            q.line(Duration::from_millis(100)),
            None,
            "output while pondering"
        );
    }
    // Any command stops the ponder (and its log line is written before the answer).
    assert!(q.ask("showboard").starts_with('='));
    let mut first_played = first.clone();
    let reply = match expected {
        None => {
            let (_, line) = wait_log(&q, ours, Duration::from_secs(5), |l| l.contains(" ponder "));
            field(&line, "best").expect("best field").to_string()
        }
        Some(e) => {
            // The capped search is deterministic, but the test must not depend on it.
            if !e.first.eq_ignore_ascii_case(&first) {
                assert_eq!(q.ask("undo"), "=");
                assert_eq!(q.ask(&format!("play {} {}", g.me, e.first)), "=");
                first_played = e.first.clone();
            }
            e.reply.clone()
        }
    };
    assert_eq!(q.ask(&format!("play {} {reply}", g.opponent)), "=");
    let before = q.log().len();
    let a = q.ask(&format!("genmove {}", g.me));
    assert!(a.starts_with("= "), "{a}");
    let (_, line) = wait_log(&q, before, Duration::from_secs(5), |l| {
        l.contains("genmove") && l.contains(" depth=")
    });
    assert_eq!(field(&line, "depth"), Some(depth.as_str()), "{line}");
    let nodes = field(&line, "nodes").unwrap().parse().unwrap();
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
        first: first_played,
        reply,
        nodes,
    }
}

fn pondering_fills_the_next_search(g: &Game) {
    let with = run(g, true, None);
    let without = run(g, false, Some(&with));
    eprintln!(
        "{:?}: {} nodes with pondering, {} without",
        g.args, with.nodes, without.nodes
    );
    assert!(
        with.nodes < without.nodes,
        "after {} {}: {} nodes with pondering, {} without",
        with.first,
        with.reply,
        with.nodes,
        without.nodes
    );
}

#[test]
fn othello_ponder_fills_the_next_search() {
    pondering_fills_the_next_search(&Game {
        // The built-in book would answer the first genmove without a search.
        args: &["othello", "--no-book"],
        setup: "clear_board",
        me: "b",
        opponent: "w",
        depth: 8,
        ponder_depth: 10,
    });
}

#[test]
fn gomoku_ponder_fills_the_next_search() {
    pondering_fills_the_next_search(&Game {
        args: &["gomoku"],
        setup: "setboard H8 H10 H7 F8 E7 G7",
        me: "b",
        opponent: "w",
        depth: 6,
        ponder_depth: 6,
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
