//! `quartet dots` and `quartet bench dots` with `--threads` and `--hash-mb`: bad values
//! refused with a message (exit status 2) before anything starts, good ones used.
mod common;

use common::cli::{fails_with, run, too_much_mb};

#[test]
fn table_sizes_out_of_range_or_beyond_memory_are_refused() {
    let mb: &'static str = too_much_mb().leak();
    for cmd in [&["dots"][..], &["bench", "dots", "--solve", "2x2"]] {
        let with = |extra: &[&'static str]| -> Vec<&'static str> { [cmd, extra].concat() };
        fails_with(
            &with(&["--hash-mb", "0"]),
            "--hash-mb must be between 1 and 65536",
        );
        fails_with(&with(&["--hash-mb", "65537"]), "between 1 and 65536");
        fails_with(&with(&["--hash-mb", mb]), "memory");
    }
    fails_with(
        &["bench", "dots", "--hash-mb", "64", "--tt-bits", "20"],
        "cannot be used with",
    );
}

#[test]
fn thread_counts_out_of_range_are_refused() {
    for t in ["0", "257"] {
        fails_with(
            &["dots", "--threads", t],
            "--threads must be between 1 and 256",
        );
        fails_with(
            &["bench", "dots", "--threads", t],
            "--threads must be between 1 and 256",
        );
    }
    fails_with(
        &["bench", "dots", "--threads", "1,0"],
        "--threads must be between 1 and 256",
    );
}

#[test]
fn bench_solves_once_per_thread_count_with_the_same_value() {
    let (code, out, err) = run(
        &[
            "bench",
            "dots",
            "--solve",
            "3x3",
            "--threads",
            "1,2,4",
            "--hash-mb",
            "8",
        ],
        "",
    );
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    for (line, t) in lines.iter().zip(["1", "2", "4"]) {
        assert!(line.starts_with("dots 3x3: value -3 nodes "), "{line}");
        assert!(line.ends_with(&format!(" threads {t}")), "{line}");
    }
}

#[test]
fn the_engine_plays_with_threads_and_a_small_table() {
    let (code, out, err) = run(
        &[
            "dots",
            "--threads",
            "2",
            "--hash-mb",
            "1",
            "--move-time",
            "0.2",
        ],
        "1 boardsize 2x2\n2 genmove b\n3 genmove w\n",
    );
    assert_eq!(code, Some(0), "{err}");
    let answers: Vec<&str> = out.split("\n\n").filter(|s| !s.is_empty()).collect();
    assert_eq!(answers.len(), 3, "{out}");
    assert_eq!(answers[0], "=1");
    for a in &answers[1..] {
        assert!(a.starts_with('='), "{out}");
        assert!(!a.starts_with("=2 ?"), "{out}");
    }
}

/// `analyze` within the solve limit solves on the engine's threads: the stream reaches the
/// published value of 3x3 boxes (-3 for the first player, whatever it plays) with 1 and 2
/// threads, and a new line ends it.
#[test]
fn analyze_reaches_the_exact_value_on_any_thread_count() {
    use common::live::Live;
    use std::time::{Duration, Instant};
    for threads in ["1", "2"] {
        let mut q = Live::start(&["dots", "--threads", threads, "--solve-limit", "24"]);
        assert_eq!(q.ask("boardsize 3x3"), "=");
        q.send("analyze b 10");
        assert_eq!(q.line(Duration::from_secs(60)).as_deref(), Some("="));
        let deadline = Instant::now() + Duration::from_secs(120);
        let exact = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = q
                .line(left)
                .expect("analysis lines until the solve is done");
            assert!(line.starts_with("info move "), "{line}");
            if line.contains(" scoreLead ") {
                break line;
            }
        };
        assert!(exact.contains(" winrate 0.0 "), "{threads}: {exact}");
        assert!(exact.contains(" scoreLead -3.0 "), "{threads}: {exact}");
        q.send("");
        // The stream's end: any info lines already written, then the empty line.
        loop {
            let line = q.line(Duration::from_secs(30)).expect("the stream ends");
            if line.is_empty() {
                break;
            }
            assert!(line.starts_with("info move "), "{line}");
        }
        assert_eq!(q.ask("name"), "= quartet");
    }
}
