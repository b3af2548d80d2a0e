//! Go: rules, scoring, SGF, Monte-Carlo tree search and the GTP front end.
pub mod analysis;
pub mod bench;
pub mod board;
pub mod game;
pub mod gogui;
pub mod gtp;
pub mod handicap;
pub mod ladder;
pub mod live_gfx;
pub mod mcts;
pub mod patterns;
pub mod player;
pub mod playout;
pub mod seki;
pub mod sgf;
pub mod tactics;
