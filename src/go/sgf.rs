//! SGF (FF[4], GM[1]) for Go: writing finished games and reading the main line of a file.
//!
//! Coordinates are `(col, row)` with row 0 at the *bottom*, as in GTP and
//! [`crate::protocol::coords`]. SGF counts rows from the top, so the row letter is
//! `size - 1 - row`. The reader is tolerant (whitespace anywhere, old-style lower-case
//! property names, variations, `tt` as pass) but never guesses a position: anything it cannot
//! place on the board is a typed [`SgfError`], and no input can make it panic.
use crate::color::Color;
use crate::go::board::{valid_size, Move, Point};
use crate::go::game::Game;
use std::fmt;

/// A point as 0-based (column, row), row 0 at the bottom.
pub type ColRow = (usize, usize);

/// SGF point letters: `a..z` then `A..Z`, so boards up to 52.
const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// Largest board an SGF point can name.
pub const MAX_SGF_SIZE: usize = LETTERS.len();

/// One Go game as plain data: what `loadsgf` needs and what a match writes.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfGame {
    pub size: usize,
    pub komi: f32,
    /// The `HA` property (0 when absent); the stones themselves are in `setup`.
    pub handicap: u32,
    /// Setup stones (`AB`/`AW` after `AE` removals), in file order.
    pub setup: Vec<(Color, ColRow)>,
    /// Moves of the main line; `None` is a pass.
    pub moves: Vec<(Color, Option<ColRow>)>,
    pub black_name: Option<String>,
    pub white_name: Option<String>,
    /// `DT`, e.g. `2026-12-01`.
    pub date: Option<String>,
    /// `RE`, e.g. `B+R`, `W+3.5`, `B+T`, `W+F`, `0`.
    pub result: Option<String>,
    /// `RU`; the writer prints `Chinese` when this is `None`.
    pub rules: Option<String>,
}

impl SgfGame {
    /// An empty record: default size 19 and komi 0, as the SGF specification says for a
    /// file without `SZ`/`KM`.
    pub fn new(size: usize, komi: f32) -> SgfGame {
        SgfGame {
            size,
            komi,
            handicap: 0,
            setup: Vec::new(),
            moves: Vec::new(),
            black_name: None,
            white_name: None,
            date: None,
            result: None,
            rules: None,
        }
    }

    /// The record of a game played through [`Game`]: its handicap stones as `AB` and its moves.
    pub fn from_game(game: &Game) -> SgfGame {
        let board = game.board();
        let mut rec = SgfGame::new(board.size(), game.komi());
        let handicap = game.handicap_stones();
        rec.handicap = handicap.len() as u32;
        rec.setup = handicap
            .iter()
            .map(|&p| (Color::Black, board.col_row(p)))
            .collect();
        rec.moves = game
            .moves()
            .iter()
            .map(|&(c, m)| match m {
                Move::Pass => (c, None),
                Move::Play(p) => (c, Some(board.col_row(p))),
            })
            .collect();
        rec
    }

    /// Replays the record into a [`Game`] (what GTP `loadsgf file [n]` needs): setup stones,
    /// then the moves before move number `until` (1-based; `None` plays them all). Black-only
    /// setup with `HA` becomes handicap (White to move). Errors: a size our rules do not play,
    /// overlapping setup, or an illegal move (its 1-based number).
    pub fn to_game(&self, until: Option<usize>) -> Result<Game, SgfError> {
        if !valid_size(self.size) || !self.komi.is_finite() {
            return Err(SgfError::Unsupported(format!("board size {}", self.size)));
        }
        let mut game = Game::new(self.size, self.komi);
        let board = game.board().clone();
        let setup: Vec<(Color, Point)> = self
            .setup
            .iter()
            .map(|&(c, (col, row))| (c, board.point(col, row)))
            .collect();
        let all_black = setup.iter().all(|&(c, _)| c == Color::Black);
        let placed = if !setup.is_empty() && all_black && self.handicap > 0 {
            let points: Vec<Point> = setup.iter().map(|&(_, p)| p).collect();
            game.set_handicap(&points)
        } else if !setup.is_empty() {
            game.add_setup(&setup)
        } else {
            Ok(())
        };
        placed.map_err(|_| SgfError::Unsupported("overlapping setup stones".into()))?;
        let count = until.map_or(self.moves.len(), |n| n.saturating_sub(1));
        for (i, &(color, mv)) in self.moves.iter().take(count).enumerate() {
            let mv = match mv {
                None => Move::Pass,
                Some((col, row)) => Move::Play(board.point(col, row)),
            };
            game.play(color, mv)
                .map_err(|_| SgfError::IllegalMove { number: i + 1 })?;
        }
        Ok(game)
    }

    /// The FF[4] text: root properties on the first line, handicap setup on the second,
    /// then ten moves a line. Passes are written `[]` (the FF[4] form, never `tt`).
    pub fn to_sgf(&self) -> String {
        let mut s = String::with_capacity(64 + self.moves.len() * 7);
        s.push_str("(;FF[4]GM[1]CA[UTF-8]AP[quartet:");
        s.push_str(env!("CARGO_PKG_VERSION"));
        s.push(']');
        s.push_str(&format!("SZ[{}]KM[{}]", self.size, self.komi));
        push_text(
            &mut s,
            "RU",
            Some(self.rules.as_deref().unwrap_or("Chinese")),
        );
        push_text(&mut s, "PB", self.black_name.as_deref());
        push_text(&mut s, "PW", self.white_name.as_deref());
        push_text(&mut s, "DT", self.date.as_deref());
        push_text(&mut s, "RE", self.result.as_deref());
        if self.handicap > 0 {
            s.push_str(&format!("HA[{}]", self.handicap));
        }
        for color in [Color::Black, Color::White] {
            let stones: Vec<ColRow> = self
                .setup
                .iter()
                .filter(|(c, _)| *c == color)
                .map(|&(_, p)| p)
                .collect();
            if !stones.is_empty() {
                s.push_str(if color == Color::Black {
                    "\nAB"
                } else {
                    "\nAW"
                });
                for p in stones {
                    s.push('[');
                    s.push_str(&self.point_text(p));
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
                s.push_str(&self.point_text(p));
            }
            s.push(']');
        }
        s.push_str(")\n");
        s
    }

    fn point_text(&self, (col, row): ColRow) -> String {
        let letter = |i: usize| LETTERS.get(i).map_or('?', |&b| b as char);
        let flipped = self.size.wrapping_sub(1).wrapping_sub(row);
        format!("{}{}", letter(col), letter(flipped))
    }
}

/// Writes `ID[value]` with `]` and `\` escaped; nothing when `value` is `None`.
fn push_text(s: &mut String, id: &str, value: Option<&str>) {
    if let Some(v) = value {
        s.push_str(id);
        s.push('[');
        for ch in v.chars() {
            if ch == ']' || ch == '\\' {
                s.push('\\');
            }
            s.push(ch);
        }
        s.push(']');
    }
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
    /// Valid SGF this reader does not handle (`GM[2]`, rectangular boards, setup after moves).
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

/// Reads the main line (the first variation at every branch) of the first game tree.
pub fn parse_sgf(text: &str) -> Result<SgfGame, SgfError> {
    let nodes = main_line(text)?;
    interpret(&nodes)
}

type Property = (String, Vec<String>);

/// Splits the first game tree into the nodes of its main line, without recursion (deeply
/// nested variations cannot overflow the stack). A tree is on the main line when its parent
/// is and it is the parent's first child tree.
fn main_line(text: &str) -> Result<Vec<Vec<Property>>, SgfError> {
    let bytes = text.as_bytes();
    let start = text.find('(').ok_or(SgfError::NoGameTree)?;
    let mut i = start;
    // For each open tree: is it on the main line, and how many child trees has it opened.
    let mut stack: Vec<(bool, usize)> = Vec::new();
    let mut nodes: Vec<Vec<Property>> = Vec::new();
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
                i += 1;
                let (props, next) = read_properties(text, i)?;
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
fn read_properties(text: &str, mut i: usize) -> Result<(Vec<Property>, usize), SgfError> {
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
        let mut values = Vec::new();
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
            let (value, next) = read_value(text, i + 1)?;
            values.push(value);
            i = next;
        }
        if values.is_empty() {
            let found = char_at(text, i);
            return Err(SgfError::Syntax { offset: i, found });
        }
        props.push((id, values));
    }
}

/// Reads a value body after `[` up to the unescaped `]`; `\x` stands for `x`.
fn read_value(text: &str, mut i: usize) -> Result<(String, usize), SgfError> {
    let bytes = text.as_bytes();
    let mut value = Vec::new();
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                let escaped = *bytes.get(i + 1).ok_or(SgfError::Truncated)?;
                // A soft line break (`\` + newline) disappears.
                if escaped != b'\n' && escaped != b'\r' {
                    value.push(escaped);
                }
                i += 2;
            }
            b']' => return Ok((String::from_utf8_lossy(&value).into_owned(), i + 1)),
            b => {
                value.push(b);
                i += 1;
            }
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

fn bad(property: &str, value: &str) -> SgfError {
    SgfError::BadValue {
        property: property.to_string(),
        value: value.to_string(),
    }
}

/// Turns the main-line nodes into an [`SgfGame`]. Root properties may appear in any node
/// before the first move (some editors split the root); setup after a move is unsupported.
fn interpret(nodes: &[Vec<Property>]) -> Result<SgfGame, SgfError> {
    let mut rec = SgfGame::new(19, 0.0);
    // SZ decides how points read, so it is found before anything else.
    for (id, values) in nodes.iter().flatten() {
        if id == "SZ" {
            rec.size = parse_size(&values[0])?;
            break;
        }
    }
    for node in nodes {
        for (id, values) in node {
            let first = values[0].trim();
            match id.as_str() {
                "GM" if first != "1" => {
                    return Err(SgfError::Unsupported(format!("GM[{first}] is not Go")))
                }
                "KM" => rec.komi = first.parse().map_err(|_| bad(id, first))?,
                "HA" => rec.handicap = first.parse().map_err(|_| bad(id, first))?,
                "PB" => rec.black_name = Some(values[0].clone()),
                "PW" => rec.white_name = Some(values[0].clone()),
                "DT" => rec.date = Some(values[0].clone()),
                "RE" => rec.result = Some(values[0].clone()),
                "RU" => rec.rules = Some(values[0].clone()),
                "AB" | "AW" | "AE" => {
                    if !rec.moves.is_empty() {
                        return Err(SgfError::Unsupported(format!("{id} after the first move")));
                    }
                    for v in values {
                        for p in point_list(v, rec.size, id)? {
                            rec.setup.retain(|&(_, q)| q != p);
                            match id.as_str() {
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
                    let mv = move_point(first, rec.size).ok_or_else(|| bad(id, first))?;
                    rec.moves.push((color, mv));
                }
                _ => {}
            }
        }
    }
    Ok(rec)
}

/// `SZ[n]`, or `SZ[n:n]`; rectangular boards are not Go as quartet plays it.
fn parse_size(v: &str) -> Result<usize, SgfError> {
    let v = v.trim();
    let (a, b) = v.split_once(':').unwrap_or((v, v));
    let (a, b): (usize, usize) = (
        a.trim().parse().map_err(|_| bad("SZ", v))?,
        b.trim().parse().map_err(|_| bad("SZ", v))?,
    );
    if a != b {
        return Err(SgfError::Unsupported(format!("rectangular board SZ[{v}]")));
    }
    if a == 0 || a > MAX_SGF_SIZE {
        return Err(bad("SZ", v));
    }
    Ok(a)
}

fn letter_index(b: u8) -> Option<usize> {
    LETTERS.iter().position(|&l| l == b)
}

/// One on-board point from two letters.
fn point(v: &str, size: usize) -> Option<ColRow> {
    let b = v.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let (col, top_row) = (letter_index(b[0])?, letter_index(b[1])?);
    if col >= size || top_row >= size {
        return None;
    }
    Some((col, size - 1 - top_row))
}

/// A move value: empty or (on boards up to 19) `tt` is a pass.
fn move_point(v: &str, size: usize) -> Option<Option<ColRow>> {
    if v.is_empty() || (v == "tt" && size <= 19) {
        return Some(None);
    }
    point(v, size).map(Some)
}

/// A point or an FF[4] compressed rectangle `aa:cc`.
fn point_list(v: &str, size: usize, id: &str) -> Result<Vec<ColRow>, SgfError> {
    let v = v.trim();
    let Some((a, b)) = v.split_once(':') else {
        return point(v, size).map(|p| vec![p]).ok_or_else(|| bad(id, v));
    };
    let (p, q) = (
        point(a, size).ok_or_else(|| bad(id, v))?,
        point(b, size).ok_or_else(|| bad(id, v))?,
    );
    let mut out = Vec::new();
    for col in p.0.min(q.0)..=p.0.max(q.0) {
        for row in p.1.min(q.1)..=p.1.max(q.1) {
            out.push((col, row));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::board::Move;
    use Color::{Black as B, White as W};

    fn header() -> String {
        format!(
            "(;FF[4]GM[1]CA[UTF-8]AP[quartet:{}]",
            env!("CARGO_PKG_VERSION")
        )
    }

    /// C7, E5, pass, A1, J9 on 9x9: SGF letters worked out by hand (row letter from the top).
    #[test]
    fn writes_moves_passes_and_result() {
        let mut rec = SgfGame::new(9, 7.5);
        rec.black_name = Some("gnu".into());
        rec.white_name = Some("quartet]x".into());
        rec.date = Some("2026-12-01".into());
        rec.result = Some("W+3.5".into());
        rec.moves = vec![
            (B, Some((2, 6))),
            (W, Some((4, 4))),
            (B, None),
            (W, Some((0, 0))),
            (B, Some((8, 8))),
        ];
        let expected = header()
            + "SZ[9]KM[7.5]RU[Chinese]PB[gnu]PW[quartet\\]x]DT[2026-12-01]RE[W+3.5]\n\
               ;B[cc];W[ee];B[];W[ai];B[ia])\n";
        assert_eq!(rec.to_sgf(), expected);
    }

    #[test]
    fn writes_handicap_setup_and_breaks_lines_every_ten_moves() {
        let mut rec = SgfGame::new(9, 0.5);
        rec.handicap = 2;
        rec.setup = vec![(B, (2, 2)), (B, (6, 6))];
        rec.result = Some("B+R".into());
        rec.moves = vec![(W, None); 11];
        let expected = header()
            + "SZ[9]KM[0.5]RU[Chinese]RE[B+R]HA[2]\nAB[cg][gc]\n\
               ;W[];W[];W[];W[];W[];W[];W[];W[];W[];W[]\n;W[])\n";
        assert_eq!(rec.to_sgf(), expected);
    }

    #[test]
    fn from_game_uses_gtp_orientation() {
        let mut game = Game::new(5, 7.0);
        let b = game.board().clone();
        // A1 (bottom left) is SGF `ae`; E5 (top right) is `ea`.
        game.play(B, Move::Play(b.point(0, 0))).unwrap();
        game.play(W, Move::Play(b.point(4, 4))).unwrap();
        game.play(B, Move::Pass).unwrap();
        let text = SgfGame::from_game(&game).to_sgf();
        assert!(
            text.ends_with("SZ[5]KM[7]RU[Chinese]\n;B[ae];W[ea];B[])\n"),
            "{text}"
        );
    }

    /// A hand-written file: escaped bracket, split lines, a variation (first one followed),
    /// an empty pass and a `tt` pass, old-style lower-case property names.
    #[test]
    fn reads_main_line_of_a_real_file() {
        let text = "garbage before (;FF[4]GM[1]SZ[9]KM[6.5]HA[2]AB[cg][gc]\n\
                    C[a comment with \\] bracket]  PB[Black \\\\ Player]\n\
                    ;W[ee]C[main]\n\
                    (;B[dd]\n;W[]\n;Black[tt])\n\
                    (;B[aa];W[bb]))\n(;B[cc])";
        let rec = parse_sgf(text).unwrap();
        assert_eq!(rec.size, 9);
        assert_eq!(rec.komi, 6.5);
        assert_eq!(rec.handicap, 2);
        assert_eq!(rec.black_name.as_deref(), Some("Black \\ Player"));
        assert_eq!(rec.setup, vec![(B, (2, 2)), (B, (6, 6))]);
        assert_eq!(
            rec.moves,
            vec![(W, Some((4, 4))), (B, Some((3, 5))), (W, None), (B, None)]
        );
    }

    #[test]
    fn reads_rectangles_and_removals() {
        let rec = parse_sgf("(;SZ[5]AB[aa:bb]AW[ee]AE[ab])").unwrap();
        // aa:bb covers a5 b5 a4 b4; AE[ab] removes a4.
        let mut setup = rec.setup.clone();
        setup.sort_by_key(|&(_, p)| p);
        assert_eq!(
            setup,
            vec![(B, (0, 4)), (B, (1, 3)), (B, (1, 4)), (W, (4, 0))]
        );
        assert_eq!(rec.komi, 0.0);
        // No SZ: 19x19, where `tt` is a pass and `ss` the bottom-right corner.
        let rec = parse_sgf("(;B[ss];W[tt])").unwrap();
        assert_eq!(rec.size, 19);
        assert_eq!(rec.moves, vec![(B, Some((18, 0))), (W, None)]);
    }

    #[test]
    fn round_trip() {
        let mut rec = SgfGame::new(13, 6.5);
        rec.handicap = 1;
        rec.setup = vec![(B, (3, 3)), (W, (9, 9))];
        rec.black_name = Some("a [b] \\c".into());
        rec.white_name = Some("w".into());
        rec.result = Some("B+T".into());
        rec.date = Some("2026-12-01".into());
        rec.rules = Some("Chinese".into());
        rec.moves = (0..25)
            .map(|i| {
                let c = if i % 2 == 0 { B } else { W };
                (
                    c,
                    if i % 7 == 3 {
                        None
                    } else {
                        Some((i % 13, i / 2))
                    },
                )
            })
            .collect();
        assert_eq!(parse_sgf(&rec.to_sgf()).unwrap(), rec);
    }

    #[test]
    fn garbage_and_truncation_are_errors() {
        let t = |s: &str| parse_sgf(s).unwrap_err();
        assert_eq!(t(""), SgfError::NoGameTree);
        assert_eq!(t("hello"), SgfError::NoGameTree);
        assert_eq!(t("(;SZ[9];B[aa]"), SgfError::Truncated);
        assert_eq!(t("(;SZ[9];B[a"), SgfError::Truncated);
        assert_eq!(t("(;SZ[9]C[abc\\"), SgfError::Truncated);
        assert_eq!(t("(;SZ[9]B"), SgfError::Truncated);
        assert_eq!(t(&"(".repeat(100_000)), SgfError::Truncated);
        assert_eq!(
            t("(;SZ[9]B;)"),
            SgfError::Syntax {
                offset: 8,
                found: ';'
            }
        );
        assert_eq!(
            t("(;SZ[9]é)"),
            SgfError::Syntax {
                offset: 7,
                found: 'é'
            }
        );
        assert_eq!(t("(;SZ[abc])"), bad("SZ", "abc"));
        assert_eq!(t("(;SZ[0])"), bad("SZ", "0"));
        assert_eq!(t("(;SZ[9];B[zz])"), bad("B", "zz"));
        assert_eq!(t("(;SZ[9];B[j])"), bad("B", "j"));
        assert_eq!(t("(;SZ[9]KM[seven])"), bad("KM", "seven"));
        assert!(matches!(t("(;GM[2]SZ[8])"), SgfError::Unsupported(_)));
        assert!(matches!(t("(;SZ[9:7])"), SgfError::Unsupported(_)));
        assert!(matches!(t("(;B[aa];AB[bb])"), SgfError::Unsupported(_)));
    }

    /// loadsgf semantics: `until = n` stops before move n; handicap gives White the move.
    #[test]
    fn replays_into_a_game() {
        let text = "(;SZ[9]KM[0.5]HA[2]AB[cg][gc];W[ee];B[dd];W[];B[aa])";
        let rec = parse_sgf(text).unwrap();
        let g = rec.to_game(None).unwrap();
        assert_eq!(g.moves().len(), 4);
        assert_eq!(g.handicap_stones().len(), 2);
        assert_eq!(g.board().stone(g.board().point(2, 2)), Some(B));
        assert_eq!(g.board().stone(g.board().point(0, 8)), Some(B));
        let g = rec.to_game(Some(2)).unwrap();
        assert_eq!(g.moves().len(), 1);
        assert_eq!(g.to_move(), B);
        let g = rec.to_game(Some(1)).unwrap();
        assert_eq!((g.moves().len(), g.to_move()), (0, W));
        assert_eq!(rec.to_game(Some(0)).unwrap().moves().len(), 0);
        // Playing on an occupied point (move 2 here) is reported by number.
        let bad = parse_sgf("(;SZ[9];B[ee];W[ee])").unwrap();
        assert_eq!(
            bad.to_game(None).err(),
            Some(SgfError::IllegalMove { number: 2 })
        );
        let big = parse_sgf("(;SZ[25])").unwrap();
        assert!(matches!(big.to_game(None), Err(SgfError::Unsupported(_))));
        let mixed = parse_sgf("(;SZ[5]AB[aa]AW[bb];B[cc])").unwrap();
        let g = mixed.to_game(None).unwrap();
        assert_eq!(g.board().stone(g.board().point(1, 3)), Some(W));
    }

    /// Pseudo-random bytes drawn from SGF's own alphabet must give a value or an error.
    #[test]
    fn random_input_never_panics() {
        let alphabet = b"();[]\\:abtzBWSZKMAHE19 \n\xc3\xa9";
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..3000 {
            let mut bytes = vec![b'(', b';'];
            for _ in 0..(x % 60) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                bytes.push(alphabet[(x % alphabet.len() as u64) as usize]);
            }
            let text = String::from_utf8_lossy(&bytes);
            let _ = parse_sgf(&text);
        }
    }
}
