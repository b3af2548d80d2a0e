//! Self-play learning as in the paper the engine comes from: two copies of the engine play
//! each other, every game goes into the opening book, and the thinking times follow the
//! score so that the games stay balanced and keep changing.
//!
//! Time rule: both sides start at the base time T. After each game, with S_B and S_W the
//! wins so far, the side that has won less thinks `T * (1 + |S_B - S_W| / 4)` per move and
//! the other `T`: at the paper's T = 2 s that is exactly "more time by half the win
//! difference" in seconds, and other base times scale it. A side that keeps losing with
//! more time gets still more, up to `MAX_FACTOR` times the base (so a run cannot stall on
//! one move). Draws change nothing.
use super::board::Board;
use super::book::Book;
use super::ggf::{GgfGame, GgfMove};
use super::search::{Searcher, DISC};
use crate::color::Color;
use crate::search::{Deadline, Limits, StopToken};
use std::time::{Duration, Instant};

/// The longest a side may think, in base times.
pub const MAX_FACTOR: f64 = 8.0;

/// Wins so far and the per-move times they give.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    pub black_wins: u32,
    pub white_wins: u32,
    pub draws: u32,
}

impl Score {
    pub fn new() -> Score {
        Score {
            black_wins: 0,
            white_wins: 0,
            draws: 0,
        }
    }

    pub fn games(&self) -> u32 {
        self.black_wins + self.white_wins + self.draws
    }

    /// Counts a game by black's final disc difference.
    pub fn add(&mut self, black_result: i32) {
        match black_result.signum() {
            1 => self.black_wins += 1,
            -1 => self.white_wins += 1,
            _ => self.draws += 1,
        }
    }

    /// (T_B, T_W) for the next game (see the module comment).
    pub fn times(&self, base: Duration) -> (Duration, Duration) {
        let d = self.black_wins.abs_diff(self.white_wins) as f64;
        let more = base.mul_f64((1.0 + d / 4.0).min(MAX_FACTOR));
        match self.black_wins.cmp(&self.white_wins) {
            std::cmp::Ordering::Less => (more, base),
            std::cmp::Ordering::Greater => (base, more),
            std::cmp::Ordering::Equal => (base, base),
        }
    }
}

impl Default for Score {
    fn default() -> Self {
        Score::new()
    }
}

/// Black's final disc difference of a finished game (empties to the winner).
pub fn black_result(g: &GgfGame) -> i32 {
    let s = g.board.final_score();
    if g.to_move == Color::Black {
        s
    } else {
        -s
    }
}

/// Plays one game from the start: each side plays the book's trusted move while there is
/// one that has not lost (value at least 0 for it), else searches for its time (`times.0` black, `times.1` white) with its own
/// searcher (tables cleared first, as two fresh programs). Moves carry their search value
/// (discs, side to move) and time in the record; `RE` is black's disc difference.
/// Blocks until the game ends or `stop` is set (`None` then).
///
/// Why a losing side searches rather than follow its book: the book knows only the moves
/// already played, and a search is the only source of new ones. With every book move
/// played, the first games' line became trusted to its last ply and was replayed for ever
/// (18 games of one line, black losing each by the same margin, in a run at 0.1 s); now
/// the side the line has lost for searches, with the extra time its losses give it, until
/// it finds a move that does better or confirms the old one.
pub fn play_game(
    book: &Book,
    players: &mut [Searcher; 2],
    times: (Duration, Duration),
    stop: &StopToken,
) -> Option<GgfGame> {
    let mut game = GgfGame::new();
    for p in players.iter_mut() {
        p.clear();
    }
    while !game.board.is_game_over() {
        if stop.is_stopped() {
            return None;
        }
        let color = game.to_move;
        let b: Board = game.board;
        let mv = if b.moves() == 0 {
            GgfMove {
                color,
                square: None,
                eval: String::new(),
                time: String::new(),
            }
        } else if let Some(m) = book.best_move(&b).filter(|m| m.value >= 0.0) {
            GgfMove {
                color,
                square: Some(m.square),
                eval: format!("{:.2}", m.value),
                time: "0".into(),
            }
        } else {
            let t = if color == Color::Black {
                times.0
            } else {
                times.1
            };
            let started = Instant::now();
            // A child token: the move's deadline ends the move, not the game.
            let limits = Limits::new(Deadline::after(t, t), None, stop.child());
            let found = players[color.index()].think(&b, &limits, 60);
            let sq = found.best.filter(|&s| b.play(s).is_some())?;
            GgfMove {
                color,
                square: Some(sq),
                eval: format!("{:.2}", found.score as f64 / DISC as f64),
                time: format!("{:.2}", started.elapsed().as_secs_f64()),
            }
        };
        game.play(mv).ok()?;
    }
    game.props.push((
        "PB".into(),
        format!("quartet {:.2}s", times.0.as_secs_f64()),
    ));
    game.props.push((
        "PW".into(),
        format!("quartet {:.2}s", times.1.as_secs_f64()),
    ));
    game.props
        .push(("RE".into(), format!("{:+}", black_result(&game))));
    Some(game)
}

/// Adds a finished game's first `plies` moves to `book` (without propagating).
pub fn add_to_book(book: &mut Book, g: &GgfGame, plies: usize) -> Result<(), String> {
    let moves: Vec<usize> = g.moves.iter().filter_map(|m| m.square).collect();
    book.add_game_unpropagated(g.start, g.start_to_move, &moves, black_result(g), plies)
        .map(|_| ())
        .map_err(|i| format!("move {} is illegal", i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::eval::Weights;

    #[test]
    fn the_side_that_won_less_gets_half_the_difference_more_at_two_seconds() {
        let base = Duration::from_secs(2);
        let mut s = Score::new();
        assert_eq!(s.times(base), (base, base));
        s.add(12);
        s.add(-3);
        s.add(0);
        assert_eq!(
            (s.black_wins, s.white_wins, s.draws, s.games()),
            (1, 1, 1, 3)
        );
        assert_eq!(s.times(base), (base, base));
        for _ in 0..4 {
            s.add(2);
        }
        // 5 : 1, white has won 4 fewer: 2 s more at the paper's base of 2 s.
        assert_eq!(s.times(base), (base, Duration::from_secs(4)));
        for _ in 0..6 {
            s.add(-1);
        }
        // 5 : 7: black gets 1 s more.
        assert_eq!(s.times(base), (Duration::from_secs(3), base));
        for _ in 0..100 {
            s.add(-1);
        }
        assert_eq!(s.times(base).0, base.mul_f64(MAX_FACTOR));
    }

    #[test]
    fn a_self_play_game_is_legal_finished_and_goes_into_the_book() {
        let mut players = [
            Searcher::new(Weights::default_weights(), 2),
            Searcher::new(Weights::default_weights(), 2),
        ];
        let mut book = Book::new(1);
        let t = Duration::from_millis(5);
        let g = play_game(&book, &mut players, (t, t), &StopToken::new()).unwrap();
        // The record replays through the rules (GGF parser) to the same finished position.
        let back = GgfGame::parse(&g.to_ggf()).unwrap();
        assert!(back.board.is_game_over());
        assert_eq!(back.board, g.board);
        let (b, w) = g.board.colors(g.to_move);
        let diff = b.count_ones() as i32 - w.count_ones() as i32;
        assert_eq!(black_result(&g).signum(), diff.signum());
        add_to_book(&mut book, &g, 10).unwrap();
        book.propagate();
        assert_eq!(book.len(), 11);
        // Stored again as a draw (a line that has not lost for either side), with one game
        // and trust at one game the book replays that game's opening, up to symmetry (the
        // four first moves are one book position): the same positions after each of the 10
        // stored moves, every one played from the book (time 0).
        let mut book = Book::new(1);
        let moves: Vec<usize> = g.moves.iter().filter_map(|m| m.square).collect();
        book.add_game(g.start, g.start_to_move, &moves, 0, 10)
            .unwrap();
        let g2 = play_game(&book, &mut players, (t, t), &StopToken::new()).unwrap();
        let positions = |g: &GgfGame| {
            let mut b = Board::start();
            let mut out = Vec::new();
            for m in &g.moves[..10] {
                b = match m.square {
                    Some(s) => b.play(s).unwrap(),
                    None => b.pass(),
                };
                out.push(crate::othello::symmetry::canonical(&b));
            }
            out
        };
        assert_eq!(positions(&g2), positions(&g));
        assert!(g2.moves[..10].iter().all(|m| m.time == "0"));
    }

    #[test]
    fn the_side_a_book_line_has_lost_for_searches_and_the_other_follows_the_book() {
        let mut players = [
            Searcher::new(Weights::default_weights(), 2),
            Searcher::new(Weights::default_weights(), 2),
        ];
        let t = Duration::from_millis(5);
        // One line of 6 moves (a legal opening: f5 d6 c3 d3 c4 f4), trusted at one game.
        let line: Vec<usize> = "f5 d6 c3 d3 c4 f4"
            .split_whitespace()
            .map(|m| crate::othello::bitboard::parse_square(m).unwrap())
            .collect();
        for (black_result, book_side) in [(-10, Color::White), (10, Color::Black)] {
            let mut book = Book::new(1);
            book.add_game(Board::start(), Color::Black, &line, black_result, 6)
                .unwrap();
            let g = play_game(&book, &mut players, (t, t), &StopToken::new()).unwrap();
            // The winner's first book move comes from the book (time 0); the loser's first
            // move is searched (its time is written with two decimals, "0.00" at least).
            let first = |c: Color| g.moves.iter().find(|m| m.color == c).unwrap();
            assert_eq!(first(book_side).time, "0", "{black_result}");
            assert_ne!(first(book_side.opponent()).time, "0", "{black_result}");
        }
    }
}
