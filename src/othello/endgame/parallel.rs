//! The solver's side of parallel solving by young brothers wait (`crate::search::ybwc`): at a
//! node with `split_min` empties or more, once its first move has been searched without a
//! cut-off, the other moves are shared between this thread and every idle helper. A split
//! point carries the position, its moves and the selective pass in force. All threads share
//! the lockless table.
use super::order::Move;
use super::{Solver, CHECK_INTERVAL};
use crate::othello::board::Board;
use crate::othello::isa;
use crate::search::ybwc::{self, Seat, Worker};
use std::sync::Arc;

/// What a split point of the solver carries.
pub(super) struct Node {
    board: Board,
    /// Empties.
    n: u32,
    list: [Move; 34],
    /// The selective pass in force (`Solver::sel_flag` and the two after it).
    sel: (u32, usize, u32),
}

pub(super) type Pool = ybwc::Pool<Node>;

/// The solver's copy of instruction level `I` (`isa`) taking part in a parallel solve.
struct Parallel<'a, const I: u8>(&'a mut Solver);

impl<const I: u8> Worker for Parallel<'_, I> {
    type Node = Node;
    type Child = Board;
    type Saved = (u32, usize, u32);
    // Exact scores: a null-window fail-high is a true lower bound.
    const RESEARCH_FROM_SCORE: bool = true;

    #[inline(always)]
    fn seat(&mut self) -> &mut Seat<Node> {
        &mut self.0.seat
    }

    #[inline(always)]
    fn aborted(&mut self) -> &mut bool {
        &mut self.0.aborted
    }

    #[inline(always)]
    fn stopped(&mut self) -> &mut bool {
        &mut self.0.stopped
    }

    fn begin_task(&mut self) {
        self.0.next_check = self.0.nodes + CHECK_INTERVAL;
    }

    fn adopt(&mut self, node: &Node) -> Self::Saved {
        let s = &mut *self.0;
        let saved = (s.sel_flag, s.sel_moves, s.sel_empties);
        (s.sel_flag, s.sel_moves, s.sel_empties) = node.sel;
        saved
    }

    fn restore(&mut self, saved: Self::Saved) {
        let s = &mut *self.0;
        (s.sel_flag, s.sel_moves, s.sel_empties) = saved;
    }

    #[inline(always)]
    fn play(&mut self, node: &Node, i: usize) -> (Board, u8) {
        let m = node.list[i];
        (node.board.play_flips(m.sq as usize, m.flips), m.sq)
    }

    #[inline(always)]
    fn search(&mut self, node: &Node, child: &Board, alpha: i32, beta: i32) -> i32 {
        -self.0.search::<I>(*child, -beta, -alpha, node.n - 1)
    }
}

impl Solver {
    /// A helper for a parallel solve: this solver's settings, the same table, its own
    /// counters.
    pub(super) fn helper(&self, id: usize, pool: Arc<Pool>) -> Solver {
        let mut h = Solver::new_sharing(self.table.clone());
        h.stop = self.stop.clone();
        h.deadline = self.deadline;
        h.mtd = self.mtd;
        h.isa = self.isa;
        h.sel_passes = self.sel_passes;
        h.sel_root = self.sel_root;
        h.split_min = self.split_min;
        h.seat = Seat::in_pool(id, pool);
        h
    }

    /// Searches moves `from..count` of `list` (all of them ordered already) at node `b`
    /// (`n` empties) with helpers, after the first move gave `best`/`best_sq`; `None` when
    /// no helper is free (the caller goes on alone). The result is the node's best score
    /// and move, meaningless when `aborted` is set.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn split<const I: u8>(
        &mut self,
        b: &Board,
        list: &[Move; 34],
        from: usize,
        count: usize,
        alpha: i32,
        beta: i32,
        best: i32,
        best_sq: u8,
        n: u32,
    ) -> Option<(i32, u8)> {
        let node = |w: &mut Parallel<'_, I>| Node {
            board: *b,
            n,
            list: *list,
            sel: (w.0.sel_flag, w.0.sel_moves, w.0.sel_empties),
        };
        ybwc::split(
            &mut Parallel::<I>(self),
            node,
            (from, count),
            (alpha, beta),
            (best, best_sq),
        )
    }

    /// A free helper of a parallel solve: works on the split points it is given until the
    /// solve is over.
    pub(super) fn serve(&mut self) {
        match self.isa {
            isa::AVX512 => ybwc::serve(&mut Parallel::<{ isa::AVX512 }>(self)),
            isa::AVX2 => ybwc::serve(&mut Parallel::<{ isa::AVX2 }>(self)),
            _ => ybwc::serve(&mut Parallel::<{ isa::PLAIN }>(self)),
        }
    }
}
