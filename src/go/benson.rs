//! Unconditional life by Benson's algorithm (D. B. Benson, "Life in the game of Go", 1976):
//! the strings of one colour that no sequence of opposing moves can capture, even if their
//! owner always passes, and the area they make safe. The search uses it to prove wins: a
//! colour whose safe area alone beats the other's best possible count has won.
//!
//! Regions are the maximal connected sets of points not of the colour (empty or opposing
//! stones). A region is *healthy* for a string when every empty point of it is a liberty of
//! that string. Repeatedly drop strings with fewer than two healthy regions among the
//! regions left, and regions touching a dropped string; the strings left are unconditionally
//! alive. A region left that is healthy for one of them is safe area: every empty point in it
//! touches an invincible string, so no opposing stone there can ever own an eye.
//!
//! Everything lives in fixed-size arrays on the stack: it runs at node expansion in the tree.
use super::board::{Board, MAX_POINTS};
use crate::color::Color;

/// Most regions or strings a board can hold (one per point at worst).
const NONE: u16 = u16::MAX;

/// The unconditionally safe points of `c`: its invincible strings and the regions they
/// make safe. `safe[p]` is true for those points; returns how many there are.
pub fn safe_points(b: &Board, c: Color, safe: &mut [bool; MAX_POINTS]) -> usize {
    safe.iter_mut().for_each(|s| *s = false);
    // Regions: flood fill over points that are not `c`.
    let mut region_of = [NONE; MAX_POINTS];
    let mut order = [0u16; MAX_POINTS]; // points grouped by region
    let mut start = [0u16; MAX_POINTS + 1]; // region r spans order[start[r]..start[r + 1]]
    let mut n_regions = 0usize;
    let mut n_order = 0usize;
    for p in b.points() {
        if b.stone(p) == Some(c) || region_of[p] != NONE {
            continue;
        }
        start[n_regions] = n_order as u16;
        region_of[p] = n_regions as u16;
        order[n_order] = p as u16;
        n_order += 1;
        let mut i = start[n_regions] as usize;
        while i < n_order {
            let q = order[i] as usize;
            i += 1;
            for n in b.neighbors(q) {
                if b.is_on_board(n) && b.stone(n) != Some(c) && region_of[n] == NONE {
                    region_of[n] = n_regions as u16;
                    order[n_order] = n as u16;
                    n_order += 1;
                }
            }
        }
        n_regions += 1;
    }
    start[n_regions] = n_order as u16;

    // The strings each region is healthy for: the strings adjacent to every empty point of
    // it (at most four, the neighbours of its first empty point).
    let mut healthy = [[NONE; 4]; MAX_POINTS];
    for (r, h) in healthy.iter_mut().enumerate().take(n_regions) {
        let mut first = true;
        for &q in &order[start[r] as usize..start[r + 1] as usize] {
            let q = q as usize;
            if !b.is_empty(q) {
                continue;
            }
            let mut around = [NONE; 4];
            for (k, n) in b.neighbors(q).into_iter().enumerate() {
                if b.stone(n) == Some(c) {
                    around[k] = b.string_head(n) as u16;
                }
            }
            if first {
                *h = around;
                first = false;
            } else {
                for x in h.iter_mut() {
                    if *x != NONE && !around.contains(x) {
                        *x = NONE;
                    }
                }
            }
        }
    }

    let mut alive = [false; MAX_POINTS]; // by string head
    for p in b.points() {
        if b.stone(p) == Some(c) && b.string_head(p) == p {
            alive[p] = true;
        }
    }
    let mut region_in = [true; MAX_POINTS];
    loop {
        let mut changed = false;
        // Healthy regions left per string.
        let mut count = [0u8; MAX_POINTS];
        for r in 0..n_regions {
            if !region_in[r] {
                continue;
            }
            let h = healthy[r];
            for (k, &x) in h.iter().enumerate() {
                if x != NONE && !h[..k].contains(&x) {
                    count[x as usize] = count[x as usize].saturating_add(1);
                }
            }
        }
        for p in b.points() {
            if alive[p] && count[p] < 2 {
                alive[p] = false;
                changed = true;
            }
        }
        // Regions touching a string no longer alive leave.
        for r in 0..n_regions {
            if !region_in[r] {
                continue;
            }
            let touches_dead = order[start[r] as usize..start[r + 1] as usize]
                .iter()
                .any(|&q| {
                    b.neighbors(q as usize)
                        .into_iter()
                        .any(|n| b.stone(n) == Some(c) && !alive[b.string_head(n)])
                });
            if touches_dead {
                region_in[r] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }

    let mut n = 0;
    for p in b.points() {
        if b.stone(p) == Some(c) && alive[b.string_head(p)] {
            safe[p] = true;
            n += 1;
        }
    }
    for r in 0..n_regions {
        if region_in[r] && healthy[r].iter().any(|&x| x != NONE && alive[x as usize]) {
            for &q in &order[start[r] as usize..start[r + 1] as usize] {
                safe[q as usize] = true;
                n += 1;
            }
        }
    }
    n
}

/// The colour that has won whatever happens next: its safe area beats the other's best
/// possible count (every point not safe for the winner) under `komi`.
pub fn proven_winner(b: &Board, komi: f32) -> Option<Color> {
    let total = (b.size() * b.size()) as f32;
    let mut safe = [false; MAX_POINTS];
    let black = safe_points(b, Color::Black, &mut safe) as f32;
    // Black's worst count is `black`, White's best is everything else.
    if black - (total - black) - komi > 0.0 {
        return Some(Color::Black);
    }
    let white = safe_points(b, Color::White, &mut safe) as f32;
    if white - (total - white) + komi > 0.0 {
        return Some(Color::White);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(rows: &[&str], c: Color) -> (usize, Board) {
        let b = Board::from_diagram(rows).expect("legal diagram");
        let mut safe = [false; MAX_POINTS];
        (safe_points(&b, c, &mut safe), b)
    }

    #[test]
    fn two_eyes_are_unconditionally_alive() {
        // Black's wall with eyes a5, c5 and e5: Benson's textbook case. The open lower
        // part holds empty points that are no liberty of the wall (rows 1-2), so it is not
        // healthy and not safe: 7 stones + 3 eyes.
        let rows = [".X.X.", "XXXXX", ".....", ".....", "....."];
        assert_eq!(count(&rows, Color::Black).0, 10);
        // White has no stones: nothing safe.
        assert_eq!(count(&rows, Color::White).0, 0);
    }

    #[test]
    fn one_eye_is_not_alive() {
        // A single eye: White captures the string by filling it last.
        let rows = [".XO..", "XXO..", "OOO..", ".....", "....."];
        assert_eq!(count(&rows, Color::Black).0, 0);
        // The wall with eye a5 and the space c5-e5 open to the lower board through e4:
        // that region has points far from the wall, so one healthy region only.
        let rows = [".X...", "XXXX.", ".....", ".....", "....."];
        assert_eq!(count(&rows, Color::Black).0, 0);
        // One healthy region holding an enemy stone (b5-d5 around White's c5) is still
        // one eye at most: the rows below are White's.
        let rows = ["X.O.X", "XXXXX", "OOOOO", ".....", "OOOOO"];
        assert_eq!(count(&rows, Color::Black).0, 0);
    }

    #[test]
    fn a_dead_stone_inside_a_healthy_region_is_safe_area() {
        // Four healthy regions (b5-d5 with White's c5, b3, d3, row 1): the black string is
        // invincible and the whole board is its safe area, White's c5 included.
        let rows = ["X.O.X", "XXXXX", "X.X.X", "XXXXX", "....."];
        let (n, b) = count(&rows, Color::Black);
        assert_eq!(n, 25);
        assert_eq!(proven_winner(&b, 7.5), Some(Color::Black));
    }

    #[test]
    fn proves_a_win_only_when_the_safe_area_decides() {
        // Black's whole 5x5 board with two eyes: 25 safe points against 0 under komi 0.5.
        let rows = ["X.XXX", "XXXXX", "XXXXX", "XXXX.", "XXXXX"];
        let b = Board::from_diagram(&rows).unwrap();
        assert_eq!(proven_winner(&b, 0.5), Some(Color::Black));
        // Komi 30 is more than Black's whole board: White has won whatever happens.
        assert_eq!(proven_winner(&b, 30.0), Some(Color::White));
        // Komi 25 against 25 points: a draw at best for Black, so no proof either way.
        assert_eq!(proven_winner(&b, 25.0), None);
        // The empty board proves nothing.
        assert_eq!(proven_winner(&Board::new(9), 7.5), None);
    }
}
