//! `quartet train othello eval-error`: the error of each evaluation by game stage on
//! labelled positions files (`selfplay`'s format), to see where one evaluation loses to
//! another rather than one figure over 20-40 empties.
use super::eval::Weights;
use super::evaluator::Evaluator;
use super::selfplay::read_file;
use std::io::Write;
use std::path::PathBuf;

/// Empties per row of the table.
const BUCKET: u32 = 4;

/// Writes to `report` the mean absolute and signed error, every `BUCKET` empties, of the
/// built-in linear and pattern evaluations and of the `weights` files on `positions`.
pub fn eval_error(
    positions: &[PathBuf],
    weights: &[PathBuf],
    report: &mut impl Write,
) -> Result<(), String> {
    let mut evals = vec![
        (
            "linear".to_string(),
            Evaluator::from(Weights::default_weights()),
        ),
        ("pattern".to_string(), Evaluator::default_patterns()),
    ];
    for f in weights {
        evals.push((f.display().to_string(), Evaluator::load(f)?));
    }
    let rows = (60 / BUCKET + 1) as usize;
    // Per row: count, then per evaluation the sum of absolute and of signed errors.
    let mut count = vec![0u64; rows];
    let mut abs = vec![vec![0f64; rows]; evals.len()];
    let mut signed = vec![vec![0f64; rows]; evals.len()];
    for f in positions {
        for l in read_file(f)? {
            let r = (l.board.empties().count_ones().min(60) / BUCKET) as usize;
            count[r] += 1;
            for (k, (_, e)) in evals.iter().enumerate() {
                let d = e.evaluate(&l.board) as f64 / 100.0 - l.label as f64;
                abs[k][r] += d.abs();
                signed[k][r] += d;
            }
        }
    }
    let names: Vec<&str> = evals.iter().map(|(n, _)| n.as_str()).collect();
    let io = |e: std::io::Error| format!("output: {e}");
    writeln!(
        report,
        "empties  positions  mean absolute error (mean signed error), discs: {}",
        names.join(" | ")
    )
    .map_err(io)?;
    for r in 0..rows {
        if count[r] == 0 {
            continue;
        }
        let c = count[r] as f64;
        let cells: Vec<String> = (0..evals.len())
            .map(|k| format!("{:6.2} ({:+6.2})", abs[k][r] / c, signed[k][r] / c))
            .collect();
        writeln!(
            report,
            "{:>2}-{:<2}    {:>9}  {}",
            r as u32 * BUCKET,
            r as u32 * BUCKET + BUCKET - 1,
            count[r],
            cells.join(" | ")
        )
        .map_err(io)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_line_is_rejected_with_its_file_and_line() {
        let dir = std::env::temp_dir().join(format!("quartet-eval-error-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("positions.txt");
        std::fs::write(&f, "0000001008000000 0000000810000000 0\nnot a position\n").unwrap();
        let mut out = Vec::new();
        let e = eval_error(std::slice::from_ref(&f), &[], &mut out).unwrap_err();
        assert!(e.contains("positions.txt:2:"), "{e}");
        // The start position, labelled 0: both built-in evaluations score it near 0.
        std::fs::write(&f, "0000001008000000 0000000810000000 0\n").unwrap();
        let mut out = Vec::new();
        eval_error(std::slice::from_ref(&f), &[], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\n60-63            1  "), "{text}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
