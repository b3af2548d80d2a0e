//! `quartet dots --protocol sau` as a process, driven line by line like the SAU platform.
//! Every engine turn is checked with our own board: the edges are legal, all but the last
//! complete a box, and the turn passes (or the board is full) after the last.
use quartet::color::Color;
use quartet::dots::sau::{format_edge, parse_edge};
use quartet::dots::Board;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Platform {
    child: Child,
    to: ChildStdin,
    from: BufReader<ChildStdout>,
}

impl Platform {
    fn start(extra: &[&str]) -> Platform {
        let mut child = Command::new(env!("CARGO_BIN_EXE_quartet"))
            .args(["dots", "--protocol", "sau", "--move-time", "0.05"])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start quartet");
        let to = child.stdin.take().unwrap();
        let from = BufReader::new(child.stdout.take().unwrap());
        Platform { child, to, from }
    }
    fn send(&mut self, line: &str) {
        writeln!(self.to, "{line}").unwrap();
        self.to.flush().unwrap();
    }
    fn read(&mut self) -> String {
        let mut s = String::new();
        self.from.read_line(&mut s).unwrap();
        s.trim_end().to_string()
    }
    /// Sends a line the engine must not answer: `name?` after it must be the next answer.
    fn send_silent(&mut self, line: &str) {
        self.send(line);
        self.send("name?");
        assert_eq!(self.read(), "name quartet", "after {line:?}");
    }
}

/// Checks one `move n KIJ...` answer as `me`'s whole turn and plays it on `b`.
fn engine_turn(b: &mut Board, me: Color, answer: &str) {
    let words: Vec<&str> = answer.split(' ').collect();
    assert_eq!(words.len(), 3, "{answer}");
    assert_eq!(words[0], "move", "{answer}");
    let n: usize = words[1].parse().unwrap();
    assert_eq!(words[2].len(), 3 * n, "{answer}");
    for (k, kij) in words[2].as_bytes().chunks(3).enumerate() {
        assert_eq!(
            b.to_move(),
            me,
            "{answer}: edge {} after the turn ended",
            k + 1
        );
        let e = parse_edge(b.geometry(), kij).expect("an edge on the board");
        b.play(e).expect("a legal edge");
    }
    assert!(
        b.is_over() || b.to_move() != me,
        "{answer}: turn not finished"
    );
}

#[test]
fn name_new_black_and_refused_input() {
    let mut p = Platform::start(&["--boardsize", "2x2"]);
    p.send("name?");
    assert_eq!(p.read(), "name quartet");
    // Nothing to answer before a game, and garbage changes nothing.
    p.send_silent("move 1 AAA");
    p.send_silent("hello");
    p.send_silent("new purple");
    p.send("new black");
    let mut b = Board::new(2, 2).unwrap();
    let first = p.read();
    engine_turn(&mut b, Color::Black, &first);
    // Malformed opponent turns are ignored: wrong count, off-board, drawn edge, bad letters.
    let drawn = first.split(' ').nth(2).unwrap().to_string();
    for bad in [
        "move 2 AAA".to_string(),
        "move 1 ADA".to_string(),
        format!("move 1 {drawn}"),
        "move 1 A1A".to_string(),
        "move x AAA".to_string(),
    ] {
        p.send_silent(&bad);
    }
    p.send("quit");
    assert!(p.child.wait().unwrap().success());
}

/// Whole games on 2x2 against a simple scripted opponent (first free edge in our order,
/// which hands over boxes often, so multi-edge turns on both sides occur), with `end`
/// and a second game in the same process.
#[test]
fn full_games_with_multi_edge_turns() {
    let mut p = Platform::start(&["--boardsize", "2x2"]);
    p.send("name?");
    assert_eq!(p.read(), "name quartet");
    let mut long_turns = 0;
    for me in [Color::White, Color::Black] {
        p.send(if me == Color::White {
            "new white"
        } else {
            "new black"
        });
        let mut b = Board::new(2, 2).unwrap();
        if me == Color::Black {
            let a = p.read();
            engine_turn(&mut b, me, &a);
        }
        while !b.is_over() {
            // Opponent's turn: take every box it can, then the first free edge.
            let mut list = String::new();
            let mut n = 0;
            while !b.is_over() && b.to_move() != me {
                let geo = b.geometry().clone();
                let e = b
                    .legal_edges()
                    .find(|&e| {
                        geo.edge_boxes(e)
                            .iter()
                            .any(|&x| x != u8::MAX && b.sides(x as usize) == 3)
                    })
                    .or_else(|| b.legal_edges().next())
                    .unwrap();
                b.play(e).unwrap();
                list.push_str(&format_edge(&geo, e));
                n += 1;
            }
            p.send(&format!("move {n} {list}"));
            if b.is_over() {
                break;
            }
            let a = p.read();
            long_turns += (a.split(' ').nth(1) != Some("1")) as usize;
            engine_turn(&mut b, me, &a);
        }
        p.send_silent("end black");
    }
    assert!(
        long_turns > 0,
        "no engine turn with a capture was exercised"
    );
    p.send("quit");
    assert!(p.child.wait().unwrap().success());
}
