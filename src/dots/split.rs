//! Solving one board on many machines: the game tree from the empty board is cut after
//! `depth` edges; every distinct position there (up to the board's symmetries and the
//! solver's ground-edge equivalence, the same canonical key the transposition table uses)
//! becomes a task file that any machine can solve on its own; the merge replays the top of
//! the tree by minimax over the task values.
//!
//! Why each task asks for the exact value rather than a null-window question: one task
//! stands for every leaf with the same canonical position, and those leaves sit under
//! different capture counts and sides to move, so they would ask different thresholds.
//! The exact value answers them all, and for the value-0 leaves that dominate a balanced
//! board MTD(f) from 0 costs the same two null-window probes (`>= 0`? `<= 0`?) as the two
//! questions that fix the root's value.
//!
//! Files in the task folder: `split.txt` (board and depth), `NNNNNN.task` (one position:
//! its drawn edges), `NNNNNN.result` (written by `solve_task` through a rename, so a task
//! killed half-way leaves no result and loses only its own work).
use super::geometry::Geometry;
use super::gtp::parse_box_size;
use super::solver::Solver;
use super::symmetry::Symmetries;
use super::Board;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The distinct canonical positions after exactly `depth` edges from the empty board
/// (games that end sooner contribute nothing: they have no task). Sorted by key.
pub fn leaves(geo: &Geometry, depth: usize) -> Vec<u128> {
    let sym = Symmetries::new(geo);
    let mut level: Vec<u128> = vec![0];
    for _ in 0..depth {
        let mut next: Vec<u128> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for &d in &level {
            for e in 0..geo.n_edges() {
                if d >> e & 1 == 0 {
                    let (k, _) = sym.canonical(d | 1 << e);
                    if seen.insert(k) {
                        next.push(k);
                    }
                }
            }
        }
        level = next;
    }
    level.sort_unstable();
    level
}

/// The board with exactly the edges of `drawn` (the solver's value does not depend on the
/// order they were drawn in, only on the set).
fn board_of(geo: &Geometry, drawn: u128) -> Board {
    let mut b = Board::from_geometry(geo.clone());
    for e in 0..geo.n_edges() {
        if drawn >> e & 1 != 0 {
            b.play(e).expect("an edge of the board, drawn once");
        }
    }
    b
}

fn size_name(geo: &Geometry) -> String {
    format!("{}x{}", geo.cols(), geo.rows())
}

/// Writes `split.txt` and one task per leaf into `dir` (created if needed). Returns the
/// number of tasks.
pub fn write_tasks(geo: &Geometry, depth: usize, dir: &Path) -> Result<usize, String> {
    if geo.n_edges() > super::solver::MAX_SOLVER_EDGES {
        return Err("board too large for the solver".into());
    }
    if depth > geo.n_edges() {
        return Err(format!(
            "--depth {depth}: the board has {} edges",
            geo.n_edges()
        ));
    }
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let io = |e: std::io::Error| format!("{}: {e}", dir.display());
    let found = leaves(geo, depth);
    for (i, &d) in found.iter().enumerate() {
        let b = board_of(geo, d);
        let edges: Vec<String> = (0..geo.n_edges())
            .filter(|&e| d >> e & 1 != 0)
            .map(|e| b.edge_name(e).to_string())
            .collect();
        let text = format!(
            "quartet dots task\nboard {}\nedges {}\nquestion exact value for the side to move\n",
            size_name(geo),
            edges.join(" ")
        );
        fs::write(dir.join(format!("{i:06}.task")), text).map_err(io)?;
    }
    fs::write(
        dir.join("split.txt"),
        format!(
            "quartet dots split\nboard {}\ndepth {depth}\ntasks {}\n",
            size_name(geo),
            found.len()
        ),
    )
    .map_err(io)?;
    Ok(found.len())
}

/// `key value` lines of a task or result file.
fn fields(text: &str) -> HashMap<&str, &str> {
    text.lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(k, v)| (k, v.trim()))
        .collect()
}

/// Reads a task: its board and drawn-edge set.
fn read_task(path: &Path) -> Result<(Geometry, u128), String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let bad = |why: &str| format!("{}: {why}", path.display());
    let f = fields(&text);
    let geo = parse_box_size(f.get("board").ok_or_else(|| bad("no board line"))?)
        .map_err(|e| bad(&e.to_string()))?;
    let mut drawn = 0u128;
    for name in f.get("edges").copied().unwrap_or("").split_whitespace() {
        let e = name
            .parse()
            .ok()
            .and_then(|n| geo.edge_index(&n))
            .ok_or_else(|| bad(&format!("bad edge {name}")))?;
        drawn |= 1 << e;
    }
    Ok((geo, drawn))
}

/// Solves one task file and writes `value V` (with nodes and seconds) to its `.result`.
/// Returns the value.
pub fn solve_task(path: &Path, tt_bits: Option<u32>) -> Result<i32, String> {
    let (geo, drawn) = read_task(path)?;
    let board = board_of(&geo, drawn);
    let bits = tt_bits.unwrap_or_else(|| default_tt_bits(&geo));
    let mut solver = Solver::new(&board, bits).ok_or("board too large for the solver")?;
    let start = Instant::now();
    let value = solver.solve();
    let secs = start.elapsed().as_secs_f64();
    let out = result_path(path);
    let tmp = out.with_extension("result.tmp");
    let text = format!("value {value}\nnodes {}\nseconds {secs:.3}\n", solver.nodes);
    fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    fs::rename(&tmp, &out).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(value)
}

/// The table size `bench dots` uses for a board: edges - 9, within 16..=26.
pub fn default_tt_bits(geo: &Geometry) -> u32 {
    (geo.n_edges() as u32).saturating_sub(9).clamp(16, 26)
}

fn result_path(task: &Path) -> PathBuf {
    task.with_extension("result")
}

/// What a merge found.
#[derive(Debug, PartialEq, Eq)]
pub enum Merged {
    /// The root's exact value for the first player.
    Value(i32),
    /// Tasks without a result, by file name.
    Missing(Vec<String>),
}

/// Reads every task and result in `dir` and combines them by minimax over the top
/// `depth` edges (read from `split.txt`).
pub fn merge(dir: &Path) -> Result<Merged, String> {
    let io = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    let split = dir.join("split.txt");
    let text = fs::read_to_string(&split).map_err(|e| io(&split, e))?;
    let f = fields(&text);
    let geo = parse_box_size(f.get("board").copied().unwrap_or(""))
        .map_err(|e| format!("{}: {e}", split.display()))?;
    let depth: usize = f
        .get("depth")
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| format!("{}: no depth", split.display()))?;
    let mut values: HashMap<u128, i32> = HashMap::new();
    let mut missing = BTreeMap::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| io(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "task"))
        .collect();
    entries.sort();
    let sym = Symmetries::new(&geo);
    for task in &entries {
        let (tgeo, drawn) = read_task(task)?;
        if (tgeo.cols(), tgeo.rows()) != (geo.cols(), geo.rows()) {
            return Err(format!(
                "{}: not a {} task",
                task.display(),
                size_name(&geo)
            ));
        }
        let res = result_path(task);
        match fs::read_to_string(&res) {
            Ok(r) => {
                let v: i32 = fields(&r)
                    .get("value")
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| format!("{}: no value line", res.display()))?;
                values.insert(sym.canonical(drawn).0, v);
            }
            Err(_) => {
                let name = task.file_name().unwrap_or_default().to_string_lossy();
                missing.insert(name.to_string(), ());
            }
        }
    }
    if !missing.is_empty() {
        return Ok(Merged::Missing(missing.into_keys().collect()));
    }
    let mut memo = HashMap::new();
    let mut board = Board::from_geometry(geo.clone());
    let v = top_value(&mut board, &sym, depth, &values, &mut memo)?;
    Ok(Merged::Value(v))
}

/// Minimax over the top of the tree: the unscored value of `board` (side to move) from
/// the task values at `depth` edges.
fn top_value(
    board: &mut Board,
    sym: &Symmetries,
    depth: usize,
    values: &HashMap<u128, i32>,
    memo: &mut HashMap<u128, i32>,
) -> Result<i32, String> {
    if board.is_over() {
        return Ok(0);
    }
    let (key, _) = sym.canonical(board.drawn().lo);
    if board.drawn().len() == depth {
        return values.get(&key).copied().ok_or_else(|| {
            format!("no task for the position after {depth} edges with key {key:#x}")
        });
    }
    if let Some(&v) = memo.get(&key) {
        return Ok(v);
    }
    let mut best = i32::MIN;
    let legal: Vec<usize> = board.legal_edges().collect();
    for e in legal {
        let c = board.play(e).expect("a legal edge") as i32;
        let v = top_value(board, sym, depth, values, memo);
        board.undo();
        let v = v?;
        best = best.max(if c > 0 { c + v } else { -v });
    }
    memo.insert(key, best);
    Ok(best)
}

/// One line per task for a report: `NNNNNN.task value V seconds S` (results only).
pub fn summary(dir: &Path) -> Result<String, String> {
    let mut out = String::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "result"))
        .collect();
    entries.sort();
    for p in entries {
        if let Ok(r) = fs::read_to_string(&p) {
            let f = fields(&r);
            let _ = writeln!(
                out,
                "{} value {} seconds {}",
                p.file_name().unwrap_or_default().to_string_lossy(),
                f.get("value").unwrap_or(&"?"),
                f.get("seconds").unwrap_or(&"?")
            );
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("quartet-split-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    /// Split, solve every task, merge: the published values (3x3: -3 for the first
    /// player; 2x3: -2), at several depths, including one where captures happen above the
    /// cut (2x2 boxes at depth 5: a box can be completed by the fourth edge).
    #[test]
    fn split_solve_merge_gives_the_known_values() {
        for (c, r, depth, known) in [(3, 3, 3, -3), (3, 2, 4, -2), (2, 2, 5, 2), (1, 1, 4, -1)] {
            let geo = Geometry::new(c, r).unwrap();
            let dir = scratch(&format!("{c}x{r}-{depth}"));
            let n = write_tasks(&geo, depth, &dir).unwrap();
            assert!(n > 0);
            let tasks: Vec<PathBuf> = fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "task"))
                .collect();
            assert_eq!(tasks.len(), n);
            // One result missing: the merge names it.
            for t in &tasks[1..] {
                solve_task(t, Some(16)).unwrap();
            }
            let first = tasks[0].file_name().unwrap().to_string_lossy().to_string();
            assert_eq!(merge(&dir).unwrap(), Merged::Missing(vec![first]));
            solve_task(&tasks[0], Some(16)).unwrap();
            assert_eq!(
                merge(&dir).unwrap(),
                Merged::Value(known),
                "{c}x{r} depth {depth}"
            );
            fs::remove_dir_all(&dir).unwrap();
        }
    }

    /// The symmetry reduction, counted independently: positions after two edges on 1x1
    /// (6 pairs of 4 edges) are all alike up to the ground-edge equivalence (every edge of
    /// a lone box is a ground edge): one task.
    #[test]
    fn leaves_are_reduced_by_symmetry() {
        let g = Geometry::new(1, 1).unwrap();
        assert_eq!(leaves(&g, 2).len(), 1);
        // 2x1 after one edge: the middle edge, or a ground edge of one box (all ground
        // edges of both boxes are alike under the mirror and the ground equivalence).
        let g = Geometry::new(2, 1).unwrap();
        assert_eq!(leaves(&g, 1).len(), 2);
    }
}
