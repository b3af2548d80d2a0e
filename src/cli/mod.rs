//! One file per subcommand; `main.rs` only dispatches.
pub mod bench_othello;
pub mod othello;
