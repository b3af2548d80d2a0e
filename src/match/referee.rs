//! The game-neutral referee: drives two engines through one game, checking every move with
//! our own rules. A game plugs in through [`RefereeGame`]; the driver owns the protocol
//! dialogue, the clocks and the forfeits, so every game gets the same treatment of broken
//! engines.
use super::gtp_client::{ClientError, GtpClient};
use crate::color::Color;
use rand::rngs::SmallRng;
use std::fmt;
use std::time::{Duration, Instant};

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
    /// The protocol command announcing a per-move time limit, if the protocol has one
    /// (GTP: `time_settings 0 T 1`, T written exactly by [`gtp_seconds`]).
    fn time_command(&self, limit: Duration) -> Option<String> {
        Some(format!("time_settings 0 {} 1", gtp_seconds(limit)))
    }
    /// The command announcing sudden death with `main` for the whole game (GTP
    /// `time_settings M 0 0`; a byo-yomi of 0 means none). Increments have no GTP command;
    /// the referee conveys them through [`RefereeGame::time_left_command`].
    fn sudden_death_command(&self, main: Duration) -> Option<String> {
        Some(format!("time_settings {} 0 0", gtp_seconds(main)))
    }
    /// The command telling an engine its remaining time before it moves (GTP `time_left`).
    fn time_left_command(&self, color: Color, left: Duration) -> Option<String> {
        Some(format!("time_left {color} {} 0", gtp_seconds(left)))
    }
    /// A random legal move for the side to move, for generated openings; `None` when the
    /// game cannot provide one (then only openings from files can be used).
    fn random_move(&self, _rng: &mut SmallRng) -> Option<Self::Move> {
        None
    }
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

/// A duration as GTP seconds, exactly to the millisecond: `0.2`, `1.25`, `3`. Engines
/// read decimals (GTP 2 allows them; ours parse them with `search::time::parse_seconds`).
/// Rounding up to whole seconds told an engine five times the 0.2 s the referee enforces,
/// and truncating sent 0, which GTP reads as no limit at all. Rounded to the nearest
/// millisecond (so `st=0.05` parsed through `f64` is `0.05`), except that a nonzero duration
/// never becomes `0`.
pub fn gtp_seconds(d: Duration) -> String {
    let millis = (d.as_nanos() + 500_000) / 1_000_000;
    let millis = if millis == 0 && !d.is_zero() {
        1
    } else {
        millis
    };
    let (secs, frac) = (millis / 1000, millis % 1000);
    if frac == 0 {
        secs.to_string()
    } else {
        let digits = format!("{frac:03}");
        format!("{secs}.{}", digits.trim_end_matches('0'))
    }
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
    /// Both engines agreed for long enough that the loser is lost (see [`ResignRule`]).
    Adjudicated,
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
            EndReason::Resignation | EndReason::Adjudicated => format!("{}+R", w.letter()),
            EndReason::Score { margin, .. } => format!("{}+{}", w.letter(), margin.abs()),
            EndReason::Time => format!("{}+T", w.letter()),
            _ => format!("{}+F", w.letter()),
        }
    }

    /// One word for tables: `resign`, `adjudicated`, `score`, `time`, `illegal`,
    /// `malformed`, `failure`.
    pub fn reason_word(&self) -> &'static str {
        match self.reason {
            EndReason::Resignation => "resign",
            EndReason::Adjudicated => "adjudicated",
            EndReason::Score { .. } => "score",
            EndReason::Time => "time",
            EndReason::Illegal(_) => "illegal",
            EndReason::Malformed(_) => "malformed",
            EndReason::EngineFailure(_) => "failure",
        }
    }

    /// What the reason word leaves out: the illegal move, the malformed answer, the
    /// engine's failure, or that our scoring overruled the engines; empty otherwise.
    pub fn detail(&self) -> String {
        match &self.reason {
            EndReason::Illegal(m) | EndReason::Malformed(m) | EndReason::EngineFailure(m) => {
                m.clone()
            }
            EndReason::Score { agreed: false, .. } => "our scoring".to_string(),
            _ => String::new(),
        }
    }
}

/// A game clock: `base` for the whole game, `increment` added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub base: Duration,
    pub increment: Duration,
}

/// Resignation by agreement (as cutechess's two-sided resign adjudication): after every
/// move both engines are asked `command` (by default `final_score`), and when for `moves`
/// moves in a row both answers name the same winner by at least `margin`, the game is
/// over and counted as the other side's resignation. An engine that refuses the command
/// (a `?` answer) switches the rule off for that game; it is never penalised for it.
#[derive(Clone, Debug, PartialEq)]
pub struct ResignRule {
    pub moves: usize,
    pub margin: f32,
    pub command: String,
}

/// Clocks and timeouts for one game.
#[derive(Clone, Debug)]
pub struct RefereeOptions {
    /// Per-move limit for the Black and the White engine (`None`: no limit sent).
    pub time_per_move: [Option<Duration>; 2],
    /// Sudden death (plus increment) for Black and White; where set it replaces the
    /// per-move limit of that colour. Before every `genmove` the engine is told its
    /// remaining time with `time_left`, and it loses when the clock runs out (plus margin).
    pub clock: [Option<Clock>; 2],
    /// Allowance for process start-up and pipe latency on top of a move limit.
    pub margin: Duration,
    /// Timeout for every command other than `genmove`.
    pub command_timeout: Duration,
    /// How long a `genmove` may take when no limit is set, before it counts as a hang.
    pub hang_timeout: Duration,
    /// Resignation by agreement, if wanted.
    pub resign: Option<ResignRule>,
}

impl Default for RefereeOptions {
    fn default() -> RefereeOptions {
        RefereeOptions {
            time_per_move: [None, None],
            clock: [None, None],
            margin: Duration::from_millis(500),
            command_timeout: Duration::from_secs(10),
            hang_timeout: Duration::from_secs(120),
            resign: None,
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
    play_game_from(game, engines, opts, &[]).await
}

/// Plays the moves of an opening (protocol notation) on our board and tells both engines
/// with `play`. An engine refusing a move of the opening loses; a move our rules refuse
/// (an opening file not checked beforehand) is reported as an error.
async fn play_opening<G: RefereeGame>(
    game: &mut G,
    engines: &mut [&mut GtpClient; 2],
    opts: &RefereeOptions,
    opening: &[String],
) -> Result<Option<Outcome>, String> {
    for text in opening {
        let color = game.to_move();
        let mv = match game.parse_move(color, text) {
            Ok(EngineMove::Move(mv)) => mv,
            _ => return Err(format!("opening move {text:?} is not a move")),
        };
        game.play(color, mv)
            .map_err(|e| format!("opening move {text}: {e}"))?;
        let cmd = format!("play {color} {}", game.move_text(mv));
        for side in [Color::Black, Color::White] {
            if let Err(e) = engines[side.index()].send(&cmd, opts.command_timeout).await {
                return Ok(Some(failure(side, cmd, e, game.move_count())));
            }
        }
    }
    Ok(None)
}

/// Checks an opening against our rules on a fresh game, so a bad line in an opening file
/// is a usage error before any engine starts.
pub fn check_opening<G: RefereeGame>(game: &mut G, opening: &[String]) -> Result<(), String> {
    for text in opening {
        let color = game.to_move();
        let mv = match game.parse_move(color, text) {
            Ok(EngineMove::Move(mv)) => mv,
            _ => return Err(format!("{text:?} is not a move")),
        };
        game.play(color, mv).map_err(|e| format!("{text}: {e}"))?;
        if game.is_over() {
            return Err(format!("the game is over after {text}"));
        }
    }
    Ok(())
}

/// [`play_game`] after the given opening moves. An opening our rules refuse ends the game
/// at once as a draw by `EngineFailure("opening ...")` (callers check openings first with
/// [`check_opening`], so this is a guard, not a result).
pub async fn play_game_from<G: RefereeGame>(
    game: &mut G,
    engines: [&mut GtpClient; 2],
    opts: &RefereeOptions,
    opening: &[String],
) -> Outcome {
    let [black, white] = engines;
    let mut engines = [black, white];
    for color in [Color::Black, Color::White] {
        let mut commands = game.setup_commands();
        if let Some(clock) = opts.clock[color.index()] {
            commands.extend(game.sudden_death_command(clock.base));
        } else if let Some(limit) = opts.time_per_move[color.index()] {
            commands.extend(game.time_command(limit));
        }
        for cmd in commands {
            let engine = &mut engines[color.index()];
            if let Err(e) = engine.send(&cmd, opts.command_timeout).await {
                return failure(color, cmd, e, 0);
            }
        }
    }
    match play_opening(game, &mut engines, opts, opening).await {
        Ok(None) => {}
        Ok(Some(outcome)) => return outcome,
        Err(e) => {
            return Outcome {
                winner: None,
                reason: EndReason::EngineFailure(e),
                moves: game.move_count(),
            }
        }
    }
    let mut remaining = opts.clock.map(|c| c.map(|c| c.base));
    let mut agreement = Agreement::new(opts.resign.as_ref());
    loop {
        if game.is_over() {
            return score(game, engines, opts).await;
        }
        let color = game.to_move();
        let moves = game.move_count();
        let i = color.index();
        let limit = match (remaining[i], opts.time_per_move[i]) {
            (Some(left), _) => {
                if let Some(cmd) = game.time_left_command(color, left) {
                    // `time_left` is optional in GTP: refusing it is no fault; the
                    // referee's own clock still binds.
                    match engines[i].send(&cmd, opts.command_timeout).await {
                        Ok(_) | Err(ClientError::Failure(_)) => {}
                        Err(e) => return failure(color, cmd, e, moves),
                    }
                }
                left + opts.margin
            }
            (None, Some(t)) => t + opts.margin,
            (None, None) => opts.hang_timeout,
        };
        let cmd = format!("genmove {color}");
        let started = Instant::now();
        let answer = match engines[i].send(&cmd, limit).await {
            Ok(a) => a,
            Err(e) => return failure(color, cmd, e, moves),
        };
        if let (Some(left), Some(clock)) = (remaining[i], opts.clock[i]) {
            // Within the margin a late move still counts; the clock then stands at zero.
            remaining[i] = Some(left.saturating_sub(started.elapsed()) + clock.increment);
        }
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
        if !game.is_over() {
            if let Some(outcome) = agreement.check(game, &mut engines, opts).await {
                return outcome;
            }
        }
    }
}

/// The running state of a [`ResignRule`] in one game.
struct Agreement<'a> {
    rule: Option<&'a ResignRule>,
    /// The side both engines called the winner, and for how many moves in a row.
    streak: Option<(Color, usize)>,
}

impl<'a> Agreement<'a> {
    fn new(rule: Option<&'a ResignRule>) -> Agreement<'a> {
        Agreement { rule, streak: None }
    }

    /// Asks both engines; `Some` when the game is adjudicated or an engine failed.
    async fn check<G: RefereeGame>(
        &mut self,
        game: &mut G,
        engines: &mut [&mut GtpClient; 2],
        opts: &RefereeOptions,
    ) -> Option<Outcome> {
        let rule = self.rule?;
        let mut sides = [None, None];
        for color in [Color::Black, Color::White] {
            match engines[color.index()]
                .send(&rule.command, opts.command_timeout)
                .await
            {
                Ok(answer) => {
                    sides[color.index()] = game
                        .parse_final_score(&answer)
                        .filter(|s| s.abs() >= rule.margin && *s != 0.0)
                        .map(|s| if s > 0.0 { Color::Black } else { Color::White });
                }
                Err(ClientError::Failure(_)) => {
                    self.rule = None;
                    return None;
                }
                Err(e) => {
                    let cmd = rule.command.clone();
                    return Some(failure(color, cmd, e, game.move_count()));
                }
            }
        }
        self.streak = match (sides, self.streak) {
            ([Some(a), Some(b)], Some((w, n))) if a == b && a == w => Some((w, n + 1)),
            ([Some(a), Some(b)], _) if a == b => Some((a, 1)),
            _ => None,
        };
        match self.streak {
            Some((winner, n)) if n >= rule.moves => Some(Outcome {
                winner: Some(winner),
                reason: EndReason::Adjudicated,
                moves: game.move_count(),
            }),
            _ => None,
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
    fn gtp_seconds_are_exact() {
        let ms = Duration::from_millis;
        assert_eq!(gtp_seconds(ms(200)), "0.2");
        assert_eq!(gtp_seconds(ms(50)), "0.05");
        assert_eq!(gtp_seconds(ms(1200)), "1.2");
        assert_eq!(gtp_seconds(ms(3000)), "3");
        assert_eq!(gtp_seconds(ms(1)), "0.001");
        assert_eq!(gtp_seconds(Duration::ZERO), "0");
        assert_eq!(gtp_seconds(Duration::from_nanos(10)), "0.001");
        assert_eq!(gtp_seconds(Duration::from_secs_f64(0.2)), "0.2");
        assert_eq!(gtp_seconds(Duration::from_secs_f64(0.05)), "0.05");
        // What the engines read back is the same duration.
        for d in [ms(200), ms(50), ms(1200), ms(500), ms(100), ms(12_345)] {
            let back = crate::search::time::parse_seconds(&gtp_seconds(d)).unwrap();
            assert_eq!(back, d);
        }
    }

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
