//! The command line: one small module per subcommand.
pub mod bench;
pub mod bench_othello;
pub mod dots;
pub mod fake_gtp;
pub mod go;
pub mod go_mm;
pub mod gomoku;
pub mod match_cmd;
pub mod match_tourney;
pub mod othello;
pub mod othello_book;
pub mod othello_eval_error;
pub mod othello_learn;
pub mod othello_probcut;
pub mod othello_signature;
pub mod othello_train;
