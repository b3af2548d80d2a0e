//! Solving one board on many machines: the game tree from the empty board is cut after
//! `depth` edges; every distinct position there (up to the board's symmetries and the
//! solver's ground-edge equivalence, the same canonical key the transposition table uses)
//! becomes a task file that any machine can solve on its own; the merge replays the top of
//! the tree by minimax over the task values.
//!
//! Each task answers null-window questions: "is the value for the side to move at least
//! t?" for the few thresholds t its leaves need. The split fixes an expected root value V
//! (`--expect`, 0 by default: 4x4 and 4x5 are ties) and asks whether the root is at least V
//! and at least V+1; walking the top of the tree turns those two questions into
//! thresholds at the leaves (a capture shifts the threshold by the boxes taken, a passed
//! turn negates it). A leaf far from V then costs one cheap probe, where its exact value
//! would cost one probe per box of difference. If the root is not V the merge says which
//! side it lies on; split again with another `--expect`.
//!
//! Files in the task folder: `split.txt` (board, depth, expected value), `NNNNNN.task`
//! (one position: its drawn edges and thresholds), `NNNNNN.result` (written by `solve_task` through a rename, so a task
//! killed half-way leaves no result and loses only its own work).
use super::geometry::Geometry;
use super::gtp::parse_box_size;
use super::play::{choose_move_avoiding, PlayTable};
use super::solver::{Solver, EXACT};
use super::symmetry::Symmetries;
use super::table::Table;
use super::Board;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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

/// The walk over the top of the tree that finds the tasks and their thresholds.
struct Walk {
    sym: Symmetries,
    depth: usize,
    proof: bool,
    /// One solver table for all the proof tree's guesses (32 MB, zeroed once).
    table: PlayTable,
    seen: HashSet<(u128, i32, bool)>,
    /// Thresholds per canonical leaf.
    out: BTreeMap<u128, BTreeSet<i32>>,
    /// What the folder already knows when a proof split is extended: the tasks' answers
    /// (and the merge's memo over them), and the child each *yes* node chose before.
    answers: HashMap<(u128, i32), bool>,
    memo: HashMap<(u128, i32), Option<bool>>,
    chosen: HashMap<(u128, i32), u128>,
    /// Choices made by this walk, to append to `choices.txt`.
    new_choices: Vec<(u128, i32, u128)>,
    guess: Guess,
}

/// Picks the move of a *yes* node among the legal ones not in the list (refuted ones).
type Guess = fn(&Board, &[usize], &mut PlayTable) -> Option<usize>;

/// The move the clocked search of play picks (small boards are solved within its time).
fn clocked_guess(board: &Board, avoid: &[usize], table: &mut PlayTable) -> Option<usize> {
    let (soft, hard) = (GUESS_TIME, GUESS_TIME * 2);
    choose_move_avoiding(board, soft, hard, None, avoid, table).map(|c| c.edge)
}

impl Walk {
    /// Asks "value >= t?" at `board` and records, per canonical leaf at `depth` edges, the
    /// thresholds it must answer. With `proof`, a node whose expected answer (`yes`) is
    /// yes needs only one child to show it: only the child `guess` picks is walked, so the
    /// tasks form a proof tree of the expected value.
    fn collect(&mut self, board: &mut Board, t: i32, yes: bool) {
        if board.is_over() {
            return;
        }
        let (key, _) = self.sym.canonical(board.drawn().lo);
        if !self.seen.insert((key, t, yes && self.proof)) {
            return;
        }
        if board.drawn().len() == self.depth {
            self.out.entry(key).or_default().insert(t);
            return;
        }
        let legal: Vec<usize> = if self.proof && yes {
            match self.choose(board, key, t) {
                Some(e) => vec![e],
                // Every move is known to fail: the node is refuted, the merge will say so.
                None => return,
            }
        } else {
            board.legal_edges().collect()
        };
        for e in legal {
            let c = board.play(e).expect("a legal edge") as i32;
            // c + V(child) >= t, or -V(child) >= t, i.e. not V(child) >= 1 - t.
            let (child_t, child_yes) = if c > 0 { (t - c, yes) } else { (1 - t, !yes) };
            self.collect(board, child_t, child_yes);
            board.undo();
        }
    }

    /// The one move walked at a *yes* node ("value >= t" expected true): a move the
    /// answers already show to reach `t`; else the move chosen at an earlier split, unless
    /// the answers refute it; else the move the clocked search of play picks among those
    /// not refuted (recorded for the next extension). None when every move is refuted.
    fn choose(&mut self, board: &mut Board, key: u128, t: i32) -> Option<usize> {
        let mut refuted = Vec::new();
        let mut earlier = None;
        let legal: Vec<usize> = board.legal_edges().collect();
        for &e in &legal {
            let c = board.play(e).expect("a legal edge") as i32;
            let child = self.sym.canonical(board.drawn().lo).0;
            let reaches = if c > 0 {
                at_least(
                    board,
                    &self.sym,
                    self.depth,
                    t - c,
                    &self.answers,
                    &mut self.memo,
                )
            } else {
                at_least(
                    board,
                    &self.sym,
                    self.depth,
                    1 - t,
                    &self.answers,
                    &mut self.memo,
                )
                .map(|x| !x)
            };
            board.undo();
            match reaches {
                Some(true) => return Some(e),
                Some(false) => refuted.push(e),
                None if self.chosen.get(&(key, t)) == Some(&child) => earlier = earlier.or(Some(e)),
                None => {}
            }
        }
        if earlier.is_some() {
            return earlier;
        }
        if refuted.len() == legal.len() {
            return None;
        }
        let e = (self.guess)(board, &refuted, &mut self.table)?;
        board.play(e).expect("a legal edge");
        let child = self.sym.canonical(board.drawn().lo).0;
        board.undo();
        self.chosen.insert((key, t), child);
        self.new_choices.push((key, t, child));
        Some(e)
    }
}

/// Time for the search that picks the one move of a proof-tree node: small boards are
/// solved exactly within it (so their guesses are right), big ones searched as deep as
/// it allows with the long-chain heuristic at the horizon.
const GUESS_TIME: Duration = Duration::from_secs(2);

/// Writes `split.txt` and one task per leaf into `dir` (created if needed), for proving
/// that the root's value is `expect`; with `proof`, only the tasks of a proof tree (see
/// `Walk::collect`). Returns the number of tasks written.
///
/// A folder that already holds this split is *extended*: a proof split walks its tree
/// again with the answers so far, replaces each chosen move the answers refute by another
/// one, and writes only the questions no task asks yet (new files, numbered after the
/// old ones); a full split has nothing to add. So `split, solve, merge` repeated until the
/// merge decides proves the value even where the first guesses were wrong.
pub fn write_tasks(
    geo: &Geometry,
    depth: usize,
    expect: i32,
    proof: bool,
    dir: &Path,
) -> Result<usize, String> {
    write_tasks_guessing(geo, depth, expect, proof, dir, clocked_guess)
}

fn write_tasks_guessing(
    geo: &Geometry,
    depth: usize,
    expect: i32,
    proof: bool,
    dir: &Path,
    guess: Guess,
) -> Result<usize, String> {
    if geo.n_edges() > super::solver::MAX_SOLVER_EDGES {
        return Err("board too large for the solver".into());
    }
    if depth > geo.n_edges() {
        return Err(format!(
            "--depth {depth}: the board has {} edges",
            geo.n_edges()
        ));
    }
    let old = if dir.join("split.txt").exists() {
        let f = read_folder(dir)?;
        let same = (f.geo.cols(), f.geo.rows()) == (geo.cols(), geo.rows())
            && (f.depth, f.expect, f.proof) == (depth, expect, proof);
        if !same {
            return Err(format!(
                "{}: holds another split ({} depth {} expect {} proof {}); use a new folder",
                dir.display(),
                size_name(&f.geo),
                f.depth,
                f.expect,
                u8::from(f.proof)
            ));
        }
        Some(f)
    } else {
        None
    };
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let io = |e: std::io::Error| format!("{}: {e}", dir.display());
    let (answers, chosen, mut asked, next) = match old {
        Some(f) => (f.answers, f.chosen, f.asked, f.next),
        None => Default::default(),
    };
    let mut walk = Walk {
        sym: Symmetries::new(geo),
        depth,
        proof,
        table: PlayTable::default(),
        seen: HashSet::new(),
        out: BTreeMap::new(),
        answers,
        memo: HashMap::new(),
        chosen,
        new_choices: Vec::new(),
        guess,
    };
    let mut root = Board::from_geometry(geo.clone());
    for (t, yes) in [(expect, true), (expect + 1, false)] {
        walk.collect(&mut root, t, yes);
    }
    let mut written = 0;
    for (&d, ts) in &walk.out {
        let known = asked.entry(d).or_default();
        let ts: Vec<String> = ts.difference(known).map(i32::to_string).collect();
        if ts.is_empty() {
            continue;
        }
        let b = board_of(geo, d);
        let edges: Vec<String> = (0..geo.n_edges())
            .filter(|&e| d >> e & 1 != 0)
            .map(|e| b.edge_name(e).to_string())
            .collect();
        let text = format!(
            "quartet dots task\nboard {}\nedges {}\nthresholds {}\n\
             question is the value for the side to move at least each threshold\n",
            size_name(geo),
            edges.join(" "),
            ts.join(" ")
        );
        let i = next + written;
        fs::write(dir.join(format!("{i:06}.task")), text).map_err(io)?;
        written += 1;
    }
    if !walk.new_choices.is_empty() {
        let mut text = fs::read_to_string(dir.join(CHOICES)).unwrap_or_default();
        for (node, t, child) in &walk.new_choices {
            let _ = writeln!(text, "{node:x} {t} {child:x}");
        }
        fs::write(dir.join(CHOICES), text).map_err(io)?;
    }
    fs::write(
        dir.join("split.txt"),
        format!(
            "quartet dots split\nboard {}\ndepth {depth}\nexpect {expect}\nproof {}\ntasks {}\n",
            size_name(geo),
            u8::from(proof),
            next + written
        ),
    )
    .map_err(io)?;
    Ok(written)
}

/// `key value` lines of a task or result file.
fn fields(text: &str) -> HashMap<&str, &str> {
    text.lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(k, v)| (k, v.trim()))
        .collect()
}

/// Reads a task: its board, drawn-edge set and thresholds.
fn read_task(path: &Path) -> Result<(Geometry, u128, Vec<i32>), String> {
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
    let thresholds = f
        .get("thresholds")
        .copied()
        .unwrap_or("")
        .split_whitespace()
        .map(|t| t.parse().map_err(|_| bad(&format!("bad threshold {t}"))))
        .collect::<Result<Vec<i32>, String>>()?;
    if thresholds.is_empty() {
        return Err(bad("no thresholds"));
    }
    Ok((geo, drawn, thresholds))
}

/// Answers one task file's questions and writes `at_least T yes|no` lines (with nodes and
/// seconds) to its `.result`. Returns the answers in threshold order.
pub fn solve_task(path: &Path, tt_bits: Option<u32>) -> Result<Vec<(i32, bool)>, String> {
    let mut table = None;
    solve_task_with(path, tt_bits, &mut table)
}

/// `solve_task` with a table kept between calls: tasks of one board share most of their
/// subtrees (a position below the cut is reached from many tasks), and an entry stays valid
/// for any search of the same geometry, so a worker that solves a batch of tasks in one
/// process, passing the same `table` along, does their common work once. A task of another
/// board gets a new table.
pub fn solve_task_with(
    path: &Path,
    tt_bits: Option<u32>,
    table: &mut Option<((usize, usize), Table)>,
) -> Result<Vec<(i32, bool)>, String> {
    let (geo, drawn, thresholds) = read_task(path)?;
    let board = board_of(&geo, drawn);
    let size = (geo.cols(), geo.rows());
    let tt = match table.take() {
        Some((s, t)) if s == size => t,
        _ => Table::new(
            tt_bits.unwrap_or_else(|| default_tt_bits(&geo)),
            geo.n_edges(),
        ),
    };
    let mut solver =
        Solver::with_table(&board, tt).map_err(|_| "board too large for the solver")?;
    let start = Instant::now();
    let mut text = String::new();
    let mut answers = Vec::new();
    for &t in &thresholds {
        // One null-window probe; the table carries over between thresholds.
        let at_least = solver.search(t - 1, t, EXACT) >= t;
        let _ = writeln!(text, "at_least {t} {}", if at_least { "yes" } else { "no" });
        answers.push((t, at_least));
    }
    let secs = start.elapsed().as_secs_f64();
    let _ = write!(text, "nodes {}\nseconds {secs:.3}\n", solver.nodes);
    *table = Some((size, solver.into_table()));
    let out = result_path(path);
    let tmp = out.with_extension("result.tmp");
    fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    fs::rename(&tmp, &out).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(answers)
}

/// The table size `bench dots` uses for a board: edges - 9, within 16..=27 (1 GB), and
/// no more than a quarter of the machine's memory. 2^27 entries beat 2^26 on 3x5 and 4x4
/// (fewer nodes, and the same cost a node on this 2 MB-page table:
/// docs/experiments/dots.md).
pub fn default_tt_bits(geo: &Geometry) -> u32 {
    let quarter_mib = crate::memory::physical_mib().map_or(u64::MAX, |m| m / 4);
    let mut bits = (geo.n_edges() as u32).saturating_sub(9).clamp(16, 27);
    while bits > 16 && (8u64 << bits) >> 20 > quarter_mib {
        bits -= 1;
    }
    bits
}

fn result_path(task: &Path) -> PathBuf {
    task.with_extension("result")
}

/// What a merge found.
#[derive(Debug, PartialEq, Eq)]
pub enum Merged {
    /// The root's exact value for the first player.
    Value(i32),
    /// The root's value is below the expected one given.
    Below(i32),
    /// The root's value is above the expected one given.
    Above(i32),
    /// Tasks without a result, by file name.
    Missing(Vec<String>),
    /// A proof-tree split whose chosen move did not hold where the answer was expected:
    /// the tasks written cannot decide the root.
    Undecided,
}

/// What a split folder holds: its parameters (`split.txt`), the answers of the tasks that
/// have a result, the questions each position's tasks ask, and the tasks still unanswered.
struct Folder {
    geo: Geometry,
    depth: usize,
    expect: i32,
    proof: bool,
    answers: HashMap<(u128, i32), bool>,
    asked: HashMap<u128, BTreeSet<i32>>,
    missing: Vec<String>,
    /// The number after the highest task file's.
    next: usize,
    /// `choices.txt`: the child each *yes* node of a proof split chose.
    chosen: HashMap<(u128, i32), u128>,
}

fn read_folder(dir: &Path) -> Result<Folder, String> {
    let io = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    let split = dir.join("split.txt");
    let text = fs::read_to_string(&split).map_err(|e| io(&split, e))?;
    let f = fields(&text);
    let geo = parse_box_size(f.get("board").copied().unwrap_or(""))
        .map_err(|e| format!("{}: {e}", split.display()))?;
    let number = |name: &str| -> Result<i32, String> {
        f.get(name)
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| format!("{}: no {name}", split.display()))
    };
    let depth = number("depth")? as usize;
    let expect = number("expect")?;
    let proof = f.get("proof") == Some(&"1");
    let mut folder = Folder {
        geo,
        depth,
        expect,
        proof,
        answers: HashMap::new(),
        asked: HashMap::new(),
        missing: Vec::new(),
        next: 0,
        chosen: HashMap::new(),
    };
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| io(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "task"))
        .collect();
    entries.sort();
    let geo = &folder.geo;
    let sym = Symmetries::new(geo);
    for task in &entries {
        let (tgeo, drawn, ts) = read_task(task)?;
        if (tgeo.cols(), tgeo.rows()) != (geo.cols(), geo.rows()) {
            return Err(format!("{}: not a {} task", task.display(), size_name(geo)));
        }
        if let Some(n) = task
            .file_stem()
            .and_then(|n| n.to_str())
            .and_then(|n| n.parse::<usize>().ok())
        {
            folder.next = folder.next.max(n + 1);
        }
        let key = sym.canonical(drawn).0;
        folder.asked.entry(key).or_default().extend(ts);
        let res = result_path(task);
        match fs::read_to_string(&res) {
            Ok(r) => {
                for line in r.lines() {
                    let w: Vec<&str> = line.split_whitespace().collect();
                    if let ["at_least", t, yes] = w[..] {
                        let t: i32 = t
                            .parse()
                            .map_err(|_| format!("{}: bad line {line}", res.display()))?;
                        folder.answers.insert((key, t), yes == "yes");
                    }
                }
            }
            Err(_) => {
                let name = task.file_name().unwrap_or_default().to_string_lossy();
                folder.missing.push(name.to_string());
            }
        }
    }
    let choices = dir.join(CHOICES);
    if let Ok(text) = fs::read_to_string(&choices) {
        for (i, line) in text.lines().enumerate() {
            let bad = || format!("{} line {}: bad choice `{line}`", choices.display(), i + 1);
            let w: Vec<&str> = line.split_whitespace().collect();
            let [node, t, child] = w[..] else {
                return Err(bad());
            };
            let hex = |x: &str| u128::from_str_radix(x, 16).map_err(|_| bad());
            let t = t.parse().map_err(|_| bad())?;
            folder.chosen.insert((hex(node)?, t), hex(child)?);
        }
    }
    Ok(folder)
}

/// Where a proof split records the move of each *yes* node: `node-key threshold
/// child-key` in hex, one line each, appended by every extension.
const CHOICES: &str = "choices.txt";

/// Reads every task and result in `dir` and combines them by minimax over the top
/// `depth` edges (read from `split.txt`).
pub fn merge(dir: &Path) -> Result<Merged, String> {
    let folder = read_folder(dir)?;
    if !folder.missing.is_empty() {
        return Ok(Merged::Missing(folder.missing));
    }
    let sym = Symmetries::new(&folder.geo);
    let mut memo = HashMap::new();
    let mut board = Board::from_geometry(folder.geo.clone());
    let (depth, expect) = (folder.depth, folder.expect);
    let mut ask = |t| at_least(&mut board, &sym, depth, t, &folder.answers, &mut memo);
    Ok(match (ask(expect), ask(expect + 1)) {
        (Some(false), _) => Merged::Below(expect),
        (_, Some(true)) => Merged::Above(expect),
        (Some(true), Some(false)) => Merged::Value(expect),
        _ => Merged::Undecided,
    })
}

/// Whether the unscored value of `board` (side to move) is at least `t`, by minimax over
/// the top of the tree with the tasks' answers at `depth` edges; `None` when the answers
/// present cannot tell (a proof-tree split leaves out the moves it did not choose).
fn at_least(
    board: &mut Board,
    sym: &Symmetries,
    depth: usize,
    t: i32,
    answers: &HashMap<(u128, i32), bool>,
    memo: &mut HashMap<(u128, i32), Option<bool>>,
) -> Option<bool> {
    if board.is_over() {
        return Some(0 >= t);
    }
    let (key, _) = sym.canonical(board.drawn().lo);
    if board.drawn().len() == depth {
        return answers.get(&(key, t)).copied();
    }
    if let Some(&v) = memo.get(&(key, t)) {
        return v;
    }
    let mut found = Some(false);
    let legal: Vec<usize> = board.legal_edges().collect();
    for e in legal {
        let c = board.play(e).expect("a legal edge") as i32;
        let r = if c > 0 {
            at_least(board, sym, depth, t - c, answers, memo)
        } else {
            at_least(board, sym, depth, 1 - t, answers, memo).map(|x| !x)
        };
        board.undo();
        match r {
            Some(true) => {
                found = Some(true);
                break;
            }
            None => found = None,
            Some(false) => {}
        }
    }
    memo.insert((key, t), found);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_table_grows_with_the_board_within_a_quarter_of_memory() {
        let bits = |c, r| default_tt_bits(&Geometry::new(c, r).unwrap());
        assert_eq!(bits(2, 2), 16);
        let quarter = crate::memory::physical_mib().map_or(u64::MAX, |m| m / 4);
        for (c, r, want) in [(3, 4, 22), (3, 5, 27), (4, 4, 27), (4, 5, 27), (5, 5, 27)] {
            let b = bits(c, r);
            assert!(b <= want && b >= 16, "{c}x{r}: {b}");
            assert!(b == 16 || (8u64 << b) >> 20 <= quarter, "{c}x{r}: {b}");
            // Only a small machine gets less than the board asks for.
            assert!(
                b == want || (8u64 << (b + 1)) >> 20 > quarter,
                "{c}x{r}: {b}"
            );
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("quartet-split-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    /// Split, solve every task, merge: the published values (3x3: -3 for the first
    /// player; 2x3: -2), at several depths, including one where captures happen above the
    /// cut (2x2 boxes at depth 5: a box can be completed by the fourth edge). Each wrong
    /// guess of the root value must be refuted on the right side.
    #[test]
    fn split_solve_merge_gives_the_known_values() {
        for (c, r, depth, known) in [(3, 3, 3, -3), (3, 2, 4, -2), (2, 2, 5, 2), (1, 1, 3, -1)] {
            let geo = Geometry::new(c, r).unwrap();
            let dir = scratch(&format!("{c}x{r}-{depth}"));
            let n = write_tasks(&geo, depth, known, false, &dir).unwrap();
            assert!(n > 0);
            let tasks: Vec<PathBuf> = fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "task"))
                .collect();
            assert_eq!(tasks.len(), n);
            // One result missing: the merge names it. The others are solved as one batch
            // with a shared table, whose answers must be those of fresh tables.
            let mut shared = None;
            for t in &tasks[1..] {
                let batch = solve_task_with(t, Some(16), &mut shared).unwrap();
                assert_eq!(batch, solve_task(t, Some(16)).unwrap(), "{}", t.display());
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

    /// A proof-tree split writes fewer tasks than the full one and still merges to the
    /// published values; a wrong expectation is never confirmed: the merge says below or
    /// above on the right side, or undecided (a chosen move cannot prove a false claim).
    #[test]
    fn proof_split_gives_the_known_values_with_fewer_tasks() {
        let solve_all = |dir: &Path| {
            for e in fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.extension().is_some_and(|x| x == "task") {
                    solve_task(&p, Some(16)).unwrap();
                }
            }
        };
        for (c, r, depth, known) in [(3, 3, 2, -3), (3, 2, 4, -2), (2, 2, 5, 2)] {
            let geo = Geometry::new(c, r).unwrap();
            let full_dir = scratch(&format!("full-{c}x{r}-{depth}"));
            let full = write_tasks(&geo, depth, known, false, &full_dir).unwrap();
            fs::remove_dir_all(&full_dir).unwrap();
            for expect in [known - 1, known, known + 1] {
                let dir = scratch(&format!("proof-{c}x{r}-{depth}-{expect}"));
                let n = write_tasks(&geo, depth, expect, true, &dir).unwrap();
                solve_all(&dir);
                let merged = merge(&dir).unwrap();
                let what = format!("{c}x{r} depth {depth} expect {expect}: {n} of {full} tasks");
                if expect == known {
                    assert_eq!(merged, Merged::Value(known), "{what}");
                    assert!(n < full, "{what}");
                } else {
                    match merged {
                        Merged::Below(e) => assert!(known < e, "{what}"),
                        Merged::Above(e) => assert!(known > e, "{what}"),
                        Merged::Undecided => {}
                        other => panic!("{what}: {other:?}"),
                    }
                }
                fs::remove_dir_all(&dir).unwrap();
            }
        }
    }

    /// Extensions replace refuted moves until the merge decides. The guesser here takes
    /// the first legal move not refuted (often a bad one), so the first rounds end
    /// undecided; repeating split, solve, merge must reach the published value, and a
    /// wrong expectation must end below or above it, never in a value.
    #[test]
    fn extended_proof_splits_recover_from_wrong_guesses() {
        fn first_legal(board: &Board, avoid: &[usize], _: &mut PlayTable) -> Option<usize> {
            board.legal_edges().find(|e| !avoid.contains(e))
        }
        for (c, r, depth, known) in [(3, 3, 2, -3), (3, 2, 3, -2), (2, 2, 4, 2)] {
            let geo = Geometry::new(c, r).unwrap();
            for expect in [known - 1, known, known + 1] {
                let dir = scratch(&format!("extend-{c}x{r}-{depth}-{expect}"));
                let what = format!("{c}x{r} depth {depth} expect {expect}");
                let mut rounds = 0;
                let merged = loop {
                    rounds += 1;
                    assert!(rounds < 200, "{what}: no decision");
                    let n =
                        write_tasks_guessing(&geo, depth, expect, true, &dir, first_legal).unwrap();
                    let mut shared = None;
                    for e in fs::read_dir(&dir).unwrap() {
                        let p = e.unwrap().path();
                        if p.extension().is_some_and(|x| x == "task") && !result_path(&p).exists() {
                            solve_task_with(&p, Some(16), &mut shared).unwrap();
                        }
                    }
                    match merge(&dir).unwrap() {
                        Merged::Undecided => assert!(n > 0, "{what}: undecided, nothing new"),
                        Merged::Missing(m) => panic!("{what}: missing {m:?}"),
                        decided => break decided,
                    }
                };
                if expect == known {
                    assert_eq!(merged, Merged::Value(known), "{what}");
                    assert!(rounds > 1, "{what}: the first guesses were all right");
                } else {
                    match merged {
                        Merged::Below(e) => assert!(known < e, "{what}"),
                        Merged::Above(e) => assert!(known > e, "{what}"),
                        other => panic!("{what}: {other:?}"),
                    }
                }
                // The folder refuses another split's parameters.
                let err = write_tasks(&geo, depth + 1, expect, true, &dir).unwrap_err();
                assert!(err.contains("holds another split"), "{err}");
                fs::remove_dir_all(&dir).unwrap();
            }
        }
    }

    /// The symmetry reduction, counted independently: positions after two edges on 1x1
    /// (6 pairs of 4 edges) are all alike up to the ground-edge equivalence (every edge of
    /// a lone box is a ground edge): one task.
    #[test]
    fn leaves_are_reduced_by_symmetry() {
        let count = |c, r, depth| {
            let dir = scratch(&format!("count-{c}x{r}-{depth}"));
            let n = write_tasks(&Geometry::new(c, r).unwrap(), depth, 0, false, &dir).unwrap();
            fs::remove_dir_all(&dir).unwrap();
            n
        };
        assert_eq!(count(1, 1, 2), 1);
        // 2x1 after one edge: the middle edge, or a ground edge of one box (all ground
        // edges of both boxes are alike under the mirror and the ground equivalence).
        assert_eq!(count(2, 1, 1), 2);
    }
}
