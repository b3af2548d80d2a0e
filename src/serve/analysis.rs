//! Engine analysis lines (`info move D4 visits 12 winrate 0.51 ... pv D4 C3 ownership ...`,
//! KataGo's float shape, which all four engines write) turned into the `analysis` message.
use crate::color::Color;
use serde_json::{json, Value};

/// Moves listed in one message at most.
const MAX_MOVES: usize = 10;

#[derive(Debug, Default, PartialEq)]
struct Candidate {
    mv: String,
    visits: u64,
    winrate: Option<f64>,
    score: Option<f64>,
    order: usize,
    pv: Vec<String>,
}

/// Reads `winrate` as KataGo (a float) or Leela Zero (an integer x10000) writes it.
fn rate(text: &str) -> Option<f64> {
    let v: f64 = text.parse().ok()?;
    let v = if text.contains('.') { v } else { v / 10000.0 };
    (v.is_finite() && (0.0..=1.0).contains(&v)).then_some(v)
}

/// The `analysis` message for one line, analysed for `to_move`; `None` when the line holds
/// no move. Go ownership (the engine writes it from `to_move`'s view) becomes +1 = Black.
pub fn analysis_message(line: &str, to_move: Color) -> Option<Value> {
    let mut moves: Vec<Candidate> = Vec::new();
    let mut ownership: Option<Vec<f64>> = None;
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "info" => {
                moves.push(Candidate {
                    order: moves.len(),
                    ..Candidate::default()
                });
                i += 1;
            }
            "ownership" => {
                let sign = if to_move == Color::Black { 1.0 } else { -1.0 };
                let mut v = Vec::new();
                i += 1;
                while i < words.len() && words[i] != "info" {
                    let x: f64 = words[i].parse().ok()?;
                    v.push(sign * x.clamp(-1.0, 1.0));
                    i += 1;
                }
                ownership = Some(v);
            }
            "pv" => {
                i += 1;
                while i < words.len() && !matches!(words[i], "info" | "ownership" | "pvVisits") {
                    if let Some(c) = moves.last_mut() {
                        c.pv.push(words[i].to_string());
                    }
                    i += 1;
                }
            }
            "pvVisits" => {
                // The visit counts of the pv moves: not shown.
                i += 1;
                while i < words.len() && words[i].bytes().all(|b| b.is_ascii_digit()) {
                    i += 1;
                }
            }
            key => {
                let value = words.get(i + 1).copied().unwrap_or("");
                if let Some(c) = moves.last_mut() {
                    match key {
                        "move" => c.mv = value.to_string(),
                        "visits" => c.visits = value.parse().unwrap_or(0),
                        "winrate" => c.winrate = rate(value),
                        "scoreLead" => c.score = value.parse().ok().filter(|s: &f64| s.is_finite()),
                        "order" => c.order = value.parse().unwrap_or(c.order),
                        _ => {}
                    }
                }
                i += 2;
            }
        }
    }
    moves.retain(|c| !c.mv.is_empty());
    if moves.is_empty() {
        return None;
    }
    moves.sort_by_key(|c| c.order);
    moves.truncate(MAX_MOVES);
    let total: u64 = moves.iter().map(|c| c.visits).sum();
    let list: Vec<Value> = moves
        .iter()
        .map(|c| {
            let share = if total > 0 {
                c.visits as f64 / total as f64
            } else {
                0.0
            };
            json!({"move": c.mv, "visits": c.visits, "share": share, "winrate": c.winrate,
                   "score": c.score, "pv": c.pv})
        })
        .collect();
    Some(
        json!({"type": "analysis", "to_move": to_move.to_string(), "moves": list,
                "ownership": ownership}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kata_lines_with_ownership() {
        let line = "info move D4 visits 30 utility 0.1 winrate 0.55 scoreMean 2.5 scoreLead 2.5 \
                    prior 0.2 lcb 0.5 utilityLcb 0.0 order 0 pv D4 C3 E5 pvVisits 30 10 5 \
                    info move C3 visits 10 utility 0.0 winrate 0.45 prior 0.1 lcb 0.4 \
                    utilityLcb -0.2 order 1 pv C3 ownership 1.0 -0.5 0.0 0.25";
        let m = analysis_message(line, Color::White).unwrap();
        assert_eq!(m["to_move"], "white");
        assert_eq!(m["moves"][0]["move"], "D4");
        assert_eq!(m["moves"][0]["share"], 0.75);
        assert_eq!(m["moves"][0]["score"], 2.5);
        assert_eq!(m["moves"][0]["pv"], json!(["D4", "C3", "E5"]));
        assert_eq!(m["moves"][1]["winrate"], 0.45);
        assert_eq!(m["moves"][1]["score"], Value::Null);
        assert_eq!(m["ownership"], json!([-1.0, 0.5, -0.0, -0.25]));
    }

    #[test]
    fn lz_integers_and_empty_lines() {
        let m = analysis_message(
            "info move a1-b1 visits 5 winrate 5000 prior 1 lcb 1 order 0 pv a1-b1",
            Color::Black,
        )
        .unwrap();
        assert_eq!(m["moves"][0]["winrate"], 0.5);
        assert_eq!(m["ownership"], Value::Null);
        assert!(analysis_message("", Color::Black).is_none());
        assert!(analysis_message("info visits 3", Color::Black).is_none());
    }
}
