//! Checks the `.tst` runner of `tests/common/tst.rs` against a fake engine. This test binary
//! has no harness: run with `--fake-gtp-engine` it *is* the engine (the shared GTP server
//! over stdio); otherwise it spawns itself as the engine and runs the checks.
mod common;

use std::path::PathBuf;

use common::tst::{run_tst, run_tst_file, TstOutcome};
use quartet::protocol::{run_stdio, CommandSpec, GtpEngine, GtpError, Reply};

struct Fake;

fn echo(_: &mut Fake, args: &[String]) -> Reply {
    Ok(args.join(" "))
}
fn fail(_: &mut Fake, _: &[String]) -> Reply {
    Err(GtpError::new("no way"))
}
fn add(_: &mut Fake, args: &[String]) -> Reply {
    let nums: Result<Vec<i64>, _> = args.iter().map(|a| a.parse::<i64>()).collect();
    nums.map(|n| n.iter().sum::<i64>().to_string())
        .map_err(|_| GtpError::syntax())
}
fn lines(_: &mut Fake, _: &[String]) -> Reply {
    Ok("\nfirst\nsecond".to_string())
}

static COMMANDS: [CommandSpec<Fake>; 4] = [
    CommandSpec::new("echo", echo),
    CommandSpec::new("fail", fail),
    CommandSpec::new("add", add),
    CommandSpec::new("lines", lines),
];

impl GtpEngine for Fake {
    fn name(&self) -> &str {
        "fake"
    }
    fn version(&self) -> &str {
        "1"
    }
    fn commands() -> &'static [CommandSpec<Fake>] {
        &COMMANDS
    }
}

const PASSING: &str = "\
# comments and blank lines are skipped

1 echo hello
#? [hello]
2 echo E5
#? [E5|F5]
3 echo x
#? [!y]
4\tadd 2 3
#? [5]
5 lines
#? [first\\nsecond]
6 lines
#? [.*second]
7 fail
#? [anything]*
8 echo ok
#? [ok]*
9 echo unchecked
echo unnumbered
10 name
#? [fake]
";

const FAILING: &str = "\
11 echo a
#? [b]
12 echo x y
#? [x]
13 fail
14 echo y
#? [!y]
fail
15 add 1 x
#? [.*]
#? [orphan]
16 echo z
#? missing brackets
quit
17 echo never sent
#? [never]
";

fn main() {
    if std::env::args().any(|a| a == "--fake-gtp-engine") {
        run_stdio(Fake).expect("fake engine");
        return;
    }
    let me = std::env::current_exe().expect("current_exe");
    let args = ["--fake-gtp-engine"];

    let ok = run_tst("passing", PASSING, &me, &args, None);
    assert_eq!(ok.failures, Vec::<String>::new());
    assert_eq!(
        (ok.tests, ok.passed, ok.expected_failures),
        (9, 8, 1),
        "{ok:?}"
    );
    assert_eq!(ok.unexpected_passes.len(), 1);
    assert!(ok.unexpected_passes[0].starts_with("passing:17: `8 echo ok`"));

    let bad = run_tst("failing", FAILING, &me, &args, None);
    let lines: Vec<&str> = bad
        .failures
        .iter()
        .map(|f| f.split(':').nth(1).unwrap_or(""))
        .collect();
    // 11 and 12 mismatch, 13 fails unchecked, 14's negation matches, unnumbered `fail`,
    // 15 answers `?`, the orphan `#?` and the bracketless pattern are file errors.
    // Nothing after the file's `quit` is sent (4 tests, not 5), and the exit was clean.
    assert_eq!(
        lines,
        ["1", "3", "5", "6", "8", "9", "11", "13"],
        "{bad:#?}"
    );
    assert_eq!(bad.tests, 4);
    assert_eq!(bad.passed, 0);

    // A file on disk, started in its directory.
    let dir = std::env::temp_dir().join(format!("quartet-tst-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file: PathBuf = dir.join("mini.tst");
    std::fs::write(
        &file,
        "1 protocol_version\n#? [2]\n2 known_command add\n#? [true]\n",
    )
    .unwrap();
    let from_file = run_tst_file(&file, &me, &args);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        from_file,
        TstOutcome {
            tests: 2,
            passed: 2,
            ..TstOutcome::default()
        }
    );
    println!("tst_selftest: ok");
}
