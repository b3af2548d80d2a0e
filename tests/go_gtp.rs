//! `quartet go` as a process: complete GTP transcripts, bad input, and the GoGui
//! regression file under protocols/.
mod common;

use std::path::Path;

const BIN: &str = env!("CARGO_BIN_EXE_quartet");

/// Sends `input` to `quartet go` with a fixed playout count and returns stdout and the exit code.
fn session(input: &[u8]) -> (String, i32) {
    common::session::run(&["go", "--playouts", "300", "--seed", "5"], input)
}

#[test]
fn administrative_transcript_with_ids() {
    let (out, code) =
        session(b"1 protocol_version\n2 name\n3 known_command play\nfoo\n4 quit\nname\n");
    assert_eq!(
        out,
        "=1 2\n\n=2 quartet\n\n=3 true\n\n? unknown command\n\n=4\n\n"
    );
    assert_eq!(code, 0);
}

#[test]
fn errors_use_the_spec_messages_and_leave_the_game_unchanged() {
    let input = b"boardsize 0\nboardsize 20\nboardsize x\nboardsize 9\n\
play b e5\nplay w e5\nplay b z1\nplay b k1\nplay red e4\nplay b\nundo\nundo\n\
komi abc\nkomi 6.5\ngenmove purple\nfixed_handicap 1\nfixed_handicap 10\n\
set_free_handicap a1 a1\nfinal_status_list maybe\ntime_settings -1 0 0\n\
kgs-time_settings sometimes\ntime_left b 10\n";
    let (out, code) = session(input);
    let answers: Vec<&str> = out.split("\n\n").filter(|s| !s.is_empty()).collect();
    assert_eq!(
        answers,
        [
            "? unacceptable size",
            "? unacceptable size",
            "? syntax error",
            "=",
            "=",
            "? illegal move",
            "? illegal move",
            "? illegal move",
            "? syntax error",
            "? syntax error",
            "=",
            "? cannot undo",
            "? syntax error",
            "=",
            "? syntax error",
            "? invalid number of stones",
            "? invalid number of stones",
            "? bad vertex list",
            "? syntax error",
            "? syntax error",
            "? syntax error",
            "? syntax error",
        ]
    );
    assert_eq!(code, 0, "EOF ends the engine with status 0");
}

#[test]
fn vertices_off_the_board_are_all_illegal_moves() {
    // GNU Go answers these four alike ("invalid color or coordinate"); row 0 used to be a
    // syntax error while row 99 was an illegal move (issue 20). `a05` is malformed.
    let (out, _) =
        session(b"boardsize 9\nplay b a0\nplay b z99\nplay b a10\nplay b k1\nplay b a05\n");
    let answers: Vec<&str> = out.split("\n\n").filter(|s| !s.is_empty()).collect();
    assert_eq!(
        answers,
        [
            "=",
            "? illegal move",
            "? illegal move",
            "? illegal move",
            "? illegal move",
            "? syntax error"
        ]
    );
}

#[test]
fn ko_recapture_and_superko_are_refused() {
    // Ko: black captures at D3; white may not retake at C3 at once. After two passes the
    // simple ko rule is over, but retaking would repeat a position (positional superko).
    let setup = "boardsize 5\nplay b c4\nplay w d4\nplay b b3\nplay w e3\nplay b c2\nplay w d2\n\
play b a1\nplay w c3\nplay b d3\n";
    let (out, _) = session(format!("{setup}play w c3\nplay w pass\nplay b pass\nplay w c3\nplay w e5\nplay b a5\nplay w c3\n").as_bytes());
    let answers: Vec<&str> = out.split("\n\n").filter(|s| !s.is_empty()).collect();
    assert_eq!(answers.len(), 17);
    assert!(answers[..10].iter().all(|a| *a == "="));
    assert_eq!(answers[10], "? illegal move");
    assert_eq!(&answers[11..13], ["=", "="]);
    assert_eq!(answers[13], "? illegal move");
    // After a real exchange elsewhere the position is new and the recapture is fine.
    assert_eq!(&answers[14..], ["=", "=", "="]);
}

#[test]
fn genmove_plays_legal_moves_until_the_game_ends() {
    // A 5x5 self-play game through genmove must end with two passes (or a resignation)
    // without an illegal move; every move is replayed through `play` on a second engine.
    let mut cmds = String::from("boardsize 5\nkomi 0.5\n");
    for i in 0..60 {
        let c = if i % 2 == 0 { "b" } else { "w" };
        cmds.push_str(&format!("genmove {c}\n"));
    }
    let (out, code) = session(cmds.as_bytes());
    assert_eq!(code, 0);
    let answers: Vec<&str> = out.split("\n\n").filter(|s| !s.is_empty()).collect();
    let moves: Vec<&str> = answers[2..]
        .iter()
        .map(|a| a.trim_start_matches("= "))
        .collect();
    assert!(moves.iter().all(|m| !m.starts_with('?')), "{moves:?}");
    let mut replay = String::from("boardsize 5\n");
    for (i, m) in moves.iter().enumerate() {
        if *m == "resign" {
            break;
        }
        let c = if i % 2 == 0 { "b" } else { "w" };
        replay.push_str(&format!("play {c} {m}\n"));
    }
    let (out2, _) = session(replay.as_bytes());
    assert!(
        !out2.contains('?'),
        "replayed moves must all be legal: {out2}"
    );
    let ended =
        moves.windows(2).any(|w| w[0] == "pass" && w[1] == "pass") || moves.contains(&"resign");
    assert!(ended, "game did not end in 60 moves: {moves:?}");
}

#[test]
fn garbage_input_never_kills_the_engine() {
    let mut input: Vec<u8> = Vec::new();
    input.extend_from_slice(b"\x00\x01\xff\xfe play b \x07e5\n");
    input.extend_from_slice(&vec![b'a'; 2 << 20]);
    input.extend_from_slice(
        b"\n\t\tname # comment\n99999999999 name\n\n#only a comment\n7 showboard x\n8 name\n",
    );
    let (out, code) = session(&input);
    assert_eq!(code, 0);
    assert!(out.ends_with("=8 quartet\n\n"), "{out}");
    assert!(out.contains("? line too long"));
}

#[test]
fn regression_file() {
    common::tst::assert_tst_file(
        Path::new("protocols/go.tst"),
        Path::new(BIN),
        &["go", "--playouts", "2000", "--seed", "1"],
    );
}

#[test]
fn printsgf_and_loadsgf_round_trip() {
    let dir = std::env::temp_dir().join(format!("quartet-sgf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("g.sgf");
    let garbage = dir.join("bad.sgf");
    std::fs::write(&garbage, "(;FF[4]SZ[9];B[zz").unwrap();
    let f = file.display();
    let input = format!(
        "boardsize 9\nkomi 6.5\nplay b e5\nplay w c3\nplay b pass\nplay w d4\nprintsgf {f}\n\
showboard\nclear_board\nloadsgf {f}\nshowboard\nloadsgf {f} 3\nshowboard\n\
loadsgf {}\nloadsgf /nonexistent/file.sgf\nprintsgf\n",
        garbage.display()
    );
    let (out, _) = session(input.as_bytes());
    let answers: Vec<&str> = out.split("\n\n").filter(|s| !s.is_empty()).collect();
    assert_eq!(answers[6], "=");
    assert_eq!(answers[9], "= black", "after 4 moves black is to move");
    // The reloaded board is the board that was saved.
    assert_eq!(answers[7], answers[10]);
    assert_eq!(
        answers[11], "= black",
        "before move 3 only two moves are played"
    );
    assert!(answers[12].contains(" 5 . . . . X . . . . 5"));
    assert!(!answers[12].contains(" 4 . . . O"));
    assert_eq!(answers[13], "? cannot load file");
    assert_eq!(answers[14], "? cannot load file");
    let sgf = answers[15];
    assert!(sgf.starts_with("= (;FF[4]GM[1]"), "{sgf}");
    for prop in ["SZ[9]", "KM[6.5]", "RU[", ";B[ee]", ";W[cg]"] {
        assert!(sgf.contains(prop), "{prop} missing in {sgf}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn two_threads_and_a_tiny_clock_still_answer_legal_moves() {
    let input = b"boardsize 9\ntime_settings 1 0 0\ngenmove b\ntime_left w 0.05 0\ngenmove w\ngenmove b\nquit\n";
    let (out, code) = common::session::run(&["go", "--threads", "2"], input);
    assert_eq!(code, 0);
    let answers: Vec<&str> = out.split("\n\n").filter(|s| !s.is_empty()).collect();
    assert_eq!(answers.len(), 7, "{out}");
    for a in [answers[2], answers[4], answers[5]] {
        let v = a.trim_start_matches("= ");
        assert!(
            quartet::protocol::coords::parse_vertex(v, 9).is_ok_and(|m| m.is_some()),
            "{a}"
        );
    }
}

#[test]
fn same_colour_twice_and_genmove_for_either_side() {
    // GTP lets a controller play one colour twice and ask either colour to move; the
    // engine's reused search tree must not be confused by it.
    let (out, code) = session(
        b"boardsize 7\ngenmove b\nplay b d4\nplay b c3\ngenmove b\ngenmove b\nplay w pass\ngenmove w\nundo\nundo\ngenmove w\n",
    );
    assert_eq!(code, 0);
    let answers: Vec<&str> = out.split("\n\n").filter(|s| !s.is_empty()).collect();
    assert_eq!(answers.len(), 11, "{out}");
    assert!(answers.iter().all(|a| a.starts_with('=')), "{out}");
}
