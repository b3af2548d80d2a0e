//! Game records written by real matches and read back: engine names that need SGF escaping
//! (`]`, `\`, a line break, non-ASCII), through the library and through the two-engine form
//! of `quartet match go`.
//!
//! The engines are a few lines of POSIX shell that log every command and answer `genmove`
//! from a fixed list of moves per colour, so the moves a record must hold are known here,
//! not taken from the referee. The record text is checked against the SGF specification's
//! escaping rules written out by hand, read back by our reader, and (when installed) by
//! `sgfmill` from PyPI, an SGF library independent of ours.
use quartet::color::Color;
use quartet::gomoku::board::Rule;
use quartet::matches::gomoku_referee::GomokuReferee;
use quartet::matches::gtp_client::{Protocol, StderrTarget};
use quartet::matches::schedule::{schedule, ScheduleKind};
use quartet::matches::tournament::{run_tournament, Player, TournamentConfig};
use quartet::record::sgf::{SgfPoint, SgfRecord};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

const QUARTET: &str = env!("CARGO_BIN_EXE_quartet");

/// Logs each command (without its id) to `$1`; answers `genmove b` with the next word of
/// `$2` and `genmove w` with the next word of `$3`, everything else with an empty success.
const SCRIPTED: &str = r#"log=$1; black=$2; white=$3
while IFS=' ' read -r id cmd rest; do
  printf '%s %s\n' "$cmd" "$rest" >> "$log"
  case "$cmd" in
    genmove)
      case "$rest" in
        b*|B*) set -- $black; mv=$1; shift; black="$*" ;;
        *) set -- $white; mv=$1; shift; white="$*" ;;
      esac
      printf '=%s %s\n\n' "$id" "$mv" ;;
    quit) printf '=%s\n\n' "$id"; exit 0 ;;
    *) printf '=%s\n\n' "$id" ;;
  esac
done
"#;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quartet-records-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The command line of a scripted engine logging to `dir/log-TAG`.
fn scripted(dir: &Path, tag: &str, black: &str, white: &str) -> String {
    let script = dir.join("scripted.sh");
    std::fs::write(&script, SCRIPTED).unwrap();
    let log = dir.join(format!("log-{tag}"));
    format!(
        "/bin/sh {} {} '{black}' '{white}'",
        script.display(),
        log.display()
    )
}

/// Engine names a record must escape: `]` and `\`, a line break, non-ASCII, a colon.
const NAME_A: &str = "a]x\\y";
const NAME_B: &str = "zwei\nZeilen: ü 碁";
/// The same names as the SGF specification has them written (`\` before `]` and `\`; the
/// line break, the colon and UTF-8 stay as they are), worked out by hand.
const RAW_A: &str = "a\\]x\\\\y";
const RAW_B: &str = "zwei\nZeilen: ü 碁";

/// Black makes five on the fifth row of a 9x9 board while White plays up the a-file.
const GOMOKU_BLACK: &str = "e5 f5 g5 h5 j5";
const GOMOKU_WHITE: &str = "a1 a2 a3 a4";
/// Those moves as SGF points, by hand: the column letter counts from `a` with no gap (GTP's
/// J, which skips I, is the ninth column, `i`), the row letter from the top (row 5 of 9 is
/// `e`, row 1 is `i`), alternating from Black.
const GOMOKU_SGF: [&str; 9] = ["ee", "ai", "fe", "ah", "ge", "ag", "he", "af", "ie"];

fn sgf_point(letters: &str) -> SgfPoint {
    let b = letters.as_bytes();
    ((b[0] - b'a') as usize, (b[1] - b'a') as usize)
}

fn alternating(points: &[&str]) -> Vec<(Color, Option<SgfPoint>)> {
    points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let color = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            (color, (!p.is_empty()).then(|| sgf_point(p)))
        })
        .collect()
}

/// `sgfmill`'s view of a record: the root's `PB`, `PW`, `RE` (SimpleText: a line break
/// reads as a space) and the main line's moves as `colour row col` (rows from the bottom).
/// `None` when python3 or sgfmill is missing, which fails under CI (`.ci/run` installs it).
fn sgfmill_view(path: &Path) -> Option<Vec<String>> {
    const SCRIPT: &str = r#"
import sys
from sgfmill import sgf
game = sgf.Sgf_game.from_bytes(open(sys.argv[1], "rb").read())
root = game.get_root()
for prop in ("PB", "PW", "RE"):
    print(prop, root.get(prop))
for node in game.get_main_sequence()[1:]:
    colour, point = node.get_move()
    print(colour, "pass" if point is None else "%d %d" % point)
"#;
    let python = |args: &[&str]| {
        Command::new("python3")
            .args(args)
            .env("PYTHONIOENCODING", "utf-8")
            .output()
    };
    let installed = python(&["-c", "import sgfmill"]).is_ok_and(|o| o.status.success());
    if !installed {
        let why = "python3 with sgfmill is missing (pip install sgfmill)";
        assert_ne!(std::env::var("CI").as_deref(), Ok("true"), "{why}");
        eprintln!("skipped the sgfmill check: {why}");
        return None;
    }
    let out = python(&["-c", SCRIPT, path.to_str().unwrap()]).unwrap();
    assert!(
        out.status.success(),
        "sgfmill refused {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    Some(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect(),
    )
}

/// What sgfmill must print for a record with these players, result and moves on a board of
/// `size`.
fn sgfmill_expected(
    black: &str,
    white: &str,
    result: &str,
    moves: &[(Color, Option<SgfPoint>)],
    size: usize,
) -> Vec<String> {
    let simple = |s: &str| s.replace('\n', " ");
    let mut lines = vec![
        format!("PB {}", simple(black)),
        format!("PW {}", simple(white)),
        format!("RE {result}"),
    ];
    for &(c, p) in moves {
        let colour = if c == Color::Black { "b" } else { "w" };
        lines.push(match p {
            None => format!("{colour} pass"),
            Some((x, y)) => format!("{colour} {} {x}", size - 1 - y),
        });
    }
    lines
}

/// A Gomoku match through the library between two scripted engines with names that need
/// escaping: both records hold the names and the nine moves, exactly as written by hand.
#[tokio::test]
async fn gomoku_match_records_escape_names_and_read_back() {
    let dir = temp_dir("gomoku");
    let player = |name: &str, tag: &str| Player {
        name: name.to_string(),
        command: scripted(&dir, tag, GOMOKU_BLACK, GOMOKU_WHITE),
        time_per_move: None,
        clock: None,
        protocol: Protocol::Gtp,
    };
    let records = dir.join("records");
    let cfg = TournamentConfig {
        players: vec![player(NAME_A, "a"), player(NAME_B, "b")],
        games: schedule(ScheduleKind::RoundRobin, 2, 1, 0),
        openings: Vec::new(),
        concurrency: 2,
        margin: Duration::from_millis(500),
        hang_timeout: Duration::from_secs(20),
        command_timeout: Duration::from_secs(10),
        resign: None,
        record_dir: Some(records.clone()),
        record_extension: "sgf".into(),
        stderr: StderrTarget::Null,
    };
    let new_game = || GomokuReferee::new(9, Rule::Freestyle, &[]).unwrap();
    let results = run_tournament(cfg, new_game, |_| true).await.unwrap();
    assert_eq!(results.len(), 2);
    let moves = alternating(&GOMOKU_SGF);
    for r in &results {
        // Black's five ends the game: scored by our rules, one point to Black.
        assert_eq!((r.result.as_str(), r.moves), ("B+1", 9), "{r:?}");
        let (black, white, raw_black, raw_white) = if r.black == 0 {
            (NAME_A, NAME_B, RAW_A, RAW_B)
        } else {
            (NAME_B, NAME_A, RAW_B, RAW_A)
        };
        let path = records.join(format!("game-{:05}.sgf", r.index + 1));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("(;FF[4]GM[4]CA[UTF-8]"), "{text}");
        assert!(text.contains(&format!("PB[{raw_black}]")), "{text}");
        assert!(text.contains(&format!("PW[{raw_white}]")), "{text}");
        let expected_moves: String = GOMOKU_SGF
            .iter()
            .enumerate()
            .map(|(i, p)| format!(";{}[{p}]", if i % 2 == 0 { 'B' } else { 'W' }))
            .collect();
        assert!(text.contains(&expected_moves), "{text}");

        let rec = SgfRecord::parse(&text).unwrap();
        assert_eq!((rec.game, rec.size), (4, 9));
        assert_eq!(rec.info("PB"), Some(black));
        assert_eq!(rec.info("PW"), Some(white));
        assert_eq!(rec.info("RE"), Some("B+1"));
        assert_eq!(rec.info("RU"), Some("freestyle"));
        assert_eq!(rec.moves, moves);

        if let Some(view) = sgfmill_view(&path) {
            assert_eq!(view, sgfmill_expected(black, white, "B+1", &moves, 9));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn quartet(args: &[&str]) -> Output {
    let out = Command::new(QUARTET).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "quartet {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// On 5x5, Black plays C3 and both pass: by area, Black owns the board, 25 - 7.5.
const GO_BLACK: &str = "c3 pass";
const GO_WHITE: &str = "pass";

/// `quartet match go --black --white --games 3` is the tournament with two engines given
/// directly: colours alternate game by game (or stay with --fixed-colours), the odd game
/// count is kept, `--sgf-dir` gets one record per game with the escaped names, and the
/// JSON names every game's players.
#[test]
fn two_engine_form_alternates_colours_and_writes_records() {
    for fixed in [false, true] {
        let dir = temp_dir(if fixed { "fixed" } else { "alternate" });
        let sgf_dir = dir.join("sgf");
        let json = dir.join("r.json");
        let black = scripted(&dir, "one", GO_BLACK, GO_WHITE);
        let white = scripted(&dir, "two", GO_BLACK, GO_WHITE);
        let mut args = vec![
            "match",
            "go",
            "--black",
            &black,
            "--white",
            &white,
            "--black-name",
            NAME_A,
            "--white-name",
            "ü 碁",
            "--games",
            "3",
            "--boardsize",
            "5",
            "--komi",
            "7.5",
            "--sgf-dir",
            sgf_dir.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ];
        if fixed {
            args.push("--fixed-colours");
        }
        let out = quartet(&args);
        let table = String::from_utf8(out.stdout).unwrap();
        assert!(table.contains("3 of 3 games"), "{table}");
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(v["total_games"], 3);
        let schedule = if fixed {
            "fixed-colours"
        } else {
            "round-robin"
        };
        assert_eq!(v["schedule"], schedule);
        let games = v["games"].as_array().unwrap();
        assert_eq!(games.len(), 3);
        for (i, g) in games.iter().enumerate() {
            let first_is_black = fixed || i % 2 == 0;
            let (b, w) = if first_is_black {
                (NAME_A, "ü 碁")
            } else {
                ("ü 碁", NAME_A)
            };
            assert_eq!(g["game"], i + 1);
            assert_eq!(
                (g["black"].as_str(), g["white"].as_str()),
                (Some(b), Some(w))
            );
            assert_eq!(
                (g["result"].as_str(), g["moves"].as_u64()),
                (Some("B+17.5"), Some(3))
            );

            let path = sgf_dir.join(format!("game-{:05}.sgf", i + 1));
            let text = std::fs::read_to_string(&path).unwrap();
            let raw_b = if first_is_black { RAW_A } else { "ü 碁" };
            assert!(text.contains(&format!("PB[{raw_b}]")), "{text}");
            assert!(text.contains("\n;B[cc];W[];B[])"), "{text}");
            let rec = quartet::go::sgf::parse_sgf(&text).unwrap();
            assert_eq!(
                (rec.black_name.as_deref(), rec.white_name.as_deref()),
                (Some(b), Some(w))
            );
            assert_eq!(rec.result.as_deref(), Some("B+17.5"));
            // (2, 2) is C3: the same from the bottom as from the top on 5x5.
            let c3 = Some((2, 2));
            let expected = [
                (Color::Black, c3),
                (Color::White, None),
                (Color::Black, None),
            ];
            assert_eq!(rec.moves, expected);
            if let Some(view) = sgfmill_view(&path) {
                let moves = alternating(&["cc", "", ""]);
                assert_eq!(view, sgfmill_expected(b, w, "B+17.5", &moves, 5));
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The two forms do not mix, and names that `results.tsv` cannot hold are refused.
#[test]
fn two_engine_form_refuses_mixed_options() {
    for args in [
        vec![
            "match", "go", "--black", "x", "--white", "y", "--engine", "cmd=z",
        ],
        vec![
            "match", "go", "--engine", "cmd=x", "--engine", "cmd=y", "--games", "4",
        ],
        vec!["match", "go", "--black", "x"],
        vec![
            "match",
            "go",
            "--black",
            "x",
            "--white",
            "y",
            "--schedule",
            "gauntlet",
        ],
    ] {
        let out = Command::new(QUARTET).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    let two = ["match", "go", "--black", "x", "--white", "y"];
    for extra in [
        ["--black-name", "a\nb"],
        ["--games", "0"],
        ["--games", "18446744073709551615"],
        ["--rounds", "9999999999999"],
    ] {
        let out = Command::new(QUARTET)
            .args(two)
            .args(extra)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            ["--black-name", "--games", "games:"]
                .iter()
                .any(|w| err.contains(w)),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}
