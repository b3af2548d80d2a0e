//! Endgame test suites in the FFO/Edax `.obf` format: one problem a line, the 64 squares
//! (`X` black, `O` white, `-` empty) and the side to move, then the moves with their exact
//! final disc difference, best first: `O--OOOOX-OOO...-------- X; A2:+38; C7:+36; ...`.
use super::bitboard::parse_square;
use super::board::Board;
use crate::color::Color;

/// One suite line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The position, seen from the side to move.
    pub board: Board,
    pub to_move: Color,
    /// `(square, exact score)` of the listed moves, in the line's order.
    pub moves: Vec<(usize, i32)>,
}

impl Problem {
    /// The exact value of the position: the best listed score (`None` when no move is
    /// listed).
    pub fn score(&self) -> Option<i32> {
        self.moves.iter().map(|m| m.1).max()
    }

    /// Whether `square` is a listed move that reaches the best score (several may tie).
    pub fn is_best(&self, square: usize) -> bool {
        self.score()
            .is_some_and(|best| self.moves.iter().any(|&(m, v)| m == square && v == best))
    }
}

/// Parses one suite line.
pub fn parse_line(line: &str) -> Result<Problem, String> {
    let mut parts = line.split_whitespace();
    let squares = parts.next().ok_or("empty line")?;
    let side = parts
        .next()
        .ok_or("missing side to move")?
        .trim_end_matches(';');
    let (board, to_move) = Board::from_obf(squares, side).map_err(|e| e.to_string())?;
    let mut moves = Vec::new();
    for item in parts.collect::<Vec<_>>().join(" ").split(';') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let (m, s) = item
            .split_once(':')
            .ok_or(format!("bad move score '{item}'"))?;
        let square = parse_square(m.trim()).ok_or(format!("bad move '{m}'"))?;
        let v: i32 = s.trim().parse().map_err(|_| format!("bad score '{s}'"))?;
        moves.push((square, v));
    }
    Ok(Problem {
        board,
        to_move,
        moves,
    })
}

/// The problem lines of a suite file (blank lines left out).
pub fn lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.trim().is_empty()).collect()
}

/// The number of a suite's first problem from a file name such as `ffo-40-59.obf` (its
/// first number; 1 when it holds none).
pub fn first_number(file_name: &str) -> usize {
    file_name
        .split(|c: char| !c.is_ascii_digit())
        .find(|s| !s.is_empty())
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suite_line_gives_its_position_side_and_scored_moves() {
        let p = parse_line(
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36; D8:+34;",
        )
        .unwrap();
        assert_eq!(p.to_move, Color::Black);
        // a1 is white, h1 black; 12 black and 32 white discs, 20 empties.
        assert_eq!(p.board.o & 1, 1);
        assert_eq!(p.board.p >> 7 & 1, 1);
        assert_eq!(p.board.p.count_ones(), 12);
        assert_eq!(p.board.o.count_ones(), 32);
        // A2 is the first square of the second row.
        assert_eq!(p.moves, vec![(8, 38), (50, 36), (59, 34)]);
        assert_eq!(p.score(), Some(38));
        assert!(p.is_best(8) && !p.is_best(50) && !p.is_best(0));
    }

    #[test]
    fn ties_and_bad_lines() {
        let empty = "-".repeat(60);
        let p = parse_line(&format!("XXOO{empty} O; a1:-4; b1:-4; c1:-6")).unwrap();
        assert_eq!(p.to_move, Color::White);
        assert!(p.is_best(0) && p.is_best(1) && !p.is_best(2));
        assert!(parse_line("").is_err());
        assert!(parse_line(&format!("XXOO{empty}")).is_err());
        assert!(parse_line(&format!("XXOO{empty} X; z9:+2")).is_err());
        assert!(parse_line(&format!("XXOO{empty} X; a1:+x")).is_err());
        assert!(parse_line(&format!("XXOO{empty} X; a1")).is_err());
        assert!(parse_line("XXOO X;").is_err());
    }

    #[test]
    fn suite_files_number_their_problems_from_the_name() {
        assert_eq!(first_number("ffo-40-59.obf"), 40);
        assert_eq!(first_number("suite.obf"), 1);
        assert_eq!(lines("a\n\n  \nb\n"), vec!["a", "b"]);
    }
}
