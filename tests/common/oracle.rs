//! The external programs some tests check against (GNU Go, OpenSpiel, Sabaki's GTP
//! client), and what a test does when one is missing: under CI (`CI` set, as CI runners
//! and `.ci/run` do) it fails, saying what is missing and how to install it, so a green
//! CI run means the oracle ran; elsewhere it prints `skipped: ...` and passes.
use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether the tests run under CI: `CI` set to anything but empty, `0` or `false`.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
}

/// Reports a missing oracle: panics under CI, else prints `skipped: ...`. The test
/// returns right after when this returns.
pub fn missing(what: &str, install: &str) {
    let msg = format!("{what} is missing; install it with: {install}");
    if in_ci() {
        panic!("{msg} (CI is set, so this oracle test fails instead of skipping)");
    }
    eprintln!("skipped: {msg}");
}

/// GNU Go: `$GNUGO` if set, else `/usr/games/gnugo` (where Debian's package puts it, often
/// outside PATH), else `gnugo` on PATH. `None` (after [`missing`]) when none runs.
pub fn gnugo() -> Option<PathBuf> {
    let candidate = match std::env::var_os("GNUGO") {
        Some(p) => PathBuf::from(p),
        None if Path::new("/usr/games/gnugo").exists() => PathBuf::from("/usr/games/gnugo"),
        None => PathBuf::from("gnugo"),
    };
    let runs = Command::new(&candidate)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if runs {
        return Some(candidate);
    }
    missing(
        &format!("GNU Go ({})", candidate.display()),
        "apt-get install gnugo (or set GNUGO to its path)",
    );
    None
}

/// OpenSpiel's Python module: true when `python3 -c "import pyspiel"` works.
pub fn pyspiel() -> bool {
    let out = Command::new("python3")
        .args(["-c", "import pyspiel"])
        .output();
    match out {
        Ok(o) if o.status.success() => true,
        Ok(_) => {
            missing(
                "OpenSpiel (python3 cannot import pyspiel)",
                "python3 -m pip install open_spiel",
            );
            false
        }
        Err(_) => {
            missing(
                "python3 (needed with OpenSpiel's pyspiel module)",
                "apt-get install python3 python3-pip, then python3 -m pip install open_spiel",
            );
            false
        }
    }
}

/// Sabaki's `@sabaki/gtp` under `dir` (tests/sabaki) and node to run it.
pub fn sabaki_gtp(dir: &Path) -> bool {
    if Command::new("node").arg("--version").output().is_err() {
        missing(
            "node (Node.js, to run Sabaki's GTP client)",
            "apt-get install nodejs npm, then npm install in tests/sabaki",
        );
        return false;
    }
    if !dir.join("node_modules/@sabaki/gtp").exists() {
        missing(
            "Sabaki's @sabaki/gtp package (tests/sabaki/node_modules)",
            "cd tests/sabaki && npm install",
        );
        return false;
    }
    true
}

/// Chromium (`$CHROMIUM`, else Debian's `/usr/bin/chromium`), node, and `playwright-core`
/// under `dir` (tests/browser) to drive it. `None` (after [`missing`]) when one is absent.
pub fn browser(dir: &Path) -> Option<PathBuf> {
    let chromium = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if !chromium.exists() {
        missing(
            &format!("Chromium ({})", chromium.display()),
            "apt-get install chromium chromium-driver (or set CHROMIUM to its path)",
        );
        return None;
    }
    if Command::new("node").arg("--version").output().is_err() {
        missing(
            "node (Node.js, to run the browser test)",
            "apt-get install nodejs npm, then npm install in tests/browser",
        );
        return None;
    }
    if !dir.join("node_modules/playwright-core").exists() {
        missing(
            "playwright-core (tests/browser/node_modules)",
            "cd tests/browser && npm install",
        );
        return None;
    }
    Some(chromium)
}
