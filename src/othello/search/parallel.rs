//! The midgame search's side of young brothers wait (`crate::search::ybwc`), as the
//! solver's: at a node with `split_min` plies or more left, once its first move has been
//! searched without a cut-off, the other moves are shared between this thread and every
//! idle helper. A split point carries the position, its moves, its pattern features (read
//! only by the copies that keep them), depth and ply. All threads share the `MidTable`.
use super::{pick, Move, Searcher};
use crate::othello::board::Board;
use crate::othello::isa;
use crate::othello::pattern_incr::Features;
use crate::search::ybwc::{self, Seat, Worker};
use crate::search::{Limits, Poller};

/// What a split point of the midgame search carries.
pub(super) struct Node {
    board: Board,
    list: [Move; 34],
    feats: Features,
    depth: u32,
    ply: usize,
}

pub(super) type Pool = ybwc::Pool<Node>;

/// The copy of the search for instruction level `I` and evaluation kind `F` (`per_copy`)
/// taking part in a parallel search.
pub(super) struct Parallel<'a, 'p, const I: u8, const F: bool> {
    s: &'a mut Searcher,
    poller: &'a mut Poller<'p>,
}

impl<const I: u8, const F: bool> Worker for Parallel<'_, '_, I, F> {
    type Node = Node;
    type Child = Board;
    type Saved = ();
    // ProbCut and the table's depth-limited bounds: a re-search need not agree with the
    // null window, so it starts from alpha.
    const RESEARCH_FROM_SCORE: bool = false;

    #[inline(always)]
    fn seat(&mut self) -> &mut Seat<Node> {
        &mut self.s.seat
    }

    #[inline(always)]
    fn aborted(&mut self) -> &mut bool {
        &mut self.s.aborted
    }

    #[inline(always)]
    fn stopped(&mut self) -> &mut bool {
        &mut self.s.stopped
    }

    fn adopt(&mut self, node: &Node) {
        if F {
            self.s.feats[node.ply] = node.feats;
        }
    }

    fn restore(&mut self, (): ()) {}

    #[inline(always)]
    fn play(&mut self, node: &Node, i: usize) -> (Board, u8) {
        let m = node.list[i];
        if F {
            self.s.feats[node.ply + 1] =
                node.feats
                    .play(&node.board, m.sq as usize, m.flips, self.s.powers);
        }
        (node.board.play_flips(m.sq as usize, m.flips), m.sq)
    }

    #[inline(always)]
    fn search(&mut self, node: &Node, child: &Board, alpha: i32, beta: i32) -> i32 {
        let (d, ply) = (node.depth - 1, node.ply + 1);
        -self
            .s
            .pvs::<I, F>(child, d, -beta, -alpha, ply, self.poller)
    }
}

impl Searcher {
    /// After the first moves of a node (`..from`) failed to cut: orders the rest of `list`
    /// and searches them with helpers, after the moves before gave `first` (best score and
    /// move); `None` when no helper is free (the caller goes on alone). The result is the
    /// node's best score and move, meaningless when `aborted` is set.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(super) fn split<const I: u8, const F: bool>(
        &mut self,
        b: &Board,
        list: &mut [Move; 34],
        (from, count): (usize, usize),
        window: (i32, i32),
        first: (i32, u8),
        depth: u32,
        ply: usize,
        poller: &mut Poller<'_>,
    ) -> Option<(i32, u8)> {
        for j in from..count {
            pick(list, j, count);
        }
        let node = |w: &mut Parallel<'_, '_, I, F>| Node {
            board: *b,
            list: *list,
            feats: w.s.feats[ply],
            depth,
            ply,
        };
        let mut w = Parallel::<I, F> { s: self, poller };
        ybwc::split(&mut w, node, (from, count), window, first)
    }

    fn serve_copy<const I: u8, const F: bool>(&mut self, poller: &mut Poller<'_>) {
        ybwc::serve(&mut Parallel::<I, F> { s: self, poller });
    }

    /// A free helper of a parallel search: works on the split points it is given until the
    /// search is over; returns its node count.
    pub(super) fn serve(&mut self, limits: &Limits) -> u64 {
        let mut poller = limits.poller();
        self.nodes = 0;
        per_copy!(self, serve_copy(&mut poller));
        self.nodes
    }
}
