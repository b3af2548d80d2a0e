//! Every searching command is bounded: `# interrupt` and a departed controller (nobody
//! reads stdout any more) stop a running search at once, `solve` has `--solve-time`, and
//! pipelined commands, `quit` and end of input wait their turn. Real binary, real pipes,
//! wall-clock bounds with generous slack for a loaded CI machine (the searches would
//! otherwise run 30 s or more).
mod common;
use common::live::Live;
use std::time::{Duration, Instant};

/// What `genmove` on a 9x9 Go board may answer: a vertex, pass or resign.
fn is_go_move(s: &str) -> bool {
    let s = s.to_ascii_lowercase();
    if s == "pass" || s == "resign" {
        return true;
    }
    let mut chars = s.chars();
    let col = chars.next().unwrap_or(' ');
    let row: u32 = chars.as_str().parse().unwrap_or(0);
    ('a'..='j').contains(&col) && col != 'i' && (1..=9).contains(&row)
}

/// How long a process may take to exit after its controller left: the watcher sees the
/// closed pipe at once and the search stops within a poll (measured in milliseconds); the
/// bound is for a loaded machine.
const PROMPT_EXIT: Duration = Duration::from_secs(5);

#[test]
fn a_closed_output_during_a_30_s_genmove_exits_at_once_while_stdin_stays_open() {
    let mut q = Live::start(&["go", "--move-time", "30"]);
    assert_eq!(q.ask("boardsize 9"), "=");
    q.send("genmove b");
    std::thread::sleep(Duration::from_millis(300));
    let closed = Instant::now();
    q.close_stdout();
    let status = q
        .wait_exit(Duration::from_secs(10))
        .expect("process exited");
    let took = closed.elapsed();
    assert!(status.success(), "{status:?}");
    assert!(took < PROMPT_EXIT, "exit took {took:?}");
}

#[test]
fn quit_during_a_search_waits_for_its_answer_then_exits() {
    let mut q = Live::start(&["go", "--move-time", "1"]);
    q.ask("boardsize 9");
    q.send("1 genmove b");
    std::thread::sleep(Duration::from_millis(100));
    q.send("2 quit");
    q.close_stdin();
    let a = q.answer(Duration::from_secs(10)).expect("genmove answered");
    assert!(a.starts_with("=1 ") && is_go_move(&a[3..]), "{a}");
    assert_eq!(q.answer(Duration::from_secs(5)).as_deref(), Some("=2"));
    let status = q.wait_exit(Duration::from_secs(5)).expect("exited");
    assert!(status.success(), "{status:?}");
}

#[test]
fn interrupt_after_300_ms_of_a_30_s_clock_genmove_answers_a_legal_move_at_once() {
    let mut q = Live::start(&["go"]);
    q.ask("boardsize 9");
    q.ask("time_settings 30 0 0");
    q.ask("play b e5");
    q.send("7 genmove w");
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    q.send("# interrupt");
    let a = q.answer(Duration::from_secs(5)).expect("an answer");
    let took = sent.elapsed();
    assert!(took < Duration::from_millis(500), "answer took {took:?}");
    let mv = a.strip_prefix("=7 ").unwrap_or_else(|| panic!("{a}"));
    assert!(is_go_move(mv) && !mv.eq_ignore_ascii_case("e5"), "{a}");
    // The move was played: playing on it again is illegal; the engine is still usable.
    assert_eq!(q.ask(&format!("play w {mv}")), "? illegal move");
    assert_eq!(q.ask("name"), "= quartet");
}

#[test]
fn commands_pipelined_behind_genmove_are_answered_after_it_in_order() {
    let mut q = Live::start(&["go", "--move-time", "0.5"]);
    q.send("1 boardsize 9\n2 genmove b\n3 name\n4 showboard\n5 genmove w\n6 version");
    let started = Instant::now();
    let mut ids = Vec::new();
    for _ in 0..6 {
        let a = q.answer(Duration::from_secs(10)).expect("answer");
        ids.push(a.split([' ', '\n']).next().unwrap().to_string());
    }
    assert_eq!(ids, ["=1", "=2", "=3", "=4", "=5", "=6"]);
    // The two searches ran their whole budget: the pipelined lines did not cut them short.
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn an_absurd_clock_still_answers_when_interrupted_and_exits_when_the_controller_leaves() {
    // Issue 20: `time_settings 1000000000 0 0` then `genmove` used to think for months.
    for game in [&["othello"][..], &["gomoku"], &["dots"]] {
        let mut q = Live::start(game);
        q.ask("time_settings 1000000000 0 0");
        q.send("genmove b");
        std::thread::sleep(Duration::from_millis(300));
        let sent = Instant::now();
        q.send("# interrupt");
        let a = q.answer(Duration::from_secs(5)).expect("an answer");
        assert!(a.starts_with("= "), "{game:?}: {a}");
        assert!(
            sent.elapsed() < Duration::from_millis(500),
            "{game:?} {:?}",
            sent.elapsed()
        );
        // The next one (capped at 10 minutes) ends when nobody reads the answers any more.
        q.send("genmove w");
        std::thread::sleep(Duration::from_millis(200));
        let closed = Instant::now();
        q.close_stdout();
        q.wait_exit(Duration::from_secs(10)).expect("exited");
        assert!(closed.elapsed() < PROMPT_EXIT, "{game:?}");
    }
}

#[test]
fn an_oversized_othello_solve_ends_within_its_solve_time() {
    // 36 empties, the most `solve` accepts: hours of work, bounded here to 1 s.
    let mut q = Live::start(&["othello", "--solve-time", "1"]);
    let squares = format!("{}{}", "XXXXXXXXOOOOOOOOXXXXXXXXOOOO", "-".repeat(36));
    assert_eq!(q.ask(&format!("setboard {squares} X")), "=");
    let sent = Instant::now();
    let a = q.ask("solve");
    let took = sent.elapsed();
    assert!(a.starts_with("? not solved in 1."), "{a}");
    assert!(took < Duration::from_millis(1500), "{took:?}");
    assert_eq!(q.ask("name"), "= quartet-othello");
}

#[test]
fn an_oversized_dots_solve_ends_within_its_solve_time_even_after_end_of_input() {
    // Issue 20: `dots_solve_limit 60` then `solve` on the empty 5x5 ran until killed.
    let mut q = Live::start(&["dots", "--solve-time", "1"]);
    q.ask("boardsize 5x5");
    q.ask("dots_solve_limit 60");
    let sent = Instant::now();
    let a = q.ask("solve");
    assert!(a.starts_with("? not solved in 1."), "{a}");
    assert!(
        sent.elapsed() < Duration::from_millis(1500),
        "{:?}",
        sent.elapsed()
    );
    // End of input does not cut it short: it still answers after its solve time.
    q.send("solve");
    q.close_stdin();
    let sent = Instant::now();
    let a = q
        .answer(Duration::from_secs(10))
        .expect("answered after end of input");
    assert!(a.starts_with("? not solved in 1."), "{a}");
    assert!(
        sent.elapsed() >= Duration::from_millis(900),
        "{:?}",
        sent.elapsed()
    );
    assert!(q
        .wait_exit(Duration::from_secs(5))
        .is_some_and(|s| s.success()));
}
