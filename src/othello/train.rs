//! Fitting the evaluation weights to game results: ridge least squares, stage by stage.
//!
//! Positions come from WTHOR databases (the French federation's game archive). Each game
//! carries a "theoretical score": the result with perfect play from the point where the
//! game reached the database's solving depth (24 empties in recent files). Labelling every
//! position of a game with it (rather than with the played result) removes the endgame
//! mistakes of the players, the same idea as labelling by exact solves. The model is the
//! one `eval.rs` evaluates: a weighted sum of the feature vector, separate weights per
//! number of empties, so each stage is an independent 9-unknown least-squares problem.
use super::board::Board;
use super::eval::{evaluate, features, Weights, FEATURES, HAND_WEIGHTS};
use std::io::Write;
use std::path::{Path, PathBuf};

const NF: usize = FEATURES.len();

/// One game of a WTHOR file: its moves (square indices) and black's disc count at the end
/// with perfect play from the solving depth.
#[derive(Clone, Debug)]
pub struct Game {
    pub moves: Vec<usize>,
    pub theoretical_black: i32,
}

/// Parses a WTHOR `.wtb` file: a 16-byte header, then 68-byte games (tournament, players,
/// real score, theoretical score, 60 moves coded `10 * row + column` from 11 = a1).
pub fn read_wthor(bytes: &[u8]) -> Result<Vec<Game>, String> {
    if bytes.len() < 16 {
        return Err("WTHOR file shorter than its 16-byte header".into());
    }
    let n = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize;
    if bytes[12] != 0 && bytes[12] != 8 {
        return Err(format!("board size {} is not 8", bytes[12]));
    }
    let body = &bytes[16..];
    if body.len() < n * 68 {
        return Err(format!(
            "header says {n} games, file holds {}",
            body.len() / 68
        ));
    }
    let mut games = Vec::with_capacity(n);
    for g in body.chunks_exact(68).take(n) {
        let mut moves = Vec::with_capacity(60);
        for &m in &g[8..] {
            if m == 0 {
                break;
            }
            let (row, col) = (m / 10, m % 10);
            if !(1..=8).contains(&row) || !(1..=8).contains(&col) {
                return Err(format!("bad move code {m}"));
            }
            moves.push(((row - 1) * 8 + (col - 1)) as usize);
        }
        games.push(Game {
            moves,
            theoretical_black: g[7] as i32,
        });
    }
    Ok(games)
}

/// Largest WTHOR file read (a database of a few hundred thousand games).
const MAX_WTHOR_BYTES: u64 = 256 << 20;

/// The games of a WTHOR file; an error names the file.
pub fn read_wthor_file(path: &Path) -> Result<Vec<Game>, String> {
    let bytes = crate::bounded_read::read_capped(path, MAX_WTHOR_BYTES)?;
    read_wthor(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// A position's features, empties and label (final disc difference for the side to move,
/// in centi-discs).
#[derive(Clone, Copy)]
pub struct Sample {
    pub board: Board,
    pub empties: u32,
    pub f: [i32; NF],
    pub label: f64,
}

/// Replays `game` and returns its positions (before each move) with the game's label.
/// A move the side to move cannot make is taken as a pass first (WTHOR omits passes); a
/// game that is still illegal after that is cut there.
pub fn samples(game: &Game) -> Vec<Sample> {
    let black_diff = (2 * game.theoretical_black - 64) as f64 * 100.0;
    let mut b = Board::start();
    let mut black_to_move = true;
    let mut out = Vec::with_capacity(60);
    for &m in &game.moves {
        if b.play(m).is_none() {
            b = b.pass();
            black_to_move = !black_to_move;
        }
        let Some(next) = b.play(m) else { break };
        let label = if black_to_move {
            black_diff
        } else {
            -black_diff
        };
        out.push(Sample {
            board: b,
            empties: b.empties().count_ones(),
            f: features(&b),
            label,
        });
        b = next;
        black_to_move = !black_to_move;
    }
    out
}

/// Ridge least squares over the samples whose empties lie within `window` of `stage`,
/// pulled towards `prior` (the neighbouring stage's weights): a feature that is rare at
/// this stage (corners in the opening) keeps the value the later stages learnt instead of
/// shrinking to zero. Returns `None` when there are too few samples to fit nine weights.
#[allow(clippy::needless_range_loop)] // matrix code reads better with indices
pub fn fit_stage(
    data: &[Sample],
    stage: u32,
    window: u32,
    ridge: f64,
    prior: &[f64; NF],
) -> Option<[f64; NF]> {
    let mut a = [[0f64; NF]; NF];
    let mut y = [0f64; NF];
    let mut count = 0;
    for s in data.iter().filter(|s| s.empties.abs_diff(stage) <= window) {
        for i in 0..NF {
            let fi = s.f[i] as f64;
            y[i] += fi * s.label;
            for j in 0..NF {
                a[i][j] += fi * s.f[j] as f64;
            }
        }
        count += 1;
    }
    if count < 4 * NF {
        return None;
    }
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += ridge * count as f64;
        y[i] += ridge * count as f64 * prior[i];
    }
    solve(a, y)
}

/// Gaussian elimination with partial pivoting; `None` for a singular system.
#[allow(clippy::needless_range_loop)]
fn solve(mut a: [[f64; NF]; NF], mut y: [f64; NF]) -> Option<[f64; NF]> {
    for c in 0..NF {
        let p = (c..NF).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() < 1e-12 {
            return None;
        }
        a.swap(c, p);
        y.swap(c, p);
        for r in 0..NF {
            if r != c {
                let k = a[r][c] / a[c][c];
                for j in c..NF {
                    a[r][j] -= k * a[c][j];
                }
                y[r] -= k * y[c];
            }
        }
    }
    let mut x = [0f64; NF];
    for i in 0..NF {
        x[i] = y[i] / a[i][i];
    }
    Some(x)
}

/// Fits `FIRST..=LAST` every `step` empties, from the end of the game backwards (where
/// data says the most), each stage's prior being the stage fitted before it.
pub fn fit_all(
    data: &[Sample],
    first: u32,
    last: u32,
    step: u32,
    ridge: f64,
) -> Vec<(u32, [f64; NF])> {
    let mut stages = Vec::new();
    let mut prior = [0f64; NF];
    let mut e = first;
    while e <= last {
        if let Some(w) = fit_stage(data, e, step / 2, ridge, &prior) {
            prior = w;
            stages.push((e, w));
        }
        e += step;
    }
    stages
}

/// Root-mean-square error, in discs, of `w` on `data`.
pub fn rms_error(w: &Weights, data: &[Sample]) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let se: f64 = data
        .iter()
        .map(|s| {
            let e = evaluate(w, &s.board) as f64 - s.label;
            e * e
        })
        .sum();
    (se / data.len() as f64).sqrt() / 100.0
}

/// The feature legend written into every fitted file.
const FEATURE_DOC: &str = "#
# Score = sum over features of weight * feature, in centi-discs, from the side to move.
# Every feature is \"side to move minus opponent\" except parity (+1 with an odd number of
# empties, else -1). Stages are keyed by the number of empties; weights are interpolated
# between stages, the nearest stage applies outside them.
#
# mobility   legal moves (corner moves count double)
# potential  empty squares next to opponent discs
# corners    corner discs
# xsquares   b2/g2/b7/g7 discs next to an empty corner
# csquares   a2/b1/... discs next to an empty corner
# stable     discs that can never flip again
# edges      discs on the four edges (excluding corners)
# parity     +1 / -1 as above
# discs      disc count
";

/// The weights file (format of `data/othello/weights.txt`) for fitted stages.
pub fn format_weights(stages: &[(u32, [f64; NF])], note: &str) -> String {
    let mut s = String::from("# quartet Othello evaluation weights, format v1.\n");
    for line in note.lines() {
        s.push_str(&format!("# {line}\n"));
    }
    s.push_str(FEATURE_DOC);
    s.push_str(&format!("features {}\n", FEATURES.join(" ")));
    for (e, w) in stages.iter().rev() {
        s.push_str(&format!("stage {e:2}"));
        for x in w {
            s.push_str(&format!(" {:7.0}", x.clamp(-99_999.0, 99_999.0)));
        }
        s.push('\n');
    }
    s
}

/// Stages fitted by `train_linear`: the opening has too few distinct positions to fit nine
/// weights (the nearest fitted stage covers it), and at the very end the search sees exact
/// scores.
const FIRST_STAGE: u32 = 4;
const LAST_STAGE: u32 = 52;

/// `quartet train othello linear`: fits stages every `step` empties with `ridge` on the
/// even-numbered games of `files` and reports (to `report`) the error on the odd ones
/// against the hand-set weights', then fits on every game and writes the weights file
/// `out` (how `data/othello/weights.txt` was made).
pub fn train_linear(
    files: &[PathBuf],
    out: &Path,
    step: u32,
    ridge: f64,
    report: &mut impl Write,
) -> Result<(), String> {
    let mut games = Vec::new();
    for f in files {
        games.extend(read_wthor_file(f)?);
    }
    let all: Vec<_> = games.iter().map(samples).collect();
    let complete = all.iter().filter(|s| s.len() >= 50).count();
    let flat = |pick: &dyn Fn(usize) -> bool| -> Vec<_> {
        all.iter()
            .enumerate()
            .filter(|(i, _)| pick(*i))
            .flat_map(|(_, s)| s.iter().copied())
            .collect()
    };
    let (even, odd, every) = (
        flat(&|i| i % 2 == 0),
        flat(&|i| i % 2 == 1),
        flat(&|_| true),
    );
    let io = |e: std::io::Error| format!("output: {e}");
    writeln!(
        report,
        "{} games ({} replayed to 50+ moves), {} positions",
        games.len(),
        complete,
        every.len()
    )
    .map_err(io)?;
    let fit = |data: &[Sample]| -> Result<Weights, String> {
        let stages = fit_all(data, FIRST_STAGE, LAST_STAGE, step, ridge);
        if stages.is_empty() {
            return Err("too few positions to fit any stage".into());
        }
        Weights::parse(&format_weights(&stages, "")).map_err(|e| e.to_string())
    };
    let held = fit(&even)?;
    // The hand-set weights never saw these games; the built-in default did (all of them).
    let hand = Weights::parse(HAND_WEIGHTS).map_err(|e| e.to_string())?;
    writeln!(
        report,
        "held-out games: rms error {:.2} discs with weights fitted on the other half, {:.2} with the hand-set weights",
        rms_error(&held, &odd),
        rms_error(&hand, &odd)
    )
    .map_err(io)?;
    let stages = fit_all(&every, FIRST_STAGE, LAST_STAGE, step, ridge);
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let note = format!(
        "Fitted by `quartet train othello linear --step {step} --ridge {ridge}` on\n{} ({} games,\n{} positions), labels: WTHOR theoretical scores, centi-discs.",
        names.join(" "),
        games.len(),
        every.len()
    );
    let text = format_weights(&stages, &note);
    let w = Weights::parse(&text).map_err(|e| e.to_string())?;
    writeln!(
        report,
        "all games: rms error {:.2} discs (training fit)",
        rms_error(&w, &every)
    )
    .map_err(io)?;
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    writeln!(report, "wrote {}", out.display()).map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::bitboard::nth_square;

    #[test]
    fn recovers_known_weights_from_their_own_labels() {
        // Labels made by a known linear model are fitted back (independent of the data).
        use rand::{rngs::SmallRng, Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(9);
        let truth = [50.0, 20.0, 700.0, -200.0, -80.0, 120.0, 10.0, 40.0, 5.0];
        let mut data = Vec::new();
        for _ in 0..400 {
            let mut b = Board::start();
            for _ in 0..rng.gen_range(10..50) {
                let mv = b.moves();
                if mv == 0 {
                    b = b.pass();
                    continue;
                }
                let sq = nth_square(mv, rng.gen_range(0..mv.count_ones()));
                b = b.play(sq).unwrap();
            }
            let f = features(&b);
            let label = (0..NF).map(|i| truth[i] * f[i] as f64).sum();
            data.push(Sample {
                board: b,
                empties: 30,
                f,
                label,
            });
        }
        let w = fit_stage(&data, 30, 0, 0.0, &[0.0; NF]).unwrap();
        for i in 0..NF {
            assert!(
                (w[i] - truth[i]).abs() < 1e-6,
                "{i}: {} vs {}",
                w[i],
                truth[i]
            );
        }
    }

    #[test]
    fn wthor_parsing_rejects_garbage() {
        assert!(read_wthor(&[0; 10]).is_err());
        let mut h = vec![0u8; 16];
        h[4] = 1; // one game promised, none present
        assert!(read_wthor(&h).is_err());
        // One game: f5 (code 56) then the end of the list.
        h.extend_from_slice(&[0; 68]);
        h[16 + 7] = 40;
        h[16 + 8] = 56;
        let g = read_wthor(&h).unwrap();
        assert_eq!(g[0].moves, vec![4 * 8 + 5]);
        let s = samples(&g[0]);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].label, 1600.0); // black to move, 40-24
    }
}
