//! Engine-versus-engine matches: a GTP client for child processes, a game-neutral referee
//! (with Go plugged in), scheduling, and statistics. Imported as `quartet::matches`
//! (`match` is a Rust keyword).
pub mod dots_referee;
pub mod go_referee;
pub mod gomoku_referee;
pub mod gtp_client;
pub mod othello_referee;
pub mod pbrain_bridge;
pub mod referee;
pub mod report;
pub mod results;
pub mod schedule;
pub mod stats;
pub mod tournament;
