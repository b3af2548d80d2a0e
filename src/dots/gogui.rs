//! The board as GoGui's rules extension sees it: a board of C x R boxes is a
//! (2C+1) x (2R+1) grid of points. Dots sit at even-even points, an edge at the point
//! between its two dots, a box centre at an odd-odd point. Drawn edges and owned boxes
//! show as stones of the player who drew or took them, so GoGui (which only knows stones
//! on points) draws the game, and a click on an empty edge point is a move.
//!
//! Points are named as GoGui names them: a column letter without `I` (`A`..`H`, `J`..) and
//! a row number from 1 at the bottom. 8x8 boxes make a 17x17 grid, within GoGui's 25.
use super::geometry::Geometry;
use super::Board;
use crate::color::Color;

/// Grid width and height for a board.
pub fn grid_size(geo: &Geometry) -> (usize, usize) {
    (2 * geo.cols() + 1, 2 * geo.rows() + 1)
}

/// GoGui (1.6) only handles square boards: a rectangular grid from
/// `gogui-rules_board_size` makes it fail at start-up (its board view is sized by the
/// width alone). The message for a board of other shape.
pub fn check_square(geo: &Geometry) -> Result<(), String> {
    if geo.cols() == geo.rows() {
        return Ok(());
    }
    let (w, h) = grid_size(geo);
    let (c, r) = (geo.cols(), geo.rows());
    let n = c.max(r);
    Err(format!(
        "GoGui only handles square boards ({c}x{r} boxes make a {w}x{h} grid); \
         give a square size such as {n}x{n}"
    ))
}

/// GoGui's column letters: `I` is skipped.
fn column_letter(x: usize) -> char {
    let c = b'A' + x as u8;
    (if c >= b'I' { c + 1 } else { c }) as char
}

/// The name of grid point (x, y), both from 0 at the lower left: `(0, 0)` is `A1`.
pub fn point_name(x: usize, y: usize) -> String {
    format!("{}{}", column_letter(x), y + 1)
}

/// The grid point named `s` (any case), if it lies on a `width` x `height` grid.
pub fn parse_point(s: &str, width: usize, height: usize) -> Option<(usize, usize)> {
    let mut chars = s.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    if !letter.is_ascii_uppercase() || letter == 'I' {
        return None;
    }
    let x = letter as usize - 'A' as usize - (letter > 'I') as usize;
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row: usize = digits.parse().ok()?;
    (x < width && (1..=height).contains(&row)).then(|| (x, row - 1))
}

/// The grid point of edge `e`.
pub fn edge_point(geo: &Geometry, e: usize) -> (usize, usize) {
    let name = geo.edge_dots(e);
    let (f, t) = (name.from, name.to);
    (
        (f.col + t.col) as usize, // 2 * the midpoint's column
        (f.row + t.row) as usize,
    )
}

/// The edge at grid point (x, y); `None` for dots and box centres.
pub fn point_edge(geo: &Geometry, x: usize, y: usize) -> Option<usize> {
    let (w, h) = grid_size(geo);
    if x >= w || y >= h || (x + y).is_multiple_of(2) {
        return None;
    }
    let (c, r) = (geo.cols(), geo.rows());
    Some(if y.is_multiple_of(2) {
        // Horizontal edge between dots (x/2, y/2) and (x/2 + 1, y/2).
        (y / 2) * c + x / 2
    } else {
        c * (r + 1) + (y / 2) * (c + 1) + x / 2
    })
}

/// The grid point's name of edge `e`.
pub fn edge_point_name(geo: &Geometry, e: usize) -> String {
    let (x, y) = edge_point(geo, e);
    point_name(x, y)
}

/// `gogui-rules_board`: one line per grid row, top row first (GoGui draws the first line at
/// the top), `X`/`O` for what Black/White drew or took, `.` elsewhere, separated by spaces.
pub fn board_text(board: &Board) -> String {
    let geo = board.geometry();
    let (w, h) = grid_size(geo);
    let drawer = board.edge_drawers();
    let stone = |c: Option<Color>| match c {
        Some(Color::Black) => "X",
        Some(Color::White) => "O",
        None => ".",
    };
    let mut lines = Vec::with_capacity(h);
    for y in (0..h).rev() {
        let row: Vec<&str> = (0..w)
            .map(|x| {
                if x % 2 == 1 && y % 2 == 1 {
                    stone(board.owner((y / 2) * geo.cols() + x / 2))
                } else if let Some(e) = point_edge(geo, x, y) {
                    stone(drawer[e])
                } else {
                    "."
                }
            })
            .collect();
        lines.push(row.join(" "));
    }
    lines.join("\n")
}

/// `gogui-rules_legal_moves`: the undrawn edges as points, in edge order; empty when the
/// board is full (which GoGui takes as the end of the game).
pub fn legal_points(board: &Board) -> String {
    let geo = board.geometry();
    board
        .legal_edges()
        .map(|e| edge_point_name(geo, e))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_skip_i_like_gogui() {
        assert_eq!(point_name(0, 0), "A1");
        assert_eq!(point_name(7, 10), "H11");
        assert_eq!(point_name(8, 0), "J1");
        assert_eq!(point_name(16, 16), "R17");
        assert_eq!(parse_point("j1", 11, 11), Some((8, 0)));
        assert_eq!(parse_point("L11", 11, 11), Some((10, 10)));
        assert_eq!(parse_point("R17", 17, 17), Some((16, 16)));
        for bad in ["I1", "A0", "A12", "M1", "", "A", "1A", "A1x", "A+1", "Ä1"] {
            assert_eq!(parse_point(bad, 11, 11), None, "{bad}");
        }
    }

    #[test]
    fn only_square_boards_suit_gogui() {
        for n in 1..=8 {
            assert!(check_square(&Geometry::new(n, n).unwrap()).is_ok());
        }
        let err = check_square(&Geometry::new(2, 3).unwrap()).unwrap_err();
        assert!(err.contains("2x3 boxes make a 5x7 grid"), "{err}");
        assert!(err.ends_with("such as 3x3"), "{err}");
    }

    /// Every edge maps to a distinct point between two dots and back; dots and centres
    /// are no edges. The dot names give the independent check: edge a1-b1 lies between
    /// dot a1 at (0, 0) and b1 at (2, 0).
    #[test]
    fn edges_and_points_correspond() {
        let g = Geometry::new(2, 3).unwrap();
        let name = |s: &str| g.edge_index(&s.parse().unwrap()).unwrap();
        assert_eq!(edge_point(&g, name("a1-b1")), (1, 0));
        assert_eq!(edge_point(&g, name("a1-a2")), (0, 1));
        assert_eq!(edge_point(&g, name("c3-c4")), (4, 5));
        assert_eq!(edge_point(&g, name("b4-c4")), (3, 6));
        for (c, r) in [(1, 1), (2, 3), (5, 5), (8, 8), (3, 7)] {
            let g = Geometry::new(c, r).unwrap();
            let (w, h) = grid_size(&g);
            let mut seen = vec![false; w * h];
            for e in 0..g.n_edges() {
                let (x, y) = edge_point(&g, e);
                assert_eq!((x + y) % 2, 1, "{c}x{r} edge {e}");
                assert!(!seen[y * w + x]);
                seen[y * w + x] = true;
                assert_eq!(point_edge(&g, x, y), Some(e));
                let n = edge_point_name(&g, e);
                assert_eq!(parse_point(&n, w, h), Some((x, y)));
            }
            assert_eq!(point_edge(&g, 0, 0), None);
            assert_eq!(point_edge(&g, 1, 1), None);
            assert_eq!(point_edge(&g, w, 0), None);
        }
    }
}
