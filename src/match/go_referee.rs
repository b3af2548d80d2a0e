//! Go under the referee: GTP setup, vertices, our rules (positional superko included), two
//! passes or a move cap to end, Tromp-Taylor area scoring as the fallback, SGF records.
use super::referee::{BadMove, EngineMove, Outcome, RefereeGame};
use crate::color::Color;
use crate::go::board::{valid_size, Move};
use crate::go::game::Game;
use crate::go::sgf::SgfGame;
use crate::protocol::coords::{format_vertex, parse_vertex};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

/// One Go game being refereed.
pub struct GoReferee {
    game: Game,
    max_moves: usize,
}

impl GoReferee {
    /// A new game; `None` when the size is not one our rules play. The move cap is
    /// `3 * size^2`, far beyond any sensible game, so it only stops engines that never pass.
    pub fn new(size: usize, komi: f32) -> Option<GoReferee> {
        valid_size(size).then(|| GoReferee {
            game: Game::new(size, komi),
            max_moves: 3 * size * size,
        })
    }

    pub fn with_max_moves(mut self, max_moves: usize) -> GoReferee {
        self.max_moves = max_moves;
        self
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    fn size(&self) -> usize {
        self.game.board().size()
    }
}

/// Parses a GTP `final_score` answer: `B+24.0`, `W+3.5`, `0`, `Draw` (any case).
/// Results that are not a score (`B+R`, `W+T`) give `None`.
pub fn parse_go_score(answer: &str) -> Option<f32> {
    let a = answer.trim();
    if a == "0" || a.eq_ignore_ascii_case("draw") || a.eq_ignore_ascii_case("jigo") {
        return Some(0.0);
    }
    let (who, margin) = a.split_once('+')?;
    let margin: f32 = margin.trim().parse().ok()?;
    if !margin.is_finite() || margin < 0.0 {
        return None;
    }
    match who.trim().to_ascii_uppercase().as_str() {
        "B" => Some(margin),
        "W" => Some(-margin),
        _ => None,
    }
}

impl RefereeGame for GoReferee {
    type Move = Move;

    fn setup_commands(&self) -> Vec<String> {
        vec![
            format!("boardsize {}", self.size()),
            "clear_board".to_string(),
            format!("komi {}", self.game.komi()),
        ]
    }

    fn to_move(&self) -> Color {
        self.game.to_move()
    }

    /// A uniformly random legal point (never a pass, so openings stay short and real).
    fn random_move(&self, rng: &mut SmallRng) -> Option<Move> {
        let color = self.game.to_move();
        let board = self.game.board();
        let mut points: Vec<_> = board.points().filter(|&p| board.is_empty(p)).collect();
        points.shuffle(rng);
        points
            .into_iter()
            .map(Move::Play)
            .find(|&mv| self.game.is_legal(color, mv))
    }

    fn parse_move(&self, _color: Color, answer: &str) -> Result<EngineMove<Move>, BadMove> {
        let a = answer.trim();
        if a.eq_ignore_ascii_case("resign") {
            return Ok(EngineMove::Resign);
        }
        match parse_vertex(a, self.size()) {
            Ok(None) => Ok(EngineMove::Move(Move::Pass)),
            Ok(Some((col, row))) => Ok(EngineMove::Move(Move::Play(
                self.game.board().point(col, row),
            ))),
            Err(e) if e.0 == "invalid coordinate" => {
                Err(BadMove::Illegal(format!("{a}: off the board")))
            }
            Err(_) => Err(BadMove::Malformed(a.to_string())),
        }
    }

    fn play(&mut self, color: Color, mv: Move) -> Result<(), String> {
        self.game.play(color, mv).map_err(|e| e.to_string())
    }

    fn move_text(&self, mv: Move) -> String {
        match mv {
            Move::Pass => format_vertex(None),
            Move::Play(p) => format_vertex(Some(self.game.board().col_row(p))),
        }
    }

    fn is_over(&self) -> bool {
        let moves = self.game.moves();
        let passes = moves
            .iter()
            .rev()
            .take(2)
            .filter(|(_, m)| *m == Move::Pass)
            .count();
        passes == 2 || moves.len() >= self.max_moves
    }

    fn own_score(&self) -> f32 {
        self.game.area_score()
    }

    fn parse_final_score(&self, answer: &str) -> Option<f32> {
        parse_go_score(answer)
    }

    fn move_count(&self) -> usize {
        self.game.moves().len()
    }

    fn record(&self, outcome: &Outcome, names: [&str; 2], date: &str) -> String {
        let mut rec = SgfGame::from_game(&self.game);
        rec.black_name = Some(names[0].to_string());
        rec.white_name = Some(names[1].to_string());
        rec.date = Some(date.to_string());
        rec.result = Some(outcome.result_text());
        rec.to_sgf()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_scores() {
        assert_eq!(parse_go_score("B+24.0"), Some(24.0));
        assert_eq!(parse_go_score("W+3.5 "), Some(-3.5));
        assert_eq!(parse_go_score("w+7"), Some(-7.0));
        assert_eq!(parse_go_score("0"), Some(0.0));
        assert_eq!(parse_go_score("Draw"), Some(0.0));
        assert_eq!(parse_go_score("B+R"), None);
        assert_eq!(parse_go_score("X+3"), None);
        assert_eq!(parse_go_score("B+-3"), None);
        assert_eq!(parse_go_score("B+inf"), None);
        assert_eq!(parse_go_score(""), None);
    }

    #[test]
    fn moves_and_end_of_game() {
        let mut r = GoReferee::new(5, 7.5).unwrap();
        assert!(GoReferee::new(1, 7.5).is_none());
        assert!(GoReferee::new(20, 7.5).is_none());
        assert_eq!(r.parse_move(Color::Black, "RESIGN"), Ok(EngineMove::Resign));
        assert_eq!(
            r.parse_move(Color::Black, "PASS"),
            Ok(EngineMove::Move(Move::Pass))
        );
        assert!(matches!(
            r.parse_move(Color::Black, "F1"),
            Err(BadMove::Illegal(_))
        ));
        assert!(matches!(
            r.parse_move(Color::Black, "banana"),
            Err(BadMove::Malformed(_))
        ));
        let EngineMove::Move(c3) = r.parse_move(Color::Black, "c3").unwrap() else {
            panic!("c3 is a move")
        };
        assert_eq!(r.move_text(c3), "C3");
        r.play(Color::Black, c3).unwrap();
        assert!(r.play(Color::White, c3).is_err(), "occupied");
        r.play(Color::White, Move::Pass).unwrap();
        assert!(!r.is_over());
        r.play(Color::Black, Move::Pass).unwrap();
        assert!(r.is_over());
        // One black stone owns the whole empty 5x5 board: 25 - 7.5.
        assert_eq!(r.own_score(), 17.5);
    }

    /// The referee relays GTP vertices to our rules: an immediate ko recapture is refused.
    #[test]
    fn ko_recapture_is_illegal() {
        let mut r = GoReferee::new(5, 7.5).unwrap();
        let moves = ["a2", "c3", "b3", "d2", "b1", "c1", "e5", "b2", "c2"];
        for (i, v) in moves.iter().enumerate() {
            let color = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let Ok(EngineMove::Move(mv)) = r.parse_move(color, v) else {
                panic!("{v} parses")
            };
            r.play(color, mv).unwrap_or_else(|e| panic!("{v}: {e}"));
        }
        // c2 captured the white stone on b2; taking back at once repeats the position.
        let Ok(EngineMove::Move(b2)) = r.parse_move(Color::White, "b2") else {
            panic!()
        };
        assert_eq!(r.play(Color::White, b2), Err("illegal move".to_string()));
        let b2_point = r.game().board().point(1, 1);
        assert_eq!(r.game().board().stone(b2_point), None);
    }

    #[test]
    fn move_cap_ends_the_game() {
        let mut r = GoReferee::new(5, 7.5).unwrap().with_max_moves(2);
        let EngineMove::Move(a1) = r.parse_move(Color::Black, "a1").unwrap() else {
            panic!()
        };
        let EngineMove::Move(e5) = r.parse_move(Color::White, "e5").unwrap() else {
            panic!()
        };
        r.play(Color::Black, a1).unwrap();
        assert!(!r.is_over());
        r.play(Color::White, e5).unwrap();
        assert!(r.is_over());
    }
}
