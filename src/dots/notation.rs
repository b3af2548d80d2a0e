//! Dot and edge names. Dots are named like Go vertices but *without* skipping `i`:
//! columns `a..`, rows `1..` from the bottom, so a 8x8-box board (9x9 dots) runs `a1..i9`.
//! An edge joins two adjacent dots: `a1-b1` (horizontal) or `a1-a2` (vertical), in either
//! order and any case. The names are board-independent; `Geometry` checks they fit.
use std::fmt;
use std::str::FromStr;

/// Columns and rows of dots a name can express (9 = 8 boxes + 1).
pub const MAX_DOTS: u8 = 9;

/// A dot as 0-based (column, row), row 0 at the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Dot {
    pub col: u8,
    pub row: u8,
}

/// Why a dot or an edge name was rejected; the `Display` text is what the protocol prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Not of the form `<letter><number>-<letter><number>`.
    Malformed,
    /// Both dots are the same or not neighbours (diagonal or farther apart).
    NotAdjacent,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotationError::Malformed => "malformed edge (expected e.g. a1-b1)",
            NotationError::NotAdjacent => "dots are not adjacent",
        })
    }
}

impl std::error::Error for NotationError {}

impl fmt::Display for Dot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col) as char, self.row as u32 + 1)
    }
}

impl FromStr for Dot {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Dot, NotationError> {
        let b = s.as_bytes();
        if b.len() < 2 || b.len() > 3 || !b[0].is_ascii_alphabetic() {
            return Err(NotationError::Malformed);
        }
        let col = b[0].to_ascii_lowercase() - b'a';
        let digits = &s[1..];
        if !digits.bytes().all(|c| c.is_ascii_digit()) || digits.starts_with('0') {
            return Err(NotationError::Malformed);
        }
        let row: u8 = digits.parse().map_err(|_| NotationError::Malformed)?;
        if col >= MAX_DOTS || row == 0 || row > MAX_DOTS {
            return Err(NotationError::Malformed);
        }
        Ok(Dot { col, row: row - 1 })
    }
}

/// An edge by its two dots, stored with the lower-left dot first so that `b1-a1` and
/// `a1-b1` compare equal and print the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EdgeName {
    pub from: Dot,
    pub to: Dot,
}

impl EdgeName {
    /// Orders the dots and checks adjacency.
    pub fn new(a: Dot, b: Dot) -> Result<EdgeName, NotationError> {
        let (from, to) = if (a.row, a.col) <= (b.row, b.col) {
            (a, b)
        } else {
            (b, a)
        };
        let horizontal = from.row == to.row && to.col == from.col + 1;
        let vertical = from.col == to.col && to.row == from.row + 1;
        if horizontal || vertical {
            Ok(EdgeName { from, to })
        } else {
            Err(NotationError::NotAdjacent)
        }
    }

    pub fn is_horizontal(&self) -> bool {
        self.from.row == self.to.row
    }
}

impl fmt::Display for EdgeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

impl FromStr for EdgeName {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<EdgeName, NotationError> {
        let (a, b) = s.trim().split_once('-').ok_or(NotationError::Malformed)?;
        EdgeName::new(a.parse()?, b.parse()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dot(col: u8, row: u8) -> Dot {
        Dot { col, row }
    }

    #[test]
    fn dots_do_not_skip_i() {
        assert_eq!("i9".parse(), Ok(dot(8, 8)));
        assert_eq!("A1".parse(), Ok(dot(0, 0)));
        assert_eq!(dot(8, 0).to_string(), "i1");
        assert_eq!(dot(2, 4).to_string(), "c5");
    }

    #[test]
    fn edges_in_either_order_and_case() {
        let e: EdgeName = "b1-A1".parse().unwrap();
        assert_eq!(e, "a1-b1".parse().unwrap());
        assert_eq!(e.to_string(), "a1-b1");
        assert!(e.is_horizontal());
        let v: EdgeName = "C3-c2".parse().unwrap();
        assert_eq!(v.to_string(), "c2-c3");
        assert!(!v.is_horizontal());
    }

    #[test]
    fn bad_edges() {
        use NotationError::*;
        for s in [
            "", "a1", "a1-", "-a1", "a1b1", "a0-a1", "j1-j2", "a10-a11", "1a-2a", "a1-b1-c1",
            "é1-a1",
        ] {
            assert_eq!(s.parse::<EdgeName>(), Err(Malformed), "{s}");
        }
        for s in ["a1-b2", "a1-a1", "a1-c1", "a1-a3"] {
            assert_eq!(s.parse::<EdgeName>(), Err(NotAdjacent), "{s}");
        }
    }
}
