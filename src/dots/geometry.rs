//! Board geometry: which edges border which boxes. Computed once per board size and shared
//! by the game board, the chain analysis and the solver, all of which index edges the same way.
//!
//! Edge numbering: horizontal edges first, row by row from the bottom (`y * cols + x` joins
//! dot (x, y) to (x+1, y)), then vertical edges (`H + y * (cols+1) + x` joins (x, y) to
//! (x, y+1)). Box (x, y) is number `y * cols + x`.
use super::notation::{Dot, EdgeName, MAX_DOTS};
use std::fmt;

pub const MAX_BOX_SIDE: u8 = MAX_DOTS - 1;
pub const MAX_BOXES: usize = 64;
/// 8x8 boxes have 8*9 + 9*8 = 144 edges.
pub const MAX_EDGES: usize = 144;
/// Marks "no box": the outside of the board (the ground, in strings-and-coins terms).
pub const GROUND: u8 = u8::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeError;

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "board size must be CxR boxes with 1 <= C, R <= {MAX_BOX_SIDE}"
        )
    }
}

#[derive(Clone, Debug)]
pub struct Geometry {
    cols: u8,
    rows: u8,
    n_edges: u8,
    edge_boxes: [[u8; 2]; MAX_EDGES],
    box_edges: [[u8; 4]; MAX_BOXES],
}

impl Geometry {
    pub fn new(cols: usize, rows: usize) -> Result<Geometry, SizeError> {
        let max = MAX_BOX_SIDE as usize;
        if !(1..=max).contains(&cols) || !(1..=max).contains(&rows) {
            return Err(SizeError);
        }
        let h = cols * (rows + 1);
        let n_edges = h + (cols + 1) * rows;
        let mut g = Geometry {
            cols: cols as u8,
            rows: rows as u8,
            n_edges: n_edges as u8,
            edge_boxes: [[GROUND; 2]; MAX_EDGES],
            box_edges: [[0; 4]; MAX_BOXES],
        };
        for y in 0..rows {
            for x in 0..cols {
                let b = y * cols + x;
                let edges = [
                    y * cols + x,
                    (y + 1) * cols + x,
                    h + y * (cols + 1) + x,
                    h + y * (cols + 1) + x + 1,
                ];
                for e in edges {
                    let slot = if g.edge_boxes[e][0] == GROUND { 0 } else { 1 };
                    g.edge_boxes[e][slot] = b as u8;
                }
                g.box_edges[b] = edges.map(|e| e as u8);
            }
        }
        Ok(g)
    }

    /// Parses `CxR` (boxes), e.g. `5x5`.
    pub fn parse_size(s: &str) -> Result<Geometry, SizeError> {
        let (c, r) = s.split_once(['x', 'X']).ok_or(SizeError)?;
        let c: usize = c.trim().parse().map_err(|_| SizeError)?;
        let r: usize = r.trim().parse().map_err(|_| SizeError)?;
        Geometry::new(c, r)
    }

    pub fn cols(&self) -> usize {
        self.cols as usize
    }
    pub fn rows(&self) -> usize {
        self.rows as usize
    }
    pub fn n_edges(&self) -> usize {
        self.n_edges as usize
    }
    pub fn n_boxes(&self) -> usize {
        self.cols as usize * self.rows as usize
    }
    pub fn n_dots(&self) -> usize {
        (self.cols as usize + 1) * (self.rows as usize + 1)
    }
    fn n_horizontal(&self) -> usize {
        self.cols() * (self.rows() + 1)
    }

    /// The one or two boxes an edge borders; `GROUND` fills the outside slot.
    #[inline]
    pub fn edge_boxes(&self, e: usize) -> [u8; 2] {
        self.edge_boxes[e]
    }
    /// Bottom, top, left, right edges of a box.
    #[inline]
    pub fn box_edges(&self, b: usize) -> [u8; 4] {
        self.box_edges[b]
    }
    /// The box on the other side of `e` from `b` (or `GROUND`).
    #[inline]
    pub fn across(&self, e: usize, b: u8) -> u8 {
        let [p, q] = self.edge_boxes[e];
        if p == b {
            q
        } else {
            p
        }
    }

    pub fn edge_dots(&self, e: usize) -> EdgeName {
        let h = self.n_horizontal();
        let (from, to) = if e < h {
            let (x, y) = (e % self.cols(), e / self.cols());
            ((x, y), (x + 1, y))
        } else {
            let w = self.cols() + 1;
            let (x, y) = ((e - h) % w, (e - h) / w);
            ((x, y), (x, y + 1))
        };
        let dot = |(c, r): (usize, usize)| Dot {
            col: c as u8,
            row: r as u8,
        };
        EdgeName {
            from: dot(from),
            to: dot(to),
        }
    }

    /// The edge index of a name, if both dots lie on this board.
    pub fn edge_index(&self, name: &EdgeName) -> Option<usize> {
        let (f, t) = (name.from, name.to);
        if t.col > self.cols || t.row > self.rows {
            return None;
        }
        let (x, y) = (f.col as usize, f.row as usize);
        Some(if name.is_horizontal() {
            y * self.cols() + x
        } else {
            self.n_horizontal() + y * (self.cols() + 1) + x
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        let g = Geometry::new(5, 5).unwrap();
        assert_eq!((g.n_edges(), g.n_boxes(), g.n_dots()), (60, 25, 36));
        let g = Geometry::new(8, 8).unwrap();
        assert_eq!(g.n_edges(), 144);
        assert!(Geometry::new(0, 3).is_err() && Geometry::new(9, 1).is_err());
        assert!(Geometry::parse_size("3x4").is_ok());
        for bad in ["3", "x3", "3x", "0x1", "9x9", "-1x2", "axb", "3x4x5"] {
            assert!(Geometry::parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_box_has_four_distinct_edges_and_names_round_trip() {
        for (c, r) in [(1, 1), (2, 3), (5, 5), (8, 8), (8, 1)] {
            let g = Geometry::new(c, r).unwrap();
            let mut border = 0;
            for e in 0..g.n_edges() {
                let name = g.edge_dots(e);
                assert_eq!(g.edge_index(&name), Some(e));
                assert_eq!(name.to_string().parse::<EdgeName>(), Ok(name));
                border += g.edge_boxes(e).contains(&GROUND) as usize;
            }
            assert_eq!(border, 2 * (c + r));
            for b in 0..g.n_boxes() {
                for e in g.box_edges(b) {
                    assert!(g.edge_boxes(e as usize).contains(&(b as u8)));
                }
            }
        }
        let g = Geometry::new(2, 2).unwrap();
        assert_eq!(g.edge_index(&"c3-d3".parse().unwrap()), None);
        assert_eq!(g.edge_index(&"c2-c3".parse().unwrap()), Some(6 + 3 + 2));
    }
}
