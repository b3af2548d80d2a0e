//! Go's live analysis: the tree's root statistics as [`Snapshot`]s for the shared
//! formatter (`lz-analyze`, `kata-analyze`, Sabaki's `analyze`), and the handlers.
//!
//! Where the numbers come from: win rates are the root children's own playout results;
//! `prior` is each move's share of the prior knowledge's virtual wins (the nearest thing to
//! a policy this engine has); `scoreLead` is the mean final area margin of the playouts
//! through the move (komi included) from the mover's side; ownership is the share of
//! playouts whose final position gave the point to each colour.
use std::time::Duration;

use super::board::{Board, Move};
use super::gtp::GoEngine;
use super::player::Player;
use crate::color::Color;
use crate::protocol::analysis::{self, AnalyzeArgs, MoveInfo, Snapshot, Style};
use crate::protocol::args::parse_color;
use crate::protocol::coords::format_vertex;
use crate::protocol::engine::{GtpError, Reply};
use crate::protocol::stream::Stream;

/// Longest principal variation written.
const PV_LEN: usize = 12;

fn vertex(b: &Board, m: Move) -> String {
    format_vertex(match m {
        Move::Pass => None,
        Move::Play(p) => Some(b.col_row(p)),
    })
}

/// The analysis of `color` to move on `board` from the player's tree.
pub fn snapshot(player: &Player, board: &Board, color: Color, ownership: bool) -> Snapshot {
    let stats = player.all_root_stats();
    let prior_total: f64 = stats.iter().map(|s| s.prior as f64).sum::<f64>().max(1e-9);
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    let shift = player.tree().map_or(0.0, |t| t.komi_shift() as f64);
    let moves = stats
        .iter()
        .map(|s| {
            let winrate = s.winrate() as f64;
            let pv = player
                .tree()
                .map(|t| t.principal_variation(s.mv, PV_LEN))
                .unwrap_or_default();
            MoveInfo {
                mv: vertex(board, s.mv),
                visits: s.visits as u64,
                winrate,
                prior: s.prior as f64 / prior_total,
                lcb: analysis::lcb(winrate, s.visits as u64),
                score_lead: (s.visits > 0)
                    .then(|| sign * (s.margin_sum as f64 / s.visits as f64 + shift)),
                pv: pv
                    .into_iter()
                    .map(|(m, v)| (vertex(board, m), v as u64))
                    .collect(),
            }
        })
        .collect();
    let ownership = ownership.then(|| {
        let size = board.size();
        let tree = player.tree();
        let mut v = Vec::with_capacity(size * size);
        for row in (0..size).rev() {
            for col in 0..size {
                let p = board.point(col, row);
                let o = tree.map_or(0.0, |t| t.ownership(p));
                v.push(sign * o as f64);
            }
        }
        v
    });
    Snapshot { moves, ownership }
}

fn is_color(s: &str) -> bool {
    parse_color(s).is_ok()
}

impl GoEngine {
    fn analysis_args(&self, args: &[String]) -> Result<(AnalyzeArgs, Color), GtpError> {
        let a = analysis::parse_args(args, is_color)?;
        let color = match &a.color {
            Some(c) => parse_color(c)?,
            None => self.game().board().to_move(),
        };
        Ok((a, color))
    }

    /// One analysis step: search `budget`, then report.
    pub(super) fn analysis_step(
        &mut self,
        color: Color,
        budget: Duration,
        ownership: bool,
    ) -> Snapshot {
        let stop = self.stop_token();
        let (player, game) = self.player_and_game();
        player.analyze_step(game, color, budget, stop.flag());
        let mut board = game.board().clone();
        board.set_to_move(color);
        snapshot(player, &board, color, ownership)
    }

    fn analyze(&mut self, args: &[String], out: &mut Stream<'_>, style: Style) -> Reply {
        let (a, color) = self.analysis_args(args)?;
        analysis::stream_analysis(out, &a, style, None, |budget, _| {
            self.analysis_step(color, budget, a.ownership)
        });
        Ok(String::new())
    }

    /// `genmove` that streams analysis lines while it thinks, then `play V`.
    fn genmove_analyze(&mut self, args: &[String], out: &mut Stream<'_>, style: Style) -> Reply {
        let (a, color) = self.analysis_args(args)?;
        let budget = self.move_budget(color);
        let start = std::time::Instant::now();
        out.begin();
        if !a.interval.is_zero() {
            // Think in interval-long steps, writing a line after each; the whole search
            // keeps genmove's budget.
            loop {
                let left = budget.saturating_sub(start.elapsed());
                if left.is_zero() || self.stop_token().is_stopped() {
                    break;
                }
                let snap = self.analysis_step(color, a.interval.min(left), a.ownership);
                let line = analysis::format_line(&snap, style, &a);
                if !line.is_empty() {
                    out.line(&line);
                }
            }
        }
        let mv = self.generate_for(color, budget.saturating_sub(start.elapsed()), start)?;
        Ok(format!("play {mv}"))
    }
}

pub fn lz_analyze(e: &mut GoEngine, args: &[String], out: &mut Stream<'_>) -> Reply {
    e.analyze(args, out, Style::Lz)
}

pub fn kata_analyze(e: &mut GoEngine, args: &[String], out: &mut Stream<'_>) -> Reply {
    e.analyze(args, out, Style::Kata)
}

pub fn lz_genmove_analyze(e: &mut GoEngine, args: &[String], out: &mut Stream<'_>) -> Reply {
    e.genmove_analyze(args, out, Style::Lz)
}

pub fn kata_genmove_analyze(e: &mut GoEngine, args: &[String], out: &mut Stream<'_>) -> Reply {
    e.genmove_analyze(args, out, Style::Kata)
}
