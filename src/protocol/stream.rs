//! Answers written while a command runs: the `=` header first, then lines as the search
//! produces them, then the usual blank line (Leela Zero's and KataGo's analysis framing).
use std::io::{self, Write};

use crate::search::StopToken;

/// The output of one streaming command. Given to a [`super::engine::StreamHandler`] by the
/// dispatcher, which owns the output; writing never blocks for longer than the pipe does.
pub struct Stream<'a> {
    out: &'a mut dyn Write,
    id: Option<u32>,
    begun: bool,
    error: Option<io::Error>,
    stop: StopToken,
}

impl<'a> Stream<'a> {
    pub fn new(out: &'a mut dyn Write, id: Option<u32>, stop: StopToken) -> Stream<'a> {
        Stream {
            out,
            id,
            begun: false,
            error: None,
            stop,
        }
    }

    /// Writes the success header `=[id]` on a line of its own. Call once the arguments
    /// are known to be good; later errors can no longer be reported as `?`.
    pub fn begin(&mut self) {
        if self.begun {
            return;
        }
        self.begun = true;
        let head = match self.id {
            Some(id) => format!("={id}\n"),
            None => "=\n".to_string(),
        };
        self.write(head.as_bytes());
    }

    /// Writes one line (a newline is added) and flushes it. A closed output stops the
    /// command's search.
    pub fn line(&mut self, text: &str) {
        self.begin();
        let mut buf = String::with_capacity(text.len() + 1);
        buf.push_str(text);
        buf.push('\n');
        self.write(buf.as_bytes());
    }

    fn write(&mut self, bytes: &[u8]) {
        if self.error.is_some() {
            return;
        }
        if let Err(e) = self.out.write_all(bytes).and_then(|_| self.out.flush()) {
            self.stop.stop();
            self.error = Some(e);
        }
    }

    /// The command's stop token: stopped by new input or the end of input (analysis),
    /// `# interrupt`, or a closed output.
    pub fn stop_token(&self) -> &StopToken {
        &self.stop
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.is_stopped()
    }

    /// Ends the answer after the handler returned: the header if nothing was written yet
    /// (or the error), the final line if any, then the blank line.
    pub(super) fn finish(mut self, reply: &super::engine::Reply) -> io::Result<()> {
        if !self.begun {
            let text = super::answer::format_reply(self.id, reply);
            self.write(text.as_bytes());
        } else {
            match reply {
                Ok(last) if !last.is_empty() => {
                    let text = format!("{last}\n\n");
                    self.write(text.as_bytes());
                }
                Ok(_) => self.write(b"\n"),
                Err(e) => {
                    // Too late for `?`: the error goes to the log and the answer ends.
                    tracing::warn!("streaming command failed after its header: {}", e.0);
                    self.write(b"\n");
                }
            }
        }
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}
