//! quartet: four board-game engines behind GTP-style protocols.
pub mod bounded_read;
pub mod cli;
pub mod color;
pub mod cpu_time;
pub mod dots;
pub mod go;
pub mod gomoku;
pub mod logging;
#[path = "match/mod.rs"]
pub mod matches;
pub mod memory;
pub mod othello;
pub mod protocol;
pub mod record;
pub mod search;
pub mod serve;
