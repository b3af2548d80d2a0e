//! The 12-point diamond around a candidate point (its 8 neighbours and the 4 points two
//! steps away along the lines), the pattern the 9x9 thesis tabulates, as a feature of the
//! learnt move model: coded 2 bits a point (empty, own, opponent, off the board) relative to
//! the side to move and reduced to the least code among the 8 symmetries of the square.
//!
//! Canonical codes that were frequent in the training games get a level of their own;
//! the rest share level 0 (strength 1), so the 3x3 shape speaks for them alone.
use std::sync::OnceLock;

use super::board::{Board, Point};
use crate::color::Color;

pub const CELLS: usize = 12;
/// Codes take 24 bits.
pub const CODE_BITS: u32 = 2 * CELLS as u32;

pub const EMPTY: u32 = 0;
pub const OWN: u32 = 1;
pub const OPPONENT: u32 = 2;
pub const OFF_BOARD: u32 = 3;

/// (column, row) offsets of the cells, in code order: the row above (left to right), left,
/// right, the row below, then the far points above, left, right, below.
pub const OFFSETS: [(i8, i8); CELLS] = [
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
    (0, 2),
    (-2, 0),
    (2, 0),
    (0, -2),
];

/// For each symmetry, cell `i` of the image is cell `perm[i]` of the original.
fn permutations() -> [[usize; CELLS]; 8] {
    std::array::from_fn(|sym| {
        std::array::from_fn(|i| {
            let (mut x, mut y) = OFFSETS[i];
            if sym & 1 != 0 {
                x = -x;
            }
            if sym & 2 != 0 {
                y = -y;
            }
            if sym & 4 != 0 {
                std::mem::swap(&mut x, &mut y);
            }
            OFFSETS.iter().position(|&q| q == (x, y)).unwrap()
        })
    })
}

/// The image of `code` under a cell permutation (cell by cell; for building tables).
fn permute(code: u32, perm: &[usize; CELLS]) -> u32 {
    let mut out = 0;
    for (i, &j) in perm.iter().enumerate() {
        out |= ((code >> (2 * j)) & 3) << (2 * i);
    }
    out
}

/// Per symmetry and per byte of a code, that byte's contribution to the image: a symmetry
/// is three lookups, so the canonical form costs 24 loads at a node expansion.
type ByteTables = [[[u32; 256]; 3]; 8];

fn byte_tables() -> &'static ByteTables {
    static T: OnceLock<Box<ByteTables>> = OnceLock::new();
    T.get_or_init(|| {
        let perms = permutations();
        let mut t = Box::new([[[0u32; 256]; 3]; 8]);
        for (sym, perm) in perms.iter().enumerate() {
            for k in 0..3 {
                for v in 0..256u32 {
                    t[sym][k][v as usize] = permute(v << (8 * k), perm);
                }
            }
        }
        t
    })
}

/// The least image of `code` under the 8 symmetries.
#[inline]
pub fn canonical(code: u32) -> u32 {
    let t = byte_tables();
    let (b0, b1, b2) = (
        (code & 0xff) as usize,
        ((code >> 8) & 0xff) as usize,
        ((code >> 16) & 0xff) as usize,
    );
    let mut best = code;
    for s in &t[1..] {
        best = best.min(s[0][b0] | s[1][b1] | s[2][b2]);
    }
    best
}

/// Whether `code` is a 24-bit code and the canonical form of its class.
pub fn is_canonical(code: u32) -> bool {
    code >> CODE_BITS == 0 && canonical(code) == code
}

/// Swaps own and opponent stones (empty and off-board stay).
pub fn swap_colours(code: u32) -> u32 {
    let mut out = code;
    for i in 0..CELLS {
        let v = (code >> (2 * i)) & 3;
        if v == OWN || v == OPPONENT {
            out ^= 3 << (2 * i);
        }
    }
    out
}

/// The diamond around `p` with `c`'s stones as own, not reduced.
#[inline]
pub fn raw_code(b: &Board, c: Color, p: Point) -> u32 {
    let (col, row) = b.col_row(p);
    let size = b.size() as isize;
    let mut code = 0;
    for (i, &(dx, dy)) in OFFSETS.iter().enumerate() {
        let (x, y) = (col as isize + dx as isize, row as isize + dy as isize);
        let v = if x < 0 || y < 0 || x >= size || y >= size {
            OFF_BOARD
        } else {
            match b.stone(b.point(x as usize, y as usize)) {
                None => EMPTY,
                Some(s) if s == c => OWN,
                Some(_) => OPPONENT,
            }
        };
        code |= v << (2 * i);
    }
    code
}

/// The canonical diamond code of `c` playing at `p`.
#[inline]
pub fn code(b: &Board, c: Color, p: Point) -> u32 {
    canonical(raw_code(b, c, p))
}

/// Frequent canonical codes and their levels (1-based, in the order given): an
/// open-addressing table built once when the weights load, so a lookup neither hashes
/// with a general-purpose hasher nor allocates.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct DiamondTable {
    /// Slots of `keys`/`levels`: a power of two, at least twice the codes; empty keys are
    /// `u32::MAX` (never a 24-bit code).
    keys: Vec<u32>,
    levels: Vec<u16>,
    shift: u32,
    /// Level - 1 to its code.
    codes: Vec<u32>,
}

/// Levels are `u16` (a feature vector's entry), level 0 being the rare class.
pub const MAX_DIAMONDS: usize = u16::MAX as usize;

impl DiamondTable {
    /// The table of `codes` (distinct canonical codes, at most [`MAX_DIAMONDS`]).
    pub fn new(codes: Vec<u32>) -> DiamondTable {
        assert!(codes.len() <= MAX_DIAMONDS);
        if codes.is_empty() {
            return DiamondTable::default();
        }
        let bits = (2 * codes.len())
            .next_power_of_two()
            .trailing_zeros()
            .max(4);
        let mut t = DiamondTable {
            keys: vec![u32::MAX; 1 << bits],
            levels: vec![0; 1 << bits],
            shift: 64 - bits,
            codes,
        };
        for (i, &code) in t.codes.iter().enumerate() {
            let mut s = t.slot(code);
            while t.keys[s] != u32::MAX {
                assert_ne!(t.keys[s], code, "diamond {code:#x} listed twice");
                s = (s + 1) & (t.keys.len() - 1);
            }
            t.keys[s] = code;
            t.levels[s] = (i + 1) as u16;
        }
        t
    }

    #[inline]
    fn slot(&self, code: u32) -> usize {
        ((code as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Number of frequent codes (levels 1..=len).
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// The level of a canonical code: 0 if it is not in the table.
    #[inline]
    pub fn level(&self, code: u32) -> u16 {
        if self.codes.is_empty() {
            return 0;
        }
        let mask = self.keys.len() - 1;
        let mut s = self.slot(code);
        loop {
            let k = self.keys[s];
            if k == code {
                return self.levels[s];
            }
            if k == u32::MAX {
                return 0;
            }
            s = (s + 1) & mask;
        }
    }

    /// The code of a level, if it has one.
    pub fn code(&self, level: u16) -> Option<u32> {
        self.codes.get((level as usize).checked_sub(1)?).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        Board::from_diagram(rows).unwrap()
    }

    /// The diagram transformed by a symmetry of the square (flip columns, flip rows,
    /// transpose), so the same position can be seen in all 8 orientations.
    fn transform(rows: &[&str], sym: usize) -> Vec<String> {
        let n = rows.len();
        let at = |r: usize, c: usize| rows[r].as_bytes()[c] as char;
        (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| {
                        let (mut rr, mut cc) = (r, c);
                        if sym & 4 != 0 {
                            std::mem::swap(&mut rr, &mut cc);
                        }
                        if sym & 1 != 0 {
                            cc = n - 1 - cc;
                        }
                        if sym & 2 != 0 {
                            rr = n - 1 - rr;
                        }
                        at(rr, cc)
                    })
                    .collect()
            })
            .collect()
    }

    fn swap_diagram(rows: &[String]) -> Vec<String> {
        rows.iter()
            .map(|r| {
                r.chars()
                    .map(|ch| match ch {
                        'X' => 'O',
                        'O' => 'X',
                        ch => ch,
                    })
                    .collect()
            })
            .collect()
    }

    /// Where the marked point `*` of a diagram is, and the diagram with it emptied.
    fn marked(rows: &[String]) -> (Board, Point) {
        let n = rows.len();
        let r = rows.iter().position(|r| r.contains('*')).unwrap();
        let c = rows[r].find('*').unwrap();
        let clean: Vec<String> = rows.iter().map(|r| r.replace('*', ".")).collect();
        let refs: Vec<&str> = clean.iter().map(|s| s.as_str()).collect();
        let b = board(&refs);
        // Diagram row 0 is the top row.
        let p = b.point(c, n - 1 - r);
        (b, p)
    }

    #[test]
    fn symmetric_images_and_colour_swaps_share_the_code() {
        // An asymmetric diamond at the top edge: the far point above is off the board.
        let base = [".OX...", ".O*X..", "..O...", "....X.", "......", "......"];
        let rows: Vec<String> = base.iter().map(|s| s.to_string()).collect();
        let (b, p) = marked(&rows);
        let want = code(&b, Color::Black, p);
        let mut raws = std::collections::HashSet::new();
        for sym in 0..8 {
            let t = transform(&base, sym);
            let (b, p) = marked(&t);
            raws.insert(raw_code(&b, Color::Black, p));
            assert_eq!(code(&b, Color::Black, p), want, "symmetry {sym}");
            // The same shape with the colours swapped and White to move.
            let (bs, ps) = marked(&swap_diagram(&t));
            assert_eq!(code(&bs, Color::White, ps), want, "swapped, symmetry {sym}");
            // The other side to move sees a different diamond.
            assert_ne!(code(&b, Color::White, p), want);
        }
        // The shape has no symmetry of its own: the 8 raw images all differ.
        assert_eq!(raws.len(), 8);
        assert!(is_canonical(want));
        assert_eq!(canonical(swap_colours(swap_colours(want))), want);
    }

    #[test]
    fn a_hand_made_diamond_has_the_expected_code() {
        // Black to move at C2 on a 5x5 board: B3 black, D2 white, C1 black, C4 white,
        // A2 white; the far point below (C0) is off the board.
        // Diagram row 0 is the top row (row 5 of the board).
        let b = board(&[".....", "..O..", ".X...", "O..O.", "..X.."]);
        let p = b.point(2, 1);
        // Cells in code order: B3 C3 D3 | B2 D2 | B1 C1 D1 | C4 | A2 E2 | C0.
        let cells = [
            OWN, EMPTY, EMPTY, EMPTY, OPPONENT, EMPTY, OWN, EMPTY, OPPONENT, OPPONENT, EMPTY,
            OFF_BOARD,
        ];
        let raw: u32 = cells.iter().enumerate().map(|(i, &v)| v << (2 * i)).sum();
        assert_eq!(raw_code(&b, Color::Black, p), raw);
        assert_eq!(raw_code(&b, Color::White, p), swap_colours(raw));
        assert_eq!(code(&b, Color::Black, p), canonical(raw));
        // The corner: five of the twelve points are off the board.
        let e = Board::new(9);
        let corner = raw_code(&e, Color::Black, e.point(0, 0));
        let off = (0..CELLS)
            .filter(|&i| (corner >> (2 * i)) & 3 == OFF_BOARD)
            .count();
        assert_eq!(off, 7, "{corner:#x}");
    }

    #[test]
    fn the_table_finds_its_codes_and_nothing_else() {
        let codes: Vec<u32> = (0..1000u32)
            .map(|i| canonical(i * 7919 % (1 << 24)))
            .collect();
        let mut uniq = Vec::new();
        for c in codes {
            if !uniq.contains(&c) {
                uniq.push(c);
            }
        }
        let t = DiamondTable::new(uniq.clone());
        for (i, &c) in uniq.iter().enumerate() {
            assert_eq!(t.level(c), i as u16 + 1);
            assert_eq!(t.code(i as u16 + 1), Some(c));
        }
        assert_eq!(t.level(canonical(0xabcdef)), 0);
        assert_eq!(DiamondTable::default().level(0), 0);
        assert_eq!(t.code(0), None);
    }
}
