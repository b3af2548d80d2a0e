//! Sabaki's own GTP client library (npm `@sabaki/gtp`) drives `quartet go` through
//! `lz-analyze` and `kata-analyze` and parses the streams as Sabaki does
//! (tests/sabaki/analysis.js). Needs node and the package (`npm install` in tests/sabaki;
//! `.ci/run` does it): without them the test skips with a message, or fails under CI
//! (tests/common/oracle.rs).
use std::path::Path;
use std::process::Command;

mod common;

#[test]
fn sabaki_parses_the_analysis_streams() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sabaki");
    if !common::oracle::sabaki_gtp(&dir) {
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
