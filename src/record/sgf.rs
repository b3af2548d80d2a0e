//! SGF (FF[4]) for every game quartet records in it: Go (`GM[1]`), Othello (`GM[2]`) and
//! Gomoku (`GM[4]`). One writer and one reader of the main line, with the escaping the
//! specification asks for: `\` and `]` in every property value, and `:` as well in each part
//! of a composed value (`AP[name:version]`).
//!
//! Points are `(x, y)` counted from the top-left corner, written with the letters `a..z`
//! then `A..Z` (boards up to 52). What a game reads into them (Go counts rows from the
//! bottom, has komi and handicap) lives with the game, e.g. `crate::go::sgf`.
//!
//! The reader is tolerant (whitespace anywhere, old-style lower-case property names,
//! variations, `tt` as a Go pass) but never guesses: anything it cannot place is a typed
//! [`SgfError`]. It works without recursion, so no input can make it panic or overflow the
//! stack.
// Hand-written, not the sgf-parse crate: it nests one level per node (a long game overflows the stack) and loses `\:` in composed values.
use crate::color::Color;
use std::fmt;

/// SGF point letters: `a..z` then `A..Z`, so boards up to 52.
const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// Largest board an SGF point can name.
pub const MAX_SGF_SIZE: usize = LETTERS.len();

/// A point as 0-based (x, y), y = 0 at the top.
pub type SgfPoint = (usize, usize);

/// A Text or SimpleText property value with `\` and `]` escaped. Line breaks stay as they
/// are (a SimpleText reader shows them as spaces).
pub fn escape(value: &str) -> String {
    escape_chars(value, &['\\', ']'])
}

/// One part of a composed value (`AP[quartet:1.0]`, `LB[aa:text]`): `:` is escaped too, so
/// the reader finds the separator.
pub fn escape_composed(part: &str) -> String {
    escape_chars(part, &['\\', ']', ':'])
}

fn escape_chars(value: &str, special: &[char]) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    for c in value.chars() {
        if special.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The text of a raw (escaped) value: `\x` stands for `x`, and a soft line break (`\` before
/// a line break: `\n`, `\r`, `\r\n` or `\n\r`) disappears.
pub fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(first @ ('\n' | '\r')) => {
                let pair = if first == '\n' { '\r' } else { '\n' };
                if chars.peek() == Some(&pair) {
                    chars.next();
                }
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// Splits a raw composed value at its first unescaped `:`; both parts stay raw.
pub fn split_composed(raw: &str) -> Option<(&str, &str)> {
    let mut escaped = false;
    for (i, c) in raw.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            ':' => return Some((&raw[..i], &raw[i + 1..])),
            _ => {}
        }
    }
    None
}

/// The two letters of a point on a board of up to [`MAX_SGF_SIZE`].
pub fn point_text((x, y): SgfPoint) -> String {
    debug_assert!(
        x < MAX_SGF_SIZE && y < MAX_SGF_SIZE,
        "({x}, {y}) has no SGF name"
    );
    let letter = |i: usize| LETTERS.get(i).map_or('?', |&b| b as char);
    format!("{}{}", letter(x), letter(y))
}

fn letter_index(b: u8) -> Option<usize> {
    LETTERS.iter().position(|&l| l == b)
}

/// A point on a `size` board from its two letters.
pub fn parse_point(v: &str, size: usize) -> Option<SgfPoint> {
    let b = v.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let (x, y) = (letter_index(b[0])?, letter_index(b[1])?);
    (x < size && y < size).then_some((x, y))
}

/// Why a file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfError {
    /// No `(` starting a game tree.
    NoGameTree,
    /// The text ends inside a value or before the first game tree is closed.
    Truncated,
    /// A character that has no place in SGF at byte `offset`.
    Syntax { offset: usize, found: char },
    /// A property whose value cannot be used (`SZ[abc]`, a point off the board...).
    BadValue { property: String, value: String },
    /// Valid SGF this reader does not handle (another game, rectangular boards, setup
    /// after moves).
    Unsupported(String),
    /// Replaying the record hit an illegal move (1-based move number).
    IllegalMove { number: usize },
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfError::NoGameTree => f.write_str("no SGF game tree"),
            SgfError::Truncated => f.write_str("truncated SGF"),
            SgfError::Syntax { offset, found } => {
                write!(f, "SGF syntax error at byte {offset}: unexpected {found:?}")
            }
            SgfError::BadValue { property, value } => {
                write!(f, "bad SGF value {property}[{value}]")
            }
            SgfError::Unsupported(what) => write!(f, "unsupported SGF: {what}"),
            SgfError::IllegalMove { number } => write!(f, "illegal move number {number} in SGF"),
        }
    }
}

impl std::error::Error for SgfError {}

/// `BadValue` for `property[value]`.
pub fn bad(property: &str, value: &str) -> SgfError {
    SgfError::BadValue {
        property: property.to_string(),
        value: value.to_string(),
    }
}

/// A property as read: its identifier (capitals only) and its values, still escaped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    pub id: String,
    /// Never empty.
    pub raw: Vec<String>,
}

impl Property {
    /// The text of the first value.
    pub fn text(&self) -> String {
        unescape(&self.raw[0])
    }
}

/// One node of the main line.
pub type Node = Vec<Property>;

/// Splits the first game tree into the nodes of its main line (the first variation at every
/// branch), without recursion: deeply nested variations cannot overflow the stack. A tree
/// is on the main line when its parent is and it is the parent's first child tree.
pub fn main_line(text: &str) -> Result<Vec<Node>, SgfError> {
    let bytes = text.as_bytes();
    let start = text.find('(').ok_or(SgfError::NoGameTree)?;
    let mut i = start;
    // For each open tree: is it on the main line, and how many child trees has it opened.
    let mut stack: Vec<(bool, usize)> = Vec::new();
    let mut nodes: Vec<Node> = Vec::new();
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'(' => {
                let on_main = match stack.last_mut() {
                    None => true,
                    Some((parent_main, children)) => {
                        *children += 1;
                        *parent_main && *children == 1
                    }
                };
                stack.push((on_main, 0));
                i += 1;
            }
            b')' => {
                stack.pop();
                if stack.is_empty() {
                    return Ok(nodes);
                }
                i += 1;
            }
            b';' => {
                let (on_main, children) = *stack.last().ok_or(SgfError::Truncated)?;
                let (props, next) = read_properties(text, i + 1)?;
                // Nodes after a child tree are malformed; tolerate them by ignoring.
                if on_main && children == 0 {
                    nodes.push(props);
                }
                i = next;
            }
            _ if b.is_ascii_whitespace() => i += 1,
            _ => {
                let found = char_at(text, i);
                return Err(SgfError::Syntax { offset: i, found });
            }
        }
    }
    Err(SgfError::Truncated)
}

/// Reads the properties of one node starting at byte `i`; returns them and the offset of the
/// first byte after the node.
fn read_properties(text: &str, mut i: usize) -> Result<(Node, usize), SgfError> {
    let bytes = text.as_bytes();
    let mut props = Vec::new();
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= bytes.len() {
            return Err(SgfError::Truncated);
        }
        if !bytes[i].is_ascii_alphabetic() {
            return Ok((props, i));
        }
        // FF[3] allowed lower-case letters in names (`AddBlack`); only capitals count.
        let mut id = String::new();
        while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
            if bytes[i].is_ascii_uppercase() {
                id.push(bytes[i] as char);
            }
            i += 1;
        }
        let mut raw = Vec::new();
        loop {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            if i >= bytes.len() {
                return Err(SgfError::Truncated);
            }
            if bytes[i] != b'[' {
                break;
            }
            let end = value_end(bytes, i + 1)?;
            // `[` and `]` are ASCII, so both ends are character boundaries.
            raw.push(text[i + 1..end].to_string());
            i = end + 1;
        }
        if raw.is_empty() {
            let found = char_at(text, i);
            return Err(SgfError::Syntax { offset: i, found });
        }
        props.push(Property { id, raw });
    }
}

/// The offset of the `]` closing a value that starts at byte `i`.
fn value_end(bytes: &[u8], mut i: usize) -> Result<usize, SgfError> {
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b']' => return Ok(i),
            _ => i += 1,
        }
    }
    Err(SgfError::Truncated)
}

/// The character at byte `offset`, for error messages; never panics on a non-boundary.
fn char_at(text: &str, offset: usize) -> char {
    text.get(offset..)
        .and_then(|s| s.chars().next())
        .unwrap_or('?')
}

/// The main line of one game on a square board, as SGF holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfRecord {
    /// `GM`: 1 Go, 2 Othello, 4 Gomoku.
    pub game: u32,
    pub size: usize,
    /// Other properties of the game (`KM`, `RU`, `PB`, `PW`, `DT`, `RE`, ...) as text, in
    /// the order they are written. The writer adds `FF`, `GM`, `CA`, `AP` and `SZ` itself.
    pub info: Vec<(String, String)>,
    /// Setup stones (`AB`/`AW` after `AE` removals), in file order.
    pub setup: Vec<(Color, SgfPoint)>,
    /// Moves of the main line; `None` is a pass.
    pub moves: Vec<(Color, Option<SgfPoint>)>,
}

/// The size a record without `SZ` has: 19 for Go, 8 for Othello, 15 for Gomoku (the SGF
/// specification's defaults), 19 otherwise.
fn default_size(game: u32) -> usize {
    match game {
        2 => 8,
        4 => 15,
        _ => 19,
    }
}

/// Properties the record holds in its own fields.
const STRUCTURAL: [&str; 5] = ["FF", "GM", "CA", "AP", "SZ"];

impl SgfRecord {
    pub fn new(game: u32, size: usize) -> SgfRecord {
        SgfRecord {
            game,
            size,
            info: Vec::new(),
            setup: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// The text of a game-info property, if present.
    pub fn info(&self, id: &str) -> Option<&str> {
        self.info
            .iter()
            .find(|(k, _)| k == id)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a game-info property (replacing an earlier value, else appending).
    pub fn set_info(&mut self, id: &str, value: impl Into<String>) {
        let value = value.into();
        match self.info.iter_mut().find(|(k, _)| k == id) {
            Some(slot) => slot.1 = value,
            None => self.info.push((id.to_string(), value)),
        }
    }

    /// The FF[4] text: root properties on the first line, setup stones on the next, then
    /// ten moves a line. Passes are written `[]` (the FF[4] form, never `tt`).
    pub fn to_sgf(&self) -> String {
        let mut s = String::with_capacity(128 + self.moves.len() * 7);
        s.push_str(&format!(
            "(;FF[4]GM[{}]CA[UTF-8]AP[{}:{}]SZ[{}]",
            self.game,
            escape_composed("quartet"),
            escape_composed(env!("CARGO_PKG_VERSION")),
            self.size
        ));
        for (id, value) in &self.info {
            s.push_str(id);
            s.push('[');
            s.push_str(&escape(value));
            s.push(']');
        }
        for (color, id) in [(Color::Black, "\nAB"), (Color::White, "\nAW")] {
            let mut stones = self.setup.iter().filter(|(c, _)| *c == color).peekable();
            if stones.peek().is_some() {
                s.push_str(id);
                for &(_, p) in stones {
                    s.push('[');
                    s.push_str(&point_text(p));
                    s.push(']');
                }
            }
        }
        for (i, &(color, mv)) in self.moves.iter().enumerate() {
            if i % 10 == 0 {
                s.push('\n');
            }
            s.push(';');
            s.push(color.letter());
            s.push('[');
            if let Some(p) = mv {
                s.push_str(&point_text(p));
            }
            s.push(']');
        }
        s.push_str(")\n");
        s
    }

    /// Reads the main line of the first game tree. Game info may sit in any node (some
    /// editors split the root); setup after the first move is unsupported.
    pub fn parse(text: &str) -> Result<SgfRecord, SgfError> {
        let nodes = main_line(text)?;
        // GM and SZ decide how points read, so they are found before anything else.
        let first = |id: &str| nodes.iter().flatten().find(|p| p.id == id);
        let game = match first("GM") {
            None => 1,
            Some(p) => {
                let v = p.text();
                v.trim().parse().map_err(|_| bad("GM", v.trim()))?
            }
        };
        let size = match first("SZ") {
            None => default_size(game),
            Some(p) => parse_size(&p.raw[0])?,
        };
        let mut rec = SgfRecord::new(game, size);
        for prop in nodes.iter().flatten() {
            let id = prop.id.as_str();
            match id {
                "AB" | "AW" | "AE" => {
                    if !rec.moves.is_empty() {
                        return Err(SgfError::Unsupported(format!("{id} after the first move")));
                    }
                    for v in &prop.raw {
                        for p in point_list(v, size, id)? {
                            rec.setup.retain(|&(_, q)| q != p);
                            match id {
                                "AB" => rec.setup.push((Color::Black, p)),
                                "AW" => rec.setup.push((Color::White, p)),
                                _ => {}
                            }
                        }
                    }
                }
                "B" | "W" => {
                    let color = if id == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let v = unescape(prop.raw[0].trim());
                    let mv = rec.move_point(&v).ok_or_else(|| bad(id, &v))?;
                    rec.moves.push((color, mv));
                }
                // Lower-case-only names (`b[..]`) are no FF[4] property.
                _ if id.is_empty() || STRUCTURAL.contains(&id) => {}
                _ => rec.set_info(id, prop.text()),
            }
        }
        Ok(rec)
    }

    /// A move value: empty is a pass, and so is `tt` in Go on boards up to 19.
    fn move_point(&self, v: &str) -> Option<Option<SgfPoint>> {
        if v.is_empty() || (self.game == 1 && v == "tt" && self.size <= 19) {
            return Some(None);
        }
        parse_point(v, self.size).map(Some)
    }
}

/// `SZ[n]`, or `SZ[n:n]`; rectangular boards are not played here.
fn parse_size(raw: &str) -> Result<usize, SgfError> {
    let v = unescape(raw.trim());
    let (a, b) = split_composed(raw.trim())
        .map(|(a, b)| (unescape(a), unescape(b)))
        .unwrap_or((v.clone(), v.clone()));
    let (a, b): (usize, usize) = (
        a.trim().parse().map_err(|_| bad("SZ", &v))?,
        b.trim().parse().map_err(|_| bad("SZ", &v))?,
    );
    if a != b {
        return Err(SgfError::Unsupported(format!("rectangular board SZ[{v}]")));
    }
    if a == 0 || a > MAX_SGF_SIZE {
        return Err(bad("SZ", &v));
    }
    Ok(a)
}

/// A point or an FF[4] compressed rectangle `aa:cc`.
fn point_list(raw: &str, size: usize, id: &str) -> Result<Vec<SgfPoint>, SgfError> {
    let raw = raw.trim();
    let Some((a, b)) = split_composed(raw) else {
        let v = unescape(raw);
        return parse_point(&v, size)
            .map(|p| vec![p])
            .ok_or_else(|| bad(id, &v));
    };
    let whole = || bad(id, &unescape(raw));
    let (p, q) = (
        parse_point(&unescape(a), size).ok_or_else(whole)?,
        parse_point(&unescape(b), size).ok_or_else(whole)?,
    );
    let mut out = Vec::new();
    for x in p.0.min(q.0)..=p.0.max(q.0) {
        for y in p.1.min(q.1)..=p.1.max(q.1) {
            out.push((x, y));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black as B, White as W};

    /// The escaping rules of the SGF specification (sgf4 "Text"), applied by hand.
    #[test]
    fn escaping_by_the_specification() {
        assert_eq!(escape(r"a]x\y"), r"a\]x\\y");
        assert_eq!(escape("plain: text\n[2]"), "plain: text\n[2\\]");
        assert_eq!(escape_composed("a:b]"), r"a\:b\]");
        assert_eq!(unescape(r"a\]x\\y"), r"a]x\y");
        // A soft line break vanishes in all four spellings; `\:` and `\a` are the letters.
        assert_eq!(
            unescape("one\\\ntwo\\\r\nthree\\\rfour\\\n\rfive"),
            "onetwothreefourfive"
        );
        assert_eq!(unescape(r"\:\a"), ":a");
        assert_eq!(unescape("trailing\\"), "trailing");
        for s in [r"a]x\y", "ü\n碁 \\]\\", "", "\\\n", ":]:"] {
            assert_eq!(unescape(&escape(s)), s);
            let (a, b) = (escape_composed(s), escape_composed("v:1"));
            let joined = format!("{a}:{b}");
            let (x, y) = split_composed(&joined).unwrap();
            assert_eq!(
                (unescape(x), unescape(y)),
                (s.to_string(), "v:1".to_string())
            );
        }
        assert_eq!(split_composed(r"aa\:bb"), None);
        assert_eq!(split_composed(r"a\\:b"), Some((r"a\\", "b")));
    }

    /// A Gomoku record round-trips with every kind of name, and its text escapes exactly
    /// the characters the specification names.
    #[test]
    fn gomoku_record_round_trip() {
        let mut rec = SgfRecord::new(4, 15);
        rec.set_info("PB", "a]x\\y");
        rec.set_info("PW", "zwei\nZeilen ü 碁");
        rec.set_info("RE", "B+");
        rec.moves = vec![(B, Some((7, 7))), (W, Some((0, 14))), (B, Some((14, 0)))];
        let text = rec.to_sgf();
        assert!(text.contains(r"PB[a\]x\\y]PW[zwei"), "{text}");
        assert!(text.ends_with("\n;B[hh];W[ao];B[oa])\n"), "{text}");
        assert_eq!(SgfRecord::parse(&text).unwrap(), rec);
    }

    #[test]
    fn default_sizes_and_passes() {
        let go = SgfRecord::parse("(;B[ss];W[tt])").unwrap();
        assert_eq!((go.game, go.size), (1, 19));
        assert_eq!(go.moves, vec![(B, Some((18, 18))), (W, None)]);
        let gomoku = SgfRecord::parse("(;GM[4];B[oo];W[])").unwrap();
        assert_eq!((gomoku.game, gomoku.size), (4, 15));
        assert_eq!(gomoku.moves, vec![(B, Some((14, 14))), (W, None)]);
        // `tt` is a pass only in Go.
        assert_eq!(
            SgfRecord::parse("(;GM[4]SZ[19];B[tt])"),
            Err(bad("B", "tt"))
        );
        assert_eq!(SgfRecord::parse("(;GM[x])"), Err(bad("GM", "x")));
        assert_eq!(SgfRecord::parse("(;SZ[53])"), Err(bad("SZ", "53")));
        assert_eq!(
            SgfRecord::parse("(;SZ[99999999999999999999999])"),
            Err(bad("SZ", "99999999999999999999999"))
        );
    }
}
