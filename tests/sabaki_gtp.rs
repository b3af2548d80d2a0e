//! Sabaki's own GTP client library (npm `@sabaki/gtp`) drives `quartet go` through
//! `lz-analyze` and `kata-analyze` and parses the streams as Sabaki does
//! (tests/sabaki/analysis.js). Skipped, with a message, when node or the package is
//! missing (`.ci/run` installs it with `npm install` in tests/sabaki).
use std::path::Path;
use std::process::Command;

#[test]
fn sabaki_parses_the_analysis_streams() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sabaki");
    if Command::new("node").arg("--version").output().is_err() {
        eprintln!("skipped: node is not installed");
        return;
    }
    if !dir.join("node_modules/@sabaki/gtp").exists() {
        eprintln!("skipped: run `npm install` in tests/sabaki to get @sabaki/gtp");
        return;
    }
    let out = Command::new("node")
        .arg(dir.join("analysis.js"))
        .arg(env!("CARGO_BIN_EXE_quartet"))
        .output()
        .expect("run node");
    assert!(
        out.status.success(),
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
