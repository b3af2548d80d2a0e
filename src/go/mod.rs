//! Go: rules, scoring, SGF, Monte-Carlo tree search and the GTP front end.
pub mod board;
pub mod game;
pub mod sgf;
