//! GGF game records of Othello (the format of GGS and of NBoard's `set game`):
//! `(;GM[Othello]PC[..]PB[..]PW[..]TY[8]BO[8 <64 squares> <side>]B[d3//0.01]W[c5];)`.
//!
//! The record is a list of `KEY[value]` properties between `(;` and `;)`. `BO` is the start
//! position (size 8, 64 squares `-` empty / `*` black / `O` white, row by row from a1,
//! then `*` or `O` for the side to move); `B` and `W` are moves `square[/eval[/time]]`
//! with `PA` for a pass. Other properties are kept, in order, so a record is written back
//! as it was read. Every move is replayed through the rules, so a parsed game is legal.
use super::bitboard::{parse_square, square_name};
use super::board::Board;
use crate::color::Color;
use std::fmt;

/// One `B[..]` / `W[..]` move.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfMove {
    pub color: Color,
    /// `None` for a pass (`PA`).
    pub square: Option<usize>,
    /// The evaluation and time fields as written (empty when absent).
    pub eval: String,
    pub time: String,
}

impl GgfMove {
    /// `F5`, `F5/1.00/0.5` or `PA`: the text inside the brackets.
    pub fn text(&self) -> String {
        let mv = self
            .square
            .map(|s| square_name(s).to_ascii_uppercase())
            .unwrap_or_else(|| "PA".into());
        match (self.eval.is_empty(), self.time.is_empty()) {
            (true, true) => mv,
            (false, true) => format!("{mv}/{}", self.eval),
            _ => format!("{mv}/{}/{}", self.eval, self.time),
        }
    }
}

/// A parsed record: its start position, its moves, and the position they lead to.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    /// Properties other than `BO`, `B`, `W`, in order (`GM`, `PC`, `PB`, `DT`, ...).
    pub props: Vec<(String, String)>,
    pub start: Board,
    pub start_to_move: Color,
    pub moves: Vec<GgfMove>,
    /// The position after the moves, and whose turn it is there.
    pub board: Board,
    pub to_move: Color,
}

/// Why a record was rejected: where (byte offset and column in the record, which holds
/// no line ends when NBoard sends it, else the line too) and in which property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GgfError {
    pub line: usize,
    pub column: usize,
    pub offset: usize,
    pub field: Option<String>,
    pub message: String,
}

impl fmt::Display for GgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad GGF at line {}, column {} (offset {})",
            self.line, self.column, self.offset
        )?;
        if let Some(k) = &self.field {
            write!(f, ", field {k}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for GgfError {}

impl GgfGame {
    /// A game from the standard start with no moves.
    pub fn new() -> GgfGame {
        GgfGame {
            props: vec![("GM".into(), "Othello".into()), ("TY".into(), "8".into())],
            start: Board::start(),
            start_to_move: Color::Black,
            moves: Vec::new(),
            board: Board::start(),
            to_move: Color::Black,
        }
    }

    /// Parses one record (surrounding whitespace allowed).
    pub fn parse(text: &str) -> Result<GgfGame, GgfError> {
        Parser { text, pos: 0 }.game()
    }

    /// Plays `mv` for the side to move if it is legal (a pass only when the side to move
    /// has no move and the game is not over); the game is unchanged otherwise.
    pub fn play(&mut self, mv: GgfMove) -> Result<(), String> {
        let (board, to_move) = apply(self.board, self.to_move, &mv)?;
        self.board = board;
        self.to_move = to_move;
        self.moves.push(mv);
        Ok(())
    }

    /// The record in GGF, properties in their order, then `BO`, then the moves. Values are
    /// written as read: GGF has no escape character (a value ends at the first `]`, and a
    /// `\` in an NBoard path is a letter), so SGF's escaping would change them.
    pub fn to_ggf(&self) -> String {
        let mut s = String::from("(;");
        for (k, v) in &self.props {
            s.push_str(&format!("{k}[{v}]"));
        }
        let (b, w) = self.start.colors(self.start_to_move);
        let squares: String = (0..64)
            .map(|i| {
                if b >> i & 1 != 0 {
                    '*'
                } else if w >> i & 1 != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect();
        let side = if self.start_to_move == Color::Black {
            '*'
        } else {
            'O'
        };
        s.push_str(&format!("BO[8 {squares} {side}]"));
        for m in &self.moves {
            s.push_str(&format!("{}[{}]", m.color.letter(), m.text()));
        }
        s.push_str(";)");
        s
    }
}

impl Default for GgfGame {
    fn default() -> Self {
        GgfGame::new()
    }
}

/// The records of a GGF file (a GGS archive holds many): each `(;` ... `;)`, in order.
pub fn records(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let start = rest.find("(;")?;
        let len = rest[start..].find(";)").map(|e| e + 2)?;
        let rec = &rest[start..start + len];
        rest = &rest[start + len..];
        Some(rec)
    })
}

/// Parses `F5`, `f5/1.00/0.5`, `PA` (pass) for `color`.
pub fn parse_move(color: Color, text: &str) -> Result<GgfMove, String> {
    let mut parts = text.splitn(3, '/');
    let mv = parts.next().unwrap_or("").trim();
    let eval = parts.next().unwrap_or("").trim().to_string();
    let time = parts.next().unwrap_or("").trim().to_string();
    for (name, v) in [("eval", &eval), ("time", &time)] {
        if !v.is_empty() && v.parse::<f64>().is_err() {
            return Err(format!("{name} '{v}' is not a number"));
        }
    }
    let square = if mv.eq_ignore_ascii_case("pa") || mv.eq_ignore_ascii_case("pass") {
        None
    } else {
        Some(parse_square(mv).ok_or_else(|| format!("'{mv}' is not a square a1..h8 or PA"))?)
    };
    Ok(GgfMove {
        color,
        square,
        eval,
        time,
    })
}

/// The position after `mv`. A move by the side not to move is accepted only when the
/// side to move has to pass (records may leave the pass out).
fn apply(board: Board, to_move: Color, mv: &GgfMove) -> Result<(Board, Color), String> {
    if board.is_game_over() {
        return Err("the game is already over".into());
    }
    let (board, to_move) = if mv.color != to_move && board.moves() == 0 {
        (board.pass(), to_move.opponent())
    } else {
        (board, to_move)
    };
    if mv.color != to_move {
        return Err(format!("it is {to_move}'s turn"));
    }
    match mv.square {
        None if board.moves() == 0 => Ok((board.pass(), to_move.opponent())),
        None => Err(format!("{to_move} has a legal move and may not pass")),
        Some(sq) => board
            .play(sq)
            .map(|b| (b, to_move.opponent()))
            .ok_or_else(|| format!("{} is not a legal move", square_name(sq))),
    }
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn error(&self, at: usize, field: Option<&str>, message: impl Into<String>) -> GgfError {
        let before = &self.text[..at];
        let line = before.matches('\n').count() + 1;
        let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
        GgfError {
            line,
            column,
            offset: at,
            field: field.map(str::to_string),
            message: message.into(),
        }
    }

    fn skip_space(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn eat(&mut self, s: &str) -> bool {
        if self.text[self.pos..].starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    fn game(mut self) -> Result<GgfGame, GgfError> {
        self.skip_space();
        if !self.eat("(;") {
            return Err(self.error(self.pos, None, "a game record starts with '(;'"));
        }
        let mut game = GgfGame {
            props: Vec::new(),
            ..GgfGame::new()
        };
        let mut seen_board = false;
        loop {
            self.skip_space();
            if self.eat(";)") {
                break;
            }
            let key_at = self.pos;
            let key_len = self.text[self.pos..]
                .bytes()
                .take_while(u8::is_ascii_uppercase)
                .count();
            if key_len == 0 {
                let what = if self.pos == self.text.len() {
                    "the record ends before ';)'".to_string()
                } else {
                    "expected a property name (A-Z) or ';)'".to_string()
                };
                return Err(self.error(key_at, None, what));
            }
            let key = &self.text[key_at..key_at + key_len];
            self.pos += key_len;
            if !self.eat("[") {
                return Err(self.error(self.pos, Some(key), "expected '[' after the name"));
            }
            let value_at = self.pos;
            let Some(len) = self.text[self.pos..].find(']') else {
                return Err(self.error(value_at, Some(key), "no ']' closes the value"));
            };
            let value = &self.text[value_at..value_at + len];
            self.pos += len + 1;
            match key {
                "GM" if !value.trim().eq_ignore_ascii_case("othello") => {
                    return Err(self.error(value_at, Some(key), "the game is not Othello"));
                }
                "BO" => {
                    if seen_board || !game.moves.is_empty() {
                        return Err(self.error(
                            key_at,
                            Some(key),
                            "the board must come once, before the moves",
                        ));
                    }
                    seen_board = true;
                    let (board, to_move) = parse_board(value)
                        .map_err(|(off, m)| self.error(value_at + off, Some(key), m))?;
                    game.start = board;
                    game.start_to_move = to_move;
                    game.board = board;
                    game.to_move = to_move;
                }
                "B" | "W" => {
                    let color = if key == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let mv =
                        parse_move(color, value).map_err(|m| self.error(value_at, Some(key), m))?;
                    game.play(mv).map_err(|m| {
                        self.error(value_at, Some(key), format!("move {}: {m}", value.trim()))
                    })?;
                }
                _ => game.props.push((key.to_string(), value.to_string())),
            }
        }
        self.skip_space();
        if self.pos != self.text.len() {
            return Err(self.error(self.pos, None, "text after the end of the record"));
        }
        Ok(game)
    }
}

/// `8 <64 squares> <side>` (spaces between the squares allowed); errors carry the offset
/// in `value`.
fn parse_board(value: &str) -> Result<(Board, Color), (usize, String)> {
    let rest = value.trim_start();
    let lead = value.len() - rest.len();
    if !rest.starts_with('8') || rest[1..].starts_with(|c: char| !c.is_whitespace()) {
        return Err((
            lead,
            "only board size 8 is supported ('8 ' then the squares)".into(),
        ));
    }
    let size_end = lead + 1;
    let cells: Vec<(usize, char)> = value[size_end..]
        .char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(i, c)| (i + size_end, c))
        .collect();
    if cells.len() != 65 {
        return Err((
            0,
            format!(
                "the board needs 64 squares and the side to move, got {} characters",
                cells.len()
            ),
        ));
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (sq, &(i, c)) in cells[..64].iter().enumerate() {
        match c {
            '*' | 'X' | 'x' | '#' => black |= 1 << sq,
            'O' | 'o' => white |= 1 << sq,
            '-' | '.' => {}
            _ => return Err((i, format!("bad square character '{c}'"))),
        }
    }
    let (i, side) = cells[64];
    let to_move = match side {
        '*' | 'X' | 'x' | '#' => Color::Black,
        'O' | 'o' => Color::White,
        _ => return Err((i, format!("bad side to move '{side}'"))),
    };
    Ok((Board::from_colors(black, white, to_move), to_move))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example session of NBoard's protocol document (NBoard.zip, "Example Session").
    const DOC_GAME: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

    fn obf(g: &GgfGame) -> String {
        g.board.to_obf(g.to_move)
    }

    #[test]
    fn the_documents_example_game_replays() {
        let g = GgfGame::parse(DOC_GAME).unwrap();
        assert_eq!(g.start, Board::start());
        assert_eq!(g.moves.len(), 8);
        assert_eq!(g.to_move, Color::Black);
        // Replayed by a separate little script (a dictionary board, eight directions).
        assert_eq!(
            obf(&g),
            "-------------------X-------XXO----OOXO------XO------XO----------"
        );
        // The document's Edax answers d6 there, so d6 must be legal.
        assert!(g.board.play(parse_square("d6").unwrap()).is_some());
        assert_eq!(g.props[0], ("GM".into(), "Othello".into()));
        assert_eq!(g.props.len(), 8);
    }

    #[test]
    fn written_records_read_back_the_same() {
        let g = GgfGame::parse(DOC_GAME).unwrap();
        let again = GgfGame::parse(&g.to_ggf()).unwrap();
        assert_eq!(again, g);
        // Evaluation and time fields, lower-case squares and a pass survive too.
        let h = GgfGame::parse("(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[d3//0.01]W[c5/-1.50/2.5];)").unwrap();
        assert_eq!(h.moves[0].text(), "D3//0.01");
        assert_eq!(h.moves[1].eval, "-1.50");
        assert_eq!(GgfGame::parse(&h.to_ggf()).unwrap(), h);
    }

    #[test]
    fn a_record_with_a_white_start_and_a_pass() {
        // White to move, and white (O) has no move: only a1 black, b1 white... black can
        // capture at c1. White must pass first.
        let mut squares = vec!['-'; 64];
        squares[0] = '*';
        squares[1] = 'O';
        let sq: String = squares.into_iter().collect();
        let text = format!("(;GM[Othello]BO[8 {sq} O]W[PA]B[C1];)");
        let g = GgfGame::parse(&text).unwrap();
        assert_eq!(g.moves.len(), 2);
        assert!(g.board.is_game_over());
        // The same record without the pass is accepted too.
        let g2 = GgfGame::parse(&format!("(;GM[Othello]BO[8 {sq} O]B[C1];)")).unwrap();
        assert_eq!(g2.board, g.board);
    }

    #[test]
    fn bad_records_say_where_and_which_field() {
        let bad = |t: &str| GgfGame::parse(t).unwrap_err();
        let e = bad("(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F5];)");
        assert_eq!(e.field.as_deref(), Some("W"));
        assert!(e.message.contains("f5 is not a legal move"), "{e}");
        // 13 for `(;GM[Othello]`, 3 + 68 + 1 for the board, 5 for `B[F5]`, 2 for `W[`.
        assert_eq!(e.offset, 92);
        let e = bad("(;GM[Chess]TY[8];)");
        assert_eq!((e.field.as_deref(), e.offset), (Some("GM"), 5));
        let e = bad("(;GM[Othello]BO[8 ---O*- *];)");
        assert_eq!(e.field.as_deref(), Some("BO"));
        assert!(e.message.contains("64 squares"), "{e}");
        let e = bad("(;GM[Othello]BO[8 ---------------------------O*------*Q--------------------------- *];)");
        assert_eq!((e.field.as_deref(), e.offset), (Some("BO"), 54));
        let e = bad("(;GM[Othello]B[Z9];)");
        assert!(e.message.contains("'Z9'"), "{e}");
        let e = bad("(;GM[Othello]B[F5/abc];)");
        assert!(e.message.contains("eval"), "{e}");
        let e = bad("(;GM[Othello]B[F5]");
        assert!(e.message.contains("';)'"), "{e}");
        let e = bad("GM[Othello]");
        assert_eq!(e.offset, 0);
        let e = bad("(;GM[Othello]PB[x");
        assert_eq!((e.field.as_deref(), e.offset), (Some("PB"), 16));
        assert!(e.message.contains("']'"), "{e}");
        let e = bad("(;GM[Othello]\nB[F5]W[E6];)");
        // Line 2 holds `B[F5]W[` before the value.
        assert_eq!((e.line, e.column), (2, 8), "{e}");
        let e = bad("(;B[F5];) x");
        assert!(e.message.contains("after the end"), "{e}");
    }

    #[test]
    fn moves_are_checked_against_the_turn() {
        let mut g = GgfGame::new();
        assert!(g.play(parse_move(Color::White, "F5").unwrap()).is_err());
        assert!(g.play(parse_move(Color::Black, "PA").unwrap()).is_err());
        assert_eq!(g, GgfGame::new());
        g.play(parse_move(Color::Black, "f5").unwrap()).unwrap();
        assert_eq!(g.to_move, Color::White);
    }
}
