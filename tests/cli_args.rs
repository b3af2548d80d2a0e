//! Bad command lines end with a message naming the option and exit status 2, before any
//! protocol starts (issue 20, defects 6, 7 and 10): negative numbers, `--log-level foo`,
//! `--concurrency 0`, a `--hash-mb` beyond the machine's memory, `--weights /dev/zero`.
mod common;

use common::cli::{fails_with, too_much_mb};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_quartet");

/// Runs `quartet <args>` with empty input; returns its status code and stderr.
fn run(args: &[&str]) -> (Option<i32>, String) {
    let (code, _, err) = common::cli::run(args, "");
    (code, err)
}

#[test]
fn negative_numbers_reach_the_options_own_checks() {
    // clap used to answer "unexpected argument '-1'" without naming the option.
    fails_with(&["go", "--seed", "-1"], "'--seed <SEED>'");
    fails_with(&["go", "--seed", "-1"], "invalid value '-1'");
    fails_with(&["go", "--resign-threshold", "-0.5"], "--resign-threshold");
    fails_with(&["go", "--move-time", "-2"], "--move-time must be in");
    fails_with(&["gomoku", "--width", "-3"], "'--width <WIDTH>'");
    fails_with(&["othello", "--hash-mb", "-64"], "'--hash-mb <HASH_MB>'");
    fails_with(&["dots", "--seed", "-7"], "'--seed <SEED>'");
}

#[test]
fn log_levels_that_are_not_levels_are_refused() {
    for args in [
        &["go", "--log-level", "foo"][..],
        &["othello", "--log-level", "loud"],
        &["gomoku", "--pbrain", "--log-level", "quartet=verbose"],
        &["dots", "--log-level", ""],
    ] {
        fails_with(args, "bad --log-level");
    }
    // A real filter is accepted: the engine starts and ends at EOF.
    let (code, err) = run(&["go", "--log-level", "quartet=debug,warn"]);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn concurrency_zero_is_refused() {
    fails_with(
        &[
            "match",
            "go",
            "--engine",
            "cmd=x",
            "--engine",
            "cmd=y",
            "--concurrency",
            "0",
        ],
        "'--concurrency <CONCURRENCY>'",
    );
}

#[test]
fn hash_sizes_beyond_memory_fail_with_a_message() {
    // These used to end in "memory allocation of ... failed" and SIGABRT.
    let mb = too_much_mb();
    fails_with(&["othello", "--hash-mb", &mb], "--hash-mb");
    fails_with(&["othello", "--hash-mb", &mb], "memory");
    fails_with(&["gomoku", "--hash-mb", &mb], "memory");
    fails_with(&["gomoku", "--pbrain", "--hash-mb", &mb], "memory");
    fails_with(&["bench", "othello", "depth", "--hash-mb", &mb], "memory");
    fails_with(&["othello", "--hash-mb", "65537"], "between 1 and 65536");
    fails_with(&["gomoku", "--hash-mb", "0"], "between 1 and 65536");
}

#[test]
fn gomoku_threads_are_checked() {
    for args in [
        &["gomoku", "--threads", "0"][..],
        &["gomoku", "--pbrain", "--threads", "257"],
        &["bench", "gomoku", "depth", "--threads", "1,0"],
        &["bench", "gomoku", "nps", "--threads", "300"],
    ] {
        fails_with(args, "--threads must be between 1 and 256");
    }
}

#[test]
fn othello_depth_bench_checks_its_options_and_compares_thread_counts() {
    fails_with(
        &["bench", "othello", "depth", "--threads", "1,0"],
        "--threads must be between 1 and 256",
    );
    fails_with(
        &["bench", "othello", "depth", "--depth", "31"],
        "--depth must be between 1 and 30",
    );
    fails_with(
        &[
            "bench",
            "othello",
            "depth",
            "--depth",
            "4",
            "--positions",
            "9",
        ],
        "--positions must be between 1 and 8",
    );
    let (code, out, err) = common::cli::run(
        &[
            "bench",
            "othello",
            "depth",
            "--depth",
            "4",
            "--positions",
            "2",
            "--threads",
            "1,2",
            "--hash-mb",
            "4",
        ],
        "",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("depth 4 on 2 positions, 1 threads")
            && out.contains("depth 4 on 2 positions, 2 threads")
            && out.contains("2 thread(s): depth 4 in"),
        "{out}"
    );
}

#[cfg(unix)]
#[test]
fn an_endless_weights_file_is_refused_at_its_size_cap() {
    // It used to read /dev/zero until the memory ran out (10.9 GB).
    fails_with(
        &["othello", "--weights", "/dev/zero"],
        "/dev/zero: larger than 16 MiB",
    );
}

#[test]
fn othello_probcut_selectivity_is_checked() {
    fails_with(
        &["othello", "--probcut", "10.5"],
        "--probcut must be between 0 (off) and 10",
    );
    fails_with(&["othello", "--probcut", "-1"], "--probcut");
    fails_with(
        &["othello", "--probcut", "NaN"],
        "--probcut must be between",
    );
}

#[test]
fn book_and_learn_options_are_checked_before_anything_runs() {
    fails_with(
        &["othello", "--book-visits", "0"],
        "--book-visits must be at least 1",
    );
    fails_with(
        &["othello", "--book", "/nonexistent/b.book"],
        "/nonexistent/b.book",
    );
    fails_with(
        &["othello", "learn", "--games", "1", "--base-time", "0"],
        "--base-time must be in (0, 3600] seconds",
    );
    #[cfg(unix)]
    fails_with(
        &["othello", "--book", "/dev/zero"],
        "/dev/zero: larger than 64 MiB",
    );
}

#[test]
fn othello_eval_names_a_built_in_evaluation_or_none_with_weights() {
    fails_with(&["othello", "--eval", "quadratic"], "'--eval <EVAL>'");
    fails_with(
        &[
            "othello",
            "--eval",
            "linear",
            "--weights",
            "data/othello/weights.txt",
        ],
        "cannot be used with",
    );
    for eval in ["pattern", "linear"] {
        let (code, err) = run(&["othello", "--eval", eval]);
        assert_eq!(code, Some(0), "{eval}: {err}");
    }
}

#[test]
fn go_priors_name_a_model_and_bad_weights_files_name_the_line() {
    fails_with(&["go", "--priors", "bogus"], "--priors");
    let path = std::env::temp_dir().join(format!("quartet-mm-bad-{}.txt", std::process::id()));
    std::fs::write(&path, "quartet-go-mm 1\ncapture 1 -3\n").unwrap();
    let p = path.to_str().unwrap();
    fails_with(&["go", "--priors", "mm", "--mm-weights", p], "line 2");
    std::fs::remove_file(&path).unwrap();
    fails_with(&["go", "--mm-norm", "bogus"], "--mm-norm");
    fails_with(&["go", "--nakade", "1.5"], "--nakade must be in [0, 1]");
    // The built-in weights load and the engine plays with them, and so does the Pachi
    // fit with its probabilities scaled over all candidates and the nakade stage on.
    let v3 = concat!(env!("CARGO_MANIFEST_DIR"), "/data/go/mm-v3.txt");
    let runs: [&[&str]; 2] = [
        &["go", "--priors", "mm", "--playouts", "200"],
        &[
            "go",
            "--priors",
            "mm-replace",
            "--mm-weights",
            v3,
            "--mm-norm",
            "sum",
            "--mm-weight",
            "200",
            "--nakade",
            "0.8",
            "--playouts",
            "200",
        ],
    ];
    for args in runs {
        let (code, text, _) = common::cli::run(args, "boardsize 9\nclear_board\ngenmove b\nquit\n");
        assert_eq!(code, Some(0), "{args:?}: {text}");
        let answers: Vec<&str> = text.split("\n\n").filter(|s| !s.is_empty()).collect();
        assert!(
            answers[2].starts_with("= ") && answers[2].len() > 2,
            "{args:?}: {text}"
        );
    }
}

#[test]
fn a_diamond_model_fitted_by_train_go_mm_loads_in_the_engine_and_the_bench() {
    let dir = std::env::temp_dir().join(format!("quartet-mm-v2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("games.txt");
    std::fs::write(
        &games,
        "size 9 komi 7 random 1 level 0 moves E5 C3 G7 C7 G3 D5 F5 pass pass\n\
         size 9 komi 7 random 2 level 0 moves C3 G7 E5 E3 D3 F4 pass pass\n\
         size 9 komi 7 random 1 level 0 moves D4 F6 F4 D6 E5 pass pass\n",
    )
    .unwrap();
    let weights = dir.join("w.txt");
    let (g, w) = (games.to_str().unwrap(), weights.to_str().unwrap());
    let (code, err) = run(&[
        "train",
        "go",
        "mm",
        "--games",
        g,
        "--iterations",
        "2",
        "--holdout-every",
        "3",
        "--diamond-min",
        "1",
        "--out",
        w,
    ]);
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(&weights).unwrap();
    assert!(text.starts_with("quartet-go-mm 2\n"), "{text}");
    assert!(text.contains("\ndiamond 0x"), "{text}");
    let (code, stdout, _) = common::cli::run(
        &["go", "--mm-weights", w, "--playouts", "100"],
        "boardsize 9\nclear_board\ngenmove b\nquit\n",
    );
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout
            .split("\n\n")
            .nth(2)
            .is_some_and(|a| a.starts_with("= ") && a.len() > 2),
        "{stdout}"
    );
    // The search bench takes the same priors, and names bad ones.
    let (code, err) = run(&[
        "bench",
        "go",
        "--threads",
        "1",
        "--seconds",
        "0.2",
        "--mm-weights",
        w,
    ]);
    assert_eq!(code, Some(0), "{err}");
    fails_with(
        &["bench", "go", "--threads", "1", "--priors", "bogus"],
        "--priors",
    );
    std::fs::write(&weights, "quartet-go-mm 2\n\ndiamond 0x000010 2.0\n").unwrap();
    fails_with(&["go", "--mm-weights", w], "line 3");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `quartet <path> --help` for every subcommand path, depth first.
fn all_helps(path: &mut Vec<String>, out: &mut Vec<(String, String)>) {
    let o = Command::new(BIN)
        .args(path.iter())
        .arg("--help")
        .output()
        .expect("start quartet");
    assert!(o.status.success(), "{path:?}");
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let subs: Vec<String> = text
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.strip_prefix("  ")?.split_whitespace().next())
        .filter(|s| *s != "help")
        .map(str::to_string)
        .collect();
    out.push((path.join(" "), text));
    for s in subs {
        path.push(s);
        all_helps(path, out);
        path.pop();
    }
}

#[test]
fn help_texts_say_what_options_do_not_what_they_measured() {
    let mut helps = Vec::new();
    all_helps(&mut Vec::new(), &mut helps);
    let names: Vec<&str> = helps.iter().map(|(p, _)| p.as_str()).collect();
    // The training commands the documentation names.
    for want in [
        "train go mm",
        "train othello linear",
        "train othello patterns",
        "train othello selfplay",
        "train othello relabel",
        "train othello book",
        "train othello probcut",
        "train othello eval-error",
        "train gomoku selfplay",
        "train gomoku fit",
        "othello learn",
        "bench othello ffo",
        "bench othello signature",
    ] {
        assert!(names.contains(&want), "no `quartet {want}` in {names:?}");
    }
    let measured = regex::Regex::new(
        r"\d\s*Elo\b|(?i:\bsession\s+\d)|\b20\d\d-\d\d-\d\d\b|\b\d+(\.\d+)?% (against|better|worse)",
    )
    .unwrap();
    for (path, text) in &helps {
        if let Some(m) = measured.find(text) {
            panic!(
                "`quartet {path} --help` states a measurement: {:?}",
                m.as_str()
            );
        }
    }
}

#[test]
fn go_network_options_are_checked() {
    fails_with(&["go", "--policy-only"], "--policy-only needs --net");
    fails_with(
        &["go", "--net", "/nonexistent/net.bin"],
        "/nonexistent/net.bin",
    );
    fails_with(
        &["go", "--net", "Cargo.toml"],
        "not a quartet Go network file",
    );
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/data/go/net-v1.bin");
    fails_with(
        &["go", "--net", net, "--net-weight", "5000"],
        "--net-weight",
    );
    fails_with(
        &["bench", "go", "--net", "/nonexistent/net.bin"],
        "/nonexistent/net.bin",
    );
    // The network alone answers at once with a legal move.
    let (code, out, err) = common::cli::run(
        &["go", "--net", net, "--policy-only"],
        "boardsize 9\nclear_board\nplay b E5\ngenmove w\nquit\n",
    );
    assert_eq!(code, Some(0), "{err}");
    let answer = out.lines().filter(|l| l.starts_with('=')).nth(3).unwrap();
    let mv = answer.trim_start_matches("= ").trim();
    assert!(mv.len() == 2 && mv != "E5", "{out}");
}
