//! The server's copy of the rules: one game position per session, checked by the match
//! referees (the same rules `quartet match` enforces), with the move list kept as protocol
//! text so the engine can be replayed to any point.
use crate::color::Color;
use crate::gomoku::board::Rule;
use crate::gomoku::game::Outcome as GomokuOutcome;
use crate::matches::dots_referee::DotsReferee;
use crate::matches::go_referee::GoReferee;
use crate::matches::gomoku_referee::GomokuReferee;
use crate::matches::othello_referee::OthelloReferee;
use crate::matches::referee::{BadMove, EngineMove, RefereeGame};
use crate::othello::bitboard::square_name;
use crate::protocol::coords::format_vertex;

/// The four games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    Go,
    Othello,
    Gomoku,
    Dots,
}

impl GameKind {
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Go => "go",
            GameKind::Othello => "othello",
            GameKind::Gomoku => "gomoku",
            GameKind::Dots => "dots",
        }
    }

    pub fn parse(s: &str) -> Option<GameKind> {
        match s {
            "go" => Some(GameKind::Go),
            "othello" => Some(GameKind::Othello),
            "gomoku" => Some(GameKind::Gomoku),
            "dots" => Some(GameKind::Dots),
            _ => None,
        }
    }
}

/// Which game, on which board, under which rules. `size` is the side of a square board
/// (8 for Othello); `cols`/`rows` count Dots boxes.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSpec {
    pub kind: GameKind,
    pub size: usize,
    pub komi: f32,
    pub rule: Rule,
    pub cols: usize,
    pub rows: usize,
}

impl GameSpec {
    pub fn go(size: usize, komi: f32) -> GameSpec {
        GameSpec {
            kind: GameKind::Go,
            size,
            komi,
            rule: Rule::Freestyle,
            cols: size,
            rows: size,
        }
    }

    pub fn othello() -> GameSpec {
        GameSpec {
            kind: GameKind::Othello,
            size: 8,
            komi: 0.0,
            rule: Rule::Freestyle,
            cols: 8,
            rows: 8,
        }
    }

    pub fn gomoku(size: usize, rule: Rule) -> GameSpec {
        GameSpec {
            kind: GameKind::Gomoku,
            size,
            komi: 0.0,
            rule,
            cols: size,
            rows: size,
        }
    }

    pub fn dots(cols: usize, rows: usize) -> GameSpec {
        GameSpec {
            kind: GameKind::Dots,
            size: cols.max(rows),
            komi: 0.0,
            rule: Rule::Freestyle,
            cols,
            rows,
        }
    }
}

/// A referee of each game (Go's boxed: its board is far larger than the others').
pub enum Rules {
    Go(Box<GoReferee>),
    Othello(OthelloReferee),
    Gomoku(GomokuReferee),
    Dots(DotsReferee),
}

/// One game in progress: the rules position, the moves that led to it, and a resignation.
pub struct Position {
    spec: GameSpec,
    rules: Rules,
    moves: Vec<(Color, String)>,
    resigned: Option<Color>,
}

/// Parses, checks and plays `text` for `color`; answers the move as the protocol writes it.
fn try_play<G: RefereeGame>(g: &mut G, color: Color, text: &str) -> Result<String, String> {
    match g.parse_move(color, text) {
        Ok(EngineMove::Move(m)) => {
            let name = g.move_text(m);
            g.play(color, m)?;
            Ok(name)
        }
        Ok(EngineMove::Resign) => Err("resign is not a move".to_string()),
        Err(BadMove::Malformed(m)) => Err(format!("{m:?} is not a move of this game")),
        Err(BadMove::Illegal(m)) => Err(m),
    }
}

impl Position {
    /// A new game; `Err` names what is wrong with the spec.
    pub fn new(spec: &GameSpec) -> Result<Position, String> {
        let rules = match spec.kind {
            GameKind::Go => GoReferee::new(spec.size, spec.komi)
                .map(|g| Rules::Go(Box::new(g)))
                .ok_or_else(|| format!("Go board size {} is not supported", spec.size))?,
            GameKind::Othello => Rules::Othello(OthelloReferee::new()),
            GameKind::Gomoku => GomokuReferee::new(spec.size, spec.rule, &[])
                .map(Rules::Gomoku)
                .ok_or_else(|| format!("Gomoku board size {} is not supported", spec.size))?,
            GameKind::Dots => DotsReferee::new(spec.cols, spec.rows)
                .map(Rules::Dots)
                .ok_or_else(|| {
                    format!("Dots board {}x{} is not supported", spec.cols, spec.rows)
                })?,
        };
        Ok(Position {
            spec: spec.clone(),
            rules,
            moves: Vec::new(),
            resigned: None,
        })
    }

    /// The game after `moves`, each checked (and its colour must be the side to move);
    /// `Err` names the first bad move.
    pub fn replay(spec: &GameSpec, moves: &[(Color, String)]) -> Result<Position, String> {
        let mut p = Position::new(spec)?;
        for (i, (color, text)) in moves.iter().enumerate() {
            if p.is_over() {
                return Err(format!("move {} ({text}): the game is already over", i + 1));
            }
            if *color != p.to_move() {
                return Err(format!(
                    "move {} ({text}): {color} played but {} was to move",
                    i + 1,
                    p.to_move()
                ));
            }
            p.play(text)
                .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        }
        Ok(p)
    }

    pub fn spec(&self) -> &GameSpec {
        &self.spec
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn moves(&self) -> &[(Color, String)] {
        &self.moves
    }

    pub fn to_move(&self) -> Color {
        match &self.rules {
            Rules::Go(g) => g.to_move(),
            Rules::Othello(g) => g.to_move(),
            Rules::Gomoku(g) => g.to_move(),
            Rules::Dots(g) => g.to_move(),
        }
    }

    /// Plays `text` for the side to move if the rules allow it; the position is unchanged
    /// otherwise. Answers the move as the protocol writes it (`d3` -> `d3`, `h8` -> `H8`).
    pub fn play(&mut self, text: &str) -> Result<String, String> {
        if self.is_over() {
            return Err("the game is over".to_string());
        }
        let color = self.to_move();
        let text = text.trim();
        let name = match &mut self.rules {
            Rules::Go(g) => try_play(g.as_mut(), color, text)?,
            Rules::Othello(g) => {
                if text.eq_ignore_ascii_case("pass") {
                    return Err(format!("{color} has a move and cannot pass"));
                }
                try_play(g, color, text)?
            }
            Rules::Gomoku(g) => try_play(g, color, text)?,
            Rules::Dots(g) => try_play(g, color, text)?,
        };
        self.moves.push((color, name.clone()));
        Ok(name)
    }

    /// `color` gives up; the game is over.
    pub fn resign(&mut self, color: Color) {
        self.resigned = Some(color);
    }

    pub fn is_over(&self) -> bool {
        self.resigned.is_some()
            || match &self.rules {
                Rules::Go(g) => g.is_over(),
                Rules::Othello(g) => g.is_over(),
                Rules::Gomoku(g) => g.is_over(),
                Rules::Dots(g) => g.is_over(),
            }
    }

    /// The result once over: `B+3.5`, `W+R`, `B+12`, `B+` (Gomoku: a win has no margin),
    /// `Draw`.
    pub fn result(&self) -> Option<String> {
        if let Some(loser) = self.resigned {
            return Some(format!("{}+R", loser.opponent().letter()));
        }
        if !self.is_over() {
            return None;
        }
        let margin = match &self.rules {
            Rules::Go(g) => g.own_score(),
            Rules::Othello(g) => g.own_score(),
            Rules::Dots(g) => g.own_score(),
            Rules::Gomoku(g) => {
                return Some(match g.game().outcome() {
                    Some(GomokuOutcome::Win(c)) => format!("{}+", c.letter()),
                    _ => "Draw".to_string(),
                })
            }
        };
        Some(if margin > 0.0 {
            format!("B+{margin}")
        } else if margin < 0.0 {
            format!("W+{}", -margin)
        } else {
            "Draw".to_string()
        })
    }

    /// Every legal move of the side to move in protocol notation; empty when over.
    pub fn legal(&self) -> Vec<String> {
        if self.is_over() {
            return Vec::new();
        }
        let color = self.to_move();
        match &self.rules {
            Rules::Go(g) => {
                let game = g.game();
                let board = game.board();
                let mut v: Vec<String> = board
                    .points()
                    .filter(|&p| {
                        board.is_empty(p) && game.is_legal(color, crate::go::board::Move::Play(p))
                    })
                    .map(|p| format_vertex(Some(board.col_row(p))))
                    .collect();
                v.push("pass".to_string());
                v
            }
            Rules::Othello(g) => {
                let moves = g.board().moves();
                let v: Vec<String> = (0..64)
                    .filter(|&sq| moves >> sq & 1 != 0)
                    .map(square_name)
                    .collect();
                if v.is_empty() {
                    vec!["pass".to_string()]
                } else {
                    v
                }
            }
            Rules::Gomoku(g) => {
                let mut game = g.game().clone();
                let points = game.legal_moves(color);
                let board = g.game().board();
                points
                    .into_iter()
                    .map(|p| format_vertex(Some(board.col_row(p))))
                    .collect()
            }
            Rules::Dots(g) => {
                let board = g.board();
                board
                    .legal_edges()
                    .map(|e| board.edge_name(e).to_string())
                    .collect()
            }
        }
    }

    /// The commands that set an engine up for this game before any move.
    pub fn setup_commands(&self) -> Vec<String> {
        match &self.rules {
            Rules::Go(g) => g.setup_commands(),
            Rules::Othello(g) => g.setup_commands(),
            Rules::Gomoku(g) => g.setup_commands(),
            Rules::Dots(g) => g.setup_commands(),
        }
    }

    /// Setup plus every move: what brings a fresh (or any) engine to this position.
    pub fn replay_commands(&self) -> Vec<String> {
        let mut v = self.setup_commands();
        v.extend(
            self.moves
                .iter()
                .map(|(color, text)| format!("play {color} {text}")),
        );
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_checked_and_normalised() {
        let mut p = Position::new(&GameSpec::go(9, 7.5)).unwrap();
        assert_eq!(p.play("e5"), Ok("E5".to_string()));
        assert!(p.play("E5").is_err(), "occupied");
        assert!(p.play("banana").is_err());
        assert_eq!(p.moves().len(), 1);
        assert_eq!(p.legal().len(), 80 + 1);
        p.play("pass").unwrap();
        p.play("pass").unwrap();
        assert!(p.is_over());
        assert_eq!(p.result().as_deref(), Some("B+73.5"));

        let mut o = Position::new(&GameSpec::othello()).unwrap();
        assert_eq!(o.legal(), ["d3", "c4", "f5", "e6"]);
        assert!(o.play("pass").is_err());
        assert!(o.play("a1").is_err());
        o.play("D3").unwrap();
        assert_eq!(o.to_move(), Color::White);

        let d = Position::new(&GameSpec::dots(2, 1)).unwrap();
        assert_eq!(d.legal().len(), 7);
        assert!(Position::new(&GameSpec::dots(9, 1)).is_err());
        assert!(Position::new(&GameSpec::go(1, 7.5)).is_err());
    }

    #[test]
    fn replay_refuses_the_first_bad_move() {
        let spec = GameSpec::gomoku(15, Rule::Freestyle);
        let good = vec![
            (Color::Black, "H8".to_string()),
            (Color::White, "J9".into()),
        ];
        assert_eq!(Position::replay(&spec, &good).unwrap().moves(), &good[..]);
        let wrong_colour = vec![(Color::White, "H8".to_string())];
        assert!(Position::replay(&spec, &wrong_colour).is_err());
        let occupied = vec![
            (Color::Black, "H8".to_string()),
            (Color::White, "H8".into()),
        ];
        let e = Position::replay(&spec, &occupied).err().unwrap();
        assert!(e.starts_with("move 2"), "{e}");
    }
}
