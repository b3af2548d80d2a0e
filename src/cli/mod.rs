//! The command line: one small module per subcommand. Each parses its arguments, builds
//! the settings values and calls the library.
pub mod bench;
pub mod bench_dots;
pub mod bench_go;
pub mod bench_gomoku;
pub mod bench_othello;
pub mod dots;
pub mod fake_gtp;
pub mod go;
pub mod gomoku;
pub mod match_cmd;
pub mod match_tourney;
pub mod othello;
pub mod othello_learn;
pub mod serve;
pub mod train;
pub mod train_go;
pub mod train_gomoku;
pub mod train_othello;
