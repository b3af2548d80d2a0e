//! The split/solve-task/merge chain of `quartet bench dots` through the real binary, as the
//! docs run it on many machines: 3x3 boxes cut after two edges, set out to prove the
//! published -3, merges to -3.
use std::path::PathBuf;
use std::process::Command;

fn quartet(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(args)
        .output()
        .expect("run quartet");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn split_3x3_solve_every_task_merge_to_minus_three() {
    let dir = std::env::temp_dir().join(format!("quartet-split-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let (ok, out) = quartet(&[
        "bench", "dots", "--split", "3x3", "--depth", "2", "--expect", "-3", "--out", d,
    ]);
    assert!(ok, "{out}");
    let mut tasks: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "task"))
        .collect();
    tasks.sort();
    assert!(out.contains(&format!("{} tasks", tasks.len())), "{out}");
    let (ok, out) = quartet(&["bench", "dots", "--merge", d]);
    assert!(!ok);
    assert_eq!(
        out.lines().count(),
        tasks.len(),
        "every task is missing: {out}"
    );
    for t in &tasks {
        let (ok, out) = quartet(&["bench", "dots", "--solve-task", t.to_str().unwrap()]);
        assert!(ok, "{out}");
    }
    let (ok, out) = quartet(&["bench", "dots", "--merge", d]);
    assert!(ok, "{out}");
    assert!(out.starts_with("value -3 "), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The same chain with `--proof`: fewer tasks (only a proof tree of -3), same value.
#[test]
fn proof_split_3x3_needs_fewer_tasks_and_merges_to_minus_three() {
    let dir = std::env::temp_dir().join(format!("quartet-proof-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let split = [
        "bench", "dots", "--split", "3x3", "--depth", "2", "--expect", "-3",
    ];
    let (ok, full) = quartet(&[&split[..], &["--out", d]].concat());
    assert!(ok, "{full}");
    std::fs::remove_dir_all(&dir).unwrap();
    let (ok, proof) = quartet(&[&split[..], &["--proof", "--out", d]].concat());
    assert!(ok, "{proof}");
    let count = |s: &str| -> usize { s.split_whitespace().nth(2).unwrap().parse().unwrap() };
    assert!(count(&proof) < count(&full), "{proof} / {full}");
    for e in std::fs::read_dir(&dir).unwrap() {
        let t = e.unwrap().path();
        if t.extension().is_some_and(|x| x == "task") {
            let (ok, out) = quartet(&["bench", "dots", "--solve-task", t.to_str().unwrap()]);
            assert!(ok, "{out}");
        }
    }
    let (ok, out) = quartet(&["bench", "dots", "--merge", d]);
    assert!(ok, "{out}");
    assert!(out.starts_with("value -3 "), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// All tasks in one `--solve-task` call (one table shared by the batch, as a worker would
/// run its share): the same value; a second call skips every task already answered.
#[test]
fn one_call_solves_a_batch_of_tasks_and_skips_answered_ones() {
    let dir = std::env::temp_dir().join(format!("quartet-batch-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let (ok, out) = quartet(&[
        "bench", "dots", "--split", "3x3", "--depth", "3", "--expect", "-3", "--out", d,
    ]);
    assert!(ok, "{out}");
    let mut tasks: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "task"))
        .map(|p| p.to_str().unwrap().to_string())
        .collect();
    tasks.sort();
    let batch = |tasks: &[String]| {
        let mut args = vec!["bench", "dots", "--solve-task"];
        args.extend(tasks.iter().map(String::as_str));
        quartet(&args)
    };
    let (ok, out) = batch(&tasks[..tasks.len() - 1]);
    assert!(ok, "{out}");
    assert_eq!(out.matches(": value ").count(), tasks.len() - 1, "{out}");
    let (ok, out) = quartet(&["bench", "dots", "--merge", d]);
    assert!(!ok && out.contains("missing"), "{out}");
    let (ok, out) = batch(&tasks);
    assert!(ok, "{out}");
    assert_eq!(out.matches("done before").count(), tasks.len() - 1, "{out}");
    assert_eq!(out.matches(": value ").count(), 1, "{out}");
    let (ok, out) = quartet(&["bench", "dots", "--merge", d]);
    assert!(ok, "{out}");
    assert!(out.starts_with("value -3 "), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
