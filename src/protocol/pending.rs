//! The GTP commands read but not yet answered, and what input may do to them.
//!
//! Commands run in input order, each to its own bound. The reader ([`Admission`]) gives
//! every command line a fresh [`StopToken`] and stops a running command only where the
//! protocol conventions say so: `# interrupt` stops the latest command, and a new line or
//! the end of input ends an analysis stream. `quit` and end of input stop nothing else.
//! The output watcher stops them all through [`Outstanding::controller_gone`].
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

use super::framing::parse_line;
use super::lines::Line;
use crate::search::StopToken;

/// The interrupt line GoGui sends while it waits for an answer (its Stop button).
pub const INTERRUPT_LINE: &str = "# interrupt";

/// The tokens of the commands sent but not yet answered (at most the reader's channel
/// capacity plus the one running and the one being sent, so a short queue suffices),
/// shared by the reader and the output watcher.
#[derive(Default)]
pub struct Outstanding {
    state: Mutex<State>,
    /// Wakes the reader once the controller is gone.
    gone_signal: Notify,
}

#[derive(Default)]
struct State {
    /// Oldest first: (token, whether the command is an analysis stream).
    tokens: VecDeque<(StopToken, bool)>,
    /// Nobody reads the answers any more: every command, also one read later, is stopped.
    gone: bool,
}

impl Outstanding {
    pub fn new() -> Arc<Outstanding> {
        Arc::new(Outstanding::default())
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The token of a new command (already stopped once the controller is gone).
    fn issue(&self, analysis: bool) -> StopToken {
        let mut s = self.state();
        // Tokens nobody else holds any more belong to answered commands.
        s.tokens.retain(|(t, _)| t.is_shared());
        let stop = StopToken::new();
        if s.gone {
            stop.stop();
        }
        s.tokens.push_back((stop.clone(), analysis));
        stop
    }

    /// `# interrupt`: stops the latest command sent.
    fn interrupt(&self) {
        if let Some((t, _)) = self.state().tokens.back() {
            t.stop();
        }
    }

    /// A new line or the end of input: ends the latest command if it is an analysis
    /// stream (only the latest can still run: any line after it ended it).
    fn end_analysis(&self) {
        if let Some((t, true)) = self.state().tokens.back() {
            t.stop();
        }
    }

    /// Nobody reads the answers any more: stops every command not yet answered and every
    /// later one, and tells the reader to stop reading.
    pub fn controller_gone(&self) {
        let mut s = self.state();
        s.gone = true;
        for (t, _) in &s.tokens {
            t.stop();
        }
        drop(s);
        self.gone_signal.notify_one();
    }

    pub fn is_gone(&self) -> bool {
        self.state().gone
    }

    /// Resolves once [`Outstanding::controller_gone`] was called (also if before).
    pub async fn gone(&self) {
        self.gone_signal.notified().await;
    }
}

/// A line on its way to the dispatcher with the stop token of the command it holds.
pub struct Job {
    pub line: Line,
    pub stop: StopToken,
}

/// The reader's side: turns framed lines into jobs, acting on the running command where
/// the conventions say so.
pub struct Admission {
    outstanding: Arc<Outstanding>,
    /// Names of the engine's commands that end on new input.
    analysis: Vec<&'static str>,
}

impl Admission {
    pub fn new(outstanding: Arc<Outstanding>, analysis: Vec<&'static str>) -> Admission {
        Admission {
            outstanding,
            analysis,
        }
    }

    /// Acts on one framed line; returns the job to forward, if any.
    pub fn admit(&mut self, line: Line) -> Option<Job> {
        if let Line::Text(bytes) = &line {
            if is_interrupt(bytes) {
                self.outstanding.interrupt();
                return None;
            }
        }
        // A new line (even a blank one, as KataGo does) ends an analysis stream.
        self.outstanding.end_analysis();
        let analysis = match &line {
            Line::Text(bytes) => match parse_line(bytes) {
                Some(Ok(cmd)) => self.analysis.contains(&cmd.name.as_str()),
                _ => false,
            },
            Line::TooLong { .. } => false,
        };
        let stop = self.outstanding.issue(analysis);
        Some(Job { line, stop })
    }

    /// End of input: an analysis stream has no end of its own, so it ends here; every
    /// other command still runs to its bound.
    pub fn end_of_input(&mut self) {
        self.outstanding.end_analysis();
    }
}

/// Whether a raw line is GoGui's interrupt comment (surrounding blanks and CR allowed).
fn is_interrupt(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok_and(|s| s.trim() == INTERRUPT_LINE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Line {
        Line::Text(s.as_bytes().to_vec())
    }

    fn admission() -> (Arc<Outstanding>, Admission) {
        let o = Outstanding::new();
        (o.clone(), Admission::new(o, vec!["lz-analyze"]))
    }

    #[test]
    fn quit_and_end_of_input_stop_no_ordinary_command() {
        let (_, mut a) = admission();
        let genmove = a.admit(text("1 genmove b")).unwrap();
        let solve = a.admit(text("2 solve")).unwrap();
        let quit = a.admit(text("3 quit")).unwrap();
        a.end_of_input();
        for job in [&genmove, &solve, &quit] {
            assert!(!job.stop.is_stopped());
        }
    }

    #[test]
    fn a_new_line_or_the_end_of_input_ends_an_analysis_stream() {
        let (_, mut a) = admission();
        let first = a.admit(text("lz-analyze 50")).unwrap();
        let blank = a.admit(text("")).unwrap();
        assert!(first.stop.is_stopped());
        assert!(!blank.stop.is_stopped());
        let second = a.admit(text("lz-analyze 50")).unwrap();
        a.end_of_input();
        assert!(second.stop.is_stopped());
    }

    #[test]
    fn interrupt_stops_the_latest_command_only() {
        let (_, mut a) = admission();
        let one = a.admit(text("genmove b")).unwrap();
        let two = a.admit(text("genmove w")).unwrap();
        assert!(a.admit(text("  # interrupt\r")).is_none());
        assert!(!one.stop.is_stopped());
        assert!(two.stop.is_stopped());
    }

    #[test]
    fn a_departed_controller_stops_every_command_and_every_later_one() {
        let (o, mut a) = admission();
        let one = a.admit(text("genmove b")).unwrap();
        let two = a.admit(text("solve")).unwrap();
        assert!(!o.is_gone());
        o.controller_gone();
        assert!(o.is_gone());
        assert!(one.stop.is_stopped() && two.stop.is_stopped());
        assert!(a.admit(text("genmove w")).unwrap().stop.is_stopped());
    }

    #[tokio::test]
    async fn the_gone_signal_is_kept_for_a_later_waiter() {
        let o = Outstanding::new();
        o.controller_gone();
        tokio::time::timeout(std::time::Duration::from_secs(5), o.gone())
            .await
            .expect("resolves");
    }
}
