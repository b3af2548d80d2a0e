//! `train othello patterns` through the real binary: a fit that starts from earlier
//! tables (`--prior`) and measures them on its held-out positions (`--compare`).
use std::process::Command;

fn quartet(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(args)
        .output()
        .expect("run quartet");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_fit_from_earlier_tables_reports_their_error_and_refuses_other_shapes() {
    let d = std::env::temp_dir().join(format!("quartet-train-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let positions = d.join("sp.txt");
    let out = d.join("p.bin");
    let (ok, _, err) = quartet(&[
        "train",
        "othello",
        "selfplay",
        "--out",
        positions.to_str().unwrap(),
        "--games",
        "3",
        "--seed",
        "5",
        "--depth",
        "1",
        "--solve-at",
        "8",
    ]);
    assert!(ok, "{err}");
    let builtin = concat!(env!("CARGO_MANIFEST_DIR"), "/data/othello/patterns.bin");
    let fit = |width: &str| {
        quartet(&[
            "train",
            "othello",
            "patterns",
            "--positions",
            positions.to_str().unwrap(),
            "--width",
            width,
            "--spread",
            "6",
            "--epochs",
            "2",
            "--prior",
            builtin,
            "--compare",
            builtin,
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let (ok, stdout, err) = fit("6");
    assert!(ok, "{err}");
    // One line per held-out set for the new fit, and one for the compared tables.
    let line = stdout
        .lines()
        .find(|l| l.starts_with("  the same ") && l.contains(builtin))
        .unwrap_or_else(|| panic!("{stdout}"));
    let n: usize = line["  the same ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(n > 0, "{line}");
    let fitted = std::fs::read(&out).unwrap();
    assert_ne!(fitted, std::fs::read(builtin).unwrap());
    // The built-in tables are 6 empties a stage: a fit of 4 cannot start from them.
    let (ok, _, err) = fit("4");
    assert!(!ok);
    assert!(
        err.contains("--prior needs pattern tables of the fit's --width and --outer"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}
