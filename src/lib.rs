//! quartet: four board-game engines behind GTP-style protocols.
pub mod color;
pub mod go;
pub mod othello;
pub mod protocol;
pub mod search;
