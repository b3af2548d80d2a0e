//! The command line: one small module per subcommand.
pub mod bench;
pub mod bench_othello;
pub mod othello;
