//! SGF (FF[4], GM[1]) for Go: writing finished games and reading the main line of a file,
//! through the game-neutral reader and writer of [`crate::record::sgf`].
//!
//! Coordinates are `(col, row)` with row 0 at the *bottom*, as in GTP and
//! [`crate::protocol::coords`]. SGF counts rows from the top, so the row letter is
//! `size - 1 - row`.
use crate::color::Color;
use crate::go::board::{valid_size, Move, Point};
use crate::go::game::Game;
use crate::record::sgf::{bad, SgfPoint, SgfRecord};

pub use crate::record::sgf::{SgfError, MAX_SGF_SIZE};

/// A point as 0-based (column, row), row 0 at the bottom.
pub type ColRow = (usize, usize);

/// One Go game as plain data: what `loadsgf` needs and what a match writes.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfGame {
    pub size: usize,
    pub komi: f32,
    /// The `HA` property (0 when absent); the stones themselves are in `setup`.
    pub handicap: u32,
    /// Setup stones (`AB`/`AW` after `AE` removals), in file order.
    pub setup: Vec<(Color, ColRow)>,
    /// Moves of the main line; `None` is a pass.
    pub moves: Vec<(Color, Option<ColRow>)>,
    pub black_name: Option<String>,
    pub white_name: Option<String>,
    /// `DT`, e.g. `2026-12-01`.
    pub date: Option<String>,
    /// `RE`, e.g. `B+R`, `W+3.5`, `B+T`, `W+F`, `0`.
    pub result: Option<String>,
    /// `RU`; the writer prints `Chinese` when this is `None`.
    pub rules: Option<String>,
}

impl SgfGame {
    /// An empty record: default size 19 and komi 0, as the SGF specification says for a
    /// file without `SZ`/`KM`.
    pub fn new(size: usize, komi: f32) -> SgfGame {
        SgfGame {
            size,
            komi,
            handicap: 0,
            setup: Vec::new(),
            moves: Vec::new(),
            black_name: None,
            white_name: None,
            date: None,
            result: None,
            rules: None,
        }
    }

    /// The record of a game played through [`Game`]: its handicap stones as `AB` and its moves.
    pub fn from_game(game: &Game) -> SgfGame {
        let board = game.board();
        let mut rec = SgfGame::new(board.size(), game.komi());
        let handicap = game.handicap_stones();
        rec.handicap = handicap.len() as u32;
        rec.setup = handicap
            .iter()
            .map(|&p| (Color::Black, board.col_row(p)))
            .collect();
        rec.moves = game
            .moves()
            .iter()
            .map(|&(c, m)| match m {
                Move::Pass => (c, None),
                Move::Play(p) => (c, Some(board.col_row(p))),
            })
            .collect();
        rec
    }

    /// Replays the record into a [`Game`] (what GTP `loadsgf file [n]` needs): setup stones,
    /// then the moves before move number `until` (1-based; `None` plays them all). Black-only
    /// setup with `HA` becomes handicap (White to move). Errors: a size our rules do not play,
    /// overlapping setup, or an illegal move (its 1-based number).
    pub fn to_game(&self, until: Option<usize>) -> Result<Game, SgfError> {
        if !valid_size(self.size) || !self.komi.is_finite() {
            return Err(SgfError::Unsupported(format!("board size {}", self.size)));
        }
        let mut game = Game::new(self.size, self.komi);
        let board = game.board().clone();
        let setup: Vec<(Color, Point)> = self
            .setup
            .iter()
            .map(|&(c, (col, row))| (c, board.point(col, row)))
            .collect();
        let all_black = setup.iter().all(|&(c, _)| c == Color::Black);
        let placed = if !setup.is_empty() && all_black && self.handicap > 0 {
            let points: Vec<Point> = setup.iter().map(|&(_, p)| p).collect();
            game.set_handicap(&points)
        } else if !setup.is_empty() {
            game.add_setup(&setup)
        } else {
            Ok(())
        };
        placed.map_err(|_| SgfError::Unsupported("overlapping setup stones".into()))?;
        let count = until.map_or(self.moves.len(), |n| n.saturating_sub(1));
        for (i, &(color, mv)) in self.moves.iter().take(count).enumerate() {
            let mv = match mv {
                None => Move::Pass,
                Some((col, row)) => Move::Play(board.point(col, row)),
            };
            game.play(color, mv)
                .map_err(|_| SgfError::IllegalMove { number: i + 1 })?;
        }
        Ok(game)
    }

    /// The game-neutral record: rows flipped to count from the top, game info in the order
    /// `KM RU PB PW DT RE HA`.
    pub fn to_record(&self) -> SgfRecord {
        let mut rec = SgfRecord::new(1, self.size);
        rec.set_info("KM", self.komi.to_string());
        rec.set_info("RU", self.rules.as_deref().unwrap_or("Chinese"));
        let optional = [
            ("PB", &self.black_name),
            ("PW", &self.white_name),
            ("DT", &self.date),
            ("RE", &self.result),
        ];
        for (id, value) in optional {
            if let Some(v) = value {
                rec.set_info(id, v.as_str());
            }
        }
        if self.handicap > 0 {
            rec.set_info("HA", self.handicap.to_string());
        }
        rec.setup = self.setup.iter().map(|&(c, p)| (c, self.flip(p))).collect();
        rec.moves = self
            .moves
            .iter()
            .map(|&(c, m)| (c, m.map(|p| self.flip(p))))
            .collect();
        rec
    }

    /// The FF[4] text: root properties on the first line, handicap setup on the second,
    /// then ten moves a line. Passes are written `[]` (the FF[4] form, never `tt`).
    pub fn to_sgf(&self) -> String {
        self.to_record().to_sgf()
    }

    /// Between GTP rows (from the bottom) and SGF rows (from the top): its own inverse.
    fn flip(&self, (col, row): ColRow) -> SgfPoint {
        (col, self.size.wrapping_sub(1).wrapping_sub(row))
    }

    /// The Go game of a game-neutral record; `GM` must be 1 (or absent).
    pub fn from_record(rec: &SgfRecord) -> Result<SgfGame, SgfError> {
        if rec.game != 1 {
            return Err(SgfError::Unsupported(format!("GM[{}] is not Go", rec.game)));
        }
        let mut game = SgfGame::new(rec.size, 0.0);
        if let Some(v) = rec.info("KM") {
            game.komi = v.trim().parse().map_err(|_| bad("KM", v.trim()))?;
        }
        if let Some(v) = rec.info("HA") {
            game.handicap = v.trim().parse().map_err(|_| bad("HA", v.trim()))?;
        }
        let text = |id: &str| rec.info(id).map(str::to_string);
        game.black_name = text("PB");
        game.white_name = text("PW");
        game.date = text("DT");
        game.result = text("RE");
        game.rules = text("RU");
        game.setup = rec.setup.iter().map(|&(c, p)| (c, game.flip(p))).collect();
        game.moves = rec
            .moves
            .iter()
            .map(|&(c, m)| (c, m.map(|p| game.flip(p))))
            .collect();
        Ok(game)
    }
}

/// Reads the main line (the first variation at every branch) of the first game tree, which
/// must be Go.
pub fn parse_sgf(text: &str) -> Result<SgfGame, SgfError> {
    SgfGame::from_record(&SgfRecord::parse(text)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::board::Move;
    use Color::{Black as B, White as W};

    fn header() -> String {
        format!(
            "(;FF[4]GM[1]CA[UTF-8]AP[quartet:{}]",
            env!("CARGO_PKG_VERSION")
        )
    }

    /// C7, E5, pass, A1, J9 on 9x9: SGF letters worked out by hand (row letter from the top).
    #[test]
    fn writes_moves_passes_and_result() {
        let mut rec = SgfGame::new(9, 7.5);
        rec.black_name = Some("gnu".into());
        rec.white_name = Some("quartet]x".into());
        rec.date = Some("2026-12-01".into());
        rec.result = Some("W+3.5".into());
        rec.moves = vec![
            (B, Some((2, 6))),
            (W, Some((4, 4))),
            (B, None),
            (W, Some((0, 0))),
            (B, Some((8, 8))),
        ];
        let expected = header()
            + "SZ[9]KM[7.5]RU[Chinese]PB[gnu]PW[quartet\\]x]DT[2026-12-01]RE[W+3.5]\n\
               ;B[cc];W[ee];B[];W[ai];B[ia])\n";
        assert_eq!(rec.to_sgf(), expected);
    }

    #[test]
    fn writes_handicap_setup_and_breaks_lines_every_ten_moves() {
        let mut rec = SgfGame::new(9, 0.5);
        rec.handicap = 2;
        rec.setup = vec![(B, (2, 2)), (B, (6, 6))];
        rec.result = Some("B+R".into());
        rec.moves = vec![(W, None); 11];
        let expected = header()
            + "SZ[9]KM[0.5]RU[Chinese]RE[B+R]HA[2]\nAB[cg][gc]\n\
               ;W[];W[];W[];W[];W[];W[];W[];W[];W[];W[]\n;W[])\n";
        assert_eq!(rec.to_sgf(), expected);
    }

    #[test]
    fn from_game_uses_gtp_orientation() {
        let mut game = Game::new(5, 7.0);
        let b = game.board().clone();
        // A1 (bottom left) is SGF `ae`; E5 (top right) is `ea`.
        game.play(B, Move::Play(b.point(0, 0))).unwrap();
        game.play(W, Move::Play(b.point(4, 4))).unwrap();
        game.play(B, Move::Pass).unwrap();
        let text = SgfGame::from_game(&game).to_sgf();
        assert!(
            text.ends_with("SZ[5]KM[7]RU[Chinese]\n;B[ae];W[ea];B[])\n"),
            "{text}"
        );
    }

    /// A hand-written file: escaped bracket, split lines, a variation (first one followed),
    /// an empty pass and a `tt` pass, old-style lower-case property names.
    #[test]
    fn reads_main_line_of_a_real_file() {
        let text = "garbage before (;FF[4]GM[1]SZ[9]KM[6.5]HA[2]AB[cg][gc]\n\
                    C[a comment with \\] bracket]  PB[Black \\\\ Player]\n\
                    ;W[ee]C[main]\n\
                    (;B[dd]\n;W[]\n;Black[tt])\n\
                    (;B[aa];W[bb]))\n(;B[cc])";
        let rec = parse_sgf(text).unwrap();
        assert_eq!(rec.size, 9);
        assert_eq!(rec.komi, 6.5);
        assert_eq!(rec.handicap, 2);
        assert_eq!(rec.black_name.as_deref(), Some("Black \\ Player"));
        assert_eq!(rec.setup, vec![(B, (2, 2)), (B, (6, 6))]);
        assert_eq!(
            rec.moves,
            vec![(W, Some((4, 4))), (B, Some((3, 5))), (W, None), (B, None)]
        );
    }

    #[test]
    fn reads_rectangles_and_removals() {
        let rec = parse_sgf("(;SZ[5]AB[aa:bb]AW[ee]AE[ab])").unwrap();
        // aa:bb covers a5 b5 a4 b4; AE[ab] removes a4.
        let mut setup = rec.setup.clone();
        setup.sort_by_key(|&(_, p)| p);
        assert_eq!(
            setup,
            vec![(B, (0, 4)), (B, (1, 3)), (B, (1, 4)), (W, (4, 0))]
        );
        assert_eq!(rec.komi, 0.0);
        // No SZ: 19x19, where `tt` is a pass and `ss` the bottom-right corner.
        let rec = parse_sgf("(;B[ss];W[tt])").unwrap();
        assert_eq!(rec.size, 19);
        assert_eq!(rec.moves, vec![(B, Some((18, 0))), (W, None)]);
    }

    #[test]
    fn round_trip() {
        let mut rec = SgfGame::new(13, 6.5);
        rec.handicap = 1;
        rec.setup = vec![(B, (3, 3)), (W, (9, 9))];
        rec.black_name = Some("a [b] \\c".into());
        rec.white_name = Some("w".into());
        rec.result = Some("B+T".into());
        rec.date = Some("2026-12-01".into());
        rec.rules = Some("Chinese".into());
        rec.moves = (0..25)
            .map(|i| {
                let c = if i % 2 == 0 { B } else { W };
                (
                    c,
                    if i % 7 == 3 {
                        None
                    } else {
                        Some((i % 13, i / 2))
                    },
                )
            })
            .collect();
        assert_eq!(parse_sgf(&rec.to_sgf()).unwrap(), rec);
    }

    #[test]
    fn garbage_and_truncation_are_errors() {
        let t = |s: &str| parse_sgf(s).unwrap_err();
        assert_eq!(t(""), SgfError::NoGameTree);
        assert_eq!(t("hello"), SgfError::NoGameTree);
        assert_eq!(t("(;SZ[9];B[aa]"), SgfError::Truncated);
        assert_eq!(t("(;SZ[9];B[a"), SgfError::Truncated);
        assert_eq!(t("(;SZ[9]C[abc\\"), SgfError::Truncated);
        assert_eq!(t("(;SZ[9]B"), SgfError::Truncated);
        assert_eq!(t(&"(".repeat(100_000)), SgfError::Truncated);
        assert_eq!(
            t("(;SZ[9]B;)"),
            SgfError::Syntax {
                offset: 8,
                found: ';'
            }
        );
        assert_eq!(
            t("(;SZ[9]é)"),
            SgfError::Syntax {
                offset: 7,
                found: 'é'
            }
        );
        assert_eq!(t("(;SZ[abc])"), bad("SZ", "abc"));
        assert_eq!(t("(;SZ[0])"), bad("SZ", "0"));
        assert_eq!(t("(;SZ[9];B[zz])"), bad("B", "zz"));
        assert_eq!(t("(;SZ[9];B[j])"), bad("B", "j"));
        assert_eq!(t("(;SZ[9]KM[seven])"), bad("KM", "seven"));
        assert!(matches!(t("(;GM[2]SZ[8])"), SgfError::Unsupported(_)));
        assert!(matches!(t("(;SZ[9:7])"), SgfError::Unsupported(_)));
        assert!(matches!(t("(;B[aa];AB[bb])"), SgfError::Unsupported(_)));
    }

    /// loadsgf semantics: `until = n` stops before move n; handicap gives White the move.
    #[test]
    fn replays_into_a_game() {
        let text = "(;SZ[9]KM[0.5]HA[2]AB[cg][gc];W[ee];B[dd];W[];B[aa])";
        let rec = parse_sgf(text).unwrap();
        let g = rec.to_game(None).unwrap();
        assert_eq!(g.moves().len(), 4);
        assert_eq!(g.handicap_stones().len(), 2);
        assert_eq!(g.board().stone(g.board().point(2, 2)), Some(B));
        assert_eq!(g.board().stone(g.board().point(0, 8)), Some(B));
        let g = rec.to_game(Some(2)).unwrap();
        assert_eq!(g.moves().len(), 1);
        assert_eq!(g.to_move(), B);
        let g = rec.to_game(Some(1)).unwrap();
        assert_eq!((g.moves().len(), g.to_move()), (0, W));
        assert_eq!(rec.to_game(Some(0)).unwrap().moves().len(), 0);
        // Playing on an occupied point (move 2 here) is reported by number.
        let bad = parse_sgf("(;SZ[9];B[ee];W[ee])").unwrap();
        assert_eq!(
            bad.to_game(None).err(),
            Some(SgfError::IllegalMove { number: 2 })
        );
        let big = parse_sgf("(;SZ[25])").unwrap();
        assert!(matches!(big.to_game(None), Err(SgfError::Unsupported(_))));
        let mixed = parse_sgf("(;SZ[5]AB[aa]AW[bb];B[cc])").unwrap();
        let g = mixed.to_game(None).unwrap();
        assert_eq!(g.board().stone(g.board().point(1, 3)), Some(W));
    }

    /// Pseudo-random bytes drawn from SGF's own alphabet must give a value or an error.
    #[test]
    fn random_input_never_panics() {
        let alphabet = b"();[]\\:abtzBWSZKMAHE19 \n\xc3\xa9";
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..3000 {
            let mut bytes = vec![b'(', b';'];
            for _ in 0..(x % 60) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                bytes.push(alphabet[(x % alphabet.len() as u64) as usize]);
            }
            let text = String::from_utf8_lossy(&bytes);
            let _ = parse_sgf(&text);
        }
    }
}
