//! A game of Gomoku: the board, whose turn it is, and the result. History lives in the board.
use super::board::{Board, Point, Rule};
use crate::color::Color;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    Occupied,
    /// A renju forbidden point for Black.
    Forbidden,
    GameOver,
}

impl PlayError {
    pub fn message(self) -> &'static str {
        match self {
            PlayError::Occupied => "illegal move",
            PlayError::Forbidden => "illegal move (forbidden point)",
            PlayError::GameOver => "game is over",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Color),
    Draw,
}

#[derive(Clone)]
pub struct Game {
    board: Board,
    colors: Vec<Color>,
    outcome: Option<Outcome>,
}

impl Game {
    pub fn new(size: usize, rule: Rule) -> Game {
        Game {
            board: Board::new(size, rule),
            colors: Vec::new(),
            outcome: None,
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }
    /// Mutable board for searches, which must leave it as they found it.
    pub fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }
    pub fn size(&self) -> usize {
        self.board.size()
    }
    pub fn rule(&self) -> Rule {
        self.board.rule()
    }
    pub fn set_rule(&mut self, rule: Rule) {
        self.board.set_rule(rule);
        self.recompute_outcome();
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    pub fn moves(&self) -> impl Iterator<Item = (Color, Point)> + '_ {
        self.colors
            .iter()
            .copied()
            .zip(self.board.history().iter().copied())
    }
    pub fn move_count(&self) -> usize {
        self.colors.len()
    }

    /// The side after the last mover; Black on an empty board.
    pub fn to_move(&self) -> Color {
        self.colors.last().map_or(Color::Black, |c| c.opponent())
    }

    /// Whether `c` may play `p` now (on the board and empty, not forbidden, game not over).
    pub fn check(&mut self, c: Color, p: Point) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        if !self.board.is_empty(p) {
            return Err(PlayError::Occupied);
        }
        if c == Color::Black && self.board.is_forbidden(p) {
            return Err(PlayError::Forbidden);
        }
        Ok(())
    }

    pub fn play(&mut self, c: Color, p: Point) -> Result<(), PlayError> {
        self.check(c, p)?;
        let wins = self.board.makes_five(p, c);
        self.board.place(p, c);
        self.colors.push(c);
        self.outcome = if wins {
            Some(Outcome::Win(c))
        } else if self.board.is_full() {
            Some(Outcome::Draw)
        } else {
            None
        };
        Ok(())
    }

    /// Places a stone without the turn and forbidden-point checks (setting up a position);
    /// an occupied point is ignored.
    pub fn setup(&mut self, c: Color, p: Point) {
        if !self.board.is_empty(p) {
            return;
        }
        self.board.place(p, c);
        self.colors.push(c);
        self.recompute_outcome();
    }

    /// Takes back the last move; false on an empty board.
    pub fn undo(&mut self) -> bool {
        if self.board.undo().is_none() {
            return false;
        }
        self.colors.pop();
        self.recompute_outcome();
        true
    }

    /// After undo or a rule change: the result of the current position.
    fn recompute_outcome(&mut self) {
        self.outcome = None;
        if let (Some(&c), Some(&p)) = (self.colors.last(), self.board.history().last()) {
            if self.board.makes_five_now(p, c) {
                self.outcome = Some(Outcome::Win(c));
                return;
            }
        }
        if self.board.is_full() {
            self.outcome = Some(Outcome::Draw);
        }
    }

    /// The empty points `c` may play.
    pub fn legal_moves(&mut self, c: Color) -> Vec<Point> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let pts: Vec<Point> = self.board.points().collect();
        pts.into_iter()
            .filter(|&p| {
                self.board.is_empty(p) && !(c == Color::Black && self.board.is_forbidden(p))
            })
            .collect()
    }
}
