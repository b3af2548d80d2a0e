//! Line reading with a length cap for the line-based protocols that do not go through the
//! GTP server (SAU). A controller that sends megabytes without a newline must cost bounded
//! memory, and its bytes must not be copied whole into logs.
use std::io::{self, BufRead};

/// One line read by [`read_capped_line`].
#[derive(Debug, PartialEq, Eq)]
pub enum CappedLine {
    /// The line is in the buffer (without its LF).
    Text,
    /// The line was longer than the cap; it was drained up to its LF (or EOF) and only
    /// its length is known. The buffer holds its first bytes.
    TooLong { len: usize },
}

/// Reads the next line of `input` into `buf` (cleared first), keeping at most `cap` bytes.
/// `Ok(None)` at end of input; a last line without LF is still a line. Blocks until a LF,
/// EOF or an error arrives.
pub fn read_capped_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<CappedLine>> {
    buf.clear();
    let mut len = 0usize;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, used, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        let room = cap.saturating_sub(buf.len());
        buf.extend_from_slice(&part[..room.min(part.len())]);
        len += part.len();
        input.consume(used);
        if ended {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    Ok(Some(if len > cap {
        CappedLine::TooLong { len }
    } else {
        CappedLine::Text
    }))
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

    fn lines(input: &[u8], cap: usize) -> Vec<(Vec<u8>, CappedLine)> {
        let mut r = io::BufReader::with_capacity(7, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(l) = read_capped_line(&mut r, &mut buf, cap).unwrap() {
            out.push((buf.clone(), l));
        }
        out
    }

    #[test]
    fn splits_lines_and_drains_long_ones() {
        let got = lines(b"ab\n0123456789abcdef\n\nxyz", 10);
        assert_eq!(
            got,
            [
                (b"ab".to_vec(), CappedLine::Text),
                (b"0123456789".to_vec(), CappedLine::TooLong { len: 16 }),
                (b"".to_vec(), CappedLine::Text),
                (b"xyz".to_vec(), CappedLine::Text),
            ]
        );
        assert!(lines(b"", 10).is_empty());
        assert_eq!(lines(b"0123456789", 10)[0].1, CappedLine::Text);
    }

    #[test]
    fn excerpts_escape_and_cut() {
        assert_eq!(excerpt("a\u{1b}[2Jb\r", 10), "a\\u{1b}[2Jb\\r");
        assert_eq!(excerpt("abcdef", 3), "abc... (6 bytes)");
        assert_eq!(excerpt("abc", 3), "abc");
    }
}
