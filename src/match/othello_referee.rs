//! Othello under the referee: the GTP dialect of `protocols/othello.md` (`play black d3`,
//! a1 top-left), our bitboard rules, the automatic pass rule, WTHOR scoring (empties to
//! the winner), SGF `GM[2]` records.
use super::go_referee::parse_go_score;
use super::referee::{BadMove, EngineMove, Outcome, RefereeGame};
use crate::color::Color;
use crate::othello::bitboard::{nth_square, parse_square, square_name};
use crate::othello::board::Board;
use crate::record::sgf::SgfRecord;
use rand::rngs::SmallRng;
use rand::Rng;

/// One Othello game being refereed. `None` in a move is a pass (never legal while the side
/// to move has a move; with the automatic pass rule it never is asked to pass).
pub struct OthelloReferee {
    board: Board,
    to_move: Color,
    moves: Vec<(Color, usize)>,
    max_moves: usize,
}

impl Default for OthelloReferee {
    fn default() -> OthelloReferee {
        OthelloReferee::new()
    }
}

impl OthelloReferee {
    /// The start position; a game has at most 60 moves, so the default cap never binds.
    pub fn new() -> OthelloReferee {
        OthelloReferee {
            board: Board::start(),
            to_move: Color::Black,
            moves: Vec::new(),
            max_moves: 60,
        }
    }

    pub fn with_max_moves(mut self, max_moves: usize) -> OthelloReferee {
        self.max_moves = max_moves;
        self
    }

    /// Black and white discs.
    /// The position, from the side to move's view (`p` is theirs).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The moves played, in order (forced passes are not moves here).
    pub fn moves(&self) -> &[(Color, usize)] {
        &self.moves
    }

    pub fn discs(&self) -> (u32, u32) {
        let (me, other) = (self.board.p.count_ones(), self.board.o.count_ones());
        match self.to_move {
            Color::Black => (me, other),
            Color::White => (other, me),
        }
    }
}

/// The SGF point of a square: column then row letter, `aa` top-left like our `a1`.
impl RefereeGame for OthelloReferee {
    type Move = usize;

    fn setup_commands(&self) -> Vec<String> {
        vec!["boardsize 8".to_string(), "clear_board".to_string()]
    }

    fn to_move(&self) -> Color {
        self.to_move
    }

    fn random_move(&self, rng: &mut SmallRng) -> Option<usize> {
        let moves = self.board.moves();
        let n = moves.count_ones();
        if n == 0 {
            return None;
        }
        Some(nth_square(moves, rng.gen_range(0..n)))
    }

    fn parse_move(&self, color: Color, answer: &str) -> Result<EngineMove<usize>, BadMove> {
        let a = answer.trim();
        if a.eq_ignore_ascii_case("resign") {
            return Ok(EngineMove::Resign);
        }
        if a.eq_ignore_ascii_case("pass") {
            return Err(BadMove::Illegal(format!("pass: {color} has a move")));
        }
        let Some(sq) = parse_square(a) else {
            return Err(BadMove::Malformed(a.to_string()));
        };
        if color != self.to_move || self.board.moves() >> sq & 1 == 0 {
            return Err(BadMove::Illegal(format!("{a}: not a legal move")));
        }
        Ok(EngineMove::Move(sq))
    }

    fn play(&mut self, color: Color, sq: usize) -> Result<(), String> {
        if color != self.to_move {
            return Err(format!("not {color}'s turn"));
        }
        let next = self.board.play(sq).ok_or("illegal move")?;
        self.moves.push((color, sq));
        self.board = next;
        self.to_move = color.opponent();
        // The dialect's automatic pass: a side without a move is skipped at once.
        if self.board.moves() == 0 && !self.board.is_game_over() {
            self.board = self.board.pass();
            self.to_move = color;
        }
        Ok(())
    }

    fn move_text(&self, sq: usize) -> String {
        square_name(sq)
    }

    fn is_over(&self) -> bool {
        self.board.is_game_over() || self.moves.len() >= self.max_moves
    }

    /// Black minus white discs, empties to the winner (also at a move cap).
    fn own_score(&self) -> f32 {
        let s = self.board.final_score() as f32;
        match self.to_move {
            Color::Black => s,
            Color::White => -s,
        }
    }

    fn parse_final_score(&self, answer: &str) -> Option<f32> {
        parse_go_score(answer)
    }

    fn move_count(&self) -> usize {
        self.moves.len()
    }

    /// SGF FF[4] GM[2]; passes are implicit (two moves of one colour in a row). A square
    /// `sq` is SGF `(sq % 8, sq / 8)`, both counted from a1 at the top left.
    fn record(&self, outcome: &Outcome, names: [&str; 2], date: &str) -> String {
        let mut rec = SgfRecord::new(2, 8);
        rec.set_info("PB", names[0]);
        rec.set_info("PW", names[1]);
        rec.set_info("DT", date);
        rec.set_info("RE", outcome.result_text());
        rec.moves = self
            .moves
            .iter()
            .map(|&(c, sq)| (c, Some((sq % 8, sq / 8))))
            .collect();
        rec.to_sgf()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(r: &mut OthelloReferee, moves: &[&str]) {
        for m in moves {
            let c = r.to_move();
            let Ok(EngineMove::Move(sq)) = r.parse_move(c, m) else {
                panic!("{m} is legal for {c}")
            };
            r.play(c, sq).unwrap();
        }
    }

    #[test]
    fn legal_illegal_and_malformed() {
        let r = OthelloReferee::new();
        // Black's four opening moves from the standard start (a1 top-left).
        for m in ["d3", "C4", "f5", "e6"] {
            assert!(matches!(
                r.parse_move(Color::Black, m),
                Ok(EngineMove::Move(_))
            ));
        }
        assert!(matches!(
            r.parse_move(Color::Black, "d4"),
            Err(BadMove::Illegal(_))
        ));
        assert!(matches!(
            r.parse_move(Color::Black, "a1"),
            Err(BadMove::Illegal(_))
        ));
        assert!(matches!(
            r.parse_move(Color::White, "d3"),
            Err(BadMove::Illegal(_))
        ));
        assert!(matches!(
            r.parse_move(Color::Black, "pass"),
            Err(BadMove::Illegal(_))
        ));
        assert!(matches!(
            r.parse_move(Color::Black, "z9"),
            Err(BadMove::Malformed(_))
        ));
        assert_eq!(r.parse_move(Color::Black, "Resign"), Ok(EngineMove::Resign));
    }

    /// A shortest possible Othello game, the 9-move wipe-out e6 f4 e3 f6 g5 d6 e7 f5 c5
    /// (standard notation, a1 top-left): 4 + 9 = 13 discs, all black, so no one can move
    /// and by the WTHOR rule black wins 64-0.
    #[test]
    fn nine_move_wipe_out() {
        let mut r = OthelloReferee::new();
        play_all(
            &mut r,
            &["e6", "f4", "e3", "f6", "g5", "d6", "e7", "f5", "c5"],
        );
        assert!(r.is_over());
        assert_eq!(r.discs(), (13, 0));
        assert_eq!(r.own_score(), 64.0);
        let o = Outcome {
            winner: Some(Color::Black),
            reason: super::super::referee::EndReason::Score {
                margin: 64.0,
                agreed: false,
            },
            moves: 9,
        };
        let sgf = r.record(&o, ["a", "b"], "2026-12-01");
        assert!(sgf.starts_with("(;FF[4]GM[2]"), "{sgf}");
        assert!(sgf.contains(";B[ef];W[fd]"), "{sgf}");
        assert!(sgf.contains("RE[B+64]"), "{sgf}");
    }
}
