//! Gomoku plugged into the game-neutral referee: our own rules check every move, the game
//! ends at a five or a full board, and an opening (a list of moves) can be given so matches
//! start from varied positions. Engines are `quartet gomoku`-style GTP engines answering
//! `final_score` with `B+`, `W+` or `0`.
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

use super::referee::{BadMove, EngineMove, Outcome, RefereeGame};
use crate::color::Color;
use crate::gomoku::board::{valid_size, Point, Rule};
use crate::gomoku::game::{Game, Outcome as GameOutcome};
use crate::protocol::coords::{format_vertex, parse_vertex};
use crate::record::sgf::SgfRecord;

pub struct GomokuReferee {
    game: Game,
    opening: Vec<String>,
}

impl GomokuReferee {
    /// A game on `size` under `rule` after the `opening` moves (vertices, alternately from
    /// Black). None for a bad size or an illegal opening.
    pub fn new(size: usize, rule: Rule, opening: &[&str]) -> Option<GomokuReferee> {
        if !valid_size(size) {
            return None;
        }
        let mut game = Game::new(size, rule);
        for v in opening {
            let (c, r) = parse_vertex(v, size).ok()??;
            let p = game.board().point(c, r);
            let color = game.to_move();
            game.play(color, p).ok()?;
        }
        Some(GomokuReferee {
            game,
            opening: opening.iter().map(|s| s.to_string()).collect(),
        })
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    fn vertex(&self, p: Point) -> String {
        format_vertex(Some(self.game.board().col_row(p)))
    }
}

/// `B+` / `W+` (any margin text is ignored) as +1 / -1, `0` as a draw.
pub fn parse_gomoku_result(answer: &str) -> Option<f32> {
    let a = answer.trim();
    if a == "0" || a.eq_ignore_ascii_case("draw") {
        return Some(0.0);
    }
    let (who, _) = a.split_once('+')?;
    match who.trim().to_ascii_uppercase().as_str() {
        "B" => Some(1.0),
        "W" => Some(-1.0),
        _ => None,
    }
}

impl RefereeGame for GomokuReferee {
    type Move = Point;

    fn setup_commands(&self) -> Vec<String> {
        let mut v = vec![
            format!("boardsize {}", self.game.size()),
            "clear_board".to_string(),
            format!("rule {}", self.game.rule().name()),
        ];
        if !self.opening.is_empty() {
            v.push(format!("setboard {}", self.opening.join(" ")));
        }
        v
    }

    fn to_move(&self) -> Color {
        self.game.to_move()
    }

    /// Random opening plies stay in the central 5x5, where openings are played.
    fn random_move(&self, rng: &mut SmallRng) -> Option<Point> {
        let n = self.game.size();
        let (lo, hi) = ((n / 2).saturating_sub(2), (n / 2 + 2).min(n - 1));
        let color = self.game.to_move();
        let mut points: Vec<Point> = (lo..=hi)
            .flat_map(|r| (lo..=hi).map(move |c| (c, r)))
            .map(|(c, r)| self.game.board().point(c, r))
            .collect();
        points.shuffle(rng);
        points
            .into_iter()
            .find(|&p| self.game.clone().check(color, p).is_ok())
    }

    fn parse_move(&self, color: Color, answer: &str) -> Result<EngineMove<Point>, BadMove> {
        let a = answer.trim();
        if a.eq_ignore_ascii_case("resign") {
            return Ok(EngineMove::Resign);
        }
        match parse_vertex(a, self.game.size()) {
            Ok(None) => Err(BadMove::Illegal("pass is not a Gomoku move".into())),
            Ok(Some((c, r))) => {
                let p = self.game.board().point(c, r);
                let mut g = self.game.clone();
                g.check(color, p)
                    .map(|_| EngineMove::Move(p))
                    .map_err(|e| BadMove::Illegal(format!("{a}: {}", e.message())))
            }
            Err(e) if e.0 == "invalid coordinate" => {
                Err(BadMove::Illegal(format!("{a}: off the board")))
            }
            Err(_) => Err(BadMove::Malformed(a.to_string())),
        }
    }

    fn play(&mut self, color: Color, mv: Point) -> Result<(), String> {
        self.game
            .play(color, mv)
            .map_err(|e| e.message().to_string())
    }

    fn move_text(&self, mv: Point) -> String {
        self.vertex(mv)
    }

    fn is_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    fn own_score(&self) -> f32 {
        match self.game.outcome() {
            Some(GameOutcome::Win(Color::Black)) => 1.0,
            Some(GameOutcome::Win(Color::White)) => -1.0,
            _ => 0.0,
        }
    }

    fn parse_final_score(&self, answer: &str) -> Option<f32> {
        parse_gomoku_result(answer)
    }

    fn move_count(&self) -> usize {
        self.game.move_count()
    }

    /// An SGF record with `GM[4]` (Gomoku) and the rule as `RU`; SGF counts rows from the
    /// top.
    fn record(&self, outcome: &Outcome, names: [&str; 2], date: &str) -> String {
        let n = self.game.size();
        let mut rec = SgfRecord::new(4, n);
        rec.set_info("PB", names[0]);
        rec.set_info("PW", names[1]);
        rec.set_info("DT", date);
        rec.set_info("RU", self.game.rule().name());
        rec.set_info("RE", outcome.result_text());
        rec.moves = self
            .game
            .moves()
            .map(|(c, p)| {
                let (col, row) = self.game.board().col_row(p);
                (c, Some((col, n - 1 - row)))
            })
            .collect();
        rec.to_sgf()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_ends_the_game_and_illegal_moves_are_refused() {
        let mut r = GomokuReferee::new(15, Rule::Freestyle, &["h8", "a1"]).unwrap();
        assert!(r.setup_commands().contains(&"setboard h8 a1".to_string()));
        assert!(matches!(
            r.parse_move(Color::Black, "h8"),
            Err(BadMove::Illegal(_))
        ));
        assert!(matches!(
            r.parse_move(Color::Black, "pass"),
            Err(BadMove::Illegal(_))
        ));
        assert!(matches!(
            r.parse_move(Color::Black, "banana"),
            Err(BadMove::Malformed(_))
        ));
        for (b, w) in [("j8", "a3"), ("k8", "a5"), ("l8", "a7"), ("m8", "")] {
            let Ok(EngineMove::Move(p)) = r.parse_move(Color::Black, b) else {
                panic!("{b}")
            };
            r.play(Color::Black, p).unwrap();
            if !w.is_empty() {
                let Ok(EngineMove::Move(q)) = r.parse_move(Color::White, w) else {
                    panic!("{w}")
                };
                r.play(Color::White, q).unwrap();
            }
        }
        assert!(r.is_over());
        assert_eq!(r.own_score(), 1.0);
        assert_eq!(r.parse_final_score("B+"), Some(1.0));
        assert_eq!(r.parse_final_score("W+"), Some(-1.0));
        assert_eq!(r.parse_final_score("0"), Some(0.0));
        assert_eq!(r.parse_final_score("x"), None);
    }
}
