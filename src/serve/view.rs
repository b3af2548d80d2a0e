//! The `state` message: everything the page draws, built from the rules position (board
//! rows, legal moves, scores, Gomoku's winning line, Dots edges and boxes).
use super::messages::PlayerKind;
use super::rules::{Position, Rules};
use crate::color::Color;
use crate::gomoku::board::Rule;
use crate::protocol::coords::format_vertex;
use serde_json::{json, Value};

/// What the session adds to the position.
pub struct Flags {
    pub players: [PlayerKind; 2],
    pub seconds: f64,
    pub thinking: bool,
    pub analyzing: bool,
    pub paused: bool,
}

fn stone_char(c: Option<Color>) -> char {
    match c {
        Some(Color::Black) => 'X',
        Some(Color::White) => 'O',
        None => '.',
    }
}

fn color_name(c: Option<Color>) -> Value {
    c.map_or(Value::Null, |c| Value::from(c.to_string()))
}

/// GTP column letters (no `I`) and row numbers from the top, for Go and Gomoku.
fn vertex_labels(size: usize) -> (Vec<String>, Vec<String>) {
    let cols = (0..size)
        .map(|c| {
            format_vertex(Some((c, 0)))
                .trim_end_matches(|ch: char| ch.is_ascii_digit())
                .to_string()
        })
        .collect();
    let rows = (1..=size).rev().map(|r| r.to_string()).collect();
    (cols, rows)
}

/// Board rows from the top for a square board with GTP rows counted from the bottom.
fn rows_from_bottom(size: usize, stone: impl Fn(usize, usize) -> Option<Color>) -> Vec<String> {
    (0..size)
        .rev()
        .map(|row| (0..size).map(|col| stone_char(stone(col, row))).collect())
        .collect()
}

/// The five (or longer line) through the last Gomoku move, as `[col, row-from-top]`.
fn winning_line(g: &crate::gomoku::game::Game) -> Option<Vec<[usize; 2]>> {
    let (color, last) = g.moves().last()?;
    let board = g.board();
    let n = board.size();
    let (c0, r0) = board.col_row(last);
    let at = |c: isize, r: isize| -> bool {
        c >= 0
            && r >= 0
            && (c as usize) < n
            && (r as usize) < n
            && board.stone(board.point(c as usize, r as usize)) == Some(color)
    };
    for (dc, dr) in [(1isize, 0isize), (0, 1), (1, 1), (1, -1)] {
        let (c0, r0) = (c0 as isize, r0 as isize);
        let mut back = 0;
        while at(c0 - dc * (back + 1), r0 - dr * (back + 1)) {
            back += 1;
        }
        let mut fwd = 0;
        while at(c0 + dc * (fwd + 1), r0 + dr * (fwd + 1)) {
            fwd += 1;
        }
        let len = (back + fwd + 1) as usize;
        let rule: Rule = g.rule();
        if rule.wins(color, len) {
            return Some(
                (-back..=fwd)
                    .map(|k| {
                        let (c, r) = (c0 + dc * k, r0 + dr * k);
                        [c as usize, n - 1 - r as usize]
                    })
                    .collect(),
            );
        }
    }
    None
}

/// The `state` message.
pub fn state(pos: &Position, flags: &Flags) -> Value {
    let spec = pos.spec();
    let to_move = pos.to_move();
    let over = pos.is_over();
    let mut board = Value::Null;
    let labels: (Vec<String>, Vec<String>);
    let mut captures = Value::Null;
    let mut score = Value::Null;
    let mut line = Value::Null;
    let mut dots = Value::Null;
    match pos.rules() {
        Rules::Go(g) => {
            let b = g.game().board();
            board = json!(rows_from_bottom(spec.size, |c, r| b.stone(b.point(c, r))));
            labels = vertex_labels(spec.size);
            captures =
                json!({"black": b.captures(Color::Black), "white": b.captures(Color::White)});
        }
        Rules::Gomoku(g) => {
            let b = g.game().board();
            board = json!(rows_from_bottom(spec.size, |c, r| b.stone(b.point(c, r))));
            labels = vertex_labels(spec.size);
            if over {
                line = json!(winning_line(g.game()));
            }
        }
        Rules::Othello(g) => {
            let (black, white) = g.board().colors(to_move);
            let rows: Vec<String> = (0..8)
                .map(|r| {
                    (0..8)
                        .map(|c| {
                            let sq = r * 8 + c;
                            stone_char(if black >> sq & 1 != 0 {
                                Some(Color::Black)
                            } else if white >> sq & 1 != 0 {
                                Some(Color::White)
                            } else {
                                None
                            })
                        })
                        .collect()
                })
                .collect();
            board = json!(rows);
            labels = (
                "abcdefgh".chars().map(String::from).collect(),
                (1..=8).map(|r| r.to_string()).collect(),
            );
            score = json!({"black": black.count_ones(), "white": white.count_ones()});
        }
        Rules::Dots(g) => {
            let b = g.board();
            let geo = b.geometry();
            let (cols, rows) = (geo.cols(), geo.rows());
            let drawers = b.edge_drawers();
            let edges: Vec<Value> = (0..geo.n_edges())
                .map(|e| {
                    let name = b.edge_name(e);
                    let dot =
                        |d: crate::dots::notation::Dot| [d.col as usize, rows - d.row as usize];
                    json!({"move": name.to_string(), "from": dot(name.from), "to": dot(name.to),
                           "by": color_name(drawers[e])})
                })
                .collect();
            let boxes: Vec<Vec<Value>> = (0..rows)
                .map(|top| {
                    let y = rows - 1 - top;
                    (0..cols)
                        .map(|x| color_name(b.owner(y * cols + x)))
                        .collect()
                })
                .collect();
            dots = json!({"cols": cols, "rows": rows, "edges": edges, "boxes": boxes});
            score = json!({"black": b.score(Color::Black), "white": b.score(Color::White)});
            labels = (
                (0..=cols)
                    .map(|c| ((b'a' + c as u8) as char).to_string())
                    .collect(),
                (1..=rows + 1).rev().map(|r| r.to_string()).collect(),
            );
        }
    }
    let moves: Vec<Value> = pos
        .moves()
        .iter()
        .map(|(c, m)| json!({"color": c.to_string(), "move": m}))
        .collect();
    json!({
        "type": "state",
        "game": spec.kind.name(),
        "size": spec.size,
        "cols": spec.cols,
        "rows": spec.rows,
        "rule": if spec.kind == super::rules::GameKind::Gomoku { json!(spec.rule.name()) } else { Value::Null },
        "komi": if spec.kind == super::rules::GameKind::Go { json!(spec.komi) } else { Value::Null },
        "col_labels": labels.0,
        "row_labels": labels.1,
        "board": board,
        "to_move": to_move.to_string(),
        "players": {"black": flags.players[0].name(), "white": flags.players[1].name()},
        "seconds": flags.seconds,
        "moves": moves,
        "last": pos.moves().last().map(|(_, m)| m.clone()),
        "legal": pos.legal(),
        "thinking": flags.thinking,
        "analyzing": flags.analyzing,
        "paused": flags.paused,
        "captures": captures,
        "score": score,
        "over": over,
        "result": pos.result(),
        "winning_line": line,
        "dots": dots,
    })
}

#[cfg(test)]
mod tests {
    use super::super::rules::GameSpec;
    use super::*;

    fn flags() -> Flags {
        Flags {
            players: [PlayerKind::Human, PlayerKind::Engine],
            seconds: 1.0,
            thinking: false,
            analyzing: false,
            paused: false,
        }
    }

    #[test]
    fn go_rows_run_from_the_top() {
        let mut p = Position::new(&GameSpec::go(9, 7.5)).unwrap();
        p.play("A9").unwrap();
        p.play("J1").unwrap();
        let s = state(&p, &flags());
        assert_eq!(s["board"][0], "X........");
        assert_eq!(s["board"][8], "........O");
        assert_eq!(s["col_labels"][8], "J");
        assert_eq!(s["row_labels"][0], "9");
        assert_eq!(s["last"], "J1");
        assert_eq!(s["to_move"], "black");
    }

    #[test]
    fn othello_a1_is_top_left_and_dots_y_from_the_top() {
        let mut p = Position::new(&GameSpec::othello()).unwrap();
        p.play("d3").unwrap();
        let s = state(&p, &flags());
        assert_eq!(s["board"][2], "...X....");
        assert_eq!(s["score"]["black"], 4);

        let mut d = Position::new(&GameSpec::dots(2, 1)).unwrap();
        d.play("a1-b1").unwrap();
        let s = state(&d, &flags());
        let e = &s["dots"]["edges"][0];
        assert_eq!(e["move"], "a1-b1");
        assert_eq!(e["from"], json!([0, 1]));
        assert_eq!(e["by"], "black");
        assert_eq!(s["dots"]["boxes"], json!([[null, null]]));
    }

    #[test]
    fn gomoku_five_is_marked() {
        let spec = GameSpec::gomoku(15, Rule::Freestyle);
        let mut p = Position::new(&spec).unwrap();
        for m in ["A1", "A15", "B2", "B15", "C3", "C15", "D4", "D15", "E5"] {
            p.play(m).unwrap();
        }
        let s = state(&p, &flags());
        assert_eq!(s["result"], "B+");
        assert_eq!(
            s["winning_line"],
            json!([[0, 14], [1, 13], [2, 12], [3, 11], [4, 10]])
        );
    }
}
