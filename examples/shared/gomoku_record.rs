//! Reading the 15x15 Gomoku SGF records `quartet match gomoku` writes, for the replay
//! examples (not a general SGF reader: it expects the match runner's layout).
use quartet::color::Color;

/// Board size of the records these examples read.
pub const SIZE: usize = 15;

/// The moves of the record in `path` as (colour, column, row from the bottom), and the
/// winner (from `RE[`).
pub fn read(path: &str) -> (Vec<(Color, usize, usize)>, Color) {
    let text = std::fs::read_to_string(path).expect("readable file");
    let mut moves = Vec::new();
    for part in text.split(';').skip(2) {
        let colour = if part.starts_with('B') {
            Color::Black
        } else {
            Color::White
        };
        let xy = &part[2..4];
        let x = (xy.as_bytes()[0] - b'a') as usize;
        let y = (xy.as_bytes()[1] - b'a') as usize;
        moves.push((colour, x, SIZE - 1 - y));
    }
    let winner = if text.contains("RE[B") {
        Color::Black
    } else {
        Color::White
    };
    (moves, winner)
}
