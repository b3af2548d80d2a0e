//! Runs the real `quartet` binary on a whole input: the transcript tests' driver.
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

/// Starts `quartet <args>` and plays `input` as a GTP controller does: one line at a time,
/// each sent after the answer to the previous command (a GTP answer ends with a blank
/// line; blank and comment lines get none). After the last line stdin is closed, and
/// stdout is read to EOF. Returns the output and the exit code (-1 when killed by a
/// signal). Stderr is discarded.
///
/// Line by line is how a GUI talks; a script piped in whole gets the same answers (commands
/// run in order, `quit` and end of input wait for them: tests/piped_scripts.rs), except
/// that a new line ends an analysis stream.
/// `--pbrain` sessions (no GTP answer framing) are written in one go.
pub fn run(args: &[&str], input: &[u8]) -> (String, i32) {
    let program = Path::new(env!("CARGO_BIN_EXE_quartet"));
    if args.contains(&"--pbrain") {
        return run_program(program, args, input);
    }
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start quartet");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut out = String::new();
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if input.ends_with(b"\n") {
        lines.pop();
    }
    let n = lines.len();
    'send: for (i, line) in lines.into_iter().enumerate() {
        let mut data = line.to_vec();
        if i + 1 < n || input.ends_with(b"\n") {
            data.push(b'\n');
        }
        if stdin.write_all(&data).and_then(|_| stdin.flush()).is_err() {
            break;
        }
        let answered = match quartet::protocol::framing::parse_line(line) {
            None => false,
            Some(Ok(cmd)) if cmd.name == "quit" => break,
            Some(_) => true,
        };
        if !answered || (i + 1 == n && !input.ends_with(b"\n")) {
            continue;
        }
        // One answer: lines up to the first empty one.
        loop {
            let mut l = String::new();
            match stdout.read_line(&mut l) {
                Ok(0) | Err(_) => break 'send,
                Ok(_) => {
                    out.push_str(&l);
                    if l == "\n" {
                        break;
                    }
                }
            }
        }
    }
    drop(stdin);
    let mut rest = Vec::new();
    let _ = stdout.read_to_end(&mut rest);
    out.push_str(&String::from_utf8_lossy(&rest));
    let status = child.wait().unwrap();
    (out, status.code().unwrap_or(-1))
}

/// Starts `program <args>`, writes `input` at once (from a thread, so a large input cannot
/// block against unread output) and closes stdin, reads stdout to EOF and returns it with
/// the exit code (-1 when killed by a signal). Stderr is discarded.
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
