//! Splitting the pbrain input into lines. Piskvork and other managers end lines with CR LF,
//! LF, or (old Mac ports) a bare CR; all three end a line, and the LF of a CR LF is not an
//! empty line of its own. At most [`MAX_LINE`] bytes of a line are kept, as in the GTP
//! server: a longer line becomes [`Line::TooLong`], so a stream without line ends costs
//! bounded memory.

/// Longest accepted line in bytes (without its line end), the GTP server's cap too.
pub const MAX_LINE: usize = 1 << 20;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// The line's text, decoded lossily and trimmed.
    Text(String),
    /// A line of more than the cap, dropped.
    TooLong,
}

/// Feeds bytes in, gets lines out; holds at most the cap of one partial line.
#[derive(Debug)]
pub struct LineSplitter {
    cap: usize,
    line: Vec<u8>,
    too_long: bool,
    /// The last byte seen was a CR: a following LF belongs to it.
    after_cr: bool,
}

impl LineSplitter {
    pub fn new(cap: usize) -> LineSplitter {
        LineSplitter {
            cap,
            line: Vec::new(),
            too_long: false,
            after_cr: false,
        }
    }

    /// Splits `bytes`, calling `emit` for every line completed in them; stops early (and
    /// returns false) when `emit` returns false.
    pub fn feed(&mut self, bytes: &[u8], mut emit: impl FnMut(Line) -> bool) -> bool {
        for &b in bytes {
            let after_cr = std::mem::replace(&mut self.after_cr, b == b'\r');
            match b {
                b'\n' if after_cr => {}
                b'\n' | b'\r' => {
                    if !emit(self.take()) {
                        return false;
                    }
                }
                _ if self.too_long => {}
                _ if self.line.len() >= self.cap => {
                    self.too_long = true;
                    self.line = Vec::new();
                }
                _ => self.line.push(b),
            }
        }
        true
    }

    /// At end of input: the last line if it had no line end (and was not empty).
    pub fn finish(&mut self) -> Option<Line> {
        (self.too_long || !self.line.is_empty()).then(|| self.take())
    }

    fn take(&mut self) -> Line {
        let line = if std::mem::take(&mut self.too_long) {
            Line::TooLong
        } else {
            Line::Text(String::from_utf8_lossy(&self.line).trim().to_string())
        };
        self.line.clear();
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(input: &[u8], cap: usize) -> Vec<Line> {
        let mut s = LineSplitter::new(cap);
        let mut out = Vec::new();
        s.feed(input, |l| {
            out.push(l);
            true
        });
        out.extend(s.finish());
        out
    }

    fn text(s: &str) -> Line {
        Line::Text(s.to_string())
    }

    #[test]
    fn lf_crlf_and_bare_cr_each_end_one_line() {
        assert_eq!(
            split(b"START 15\nBEGIN\r\nTURN 1,2\rABOUT\r\rEND", 100),
            [
                text("START 15"),
                text("BEGIN"),
                text("TURN 1,2"),
                text("ABOUT"),
                text(""),
                text("END")
            ]
        );
        assert_eq!(split(b"A\n\nB\r\n", 100), [text("A"), text(""), text("B")]);
        assert_eq!(split(b"", 100), []);
    }

    #[test]
    fn a_crlf_split_across_reads_is_one_line_end() {
        let mut s = LineSplitter::new(100);
        let mut out = Vec::new();
        for chunk in [&b"TURN 3,4\r"[..], b"\nBEGIN\r", b"\n"] {
            s.feed(chunk, |l| {
                out.push(l);
                true
            });
        }
        assert_eq!(out, [text("TURN 3,4"), text("BEGIN")]);
        assert_eq!(s.finish(), None);
    }

    #[test]
    fn lines_over_the_cap_are_dropped_whole() {
        assert_eq!(
            split(b"12345\n123456\n1234567\nok\n1234567", 6),
            [
                text("12345"),
                text("123456"),
                Line::TooLong,
                text("ok"),
                Line::TooLong
            ]
        );
    }
}
