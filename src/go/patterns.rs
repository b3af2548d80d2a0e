//! 3x3 shape patterns around a candidate point (hane, cut, side patterns), the set MoGo used
//! in its playouts and Pachi/Michi kept. A neighbourhood is coded in 16 bits, two per
//! neighbour, and looked up in a 64 Kbit table built once.
use std::sync::OnceLock;

use super::board::{Board, Point};

/// Patterns with the candidate point in the centre. `X`/`O`: stones of either colour (the
/// table holds both colourings), `x`: not X, `o`: not O, `.`: empty, ` `: off the board,
/// `?`: anything.
const PATTERNS: [[&str; 3]; 13] = [
    ["XOX", "...", "???"], // hane: enclosing hane
    ["XO.", "...", "?.?"], // hane: non-cutting hane
    ["XO?", "X..", "x.?"], // hane: magari
    [".O.", "X..", "..."], // katatsuke or diagonal attachment
    ["XO?", "O.o", "?o?"], // cut1: unprotected cut
    ["XO?", "O.X", "???"], // cut1: peeped cut
    ["?X?", "O.O", "ooo"], // cut2
    ["OX?", "o.O", "???"], // cut keima
    ["X.?", "O.?", "   "], // side: chase
    ["OX?", "X.O", "   "], // side: block side cut
    ["?X?", "x.O", "   "], // side: block side connection
    ["?XO", "x.x", "   "], // side: sagari
    ["?OX", "X.O", "   "], // side: cut
];

/// Cell codes in a neighbourhood code: the board's own (see [`Board::cell_code`]).
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const EDGE: u8 = 3;

fn allowed(ch: u8) -> u8 {
    let bit = |c: u8| 1u8 << c;
    match ch {
        b'X' => bit(BLACK),
        b'O' => bit(WHITE),
        b'x' => bit(EMPTY) | bit(WHITE) | bit(EDGE),
        b'o' => bit(EMPTY) | bit(BLACK) | bit(EDGE),
        b'.' => bit(EMPTY),
        b' ' => bit(EDGE),
        _ => 0xF,
    }
}

/// The 8 neighbour cells of a pattern as allowed-sets, in the order of [`neighbourhood`]:
/// row above (left to right), left, right, row below.
fn cells(rows: [[u8; 3]; 3]) -> [u8; 8] {
    let r = rows;
    [
        r[0][0], r[0][1], r[0][2], r[1][0], r[1][2], r[2][0], r[2][1], r[2][2],
    ]
}

fn variants(p: &[&str; 3]) -> Vec<[u8; 8]> {
    let grid: [[u8; 3]; 3] = std::array::from_fn(|r| std::array::from_fn(|c| p[r].as_bytes()[c]));
    let mut out = Vec::new();
    for swap in [false, true] {
        let g = grid.map(|row| {
            row.map(|ch| match (swap, ch) {
                (true, b'X') => b'O',
                (true, b'O') => b'X',
                (true, b'x') => b'o',
                (true, b'o') => b'x',
                (_, c) => c,
            })
        });
        for sym in 0..8 {
            let t: [[u8; 3]; 3] = std::array::from_fn(|r| {
                std::array::from_fn(|c| {
                    let (mut rr, mut cc) = (r, c);
                    if sym & 1 != 0 {
                        cc = 2 - cc;
                    }
                    if sym & 2 != 0 {
                        rr = 2 - rr;
                    }
                    if sym & 4 != 0 {
                        std::mem::swap(&mut rr, &mut cc);
                    }
                    allowed(g[rr][cc])
                })
            });
            out.push(cells(t));
        }
    }
    out
}

fn table() -> &'static [u64; 1024] {
    static TABLE: OnceLock<Box<[u64; 1024]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let pats: Vec<[u8; 8]> = PATTERNS.iter().flat_map(variants).collect();
        let mut t = Box::new([0u64; 1024]);
        for code in 0..65536usize {
            let hit = pats
                .iter()
                .any(|pat| (0..8).all(|i| pat[i] & (1 << ((code >> (2 * i)) & 3)) != 0));
            if hit {
                t[code >> 6] |= 1 << (code & 63);
            }
        }
        t
    })
}

/// Neighbourhood code of `p`: two bits per neighbour (empty, black, white, edge).
#[inline]
pub fn neighbourhood(b: &Board, p: Point) -> usize {
    let w = b.width();
    let pts = [
        p - w - 1,
        p - w,
        p - w + 1,
        p - 1,
        p + 1,
        p + w - 1,
        p + w,
        p + w + 1,
    ];
    let mut code = 0usize;
    for (i, q) in pts.into_iter().enumerate() {
        code |= (b.cell_code(q) as usize) << (2 * i);
    }
    code
}

/// Whether the shape around empty point `p` matches one of the patterns.
#[inline]
pub fn matches(b: &Board, p: Point) -> bool {
    let code = neighbourhood(b, p);
    table()[code >> 6] & (1 << (code & 63)) != 0
}

/// Forces the table to be built (so the first search does not pay for it).
pub fn warm_up() {
    table();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color::*;

    #[test]
    fn hane_matches_in_every_orientation_and_colour() {
        // Black B3 above-left... build "XOX / ... " around C2 on a 5x5 board: row 3 B,C,D.
        for (a, b2) in [(Black, White), (White, Black)] {
            let mut bd = Board::new(5);
            let s = [
                (a, bd.point(1, 2)),
                (b2, bd.point(2, 2)),
                (a, bd.point(3, 2)),
            ];
            assert!(bd.add_setup_stones(&s));
            assert!(matches(&bd, bd.point(2, 1)));
            // Rotated: the same shape seen from below is also a hane for C4.
            assert!(matches(&bd, bd.point(2, 3)));
        }
    }

    #[test]
    fn empty_surroundings_do_not_match() {
        let bd = Board::new(9);
        assert!(!matches(&bd, bd.point(4, 4)));
        assert!(!matches(&bd, bd.point(0, 0)));
    }
}
