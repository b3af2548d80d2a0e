//! Who picks the engine's moves: the searching player (`play::choose_move`) or the
//! greedy reference player. Both front ends (GTP and SAU) ask a `Player` for one
//! edge at a time, so the greedy player speaks every protocol the real engine speaks.
use super::greedy::greedy_move;
use super::play::{choose_move_reporting, Choice, PlayTable};
use super::Board;
use crate::search::{no_progress, Progress, StopToken};
use rand::rngs::SmallRng;
use rand::seq::IteratorRandom;
use rand::SeedableRng;
use std::time::{Duration, Instant};

pub enum Player {
    /// Iterative-deepening alpha-beta under the clock, with the table it keeps between
    /// moves.
    Search(Box<PlayTable>),
    /// Takes boxes, else a random safe edge, else a random edge; seeded, so reproducible.
    Greedy(SmallRng),
}

impl Player {
    pub fn search() -> Player {
        Player::Search(Box::default())
    }

    /// The searching player with its table's size and thread count.
    pub fn search_with(table: PlayTable) -> Player {
        Player::Search(Box::new(table))
    }

    /// Readies the search for games on `board`'s geometry (see `PlayTable::prepare`); call
    /// it where the board changes size, outside the timed commands.
    pub fn prepare(&mut self, board: &Board) {
        if let Player::Search(table) = self {
            table.prepare(board);
        }
    }

    pub fn greedy(seed: u64) -> Player {
        Player::Greedy(SmallRng::seed_from_u64(seed))
    }

    pub fn name(&self) -> &'static str {
        match self {
            Player::Search(_) => "quartet",
            Player::Greedy(_) => "quartet-greedy",
        }
    }

    /// One edge for the side to move; `None` only on a full board. Blocks until the
    /// search ends (`hard` after the call at the latest); the greedy player answers at once.
    pub fn choose(
        &mut self,
        board: &Board,
        soft: Duration,
        hard: Duration,
        stop: Option<StopToken>,
    ) -> Option<usize> {
        self.choose_avoiding(board, soft, hard, stop, &[])
    }

    /// As `choose`, never answering an edge of `avoid` (edges a controller refused);
    /// `None` when every legal edge is in it.
    pub fn choose_avoiding(
        &mut self,
        board: &Board,
        soft: Duration,
        hard: Duration,
        stop: Option<StopToken>,
        avoid: &[usize],
    ) -> Option<usize> {
        self.choose_reporting(board, soft, hard, stop, avoid, &mut no_progress)
    }

    /// As `choose_avoiding`, telling `progress` the search's choice after each completed
    /// iteration (the greedy player reports nothing).
    pub fn choose_reporting(
        &mut self,
        board: &Board,
        soft: Duration,
        hard: Duration,
        stop: Option<StopToken>,
        avoid: &[usize],
        progress: Progress<'_, Choice>,
    ) -> Option<usize> {
        match self {
            Player::Greedy(rng) => match greedy_move(board, rng) {
                Some(e) if avoid.contains(&e) => board
                    .legal_edges()
                    .filter(|e| !avoid.contains(e))
                    .choose(rng),
                other => other,
            },
            Player::Search(table) => {
                let start = Instant::now();
                let c = choose_move_reporting(board, soft, hard, stop, avoid, table, progress)?;
                tracing::info!(
                    "move {}: value {} exact {} depth {} nodes {} in {:?}",
                    board.edge_name(c.edge),
                    c.value,
                    c.exact,
                    c.depth,
                    c.nodes,
                    start.elapsed()
                );
                Some(c.edge)
            }
        }
    }
}
