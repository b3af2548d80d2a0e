//! A reference opponent: a greedy player. It takes a box whenever one has three
//! sides, else draws a random edge that gives no box a third side, else any random edge.
//! It knows nothing of chains, so it never double-deals and always opens the shortest
//! chain only by luck; the strength test measures the real engine against it.
use super::geometry::GROUND;
use super::Board;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

/// Boxes next to `e` that have exactly `sides` sides drawn.
fn neighbours_with(board: &Board, e: usize, sides: u8) -> usize {
    board
        .geometry()
        .edge_boxes(e)
        .iter()
        .filter(|&&b| b != GROUND && board.sides(b as usize) == sides)
        .count()
}

/// An edge that completes a box, if any.
pub fn capture(board: &Board) -> Option<usize> {
    board
        .legal_edges()
        .find(|&e| neighbours_with(board, e, 3) > 0)
}

/// Edges that give no box its third side (and complete none).
pub fn safe_edges(board: &Board) -> Vec<usize> {
    board
        .legal_edges()
        .filter(|&e| neighbours_with(board, e, 2) == 0 && neighbours_with(board, e, 3) == 0)
        .collect()
}

/// The greedy choice for the side to move; `None` only on a full board.
pub fn greedy_move(board: &Board, rng: &mut SmallRng) -> Option<usize> {
    if let Some(e) = capture(board) {
        return Some(e);
    }
    let safe = safe_edges(board);
    if let Some(&e) = safe.choose(rng) {
        return Some(e);
    }
    let legal: Vec<usize> = board.legal_edges().collect();
    legal.choose(rng).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Over many random positions: a capture is always taken; otherwise, whenever an edge
    /// exists that leaves every box at two sides or fewer (checked here by drawing every
    /// edge in turn, independently of `safe_edges`), the greedy edge gives nothing away.
    #[test]
    fn never_gives_a_box_away_when_a_safe_edge_exists() {
        let mut rng = SmallRng::seed_from_u64(5);
        let mut checked_safe = 0;
        for (c, r) in [(5, 5), (3, 4), (2, 2), (8, 8), (1, 3)] {
            for _ in 0..200 {
                let mut b = Board::new(c, r).unwrap();
                let n = b.geometry().n_edges();
                let k = rand::Rng::gen_range(&mut rng, 0..n);
                let mut edges: Vec<usize> = (0..n).collect();
                edges.shuffle(&mut rng);
                for &e in &edges[..k] {
                    b.play(e).unwrap();
                }
                let three_sided = (0..b.geometry().n_boxes()).any(|x| b.sides(x) == 3);
                let gives_away = |b: &Board, e: usize| {
                    let mut t = b.clone();
                    t.play(e).unwrap();
                    (0..t.geometry().n_boxes()).any(|x| t.sides(x) == 3)
                };
                let m = greedy_move(&b, &mut rng).expect("edges remain");
                let mut after = b.clone();
                let completed = after.play(m).unwrap();
                if three_sided {
                    assert!(completed > 0, "a box was there to take");
                    continue;
                }
                let any_safe = b
                    .legal_edges()
                    .any(|e| !gives_away(&b, e) && b.clone().play(e) == Ok(0));
                if any_safe {
                    checked_safe += 1;
                    assert!(!gives_away(&b, m), "{}", b.edge_name(m));
                }
            }
        }
        assert!(
            checked_safe > 300,
            "only {checked_safe} positions had a safe edge"
        );
    }

    #[test]
    fn full_board_has_no_move() {
        let mut b = Board::new(1, 1).unwrap();
        for e in 0..4 {
            b.play(e).unwrap();
        }
        assert_eq!(greedy_move(&b, &mut SmallRng::seed_from_u64(1)), None);
    }
}
