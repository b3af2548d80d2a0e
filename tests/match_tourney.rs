//! The general form of `quartet match` end to end, through the real binary: a full match
//! between two instances of our Go engine, shards merged into the single-run table, engines
//! that die, sudden-death clocks, and an SPRT that stops the match.
use quartet::go::sgf::parse_sgf;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const QUARTET: &str = env!("CARGO_BIN_EXE_quartet");

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quartet-tourney-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn fake(name: &str, mode: &str, seed: u64, extra: &str) -> String {
    format!("name={name} {extra} cmd={QUARTET} fake-gtp --mode {mode} --seed {seed} --delay-ms 300")
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

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// The `g` lines of a results file: (index, black, white, result, reason, moves).
fn games(dir: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(dir.join("results.tsv"))
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("g\t"))
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// Two instances of our engine (50 playouts a move) play one round on 9x9 with the first
/// line of the shipped opening file: two games, colours swapped, both recorded as SGF that
/// our reader replays, neither lost by a fault.
#[test]
fn own_go_engine_plays_a_two_game_match() {
    let dir = temp_dir("own");
    let engine = |name: &str, seed: u32| {
        format!("name={name} cmd={QUARTET} go --playouts 50 --seed {seed} --threads 1")
    };
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/openings/go9.txt");
    let json = dir.join("r.json");
    let out = quartet(&[
        "match",
        "go",
        "--boardsize",
        "9",
        "--komi",
        "7",
        "--engine",
        &engine("a", 1),
        "--engine",
        &engine("b", 2),
        "--openings",
        openings,
        "--time-per-move",
        "10",
        "--max-moves",
        "200",
        "--out",
        dir.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    let table = stdout(&out);
    assert!(table.contains("2 of 2 games"), "{table}");
    let g = games(&dir);
    assert_eq!(g.len(), 2);
    assert_eq!((g[0][4].as_str(), g[0][5].as_str()), ("0", "1"));
    assert_eq!((g[1][4].as_str(), g[1][5].as_str()), ("1", "0"));
    for line in &g {
        assert!(
            matches!(line[7].as_str(), "score" | "resign"),
            "a fault decided a game: {line:?}"
        );
        let n: usize = line[1].parse().unwrap();
        let sgf =
            std::fs::read_to_string(dir.join(format!("records/game-{:05}.sgf", n + 1))).unwrap();
        let rec = parse_sgf(&sgf).unwrap();
        assert_eq!(rec.size, 9);
        assert_eq!(rec.result.as_deref(), Some(line[6].as_str()));
        // The opening's first move (E5) is the record's first move.
        assert_eq!(rec.moves[0], (quartet::color::Color::Black, Some((4, 4))));
        rec.to_game(None).expect("every recorded move is legal");
    }
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(j["total_games"], 2);
    assert_eq!(j["games_played"], 2);
    let names: Vec<_> = j["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a", "b"]);
    for (line, game) in g.iter().zip(j["games"].as_array().unwrap()) {
        let n: u64 = line[1].parse().unwrap();
        assert_eq!(game["game"], n + 1);
        assert_eq!(game["result"].as_str(), Some(line[6].as_str()));
        assert_eq!(game["moves"].as_u64(), Some(line[8].parse().unwrap()));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Three engines, round robin, two rounds of generated openings: the run split into three
/// shards and merged prints exactly the single run's table and JSON, and the shards hold
/// disjoint games that add up to the schedule.
#[test]
fn shards_merge_to_the_single_run_table() {
    let dir = temp_dir("shards");
    let engines = [
        fake("r1", "random", 1, ""),
        fake("r2", "random", 2, ""),
        fake("r3", "random", 3, ""),
    ];
    let run = |extra: &[&str]| {
        let mut args = vec!["match", "go", "--boardsize", "5", "--komi", "0.5"];
        for e in &engines {
            args.extend(["--engine", e.as_str()]);
        }
        args.extend(["--rounds", "3", "--random-openings", "2", "--seed", "7"]);
        args.extend(["--concurrency", "2"]);
        args.extend(extra);
        quartet(&args)
    };
    let all = dir.join("all");
    let single = run(&[
        "--out",
        all.to_str().unwrap(),
        "--json",
        dir.join("all.json").to_str().unwrap(),
    ]);
    let single_table = stdout(&single);
    assert!(single_table.contains("18 of 18 games"), "{single_table}");
    let mut shard_dirs = Vec::new();
    let mut total = 0;
    for i in 1..=3 {
        let d = dir.join(format!("s{i}"));
        run(&["--shard", &format!("{i}/3"), "--out", d.to_str().unwrap()]);
        total += games(&d).len();
        shard_dirs.push(d.to_str().unwrap().to_string());
    }
    assert_eq!(total, 18);
    // Shards in any order.
    shard_dirs.reverse();
    let merged_json = dir.join("merged.json");
    let mut args = vec!["match", "merge"];
    args.extend(shard_dirs.iter().map(String::as_str));
    args.extend(["--json", merged_json.to_str().unwrap()]);
    let merged = quartet(&args);
    assert_eq!(stdout(&merged), single_table);
    assert_eq!(
        std::fs::read_to_string(merged_json).unwrap(),
        std::fs::read_to_string(dir.join("all.json")).unwrap()
    );
    // The shards' records are numbered globally: together they are the single run's.
    let mut names: Vec<String> = shard_dirs
        .iter()
        .flat_map(|d| std::fs::read_dir(Path::new(d).join("records")).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let expected: Vec<String> = (1..=18).map(|i| format!("game-{i:05}.sgf")).collect();
    assert_eq!(names, expected);
    // A shard given twice is refused.
    let twice = Command::new(QUARTET)
        .args(["match", "merge", &shard_dirs[0], &shard_dirs[0]])
        .output()
        .unwrap();
    assert!(!twice.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine that dies at its first genmove loses every game it plays by failure; it is
/// started again for each game and the other pairing is unaffected.
#[test]
fn dead_engine_loses_and_the_tournament_goes_on() {
    let dir = temp_dir("die");
    quartet(&[
        "match",
        "go",
        "--boardsize",
        "5",
        "--engine",
        &fake("r1", "random", 1, ""),
        "--engine",
        &fake("dies", "die", 2, ""),
        "--engine",
        &fake("r3", "random", 3, ""),
        "--out",
        dir.to_str().unwrap(),
    ]);
    let g = games(&dir);
    assert_eq!(g.len(), 6);
    for line in &g {
        let dies_plays = line[4] == "1" || line[5] == "1";
        if dies_plays {
            assert_eq!(line[7], "failure", "{line:?}");
            let winner_is_black = line[6].starts_with("B+");
            assert_eq!(
                winner_is_black,
                line[5] == "1",
                "the dead engine lost: {line:?}"
            );
        } else {
            assert!(matches!(line[7].as_str(), "score" | "resign"), "{line:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Sudden death: an engine taking 0.3 s a move with 1 s for the game and no increment runs
/// out on its fourth move; with a 0.5 s increment the same engine never does (the move cap
/// of 12 ends those games, scored by our rules).
#[test]
fn sudden_death_clock_with_and_without_increment() {
    for (tc, expect_time_loss) in [("1+0", true), ("1+0.5", false)] {
        let dir = temp_dir(&format!("tc{expect_time_loss}"));
        let slow = fake("slow", "slow", 1, &format!("tc={tc}"));
        quartet(&[
            "match",
            "go",
            "--boardsize",
            "5",
            "--engine",
            &slow,
            "--engine",
            &fake("quick", "random", 2, ""),
            "--time-margin",
            "0.1",
            "--max-moves",
            "12",
            "--concurrency",
            "2",
            "--out",
            dir.to_str().unwrap(),
        ]);
        for line in games(&dir) {
            let slow_black = line[4] == "0";
            if expect_time_loss {
                assert_eq!(line[7], "time", "{line:?}");
                assert_eq!(line[6], if slow_black { "W+T" } else { "B+T" });
                let moves: usize = line[8].parse().unwrap();
                assert!((6..=7).contains(&moves), "fourth slow move: {line:?}");
            } else {
                assert_ne!(line[7], "time", "{line:?}");
                assert_eq!(line[8], "12", "{line:?}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// SPRT(0, 10): a random engine against one that always plays an illegal second move wins
/// every pair; the test may decide from the tenth complete pair on, accepts H1 there, and
/// the match of 100 rounds stops after 20 games.
#[test]
fn sprt_stops_the_match() {
    let out = quartet(&[
        "match",
        "go",
        "--boardsize",
        "5",
        "--engine",
        &fake("good", "random", 1, ""),
        "--engine",
        &fake("bad", "illegal", 2, ""),
        "--rounds",
        "100",
        "--sprt",
        "elo0=0",
        "elo1=10",
        "alpha=0.05",
        "beta=0.05",
    ]);
    let table = stdout(&out);
    assert!(table.contains("20 of 200 games"), "{table}");
    assert!(table.contains("H1 accepted"), "{table}");
    let progress = String::from_utf8_lossy(&out.stderr);
    assert!(progress.contains("LLR"), "{progress}");
}

/// Usage errors are reported, not panics.
#[test]
fn bad_arguments_are_errors() {
    for args in [
        vec!["match", "go", "--engine", "cmd=x"],
        vec!["match", "go", "--engine", "name=a", "--engine", "cmd=y"],
        vec![
            "match",
            "go",
            "--engine",
            "cmd=x",
            "--engine",
            "cmd=y",
            "--schedule",
            "swiss",
        ],
        vec![
            "match", "go", "--engine", "cmd=x", "--engine", "cmd=y", "--sprt", "elo0=5",
        ],
        vec![
            "match", "go", "--engine", "cmd=x", "--engine", "cmd=y", "--shard", "3/2", "--out",
            "/tmp/x",
        ],
        vec!["match", "merge", "/nonexistent-dir"],
    ] {
        let out = Command::new(QUARTET).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

/// Two instances of our Othello engine, one round from the shipped opening file (the Tiger,
/// five moves), adjudicated by our disc count after 24 moves: both games complete without
/// a fault, colours swapped, records are SGF GM[2] starting with the opening.
#[test]
fn own_othello_engine_plays_a_two_game_match() {
    let dir = temp_dir("othello");
    let engine =
        |name: &str| format!("name={name} cmd={QUARTET} othello --move-time 0.05 --hash-mb 4");
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/openings/othello.txt");
    let out = quartet(&[
        "match",
        "othello",
        "--engine",
        &engine("a"),
        "--engine",
        &engine("b"),
        "--openings",
        openings,
        // No time_settings: the engines keep their own 0.05 s a move (a per-move limit
        // sent with time_settings would replace it); the hang guard bounds each move.
        "--hang-timeout",
        "30",
        "--max-moves",
        "24",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let table = stdout(&out);
    assert!(
        table.contains("othello 8x8, round-robin, 1 rounds: 2 of 2 games"),
        "{table}"
    );
    let g = games(&dir);
    assert_eq!(g.len(), 2);
    for line in &g {
        assert!(matches!(line[7].as_str(), "score" | "resign"), "{line:?}");
        assert_eq!(line[8], "24", "{line:?}");
        let n: usize = line[1].parse().unwrap();
        let sgf =
            std::fs::read_to_string(dir.join(format!("records/game-{:05}.sgf", n + 1))).unwrap();
        assert!(sgf.starts_with("(;FF[4]GM[2]"), "{sgf}");
        // Tiger: f5 d6 c3 d3 c4.
        assert!(sgf.contains(";B[fe];W[df];B[cc];W[dc];B[cd]"), "{sgf}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two instances of our Dots-and-Boxes engine on 3x3 boxes (24 edges) from a two-edge
/// random opening: both games run to the full board, the box margins add up to 9 boxes,
/// and the text records list all 24 edges.
#[test]
fn own_dots_engine_plays_a_two_game_match() {
    let dir = temp_dir("dots");
    let engine = |name: &str| format!("name={name} cmd={QUARTET} dots --move-time 0.05");
    quartet(&[
        "match",
        "dots",
        "--boardsize",
        "3x3",
        "--engine",
        &engine("a"),
        "--engine",
        &engine("b"),
        "--random-openings",
        "2",
        "--hang-timeout",
        "30",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let g = games(&dir);
    assert_eq!(g.len(), 2);
    for line in &g {
        assert_eq!(line[7], "score", "{line:?}");
        assert_eq!(line[8], "24", "{line:?}");
        // 9 boxes: the margin is odd, so never a draw.
        let margin: u32 = line[6][2..].parse().unwrap();
        assert!(margin % 2 == 1 && margin <= 9, "{line:?}");
        let n: usize = line[1].parse().unwrap();
        let rec =
            std::fs::read_to_string(dir.join(format!("records/game-{:05}.dots", n + 1))).unwrap();
        assert!(
            rec.starts_with("# quartet dots record v1\nsize 3x3\n"),
            "{rec}"
        );
        let edges = rec
            .lines()
            .filter(|l| l.starts_with("B ") || l.starts_with("W "));
        assert_eq!(edges.count(), 24, "{rec}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two instances of our Gomoku engine on 9x9 freestyle from a three-stone random opening
/// in the centre: both games end by our own referee's judgement (a five, a resignation or
/// a full board), none by a fault, and the records are Gomoku SGF starting with the
/// opening's stones.
#[test]
fn own_gomoku_engine_plays_a_two_game_match() {
    let dir = temp_dir("gomoku");
    let engine = |name: &str| format!("name={name} cmd={QUARTET} gomoku --move-time 0.05");
    let out = quartet(&[
        "match",
        "gomoku",
        "--boardsize",
        "9",
        "--engine",
        &engine("a"),
        "--engine",
        &engine("b"),
        "--random-openings",
        "3",
        "--hang-timeout",
        "30",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        stdout(&out).contains("gomoku 9x9 freestyle"),
        "{}",
        stdout(&out)
    );
    let g = games(&dir);
    assert_eq!(g.len(), 2);
    for line in &g {
        assert!(
            matches!(line[7].as_str(), "score" | "resign"),
            "game must end by the rules, not a fault: {line:?}"
        );
        let n: usize = line[1].parse().unwrap();
        let sgf =
            std::fs::read_to_string(dir.join(format!("records/game-{:05}.sgf", n + 1))).unwrap();
        let rec = quartet::record::sgf::SgfRecord::parse(&sgf).unwrap();
        assert_eq!((rec.game, rec.size), (4, 9));
        assert_eq!(rec.info("RE"), Some(line[6].as_str()));
        assert_eq!(rec.moves.len(), line[8].parse::<usize>().unwrap());
        let black = if line[4] == "0" { "a" } else { "b" };
        assert_eq!(rec.info("PB"), Some(black));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Gomocup brain takes part through `proto=pbrain`: our engine in GTP mode against our
/// engine in `--pbrain` mode, from a random opening (so the brain first hears the position
/// as a BOARD, then single TURNs). Both games end by the rules, not by a fault, so every
/// brain move came back in the right place and every translated command was accepted.
#[test]
fn pbrain_engine_plays_a_two_game_match() {
    let dir = temp_dir("pbrain");
    let out = quartet(&[
        "match",
        "gomoku",
        "--boardsize",
        "9",
        "--engine",
        &format!("name=gtp cmd={QUARTET} gomoku --move-time 0.05"),
        "--engine",
        &format!("name=brain proto=pbrain cmd={QUARTET} gomoku --pbrain --move-time 0.05"),
        "--random-openings",
        "3",
        "--hang-timeout",
        "30",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let g = games(&dir);
    assert_eq!(g.len(), 2, "{}", stdout(&out));
    for line in &g {
        assert!(
            matches!(line[7].as_str(), "score" | "resign"),
            "game must end by the rules, not a fault: {line:?}"
        );
        assert!(line[8].parse::<usize>().unwrap() > 3, "{line:?}");
    }
    // proto=pbrain is refused for games without a Gomocup protocol.
    let bad = Command::new(QUARTET)
        .args([
            "match",
            "go",
            "--engine",
            "proto=pbrain cmd=x",
            "--engine",
            "cmd=y",
        ])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Resignation by agreement needs both engines: two engines that both claim `W+100` are
/// stopped after three moves as a White win by adjudication; a liar against an honest
/// engine (whose count is far from 100) plays on to the end.
#[test]
fn resign_adjudication_needs_both_engines_to_agree() {
    let run = |name: &str, a: &str, b: &str| {
        let dir = temp_dir(name);
        let fast = |n: &str, mode: &str, seed: u64| {
            format!("name={n} cmd={QUARTET} fake-gtp --mode {mode} --seed {seed}")
        };
        quartet(&[
            "match",
            "go",
            "--boardsize",
            "5",
            "--engine",
            &fast("a", a, 1),
            "--engine",
            &fast("b", b, 2),
            "--resign-moves",
            "3",
            "--resign-score",
            "50",
            "--hang-timeout",
            "30",
            "--out",
            dir.to_str().unwrap(),
        ]);
        let g = games(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        g
    };
    let agreed = run("agree", "liar", "liar");
    assert_eq!(agreed.len(), 2);
    for line in &agreed {
        assert_eq!(
            (line[6].as_str(), line[7].as_str(), line[8].as_str()),
            ("W+R", "adjudicated", "3"),
            "{line:?}"
        );
    }
    let disputed = run("dispute", "liar", "random");
    assert_eq!(disputed.len(), 2);
    for line in &disputed {
        assert_ne!(line[7], "adjudicated", "{line:?}");
        assert!(line[8].parse::<usize>().unwrap() > 3, "{line:?}");
    }
}
