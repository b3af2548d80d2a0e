//! The tactical puzzle file (`shared/gomoku/puzzles.txt`, after renju-note/quintet, checked
//! with Rapfi): positions with known winning first moves, for the bench and the tests.
//!
//! Board rows print top (row 15) to bottom; columns `A..O` include `I` (quintet's
//! convention, unlike GTP); `o` is Black and `x` White.
use super::board::{Point, Rule};
use super::game::Game;
use crate::color::Color;

#[derive(Clone, Debug)]
pub struct Puzzle {
    pub name: String,
    pub attacker: Color,
    /// (column, row from the bottom), 0-based.
    pub black: Vec<(usize, usize)>,
    pub white: Vec<(usize, usize)>,
    /// Winning first moves under freestyle; empty when it is not a freestyle win.
    pub freestyle: Vec<(usize, usize)>,
    /// Winning first moves under renju (the source's and Rapfi's).
    pub renju: Vec<(usize, usize)>,
}

const SIZE: usize = 15;

/// Parses `E12` in the puzzle convention (columns with `I`).
fn coord(s: &str) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    let col = b.first()?.checked_sub(b'A')? as usize;
    let row: usize = s.get(1..)?.parse().ok()?;
    (col < SIZE && (1..=SIZE).contains(&row)).then(|| (col, row - 1))
}

/// Coordinates written as words of `text` (not the `+M7` mate lengths).
fn coords_in(text: &str) -> Vec<(usize, usize)> {
    text.split(|ch: char| ch.is_whitespace() || ch == ',' || ch == ';' || ch == '(')
        .filter_map(coord)
        .collect()
}

pub fn parse(text: &str) -> Result<Vec<Puzzle>, String> {
    let mut out = Vec::new();
    for block in text.split("=====").filter(|b| b.contains("name:")) {
        let field = |key: &str| -> Option<&str> {
            block
                .lines()
                .find_map(|l| l.strip_prefix(key).map(|v| v.trim()))
        };
        let name = field("name:").ok_or("entry without name")?.to_string();
        let attacker = match field("attacker:").unwrap_or("").split_whitespace().next() {
            Some("black") => Color::Black,
            Some("white") => Color::White,
            _ => return Err(format!("{name}: bad attacker")),
        };
        let stones = |key| coords_in(field(key).unwrap_or(""));
        let free = field("freestyle_answer:").unwrap_or("None");
        let freestyle = if free.starts_with("None") {
            Vec::new()
        } else {
            coords_in(free)
        };
        let mut renju = Vec::new();
        if let Some(first) =
            field("source_solution_renju:").and_then(|s| coords_in(s).first().copied())
        {
            renju.push(first);
        }
        if let Some(r4) = field("rapfi_rule4_renju:") {
            // "root G6 +M25 | ...": Rapfi's root move counts when it is a mate.
            let root = r4.split('|').next().unwrap_or("");
            if root.contains("+M") {
                for m in coords_in(root) {
                    if !renju.contains(&m) {
                        renju.push(m);
                    }
                }
            }
        }
        let p = Puzzle {
            name: name.clone(),
            attacker,
            black: stones("black:"),
            white: stones("white:"),
            freestyle,
            renju,
        };
        if p.black.is_empty() || p.white.is_empty() {
            return Err(format!("{name}: no stones"));
        }
        out.push(p);
    }
    Ok(out)
}

impl Puzzle {
    /// The position under `rule`, attacker to move.
    pub fn game(&self, rule: Rule) -> Game {
        let mut g = Game::new(SIZE, rule);
        let (mut a, mut d) = match self.attacker {
            Color::Black => (self.black.clone(), self.white.clone()),
            Color::White => (self.white.clone(), self.black.clone()),
        };
        // Interleave so that the defender places last: the attacker is then to move.
        while !a.is_empty() || !d.is_empty() {
            let (list, c) = if a.len() >= d.len() && !a.is_empty() {
                (&mut a, self.attacker)
            } else {
                (&mut d, self.attacker.opponent())
            };
            let (col, row) = list.pop().expect("non-empty");
            let p = g.board().point(col, row);
            g.setup(c, p);
        }
        g
    }

    pub fn point_name(p: Point, g: &Game) -> String {
        let (c, r) = g.board().col_row(p);
        format!("{}{}", (b'A' + c as u8) as char, r + 1)
    }
}
