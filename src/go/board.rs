//! TEMPORARY stand-in for the lead's Go board (matchrunner branch only, removed before merge).
use crate::color::Color;

pub type Point = usize;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Move {
    Pass,
    Play(Point),
}

pub fn valid_size(size: usize) -> bool {
    (2..=19).contains(&size)
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    size: usize,
    cells: Vec<Option<Color>>,
}

impl Board {
    pub fn new(size: usize) -> Board {
        Board {
            size,
            cells: vec![None; size * size],
        }
    }
    pub fn size(&self) -> usize {
        self.size
    }
    pub fn point(&self, col: usize, row: usize) -> Point {
        row * self.size + col
    }
    pub fn col_row(&self, p: Point) -> (usize, usize) {
        (p % self.size, p / self.size)
    }
    pub fn stone(&self, p: Point) -> Option<Color> {
        self.cells[p]
    }
    pub(crate) fn set(&mut self, p: Point, c: Option<Color>) {
        self.cells[p] = c;
    }
    pub(crate) fn neighbours(&self, p: Point) -> Vec<Point> {
        let (c, r) = self.col_row(p);
        let mut v = Vec::new();
        if c > 0 {
            v.push(p - 1);
        }
        if c + 1 < self.size {
            v.push(p + 1);
        }
        if r > 0 {
            v.push(p - self.size);
        }
        if r + 1 < self.size {
            v.push(p + self.size);
        }
        v
    }
    /// The string containing `p` and whether it has a liberty.
    pub(crate) fn group(&self, p: Point) -> (Vec<Point>, bool) {
        let color = self.cells[p];
        let mut seen = vec![false; self.cells.len()];
        let mut stack = vec![p];
        let mut out = Vec::new();
        let mut libs = false;
        seen[p] = true;
        while let Some(q) = stack.pop() {
            out.push(q);
            for n in self.neighbours(q) {
                if self.cells[n].is_none() {
                    libs = true;
                } else if self.cells[n] == color && !seen[n] {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        (out, libs)
    }
}
