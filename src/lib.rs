//! quartet: four board-game engines behind GTP-style protocols.
pub mod color;
pub mod go;
#[path = "match/mod.rs"]
pub mod matches;
pub mod protocol;
pub mod search;
