//! Property tests ("fuzzing in CI", issue 20) for every parser that reads outside input:
//! GTP framing, Go/Gomoku vertices, Othello squares and OBF boards, Dots edge names and SAU
//! edges, SGF (Go, and the game-neutral records of every game), the pbrain brain, the line splitter of every protocol, the SAU engine, openings files and
//! `--engine` specs. Each must answer every input (a value or an error) without panicking,
//! and printers and parsers must agree where both exist.
//!
//! Case counts: 256 per target, 64 for the three that run engines (pbrain, SAU, openings);
//! `QUARTET_FUZZ_SCALE=N` multiplies them (`scripts/fuzz_long.sh` runs for hours).
//! Failing inputs are saved by proptest in `tests/fuzz_parsers.proptest-regressions` and
//! replayed first on every later run.
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};
use std::time::Duration;

use quartet::color::Color;

use quartet::dots::notation::{Dot, EdgeName};
use quartet::dots::player::Player as DotsPlayer;
use quartet::dots::sau::{format_edge, parse_edge, SauEngine, SauFlow};
use quartet::dots::Geometry;
use quartet::go::sgf::parse_sgf;
use quartet::gomoku::board::Rule;
use quartet::gomoku::pbrain::Brain;
use quartet::gomoku::search::SearchConfig;
use quartet::matches::go_referee::GoReferee;
use quartet::matches::gomoku_referee::GomokuReferee;
use quartet::matches::othello_referee::OthelloReferee;
use quartet::matches::schedule::parse_openings;
use quartet::othello::bitboard::{parse_square, square_name};
use quartet::othello::board::Board as OthelloBoard;
use quartet::othello::ggf::GgfGame;
use quartet::protocol::coords::{format_vertex, parse_vertex};
use quartet::protocol::framing::{leading_id, parse_line};
use quartet::protocol::lines::{Line, LineEnds, LineSplitter, PREFIX_KEEP};
use quartet::record::sgf::SgfRecord;
use quartet::search::time::TimeSettings;

/// `default` cases, times `QUARTET_FUZZ_SCALE` when set (long runs).
fn cases(default: u32) -> Config {
    let scale: u32 = std::env::var("QUARTET_FUZZ_SCALE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    Config {
        cases: default.saturating_mul(scale.max(1)),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..Config::default()
    }
}

/// Raw bytes, biased towards the bytes protocols care about.
fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            4 => any::<u8>(),
            4 => prop::sample::select(b" \t\r\n#,-=0123456789abxyzABXYZ;[]()".to_vec()),
        ],
        0..max,
    )
}

/// Text made of protocol-looking words and a little garbage.
fn words(vocab: &'static [&'static str], max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            6 => prop::sample::select(vocab).prop_map(str::to_string),
            1 => "[ -~]{0,6}",
            1 => any::<char>().prop_map(|c| c.to_string()),
        ],
        0..max,
    )
    .prop_map(|w| w.concat())
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn gtp_framing_answers_every_line_and_round_trips(raw in bytes(120)) {
        let _ = leading_id(&raw);
        if let Some(Ok(cmd)) = parse_line(&raw) {
            prop_assert!(!cmd.name.is_empty());
            for word in std::iter::once(&cmd.name).chain(&cmd.args) {
                prop_assert!(!word.is_empty());
                prop_assert!(!word.contains([' ', '#']) && !word.chars().any(|c| c.is_ascii_control()));
            }
            // Printed back as a controller would send it, the command parses to itself.
            let mut text = cmd.id.map(|i| format!("{i} ")).unwrap_or_default();
            text.push_str(&cmd.name);
            for a in &cmd.args {
                text.push(' ');
                text.push_str(a);
            }
            prop_assert_eq!(parse_line(text.as_bytes()), Some(Ok(cmd)));
        }
    }

    #[test]
    fn vertices_parse_on_the_board_and_round_trip(
        s in words(&["a", "A", "t", "T", "z", "i", "I", "1", "9", "0", "19", "25", "pass", "99"], 4),
        size in 1usize..=25,
        col in 0usize..25,
        row in 0usize..25,
    ) {
        match parse_vertex(&s, size) {
            Ok(Some((c, r))) => {
                prop_assert!(c < size && r < size);
                prop_assert!(format_vertex(Some((c, r))).eq_ignore_ascii_case(&s));
            }
            Ok(None) => prop_assert!(s.eq_ignore_ascii_case("pass")),
            Err(e) => prop_assert!(e.0 == "syntax error" || e.0 == "invalid coordinate", "{}", e.0),
        }
        let v = Some((col % size, row % size));
        prop_assert_eq!(parse_vertex(&format_vertex(v), size), Ok(v));
        prop_assert_eq!(parse_vertex(&format_vertex(v).to_lowercase(), size), Ok(v));
    }

    #[test]
    fn othello_squares_and_obf_boards(
        s in "[a-jA-J0-9 ]{0,3}",
        sq in 0usize..64,
        squares in "[XOxo*.\\-]{60,66}|[ -~]{0,70}",
        side in "X|O|x|o|\\*|b|w|black|white|[ -~]{0,6}",
    ) {
        if let Some(i) = parse_square(&s) {
            prop_assert!(i < 64);
            prop_assert!(square_name(i).eq_ignore_ascii_case(&s));
        }
        prop_assert_eq!(parse_square(&square_name(sq)), Some(sq));
        if let Ok((board, color)) = OthelloBoard::from_obf(&squares, &side) {
            let printed = board.to_obf(color);
            let (again, c2) = OthelloBoard::from_obf(&printed, &side).unwrap();
            prop_assert_eq!(c2, color);
            prop_assert_eq!(again.to_obf(c2), printed.clone());
            // Same squares, empty spelled '-': the printer's spelling.
            let norm: String = squares
                .chars()
                .map(|c| match c {
                    'x' | '*' | 'X' => 'X',
                    'o' | 'O' => 'O',
                    _ => '-',
                })
                .collect();
            prop_assert_eq!(printed, norm);
        }
    }

    #[test]
    fn dots_edge_names_and_sau_edges(
        s in words(&["a", "b", "i", "j", "A", "1", "2", "9", "0", "10", "-", " "], 6),
        kij in prop::collection::vec(any::<u8>(), 0..5),
        cols in 1usize..=8,
        rows in 1usize..=8,
        pick in any::<prop::sample::Index>(),
    ) {
        if let Ok(e) = s.parse::<EdgeName>() {
            let printed = e.to_string();
            let (a, b) = s.trim().split_once('-').unwrap();
            // The dots in either order.
            let same = printed.eq_ignore_ascii_case(&format!("{a}-{b}"))
                || printed.eq_ignore_ascii_case(&format!("{b}-{a}"));
            prop_assert!(same, "{} printed as {}", s, printed);
            prop_assert_eq!(printed.parse::<EdgeName>(), Ok(e));
        }
        if let Ok(d) = s.parse::<Dot>() {
            prop_assert_eq!(d.to_string().parse::<Dot>(), Ok(d));
        }
        let geo = Geometry::parse_size(&format!("{cols}x{rows}")).unwrap();
        if let Some(e) = parse_edge(&geo, &kij) {
            prop_assert!(e < geo.n_edges());
            prop_assert!(format_edge(&geo, e).as_bytes().eq_ignore_ascii_case(&kij));
        }
        let e = pick.index(geo.n_edges());
        prop_assert_eq!(parse_edge(&geo, format_edge(&geo, e).as_bytes()), Some(e));
    }

    #[test]
    fn sgf_answers_every_text_and_round_trips(
        text in words(&[
            "(", ")", ";", "(;", "GM[1]", "FF[4]", "SZ[9]", "SZ[19]", "SZ[0]", "SZ[53]", "KM[7.5]",
            "KM[x]", "HA[2]", "B[aa]", "W[bb]", "B[]", "W[tt]", "B[zz]", "AB[cc][dd]", "AW[ee]",
            "AE[cc]", "AB[aa:cc]", "PB[x]", "PW[\\]]", "RE[B+R]", "C[", "]", "\\", "b[ab]",
        ], 24),
    ) {
        if let Ok(mut game) = parse_sgf(&text) {
            let printed = game.to_sgf();
            let again = parse_sgf(&printed);
            prop_assert_eq!(again.as_ref().map(|g| g.to_sgf()), Ok(printed));
            // The writer names the rules `Chinese` when the record has none, and writes
            // all black setup stones before the white ones: setup is a set of stones.
            game.rules.get_or_insert_with(|| "Chinese".into());
            let mut again = again.map_err(|e| TestCaseError::fail(e.to_string()))?;
            let key = |&(c, p): &(Color, (usize, usize))| (c == Color::White, p);
            game.setup.sort_by_key(key);
            again.setup.sort_by_key(key);
            prop_assert_eq!(again, game);
        }
    }

    /// Any text, SGF-like or binary garbage (huge sizes, unbalanced brackets, stray
    /// escapes), gives a record or an error; a record prints and reads back the same.
    #[test]
    fn sgf_records_answer_every_text_and_round_trip(
        text in prop_oneof![
            words(&[
                "(", ")", ";", "(;", "GM[1]", "GM[2]", "GM[4]", "GM[x]", "SZ[8]", "SZ[15]",
                "SZ[52]", "SZ[53]", "SZ[99999999999999999999]", "SZ[9:9]", "SZ[9:7]", "B[ee]",
                "W[ZZ]", "B[]", "W[tt]", "AB[aa:cc]", "AE[bb]", "AW[a\\:c]", "PB[a\\]x\\\\y]",
                "PW[zwei\nZeilen ü]", "RE[B+]", "C[soft\\\nbreak]", "AP[q\\:x:1]", "[", "]",
                "\\", "b[ab]", "\u{0}", "é",
            ], 24),
            bytes(200).prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        ],
    ) {
        if let Ok(mut rec) = SgfRecord::parse(&text) {
            let printed = rec.to_sgf();
            let mut again =
                SgfRecord::parse(&printed).map_err(|e| TestCaseError::fail(e.to_string()))?;
            // The writer puts all black setup stones before the white ones.
            let key = |&(c, p): &(Color, (usize, usize))| (c == Color::White, p);
            rec.setup.sort_by_key(key);
            again.setup.sort_by_key(key);
            prop_assert_eq!(again, rec);
        }
    }

    /// A record with any names reads back the same, and every cut before its closing `)`
    /// (a file written only in part) is an error.
    #[test]
    fn sgf_records_with_any_names_and_their_truncations(
        black in any::<String>(),
        white in "[\\\\\\]\\[():;a-z \n\r]{0,12}",
        cut in any::<prop::sample::Index>(),
    ) {
        let mut rec = SgfRecord::new(4, 15);
        rec.set_info("PB", black);
        rec.set_info("PW", white);
        rec.moves = vec![(Color::Black, Some((7, 7))), (Color::White, Some((0, 14)))];
        let text = rec.to_sgf();
        prop_assert_eq!(SgfRecord::parse(&text), Ok(rec));
        let end = text.rfind(')').unwrap();
        let cut = cut.index(end + 1);
        if text.is_char_boundary(cut) {
            prop_assert!(SgfRecord::parse(&text[..cut]).is_err(), "{:?}", &text[..cut]);
        }
    }

    #[test]
    fn ggf_answers_every_text_and_round_trips(
        text in words(&[
            "(;", ";)", "(", ")", ";", "GM[Othello]", "GM[Chess]", "PC[NBoard]", "TY[8]",
            "BO[8 ---------------------------O*------*O--------------------------- *]",
            "BO[8 ---------------------------O*------*O--------------------------- O]",
            "BO[8 -]", "BO[9 x]", "B[F5]", "W[F6]", "B[d3//0.01]", "W[c5/-1.5/2]", "B[PA]",
            "W[PA]", "B[F5/x]", "W[Z9]", "B[", "]", "[", " ", "\n",
        ], 24),
    ) {
        if let Ok(game) = GgfGame::parse(&text) {
            let printed = game.to_ggf();
            let again = GgfGame::parse(&printed).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(again, game);
        }
    }

    #[test]
    fn engine_specs_answer_every_spec(
        spec in words(&[
            "name=", "cmd=", "st=", "tc=", "proto=", "gtp", "pbrain", "quartet go", "0.2",
            "-1", "1e400", "60+1", "+", " ", "=", "NaN", "inf", "x",
        ], 10),
    ) {
        let defaults = quartet::cli::match_tourney::Common {
            time_per_move: None,
            margin: Duration::from_millis(500),
            hang_timeout: Duration::from_secs(10),
            concurrency: 1,
            stderr: Default::default(),
            records: None,
            pbrain_ok: true,
        };
        if let Ok(p) = quartet::cli::match_tourney::parse_engine(&spec, &defaults, None) {
            prop_assert!(!p.command.is_empty());
            prop_assert!(!p.name.is_empty());
            prop_assert!(spec.contains("cmd="));
        }
    }

    #[test]
    fn lines_match_a_plain_split(
        raw in bytes(200),
        cap in 1usize..100,
        any_newline in any::<bool>(),
        step in 1usize..50,
    ) {
        let ends = if any_newline { LineEnds::AnyNewline } else { LineEnds::Lf };
        let mut s = LineSplitter::new(cap, ends);
        let mut got = Vec::new();
        for mut chunk in raw.chunks(step) {
            while let Some(l) = s.next_line(&mut chunk) {
                got.push(l);
            }
        }
        got.extend(s.finish());
        // The same split written differently: in pbrain mode CR LF and bare CR become LF
        // first, then the input is cut at every LF.
        let normal: Vec<u8> = if any_newline {
            let mut out = Vec::new();
            let mut i = 0;
            while i < raw.len() {
                if raw[i] == b'\r' {
                    out.push(b'\n');
                    if raw.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                } else {
                    out.push(raw[i]);
                }
                i += 1;
            }
            out
        } else {
            raw.clone()
        };
        let mut want: Vec<Line> = normal
            .split(|&b| b == b'\n')
            .map(|l| if l.len() > cap {
                Line::TooLong { prefix: l[..l.len().min(PREFIX_KEEP)].to_vec(), len: l.len() }
            } else {
                Line::Text(l.to_vec())
            })
            .collect();
        // Text after the last line end is a line only when there is some.
        if !matches!(normal.last(), Some(&b) if b != b'\n') {
            want.pop();
        }
        prop_assert_eq!(got, want);
    }
}

proptest! {
    #![proptest_config(cases(64))]

    #[test]
    fn pbrain_answers_every_command_once(
        lines in prop::collection::vec(
            prop_oneof![
                4 => prop::sample::select(&[
                    "START 15", "START 5", "START 22", "START 23", "START 0", "START -1",
                    "RECTSTART 9,9", "RECTSTART 9,10", "BEGIN", "RESTART", "BOARD", "DONE",
                    "INFO timeout_turn 0", "INFO time_left 1", "INFO rule 4", "INFO rule 1",
                    "INFO max_memory 1", "INFO timeout_match x", "ABOUT", "END?", "", "TAKEBACK 7,7",
                    "TURN 7,7", "TURN 0,0", "TURN 4,4", "TURN 21,21", "TURN 99,1", "TURN -1,2",
                    "7,7,1", "8,8,2", "9,9,3", "0,0,0", "4,4,4", "1,1", "x,y,z",
                ][..]).prop_map(str::to_string),
                2 => (0usize..24, 0usize..24).prop_map(|(x, y)| format!("TURN {x},{y}")),
                2 => (0usize..24, 0usize..24, 0u8..5).prop_map(|(x, y, f)| format!("{x},{y},{f}")),
                1 => "[ -~]{0,12}",
            ],
            0..30,
        )
    ) {
        let config = SearchConfig { tt_mb: 1, ..SearchConfig::default() };
        let mut brain = Brain::new(config, Duration::from_millis(5));
        brain.handle("INFO timeout_turn 0");
        let mut in_board = false;
        let mut size = None;
        for line in &lines {
            let answers = brain.handle(line);
            let word = line.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
            let silent = line.trim().is_empty() || word == "INFO" || (word == "BOARD" && !in_board);
            if in_board {
                // Inside BOARD ... DONE: one answer, at DONE.
                let done = line.trim().eq_ignore_ascii_case("DONE");
                prop_assert_eq!(answers.len(), usize::from(done), "{:?} -> {:?}", line, answers);
                in_board = !done;
            } else if silent {
                prop_assert!(answers.is_empty(), "{:?} -> {:?}", line, answers);
                in_board = word == "BOARD";
            } else {
                prop_assert_eq!(answers.len(), 1, "{:?} -> {:?}", line, answers);
            }
            if answers.first().is_some_and(|a| a == "OK") && (word == "START" || word == "RECTSTART") {
                let rest = line.trim()[word.len()..].trim();
                size = rest.split(',').next().and_then(|n| n.trim().parse::<usize>().ok());
            }
            for a in &answers {
                let ok = a == "OK" || a == "UNKNOWN" || a.starts_with("ERROR ")
                    || a.starts_with("name=") || a.split_once(',').is_some_and(|(x, y)| {
                        let n = size.unwrap_or(0);
                        x.parse::<usize>().is_ok_and(|x| x < n) && y.parse::<usize>().is_ok_and(|y| y < n)
                    });
                prop_assert!(ok, "{:?} -> {:?}", line, a);
            }
        }
    }

    #[test]
    fn sau_answers_every_line(
        lines in prop::collection::vec(
            prop_oneof![
                3 => prop::sample::select(&[
                    "name?", "new black", "new white", "new", "error", "end", "end black",
                    "move 1 AAA", "move 1 BAA", "move 2 AAAAAB", "move 1 ZZZ", "move x AAA",
                    "move 1", "", "quit?",
                ][..]).prop_map(str::to_string),
                2 => ("[ABab]", "[A-Fa-g]", "[A-Fa-g]").prop_map(|(k, i, j)| format!("move 1 {k}{i}{j}")),
                1 => "[ -~]{0,14}",
            ],
            0..20,
        )
    ) {
        let geo = Geometry::parse_size("3x3").unwrap();
        let mut sau = SauEngine::new(
            geo.clone(),
            DotsPlayer::greedy(7),
            TimeSettings::with_move_time(Duration::from_millis(5)),
        );
        for line in &lines {
            match sau.handle(line) {
                SauFlow::Quit => break,
                SauFlow::Reply(out) => {
                    for a in out {
                        prop_assert!(a.starts_with("name ") || a.starts_with("move "), "{:?} -> {:?}", line, a);
                        if let Some(rest) = a.strip_prefix("move ") {
                            let (_, edges) = rest.split_once(' ').unwrap_or((rest, ""));
                            for e in edges.as_bytes().chunks(3) {
                                prop_assert!(parse_edge(&geo, e).is_some(), "{:?}", a);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn openings_files_answer_every_text_and_round_trip(
        text in words(&[
            "\n", "# c\n", " ", ",", "\t", "h8", "H8", "j9", "a1", "o15", "p16", "h8 h8", "pass",
            "d3", "c4", "f5", "e6", "x",
        ], 16),
    ) {
        let check = |openings: &Vec<Vec<String>>, again: Result<Vec<Vec<String>>, String>| {
            let again = again.map_err(TestCaseError::fail)?;
            prop_assert_eq!(&again, openings);
            Ok(())
        };
        // A line of separators alone is an empty opening (the game from its start).
        let print = |o: &Vec<Vec<String>>| {
            o.iter()
                .map(|m| if m.is_empty() { ",".into() } else { m.join(" ") })
                .collect::<Vec<_>>()
                .join("\n")
        };
        let gomoku = || GomokuReferee::new(15, Rule::Freestyle, &[]).unwrap();
        if let Ok(o) = parse_openings(&text, gomoku) {
            check(&o, parse_openings(&print(&o), gomoku))?;
        }
        let othello = OthelloReferee::new;
        if let Ok(o) = parse_openings(&text, othello) {
            check(&o, parse_openings(&print(&o), othello))?;
        }
        let go = || GoReferee::new(19, 7.5).unwrap();
        if let Ok(o) = parse_openings(&text, go) {
            check(&o, parse_openings(&print(&o), go))?;
        }
    }
}
