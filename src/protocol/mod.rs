//! The GTP framing shared by all four games: parsing command lines, formatting answers,
//! a command table per engine, and the stdin/stdout server loop. No game knowledge lives here.
pub mod coords;
pub mod engine;
