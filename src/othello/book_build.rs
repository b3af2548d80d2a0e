//! `quartet train othello book`: an opening book from WTHOR databases and GGF game records
//! (see `book.rs` for what the book holds).
use super::bitboard::square_name;
use super::board::Board;
use super::book::Book;
use super::ggf::{records, GgfGame};
use super::learn::black_result;
use super::train::read_wthor_file;
use crate::color::Color;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What goes into the book, and where it is written.
pub struct BuildBook<'a> {
    pub wthor: &'a [PathBuf],
    pub ggf: &'a [PathBuf],
    /// A book to add to, else an empty one.
    pub base: Option<&'a Path>,
    pub out: &'a Path,
    /// Moves of each game stored.
    pub plies: usize,
    /// Games a move needs to be trusted (for the summary; not stored).
    pub min_visits: u32,
    /// Positions reached by fewer games are left out of the file.
    pub min_games: u32,
}

/// Largest GGF file read (a GGS archive of a few hundred thousand games).
const MAX_GGF_BYTES: u64 = 256 << 20;

/// Black's final disc difference of a GGF game: from the final position when the game is
/// over, else from its `RE` property (black's result, e.g. `+12.000` or `-4`).
pub fn ggf_black_result(g: &GgfGame) -> Option<i32> {
    if g.board.is_game_over() {
        return Some(black_result(g));
    }
    let re = g.props.iter().find(|(k, _)| k == "RE")?.1.as_str();
    let num: String = re
        .chars()
        .take_while(|c| c.is_ascii_digit() || "+-.".contains(*c))
        .collect();
    let v: f64 = num.parse().ok()?;
    (v.abs() <= 64.0).then_some(v.round() as i32)
}

/// Adds every game to the book (a game with an illegal move is skipped with a warning),
/// writes it, and reports (to `report`) its size, the start's value and the line it plays.
pub fn build_book(a: BuildBook<'_>, report: &mut impl Write) -> Result<(), String> {
    let mut book = match a.base {
        Some(p) => Book::load(p, a.min_visits)?,
        None => Book::new(a.min_visits),
    };
    let (mut games, mut skipped) = (0usize, 0usize);
    for f in a.wthor {
        for (i, g) in read_wthor_file(f)?.iter().enumerate() {
            // The theoretical score: perfect play from the database's solving depth.
            let black = 2 * g.theoretical_black - 64;
            match book.add_game_unpropagated(Board::start(), Color::Black, &g.moves, black, a.plies)
            {
                Ok(_) => games += 1,
                Err(m) => {
                    skipped += 1;
                    tracing::warn!(
                        "{} game {}: move {} is illegal; skipped",
                        f.display(),
                        i + 1,
                        m + 1
                    );
                }
            }
        }
    }
    for f in a.ggf {
        let text = crate::bounded_read::read_to_string_capped(f, MAX_GGF_BYTES)?;
        for (i, rec) in records(&text).enumerate() {
            let g = match GgfGame::parse(rec) {
                Ok(g) => g,
                Err(e) => {
                    skipped += 1;
                    tracing::warn!("{} record {}: {e}; skipped", f.display(), i + 1);
                    continue;
                }
            };
            let Some(black) = ggf_black_result(&g) else {
                skipped += 1;
                tracing::warn!(
                    "{} record {}: unfinished and no numeric RE; skipped",
                    f.display(),
                    i + 1
                );
                continue;
            };
            let moves: Vec<usize> = g.moves.iter().filter_map(|m| m.square).collect();
            match book.add_game_unpropagated(g.start, g.start_to_move, &moves, black, a.plies) {
                Ok(_) => games += 1,
                Err(_) => skipped += 1,
            }
        }
    }
    book.propagate();
    let pruned = book.prune(a.min_games);
    book.save(a.out)?;
    let io = |e: std::io::Error| format!("output: {e}");
    writeln!(
        report,
        "{games} games added ({skipped} skipped), {} positions ({pruned} reached by fewer than {} games left out); wrote {}",
        book.len(),
        a.min_games,
        a.out.display()
    )
    .map_err(io)?;
    let start = Board::start();
    if let Some((v, n)) = book.lookup(&start) {
        writeln!(report, "start: value {v:+.2} for black over {n} games").map_err(io)?;
    }
    // The main line the book would play, while it has trusted moves.
    let (mut b, mut line) = (start, Vec::new());
    while let Some(m) = book.best_move(&b) {
        line.push(format!(
            "{}({:+.1},{})",
            square_name(m.square),
            m.value,
            m.visits
        ));
        b = b.play(m.square).expect("book moves are legal");
        if b.moves() == 0 {
            b = b.pass();
        }
    }
    writeln!(report, "book line: {}", line.join(" ")).map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ggf_files_split_into_records_and_results_come_from_re_or_the_board() {
        let text = "junk (;GM[Othello]RE[+12.000]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)\n(;GM[Othello]RE[?]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6];) tail (; unfinished";
        let recs: Vec<&str> = records(text).collect();
        assert_eq!(recs.len(), 2);
        let g = GgfGame::parse(recs[0]).unwrap();
        assert_eq!(ggf_black_result(&g), Some(12));
        assert_eq!(ggf_black_result(&GgfGame::parse(recs[1]).unwrap()), None);
        // A finished game: black a1 and h8, white b1, black to play c1 and win 64-0.
        let bo = format!("XO{}X", "-".repeat(61)).replace('X', "*");
        let g = GgfGame::parse(&format!("(;GM[Othello]RE[-3]BO[8 {bo} *]B[C1];)")).unwrap();
        assert!(g.board.is_game_over());
        assert_eq!(ggf_black_result(&g), Some(64));
    }
}
