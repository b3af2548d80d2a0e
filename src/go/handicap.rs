//! Handicap stone placement as GTP `fixed_handicap` defines it: star points on the third
//! line (boards up to 12) or fourth line (13 and up), corners first, then sides, the centre
//! for odd counts.

/// Largest fixed handicap for `size`: 9 on odd boards of 9 and up, 4 on even boards and 7x7,
/// none below 7x7.
pub fn max_fixed(size: usize) -> usize {
    if size < 7 {
        0
    } else if size % 2 == 1 && size >= 9 {
        9
    } else {
        4
    }
}

/// (col, row) of the `n` fixed handicap stones, or `None` when `n` is not allowed.
pub fn fixed(size: usize, n: usize) -> Option<Vec<(usize, usize)>> {
    if n < 2 || n > max_fixed(size) {
        return None;
    }
    let e = if size >= 13 { 3 } else { 2 };
    let (lo, mid, hi) = (e, size / 2, size - 1 - e);
    // Order of the GTP specification: the two opposite corners, the third and fourth corner,
    // then (for 6 and 8) the sides, with the centre added for odd counts from 5.
    let corners = [(lo, lo), (hi, hi), (lo, hi), (hi, lo)];
    let sides_lr = [(lo, mid), (hi, mid)];
    let sides_tb = [(mid, lo), (mid, hi)];
    let centre = (mid, mid);
    let mut v: Vec<(usize, usize)> = Vec::new();
    let corner_count = n.min(4);
    v.extend_from_slice(&corners[..corner_count]);
    match n {
        5 => v.push(centre),
        6 => v.extend_from_slice(&sides_lr),
        7 => {
            v.extend_from_slice(&sides_lr);
            v.push(centre);
        }
        8 => {
            v.extend_from_slice(&sides_lr);
            v.extend_from_slice(&sides_tb);
        }
        9 => {
            v.extend_from_slice(&sides_lr);
            v.extend_from_slice(&sides_tb);
            v.push(centre);
        }
        _ => {}
    }
    Some(v)
}

/// Points for `place_free_handicap`: the fixed pattern where it exists, otherwise a spread of
/// points on a lattice, at most `n`, never filling the board.
pub fn free(size: usize, n: usize) -> Vec<(usize, usize)> {
    if let Some(v) = fixed(size, n) {
        return v;
    }
    let mut v = fixed(size, n.min(max_fixed(size))).unwrap_or_default();
    let step = if size >= 13 { 3 } else { 2 };
    let mut row = step.min(size - 1);
    while v.len() < n && row < size {
        let mut col = step.min(size - 1);
        while v.len() < n && col < size {
            if !v.contains(&(col, row)) {
                v.push((col, row));
            }
            col += step;
        }
        row += step;
    }
    v.truncate(n.min(size * size - 1));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::coords::format_vertex;

    fn names(v: &[(usize, usize)]) -> Vec<String> {
        v.iter().map(|&p| format_vertex(Some(p))).collect()
    }

    #[test]
    fn nineteen_by_nineteen_matches_the_gtp_table() {
        assert_eq!(names(&fixed(19, 2).unwrap()), ["D4", "Q16"]);
        assert_eq!(names(&fixed(19, 3).unwrap()), ["D4", "Q16", "D16"]);
        assert_eq!(
            names(&fixed(19, 9).unwrap()),
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"]
        );
        assert_eq!(names(&fixed(9, 5).unwrap()), ["C3", "G7", "C7", "G3", "E5"]);
    }

    #[test]
    fn limits() {
        assert!(fixed(19, 1).is_none());
        assert!(fixed(19, 10).is_none());
        assert!(fixed(8, 5).is_none());
        assert!(fixed(6, 2).is_none());
        assert_eq!(free(5, 3).len(), 3);
    }
}
