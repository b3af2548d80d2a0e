//! GTP v2 command-line framing: the spec's preprocessing (section 3.1) and a `nom` parser
//! for `[id] command_name [arguments]`.
//!
//! Input arrives as raw bytes because a controller (or a fuzzer) may send anything: control
//! bytes are removed before decoding, and invalid UTF-8 is decoded lossily (an argument
//! with U+FFFD then fails the command's own parsing). Nothing here can panic.
use nom::bytes::complete::take_till1;
use nom::character::complete::{digit1, space0, space1};
use nom::combinator::{all_consuming, opt};
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::IResult;

use super::engine::{Command, GtpError};

/// A line that could not be parsed; the answer is `?[id] <error>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameError {
    /// The id, when one was parsed before the error, so the answer can echo it.
    pub id: Option<u32>,
    pub error: GtpError,
}

/// The spec's preprocessing of one line (without its terminating LF):
/// control characters other than HT and LF are removed (this includes CR and DEL), HT becomes
/// a space, everything from `#` on is a comment, and the result is trimmed.
/// Returns `None` for a line that is empty afterwards: such lines get no answer at all.
pub fn preprocess(raw: &[u8]) -> Option<String> {
    let mut bytes = Vec::with_capacity(raw.len());
    for &b in raw {
        match b {
            b'#' => break,
            b'\t' => bytes.push(b' '),
            0..=31 | 127 => {}
            _ => bytes.push(b),
        }
    }
    let text = String::from_utf8_lossy(&bytes);
    let trimmed = text.trim_matches(' ');
    if trimmed.is_empty() {
        None
    } else {
        Some(trimmed.to_string())
    }
}

fn token(input: &str) -> IResult<&str, &str> {
    take_till1(|c| c == ' ')(input)
}

/// `digits` followed by a space or the end of the line. A token like `12abc` is a command
/// name, not an id.
fn id_token(input: &str) -> IResult<&str, &str> {
    let (rest, digits) = digit1(input)?;
    if rest.is_empty() || rest.starts_with(' ') {
        Ok((rest, digits))
    } else {
        Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Digit,
        )))
    }
}

fn args(input: &str) -> IResult<&str, Vec<&str>> {
    terminated(many0(preceded(space1, token)), space0)(input)
}

/// Parses a preprocessed, non-empty line.
pub fn parse_preprocessed(line: &str) -> Result<Command, FrameError> {
    let syntax = |id| FrameError {
        id,
        error: GtpError::syntax(),
    };
    let (rest, id_text) = opt(id_token)(line).map_err(|_| syntax(None))?;
    let id = match id_text {
        // digit1 guarantees ASCII digits, so the only failure is overflow.
        Some(digits) => Some(digits.parse::<u32>().map_err(|_| syntax(None))?),
        None => None,
    };
    let rest = rest.trim_start_matches(' ');
    let parsed: IResult<&str, (&str, Vec<&str>)> = all_consuming(|i| {
        let (i, name) = token(i)?;
        let (i, list) = args(i)?;
        Ok((i, (name, list)))
    })(rest);
    match parsed {
        Ok((_, (name, list))) => Ok(Command {
            id,
            name: name.to_string(),
            args: list.into_iter().map(str::to_string).collect(),
        }),
        Err(_) => Err(syntax(id)),
    }
}

/// Preprocesses and parses one raw line. `None`: blank or comment-only, no answer is due.
pub fn parse_line(raw: &[u8]) -> Option<Result<Command, FrameError>> {
    preprocess(raw).map(|line| parse_preprocessed(&line))
}

/// The id at the start of a line, if any; used to echo the id when a line was too long to
/// keep (only its first bytes are available then).
pub fn leading_id(prefix: &[u8]) -> Option<u32> {
    let line = preprocess(prefix)?;
    let (_, digits) = id_token(&line).ok()?;
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(id: Option<u32>, name: &str, args: &[&str]) -> Command {
        Command {
            id,
            name: name.to_string(),
            args: args.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn err(id: Option<u32>) -> FrameError {
        FrameError {
            id,
            error: GtpError::syntax(),
        }
    }

    #[test]
    fn plain_and_numbered_commands() {
        assert_eq!(
            parse_line(b"play black D4"),
            Some(Ok(cmd(None, "play", &["black", "D4"])))
        );
        assert_eq!(
            parse_line(b"42 genmove w"),
            Some(Ok(cmd(Some(42), "genmove", &["w"])))
        );
        assert_eq!(parse_line(b"0 name"), Some(Ok(cmd(Some(0), "name", &[]))));
        assert_eq!(
            parse_line(b"4294967295 name"),
            Some(Ok(cmd(Some(u32::MAX), "name", &[])))
        );
        // Leading zeros are still a number.
        assert_eq!(parse_line(b"007 name"), Some(Ok(cmd(Some(7), "name", &[]))));
    }

    #[test]
    fn whitespace_tabs_and_line_endings() {
        assert_eq!(
            parse_line(b"  7\tplay \t b   A1  \r"),
            Some(Ok(cmd(Some(7), "play", &["b", "A1"])))
        );
        assert_eq!(
            parse_line(b"list_commands\r"),
            Some(Ok(cmd(None, "list_commands", &[])))
        );
    }

    #[test]
    fn comments_and_blank_lines_are_ignored() {
        assert_eq!(parse_line(b""), None);
        assert_eq!(parse_line(b"   \t  "), None);
        assert_eq!(parse_line(b"# a comment"), None);
        assert_eq!(parse_line(b"   # indented comment"), None);
        assert_eq!(parse_line(b"\r"), None);
        assert_eq!(
            parse_line(b"boardsize 9 # trailing comment"),
            Some(Ok(cmd(None, "boardsize", &["9"])))
        );
        assert_eq!(
            parse_line(b"3 komi 6.5#x"),
            Some(Ok(cmd(Some(3), "komi", &["6.5"])))
        );
    }

    #[test]
    fn control_characters_are_removed() {
        // NUL, BEL, ESC and DEL vanish; they do not split tokens.
        assert_eq!(
            parse_line(b"na\x00m\x07e\x1b\x7f"),
            Some(Ok(cmd(None, "name", &[])))
        );
        assert_eq!(parse_line(b"\x01\x02\x03"), None);
        assert_eq!(
            preprocess(b"\tplay\tb\tc3\t"),
            Some("play b c3".to_string())
        );
    }

    #[test]
    fn ids_that_are_not_ids() {
        // `12abc` is a command name; `-5` too. Both are then unknown commands.
        assert_eq!(parse_line(b"12abc x"), Some(Ok(cmd(None, "12abc", &["x"]))));
        assert_eq!(parse_line(b"-5 name"), Some(Ok(cmd(None, "-5", &["name"]))));
    }

    #[test]
    fn malformed_lines() {
        // An id with no command after it echoes the id.
        assert_eq!(parse_line(b"5"), Some(Err(err(Some(5)))));
        assert_eq!(parse_line(b"5   # only an id"), Some(Err(err(Some(5)))));
        // An id beyond u32 cannot be echoed.
        assert_eq!(parse_line(b"4294967296 name"), Some(Err(err(None))));
        assert_eq!(
            parse_line(b"99999999999999999999999999999999 name"),
            Some(Err(err(None)))
        );
    }

    #[test]
    fn non_utf8_never_panics() {
        let parsed = parse_line(b"play b \xff\xfe").unwrap().unwrap();
        assert_eq!(parsed.name, "play");
        assert_eq!(parsed.args.len(), 2);
        assert!(parsed.args[1].contains('\u{fffd}'));
        let parsed = parse_line(b"\xc3(").unwrap().unwrap();
        assert_eq!(parsed.args.len(), 0);
        // Every single byte, alone and in context, parses to something or nothing.
        for b in 0..=255u8 {
            let _ = parse_line(&[b]);
            let _ = parse_line(&[b'1', b' ', b, b'x', b' ', b]);
        }
    }

    #[test]
    fn leading_id_of_a_prefix() {
        assert_eq!(leading_id(b"12 play b "), Some(12));
        assert_eq!(leading_id(b"12"), Some(12));
        assert_eq!(leading_id(b"  3\tplay"), Some(3));
        assert_eq!(leading_id(b"12abc"), None);
        assert_eq!(leading_id(b"play 12"), None);
        assert_eq!(leading_id(b"99999999999 x"), None);
        assert_eq!(leading_id(b"#5 x"), None);
    }
}
