//! A Go game: the board plus what the board alone cannot know — komi, handicap set-up,
//! the move list for undo and SGF, and the position history for positional superko.
use std::fmt;

use super::board::{Board, Move, Point};
use crate::color::Color;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove;

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("illegal move")
    }
}

impl std::error::Error for IllegalMove {}

#[derive(Clone)]
pub struct Game {
    board: Board,
    komi: f32,
    handicap: Vec<Point>,
    moves: Vec<(Color, Move)>,
    /// Board before each move, for undo.
    undo_stack: Vec<Board>,
    /// Stone hashes of every position so far, the current one last.
    history: Vec<u64>,
}

impl Game {
    /// A new game; `size` must satisfy [`super::board::valid_size`].
    pub fn new(size: usize, komi: f32) -> Game {
        let board = Board::new(size);
        let history = vec![board.hash()];
        Game {
            board,
            komi,
            handicap: Vec::new(),
            moves: Vec::new(),
            undo_stack: Vec::new(),
            history,
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn size(&self) -> usize {
        self.board.size()
    }

    pub fn komi(&self) -> f32 {
        self.komi
    }

    pub fn set_komi(&mut self, komi: f32) {
        self.komi = komi;
    }

    pub fn to_move(&self) -> Color {
        self.board.to_move()
    }

    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }

    pub fn handicap_stones(&self) -> &[Point] {
        &self.handicap
    }

    /// Stone hashes of all positions of the game, the current one last.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Whether playing `mv` for `color` is legal, positional superko included.
    pub fn is_legal(&self, color: Color, mv: Move) -> bool {
        let mut b = self.board.clone();
        // GTP lets either colour move; the simple-ko point only binds the side it was set for.
        if !b.play(color, mv) {
            return false;
        }
        mv == Move::Pass || !self.history.contains(&b.hash())
    }

    /// Plays `mv` for `color`; occupied points, suicide, ko and positional superko are
    /// rejected with the game unchanged.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        let mut b = self.board.clone();
        if !b.play(color, mv) {
            return Err(IllegalMove);
        }
        if mv != Move::Pass && self.history.contains(&b.hash()) {
            return Err(IllegalMove);
        }
        let old = std::mem::replace(&mut self.board, b);
        self.undo_stack.push(old);
        self.history.push(self.board.hash());
        self.moves.push((color, mv));
        Ok(())
    }

    /// Takes back the last move; false if there is none (handicap stones are not moves).
    pub fn undo(&mut self) -> bool {
        match self.undo_stack.pop() {
            Some(b) => {
                self.board = b;
                self.moves.pop();
                self.history.pop();
                true
            }
            None => false,
        }
    }

    /// Places black handicap stones on an empty board (before any move). White moves next.
    pub fn set_handicap(&mut self, points: &[Point]) -> Result<(), IllegalMove> {
        if !self.moves.is_empty() || !self.handicap.is_empty() {
            return Err(IllegalMove);
        }
        let stones: Vec<(Color, Point)> = points.iter().map(|&p| (Color::Black, p)).collect();
        let mut distinct = points.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() != points.len() || !self.board.add_setup_stones(&stones) {
            return Err(IllegalMove);
        }
        self.handicap = points.to_vec();
        self.board.set_to_move(Color::White);
        self.history = vec![self.board.hash()];
        Ok(())
    }

    /// Adds arbitrary set-up stones (SGF `AB`/`AW`) before any move.
    pub fn add_setup(&mut self, stones: &[(Color, Point)]) -> Result<(), IllegalMove> {
        if !self.moves.is_empty() || !self.board.add_setup_stones(stones) {
            return Err(IllegalMove);
        }
        self.handicap
            .extend(stones.iter().filter(|s| s.0 == Color::Black).map(|s| s.1));
        self.history = vec![self.board.hash()];
        Ok(())
    }

    /// Consecutive passes at the end of the move list.
    pub fn trailing_passes(&self) -> usize {
        self.moves
            .iter()
            .rev()
            .take_while(|(_, m)| *m == Move::Pass)
            .count()
    }

    /// Tromp–Taylor area score: black area minus white area minus komi; > 0 means black wins.
    /// Every stone on the board counts as alive.
    pub fn area_score(&self) -> f32 {
        self.board.area_balance() as f32 - self.komi
    }

    /// Area score after taking `dead` stones off the board.
    pub fn area_score_without(&self, dead: &[Point]) -> f32 {
        let mut b = self.board.clone();
        b.remove_stones(dead);
        b.area_balance() as f32 - self.komi
    }
}

/// Formats a score as GTP `final_score` does: `B+3.5`, `W+0.5`, `0`.
pub fn format_score(score: f32) -> String {
    if score > 0.0 {
        format!("B+{}", score)
    } else if score < 0.0 {
        format!("W+{}", -score)
    } else {
        "0".to_string()
    }
}
