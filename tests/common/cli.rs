//! Runs `quartet` once with a command line and a whole input, for the tests of option
//! checking: bad values must end the program with a message and status 2 before anything
//! starts.
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `quartet <args>` with `input` on stdin; returns its status code (None: killed by a
/// signal), stdout and stderr.
pub fn run(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start quartet");
    // A program that refuses its options exits before reading: a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().expect("quartet ends");
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    (status.code(), text(stdout), text(stderr))
}

/// The run failed cleanly (status 2, no panic or abort) with a message containing `want`.
pub fn fails_with(args: &[&str], want: &str) {
    let (code, _, err) = run(args, "");
    assert_eq!(code, Some(2), "{args:?}: {err}");
    assert!(err.contains(want), "{args:?}: {err}");
    assert!(
        !err.contains("panicked") && !err.contains("memory allocation"),
        "{args:?}: {err}"
    );
}

/// A `--hash-mb` more than the machine has: its physical memory plus one MiB, or the
/// largest value accepted on a machine with more than that.
pub fn too_much_mb() -> String {
    let info = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let kb: u64 = info
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(64 << 20);
    ((kb >> 10) + 1).min(65_536).to_string()
}
