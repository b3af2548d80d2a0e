//! The command line: one small module per subcommand.
pub mod bench;
pub mod fake_gtp;
pub mod go;
pub mod gomoku;
pub mod match_cmd;
