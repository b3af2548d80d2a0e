//! Dots-and-Boxes: rules and notation, chain theory, an exact solver and time-limited play.
//!
//! Layers: `notation` and `geometry` know nothing of the game state; `board` holds a game;
//! `chains` analyses a position; `solver` searches exactly (`parallel` on several threads);
//! `play` picks moves under a clock; `engine` is the protocol front end (the only part that
//! formats protocol answers).
pub mod board;
pub mod chains;
pub mod geometry;
pub mod gogui;
pub mod greedy;
pub mod gtp;
pub mod notation;
pub mod parallel;
pub mod play;
pub mod player;
pub mod sau;
pub mod solver;
pub mod split;
pub mod symmetry;
pub mod table;

pub use board::{Board, EdgeSet, MoveError};
pub use geometry::Geometry;
pub use notation::{Dot, EdgeName, NotationError};
