//! Saving and loading game records: SGF for Go and Gomoku, GGF for Othello, and the Dots
//! move list (`size CxR`, then one `B a1-b1` line per move, as `quartet match` writes it).
//! Loading only reads the moves; [`super::rules::Position::replay`] then checks each one.
use super::rules::{GameKind, GameSpec, Position};
use crate::color::Color;
use crate::gomoku::board::Rule;
use crate::othello::bitboard::{parse_square, square_name};
use crate::othello::board::Board as OthelloBoard;
use crate::othello::ggf::{GgfGame, GgfMove};
use crate::protocol::coords::{format_vertex, parse_vertex};
use crate::record::sgf::SgfRecord;
use serde_json::{json, Value};

/// The `record` message for the game.
pub fn save(pos: &Position, names: [&str; 2]) -> Value {
    let spec = pos.spec();
    let result = pos.result();
    let (format, filename, text) = match spec.kind {
        GameKind::Go | GameKind::Gomoku => {
            let go = spec.kind == GameKind::Go;
            let mut rec = SgfRecord::new(if go { 1 } else { 4 }, spec.size);
            rec.set_info("PB", names[0]);
            rec.set_info("PW", names[1]);
            if go {
                rec.set_info("KM", spec.komi.to_string());
            } else {
                rec.set_info("RU", spec.rule.name());
            }
            if let Some(r) = &result {
                rec.set_info("RE", if r == "Draw" { "0" } else { r.as_str() });
            }
            rec.moves = pos
                .moves()
                .iter()
                .map(|(c, m)| {
                    let point = parse_vertex(m, spec.size)
                        .ok()
                        .flatten()
                        .map(|(col, row)| (col, spec.size - 1 - row));
                    (*c, point)
                })
                .collect();
            let name = format!(
                "quartet-{}-{}x{}.sgf",
                spec.kind.name(),
                spec.size,
                spec.size
            );
            ("sgf", name, rec.to_sgf())
        }
        GameKind::Othello => {
            let mut g = GgfGame::new();
            g.props.push(("PB".into(), names[0].into()));
            g.props.push(("PW".into(), names[1].into()));
            if let Some(r) = &result {
                g.props.push(("RE".into(), r.clone()));
            }
            for (c, m) in pos.moves() {
                // The moves were checked when played; a missing pass is implied by GGF.
                let mv = GgfMove {
                    color: *c,
                    square: parse_square(m),
                    eval: String::new(),
                    time: String::new(),
                };
                let _ = g.play(mv);
            }
            ("ggf", "quartet-othello.ggf".to_string(), g.to_ggf() + "\n")
        }
        GameKind::Dots => {
            let mut s = format!(
                "size {}x{}\nblack {}\nwhite {}\n",
                spec.cols, spec.rows, names[0], names[1]
            );
            if let Some(r) = &result {
                s.push_str(&format!("result {r}\n"));
            }
            for (c, m) in pos.moves() {
                s.push_str(&format!("{} {m}\n", c.letter()));
            }
            let name = format!("quartet-dots-{}x{}.txt", spec.cols, spec.rows);
            ("dots", name, s)
        }
    };
    json!({"type": "record", "format": format, "filename": filename, "text": text})
}

/// A record read: the game and its moves, not yet checked against the rules.
pub struct Loaded {
    pub spec: GameSpec,
    pub moves: Vec<(Color, String)>,
}

/// Reads a record, recognising the format from the text: `(;` ... `BO[` or `GM[Othello]`
/// is GGF, other `(;` text is SGF, anything else a Dots move list (whose size defaults to
/// `current`'s when it is a Dots game). Then replays it through the rules.
pub fn load(text: &str, current: &GameSpec) -> Result<Position, String> {
    let t = text.trim_start();
    let loaded = if t.starts_with('(') {
        if t.contains("BO[") || t.contains("GM[Othello]") {
            load_ggf(t)?
        } else {
            load_sgf(t, current)?
        }
    } else {
        load_dots(t, current)?
    };
    Position::replay(&loaded.spec, &loaded.moves)
}

fn load_sgf(text: &str, current: &GameSpec) -> Result<Loaded, String> {
    let rec = SgfRecord::parse(text).map_err(|e| e.to_string())?;
    if !rec.setup.is_empty() {
        return Err("setup stones (AB/AW) are not supported".into());
    }
    let n = rec.size;
    let spec = match rec.game {
        1 => {
            let komi = match rec.info("KM") {
                Some(k) => k
                    .trim()
                    .parse::<f32>()
                    .ok()
                    .filter(|k| k.is_finite() && k.abs() <= 100.0)
                    .ok_or_else(|| format!("bad komi {k:?}"))?,
                None if current.kind == GameKind::Go => current.komi,
                None => 7.5,
            };
            GameSpec::go(n, komi)
        }
        4 => {
            let rule = match rec.info("RU") {
                Some(r) => Rule::parse(r.trim()).ok_or_else(|| format!("unknown rule {r:?}"))?,
                None if current.kind == GameKind::Gomoku => current.rule,
                None => Rule::Freestyle,
            };
            GameSpec::gomoku(n, rule)
        }
        2 if n == 8 => {
            // Othello as SGF (`quartet match` writes it so): x, y from a1 top-left.
            let moves = rec
                .moves
                .iter()
                .filter_map(|&(c, p)| p.map(|(x, y)| (c, square_name(y * 8 + x))))
                .collect();
            return Ok(Loaded {
                spec: GameSpec::othello(),
                moves,
            });
        }
        g => return Err(format!("SGF game GM[{g}] is not Go (1) or Gomoku (4)")),
    };
    let mut moves = Vec::with_capacity(rec.moves.len());
    for &(c, p) in &rec.moves {
        let text = match p {
            None if spec.kind == GameKind::Go => "pass".to_string(),
            None => return Err("a pass is not a Gomoku move".into()),
            Some((x, y)) => format_vertex(Some((x, n - 1 - y))),
        };
        moves.push((c, text));
    }
    Ok(Loaded { spec, moves })
}

fn load_ggf(text: &str) -> Result<Loaded, String> {
    let g = GgfGame::parse(text).map_err(|e| e.to_string())?;
    if g.start != OthelloBoard::start() || g.start_to_move != Color::Black {
        return Err("only games from the standard start position can be loaded".into());
    }
    let moves = g
        .moves
        .iter()
        .filter_map(|m| m.square.map(|sq| (m.color, square_name(sq))))
        .collect();
    Ok(Loaded {
        spec: GameSpec::othello(),
        moves,
    })
}

fn load_dots(text: &str, current: &GameSpec) -> Result<Loaded, String> {
    let mut size = (current.kind == GameKind::Dots).then_some((current.cols, current.rows));
    let mut moves = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let words: Vec<&str> = line.split_whitespace().collect();
        let bad = || format!("line {}: {line:?} is not a move", i + 1);
        match words.as_slice() {
            [] => {}
            [w, ..] if w.starts_with('#') => {}
            ["size", s] => {
                let (c, r) = s.split_once(['x', 'X']).ok_or_else(bad)?;
                let c: usize = c.parse().map_err(|_| bad())?;
                let r: usize = r.parse().map_err(|_| bad())?;
                if !moves.is_empty() {
                    return Err(format!("line {}: size after the first move", i + 1));
                }
                size = Some((c, r));
            }
            ["black" | "white" | "date" | "result", ..] => {}
            [c @ ("B" | "W" | "b" | "w"), mv] => {
                let color = if c.eq_ignore_ascii_case("b") {
                    Color::Black
                } else {
                    Color::White
                };
                moves.push((Some(color), mv.to_string()));
            }
            [mv] if mv.contains('-') => moves.push((None, mv.to_string())),
            _ => return Err(bad()),
        }
    }
    let (cols, rows) = size.ok_or("no size line (size CxR) in the Dots record")?;
    let spec = GameSpec::dots(cols, rows);
    // Bare moves take the colour of the side to move, which the rules know.
    let mut pos = Position::new(&spec)?;
    let mut checked = Vec::with_capacity(moves.len());
    for (i, (color, mv)) in moves.into_iter().enumerate() {
        let to_move = pos.to_move();
        let color = color.unwrap_or(to_move);
        if color != to_move {
            return Err(format!(
                "move {} ({mv}): {color} played but {to_move} was to move",
                i + 1
            ));
        }
        let name = pos
            .play(&mv)
            .map_err(|e| format!("move {} ({mv}): {e}", i + 1))?;
        checked.push((color, name));
    }
    Ok(Loaded {
        spec,
        moves: checked,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(spec: GameSpec, moves: &[&str]) {
        let mut p = Position::new(&spec).unwrap();
        for m in moves {
            p.play(m).unwrap();
        }
        let rec = save(&p, ["human", "quartet"]);
        let text = rec["text"].as_str().unwrap();
        let back = load(text, &GameSpec::go(9, 7.5)).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.moves(), p.moves(), "{text}");
        assert_eq!(back.spec(), p.spec(), "{text}");
    }

    #[test]
    fn every_format_round_trips() {
        round_trip(GameSpec::go(9, 6.5), &["E5", "C3", "pass", "J9"]);
        round_trip(GameSpec::gomoku(15, Rule::Renju), &["H8", "J9", "A1"]);
        round_trip(GameSpec::othello(), &["d3", "c5", "f6"]);
        round_trip(GameSpec::dots(3, 2), &["a1-b1", "c3-d3", "a1-a2"]);
    }

    #[test]
    fn bad_records_are_refused() {
        let go = GameSpec::go(9, 7.5);
        assert!(load("(;GM[1]SZ[9];B[ee];W[ee])", &go).is_err(), "occupied");
        assert!(
            load("(;GM[1]SZ[9];B[ee];B[dd])", &go).is_err(),
            "twice black"
        );
        assert!(load("(;GM[3]SZ[9])", &go).is_err());
        assert!(load("(;GM[1]SZ[9]", &go).is_err());
        assert!(load("size 2x2\nB a1-b1\nW a1-b1\n", &go).is_err());
        assert!(load("a1-b1\n", &go).is_err(), "no size");
        assert!(load("banana", &go).is_err());
        let d = load("a1-b1\nb1-b2\n", &GameSpec::dots(2, 2)).unwrap();
        assert_eq!(d.moves().len(), 2);
    }
}
