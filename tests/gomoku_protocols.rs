//! `quartet gomoku` as a process, in both protocols: GTP transcripts (with the GoGui rules
//! extension and bad input) and Gomocup pbrain transcripts (CR LF, BOARD, TAKEBACK, END).
mod common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_quartet");

/// Sends `input` to `quartet gomoku <args>` and returns stdout and the exit code.
fn session(args: &[&str], input: &[u8]) -> (String, i32) {
    let all: Vec<&str> = std::iter::once("gomoku")
        .chain(args.iter().copied())
        .collect();
    common::session::run(&all, input)
}

fn gtp(input: &str) -> Vec<String> {
    let (out, code) = session(&["--move-time", "0.3"], input.as_bytes());
    assert_eq!(code, 0);
    out.split("\n\n")
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn gtp_game_to_a_five_and_the_result() {
    // Black four on row 8 (H8..L8), White's stones scattered on column A: Black to move
    // wins at G8 or M8 (the only two fives).
    let a = gtp(
        "1 name\n2 rule\n3 setboard h8 a1 j8 a3 k8 a5 l8 a7\n4 genmove b\n\
                 5 final_score\n6 genmove w\n7 play w b2\n8 undo\n9 final_score\n10 quit\n",
    );
    assert_eq!(a[0], "=1 quartet");
    assert_eq!(a[1], "=2 freestyle");
    assert_eq!(a[2], "=3");
    assert!(a[3] == "=4 G8" || a[3] == "=4 M8", "{}", a[3]);
    assert_eq!(a[4], "=5 B+");
    assert_eq!(a[5], "?6 game is over");
    assert_eq!(a[6], "?7 game is over");
    assert_eq!(a[7], "=8");
    assert_eq!(a[8], "?9 game is not over");
    assert_eq!(a[9], "=10");
}

#[test]
fn gtp_blocks_an_open_four_threat() {
    // Black has an open four H8..L8 and White to move: whatever else, White must block one
    // end (it loses anyway, but any other move loses at once).
    let a = gtp("setboard h8 a1 j8 a3 k8 a5 l8\ngenmove w\n");
    assert!(a[1] == "= G8" || a[1] == "= M8", "{}", a[1]);
}

#[test]
fn gtp_bad_input_and_unchanged_state() {
    let a = gtp("boardsize 4\nboardsize 23\nboardsize x\nboardsize 7\n\
                 play b d4\nplay w d4\nplay b pass\nplay b h1\nplay b z99\nplay red a1\nplay b\n\
                 rule foo\nsetboard a1 a1\nundo\nundo\nundo\ngenmove purple\n\
                 time_settings -1 0 0\nkomi x\nkomi 0\nshowboard\n");
    let expected = [
        "? unacceptable size",
        "? unacceptable size",
        "? syntax error",
        "=",
        "=",
        "? illegal move",
        "? illegal move (no pass in Gomoku)",
        "? illegal move",
        "? illegal move",
        "? syntax error",
        "? syntax error",
        "? unknown rule",
        "? illegal move at a1",
        "=",
        "? cannot undo",
        "? cannot undo",
        "? syntax error",
        "? syntax error",
        "? syntax error",
        "=",
    ];
    assert_eq!(&a[..expected.len()], &expected[..]);
    // setboard a1 a1 failed as a whole, so d4 was still on the board for the first undo
    // and the board is empty now.
    assert!(!a[expected.len()].contains('X'), "{}", a[expected.len()]);
}

#[test]
fn gtp_setboard_errors_name_the_bad_point() {
    let a = gtp(
        "setboard h8 z99\nsetboard h8 j9 x1x\nsetboard h8 pass\nsetboard h8 j9 h8\nshowboard\n",
    );
    assert_eq!(
        &a[..4],
        [
            "? illegal move at z99",
            "? syntax error at x1x",
            "? illegal move (no pass in Gomoku) at pass",
            "? illegal move at h8",
        ]
    );
    assert!(!a[4].contains('X'), "all or nothing: {}", a[4]);
}

#[test]
fn gtp_renju_forbidden_point_and_gogui_rules() {
    // Renju: black at G7 would make a double three (E7 F7 + G8 G9 around G7).
    let a = gtp(
        "rule renju\nsetboard e7 a1 f7 a3 g8 a5 g9 a7\nplay b g7\nplay b o15\n\
                 gogui-rules_game_id\ngogui-rules_side_to_move\ngogui-rules_final_result\n\
                 boardsize 5\ngogui-rules_board_size\nplay b c3\ngogui-rules_legal_moves\n\
                 gogui-rules_board\n",
    );
    assert_eq!(a[0], "=");
    assert_eq!(a[1], "=");
    assert_eq!(a[2], "? illegal move (forbidden point)");
    assert_eq!(a[3], "=");
    assert_eq!(a[4], "= Gomoku");
    assert_eq!(a[5], "= white");
    assert_eq!(a[6], "= unknown");
    assert_eq!(a[8], "= 5");
    let legal: Vec<&str> = a[10].trim_start_matches("= ").split(' ').collect();
    assert_eq!(legal.len(), 24);
    assert!(!legal.contains(&"C3") && legal.contains(&"A1") && legal.contains(&"E5"));
    assert_eq!(
        a[11],
        "= \n. . . . .\n. . . . .\n. . X . .\n. . . . .\n. . . . ."
    );
}

fn pbrain(input: &[u8]) -> (Vec<String>, i32) {
    let (out, code) = session(&["--pbrain"], input);
    (
        out.lines().map(|l| l.trim_end().to_string()).collect(),
        code,
    )
}

#[test]
fn pbrain_start_begin_turn_about_end() {
    let (a, code) = pbrain(
        b"START 15\nINFO timeout_turn 300\nINFO timeout_match 100000\nINFO max_memory 83886080\n\
INFO rule 0\nINFO game_type 1\nBEGIN\nTURN 8,8\nABOUT\nFOO\nEND\n",
    );
    assert_eq!(code, 0);
    assert_eq!(a[0], "OK");
    assert_eq!(a[1], "7,7", "the first move is the centre");
    let (x, y) = a[2].split_once(',').expect("a move x,y");
    let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
    assert!(x < 15 && y < 15 && (x, y) != (7, 7) && (x, y) != (8, 8));
    assert!(a[3].starts_with("name=\"quartet\""), "{}", a[3]);
    assert_eq!(a[4], "UNKNOWN");
    assert_eq!(a.len(), 5);
}

#[test]
fn pbrain_board_with_crlf_finds_the_five() {
    // Our four at x=7..10 on y=7; the opponent's four stones do not threaten: with equal
    // counts we are Black and to move; the fives are at 6,7 and 11,7.
    let (a, code) = pbrain(
        b"START 15\r\nINFO timeout_turn 500\r\nBOARD\r\n7,7,1\r\n0,0,2\r\n8,7,1\r\n0,2,2\r\n\
9,7,1\r\n0,4,2\r\n10,7,1\r\n0,6,2\r\nDONE\r\nEND\r\n",
    );
    assert_eq!(code, 0);
    assert_eq!(a[0], "OK");
    assert!(a[1] == "6,7" || a[1] == "11,7", "{}", a[1]);
    assert_eq!(a.len(), 2);
}

#[test]
fn pbrain_blocks_under_renju_and_takes_back() {
    // The opponent (first in BOARD, so Black: we are White with 3 vs 4 stones) has four on
    // y=3 from x=3..6 with 2,3 empty and 7,3 blocked by us: we must block at 2,3.
    let (a, _) = pbrain(
        b"START 15\nINFO rule 4\nINFO timeout_turn 400\nBOARD\n3,3,2\n7,3,1\n4,3,2\n14,14,1\n\
5,3,2\n14,0,1\n6,3,2\nDONE\nTAKEBACK 2,3\nTAKEBACK 9,9\nRESTART\nBEGIN\n",
    );
    assert_eq!(a[0], "OK");
    assert_eq!(a[1], "2,3");
    assert_eq!(a[2], "OK");
    assert!(a[3].starts_with("ERROR"), "{}", a[3]);
    assert_eq!(a[4], "OK");
    assert_eq!(a[5], "7,7");
}

#[test]
fn pbrain_bad_input() {
    let (a, code) = pbrain(
        b"TURN 1,1\nSTART 30\nSTART x\nRECTSTART 15,20\nRECTSTART 20,20\nTURN 20,3\nTURN 1\n\
BOARD\n1,1,7\nBOARD\n1,1,1\n1,1,2\nDONE\nBOARD\n1,1,1\n1,1,2\nDONE\nTAKEBACK 0,0\n",
    );
    assert_eq!(code, 0, "end of input ends the brain");
    let expected_prefix = [
        "ERROR", "ERROR", "ERROR", "ERROR", "OK", "ERROR", "ERROR", "ERROR", "ERROR", "ERROR",
    ];
    assert_eq!(a.len(), expected_prefix.len(), "{a:?}");
    for (got, want) in a.iter().zip(expected_prefix) {
        assert!(got.starts_with(want), "{a:?}");
    }
}

#[test]
fn pbrain_malformed_board_block_is_read_to_done_and_answered_once() {
    // Issue 20: the bad line used to end the block, and every later stone line got UNKNOWN.
    let (a, code) = pbrain(b"START 15\nBOARD\n1,1,1\n2,2,5\nfoo\n3,3,1\nDONE\nABOUT\n");
    assert_eq!(code, 0);
    assert_eq!(a.len(), 3, "{a:?}");
    assert_eq!(a[0], "OK");
    assert!(a[1].starts_with("ERROR bad BOARD line \"2,2,5\""), "{a:?}");
    assert!(a[2].starts_with("name="), "{a:?}");
}

#[test]
fn pbrain_board_before_start_is_one_error() {
    let (a, _) = pbrain(b"BOARD\n1,1,1\n2,2,2\nDONE\nTAKEBACK 1,1\nSTART 15\nTAKEBACK 99,1\n");
    assert_eq!(a.len(), 4, "{a:?}");
    assert_eq!(a[0], "ERROR BOARD before START: no game started");
    assert_eq!(a[1], "ERROR no game started", "TAKEBACK before START");
    assert_eq!(a[2], "OK");
    assert!(a[3].starts_with("ERROR bad coordinates \"99,1\""), "{a:?}");
}

#[test]
fn pbrain_board_holding_a_five_is_an_error_not_a_move() {
    // The opponent's five on y=0 (x=0..4), its last stone not the last line; then the same
    // with continuous-game stones (field 3). Each is answered with ERROR, and the brain
    // still plays a legal position afterwards.
    let (a, _) = pbrain(
        b"START 15\nINFO timeout_turn 200\nBOARD\n0,0,2\n5,5,1\n1,0,2\n6,6,1\n2,0,2\n7,8,1\n\
4,0,2\n9,9,1\n3,0,2\n10,12,1\nDONE\nBOARD\n3,3,3\n3,4,3\n3,5,3\n3,6,3\n3,7,3\nDONE\n\
BOARD\n7,7,2\nDONE\n",
    );
    assert_eq!(a.len(), 4, "{a:?}");
    assert_eq!(a[0], "OK");
    assert!(
        a[1].starts_with("ERROR the position already holds a five"),
        "{a:?}"
    );
    assert!(
        a[2].starts_with("ERROR the position already holds a five"),
        "{a:?}"
    );
    assert!(a[3].contains(','), "{a:?}");
}

#[test]
fn pbrain_bare_cr_line_ends() {
    // No END: its watchdog would race the first search on a loaded machine.
    let (a, code) = pbrain(b"START 15\rINFO timeout_turn 200\rBEGIN\rABOUT\r\nRESTART\r");
    assert_eq!(code, 0);
    assert_eq!(a.len(), 4, "{a:?}");
    assert_eq!(a[0], "OK");
    assert_eq!(a[1], "7,7");
    assert!(a[2].starts_with("name="), "{a:?}");
    assert_eq!(a[3], "OK");
}

/// The peak resident memory (`VmHWM`) of a running process, in KiB.
#[cfg(target_os = "linux")]
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/PID/status")
}

/// Starts a brain, writes `input`, waits for `answers` answer lines, and returns them with
/// the brain's peak memory; then ends it.
#[cfg(target_os = "linux")]
fn pbrain_peak_memory(input: &[u8], answers: usize) -> (Vec<String>, u64) {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(BIN)
        .args(["gomoku", "--pbrain"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start");
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
        stdin
    });
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    for _ in 0..answers {
        let mut l = String::new();
        out.read_line(&mut l).unwrap();
        lines.push(l.trim_end().to_string());
    }
    let peak = peak_rss_kib(child.id());
    let mut stdin = writer.join().unwrap();
    let _ = stdin.write_all(b"END\n");
    drop(stdin);
    assert!(child.wait().unwrap().success());
    (lines, peak)
}

#[cfg(target_os = "linux")]
#[test]
fn pbrain_caps_line_length_like_gtp() {
    // 64 MiB without a line end, then a command: one ERROR for the long line, the command
    // answered, and the brain never held the line (it used to keep it whole: 200 MB of
    // input took 461 MB).
    // max_memory keeps the tables (made while the long line streams in) small.
    let mut input = b"START 15\nINFO max_memory 8388608\n".to_vec();
    input.resize(input.len() + (64 << 20), b'7');
    input.extend_from_slice(b"\nABOUT\n");
    let (a, peak) = pbrain_peak_memory(&input, 3);
    assert_eq!(a[0], "OK");
    assert_eq!(a[1], "ERROR line longer than 1048576 bytes ignored");
    assert!(a[2].starts_with("name="), "{a:?}");
    assert!(peak < 32 << 10, "peak RSS {peak} KiB");
}

#[cfg(target_os = "linux")]
#[test]
fn pbrain_respects_max_memory() {
    // Piskvork's limit in bytes, sent after START as it does: the brain's peak resident
    // memory through two searches stays under it (it used to allocate its 64 MB table
    // at start).
    let limit = 40u64 << 20;
    let input =
        format!("START 15\nINFO max_memory {limit}\nINFO timeout_turn 300\nBEGIN\nTURN 8,8\n");
    let (a, peak) = pbrain_peak_memory(input.as_bytes(), 3);
    assert_eq!(a[0], "OK");
    assert!(a[2].contains(','), "{a:?}");
    assert!(
        peak * 1024 < limit,
        "peak RSS {peak} KiB over the {limit}-byte limit"
    );
}

#[test]
fn pbrain_end_during_a_search_exits_within_a_second() {
    let mut child = Command::new(BIN)
        .args(["gomoku", "--pbrain"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start");
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"START 15\nINFO timeout_turn 30000\nTURN 7,7\n")
        .unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    stdin.write_all(b"END\n").unwrap();
    stdin.flush().unwrap();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success());
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(1),
            "still running 1 s after END"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[cfg(unix)]
#[test]
fn started_as_pbrain_quartet_it_speaks_pbrain() {
    let dir = std::env::temp_dir().join(format!("quartet-pbrain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("pbrain-quartet");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(BIN, &link).unwrap();
    let (out, code) = common::session::run_program(&link, &[], b"START 15\nBEGIN\nEND\n");
    assert_eq!(code, 0);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out, "OK\n7,7\n");
}
