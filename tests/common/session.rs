//! Runs the real `quartet` binary on a whole input at once: the transcript tests' driver.
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

/// Starts `quartet <args>`, writes `input` (from a thread, so a large input cannot block
/// against unread output), reads stdout to EOF and returns it with the exit code (-1 when
/// killed by a signal). Stderr is discarded.
pub fn run(args: &[&str], input: &[u8]) -> (String, i32) {
    run_program(Path::new(env!("CARGO_BIN_EXE_quartet")), args, input)
}

/// As [`run`], for the binary under another name (e.g. a `pbrain-quartet` symlink).
pub fn run_program(program: &Path, args: &[&str], input: &[u8]) -> (String, i32) {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start quartet");
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    writer.join().unwrap();
    let status = child.wait().unwrap();
    (out, status.code().unwrap_or(-1))
}
