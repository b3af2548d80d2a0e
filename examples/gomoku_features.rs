//! Dumps evaluation features of every position of Gomoku SGF records (as `quartet match
//! gomoku` writes them), for fitting the weights of the line-pattern evaluation to game
//! results (scripts/gomoku_fit_eval.py). One line per position: the mover's game result
//! (1 won, 0 lost), the mover's and the opponent's window sums, then the counts of empty
//! cells in each `Pattern4` class for the mover and for the opponent. Positions where
//! either side can complete a five are left out (the search answers those).
//!
//! usage: cargo run --release --example gomoku_features -- FILE.sgf... > features.tsv
use quartet::color::Color;
use quartet::gomoku::board::{Board, Rule};
use quartet::gomoku::patterns::Pattern4;

#[path = "shared/gomoku_record.rs"]
mod gomoku_record;

fn main() {
    for path in std::env::args().skip(1) {
        let (moves, winner) = gomoku_record::read(&path);
        let mut b = Board::new(gomoku_record::SIZE, Rule::Freestyle);
        b.track_patterns();
        for (i, &(c, x, y)) in moves.iter().enumerate() {
            let p = b.point(x, y);
            b.place(p, c);
            // The position after move i, the opponent of `c` to move.
            let mover = c.opponent();
            if i + 1 == moves.len() || i < 4 {
                continue;
            }
            if b.class_count(Color::Black, Pattern4::Five) > 0
                || b.class_count(Color::White, Pattern4::Five) > 0
            {
                continue;
            }
            let mut line = format!(
                "{}\t{}\t{}",
                (winner == mover) as u8,
                b.eval_sum(mover),
                b.eval_sum(mover.opponent())
            );
            for side in [mover, mover.opponent()] {
                for k in Pattern4::ALL {
                    line.push_str(&format!("\t{}", b.class_count(side, k)));
                }
            }
            println!("{line}");
        }
    }
}
