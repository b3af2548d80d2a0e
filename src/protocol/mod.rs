//! The GTP framing shared by all four games: parsing command lines, formatting answers,
//! a command table per engine, and the stdin/stdout server loop. No game knowledge lives here.
pub mod analysis;
pub mod answer;
pub mod args;
pub mod controller;
pub mod coords;
pub mod engine;
pub mod framing;
pub mod lines;
pub mod pending;
pub mod server;
pub mod shared_commands;
pub mod stream;

pub use engine::{Command, CommandSpec, Flow, GtpEngine, GtpError, Handler, Reply, Run};
pub use pending::{Outstanding, INTERRUPT_LINE};
pub use server::{run_stdio, serve, serve_watched};
pub use stream::Stream;
