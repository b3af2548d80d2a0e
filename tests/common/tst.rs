//! Runs GoGui regression files (`.tst`) against a spawned GTP engine.
//!
//! Format, as gogui-regress reads it (GoGui `Regress.java`, after GNU Go's regression
//! suite): every non-empty line not starting with `#` is a GTP command sent as is; a line
//! `#? [regex]` right after a command checks its answer; other `#` lines are comments.
//! The answer text (after `=id`, trimmed) must match the regex in full, with `.` matching
//! newlines and `^`/`$` matching at line ends. `[!regex]` negates the match. A trailing `*`
//! (`#? [regex]*`) marks a known failure: failing is then expected, passing is reported as
//! an unexpected pass (not an error). A `?` answer always fails its test.
//!
//! Differences from gogui-regress, on purpose stricter: a numbered command without `#?`
//! that fails is an unexpected failure (as in gogui-regress), and so is an *unnumbered*
//! command that fails (gogui-regress only counts it as "other error"). The engine must exit
//! with status 0 after the final `quit` (sent if the file did not send it).
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use regex::Regex;

/// Longest wait for one answer.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(120);

/// What a run found. `failures` and `unexpected_passes` carry readable lines
/// (`name:line: ...`).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct TstOutcome {
    /// Commands checked by `#?` lines.
    pub tests: usize,
    pub passed: usize,
    pub expected_failures: usize,
    pub unexpected_passes: Vec<String>,
    pub failures: Vec<String>,
}

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// One answer: whether it was `?`, the full text and the text after `=id`/`?id`.
struct Answer {
    error: bool,
    full: String,
    text: String,
}

impl Engine {
    fn spawn(program: &Path, args: &[&str], cwd: Option<&Path>) -> Result<Engine, String> {
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if let Some(dir) = cwd {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", program.display()))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            return;
                        }
                    }
                    Err(_) => return,
                }
            }
        });
        Ok(Engine {
            child,
            stdin,
            lines,
        })
    }

    fn send(&mut self, command: &str) -> Result<Answer, String> {
        writeln!(self.stdin, "{command}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("engine closed its input: {e}"))?;
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        let mut body: Vec<String> = Vec::new();
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait) {
                Ok(line) => {
                    if line.is_empty() {
                        if body.is_empty() {
                            continue; // stray empty line before an answer
                        }
                        break;
                    }
                    body.push(line);
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no answer within {ANSWER_TIMEOUT:?}"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err("engine died (stdout closed)".to_string())
                }
            }
        }
        let full = body.join("\n");
        let error = match full.as_bytes()[0] {
            b'=' => false,
            b'?' => true,
            _ => return Err(format!("invalid answer {full:?}")),
        };
        let text = full[1..]
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim()
            .to_string();
        Ok(Answer { error, full, text })
    }

    /// Sends `quit` (unless already sent) and waits for a clean exit.
    fn finish(mut self, quit_sent: bool) -> Result<(), String> {
        if !quit_sent {
            let _ = self.send("quit");
        }
        drop(self.stdin);
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) if status.success() => return Ok(()),
                Ok(Some(status)) => return Err(format!("engine exited with {status}")),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                _ => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    return Err("engine did not exit after quit".to_string());
                }
            }
        }
    }
}

/// A parsed `#?` line.
struct Expect {
    regex: Regex,
    negate: bool,
    expected_fail: bool,
    source: String,
}

fn parse_expect(spec: &str) -> Result<Expect, String> {
    let mut s = spec.trim();
    let expected_fail = s.ends_with('*');
    if expected_fail {
        s = &s[..s.len() - 1];
    }
    let inner = s
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or_else(|| format!("pattern needs [brackets]: {spec:?}"))?
        .trim();
    let (negate, pattern) = match inner.strip_prefix('!') {
        Some(p) => (true, p),
        None => (false, inner),
    };
    let regex = Regex::new(&format!(r"(?ms)\A(?:{pattern})\z"))
        .map_err(|e| format!("bad regex {pattern:?}: {e}"))?;
    Ok(Expect {
        regex,
        negate,
        expected_fail,
        source: inner.to_string(),
    })
}

/// The numeric id at the start of a command line, as gogui-regress reads it.
fn command_id(line: &str) -> Option<u32> {
    let (first, _) = line.split_once(' ')?;
    first.parse().ok()
}

/// Runs the regression text `text` (named `name` in messages) against `program args`,
/// started in `cwd` (gogui-regress uses the test file's directory, so `loadsgf` paths are
/// relative to it).
pub fn run_tst(
    name: &str,
    text: &str,
    program: &Path,
    args: &[&str],
    cwd: Option<&Path>,
) -> TstOutcome {
    let mut out = TstOutcome::default();
    let mut engine = match Engine::spawn(program, args, cwd) {
        Ok(e) => e,
        Err(e) => {
            out.failures.push(format!("{name}: {e}"));
            return out;
        }
    };
    // The previous command and its answer, until a `#?` or the next command consumes it.
    let mut pending: Option<(usize, String, Answer)> = None;
    let mut quit_sent = false;
    let settle = |out: &mut TstOutcome, p: Option<(usize, String, Answer)>| {
        if let Some((no, cmd, ans)) = p {
            if ans.error {
                out.failures
                    .push(format!("{name}:{no}: `{cmd}` failed: {:?}", ans.full));
            }
        }
    };
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        let line = raw.trim();
        if let Some(spec) = line.strip_prefix("#?") {
            let Some((cno, cmd, ans)) = pending.take() else {
                out.failures
                    .push(format!("{name}:{no}: `#?` without a command before it"));
                continue;
            };
            let expect = match parse_expect(spec) {
                Ok(e) => e,
                Err(e) => {
                    out.failures.push(format!("{name}:{no}: {e}"));
                    continue;
                }
            };
            out.tests += 1;
            let fail = ans.error || (expect.regex.is_match(&ans.text) == expect.negate);
            let what = format!(
                "{name}:{cno}: `{cmd}`: expected [{}], got {:?}",
                expect.source, ans.full
            );
            match (fail, expect.expected_fail) {
                (false, false) => out.passed += 1,
                (true, true) => out.expected_failures += 1,
                (false, true) => {
                    out.passed += 1;
                    out.unexpected_passes.push(what);
                }
                (true, false) => out.failures.push(what),
            }
            continue;
        }
        settle(&mut out, pending.take());
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let command = line.replace('\t', " ");
        let is_quit = command
            .split_whitespace()
            .nth(if command_id(&command).is_some() { 1 } else { 0 })
            == Some("quit");
        match engine.send(&command) {
            Ok(ans) => pending = Some((no, command, ans)),
            Err(e) => {
                out.failures.push(format!("{name}:{no}: `{command}`: {e}"));
                let _ = engine.child.kill();
                let _ = engine.child.wait();
                return out;
            }
        }
        if is_quit {
            quit_sent = true;
            break;
        }
    }
    settle(&mut out, pending.take());
    if let Err(e) = engine.finish(quit_sent) {
        out.failures.push(format!("{name}: {e}"));
    }
    out
}

/// Runs a `.tst` file, with the engine started in the file's directory.
pub fn run_tst_file(path: &Path, program: &Path, args: &[&str]) -> TstOutcome {
    let name = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
            run_tst(&name, &text, program, args, dir)
        }
        Err(e) => TstOutcome {
            failures: vec![format!("{name}: {e}")],
            ..TstOutcome::default()
        },
    }
}

/// Runs a `.tst` file and panics listing every unexpected failure.
pub fn assert_tst_file(path: &Path, program: &Path, args: &[&str]) {
    let outcome = run_tst_file(path, program, args);
    for p in &outcome.unexpected_passes {
        eprintln!("unexpected PASS: {p}");
    }
    assert!(
        outcome.failures.is_empty() && outcome.tests > 0,
        "{} of {} tests failed in {}:\n{}",
        outcome.failures.len(),
        outcome.tests,
        path.display(),
        outcome.failures.join("\n")
    );
}
