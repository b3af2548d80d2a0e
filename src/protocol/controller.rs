//! Noticing that the controller is gone, for every front end (GTP, pbrain, SAU, NBoard).
//!
//! End of input is not that sign: a script's last line, Ctrl-D at a terminal and a
//! controller that closes its end to say "no more commands" all still wait for the answers.
//! The sign is the output: once nobody can read stdout any more (the reading end of the
//! pipe closed, the socket or terminal hung up), poll(2) reports an error or hang-up on
//! fd 1 and every write fails with EPIPE (Rust ignores SIGPIPE). A watcher thread polls
//! fd 1 and then stops every running search, so an engine never thinks on for the rest of
//! its clock after its controller died; the write path notices too (a failed write ends
//! the session quietly).
use std::os::fd::RawFd;
use std::time::Duration;

/// How often the watcher looks at the output when nothing wakes it earlier.
pub const POLL_EVERY: Duration = Duration::from_millis(100);

/// How long the front end gets to stop on its own before the watcher ends the process.
pub const GRACE: Duration = Duration::from_millis(300);

/// Whether nobody can read `fd` any more: poll(2) reports an error, a hang-up or a bad
/// descriptor, waiting up to `wait` for one. False on a regular file, /dev/null, a live
/// pipe or terminal; also false when poll itself fails (the caller then keeps running).
pub fn reader_gone(fd: RawFd, wait: Duration) -> bool {
    // Events 0: only the conditions poll always reports (POLLERR, POLLHUP, POLLNVAL).
    let mut pfd = libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    };
    let ms = wait.as_millis().min(i32::MAX as u128) as libc::c_int;
    // SAFETY: one valid pollfd for the duration of the call.
    let n = unsafe { libc::poll(&mut pfd, 1, ms) };
    n > 0 && pfd.revents & (libc::POLLERR | libc::POLLHUP | libc::POLLNVAL) != 0
}

/// Watches `fd` on a thread of its own and calls `gone` once when nobody can read it any
/// more. The thread lives until then (a process that ends first simply takes it along).
pub fn watch_fd(fd: RawFd, gone: impl FnOnce() + Send + 'static) {
    let spawned = std::thread::Builder::new()
        .name("output-watch".into())
        .spawn(move || {
            while !reader_gone(fd, POLL_EVERY) {}
            gone();
        });
    if let Err(e) = spawned {
        // Without the watcher a failed write still ends the session.
        tracing::warn!("cannot watch the output for a departed controller: {e}");
    }
}

/// Watches stdout: when the controller is gone, `stop` stops every running search, and if
/// the process has not ended by itself [`GRACE`] later (a front end blocked reading input
/// that will never come), it exits with status 0. Call once, from a front end's run loop.
pub fn watch_stdout(stop: impl FnOnce() + Send + 'static) {
    watch_fd(libc::STDOUT_FILENO, move || {
        tracing::info!("nobody reads the output any more: stopping");
        stop();
        std::thread::sleep(GRACE);
        tracing::info!("the controller is gone: exiting");
        std::process::exit(0);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Instant;

    fn pipe() -> (RawFd, RawFd) {
        let mut fds = [0; 2];
        // SAFETY: pipe writes two descriptors into the array.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        (fds[0], fds[1])
    }

    fn close(fd: RawFd) {
        // SAFETY: the test owns the descriptor and closes it once.
        unsafe { libc::close(fd) };
    }

    #[test]
    fn a_pipe_whose_reader_closed_is_seen_at_once() {
        let (r, w) = pipe();
        assert!(!reader_gone(w, Duration::ZERO), "a live pipe");
        // Unread data in the pipe does not matter, only the reader does.
        // SAFETY: writes 3 bytes from a valid buffer.
        assert_eq!(unsafe { libc::write(w, b"ab\n".as_ptr().cast(), 3) }, 3);
        assert!(!reader_gone(w, Duration::from_millis(20)));
        close(r);
        assert!(reader_gone(w, Duration::ZERO));
        close(w);
    }

    #[test]
    fn the_watcher_calls_back_when_the_reader_closes() {
        let (r, w) = pipe();
        let (tx, rx) = mpsc::channel();
        watch_fd(w, move || tx.send(Instant::now()).unwrap());
        std::thread::sleep(Duration::from_millis(150));
        assert!(rx.try_recv().is_err(), "called while the reader was there");
        let closed = Instant::now();
        close(r);
        let seen = rx
            .recv_timeout(Duration::from_secs(5))
            .expect("called back");
        // poll wakes on the close itself; the bound leaves room for a busy host.
        assert!(
            seen - closed < Duration::from_secs(2),
            "{:?}",
            seen - closed
        );
        close(w);
    }
}
