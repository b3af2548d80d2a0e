//! The opening book: positions from played games, merged under the board's eight
//! symmetries, each with its visit count, the mean result of the games through it, and a
//! negamax value propagated from its book children.
//!
//! Values are final disc differences for the side to move. A position's own estimate is
//! the mean result of the games that reached it; the games' results are as good as their
//! endgames: WTHOR games carry a "theoretical score" (perfect play from about 24 empties)
//! and our own games are solved exactly from at most 14 to 22 empties (depending on the
//! time per move), so a leaf value is in effect a search value of a position thirty-odd
//! plies on down the same line.
//!
//! A book child is *trusted* when at least `min_visits` games reached it: one game is an
//! anecdote, and the maximum over many one-game children mostly measures their noise. A
//! position with trusted children takes the best of their negated values (negamax over the
//! book's graph, transpositions included), otherwise its own mean. Book learning follows:
//! a game that loses lowers the mean of every position on its line, the negamax carries
//! that up, and the next time another child may be the best.
use super::board::Board;
use super::symmetry::canonical;
use crate::color::Color;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;

/// First line of a book file; the number after it is the format version.
pub const HEADER: &str = "quartet-othello-book";
const VERSION: u32 = 1;
/// Book files above this size are refused before being read whole.
pub const MAX_FILE_BYTES: u64 = 64 << 20;
/// Games a child needs before its value is used (`--book-visits`).
pub const DEFAULT_MIN_VISITS: u32 = 4;
/// The built-in book (`data/othello/book.txt`, made by self-play: `data/othello/README.md`),
/// used unless `--book FILE` or `--no-book` says otherwise.
pub const DEFAULT_BOOK: &str = include_str!("../../data/othello/book.txt");
/// Plies of each game stored by default: past 30 plies the midgame search with the
/// endgame solver close behind does better than a book of human or quick self-play games.
pub const DEFAULT_PLIES: usize = 30;

#[derive(Clone, Copy, Debug, PartialEq)]
struct Node {
    visits: u32,
    /// Sum of the results of the games through the position, side to move's view.
    sum: i64,
    /// Negamax value (see the module comment), set by `propagate`.
    value: f32,
}

impl Node {
    fn mean(&self) -> f32 {
        self.sum as f32 / self.visits.max(1) as f32
    }
}

/// A move the book knows in some position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookMove {
    pub square: usize,
    /// Value for the side playing the move (the negated value of the position it leads to).
    pub value: f32,
    /// Games that reached the position after the move.
    pub visits: u32,
    /// `visits >= min_visits`: the value is used by negamax and by `best_move`.
    pub trusted: bool,
}

/// A malformed book file: the line (1-based) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "book line {}: {}", self.line, self.message)
    }
}

#[derive(Clone, Debug)]
pub struct Book {
    nodes: HashMap<(u64, u64), Node>,
    min_visits: u32,
}

impl Default for Book {
    fn default() -> Self {
        Book::new(DEFAULT_MIN_VISITS)
    }
}

/// The positions of a game from `start` (with `color` to move) before each of the first
/// `plies` moves and after the last of them, each with its side to move. A move the side
/// to move cannot make is taken as the other side's after a pass (WTHOR and many GGF
/// records leave passes out; the pass position is kept too). `Err(i)`: move `i` is illegal.
pub fn replay(
    start: Board,
    color: Color,
    moves: &[usize],
    plies: usize,
) -> Result<Vec<(Board, Color)>, usize> {
    let (mut b, mut c) = (start, color);
    let mut out = Vec::with_capacity(plies.min(moves.len()) + 2);
    for (i, &m) in moves.iter().enumerate() {
        if i == plies {
            out.push((b, c));
        }
        if b.play(m).is_none() && b.moves() == 0 && !b.is_game_over() {
            if i < plies {
                out.push((b, c));
            }
            b = b.pass();
            c = c.opponent();
        }
        let next = b.play(m).ok_or(i)?;
        if i < plies {
            out.push((b, c));
        }
        b = next;
        c = c.opponent();
    }
    if moves.len() <= plies {
        out.push((b, c));
    }
    Ok(out)
}

impl Book {
    pub fn new(min_visits: u32) -> Book {
        Book {
            nodes: HashMap::new(),
            min_visits: min_visits.max(1),
        }
    }

    /// The built-in book with trust at `min_visits` games.
    pub fn default_book(min_visits: u32) -> Book {
        Book::parse(DEFAULT_BOOK, min_visits).expect("the built-in book parses (tested)")
    }

    /// Drops the positions fewer than `min_games` games reached. Values and `best_move`
    /// are unchanged while the trust threshold is at least `min_games`: negamax reads only
    /// trusted children, and a position's own mean is kept whole with it. Returns the
    /// positions dropped.
    pub fn prune(&mut self, min_games: u32) -> usize {
        let before = self.nodes.len();
        self.nodes.retain(|_, n| n.visits >= min_games);
        before - self.nodes.len()
    }

    /// Positions stored.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn min_visits(&self) -> u32 {
        self.min_visits
    }

    /// Changes the trust threshold and recomputes the values.
    pub fn set_min_visits(&mut self, k: u32) {
        self.min_visits = k.max(1);
        self.propagate();
    }

    /// Adds the first `plies` moves of a game from `start` (`color` to move) whose final
    /// disc difference for black is `black_result`, then propagates the values. Returns the
    /// positions stored; `Err(i)` (nothing stored) when move `i` is illegal.
    pub fn add_game(
        &mut self,
        start: Board,
        color: Color,
        moves: &[usize],
        black_result: i32,
        plies: usize,
    ) -> Result<usize, usize> {
        let n = self.add_game_unpropagated(start, color, moves, black_result, plies)?;
        self.propagate();
        Ok(n)
    }

    /// `add_game` without the propagation, for adding many games at once (then call
    /// `propagate`).
    pub fn add_game_unpropagated(
        &mut self,
        start: Board,
        color: Color,
        moves: &[usize],
        black_result: i32,
        plies: usize,
    ) -> Result<usize, usize> {
        let line = replay(start, color, moves, plies)?;
        for &(b, c) in &line {
            let r = if c == Color::Black {
                black_result
            } else {
                -black_result
            };
            let node = self.nodes.entry(canonical(&b)).or_insert(Node {
                visits: 0,
                sum: 0,
                value: 0.0,
            });
            node.visits = node.visits.saturating_add(1);
            node.sum += r as i64;
        }
        Ok(line.len())
    }

    fn trusted(&self, b: &Board) -> Option<&Node> {
        self.nodes
            .get(&canonical(b))
            .filter(|n| n.visits >= self.min_visits)
    }

    /// The negamax value from the values already set for the children.
    fn negamax(&self, b: &Board, node: &Node) -> f32 {
        if b.is_game_over() {
            return b.final_score() as f32;
        }
        let mut mv = b.moves();
        if mv == 0 {
            return match self.trusted(&b.pass()) {
                Some(child) => -child.value,
                None => node.mean(),
            };
        }
        let mut best: Option<f32> = None;
        while mv != 0 {
            let sq = mv.trailing_zeros() as usize;
            mv &= mv - 1;
            let child = b.play(sq).expect("a generated move is legal");
            if let Some(c) = self.trusted(&child) {
                best = Some(best.map_or(-c.value, |v: f32| v.max(-c.value)));
            }
        }
        best.unwrap_or_else(|| node.mean())
    }

    /// Recomputes every value, children before parents: a move adds a disc, so positions
    /// with more discs come first; among equal counts the positions with a move come before
    /// those that must pass (whose only child is the passed position, with the same discs).
    pub fn propagate(&mut self) {
        let mut order: Vec<((u64, u64), bool)> = self
            .nodes
            .keys()
            .map(|&(p, o)| ((p, o), Board { p, o }.moves() != 0))
            .collect();
        order.sort_unstable_by_key(|&((p, o), has_move)| {
            (std::cmp::Reverse((p | o).count_ones()), !has_move, p, o)
        });
        for (key, _) in order {
            let node = self.nodes[&key];
            let v = self.negamax(&Board { p: key.0, o: key.1 }, &node);
            if let Some(n) = self.nodes.get_mut(&key) {
                n.value = v;
            }
        }
    }

    /// The book's value and visits of a position, if it is in the book.
    pub fn lookup(&self, b: &Board) -> Option<(f32, u32)> {
        self.nodes.get(&canonical(b)).map(|n| (n.value, n.visits))
    }

    /// Every legal move of `b` whose resulting position is in the book, best first (value,
    /// then visits, then square).
    pub fn moves(&self, b: &Board) -> Vec<BookMove> {
        let mut out = Vec::new();
        let mut mv = b.moves();
        while mv != 0 {
            let sq = mv.trailing_zeros() as usize;
            mv &= mv - 1;
            let child = b.play(sq).expect("a generated move is legal");
            if let Some(n) = self.nodes.get(&canonical(&child)) {
                out.push(BookMove {
                    square: sq,
                    // (+ 0.0: a drawn line prints as +0.00, not -0.00)
                    value: -n.value + 0.0,
                    visits: n.visits,
                    trusted: n.visits >= self.min_visits,
                });
            }
        }
        out.sort_by(|a, b| {
            b.value
                .total_cmp(&a.value)
                .then(b.visits.cmp(&a.visits))
                .then(a.square.cmp(&b.square))
        });
        out
    }

    /// The move `genmove` plays from the book: the best trusted move, if there is one.
    pub fn best_move(&self, b: &Board) -> Option<BookMove> {
        self.moves(b).into_iter().find(|m| m.trusted)
    }

    /// The book file: the header line, a comment, then `p o visits sum` per position
    /// (hexadecimal bitboards of the side to move and the other side in canonical form,
    /// decimal counts), sorted so equal books give equal files.
    pub fn to_text(&self) -> String {
        let mut keys: Vec<_> = self.nodes.keys().copied().collect();
        keys.sort_unstable_by_key(|&(p, o)| ((p | o).count_ones(), p, o));
        let mut s = format!(
            "{HEADER} {VERSION}\n# {} positions: <side to move> <other side> (hex bitboards, a1 = bit 0, canonical under the 8 symmetries) <games> <sum of their final disc differences for the side to move>\n",
            keys.len()
        );
        for k in keys {
            let n = self.nodes[&k];
            s.push_str(&format!("{:x} {:x} {} {}\n", k.0, k.1, n.visits, n.sum));
        }
        s
    }

    /// Parses a book file; every malformed line is reported with its number.
    pub fn parse(text: &str, min_visits: u32) -> Result<Book, BookError> {
        let err = |line: usize, message: String| BookError { line, message };
        let mut lines = text.lines().enumerate();
        let first = lines.next().map(|(_, l)| l.trim()).unwrap_or("");
        let version = first.strip_prefix(HEADER).map(str::trim).ok_or_else(|| {
            err(
                1,
                format!("not an opening book (the first line must be `{HEADER} {VERSION}`)"),
            )
        })?;
        if version != VERSION.to_string() {
            return Err(err(
                1,
                format!("unsupported book version '{version}' (this build reads {VERSION})"),
            ));
        }
        let mut book = Book::new(min_visits);
        for (i, line) in lines {
            let n = i + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split_whitespace().collect();
            let [p, o, visits, sum] = f[..] else {
                return Err(err(
                    n,
                    format!("expected 4 fields `p o games sum`, got {}", f.len()),
                ));
            };
            let hex = |s: &str, what: &str| {
                u64::from_str_radix(s, 16).map_err(|_| err(n, format!("bad {what} bitboard '{s}'")))
            };
            let (p, o) = (hex(p, "side-to-move")?, hex(o, "other side's")?);
            if p & o != 0 {
                return Err(err(n, "the two bitboards overlap".into()));
            }
            if (p | o).count_ones() < 4 {
                return Err(err(n, "fewer than the 4 discs of the start".into()));
            }
            if canonical(&Board { p, o }) != (p, o) {
                return Err(err(
                    n,
                    "position not in canonical form (least image under the 8 symmetries)".into(),
                ));
            }
            let visits: u32 = visits
                .parse()
                .ok()
                .filter(|&v| v >= 1)
                .ok_or_else(|| err(n, format!("bad game count '{visits}' (at least 1)")))?;
            let sum: i64 = sum
                .parse()
                .map_err(|_| err(n, format!("bad result sum '{sum}'")))?;
            if sum.unsigned_abs() > 64 * visits as u64 {
                return Err(err(
                    n,
                    format!("result sum {sum} exceeds 64 discs times {visits} games"),
                ));
            }
            let node = Node {
                visits,
                sum,
                value: 0.0,
            };
            if book.nodes.insert((p, o), node).is_some() {
                return Err(err(n, "position listed twice".into()));
            }
        }
        book.propagate();
        Ok(book)
    }

    /// Reads a book file (at most `MAX_FILE_BYTES`).
    pub fn load(path: &Path, min_visits: u32) -> Result<Book, String> {
        let text = crate::bounded_read::read_to_string_capped(path, MAX_FILE_BYTES)?;
        Book::parse(&text, min_visits).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes the book through a temporary file and a rename, so a reader (or a run that
    /// is stopped) never sees half a book.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_text()).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests;
