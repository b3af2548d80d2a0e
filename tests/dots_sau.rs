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

/// Issue 20, defect 4: each `error` takes back the refused turn and answers a different
/// first edge; on 1x1 after all four edges were refused there is nothing left to offer.
#[test]
fn error_never_replays_a_refused_edge() {
    let mut p = Platform::start(&["--boardsize", "1x1"]);
    p.send("new black");
    let geo = Board::new(1, 1).unwrap().geometry().clone();
    let mut refused = Vec::new();
    let first = p.read();
    refused.push(first);
    for _ in 0..3 {
        p.send("error");
        let again = p.read();
        assert!(
            !refused.contains(&again),
            "{again} replayed after {refused:?}"
        );
        let kij = again.split(' ').nth(2).unwrap();
        assert!(parse_edge(&geo, kij.as_bytes()).is_some(), "{again}");
        refused.push(again);
    }
    p.send_silent("error");
    p.send("quit");
    assert!(p.child.wait().unwrap().success());
}

/// Issue 20, defect 5 (SAU half): a line of megabytes is dropped with a short warning;
/// stderr never receives a whole line or a raw control byte; the engine keeps answering.
#[test]
fn huge_lines_and_control_bytes_stay_out_of_the_log() {
    let log = std::env::temp_dir().join(format!("quartet-sau-log-{}", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(["dots", "--protocol", "sau"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("start quartet");
    let mut to = child.stdin.take().unwrap();
    let mut from = BufReader::new(child.stdout.take().unwrap());
    let mut huge = b"move 1 \x1b[2J".to_vec();
    huge.resize(3 << 20, b'A');
    huge.push(b'\n');
    to.write_all(&huge).unwrap();
    to.write_all(b"\x07\x1b]0;title\x07 x\nnew pink\x1b[31m\nname?\n")
        .unwrap();
    to.flush().unwrap();
    let mut answer = String::new();
    from.read_line(&mut answer).unwrap();
    assert_eq!(answer, "name quartet\n");
    to.write_all(b"quit\n").unwrap();
    assert!(child.wait().unwrap().success());
    let err = std::fs::read(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    assert!(err.len() < 4096, "stderr holds {} bytes", err.len());
    let raw = err
        .iter()
        .filter(|&&b| b < 0x20 && b != b'\n' && b != b'\t')
        .count();
    assert_eq!(
        raw,
        0,
        "raw control bytes on stderr: {}",
        String::from_utf8_lossy(&err)
    );
}
