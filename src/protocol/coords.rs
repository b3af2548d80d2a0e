//! GTP vertices: a column letter (skipping `I`) and a row number from the bottom, or `pass`.
//! Go and Gomoku share this notation; columns run up to `Z`, so sizes up to 25.
use super::engine::GtpError;

/// Column letters in GTP order; `I` is skipped to avoid confusion with `J`.
const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// Largest board a GTP vertex can name.
pub const MAX_VERTEX_SIZE: usize = COLUMNS.len();

/// A point as 0-based (column, row), row 0 being the bottom row (GTP row 1).
pub type ColRow = (usize, usize);

/// Parses a vertex for a `size`x`size` board. `Ok(None)` is `pass`.
/// Errors: malformed text is a `syntax error`; a well-formed vertex off the board is
/// `invalid coordinate` (the engine decides whether that becomes `illegal move`). Row 0
/// (`a0`) and rows or columns past the board (`z99`, `a100`) are all well-formed vertices
/// off the board, as GNU Go treats them alike; `a05` (a leading zero) is malformed.
pub fn parse_vertex(s: &str, size: usize) -> Result<Option<ColRow>, GtpError> {
    if s.eq_ignore_ascii_case("pass") {
        return Ok(None);
    }
    let bytes = s.as_bytes();
    if bytes.len() < 2 {
        return Err(GtpError::syntax());
    }
    let letter = bytes[0].to_ascii_uppercase();
    let col = COLUMNS
        .iter()
        .position(|&c| c == letter)
        .ok_or_else(GtpError::syntax)?;
    let digits = &s[1..];
    if !digits.bytes().all(|b| b.is_ascii_digit()) || (digits.starts_with('0') && digits != "0") {
        return Err(GtpError::syntax());
    }
    let off_board = || GtpError::new("invalid coordinate");
    // All digits: only a number too large for usize fails, and that is off the board too.
    let row: usize = digits.parse().map_err(|_| off_board())?;
    if col >= size || row == 0 || row > size {
        return Err(off_board());
    }
    Ok(Some((col, row - 1)))
}

/// Formats a vertex in upper case (`A1`, `T19`); `None` prints `pass`.
pub fn format_vertex(v: Option<ColRow>) -> String {
    match v {
        None => "pass".to_string(),
        Some((col, row)) => format!("{}{}", COLUMNS[col] as char, row + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_skip_i() {
        assert_eq!(parse_vertex("J1", 19), Ok(Some((8, 0))));
        assert_eq!(parse_vertex("h9", 9), Ok(Some((7, 8))));
        assert!(parse_vertex("I5", 19).is_err());
        assert_eq!(format_vertex(Some((8, 18))), "J19");
    }

    #[test]
    fn pass_and_bounds() {
        assert_eq!(parse_vertex("PASS", 9), Ok(None));
        assert_eq!(parse_vertex("pass", 9), Ok(None));
        assert_eq!(
            parse_vertex("K1", 9),
            Err(GtpError::new("invalid coordinate"))
        );
        assert_eq!(
            parse_vertex("A10", 9),
            Err(GtpError::new("invalid coordinate"))
        );
        assert_eq!(
            parse_vertex("A0", 9),
            Err(GtpError::new("invalid coordinate"))
        );
        assert_eq!(
            parse_vertex("Z99", 9),
            Err(GtpError::new("invalid coordinate"))
        );
        assert_eq!(
            parse_vertex("a123456789012345678901234567890", 9),
            Err(GtpError::new("invalid coordinate"))
        );
        assert_eq!(parse_vertex("A05", 9), Err(GtpError::syntax()));
        assert_eq!(parse_vertex("A00", 9), Err(GtpError::syntax()));
        assert_eq!(parse_vertex("A", 9), Err(GtpError::syntax()));
        assert_eq!(parse_vertex("A1x", 9), Err(GtpError::syntax()));
        assert_eq!(parse_vertex("é1", 9), Err(GtpError::syntax()));
        assert_eq!(format_vertex(None), "pass");
    }
}
