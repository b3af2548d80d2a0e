//! Seki by the board alone: a string is in seki when it has two liberties, shares one with
//! an adjacent opposing string that also has two, and neither side can approach: on each
//! liberty, a move by either colour is illegal or puts the mover's own string in atari
//! without capturing anything (so the opponent captures it). This is the classical
//! shared-liberty seki (Sensei's Library, "Seki"); it never guesses from playouts, so a
//! contested string in the middle game is not called seki unless its shape says so.
use super::board::{Board, Point};
use super::playout::is_self_atari;
use crate::color::Color;

/// Whether playing `c` at empty `p` approaches successfully: a legal move that captures or
/// does not self-atari.
fn can_approach(b: &Board, c: Color, p: Point) -> bool {
    if !b.is_legal(c, p) {
        return false;
    }
    let captures = b
        .neighbors(p)
        .iter()
        .any(|&n| b.stone(n) == Some(c.opponent()) && b.libs(n) == 1);
    captures || !is_self_atari(b, c, p)
}

/// Whether the string at `p` is in seki.
pub fn in_seki(b: &Board, p: Point) -> bool {
    let Some(c) = b.stone(p) else { return false };
    if b.libs(p) != 2 {
        return false;
    }
    let libs: Vec<Point> = b.two_libs(p).into_iter().flatten().collect();
    if libs.len() != 2 {
        return false;
    }
    for &l in &libs {
        for color in [c, c.opponent()] {
            if can_approach(b, color, l) {
                return false;
            }
        }
    }
    // Shared with an opposing string of two liberties: otherwise two liberties that nobody
    // can fill are simply two eyes.
    let mut shared = false;
    for &l in &libs {
        for n in b.neighbors(l) {
            if b.stone(n) == Some(c.opponent()) && b.libs(n) == 2 {
                shared = true;
            }
        }
    }
    shared
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::board::Move;

    /// Builds a board from rows (top row first): X black, O white, . empty.
    fn board(rows: &[&str]) -> Board {
        let size = rows.len();
        let mut b = Board::new(size);
        for (i, row) in rows.iter().enumerate() {
            let r = size - 1 - i;
            for (col, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
                let c = match ch {
                    'X' => Color::Black,
                    'O' => Color::White,
                    _ => continue,
                };
                assert!(b.play(c, Move::Play(b.point(col, r))), "{row}");
            }
        }
        b
    }

    /// Two whole-board strings sharing their only two liberties c4 and c2: whoever fills
    /// one puts itself in atari without capturing, so nobody does (a seki by definition).
    const SEKI: [&str; 5] = [
        "X X X O O",
        "X X . O O",
        "X X X O O",
        "X X . O O",
        "X X X O O",
    ];

    #[test]
    fn shared_liberty_seki_is_found() {
        let b = board(&SEKI);
        for p in b.points() {
            assert_eq!(in_seki(&b, p), b.stone(p).is_some(), "{:?}", b.col_row(p));
        }
    }

    #[test]
    fn a_third_liberty_breaks_the_seki() {
        // White's extra liberty at e1 lets White fill c4 safely: Black is simply dead.
        let mut rows = SEKI;
        rows[4] = "X X X O .";
        let b = board(&rows);
        for p in b.points() {
            assert!(!in_seki(&b, p), "{:?}", b.col_row(p));
        }
    }

    #[test]
    fn two_eyes_and_open_positions_are_not_seki() {
        let b = board(&[
            ". X . X .",
            "X X X X X",
            ". . . . .",
            "O O O O O",
            ". . . . .",
        ]);
        for p in b.points() {
            assert!(!in_seki(&b, p));
        }
        // Two eyes at a5 and c5 only (the rest filled by White around): two liberties
        // nobody can fill, but not shared, so not seki.
        let b = board(&[
            ". X . X O",
            "X X X X O",
            "O O O O O",
            ". . . . .",
            ". . . . .",
        ]);
        assert!(b.points().all(|p| !in_seki(&b, p)));
    }
}
