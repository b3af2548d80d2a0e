//! The game-neutral referee: drives two engines through one game, checking every move with
//! our own rules. A game plugs in through [`RefereeGame`]; the driver owns the protocol
//! dialogue, the clocks and the forfeits, so every game gets the same treatment of broken
//! engines.
use super::gtp_client::{ClientError, GtpClient};
use crate::color::Color;
use std::fmt;
use std::time::Duration;

/// A genmove answer that parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineMove<M> {
    Move(M),
    Resign,
}

/// A genmove answer that did not give a playable move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadMove {
    /// Not a move at all (`banana`).
    Malformed(String),
    /// A move the rules forbid (occupied, suicide, superko, off the board).
    Illegal(String),
}

/// The rules side of a game, as the referee needs it. Implementations are synchronous and
/// cheap; all waiting happens in [`play_game`].
pub trait RefereeGame: Send {
    type Move: Copy + Send + fmt::Debug;

    /// Commands sent to both engines before the first move (e.g. `boardsize 9`,
    /// `clear_board`, `komi 7.5`).
    fn setup_commands(&self) -> Vec<String>;
    /// The protocol command announcing a per-move time limit of `secs` seconds, if the
    /// protocol has one (GTP: `time_settings 0 secs 1`).
    fn time_command(&self, secs: u64) -> Option<String>;
    /// Whose turn it is.
    fn to_move(&self) -> Color;
    /// Parses and checks the text of a `genmove` answer for `color` (not yet played).
    fn parse_move(&self, color: Color, answer: &str) -> Result<EngineMove<Self::Move>, BadMove>;
    /// Plays a checked move; an `Err` is an illegal move.
    fn play(&mut self, color: Color, mv: Self::Move) -> Result<(), String>;
    /// The move as the protocol's `play` command writes it.
    fn move_text(&self, mv: Self::Move) -> String;
    /// Whether the rules (or the move cap) end the game now; it is then scored.
    fn is_over(&self) -> bool;
    /// Our own final score: positive for Black, 0 for a draw.
    fn own_score(&self) -> f32;
    /// Reads an engine's `final_score` answer in the same sign convention.
    fn parse_final_score(&self, answer: &str) -> Option<f32>;
    /// Number of moves played so far.
    fn move_count(&self) -> usize;
    /// The game record (SGF for Go), given the result and the player names.
    fn record(&self, outcome: &Outcome, names: [&str; 2], date: &str) -> String;
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum EndReason {
    Resignation,
    /// Scored; `agreed` when both engines' `final_score` matched and was used, otherwise
    /// our own scoring decided.
    Score {
        margin: f32,
        agreed: bool,
    },
    /// The loser ran past its time limit (or, with no limit, the hang guard).
    Time,
    /// The loser played a move our rules forbid.
    Illegal(String),
    /// The loser's answer was not a move or not GTP.
    Malformed(String),
    /// The loser died, refused a setup command or refused a legal move.
    EngineFailure(String),
}

/// The result of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// `None` is a draw.
    pub winner: Option<Color>,
    pub reason: EndReason,
    pub moves: usize,
}

impl Outcome {
    /// The SGF `RE` value: `B+R`, `W+3.5`, `B+T`, `W+F` (forfeit), `0` (draw).
    pub fn result_text(&self) -> String {
        let Some(w) = self.winner else {
            return "0".to_string();
        };
        match &self.reason {
            EndReason::Resignation => format!("{}+R", w.letter()),
            EndReason::Score { margin, .. } => format!("{}+{}", w.letter(), margin.abs()),
            EndReason::Time => format!("{}+T", w.letter()),
            _ => format!("{}+F", w.letter()),
        }
    }

    /// One word for tables: `resign`, `score`, `time`, `illegal`, `malformed`, `failure`.
    pub fn reason_word(&self) -> &'static str {
        match self.reason {
            EndReason::Resignation => "resign",
            EndReason::Score { .. } => "score",
            EndReason::Time => "time",
            EndReason::Illegal(_) => "illegal",
            EndReason::Malformed(_) => "malformed",
            EndReason::EngineFailure(_) => "failure",
        }
    }
}

/// Clocks and timeouts for one game.
#[derive(Clone, Debug)]
pub struct RefereeOptions {
    /// Per-move limit for the Black and the White engine (`None`: no limit sent).
    pub time_per_move: [Option<Duration>; 2],
    /// Allowance for process start-up and pipe latency on top of a move limit.
    pub margin: Duration,
    /// Timeout for every command other than `genmove`.
    pub command_timeout: Duration,
    /// How long a `genmove` may take when no limit is set, before it counts as a hang.
    pub hang_timeout: Duration,
}

impl Default for RefereeOptions {
    fn default() -> RefereeOptions {
        RefereeOptions {
            time_per_move: [None, None],
            margin: Duration::from_millis(500),
            command_timeout: Duration::from_secs(10),
            hang_timeout: Duration::from_secs(120),
        }
    }
}

fn lose(loser: Color, reason: EndReason, moves: usize) -> Outcome {
    Outcome {
        winner: Some(loser.opponent()),
        reason,
        moves,
    }
}

fn failure(loser: Color, what: String, e: ClientError, moves: usize) -> Outcome {
    let reason = match e {
        ClientError::Timeout => EndReason::Time,
        ClientError::Malformed(m) => EndReason::Malformed(format!("{what}: {m:?}")),
        e => EndReason::EngineFailure(format!("{what}: {e}")),
    };
    lose(loser, reason, moves)
}

/// Plays one game between `engines[0]` (Black) and `engines[1]` (White).
///
/// Blocks (asynchronously) until the game ends; each wait is bounded by the options, so a
/// game of `n` moves takes at most about `n * (limit + margin)` plus scoring.
pub async fn play_game<G: RefereeGame>(
    game: &mut G,
    engines: [&mut GtpClient; 2],
    opts: &RefereeOptions,
) -> Outcome {
    let [black, white] = engines;
    let mut engines = [black, white];
    for color in [Color::Black, Color::White] {
        let mut commands = game.setup_commands();
        if let Some(limit) = opts.time_per_move[color.index()] {
            // GTP times are whole seconds; the referee enforces the exact limit itself.
            let secs = limit.as_secs_f64().ceil().max(1.0) as u64;
            commands.extend(game.time_command(secs));
        }
        for cmd in commands {
            let engine = &mut engines[color.index()];
            if let Err(e) = engine.send(&cmd, opts.command_timeout).await {
                return failure(color, cmd, e, 0);
            }
        }
    }
    loop {
        if game.is_over() {
            return score(game, engines, opts).await;
        }
        let color = game.to_move();
        let moves = game.move_count();
        let limit = match opts.time_per_move[color.index()] {
            Some(t) => t + opts.margin,
            None => opts.hang_timeout,
        };
        let cmd = format!("genmove {color}");
        let answer = match engines[color.index()].send(&cmd, limit).await {
            Ok(a) => a,
            Err(e) => return failure(color, cmd, e, moves),
        };
        let mv = match game.parse_move(color, &answer) {
            Ok(EngineMove::Resign) => {
                return Outcome {
                    winner: Some(color.opponent()),
                    reason: EndReason::Resignation,
                    moves,
                }
            }
            Ok(EngineMove::Move(mv)) => mv,
            Err(BadMove::Malformed(m)) => return lose(color, EndReason::Malformed(m), moves),
            Err(BadMove::Illegal(m)) => return lose(color, EndReason::Illegal(m), moves),
        };
        if let Err(m) = game.play(color, mv) {
            return lose(color, EndReason::Illegal(format!("{answer}: {m}")), moves);
        }
        let cmd = format!("play {color} {}", game.move_text(mv));
        let other = color.opponent();
        if let Err(e) = engines[other.index()]
            .send(&cmd, opts.command_timeout)
            .await
        {
            return failure(other, cmd, e, moves + 1);
        }
    }
}

/// Scores a finished game: both engines' `final_score` when they agree, else ours.
async fn score<G: RefereeGame>(
    game: &mut G,
    engines: [&mut GtpClient; 2],
    opts: &RefereeOptions,
) -> Outcome {
    let mut claims = [None, None];
    for (claim, engine) in claims.iter_mut().zip(engines) {
        if let Ok(answer) = engine.send("final_score", opts.command_timeout).await {
            *claim = game.parse_final_score(&answer);
        }
    }
    let (margin, agreed) = match claims {
        [Some(a), Some(b)] if (a - b).abs() < 1e-3 => (a, true),
        _ => (game.own_score(), false),
    };
    let winner = if margin > 0.0 {
        Some(Color::Black)
    } else if margin < 0.0 {
        Some(Color::White)
    } else {
        None
    };
    Outcome {
        winner,
        reason: EndReason::Score { margin, agreed },
        moves: game.move_count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_texts() {
        let o = |winner, reason| Outcome {
            winner,
            reason,
            moves: 0,
        };
        let (b, w) = (Some(Color::Black), Some(Color::White));
        assert_eq!(o(b, EndReason::Resignation).result_text(), "B+R");
        let s = EndReason::Score {
            margin: -3.5,
            agreed: true,
        };
        assert_eq!(o(w, s).result_text(), "W+3.5");
        assert_eq!(o(b, EndReason::Time).result_text(), "B+T");
        assert_eq!(o(w, EndReason::Illegal("A1".into())).result_text(), "W+F");
        let s = EndReason::Score {
            margin: 0.0,
            agreed: false,
        };
        assert_eq!(o(None, s).result_text(), "0");
    }
}
