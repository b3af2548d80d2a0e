//! `quartet bench othello eval-error`: the error of each evaluation by game stage on
//! labelled positions files (`selfplay`'s format), to see where one evaluation loses to
//! another rather than one figure over 20-40 empties.
use crate::othello::eval::Weights;
use crate::othello::evaluator::Evaluator;
use crate::othello::selfplay::parse_line;

/// Empties per row of the table.
const BUCKET: u32 = 4;

pub fn eval_error(
    positions: &[std::path::PathBuf],
    weights: &[std::path::PathBuf],
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
        let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        for (n, line) in text.lines().enumerate() {
            let l = parse_line(line).map_err(|e| format!("{}:{}: {e}", f.display(), n + 1))?;
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
    println!(
        "empties  positions  mean absolute error (mean signed error), discs: {}",
        names.join(" | ")
    );
    for r in 0..rows {
        if count[r] == 0 {
            continue;
        }
        let c = count[r] as f64;
        let cells: Vec<String> = (0..evals.len())
            .map(|k| format!("{:6.2} ({:+6.2})", abs[k][r] / c, signed[k][r] / c))
            .collect();
        println!(
            "{:>2}-{:<2}    {:>9}  {}",
            r as u32 * BUCKET,
            r as u32 * BUCKET + BUCKET - 1,
            count[r],
            cells.join(" | ")
        );
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
        let e = eval_error(std::slice::from_ref(&f), &[]).unwrap_err();
        assert!(e.contains("positions.txt:2:"), "{e}");
        std::fs::write(&f, "0000001008000000 0000000810000000 0\n").unwrap();
        assert!(eval_error(std::slice::from_ref(&f), &[]).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
