//! Scripts piped in whole (a regression file, a shell pipe, a batch over many positions)
//! get the answers they would get line by line: commands run in input order, each to its
//! own bound, and `quit` or the end of input waits for the commands before it. Searches
//! here are bounded by fixed work (playouts, depth) under a 60 s clock, so the work logged
//! must be the configured amount and the same as line by line, whatever the machine's
//! speed. And when nobody reads stdout any more (the controller died), the process exits
//! at once whatever its clocks say. Real binary, real pipes.
mod common;
use common::live::Live;
use std::io::{Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Longest a piped run may take before the test gives up on it (a search that never ends).
const GUARD: Duration = Duration::from_secs(120);

/// How long a process may take to exit after its controller left (measured: milliseconds;
/// the bound is for a loaded machine).
const PROMPT_EXIT: Duration = Duration::from_secs(5);

/// The FFO endgame suite: #40 is the first line, `A2:+38` its best move.
const FFO: &str = include_str!("../data/othello/ffo-40-59.obf");

/// The `set game` of the NBoard protocol document's example session.
const DOC_GAME: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

struct Run {
    out: String,
    log: String,
    status: ExitStatus,
    took: Duration,
}

/// `printf SCRIPT | quartet ARGS`: the whole script is written at once and stdin closed.
fn piped(args: &[&str], script: &str) -> Run {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start quartet");
    let mut stdin = child.stdin.take().unwrap();
    let data = script.as_bytes().to_vec();
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let read_all = |mut r: Box<dyn Read + Send>| {
        thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let out = read_all(Box::new(child.stdout.take().unwrap()));
    let log = read_all(Box::new(child.stderr.take().unwrap()));
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > GUARD {
            let _ = child.kill();
            panic!("quartet {args:?} still runs after {GUARD:?} on {script:?}");
        }
        thread::sleep(Duration::from_millis(5));
    };
    let took = started.elapsed();
    writer.join().unwrap();
    Run {
        out: out.join().unwrap(),
        log: log.join().unwrap(),
        status,
        took,
    }
}

/// The same script sent as a GUI does: each GTP command's answer is read before the next
/// line goes in. The output is rebuilt in the same framing (answer, blank line).
fn line_by_line_gtp(args: &[&str], script: &str) -> Run {
    let started = Instant::now();
    let mut q = Live::start_logged(args);
    let mut out = String::new();
    for line in script.lines() {
        out.push_str(&q.ask(line));
        out.push_str("\n\n");
    }
    q.close_stdin();
    let status = q.wait_exit(GUARD).expect("exits");
    let took = started.elapsed();
    Run {
        out,
        log: q.finish_log().join("\n"),
        status,
        took,
    }
}

/// The numbers after `key=` in the log, in order (one per search).
fn logged(log: &str, key: &str) -> Vec<u64> {
    let pat = format!(" {key}=");
    log.lines()
        .filter_map(|l| {
            let at = l.find(&pat)? + pat.len();
            l[at..]
                .split(|c: char| !c.is_ascii_digit())
                .next()?
                .parse()
                .ok()
        })
        .collect()
}

/// One engine's fixed-work script, the log field counting its work, and what the search
/// must reach (the configured bound: an independent truth, not the engine's own output).
struct Case {
    args: &'static [&'static str],
    script: &'static str,
    work: &'static str,
    reach: (&'static str, u64),
    searches: usize,
}

const CASES: [Case; 3] = [
    Case {
        args: &[
            "go",
            "--playouts",
            "3000",
            "--move-time",
            "60",
            "--log-level",
            "info",
        ],
        script: "boardsize 9\nclear_board\ngenmove b\ngenmove w\n",
        work: "playouts",
        reach: ("playouts", 3000),
        searches: 2,
    },
    Case {
        args: &[
            "othello",
            "--depth",
            "10",
            "--no-book",
            "--move-time",
            "60",
            "--log-level",
            "info",
        ],
        script: "genmove b\ngenmove w\n",
        work: "nodes",
        reach: ("depth", 10),
        searches: 2,
    },
    Case {
        args: &[
            "gomoku",
            "--depth",
            "6",
            "--move-time",
            "60",
            "--log-level",
            "info",
        ],
        script: "play b H8\ngenmove w\ngenmove b\n",
        work: "nodes",
        reach: ("depth", 6),
        searches: 2,
    },
];

#[test]
fn gtp_scripts_piped_with_quit_or_ending_at_eof_get_full_searches() {
    for case in &CASES {
        let name = case.args[0];
        let with_quit = format!("{}quit\n", case.script);
        let reference = line_by_line_gtp(case.args, &with_quit);
        let piped_quit = piped(case.args, &with_quit);
        let piped_eof = piped(case.args, case.script);
        for run in [&reference, &piped_quit, &piped_eof] {
            assert!(run.status.success(), "{name}: {:?}", run.status);
            let reached = logged(&run.log, case.reach.0);
            assert_eq!(
                reached,
                vec![case.reach.1; case.searches],
                "{name}: every search reaches its bound\n{}",
                run.log
            );
        }
        let work = logged(&reference.log, case.work);
        assert_eq!(logged(&piped_quit.log, case.work), work, "{name} with quit");
        assert_eq!(logged(&piped_eof.log, case.work), work, "{name} at EOF");
        // The same answers, and the one to `quit` only when it was sent.
        assert_eq!(piped_quit.out, reference.out, "{name}");
        assert_eq!(
            format!("{}=\n\n", piped_eof.out),
            reference.out,
            "{name} at EOF"
        );
        eprintln!(
            "{name}: {} {work:?} line by line ({:.2} s), piped with quit ({:.2} s) and to EOF ({:.2} s)",
            case.work,
            reference.took.as_secs_f64(),
            piped_quit.took.as_secs_f64(),
            piped_eof.took.as_secs_f64()
        );
    }
}

#[test]
fn ffo_40_solved_from_a_piped_script() {
    let line = FFO.lines().next().unwrap();
    let mut fields = line.split_whitespace();
    let squares = fields.next().unwrap();
    let side = fields.next().unwrap().trim_end_matches(';');
    assert_eq!(fields.next(), Some("A2:+38;"), "the suite's best move");
    for end in ["quit\n", ""] {
        let script = format!("setboard {squares} {side}\n7 solve\n{end}");
        let run = piped(&["othello"], &script);
        assert!(run.status.success());
        let expected = format!(
            "=\n\n=7 a2 +38\n\n{}",
            if end.is_empty() { "" } else { "=\n\n" }
        );
        assert_eq!(run.out, expected, "{script:?}");
    }
}

#[test]
fn dots_solve_from_a_piped_script() {
    // 3x3 boxes: -3 for the first player whatever it plays (tests/dots_protocol.rs).
    for end in ["quit\n", ""] {
        let script = format!("boardsize 3x3\n5 solve\n{end}");
        let run = piped(&["dots", "--solve-limit", "24"], &script);
        assert!(run.status.success());
        assert!(run.out.starts_with("=\n\n=5 -3 "), "{:?}", run.out);
    }
}

#[test]
fn interrupt_in_a_piped_script_still_answers_at_once() {
    let run = piped(
        &["go", "--move-time", "30"],
        "boardsize 9\n3 genmove b\n# interrupt\n4 name\nquit\n",
    );
    assert!(run.status.success());
    assert!(run.took < PROMPT_EXIT, "{:?}", run.took);
    let answers: Vec<&str> = run.out.split("\n\n").collect();
    assert_eq!(answers.len(), 5, "{:?}", run.out);
    assert!(answers[1].starts_with("=3 "), "{:?}", run.out);
    assert_eq!(answers[2..], ["=4 quartet", "=", ""]);
}

#[test]
fn an_analysis_stream_ends_at_end_of_input_and_at_the_next_line() {
    // A stream has no end of its own: without this rule the first run would never end.
    let run = piped(&["go"], "boardsize 9\n7 lz-analyze 10\n");
    assert!(run.status.success());
    assert!(run.took < PROMPT_EXIT, "{:?}", run.took);
    assert!(run.out.starts_with("=\n\n=7\n"), "{:?}", run.out);
    assert!(run.out.ends_with("\n\n"), "{:?}", run.out);
    let run = piped(&["go"], "boardsize 9\n7 lz-analyze 10\n8 quit\n");
    assert!(run.status.success());
    assert!(run.took < PROMPT_EXIT, "{:?}", run.took);
    assert!(run.out.ends_with("\n\n=8\n\n"), "{:?}", run.out);
}

#[test]
fn pondering_ends_at_end_of_input() {
    // The ponder after the last genmove would run for up to 10 minutes.
    for (args, script) in [
        (
            &["go", "--ponder", "--move-time", "0.3"][..],
            "boardsize 9\ngenmove b\n",
        ),
        (
            &["othello", "--ponder", "--move-time", "0.3", "--no-book"],
            "genmove b\n",
        ),
        (
            &["gomoku", "--ponder", "--move-time", "0.3"],
            "play b H8\ngenmove w\n",
        ),
    ] {
        let run = piped(args, script);
        assert!(run.status.success(), "{args:?}");
        let answers = run.out.matches("\n\n").count();
        assert_eq!(answers, script.lines().count(), "{args:?}: {:?}", run.out);
        assert!(
            run.took < Duration::from_secs(20),
            "{args:?}: {:?}",
            run.took
        );
    }
}

#[test]
fn a_pbrain_script_ending_at_eof_gets_full_searches() {
    let args = ["gomoku", "--pbrain", "--depth", "6", "--log-level", "info"];
    // White to move after Black's centre stone, then a second search after TURN.
    let setup = [
        "START 15",
        "INFO timeout_turn 60000",
        "BOARD",
        "7,7,2",
        "DONE",
    ];
    let turn = "TURN 1,1";
    let mut q = Live::start_logged(&args);
    let mut reference = Vec::new();
    for line in setup.iter().chain([&turn]) {
        q.send(line);
        if matches!(*line, "START 15" | "DONE") || line.starts_with("TURN") {
            reference.push(q.line(GUARD).expect("an answer"));
        }
    }
    q.close_stdin();
    assert!(q.wait_exit(GUARD).is_some_and(|s| s.success()));
    let reference_log = q.finish_log().join("\n");
    let script = format!("{}\n{turn}\n", setup.join("\n"));
    let run = piped(&args, &script);
    assert!(run.status.success());
    assert_eq!(run.out.lines().collect::<Vec<_>>(), reference);
    assert_eq!(logged(&run.log, "depth"), [6, 6], "{}", run.log);
    assert_eq!(logged(&run.log, "nodes"), logged(&reference_log, "nodes"));
    eprintln!("pbrain: nodes {:?}", logged(&run.log, "nodes"));
}

#[test]
fn a_sau_turn_piped_before_quit_is_searched_to_the_end() {
    // 2x2 boxes are solved within the turn: the exact search, not a cut one.
    let args = [
        "dots",
        "--protocol",
        "sau",
        "--boardsize",
        "2x2",
        "--move-time",
        "5",
        "--log-level",
        "info",
    ];
    let run = piped(&args, "new black\nquit\n");
    assert!(run.status.success());
    let lines: Vec<&str> = run.out.lines().collect();
    assert_eq!(lines.len(), 1, "{:?}", run.out);
    assert!(lines[0].starts_with("move "), "{:?}", run.out);
    assert!(run.log.contains("exact true"), "{}", run.log);
}

/// NBoard output with the seconds fields dropped (`nodestats N T`, `=== M E T`).
fn without_times(out: &str) -> Vec<String> {
    out.lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            match f.first() {
                Some(&"nodestats") | Some(&"===") if f.len() >= 3 => f[..f.len() - 1].join(" "),
                _ => l.to_string(),
            }
        })
        .collect()
}

#[test]
fn an_nboard_script_with_quit_or_ending_at_eof_gets_full_searches() {
    let args = [
        "othello",
        "--protocol",
        "nboard",
        "--no-book",
        "--move-time",
        "60",
    ];
    let setup = format!("nboard 2\nset depth 10\nset game {DOC_GAME}\n");
    // Line by line: `set depth` answers one line, `go` and `hint` end with `status`.
    let mut q = Live::start(&args);
    let mut reference = Vec::new();
    for line in setup.lines().chain(["go", "hint 2"]) {
        q.send(line);
        if line.starts_with("set depth") {
            reference.push(q.line(GUARD).expect("set myname"));
        } else if line == "go" || line.starts_with("hint") {
            loop {
                let l = q.line(GUARD).expect("search output");
                let done = l == "status";
                reference.push(l);
                if done {
                    break;
                }
            }
        }
    }
    q.send("quit");
    assert!(q.wait_exit(GUARD).is_some_and(|s| s.success()));
    let reference = without_times(&reference.join("\n"));
    // The hint reached the set depth: its last row is at depth 10.
    let last_search = reference.iter().rev().find(|l| l.starts_with("search "));
    assert!(
        last_search.is_some_and(|l| l.split_whitespace().nth(4) == Some("10")),
        "{reference:?}"
    );
    for end in ["quit\n", ""] {
        let run = piped(&args, &format!("{setup}go\nhint 2\n{end}"));
        assert!(run.status.success());
        assert_eq!(without_times(&run.out), reference, "ending {end:?}");
    }
    let nodes: Vec<&String> = reference
        .iter()
        .filter(|l| l.starts_with("nodestats"))
        .collect();
    eprintln!("nboard: go and hint {nodes:?}");
}

#[test]
fn an_nboard_ping_stops_a_hint_piped_before_it() {
    let args = ["othello", "--protocol", "nboard", "--hint-time", "30"];
    let script = format!("nboard 2\nset depth 60\nset game {DOC_GAME}\nhint 1\nping 1\n");
    let run = piped(&args, &script);
    assert!(run.status.success());
    assert!(run.took < PROMPT_EXIT, "{:?}", run.took);
    assert_eq!(run.out.lines().last(), Some("pong 1"), "{:?}", run.out);
}

#[test]
fn every_front_end_exits_at_once_when_nobody_reads_its_output() {
    // Each runs a 30 s search when the reading end of its stdout closes; stdin stays open,
    // so only the closed output can end it.
    let game = format!("set game {DOC_GAME}");
    let cases: [(&str, Vec<&str>, Vec<&str>); 7] = [
        (
            "go",
            vec!["go", "--move-time", "30"],
            vec!["boardsize 9", "genmove b"],
        ),
        (
            "othello",
            vec!["othello", "--move-time", "30", "--no-book"],
            vec!["genmove b"],
        ),
        (
            "gomoku",
            vec!["gomoku", "--move-time", "30"],
            vec!["play b H8", "genmove w"],
        ),
        (
            "dots",
            vec!["dots", "--move-time", "30"],
            vec!["boardsize 5x5", "genmove b"],
        ),
        (
            "pbrain",
            vec!["gomoku", "--pbrain"],
            vec![
                "START 15",
                "INFO timeout_turn 30000",
                "BOARD",
                "7,7,2",
                "DONE",
            ],
        ),
        (
            "sau",
            vec!["dots", "--protocol", "sau", "--move-time", "30"],
            vec!["new black"],
        ),
        (
            "nboard",
            vec![
                "othello",
                "--protocol",
                "nboard",
                "--move-time",
                "30",
                "--no-book",
            ],
            vec!["nboard 2", "set depth 60", &game, "go"],
        ),
    ];
    for (name, args, lines) in cases {
        let mut q = Live::start(&args);
        for l in lines {
            q.send(l);
        }
        thread::sleep(Duration::from_millis(500));
        assert!(
            q.wait_exit(Duration::ZERO).is_none(),
            "{name}: the search was still running"
        );
        let closed = Instant::now();
        q.close_stdout();
        let status = q.wait_exit(Duration::from_secs(30)).expect("exits");
        let took = closed.elapsed();
        assert!(status.success(), "{name}: {status:?}");
        assert!(took < PROMPT_EXIT, "{name}: exit {took:?} after the close");
        eprintln!("{name}: exit {} ms after stdout closed", took.as_millis());
    }
}
