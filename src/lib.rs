//! quartet: four board-game engines behind GTP-style protocols.
pub mod cli;
pub mod color;
pub mod dots;
pub mod go;
pub mod logging;
pub mod protocol;
pub mod search;
