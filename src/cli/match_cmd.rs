//! `quartet match go ...`: argument parsing and printing around `quartet::matches::runner`.
//! Progress goes to stderr (one line per finished game), the results table to stdout.
use crate::matches::gtp_client::StderrTarget;
use crate::matches::referee::EndReason;
use crate::matches::runner::{run_go_match, EngineSpec, GameReport, MatchConfig};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct MatchArgs {
    #[command(subcommand)]
    game: MatchGame,
}

#[derive(Subcommand, Debug)]
enum MatchGame {
    /// A Go match between two GTP engines.
    Go(GoMatchArgs),
}

#[derive(Args, Debug)]
struct GoMatchArgs {
    /// Command line of engine 1 (Black in games 1, 3, 5...; colours alternate).
    #[arg(long, value_name = "CMD")]
    black: String,
    /// Command line of engine 2 (White in games 1, 3, 5...).
    #[arg(long, value_name = "CMD")]
    white: String,
    /// Number of games.
    #[arg(long, default_value_t = 2)]
    games: usize,
    #[arg(long, default_value_t = 9)]
    boardsize: usize,
    #[arg(long, default_value_t = 7.0, allow_negative_numbers = true)]
    komi: f32,
    /// Per-move time limit for both engines, sent as `time_settings 0 T 1` and enforced.
    #[arg(long, value_name = "SECS")]
    time_per_move: Option<f64>,
    /// Per-move limit for engine 1 only (overrides --time-per-move; 0 = no limit).
    #[arg(long, value_name = "SECS")]
    time_per_move_1: Option<f64>,
    /// Per-move limit for engine 2 only (overrides --time-per-move; 0 = no limit).
    #[arg(long, value_name = "SECS")]
    time_per_move_2: Option<f64>,
    /// Allowance on top of a move limit for process and pipe latency.
    #[arg(long, value_name = "SECS", default_value_t = 0.5)]
    time_margin: f64,
    /// With no move limit, a genmove taking longer than this loses as a hang.
    #[arg(long, value_name = "SECS", default_value_t = 120.0)]
    hang_timeout: f64,
    /// Save every game as SGF in this directory.
    #[arg(long, value_name = "DIR")]
    sgf_dir: Option<PathBuf>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Display name of engine 1 (default: its program name).
    #[arg(long)]
    black_name: Option<String>,
    /// Display name of engine 2.
    #[arg(long)]
    white_name: Option<String>,
    /// Append the engines' stderr to this file (default: discarded).
    #[arg(long, value_name = "FILE")]
    engine_stderr: Option<PathBuf>,
}

/// Runs a match; `Err` is a usage or start-up error (engines misbehaving during games are
/// results, not errors).
pub fn run(args: MatchArgs) -> Result<(), String> {
    crate::logging::init_logging(None);
    let MatchGame::Go(args) = args.game;
    run_go(args).map_err(|e| format!("match: {e}"))
}

fn seconds(what: &str, secs: f64) -> Result<Duration, String> {
    Duration::try_from_secs_f64(secs).map_err(|_| format!("{what}: bad number of seconds {secs}"))
}

/// A per-move limit; 0 means none.
fn limit(what: &str, secs: Option<f64>) -> Result<Option<Duration>, String> {
    match secs {
        None => Ok(None),
        Some(0.0) => Ok(None),
        Some(s) => seconds(what, s).map(Some),
    }
}

/// The program's file name, for tables: `/usr/games/gnugo --mode gtp` is `gnugo`.
fn default_name(command: &str) -> String {
    let program = command.split_whitespace().next().unwrap_or("engine");
    program.rsplit('/').next().unwrap_or(program).to_string()
}

fn run_go(a: GoMatchArgs) -> Result<(), String> {
    let both = limit("--time-per-move", a.time_per_move)?;
    let t1 = match a.time_per_move_1 {
        Some(s) => limit("--time-per-move-1", Some(s))?,
        None => both,
    };
    let t2 = match a.time_per_move_2 {
        Some(s) => limit("--time-per-move-2", Some(s))?,
        None => both,
    };
    let mut n1 = a
        .black_name
        .clone()
        .unwrap_or_else(|| default_name(&a.black));
    let mut n2 = a
        .white_name
        .clone()
        .unwrap_or_else(|| default_name(&a.white));
    if n1 == n2 {
        n1.push_str("#1");
        n2.push_str("#2");
    }
    if !a.komi.is_finite() {
        return Err("--komi must be a number".into());
    }
    let cfg = MatchConfig {
        engines: [
            EngineSpec {
                name: n1,
                command: a.black.clone(),
                time_per_move: t1,
            },
            EngineSpec {
                name: n2,
                command: a.white.clone(),
                time_per_move: t2,
            },
        ],
        games: a.games,
        concurrency: a.concurrency,
        margin: seconds("--time-margin", a.time_margin)?,
        hang_timeout: seconds("--hang-timeout", a.hang_timeout)?,
        command_timeout: Duration::from_secs(10),
        record_dir: a.sgf_dir.clone(),
        record_extension: "sgf".into(),
        stderr: a
            .engine_stderr
            .clone()
            .map_or(StderrTarget::Null, StderrTarget::File),
    };
    let names = [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()];
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let games = a.games;
    let mut points = [0.0f64; 2];
    let mut done = 0;
    let progress = |r: &GameReport| {
        done += 1;
        match r.outcome.winner {
            None => {
                points[0] += 0.5;
                points[1] += 0.5;
            }
            Some(c) => {
                let winner = if c == crate::color::Color::Black {
                    r.black
                } else {
                    r.white
                };
                points[winner] += 1.0;
            }
        }
        let detail = match &r.outcome.reason {
            EndReason::Illegal(m) | EndReason::Malformed(m) | EndReason::EngineFailure(m) => {
                format!(" ({m})")
            }
            EndReason::Score { agreed: false, .. } => " (our scoring)".to_string(),
            _ => String::new(),
        };
        eprintln!(
            "game {}/{} [{done} done]: B {} W {}: {} {}{} after {} moves, {:.1} s; {} {} - {} {}",
            r.index + 1,
            games,
            names[r.black],
            names[r.white],
            r.outcome.result_text(),
            r.outcome.reason_word(),
            detail,
            r.outcome.moves,
            r.elapsed.as_secs_f64(),
            names[0],
            points[0],
            points[1],
            names[1],
        );
    };
    let stats = runtime.block_on(run_go_match(cfg, a.boardsize, a.komi, progress))?;
    println!(
        "Go {}x{}, komi {}, {} games",
        a.boardsize, a.boardsize, a.komi, games
    );
    print!("{}", stats.table());
    Ok(())
}
