//! GoGui's analyze commands for Go (`gogui-analyze_commands`), in the response types of
//! GoGui's manual (doc/manual/xml/analyze.xml): `gfx` lines `INFLUENCE point value ...`,
//! `LABEL point text ...`, `VAR b|w point ...`, `TEXT ...`; `sboard` a board of strings,
//! rows from the top, `""` for an empty label; `string` a one-line text.
//!
//! Each command first searches the current position for [`GFX_SEARCH`] (the tree is
//! kept, so asking again refines the picture), bounded like every search by `# interrupt`.
//!
//! GoGui clips a `LABEL` to the width of its point (boardpainter/Field.java: a font about
//! half the point's size, the text cut at 95% of it), so about three characters show on
//! a 19x19 board: labels hold the win rate in whole percent (as Pachi's "Best Winrates"),
//! and the `TEXT` status line carries the rest.
use std::time::Duration;

use super::analysis::snapshot;
use super::gtp::GoEngine;
use super::player::StoneStatus;
use crate::color::Color;
use crate::protocol::analysis::Snapshot;
use crate::protocol::args::no_args;
use crate::protocol::coords::format_vertex;
use crate::protocol::engine::Reply;

/// How long one analyze command searches before answering.
const GFX_SEARCH: Duration = Duration::from_millis(1000);

/// The `gogui-analyze_commands` answer: `type/label/command` per line.
pub const ANALYZE_COMMANDS: &str = "gfx/Ownership/quartet-ownership\n\
gfx/Best moves (win %)/quartet-best_moves\n\
gfx/Principal variation/quartet-pv\n\
sboard/Dead stones/quartet-dead_stones\n\
string/Win rate/quartet-winrate\n\
string/CpuTime/cputime";

pub fn analyze_commands(_: &mut GoEngine, args: &[String]) -> Reply {
    no_args(args)?;
    Ok(ANALYZE_COMMANDS.to_string())
}

/// Searches the side to move's position and returns the snapshot.
fn search(e: &mut GoEngine, ownership: bool) -> (Snapshot, Color) {
    let color = e.game().board().to_move();
    let stop = e.stop_token();
    let (player, game) = e.player_and_game();
    player.analyze_step(game, color, GFX_SEARCH, stop.flag());
    (snapshot(player, game.board(), color, ownership), color)
}

/// `INFLUENCE` of every point: +1 Black's, -1 White's (GoGui's dboard convention).
pub fn ownership(e: &mut GoEngine, args: &[String]) -> Reply {
    no_args(args)?;
    let (snap, color) = search(e, true);
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    let size = e.game().board().size();
    let mut s = String::from("INFLUENCE");
    for (i, v) in snap.ownership.unwrap_or_default().iter().enumerate() {
        let (row, col) = (size - 1 - i / size, i % size);
        s.push_str(&format!(
            " {} {:.2}",
            format_vertex(Some((col, row))),
            sign * v
        ));
    }
    Ok(s)
}

/// A move's label on GoGui's board: its win rate in whole percent, `0` to `100` (three
/// characters at most, which GoGui shows whole).
pub fn winrate_label(winrate: f64) -> String {
    format!("{:.0}", 100.0 * winrate.clamp(0.0, 1.0))
}

/// The five most visited moves labelled with their win rates ([`winrate_label`]); their
/// win rates and visits in full on the `TEXT` line.
pub fn best_moves(e: &mut GoEngine, args: &[String]) -> Reply {
    no_args(args)?;
    let (snap, color) = search(e, false);
    let mut label = String::from("LABEL");
    let mut text = format!("TEXT {color} to move:");
    for m in snap.moves.iter().filter(|m| m.visits > 0).take(5) {
        if m.mv != "pass" {
            label.push_str(&format!(" {} {}", m.mv, winrate_label(m.winrate)));
        }
        text.push_str(&format!(
            " {} {:.1}% ({} visits)",
            m.mv,
            100.0 * m.winrate,
            m.visits
        ));
    }
    Ok(format!("{label}\n{text}"))
}

/// The principal variation of the best move as `VAR b D4 w C3 ...`.
pub fn pv(e: &mut GoEngine, args: &[String]) -> Reply {
    no_args(args)?;
    let (snap, color) = search(e, false);
    let mut s = String::from("VAR");
    let mut c = color;
    if let Some(best) = snap.moves.iter().find(|m| m.visits > 0) {
        for (mv, _) in &best.pv {
            let side = if c == Color::Black { "b" } else { "w" };
            s.push_str(&format!(" {side} {mv}"));
            c = c.opponent();
        }
    }
    Ok(s)
}

/// `X` on stones judged dead, `S` on seki, `""` elsewhere.
pub fn dead_stones(e: &mut GoEngine, args: &[String]) -> Reply {
    no_args(args)?;
    let statuses = e.stone_statuses();
    let b = e.game().board();
    let size = b.size();
    let mut rows = Vec::with_capacity(size);
    for row in (0..size).rev() {
        let cells: Vec<&str> = (0..size)
            .map(|col| {
                let p = b.point(col, row);
                match statuses.iter().find(|s| s.0 == p).map(|s| s.1) {
                    Some(StoneStatus::Dead) => "X",
                    Some(StoneStatus::Seki) => "S",
                    _ => "\"\"",
                }
            })
            .collect();
        rows.push(cells.join(" "));
    }
    Ok(rows.join("\n"))
}

/// `Black win rate 0.54 (1234 playouts), score B+3.5`: the side to move's best move.
pub fn winrate(e: &mut GoEngine, args: &[String]) -> Reply {
    no_args(args)?;
    let (snap, color) = search(e, false);
    let Some(best) = snap.moves.iter().find(|m| m.visits > 0) else {
        return Ok("no search yet".into());
    };
    let visits: u64 = snap.moves.iter().map(|m| m.visits).sum();
    let lead = best.score_lead.unwrap_or(0.0);
    let (leader, margin) = match (color, lead >= 0.0) {
        (Color::Black, true) | (Color::White, false) => ("B", lead.abs()),
        _ => ("W", lead.abs()),
    };
    Ok(format!(
        "{color} win rate {:.3} ({visits} playouts), best {}, score {leader}+{margin:.1}",
        best.winrate, best.mv
    ))
}

#[cfg(test)]
mod tests {
    use super::winrate_label;

    #[test]
    fn win_rate_labels_are_whole_percents_of_at_most_three_characters() {
        assert_eq!(winrate_label(0.5), "50");
        assert_eq!(winrate_label(0.587), "59");
        assert_eq!(winrate_label(0.996), "100");
        assert_eq!(winrate_label(0.004), "0");
        assert_eq!(winrate_label(1.0), "100");
        for i in 0..=1000 {
            let label = winrate_label(i as f64 / 1000.0);
            let n: u32 = label.parse().unwrap();
            assert!(n <= 100 && label.len() <= 3, "{label}");
        }
    }
}
