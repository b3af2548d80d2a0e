//! A live Gomocup brain (`quartet gomoku --pbrain`) for protocol tests: commands answer
//! with one line, `INFO` lines with none.
use super::live::Live;
use std::time::{Duration, Instant};

/// How long any one answer may take before the test fails.
const ANSWER_LIMIT: Duration = Duration::from_secs(20);

pub struct Brain {
    live: Live,
}

impl Brain {
    pub fn start() -> Brain {
        Brain {
            live: Live::start(&["gomoku", "--pbrain"]),
        }
    }

    /// Like `start`, keeping the info-level log for [`Brain::end`].
    pub fn start_logged() -> Brain {
        Brain {
            live: Live::start_logged(&["gomoku", "--pbrain", "--log-level", "info"]),
        }
    }

    /// Sends lines that get no answer.
    pub fn tell(&mut self, lines: &str) {
        for line in lines.lines() {
            self.live.send(line);
        }
    }

    /// Sends `lines` (ending with one command that answers once) and returns the answer
    /// and the time from the last line's sending to the answer.
    pub fn ask(&mut self, lines: &str) -> (String, Duration) {
        self.tell(lines);
        let t = Instant::now();
        let a = self
            .live
            .line(ANSWER_LIMIT)
            .unwrap_or_else(|| panic!("no answer to {lines:?} within {ANSWER_LIMIT:?}"));
        (a.trim().to_string(), t.elapsed())
    }

    /// Sends `END`, checks that the brain exits cleanly without an answer too many, and
    /// returns its log (empty unless started with `start_logged`).
    pub fn end(mut self) -> String {
        self.live.send("END");
        self.live.close_stdin();
        let status = self.live.wait_exit(ANSWER_LIMIT).expect("exits after END");
        assert!(status.success(), "exit status {status}");
        if let Some(extra) = self.live.line(Duration::from_millis(100)) {
            panic!("an answer too many: {extra:?}");
        }
        self.live.finish_log().join("\n")
    }
}
