//! `quartet dots` (the protocol engine) and `quartet bench dots`.
use crate::dots::geometry::SizeError;
use crate::dots::gtp::{parse_box_size, DotsEngine, DEFAULT_SOLVE_LIMIT};
use crate::dots::player::Player;
use crate::dots::sau::SauEngine;
use crate::dots::solver::Solver;
use crate::dots::split;
use crate::dots::{Board, Geometry};
use clap::Args;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct DotsArgs {
    /// Seconds per move when no time control was set with time_settings.
    #[arg(long, default_value_t = 1.0)]
    pub move_time: f64,
    /// Milliseconds kept back from every move's time, besides 2.5% of it, for the lag
    /// between the controller's clock and ours (raise it when playing over a network).
    #[arg(long, default_value_t = crate::search::time::DEFAULT_LAG_BUFFER_MS)]
    pub lag_buffer: u64,
    /// Most undrawn edges the `solve` command accepts before answering `? too large`.
    #[arg(long, default_value_t = DEFAULT_SOLVE_LIMIT)]
    pub solve_limit: usize,
    /// Longest time one `solve` command may take, in seconds; then it answers
    /// `? not solved in T s`.
    #[arg(long, default_value_t = 60.0)]
    pub solve_time: f64,
    /// Protocol on stdin/stdout: `gtp` (protocols/dots.md) or `sau` (the SAU platform's
    /// `name?` / `new` / `move <n> <KIJ...>` format of the Chinese championships).
    #[arg(long, default_value = "gtp", value_parser = ["gtp", "sau"])]
    pub protocol: String,
    /// Starting board, CxR boxes (1..8 each; `N` means NxN). The SAU platform plays 5x5
    /// (6x6 dots); GTP's `boardsize` changes it later.
    #[arg(long, default_value = "5x5")]
    pub boardsize: String,
    /// Who chooses the moves: `search` (the engine) or `greedy` (the reference player that
    /// takes any box, else draws a random edge giving nothing away, else a random edge).
    #[arg(long, default_value = "search", value_parser = ["search", "greedy"])]
    pub player: String,
    /// Seed of the greedy player's random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// GoGui's rules mode from the start: moves as points of the (2C+1)x(2R+1) grid and
    /// `boardsize N` in grid points (the first `gogui-rules_*` command also turns it on).
    #[arg(long)]
    pub gogui: bool,
    /// Log level on stderr (error, warn, info, debug, trace); RUST_LOG also works.
    #[arg(long)]
    pub log_level: Option<String>,
}

pub fn run(args: DotsArgs) -> Result<(), String> {
    crate::logging::init_logging(args.log_level.as_deref())?;
    if !(args.move_time > 0.0 && args.move_time <= 86_400.0) {
        return Err("--move-time must be in (0, 86400] seconds".into());
    }
    crate::search::time::set_lag_buffer(args.lag_buffer)?;
    let player = match args.player.as_str() {
        "greedy" => Player::greedy(args.seed),
        _ => Player::search(),
    };
    let move_time = Duration::from_secs_f64(args.move_time);
    let geo = parse_box_size(&args.boardsize)
        .map_err(|_| format!("--boardsize {:?}: {}", args.boardsize, SizeError))?;
    if args.protocol == "sau" {
        let mut engine = SauEngine::new(geo, player, move_time);
        engine.prepare();
        return crate::dots::sau::run_stdio(engine).map_err(|e| format!("i/o error: {e}"));
    }
    if !(args.solve_time > 0.0 && args.solve_time <= 86_400.0) {
        return Err("--solve-time must be in (0, 86400] seconds".into());
    }
    let mut engine = DotsEngine::new(move_time, args.solve_limit)
        .with_player(player)
        .with_solve_time(Duration::from_secs_f64(args.solve_time))
        .with_geometry(geo)
        .with_gogui(args.gogui);
    engine.prepare();
    crate::protocol::run_stdio(engine).map_err(|e| format!("i/o error: {e}"))
}

#[derive(Args, Debug)]
pub struct BenchDotsArgs {
    /// Board to solve from empty, CxR boxes (3x3, 3x4, 4x4, ...).
    #[arg(long, default_value = "3x3")]
    pub solve: String,
    /// log2 of the transposition-table entries (8 bytes each). Default by board size:
    /// edges - 9, within 16..=27 and at most a quarter of the memory (3x4: 22 = 32 MB,
    /// 3x5 and 4x4: 27 = 1 GB).
    #[arg(long)]
    pub tt_bits: Option<u32>,
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
}

/// Solves the empty board and prints value, nodes, nodes/s and time; or one step of the
/// split/solve-task/merge chain.
pub fn bench(args: BenchDotsArgs) -> Result<(), String> {
    if args.tt_bits.is_some_and(|b| !(10..=30).contains(&b)) {
        return Err("--tt-bits must be in 10..=30".into());
    }
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
            let answers: Vec<String> = split::solve_task_with(task, args.tt_bits, &mut table)?
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
    let tt_bits = args.tt_bits.unwrap_or(split::default_tt_bits(&geo));
    // 8 bytes an entry.
    crate::memory::check_tables("--tt-bits", &tt_bits.to_string(), (8u64 << tt_bits) >> 20)?;
    let board = Board::from_geometry(geo);
    let mut solver = Solver::new(&board, tt_bits).ok_or("board too large for the solver")?;
    let start = Instant::now();
    let value = solver.solve();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "dots {}: value {value:+} nodes {} nodes/s {:.0} time {secs:.3} s",
        args.solve,
        solver.nodes,
        solver.nodes as f64 / secs.max(1e-9)
    );
    Ok(())
}
