//! The Othello position: two bitboards seen from the side to move.
//!
//! `Board` is copy-make (16 bytes), so search keeps no undo stack. The colour of the side
//! to move is kept by the caller (`Game`); the board is always "player vs opponent", which
//! is what search, hashing and the solver need.
use super::bitboard::{flips, moves, square_name};
use crate::color::Color;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Discs of the side to move.
    pub p: u64,
    /// Discs of the other side.
    pub o: u64,
}

/// Why an `.obf` / `setboard` position was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseBoardError {
    Length(usize),
    BadSquare(char),
    BadSide(String),
}

impl fmt::Display for ParseBoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseBoardError::Length(n) => write!(f, "board needs 64 squares, got {n}"),
            ParseBoardError::BadSquare(c) => write!(f, "bad square character '{c}'"),
            ParseBoardError::BadSide(s) => write!(f, "bad side to move '{s}'"),
        }
    }
}

impl Board {
    /// The standard start: d4/e5 white, e4/d5 black, black to move.
    pub fn start() -> Board {
        let white = (1u64 << 27) | (1u64 << 36);
        let black = (1u64 << 28) | (1u64 << 35);
        Board { p: black, o: white }
    }

    #[inline]
    pub fn moves(&self) -> u64 {
        moves(self.p, self.o)
    }

    #[inline]
    pub fn empties(&self) -> u64 {
        !(self.p | self.o)
    }

    /// Plays `sq` (which must flip `f = flips(..)` discs, non-zero) and hands the turn over.
    #[inline]
    pub fn play_flips(&self, sq: usize, f: u64) -> Board {
        Board {
            p: self.o & !f,
            o: self.p | f | (1u64 << sq),
        }
    }

    /// Plays `sq` if it is legal for the side to move.
    pub fn play(&self, sq: usize) -> Option<Board> {
        if sq >= 64 || self.empties() >> sq & 1 == 0 {
            return None;
        }
        let f = flips(self.p, self.o, sq);
        if f == 0 {
            return None;
        }
        Some(self.play_flips(sq, f))
    }

    /// A uniformly random legal move, or a pass when the side to move has none; `None`
    /// when the game is over (random openings, self-play starts, test positions).
    pub fn play_random(&self, rng: &mut impl rand::Rng) -> Option<Board> {
        let mv = self.moves();
        if mv == 0 {
            return (!self.is_game_over()).then(|| self.pass());
        }
        let sq = super::bitboard::nth_square(mv, rng.gen_range(0..mv.count_ones()));
        Some(self.play_flips(sq, flips(self.p, self.o, sq)))
    }

    #[inline]
    pub fn pass(&self) -> Board {
        Board {
            p: self.o,
            o: self.p,
        }
    }

    pub fn is_game_over(&self) -> bool {
        self.moves() == 0 && moves(self.o, self.p) == 0
    }

    /// Final disc difference for the side to move, empties going to the winner
    /// (the WTHOR/FFO convention the solved scores use).
    #[inline]
    pub fn final_score(&self) -> i32 {
        let p = self.p.count_ones() as i32;
        let o = self.o.count_ones() as i32;
        let e = 64 - p - o;
        let d = p - o;
        if d > 0 {
            d + e
        } else if d < 0 {
            d - e
        } else {
            0
        }
    }

    /// A 64-bit hash of the disc pair (a multiply-xorshift mix; the pair itself is the key
    /// stored in the table, so the hash only has to spread well).
    #[inline]
    pub fn hash(&self) -> u64 {
        let mut h = self.p.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ self.o.rotate_left(29).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        h ^= h >> 31;
        h = h.wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^ (h >> 29)
    }

    /// Parses the 64-square board of the FFO/Edax format (`X` black, `O` white, `-` or `.`
    /// empty) with `side` (`X`/`O`, or b/w/black/white) to move. Returns the board seen
    /// from the side to move and that colour.
    pub fn from_obf(squares: &str, side: &str) -> Result<(Board, Color), ParseBoardError> {
        let n = squares.chars().count();
        if n != 64 {
            return Err(ParseBoardError::Length(n));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, c) in squares.chars().enumerate() {
            match c {
                'X' | 'x' | '*' => black |= 1 << i,
                'O' | 'o' => white |= 1 << i,
                '-' | '.' => {}
                _ => return Err(ParseBoardError::BadSquare(c)),
            }
        }
        let color = match side {
            "X" | "x" | "*" => Color::Black,
            "O" | "o" => Color::White,
            s => s
                .parse::<Color>()
                .map_err(|_| ParseBoardError::BadSide(s.to_string()))?,
        };
        Ok((Board::from_colors(black, white, color), color))
    }

    pub fn from_colors(black: u64, white: u64, to_move: Color) -> Board {
        match to_move {
            Color::Black => Board { p: black, o: white },
            Color::White => Board { p: white, o: black },
        }
    }

    /// (black, white) given the colour to move.
    pub fn colors(&self, to_move: Color) -> (u64, u64) {
        match to_move {
            Color::Black => (self.p, self.o),
            Color::White => (self.o, self.p),
        }
    }

    /// The 64-character FFO string (X black, O white, - empty).
    pub fn to_obf(&self, to_move: Color) -> String {
        let (b, w) = self.colors(to_move);
        (0..64)
            .map(|i| {
                if b >> i & 1 != 0 {
                    'X'
                } else if w >> i & 1 != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect()
    }
}

/// Counts leaf nodes `depth` plies ahead. A pass is a ply; a finished game is a leaf
/// wherever it occurs (this is the convention of the published counts 4, 12, 56, ...).
pub fn perft(b: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut mv = b.moves();
    if mv == 0 {
        if moves(b.o, b.p) == 0 {
            return 1;
        }
        return perft(&b.pass(), depth - 1);
    }
    if depth == 1 {
        return mv.count_ones() as u64;
    }
    let mut n = 0;
    while mv != 0 {
        let sq = mv.trailing_zeros() as usize;
        mv &= mv - 1;
        n += perft(&b.play_flips(sq, flips(b.p, b.o, sq)), depth - 1);
    }
    n
}

/// Lists move names in square order, e.g. "c4 d3 e6 f5".
pub fn move_list(mut mv: u64) -> Vec<String> {
    let mut v = Vec::new();
    while mv != 0 {
        v.push(square_name(mv.trailing_zeros() as usize));
        mv &= mv - 1;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Published Othello perft counts (passes count as a ply), depths 1..=9.
    const PERFT: [u64; 9] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];

    #[test]
    fn perft_matches_published_counts() {
        let b = Board::start();
        for (d, &n) in PERFT.iter().enumerate() {
            assert_eq!(perft(&b, d as u32 + 1), n, "depth {}", d + 1);
        }
    }

    #[test]
    fn start_moves_are_the_four_classic_ones() {
        assert_eq!(move_list(Board::start().moves()), ["d3", "c4", "f5", "e6"]);
    }

    #[test]
    fn pass_and_game_end() {
        // Black a1, white b1, everything else empty but h8 black: white has no move
        // (b1 cannot outflank), black can take c1.
        let (b, c) = Board::from_obf(&format!("XO{}X", "-".repeat(61)), "O").unwrap();
        assert_eq!(c, Color::White);
        assert_eq!(b.moves(), 0);
        assert!(!b.is_game_over());
        assert_eq!(move_list(b.pass().moves()), ["c1"]);
        // After black c1 white has nothing left: game over, black wins 64-0 by convention.
        let after = b.pass().play(2).unwrap();
        assert!(after.is_game_over());
        assert_eq!(after.final_score(), -64);
        assert_eq!(after.pass().final_score(), 64);
    }

    #[test]
    fn illegal_plays_are_refused() {
        let b = Board::start();
        assert!(b.play(0).is_none()); // a1: flips nothing
        assert!(b.play(27).is_none()); // d4: occupied
        assert!(b.play(64).is_none());
        let after = b.play(19).unwrap(); // d3 flips d4
        assert_eq!(after.o.count_ones(), 4);
        assert_eq!(after.p.count_ones(), 1);
    }

    #[test]
    fn obf_round_trip_and_errors() {
        let s = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------";
        let (b, c) = Board::from_obf(s, "X").unwrap();
        assert_eq!(b.to_obf(c), s);
        assert_eq!(b.empties().count_ones(), 20);
        assert_eq!(
            Board::from_obf(&s[..63], "X"),
            Err(ParseBoardError::Length(63))
        );
        assert!(matches!(
            Board::from_obf(s, "Q"),
            Err(ParseBoardError::BadSide(_))
        ));
        assert!(matches!(
            Board::from_obf(&s.replace('O', "Z"), "X"),
            Err(ParseBoardError::BadSquare('Z'))
        ));
    }
}
