//! Gomoku: board and rules (freestyle, standard, renju), the window evaluation, alpha-beta
//! with threat-space search, and the GTP and Gomocup (pbrain) front ends.
pub mod bench;
pub mod board;
#[cfg(test)]
mod board_tests;
#[cfg(test)]
mod code_tests;
mod defence;
pub mod dfpn;
pub mod eval;
pub mod game;
pub mod gtp;
#[cfg(test)]
mod pattern_tests;
pub mod patterns;
pub mod pbrain;
pub mod pbrain_clock;
#[cfg(test)]
mod proof_tests;
pub mod puzzles;
pub mod renju;
#[cfg(test)]
mod rule_tests;
pub mod search;
#[cfg(test)]
mod search_tests;
pub mod selfplay;
pub mod swap2;
pub mod threats;
pub mod train;
pub mod tt;
pub mod weights;
