//! Cheap local tactics for the playout policy (the thesis's priority list): the liberties a
//! move would leave, the vital point of the eye space a capture just opened, captures next
//! to a point, and the fights around strings with two liberties. Nothing here allocates or
//! copies the board: every answer comes from the string bookkeeping of [`Board`].
use super::board::{Board, Point, PointSet};
use crate::color::Color;

/// Fixed-size candidate list the playout policy fills.
pub type Candidates = [Point; 16];

#[inline]
pub(crate) fn push(out: &mut Candidates, n: &mut usize, p: Point) {
    if *n < out.len() && !out[..*n].contains(&p) {
        out[*n] = p;
        *n += 1;
    }
}

/// Liberties of the string `c` would make by playing at empty `p`, counted up to `cap`
/// (at most 8), leaving out `exclude` (a point the opponent is assumed to fill first; 0 for
/// none). A captured neighbour counts one liberty, the point it frees next to `p`.
pub fn libs_after_play(b: &Board, c: Color, p: Point, exclude: Point, cap: usize) -> usize {
    let cap = cap.min(8);
    let mut libs = PointSet::default();
    for nb in b.neighbors(p) {
        match b.stone(nb) {
            None if b.is_on_board(nb) => libs.insert(nb),
            None => {}
            Some(s) if s == c => {
                // The new string keeps every liberty of this one but `p` and `exclude`:
                // enough of them settle the count.
                if b.libs(nb) >= cap + 2 {
                    return cap;
                }
                b.add_libs_to(nb, &mut libs);
            }
            // An enemy string whose last liberty is `p` is captured.
            Some(_) if b.libs(nb) == 1 => libs.insert(nb),
            Some(_) => {}
        }
    }
    libs.remove(p);
    libs.remove(exclude);
    libs.len(b.set_words()).min(cap)
}

/// The vital point of the eye space the last move's capture left, when it is a killing
/// shape (straight or bent three, pyramid four, bulky five, crossed five, rabbity six): the
/// one captured point with the most captured neighbours. Shapes with no single such point
/// (two points, squares, straight and bent fours) make two eyes or none whatever the
/// poke, so they give `None`.
pub fn eye_poke(b: &Board) -> Option<Point> {
    let (n, pts) = b.last_captured();
    if !(3..=6).contains(&n) || pts.len() != n {
        return None;
    }
    let mut best = None;
    let mut best_deg = 0;
    let mut unique = false;
    for &p in pts {
        let p = p as usize;
        let deg = b
            .neighbors(p)
            .iter()
            .filter(|&&q| pts.contains(&(q as u16)))
            .count();
        if deg > best_deg {
            best = Some(p);
            best_deg = deg;
            unique = true;
        } else if deg == best_deg {
            unique = false;
        }
    }
    best.filter(|_| unique)
}

/// Where `c` kills the small eye space the opponent's move at `last` just walled in: the
/// empty area next to `last`, at most six points touching no stone of `c`, in one of the
/// killing shapes with a single vital point (straight or bent three, pyramid four, bulky or
/// crossed five, rabbity six). Straight and bent fours, squares and longer shapes are left
/// alone: they either live whatever `c` does or are dead already. As in Pachi's playouts,
/// `last`'s empty neighbours must all touch one another (diagonally counts), or they are
/// not one small area.
pub fn nakade_point(b: &Board, c: Color, last: Point) -> Option<Point> {
    let w = b.width();
    let mut start = None;
    for q in b.neighbors(last) {
        if !b.is_empty(q) {
            continue;
        }
        match start {
            None => start = Some(q),
            Some(s) => {
                // Two of `last`'s neighbours touch (diagonally) unless they are opposite.
                let d = s.abs_diff(q);
                if d != w - 1 && d != w + 1 {
                    return None;
                }
            }
        }
    }
    let mut area: [Point; 6] = [start?; 6];
    let mut n = 1;
    let mut i = 0;
    while i < n {
        for q in b.neighbors(area[i]) {
            if b.stone(q) == Some(c) {
                return None;
            }
            if b.is_empty(q) && !area[..n].contains(&q) {
                if n == 6 {
                    return None;
                }
                area[n] = q;
                n += 1;
            }
        }
        i += 1;
    }
    let mut degree = [0u8; 6];
    for i in 0..n {
        for j in i + 1..n {
            let d = area[i].abs_diff(area[j]);
            if d == 1 || d == w {
                degree[i] += 1;
                degree[j] += 1;
            }
        }
    }
    let mut by_degree = [0u8; 5];
    let mut at_degree = [0usize; 5];
    for k in 0..n {
        by_degree[degree[k] as usize] += 1;
        at_degree[degree[k] as usize] = area[k];
    }
    let vital = match n {
        3 => 2,
        4 if by_degree[3] == 1 => 3,
        5 if by_degree[3] == 1 && by_degree[1] == 1 => 3,
        5 if by_degree[4] == 1 => 4,
        6 if by_degree[4] == 1 && by_degree[2] == 3 => 4,
        _ => return None,
    };
    Some(at_degree[vital])
}

/// Appends the moves of `c` that capture an enemy string in atari touching `p` (the
/// string at `p` included).
pub fn captures_near(b: &Board, c: Color, p: Point, out: &mut Candidates, n: &mut usize) {
    let [a, l, r, d] = b.neighbors(p);
    for q in [p, a, l, r, d] {
        if b.stone(q) == Some(c.opponent()) {
            if let Some(lib) = b.atari_lib(q) {
                push(out, n, lib);
            }
        }
    }
}

/// Appends the moves of `c` that capture an enemy string in atari anywhere on the board:
/// a string left in atari away from the last two moves is otherwise only taken when a
/// random move happens to hit its liberty.
pub fn captures_anywhere(b: &Board, c: Color, out: &mut Candidates, n: &mut usize) {
    for p in b.points() {
        if b.stone(p) == Some(c.opponent()) && b.string_head(p) == p {
            if let Some(lib) = b.atari_lib(p) {
                push(out, n, lib);
            }
        }
    }
}

/// Moves for `c` in the fights of the two-liberty strings touching `last` (the opponent's
/// move): an own string gains liberties by capturing an attacker in atari or by extending
/// to three or more liberties; an enemy string is put in atari when our stone is not
/// itself in atari and the escape at the other liberty leaves at most two liberties (a
/// ladder or net the playout can then follow).
pub fn two_lib_moves(b: &Board, c: Color, last: Point, out: &mut Candidates) -> usize {
    let mut n = 0;
    let [a, l, r, d] = b.neighbors(last);
    let around = [last, a, l, r, d];
    let mut heads = [0usize; 5];
    for (i, &q) in around.iter().enumerate() {
        let Some(owner) = b.stone(q) else { continue };
        if b.libs(q) != 2 {
            continue;
        }
        let h = b.string_head(q);
        if heads[..i].contains(&h) {
            continue;
        }
        heads[i] = h;
        let [Some(l1), Some(l2)] = b.two_libs(q) else {
            continue;
        };
        if owner == c {
            b.for_each_stone(q, |s| {
                for m in b.neighbors(s) {
                    if b.stone(m) == Some(c.opponent()) {
                        if let Some(lib) = b.atari_lib(m) {
                            push(out, &mut n, lib);
                        }
                    }
                }
            });
            for lib in [l1, l2] {
                if libs_after_play(b, c, lib, 0, 3) >= 3 {
                    push(out, &mut n, lib);
                }
            }
        } else {
            for (at, esc) in [(l1, l2), (l2, l1)] {
                // Most escapes run free: test that first.
                if libs_after_play(b, owner, esc, at, 3) <= 2
                    && libs_after_play(b, c, at, 0, 2) >= 2
                {
                    push(out, &mut n, at);
                }
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color::*;
    use crate::go::board::Move;

    fn board(rows: &[&str]) -> Board {
        Board::from_diagram(rows).unwrap()
    }

    #[test]
    fn liberties_after_a_move_are_counted_by_hand() {
        // Black C3 alone on a 5x5 board: a stone at D3 joins it, and the two-stone string
        // has the six points around it; counted up to 3 it says 3.
        let b = board(&[".....", ".....", "..X..", ".....", "....."]);
        let d3 = b.point(3, 2);
        assert_eq!(libs_after_play(&b, Black, d3, 0, 8), 6);
        assert_eq!(libs_after_play(&b, Black, d3, 0, 3), 3);
        // Leaving out E3: five.
        assert_eq!(libs_after_play(&b, Black, d3, b.point(4, 2), 8), 5);
        // White A1 between black A2 and B1 has no liberty and captures nothing.
        let b = board(&[".....", ".....", ".....", "X....", ".X..."]);
        assert_eq!(libs_after_play(&b, White, b.point(0, 0), 0, 8), 0);
        // Black A1 under white A2, which is in atari (black A3, B2): capturing frees A2,
        // and B1 is empty: two.
        let b = board(&[".....", ".....", "X....", "OX...", "....."]);
        assert_eq!(libs_after_play(&b, Black, b.point(0, 0), 0, 8), 2);
    }

    /// White's move at `capture` (col, row) takes the black stones inside its wall; the
    /// answer is where Black should poke the eye space left.
    fn poke_after_capture(rows: &[&str], capture: (usize, usize)) -> Option<Point> {
        let mut b = board(rows);
        let p = b.point(capture.0, capture.1);
        assert!(b.play(White, Move::Play(p)), "the capture is legal");
        assert!(b.last_captured().0 >= 3, "white captured");
        eye_poke(&b)
    }

    #[test]
    fn the_vital_point_of_a_straight_three_is_its_middle() {
        // Black B3-C3-D3 has its last liberty at E3. White E3 captures and leaves the
        // straight three B3-C3-D3: Black C3 in the middle leaves White one eye (Sensei's
        // Library, "Straight three": the middle point is vital).
        let rows = [
            ".......", ".......", ".......", "OOOOOO.", "OXXX.O.", "OOOOOO.", ".......",
        ];
        let b = board(&rows);
        assert_eq!(poke_after_capture(&rows, (4, 2)), Some(b.point(2, 2)));
    }

    #[test]
    fn a_straight_four_has_no_vital_point() {
        // Straight four B3-E3: two eyes whatever Black does first, so no poke.
        let rows = [
            ".......", ".......", ".......", "OOOOOOO", "OXXXX.O", "OOOOOOO", ".......",
        ];
        assert_eq!(poke_after_capture(&rows, (5, 2)), None);
    }

    #[test]
    fn the_vital_point_of_a_pyramid_four_is_its_centre() {
        // Black B3 C3 D3 C4 (a pyramid) with its last liberty at C5. White C5 captures;
        // C3 touches the three other points and is the pyramid's vital point.
        let rows = [
            ".......", ".......", ".......", "OOXOO..", "OXXXO..", "OOOOO..", ".......",
        ];
        let b = board(&rows);
        assert_eq!(poke_after_capture(&rows, (2, 4)), Some(b.point(2, 2)));
    }

    #[test]
    fn a_single_capture_pokes_nothing() {
        // White B1 takes black A1 (its last liberty): one point, no eye space to poke.
        let mut b = board(&[".....", ".....", ".....", "O....", "X...."]);
        assert!(b.play(White, Move::Play(b.point(1, 0))));
        assert_eq!(b.last_captured().0, 1);
        assert_eq!(eye_poke(&b), None);
    }

    /// Black's answer to White's move at `last` (col, row; row 0 at the bottom), as the
    /// nakade stage sees it.
    fn nakade_after(rows: &[&str], last: (usize, usize)) -> Option<Point> {
        let mut b = board(rows);
        let p = b.point(last.0, last.1);
        assert!(b.play(White, Move::Play(p)));
        nakade_point(&b, Black, p)
    }

    #[test]
    fn a_walled_in_bent_three_is_killed_at_its_corner() {
        // White A3 B3 C2 C1, then B2 closes the corner A1 A2 B1: a bent three, whose vital
        // point is A1, the point touching both others (Sensei's Library, "Bent three").
        let rows = [".....", ".....", "OO...", "..O..", "..O.."];
        let b = board(&rows);
        assert_eq!(nakade_after(&rows, (1, 1)), Some(b.point(0, 0)));
        // The same space with a black stone at A1 is no empty enclosure.
        let rows = [".....", ".....", "OO...", "..O..", "X.O.."];
        assert_eq!(nakade_after(&rows, (1, 1)), None);
    }

    #[test]
    fn a_bulky_five_is_killed_at_the_point_touching_three() {
        // White A3 B3 C3 D2 D1, then C2 closes A1 A2 B1 B2 C1. B1 touches A1, B2 and C1:
        // the bulky five's vital point.
        let rows = [".....", ".....", "OOO..", "...O.", "...O."];
        let b = board(&rows);
        assert_eq!(nakade_after(&rows, (2, 1)), Some(b.point(1, 0)));
    }

    #[test]
    fn living_shapes_have_no_nakade() {
        // A straight four A1-D1 under White A2-E2, closed by E1: it lives anyway.
        let rows = [".....", ".....", ".....", "OOOOO", "....."];
        assert_eq!(nakade_after(&rows, (4, 0)), None);
        // A T of five (B3 C3 D3 over C2 C1), closed by White B4: not a killing shape.
        let rows = ["OOOOO", "O.OOO", "O...O", "OO.OO", ".O.O."];
        assert_eq!(nakade_after(&rows, (1, 3)), None);
    }

    #[test]
    fn an_own_two_liberty_string_extends() {
        // Black C4 next to white D4; White plays C3, leaving C4 the liberties B4 and C5.
        // Extending to either gives four liberties, so both are proposed.
        let mut b = board(&[
            ".......", ".......", ".......", "..XO...", ".......", ".......", ".......",
        ]);
        let c3 = b.point(2, 2);
        assert!(b.play(White, Move::Play(c3)));
        assert_eq!(b.libs(b.point(2, 3)), 2);
        let mut out = [0; 16];
        let n = two_lib_moves(&b, Black, c3, &mut out);
        let got = &out[..n];
        assert!(got.contains(&b.point(1, 3)), "B4 in {got:?}");
        assert!(got.contains(&b.point(2, 4)), "C5 in {got:?}");
    }

    #[test]
    fn an_enemy_two_liberty_string_is_put_in_atari_where_it_cannot_run() {
        // White D4 is played between black C4, D5, C3 and D2: its liberties are E4 and D3.
        // Black E4 is the working atari: White's escape at D3 touches black C3 and D2 and
        // has the single liberty E3, where Black captures. Black D3 is not: White's escape
        // at E4 reaches E5, F4 and E3.
        let mut b = board(&[
            ".......", ".......", "...X...", "..X....", "..X....", "...X...", ".......",
        ]);
        let d4 = b.point(3, 3);
        assert!(b.play(White, Move::Play(d4)));
        assert_eq!(b.libs(d4), 2);
        let mut out = [0; 16];
        let n = two_lib_moves(&b, Black, d4, &mut out);
        assert_eq!(&out[..n], &[b.point(4, 3)]);
    }

    /// [`libs_after_play`] by its definition, from a scan of the whole board: the empty
    /// neighbours of `p`, the liberties of `c`'s strings next to it and its enemy
    /// neighbours in atari, without `p` and `exclude`, counted up to `cap`.
    fn libs_after_play_by_scan(b: &Board, c: Color, p: Point, exclude: Point, cap: usize) -> usize {
        let mut libs: Vec<Point> = Vec::new();
        for nb in b.neighbors(p) {
            match b.stone(nb) {
                None if b.is_on_board(nb) => libs.push(nb),
                Some(s) if s == c => {
                    let h = b.string_head(nb);
                    libs.extend(b.points().filter(|&e| {
                        b.is_empty(e)
                            && b.neighbors(e)
                                .iter()
                                .any(|&m| b.stone(m) == Some(c) && b.string_head(m) == h)
                    }));
                }
                Some(_) if b.libs(nb) == 1 => libs.push(nb),
                _ => {}
            }
        }
        libs.retain(|&q| q != p && q != exclude);
        libs.sort();
        libs.dedup();
        libs.len().min(cap.min(8))
    }

    #[test]
    fn liberties_after_a_move_equal_a_scan_of_the_board() {
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(3);
        let mut checked = 0;
        for size in [9, 9, 13, 19] {
            for _game in 0..6 {
                let mut b = Board::new(size);
                for _ in 0..rng.gen_range(size..size * size) {
                    let c = b.to_move();
                    let empties: Vec<Point> =
                        b.empty_points().iter().map(|&p| p as usize).collect();
                    let p = empties[rng.gen_range(0..empties.len())];
                    if !b.play(c, Move::Play(p)) {
                        b.play(c, Move::Pass);
                    }
                }
                let empties: Vec<Point> = b.empty_points().iter().map(|&p| p as usize).collect();
                for &p in &empties {
                    for c in [Black, White] {
                        let other = empties[rng.gen_range(0..empties.len())];
                        for exclude in [0, other] {
                            for cap in [2, 3, 8, 20] {
                                assert_eq!(
                                    libs_after_play(&b, c, p, exclude, cap),
                                    libs_after_play_by_scan(&b, c, p, exclude, cap)
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 10000, "{checked}");
    }
}
