//! Splitting a byte stream into protocol lines, shared by every front end (GTP, pbrain,
//! SAU). A controller that sends megabytes without a line end must cost bounded memory and
//! its bytes must not be copied whole into logs, so a line longer than the cap is drained
//! and reported as [`Line::TooLong`] with only its first bytes.
use std::io::{self, Read};

/// Longest accepted line in bytes (without its line end), for every protocol.
pub const MAX_LINE: usize = 1 << 20;

/// How many bytes of an over-long line are kept (GTP echoes its id from them).
pub const PREFIX_KEEP: usize = 64;

/// Which bytes end a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnds {
    /// LF only (GTP, SAU): a CR stays in the line for the protocol's own cleaning.
    Lf,
    /// LF, CR LF or a bare CR (pbrain: Piskvork and old Mac ports); the LF of a CR LF is
    /// not an empty line of its own, even when the two arrive in different reads.
    AnyNewline,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// The line's bytes, without the line end.
    Text(Vec<u8>),
    /// A line of `len` bytes, more than the cap: only its first [`PREFIX_KEEP`] were kept.
    TooLong { prefix: Vec<u8>, len: usize },
}

/// Feeds bytes in, gets lines out; holds at most the cap of one partial line.
#[derive(Debug)]
pub struct LineSplitter {
    cap: usize,
    ends: LineEnds,
    line: Vec<u8>,
    /// Bytes of the current line so far, kept or not.
    len: usize,
    /// The last byte taken was a CR that ended a line: a following LF belongs to it.
    after_cr: bool,
}

impl LineSplitter {
    pub fn new(cap: usize, ends: LineEnds) -> LineSplitter {
        LineSplitter {
            cap,
            ends,
            line: Vec::new(),
            len: 0,
            after_cr: false,
        }
    }

    /// Takes bytes from the front of `input` up to the first line end and returns the
    /// line it completes; `None` once `input` is used up without a line end (the partial
    /// line is kept for the next call).
    pub fn next_line(&mut self, input: &mut &[u8]) -> Option<Line> {
        if self.after_cr && !input.is_empty() {
            self.after_cr = false;
            if input[0] == b'\n' {
                *input = &input[1..];
            }
        }
        let end = match self.ends {
            LineEnds::Lf => input.iter().position(|&b| b == b'\n'),
            LineEnds::AnyNewline => input.iter().position(|&b| b == b'\n' || b == b'\r'),
        };
        let Some(i) = end else {
            self.push(input);
            *input = &[];
            return None;
        };
        self.push(&input[..i]);
        self.after_cr = input[i] == b'\r';
        *input = &input[i + 1..];
        Some(self.take())
    }

    /// At end of input: the last line if it had no line end (and was not empty).
    pub fn finish(&mut self) -> Option<Line> {
        (self.len > 0).then(|| self.take())
    }

    fn push(&mut self, part: &[u8]) {
        self.len += part.len();
        if self.len <= self.cap {
            self.line.extend_from_slice(part);
        } else if self.line.len() < PREFIX_KEEP {
            let room = PREFIX_KEEP - self.line.len();
            self.line.extend_from_slice(&part[..room.min(part.len())]);
        } else {
            self.line.truncate(PREFIX_KEEP);
        }
    }

    fn take(&mut self) -> Line {
        let len = std::mem::take(&mut self.len);
        let bytes = std::mem::take(&mut self.line);
        if len > self.cap {
            Line::TooLong { prefix: bytes, len }
        } else {
            Line::Text(bytes)
        }
    }
}

/// Reads `input` to its end through `splitter`, handing every line to `emit` until it
/// returns false. A read error ends the input like EOF (a controller that vanished).
pub fn read_lines(
    mut input: impl Read,
    mut splitter: LineSplitter,
    mut emit: impl FnMut(Line) -> bool,
) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                tracing::warn!("reading input failed, treating as end of input: {e}");
                break;
            }
        };
        let mut chunk = &buf[..n];
        while let Some(line) = splitter.next_line(&mut chunk) {
            if !emit(line) {
                return;
            }
        }
    }
    if let Some(line) = splitter.finish() {
        emit(line);
    }
}

/// At most `max` characters of `s` for a log message, control characters escaped, with the
/// full length when cut: `"mov\u{1b}e 1 A"... (2000000 bytes)`.
pub fn excerpt(s: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i == max {
            out.push_str(&format!("... ({} bytes)", s.len()));
            return out;
        }
        if ch.is_control() {
            out.extend(ch.escape_default());
        } else {
            out.push(ch);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Splits `input` fed in reads of `step` bytes.
    fn split(input: &[u8], cap: usize, ends: LineEnds, step: usize) -> Vec<Line> {
        let mut out = Vec::new();
        read_lines(
            TrickleReader(input, step),
            LineSplitter::new(cap, ends),
            |l| {
                out.push(l);
                true
            },
        );
        out
    }

    /// A reader that hands out at most `.1` bytes per read.
    struct TrickleReader<'a>(&'a [u8], usize);

    impl Read for TrickleReader<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(self.1).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn text(s: &str) -> Line {
        Line::Text(s.as_bytes().to_vec())
    }

    #[test]
    fn lf_mode_splits_on_lf_only_and_keeps_cr() {
        for step in [1, 2, 7, 100] {
            assert_eq!(
                split(b"ab\r\n\ncd\rx\nlast", 100, LineEnds::Lf, step),
                [text("ab\r"), text(""), text("cd\rx"), text("last")],
                "reads of {step}"
            );
        }
        assert!(split(b"", 10, LineEnds::Lf, 3).is_empty());
    }

    #[test]
    fn any_newline_mode_ends_lines_at_lf_crlf_and_bare_cr() {
        for step in [1, 2, 9, 100] {
            assert_eq!(
                split(
                    b"START 15\nBEGIN\r\nTURN 1,2\rABOUT\r\rEND",
                    100,
                    LineEnds::AnyNewline,
                    step
                ),
                [
                    text("START 15"),
                    text("BEGIN"),
                    text("TURN 1,2"),
                    text("ABOUT"),
                    text(""),
                    text("END")
                ],
                "reads of {step}"
            );
            assert_eq!(
                split(b"A\n\nB\r\n", 100, LineEnds::AnyNewline, step),
                [text("A"), text(""), text("B")]
            );
        }
    }

    #[test]
    fn a_crlf_split_across_reads_is_one_line_end() {
        let mut s = LineSplitter::new(100, LineEnds::AnyNewline);
        let mut out = Vec::new();
        for mut chunk in [&b"TURN 3,4\r"[..], b"", b"\nBEGIN\r", b"\n"] {
            while let Some(l) = s.next_line(&mut chunk) {
                out.push(l);
            }
        }
        assert_eq!(out, [text("TURN 3,4"), text("BEGIN")]);
        assert_eq!(s.finish(), None);
    }

    #[test]
    fn lines_over_the_cap_are_drained_with_their_prefix_and_length() {
        for step in [1, 4, 100] {
            assert_eq!(
                split(
                    b"12345\n123456\n1234567\nok\n1234567",
                    6,
                    LineEnds::Lf,
                    step
                ),
                [
                    text("12345"),
                    text("123456"),
                    Line::TooLong {
                        prefix: b"1234567".to_vec(),
                        len: 7
                    },
                    text("ok"),
                    Line::TooLong {
                        prefix: b"1234567".to_vec(),
                        len: 7
                    }
                ],
                "reads of {step}"
            );
        }
        let long = vec![b'x'; 3 * PREFIX_KEEP];
        let got = split(&long, PREFIX_KEEP, LineEnds::AnyNewline, 5);
        assert_eq!(
            got,
            [Line::TooLong {
                prefix: vec![b'x'; PREFIX_KEEP],
                len: 3 * PREFIX_KEEP
            }]
        );
    }

    #[test]
    fn emit_returning_false_stops_reading() {
        let mut seen = 0;
        read_lines(
            &b"a\nb\nc\n"[..],
            LineSplitter::new(10, LineEnds::Lf),
            |_| {
                seen += 1;
                seen < 2
            },
        );
        assert_eq!(seen, 2);
    }

    #[test]
    fn excerpts_escape_and_cut() {
        assert_eq!(excerpt("a\u{1b}[2Jb\r", 10), "a\\u{1b}[2Jb\\r");
        assert_eq!(excerpt("abcdef", 3), "abc... (6 bytes)");
        assert_eq!(excerpt("abc", 3), "abc");
    }
}
