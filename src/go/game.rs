//! TEMPORARY stand-in for the lead's Go game (matchrunner branch only, removed before merge).
use super::board::{Board, Move, Point};
use crate::color::Color;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IllegalMove;

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("illegal move")
    }
}

#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    komi: f32,
    to_move: Color,
    moves: Vec<(Color, Move)>,
    history: Vec<Board>,
    handicap: Vec<Point>,
}

impl Game {
    pub fn new(size: usize, komi: f32) -> Game {
        let board = Board::new(size);
        Game {
            history: vec![board.clone()],
            board,
            komi,
            to_move: Color::Black,
            moves: Vec::new(),
            handicap: Vec::new(),
        }
    }
    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn komi(&self) -> f32 {
        self.komi
    }
    pub fn to_move(&self) -> Color {
        self.to_move
    }
    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }
    pub fn handicap_stones(&self) -> &[Point] {
        &self.handicap
    }
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        if let Move::Play(p) = mv {
            let n = self.board.size() * self.board.size();
            if p >= n || self.board.stone(p).is_some() {
                return Err(IllegalMove);
            }
            let mut b = self.board.clone();
            b.set(p, Some(color));
            for q in b.neighbours(p) {
                if b.stone(q) == Some(color.opponent()) {
                    let (g, libs) = b.group(q);
                    if !libs {
                        for s in g {
                            b.set(s, None);
                        }
                    }
                }
            }
            if !b.group(p).1 || self.history.contains(&b) {
                return Err(IllegalMove);
            }
            self.history.push(b.clone());
            self.board = b;
        }
        self.moves.push((color, mv));
        self.to_move = color.opponent();
        Ok(())
    }
    pub fn area_score(&self) -> f32 {
        let n = self.board.size() * self.board.size();
        let mut score = 0i32;
        for p in 0..n {
            match self.board.stone(p) {
                Some(Color::Black) => score += 1,
                Some(Color::White) => score -= 1,
                None => {
                    let mut seen = vec![false; n];
                    let mut stack = vec![p];
                    seen[p] = true;
                    let (mut b, mut w) = (false, false);
                    while let Some(q) = stack.pop() {
                        for m in self.board.neighbours(q) {
                            match self.board.stone(m) {
                                Some(Color::Black) => b = true,
                                Some(Color::White) => w = true,
                                None if !seen[m] => {
                                    seen[m] = true;
                                    stack.push(m);
                                }
                                None => {}
                            }
                        }
                    }
                    if b && !w {
                        score += 1;
                    } else if w && !b {
                        score -= 1;
                    }
                }
            }
        }
        score as f32 - self.komi
    }
}
