//! The JSON messages of the WebSocket API (docs/serve.md): what the page sends, parsed and
//! range-checked here, and the small messages the server sends back.
use super::rules::{GameKind, GameSpec};
use crate::gomoku::board::Rule;
use serde::Deserialize;
use serde_json::{json, Value};

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerKind {
    Human,
    Engine,
}

impl PlayerKind {
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Human => "human",
            PlayerKind::Engine => "engine",
        }
    }
}

/// The fields of a `new` message, before checking.
#[derive(Debug, Deserialize)]
pub struct NewGame {
    pub game: String,
    pub size: Option<u32>,
    pub komi: Option<f64>,
    pub rule: Option<String>,
    pub cols: Option<u32>,
    pub rows: Option<u32>,
    pub black: Option<PlayerKind>,
    pub white: Option<PlayerKind>,
    pub seconds: Option<f64>,
}

/// A message from the page.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    New(NewGame),
    Play {
        #[serde(rename = "move")]
        mv: String,
    },
    Analyze {
        on: bool,
    },
    Stop,
    Resume,
    Undo,
    Players {
        black: Option<PlayerKind>,
        white: Option<PlayerKind>,
        seconds: Option<f64>,
    },
    Save,
    Load {
        text: String,
    },
}

/// Go board sizes the page offers.
pub const GO_SIZES: [usize; 3] = [9, 13, 19];
/// Engine time per move, seconds.
pub const SECONDS_RANGE: (f64, f64) = (0.1, 60.0);
/// Dots boxes per side.
pub const DOTS_SIDE: (usize, usize) = (1, 8);
/// Gomoku board sides.
pub const GOMOKU_SIZES: (usize, usize) = (7, 19);
/// Longest move text accepted (the longest real one is a Dots edge, `h9-i9`).
const MAX_MOVE_TEXT: usize = 16;

/// A checked `new` message.
#[derive(Clone, Debug)]
pub struct NewSettings {
    pub spec: GameSpec,
    pub players: [PlayerKind; 2],
    pub seconds: f64,
}

/// Checks a time per move.
pub fn check_seconds(s: f64) -> Result<f64, String> {
    let (lo, hi) = SECONDS_RANGE;
    if s.is_finite() && (lo..=hi).contains(&s) {
        Ok(s)
    } else {
        Err(format!("seconds must be between {lo} and {hi}"))
    }
}

/// Checks the values of a move message.
pub fn check_move_text(mv: &str) -> Result<&str, String> {
    let mv = mv.trim();
    if mv.is_empty() || mv.len() > MAX_MOVE_TEXT || !mv.bytes().all(|b| b.is_ascii_graphic()) {
        return Err("move must be a short move name such as D4, d3, H8 or a1-b1".into());
    }
    Ok(mv)
}

impl NewGame {
    /// The game it asks for, or what is out of range.
    pub fn check(&self) -> Result<NewSettings, String> {
        let kind = GameKind::parse(&self.game)
            .ok_or_else(|| format!("unknown game {:?} (go, othello, gomoku, dots)", self.game))?;
        let spec = match kind {
            GameKind::Go => {
                let size = self.size.unwrap_or(9) as usize;
                if !GO_SIZES.contains(&size) {
                    return Err("Go size must be 9, 13 or 19".into());
                }
                let komi = self.komi.unwrap_or(7.5);
                if !komi.is_finite() || komi.abs() > 100.0 || (komi * 2.0).fract() != 0.0 {
                    return Err("komi must be a multiple of 0.5 between -100 and 100".into());
                }
                GameSpec::go(size, komi as f32)
            }
            GameKind::Othello => {
                if self.size.is_some_and(|s| s != 8) {
                    return Err("Othello is played on 8x8".into());
                }
                GameSpec::othello()
            }
            GameKind::Gomoku => {
                let size = self.size.unwrap_or(15) as usize;
                let (lo, hi) = GOMOKU_SIZES;
                if !(lo..=hi).contains(&size) {
                    return Err(format!("Gomoku size must be {lo} to {hi}"));
                }
                let rule = match &self.rule {
                    None => Rule::Freestyle,
                    Some(r) => Rule::parse(r).ok_or_else(|| {
                        format!("unknown rule {r:?} (freestyle, standard, renju)")
                    })?,
                };
                GameSpec::gomoku(size, rule)
            }
            GameKind::Dots => {
                let (lo, hi) = DOTS_SIDE;
                let cols = self.cols.unwrap_or(3) as usize;
                let rows = self.rows.unwrap_or(3) as usize;
                if !(lo..=hi).contains(&cols) || !(lo..=hi).contains(&rows) {
                    return Err(format!("Dots cols and rows must be {lo} to {hi}"));
                }
                GameSpec::dots(cols, rows)
            }
        };
        Ok(NewSettings {
            spec,
            players: [
                self.black.unwrap_or(PlayerKind::Human),
                self.white.unwrap_or(PlayerKind::Engine),
            ],
            seconds: check_seconds(self.seconds.unwrap_or(1.0))?,
        })
    }
}

/// Error codes of the `error` message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    BadMessage,
    TooLarge,
    Illegal,
    NotYourTurn,
    Busy,
    BadRecord,
    Engine,
}

impl ErrorCode {
    pub fn name(self) -> &'static str {
        match self {
            ErrorCode::BadMessage => "bad_message",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::Illegal => "illegal",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::Busy => "busy",
            ErrorCode::BadRecord => "bad_record",
            ErrorCode::Engine => "engine",
        }
    }
}

pub fn error(code: ErrorCode, message: impl Into<String>) -> Value {
    json!({"type": "error", "code": code.name(), "message": message.into()})
}

pub fn hello(max_games: usize) -> Value {
    json!({"type": "hello", "version": env!("CARGO_PKG_VERSION"), "max_games": max_games})
}

/// Parses a text frame; the error is the `bad_message` text.
pub fn parse(text: &str) -> Result<ClientMessage, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_checks_messages() {
        let m = parse(r#"{"type":"new","game":"go","size":9,"black":"engine"}"#).unwrap();
        let ClientMessage::New(n) = m else { panic!() };
        let s = n.check().unwrap();
        assert_eq!(s.players, [PlayerKind::Engine, PlayerKind::Engine]);
        assert_eq!(s.spec.size, 9);
        assert!(matches!(
            parse(r#"{"type":"play","move":"D4"}"#),
            Ok(ClientMessage::Play { .. })
        ));
        assert!(matches!(
            parse(r#"{"type":"stop"}"#),
            Ok(ClientMessage::Stop)
        ));
        assert!(parse(r#"{"type":"fly"}"#).is_err());
        assert!(parse(r#"{"type":"play"}"#).is_err());
        assert!(parse("[1,2").is_err());
        for bad in [
            r#"{"type":"new","game":"go","size":10}"#,
            r#"{"type":"new","game":"chess"}"#,
            r#"{"type":"new","game":"dots","cols":9}"#,
            r#"{"type":"new","game":"go","seconds":0}"#,
            r#"{"type":"new","game":"gomoku","rule":"x"}"#,
        ] {
            let ClientMessage::New(n) = parse(bad).unwrap() else {
                panic!()
            };
            assert!(n.check().is_err(), "{bad}");
        }
        assert!(parse(r#"{"type":"new","game":"go","size":-1}"#).is_err());
        assert!(check_move_text("a1-b1").is_ok());
        assert!(check_move_text("").is_err());
        assert!(check_move_text(&"x".repeat(100)).is_err());
    }
}
