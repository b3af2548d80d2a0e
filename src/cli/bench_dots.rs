//! `quartet bench dots`: the exact solve of an empty board, or one step of a solve split
//! into tasks (docs/dots-split.md): split, solve tasks, merge.
use crate::dots::parallel;
use crate::dots::play::{choose_move_avoiding, PlayTable, PLAY_TT_BITS};
use crate::dots::solver::MAX_SOLVER_EDGES;
use crate::dots::split;
use crate::dots::table::{bits_for_mb, mb_of_bits, Table};
use crate::dots::{Board, Geometry};
use clap::Args;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct BenchDotsArgs {
    /// Board to solve from empty, CxR boxes (3x3, 3x4, 4x4, ...).
    #[arg(long, default_value = "3x3")]
    pub solve: String,
    /// Transposition table in MiB (rounded down to a power of two; 8 bytes an entry).
    /// Default by board size: 2^(edges - 9) entries, within 2^16..=2^27 and at most a
    /// quarter of the memory (3x4: 32 MiB, 3x5 and 4x4: 1024 MiB).
    #[arg(long, conflicts_with = "tt_bits")]
    pub hash_mb: Option<usize>,
    /// The table size as log2 of its entries instead (10..=30; 27 = `--hash-mb 1024`).
    #[arg(long)]
    pub tt_bits: Option<u32>,
    /// Search threads of the solve, sharing one table; a list (`1,2`) solves once per
    /// count, each with a fresh table, to compare. 1 is the single-threaded solver, node
    /// for node.
    #[arg(long, value_delimiter = ',', default_value = "1")]
    pub threads: Vec<usize>,
    /// Instead of solving: cut the tree of this board (CxR) after `--depth` edges and
    /// write one task per distinct position into `--out` (docs/dots-split.md).
    #[arg(long)]
    pub split: Option<String>,
    /// Edges drawn before the cut, for `--split`.
    #[arg(long, default_value_t = 3)]
    pub depth: usize,
    /// The root value `--split` sets out to prove (for the first player); the merge says
    /// whether the root is that, below or above it.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub expect: i32,
    /// With `--split`: write only a proof tree of `--expect` (one move, chosen by a
    /// shallow search, where the expected answer needs only one), far fewer tasks. The
    /// same split on a folder that holds it replaces the moves its answers refuted.
    #[arg(long)]
    pub proof: bool,
    /// Task folder written by `--split`.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Solves task files in order, one table shared by all (tasks share subtrees), each
    /// writing its `.result` beside it; a task whose result exists is skipped.
    #[arg(long, num_args = 1..)]
    pub solve_task: Vec<std::path::PathBuf>,
    /// Combines the results of a task folder into the root value, or lists missing tasks.
    #[arg(long)]
    pub merge: Option<std::path::PathBuf>,
    /// Instead of solving: the timed player's search for this many seconds on each position
    /// of `--positions`, once per `--threads` count: the depth it completes, whether that
    /// solved the position, and the nodes of all threads.
    #[arg(long, requires = "positions")]
    pub play: Option<f64>,
    /// Positions for `--play`, one per line as edges played from the empty `--solve` board
    /// (protocols/dots.md notation; `#` comments), e.g. scripts/openings/dots5x5.txt with
    /// `--solve 5x5`.
    #[arg(long)]
    pub positions: Option<std::path::PathBuf>,
}

/// Solves the empty board and prints value, nodes, nodes/s and time; or one step of the
/// split/solve-task/merge chain.
pub fn run(args: BenchDotsArgs) -> Result<(), String> {
    if args.tt_bits.is_some_and(|b| !(10..=30).contains(&b)) {
        return Err("--tt-bits must be in 10..=30".into());
    }
    if let Some(mb) = args.hash_mb {
        crate::memory::check_hash_mb(mb, mb as u64)?;
    }
    if args.threads.iter().any(|&n| n == 0 || n > 256) {
        return Err("--threads must be between 1 and 256".into());
    }
    let tt_bits = args.tt_bits.or(args.hash_mb.map(bits_for_mb));
    if let Some(size) = &args.split {
        let geo = Geometry::parse_size(size).map_err(|e| format!("--split {size}: {e}"))?;
        let out = args.out.as_ref().ok_or("--split needs --out DIR")?;
        let start = Instant::now();
        let extend = out.join("split.txt").exists();
        let n = split::write_tasks(&geo, args.depth, args.expect, args.proof, out)?;
        println!(
            "dots {size}: {n} {}tasks after {} edges in {} ({:.1} s)",
            if extend { "new " } else { "" },
            args.depth,
            out.display(),
            start.elapsed().as_secs_f64()
        );
        return Ok(());
    }
    if !args.solve_task.is_empty() {
        let mut table = None;
        for task in &args.solve_task {
            if task.with_extension("result").exists() {
                println!("{}: done before", task.display());
                continue;
            }
            let start = Instant::now();
            let answers: Vec<String> = split::solve_task_with(task, tt_bits, &mut table)?
                .iter()
                .map(|(t, yes)| format!("{}{t}", if *yes { ">=" } else { "<" }))
                .collect();
            println!(
                "{}: value {} time {:.3} s",
                task.display(),
                answers.join(" "),
                start.elapsed().as_secs_f64()
            );
        }
        return Ok(());
    }
    if let Some(dir) = &args.merge {
        return match split::merge(dir)? {
            split::Merged::Value(v) => {
                println!("value {v:+} for the first player ({})", dir.display());
                Ok(())
            }
            split::Merged::Below(v) => {
                println!(
                    "value below {v:+} for the first player: split again with a lower --expect"
                );
                Ok(())
            }
            split::Merged::Above(v) => {
                println!(
                    "value above {v:+} for the first player: split again with a higher --expect"
                );
                Ok(())
            }
            split::Merged::Undecided => Err(
                "undecided: a move the proof split chose does not reach --expect (a wrong guess, or a wrong expectation): run the same --split on this folder again to replace it, solve the new tasks, merge"
                    .into(),
            ),
            split::Merged::Missing(m) => {
                for t in &m {
                    println!("missing {t}");
                }
                Err(format!("{} tasks have no result yet", m.len()))
            }
        };
    }
    let geo = Geometry::parse_size(&args.solve).map_err(|e| e.to_string())?;
    if let (Some(secs), Some(file)) = (args.play, &args.positions) {
        return play_positions(&Board::from_geometry(geo), secs, file, &args.threads);
    }
    let tt_bits = tt_bits.unwrap_or(split::default_tt_bits(&geo));
    if args.tt_bits.is_some() {
        crate::memory::check_tables("--tt-bits", &tt_bits.to_string(), mb_of_bits(tt_bits))?;
    }
    let board = Board::from_geometry(geo);
    if board.geometry().n_edges() > MAX_SOLVER_EDGES {
        return Err("board too large for the solver".into());
    }
    for &threads in &args.threads {
        // A fresh table for each count: a filled one would answer the next solve.
        let table = Table::new(tt_bits, board.geometry().n_edges());
        let start = Instant::now();
        let solved = parallel::solve(&board, &table, threads, None, None)
            .ok_or("board too large for the solver")?;
        let secs = start.elapsed().as_secs_f64();
        println!(
            "dots {}: value {:+} nodes {} nodes/s {:.0} time {secs:.3} s threads {threads}",
            args.solve,
            solved.value,
            solved.nodes,
            solved.nodes as f64 / secs.max(1e-9)
        );
    }
    Ok(())
}

/// `--play`: the timed search on each position of `file`, for each thread count.
fn play_positions(
    empty: &Board,
    secs: f64,
    file: &std::path::Path,
    threads: &[usize],
) -> Result<(), String> {
    if !(0.001..=3600.0).contains(&secs) {
        return Err("--play must be between 0.001 and 3600 seconds".into());
    }
    let text = crate::bounded_read::read_to_string_capped(file, 1 << 20)?;
    let time = std::time::Duration::from_secs_f64(secs);
    let mut totals = vec![(0u64, 0u32, 0u32); threads.len()];
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut board = empty.clone();
        for word in line.split_whitespace() {
            let e = word
                .parse()
                .ok()
                .and_then(|name| board.edge_index(&name))
                .ok_or_else(|| format!("{}:{}: bad edge `{word}`", file.display(), n + 1))?;
            board
                .play(e)
                .map_err(|err| format!("{}:{}: {word}: {err}", file.display(), n + 1))?;
        }
        let mut cells = Vec::new();
        for (k, &t) in threads.iter().enumerate() {
            let mut table = PlayTable::new(PLAY_TT_BITS, t);
            table.prepare(&board);
            let c = choose_move_avoiding(&board, time, time, None, &[], &mut table)
                .ok_or("a position with no move left")?;
            totals[k].0 += c.nodes;
            totals[k].1 += c.depth as u32;
            totals[k].2 += c.exact as u32;
            cells.push(format!(
                "threads {t}: depth {}{} nodes {}",
                c.depth,
                if c.exact { " exact" } else { "" },
                c.nodes
            ));
        }
        println!("line {}: {}", n + 1, cells.join(" | "));
    }
    for (k, &t) in threads.iter().enumerate() {
        let (nodes, depths, exact) = totals[k];
        println!("threads {t}: depths summed {depths}, exact {exact}, nodes {nodes}");
    }
    Ok(())
}
