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
