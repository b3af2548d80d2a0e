//! Dots-and-Boxes under the referee: the protocol of `protocols/dots.md` (`play black
//! a1-b1`, a capture means the same side moves again), our board rules, the box difference
//! as the score, and a plain-text record.
//!
//! Record format (`.dots`), one item per line:
//! ```text
//! # quartet dots record v1
//! size 5x5            columns x rows of boxes
//! black NAME
//! white NAME
//! date 2026-12-01
//! result B+3          as SGF RE: B+N, W+N, 0, B+R, W+T, B+F...
//! B a1-b1             then one line per edge: mover and edge, in order
//! ```
use super::go_referee::parse_go_score;
use super::referee::{BadMove, EngineMove, Outcome, RefereeGame};
use crate::color::Color;
use crate::dots::board::Board;
use crate::dots::notation::EdgeName;
use rand::rngs::SmallRng;
use rand::seq::IteratorRandom;
use std::fmt::Write;

/// One Dots-and-Boxes game being refereed.
pub struct DotsReferee {
    board: Board,
    moves: Vec<(Color, usize)>,
    max_moves: usize,
}

impl DotsReferee {
    /// `None` for a size the rules do not play (1..8 boxes each way).
    pub fn new(cols: usize, rows: usize) -> Option<DotsReferee> {
        let board = Board::new(cols, rows).ok()?;
        Some(DotsReferee {
            board,
            moves: Vec::new(),
            max_moves: usize::MAX,
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The moves played, in order, with who drew each edge.
    pub fn moves(&self) -> &[(Color, usize)] {
        &self.moves
    }

    pub fn with_max_moves(mut self, max_moves: usize) -> DotsReferee {
        self.max_moves = max_moves;
        self
    }
}

impl RefereeGame for DotsReferee {
    type Move = usize;

    fn setup_commands(&self) -> Vec<String> {
        let g = self.board.geometry();
        vec![
            format!("boardsize {}x{}", g.cols(), g.rows()),
            "clear_board".to_string(),
        ]
    }

    fn to_move(&self) -> Color {
        self.board.to_move()
    }

    fn random_move(&self, rng: &mut SmallRng) -> Option<usize> {
        self.board.legal_edges().choose(rng)
    }

    fn parse_move(&self, color: Color, answer: &str) -> Result<EngineMove<usize>, BadMove> {
        let a = answer.trim();
        if a.eq_ignore_ascii_case("resign") {
            return Ok(EngineMove::Resign);
        }
        let Ok(name) = a.parse::<EdgeName>() else {
            return Err(BadMove::Malformed(a.to_string()));
        };
        let Some(e) = self.board.edge_index(&name) else {
            return Err(BadMove::Illegal(format!("{a}: off the board")));
        };
        if color != self.board.to_move() || self.board.is_drawn(e) {
            return Err(BadMove::Illegal(format!(
                "{a}: not a legal move for {color}"
            )));
        }
        Ok(EngineMove::Move(e))
    }

    fn play(&mut self, color: Color, e: usize) -> Result<(), String> {
        if color != self.board.to_move() {
            return Err(format!("not {color}'s turn"));
        }
        self.board.play(e).map_err(|e| e.to_string())?;
        self.moves.push((color, e));
        Ok(())
    }

    fn move_text(&self, e: usize) -> String {
        self.board.edge_name(e).to_string()
    }

    fn is_over(&self) -> bool {
        self.board.is_over() || self.moves.len() >= self.max_moves
    }

    /// Boxes of Black minus boxes of White (so far, at a move cap).
    fn own_score(&self) -> f32 {
        self.board.margin(Color::Black) as f32
    }

    fn parse_final_score(&self, answer: &str) -> Option<f32> {
        parse_go_score(answer)
    }

    fn move_count(&self) -> usize {
        self.moves.len()
    }

    fn record(&self, outcome: &Outcome, names: [&str; 2], date: &str) -> String {
        let g = self.board.geometry();
        let one_line = |s: &str| s.replace(['\n', '\r'], " ");
        let mut s = String::from("# quartet dots record v1\n");
        let _ = writeln!(s, "size {}x{}", g.cols(), g.rows());
        let _ = writeln!(s, "black {}", one_line(names[0]));
        let _ = writeln!(s, "white {}", one_line(names[1]));
        let _ = writeln!(s, "date {date}");
        let _ = writeln!(s, "result {}", outcome.result_text());
        for &(c, e) in &self.moves {
            let _ = writeln!(s, "{} {}", c.letter(), self.board.edge_name(e));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(r: &DotsReferee, text: &str) -> usize {
        match r.parse_move(r.to_move(), text) {
            Ok(EngineMove::Move(e)) => e,
            other => panic!("{text}: {other:?}"),
        }
    }

    /// 1x1 board (4 edges): black draws three sides, white closes the box, scores it and
    /// the game is over, W+1. On 2x1, a capture keeps the turn.
    #[test]
    fn captures_and_extra_turns() {
        let mut r = DotsReferee::new(1, 1).unwrap();
        assert_eq!(r.setup_commands()[0], "boardsize 1x1");
        for (i, e) in ["a1-b1", "a1-a2", "b1-b2"].iter().enumerate() {
            let c = r.to_move();
            assert_eq!(
                c,
                if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                }
            );
            let m = mv(&r, e);
            r.play(c, m).unwrap();
        }
        assert_eq!(r.to_move(), Color::White);
        assert!(matches!(
            r.parse_move(Color::White, "a1-b1"),
            Err(BadMove::Illegal(_))
        ));
        assert!(matches!(
            r.parse_move(Color::White, "c1-c2"),
            Err(BadMove::Illegal(_))
        ));
        assert!(matches!(
            r.parse_move(Color::White, "banana"),
            Err(BadMove::Malformed(_))
        ));
        let m = mv(&r, "b2-a2");
        r.play(Color::White, m).unwrap();
        assert!(r.is_over());
        assert_eq!(r.own_score(), -1.0);
        let o = Outcome {
            winner: Some(Color::White),
            reason: super::super::referee::EndReason::Score {
                margin: -1.0,
                agreed: false,
            },
            moves: 4,
        };
        let rec = r.record(&o, ["x", "y"], "2026-12-01");
        assert!(rec.contains("size 1x1\n"), "{rec}");
        assert!(rec.contains("result W+1\n"), "{rec}");
        assert!(rec.ends_with("W a2-b2\n"), "{rec}");

        let mut r = DotsReferee::new(2, 1).unwrap();
        for e in ["a1-b1", "a2-b2", "a1-a2"] {
            let c = r.to_move();
            let m = mv(&r, e);
            r.play(c, m).unwrap();
        }
        // White closes the left box (a1-b1, a2-b2, a1-a2 drawn) with b1-b2 and moves again.
        assert_eq!(r.to_move(), Color::White);
        let m = mv(&r, "b1-b2");
        r.play(Color::White, m).unwrap();
        assert_eq!(r.to_move(), Color::White, "a capture keeps the turn");
        assert!(DotsReferee::new(0, 3).is_none());
    }
}
