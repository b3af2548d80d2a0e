//! Othello: bitboard rules, an exact endgame solver, a midgame searcher and the GTP engine.
pub mod bitboard;
pub mod board;
pub mod endgame;
pub mod eval;
pub mod gtp;
pub mod lastflip;
pub mod search;
pub mod stability;
pub mod train;
