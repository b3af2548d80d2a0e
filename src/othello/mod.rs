//! Othello: bitboard rules, an exact endgame solver, a midgame searcher and the GTP engine.
pub mod bitboard;
pub mod board;
pub mod endgame;
pub mod eval;
pub mod evaluator;
pub mod ggf;
pub mod gtp;
pub mod lastflip;
pub mod nboard;
pub mod pattern;
pub mod pattern_file;
pub mod pattern_fit;
pub mod search;
pub mod selfplay;
pub mod stability;
pub mod train;
