//! GoGui's live graphics (`--gfx`): while `genmove` thinks, a set of draw commands on
//! stderr every [`GFX_EVERY`], which GoGui draws on its board until the answer comes.
//!
//! Syntax, from GoGui's manual (doc/manual/xml/live-gfx.xml and analyze.xml, read in the
//! GoGui 1.6 sources, with src/net/sf/gogui/gui/LiveGfx.java and AnalyzeShow.java, which
//! parse it): a line `gogui-gfx:` alone starts a set of draw commands that ends at the next
//! empty line, drawn together (each set first clears the board's markup, so the layers
//! must come in one set); `VAR` takes moves `b|w point`, `LABEL` point-text pairs (the
//! text cannot hold spaces), `TEXT` the rest of the line for the status bar. Because
//! GoGui may read stderr after the answer, the manual advises a `gogui-gfx: CLEAR` before
//! the command ends: it comes last.
use std::io::Write;
use std::time::{Duration, Instant};

use super::gogui::winrate_label;
use super::gtp::GoEngine;
use crate::color::Color;
use crate::protocol::analysis::Snapshot;

/// Between two sets of draw commands.
pub const GFX_EVERY: Duration = Duration::from_millis(500);
/// Candidate moves labelled.
const LABELLED: usize = 5;

/// One set of draw commands for `color` to move: the best move's principal variation as
/// `VAR`, the most visited moves labelled with their win rates (as `quartet-best_moves`
/// does: see [`winrate_label`]), and a status line with win rates and visits.
pub fn draw_commands(snap: &Snapshot, color: Color) -> String {
    let mut var = String::from("VAR");
    let mut label = String::from("LABEL");
    let mut text = format!("TEXT {color} to move:");
    let visited = snap.moves.iter().filter(|m| m.visits > 0);
    if let Some(best) = snap.moves.iter().find(|m| m.visits > 0) {
        let mut c = color;
        for (mv, _) in &best.pv {
            let side = if c == Color::Black { "b" } else { "w" };
            var.push_str(&format!(" {side} {mv}"));
            c = c.opponent();
        }
    }
    for m in visited.take(LABELLED) {
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
    // The labels after the variation: the best move shows its win rate, not "1".
    let mut s = String::from("gogui-gfx:\n");
    for line in [var, label, text] {
        if line.contains(' ') {
            s.push_str(&line);
            s.push('\n');
        }
    }
    s.push('\n');
    s
}

/// Writes to stderr in one call (so log lines cannot split a set); a closed stderr is not
/// an error worth stopping a game for.
fn emit(s: &str) {
    let _ = std::io::stderr().lock().write_all(s.as_bytes());
}

impl GoEngine {
    /// Thinks for `color` in [`GFX_EVERY`] steps until `budget` (counted from `start`)
    /// is nearly used or the command is stopped, drawing after each step; the caller's
    /// search then uses what is left, starting from the grown tree.
    pub(super) fn think_with_gfx(&mut self, color: Color, budget: Duration, start: Instant) {
        loop {
            let left = budget.saturating_sub(start.elapsed());
            if left < GFX_EVERY || self.stop_token().is_stopped() {
                break;
            }
            let snap = self.analysis_step(color, GFX_EVERY, false);
            emit(&draw_commands(&snap, color));
        }
    }

    /// After the move is chosen: the manual's `CLEAR`, so nothing is drawn late.
    pub(super) fn gfx_done(&self) {
        emit("gogui-gfx: CLEAR\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::analysis::MoveInfo;

    fn info(mv: &str, visits: u64, pv: &[&str]) -> MoveInfo {
        MoveInfo {
            mv: mv.into(),
            visits,
            winrate: 0.5,
            prior: 0.1,
            lcb: 0.4,
            score_lead: None,
            pv: pv.iter().map(|m| (m.to_string(), 1)).collect(),
        }
    }

    #[test]
    fn one_set_with_the_variation_labels_and_status_as_the_manual_writes_them() {
        let snap = Snapshot {
            moves: vec![
                info("E5", 120, &["E5", "C3", "G7"]),
                info("pass", 3, &["pass"]),
                info("D4", 0, &[]),
            ],
            ownership: None,
        };
        assert_eq!(
            draw_commands(&snap, Color::White),
            "gogui-gfx:\nVAR w E5 b C3 w G7\nLABEL E5 50\n\
             TEXT white to move: E5 50.0% (120 visits) pass 50.0% (3 visits)\n\n"
        );
        // Nothing searched yet: only the status line, still a complete set.
        let empty = Snapshot::default();
        assert_eq!(
            draw_commands(&empty, Color::Black),
            "gogui-gfx:\nTEXT black to move:\n\n"
        );
    }
}
