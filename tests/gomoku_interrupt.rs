//! Stopping `quartet gomoku` while its threat search runs: `# interrupt` during `genmove`
//! and a new line during `analyze` must end the search at once, and an analysis stream's
//! blocks must keep their interval. The threat phases (VCF, VCT) get half of a move's
//! time with a token of their own; before it was a child of the command's token they ran
//! to that share whatever came in (14.7 s after an interrupt at 0.3 s on a 30 s move).
//! Bounds are generous: they test that the stop arrives, not how fast the machine is.
mod common;

use common::live::Live;
use std::time::{Duration, Instant};

/// A 15x15 middle game (from a self-play game at 0.3 s per move), Black to move, where
/// Black's VCT search does not finish: measured at 8 s and more with the whole threat time
/// of a 30 s move (16 M nodes), so it is still running 0.3 s in.
const BUSY: &str = "setboard H8 H10 H7 F8 E7 G7 H6 H5 J7 G6 G8 K5 G5 K8 K6 L5";

/// When the stop is sent: well inside the VCT search (the VCFs take a millisecond).
const STOP_AFTER: Duration = Duration::from_millis(300);

/// Longest wait for the answer after the stop (the search polls every few hundred nodes).
const PROMPT: Duration = Duration::from_secs(1);

fn engine() -> Live {
    let mut q = Live::start_logged(&["gomoku", "--move-time", "30", "--log-level", "debug"]);
    assert_eq!(q.ask(BUSY), "=");
    q
}

/// The `ms` of the debug line `own vct nodes=N ms=M`: how long Black's VCT search ran
/// (waiting a little for stderr to be read).
fn own_vct_ms(q: &Live) -> u64 {
    let waited = Instant::now();
    let line = loop {
        let log = q.log();
        if let Some((_, l)) = log.iter().find(|(_, l)| l.contains("own vct")) {
            break l.clone();
        }
        assert!(
            waited.elapsed() < Duration::from_secs(5),
            "no own vct line in {log:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let at = line.find(" ms=").expect("ms field") + 4;
    line[at..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// The VCT search was still running when the stop came (it ended after it), and ended
/// soon after.
fn assert_stopped_inside_vct(q: &Live) {
    let ms = own_vct_ms(q);
    assert!(
        ms + 50 >= STOP_AFTER.as_millis() as u64,
        "the VCT search ended after {ms} ms, before the stop: the position no longer \
         exercises a stop inside the threat phase"
    );
    assert!(
        ms < (STOP_AFTER + PROMPT).as_millis() as u64,
        "the VCT search ran {ms} ms"
    );
}

#[test]
fn interrupt_stops_genmove_inside_the_vct_search() {
    let mut q = engine();
    q.send("genmove b");
    std::thread::sleep(STOP_AFTER);
    let sent = Instant::now();
    q.send("# interrupt");
    let a = q.answer(PROMPT + Duration::from_secs(5)).expect("answer");
    let took = sent.elapsed();
    assert!(
        took < PROMPT,
        "genmove answered {took:?} after the interrupt"
    );
    let mv = a.strip_prefix("= ").unwrap_or_else(|| panic!("{a}"));
    // The answer is a legal move for Black (genmove played it: take it back, replay it).
    assert_eq!(q.ask("undo"), "=");
    assert_eq!(q.ask(&format!("play b {mv}")), "=");
    assert_stopped_inside_vct(&q);
    q.send("quit");
    assert!(q.wait_exit(Duration::from_secs(2)).is_some());
}

#[test]
fn a_new_line_stops_analyze_inside_the_vct_search() {
    let mut q = engine();
    // One 10 s step: half of it is threat time.
    q.send("analyze b 1000");
    assert_eq!(q.line(Duration::from_secs(5)).as_deref(), Some("="));
    std::thread::sleep(STOP_AFTER);
    let sent = Instant::now();
    q.send("name");
    // The stream's last block (the stopped step's), its blank line, then `name`'s answer.
    let rest = q
        .answer(PROMPT + Duration::from_secs(5))
        .expect("stream end");
    assert!(rest.lines().all(|l| l.starts_with("info move ")), "{rest}");
    let name = q.answer(PROMPT + Duration::from_secs(5));
    let took = sent.elapsed();
    assert_eq!(name.as_deref(), Some("= quartet"));
    assert!(
        took < PROMPT,
        "the stream ended {took:?} after the new line"
    );
    assert_stopped_inside_vct(&q);
}

#[test]
fn analyze_blocks_keep_their_interval_in_a_busy_position() {
    let mut q = engine();
    let interval = Duration::from_millis(200);
    q.send("analyze b 20");
    assert_eq!(q.line(Duration::from_secs(5)).as_deref(), Some("="));
    let start = Instant::now();
    let mut times = vec![start];
    while start.elapsed() < Duration::from_millis(2000) {
        let l = q.line(Duration::from_secs(5)).expect("a block");
        assert!(l.starts_with("info move "), "{l}");
        times.push(Instant::now());
    }
    q.send("name");
    while !q.line(Duration::from_secs(5)).expect("end").is_empty() {}
    assert_eq!(
        q.answer(Duration::from_secs(5)).as_deref(),
        Some("= quartet")
    );
    let gaps: Vec<u128> = times
        .windows(2)
        .map(|w| (w[1] - w[0]).as_millis())
        .collect();
    // Ten blocks in 2 s at 200 ms; a loaded machine may lose a few.
    assert!(gaps.len() >= 6, "blocks {gaps:?} ms apart");
    assert!(
        gaps.iter()
            .all(|&g| g < interval.as_millis() + PROMPT.as_millis() / 2),
        "blocks {gaps:?} ms apart"
    );
}
