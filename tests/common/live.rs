//! A live `quartet` process for timing tests: lines go in when the test says, answers are
//! read with a timeout, and stdin (end of input) or the reading end of stdout (the
//! controller leaving) can be closed mid-command.
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::AsRawFd;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Stderr lines with their arrival times, shared with the thread that reads them.
type Log = Arc<Mutex<Vec<(Instant, String)>>>;

pub struct Live {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Tells the stdout reader to close its end of the pipe.
    close_out: Arc<AtomicBool>,
    out_reader: Option<thread::JoinHandle<()>>,
    /// Stderr as read so far, with its arrival time, when started by `start_logged`.
    log: Option<Log>,
    /// The thread reading stderr; it ends at the process's exit.
    log_reader: Option<thread::JoinHandle<()>>,
}

impl Live {
    pub fn start(args: &[&str]) -> Live {
        Live::spawn(args, false)
    }

    /// Like `start`, keeping stderr (the log) for [`Live::log`].
    pub fn start_logged(args: &[&str]) -> Live {
        Live::spawn(args, true)
    }

    fn spawn(args: &[&str], logged: bool) -> Live {
        let mut child = Command::new(env!("CARGO_BIN_EXE_quartet"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if logged {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .spawn()
            .expect("start quartet");
        let (log, log_reader) = match child.stderr.take() {
            Some(stderr) => {
                let log: Log = Arc::new(Mutex::new(Vec::new()));
                let sink = Arc::clone(&log);
                let reader = thread::spawn(move || {
                    for line in BufReader::new(stderr).lines() {
                        let Ok(line) = line else { break };
                        sink.lock().unwrap().push((Instant::now(), line));
                    }
                });
                (Some(log), Some(reader))
            }
            None => (None, None),
        };
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        let close_out = Arc::new(AtomicBool::new(false));
        let close = Arc::clone(&close_out);
        let out_reader = thread::spawn(move || read_stdout(stdout, tx, &close));
        Live {
            child,
            stdin,
            lines,
            close_out,
            out_reader: Some(out_reader),
            log,
            log_reader,
        }
    }

    /// The stderr lines read so far with their arrival times (`start_logged` only).
    pub fn log(&self) -> Vec<(Instant, String)> {
        self.log
            .as_ref()
            .expect("started with start_logged")
            .lock()
            .unwrap()
            .clone()
    }

    /// The whole log once the process has exited (empty when not `start_logged`).
    pub fn finish_log(&mut self) -> Vec<String> {
        let Some(reader) = self.log_reader.take() else {
            return Vec::new();
        };
        reader.join().expect("the log reader does not panic");
        self.log().into_iter().map(|(_, line)| line).collect()
    }

    /// Writes one line (LF added).
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// The next output line, or None after `timeout` or at EOF.
    pub fn line(&mut self, timeout: Duration) -> Option<String> {
        self.lines.recv_timeout(timeout).ok()
    }

    /// One whole answer (its lines up to the blank line, joined by LF), or None if it is
    /// not complete within `timeout`.
    pub fn answer(&mut self, timeout: Duration) -> Option<String> {
        let deadline = Instant::now() + timeout;
        let mut lines: Vec<String> = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let l = self.line(left)?;
            if l.is_empty() {
                return Some(lines.join("\n"));
            }
            lines.push(l);
        }
    }

    /// `send` then `answer`, panicking when no answer comes in 60 s.
    pub fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.answer(Duration::from_secs(60))
            .unwrap_or_else(|| panic!("no answer to {line:?}"))
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Closes the reading end of the process's stdout, as a controller that died does
    /// (returns once it is closed); output not read yet is lost.
    pub fn close_stdout(&mut self) {
        self.close_out.store(true, Ordering::SeqCst);
        if let Some(reader) = self.out_reader.take() {
            reader.join().expect("the stdout reader does not panic");
        }
    }

    /// Waits up to `timeout` for the process to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }
}

/// Sends the lines of `stdout` (without their LF or CR LF) until EOF, or until `close` is
/// set: then the pipe's reading end is closed (polling in short steps, so a read never
/// blocks the close).
fn read_stdout(mut stdout: ChildStdout, tx: Sender<String>, close: &AtomicBool) {
    let mut pending: Vec<u8> = Vec::new();
    let mut buf = [0u8; 4096];
    while !close.load(Ordering::SeqCst) {
        let mut pfd = libc::pollfd {
            fd: stdout.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd for the duration of the call.
        if unsafe { libc::poll(&mut pfd, 1, 10) } <= 0 {
            continue;
        }
        let n = match stdout.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        pending.extend_from_slice(&buf[..n]);
        while let Some(i) = pending.iter().position(|&b| b == b'\n') {
            let mut line: Vec<u8> = pending.drain(..=i).collect();
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if tx
                .send(String::from_utf8_lossy(&line).into_owned())
                .is_err()
            {
                return;
            }
        }
    }
    // A last line without LF at EOF is still a line.
    if !pending.is_empty() && !close.load(Ordering::SeqCst) {
        let _ = tx.send(String::from_utf8_lossy(&pending).into_owned());
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
