//! `quartet match go ...`: argument parsing and printing around `quartet::matches::runner`.
//! Progress goes to stderr (one line per finished game), the results table to stdout.
//! With `--engine` (two or more) the general tournament form of `match_tourney` runs
//! instead; `quartet match merge` combines shards.
use super::match_tourney::{run_general, run_merge, Common, MergeArgs, TourneyArgs};
use crate::gomoku::board::Rule;
use crate::matches::dots_referee::DotsReferee;
use crate::matches::go_referee::GoReferee;
use crate::matches::gomoku_referee::GomokuReferee;
use crate::matches::gtp_client::StderrTarget;
use crate::matches::othello_referee::OthelloReferee;
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
    /// A Go match or tournament between GTP engines.
    Go(Box<GoMatchArgs>),
    /// An Othello tournament between engines speaking the dialect of protocols/othello.md.
    Othello(Box<GeneralMatchArgs>),
    /// A Dots-and-Boxes tournament between engines speaking protocols/dots.md.
    Dots(Box<DotsMatchArgs>),
    /// A Gomoku tournament between engines speaking protocols/gomoku.md (GTP framing).
    Gomoku(Box<GomokuMatchArgs>),
    /// Combine the results of shards (`--shard i/n --out DIR`) into one table.
    Merge(MergeArgs),
}

#[derive(Args, Debug)]
struct GoMatchArgs {
    /// Command line of engine 1 (Black in games 1, 3, 5...; colours alternate).
    #[arg(long, value_name = "CMD", conflicts_with = "engines")]
    black: Option<String>,
    /// Command line of engine 2 (White in games 1, 3, 5...).
    #[arg(long, value_name = "CMD", conflicts_with = "engines")]
    white: Option<String>,
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
    /// Save every game as SGF in this directory.
    #[arg(long, value_name = "DIR")]
    sgf_dir: Option<PathBuf>,
    /// Display name of engine 1 (default: its program name).
    #[arg(long)]
    black_name: Option<String>,
    /// Display name of engine 2.
    #[arg(long)]
    white_name: Option<String>,
    #[command(flatten)]
    process: ProcessArgs,
    #[command(flatten)]
    tourney: TourneyArgs,
}

/// Runs a match; `Err` is a usage or start-up error (engines misbehaving during games are
/// results, not errors).
pub fn run(args: MatchArgs) -> Result<(), String> {
    crate::logging::init_logging(None)?;
    match args.game {
        MatchGame::Go(a) if !a.tourney.engines.is_empty() => run_go_general(*a),
        MatchGame::Go(a) => run_go(*a),
        MatchGame::Othello(a) => run_othello(*a),
        MatchGame::Dots(a) => run_dots(*a),
        MatchGame::Gomoku(a) => run_gomoku(*a),
        MatchGame::Merge(a) => run_merge(a),
    }
    .map_err(|e| format!("match: {e}"))
}

/// Options of `quartet match othello`, and the clock and process part of the other
/// games' general form.
#[derive(Args, Debug)]
struct GeneralMatchArgs {
    /// Per-move time limit for every engine, sent as `time_settings 0 T 1` and enforced.
    #[arg(long, value_name = "SECS")]
    time_per_move: Option<f64>,
    #[command(flatten)]
    process: ProcessArgs,
    #[command(flatten)]
    tourney: TourneyArgs,
}

/// `quartet match othello --engine ... --engine ...`.
fn run_othello(a: GeneralMatchArgs) -> Result<(), String> {
    let cap = a.tourney.max_moves;
    let new_game = move || {
        let g = OthelloReferee::new();
        match cap {
            Some(n) => g.with_max_moves(n),
            None => g,
        }
    };
    let common = a.process.common(a.time_per_move, None)?;
    run_general("othello 8x8".into(), "sgf", new_game, a.tourney, common)
}

/// The process options every form of `quartet match` shares.
#[derive(Args, Debug)]
struct ProcessArgs {
    /// Allowance on top of a move limit for process and pipe latency.
    #[arg(long, value_name = "SECS", default_value_t = 0.5)]
    time_margin: f64,
    /// With no move limit, a genmove taking longer than this loses as a hang.
    #[arg(long, value_name = "SECS", default_value_t = 120.0)]
    hang_timeout: f64,
    /// Games played at the same time (1 to 256).
    #[arg(long, default_value_t = 1, value_parser = parse_concurrency)]
    concurrency: usize,
    /// Append the engines' stderr to this file (default: discarded).
    #[arg(long, value_name = "FILE")]
    engine_stderr: Option<PathBuf>,
}

fn parse_concurrency(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=256).contains(&n) => Ok(n),
        _ => Err("expected a whole number of games from 1 to 256".into()),
    }
}

impl ProcessArgs {
    fn margin(&self) -> Result<Duration, String> {
        seconds("--time-margin", self.time_margin)
    }

    fn hang_timeout(&self) -> Result<Duration, String> {
        seconds("--hang-timeout", self.hang_timeout)
    }

    fn stderr(&self) -> StderrTarget {
        self.engine_stderr
            .clone()
            .map_or(StderrTarget::Null, StderrTarget::File)
    }

    /// The options of a general-form match with this move limit and record directory.
    fn common(
        &self,
        time_per_move: Option<f64>,
        records: Option<PathBuf>,
    ) -> Result<Common, String> {
        Ok(Common {
            time_per_move: limit("--time-per-move", time_per_move)?,
            margin: self.margin()?,
            hang_timeout: self.hang_timeout()?,
            concurrency: self.concurrency,
            stderr: self.stderr(),
            records,
            pbrain_ok: false,
        })
    }
}

/// Options of `quartet match dots` (the general form only).
#[derive(Args, Debug)]
struct DotsMatchArgs {
    /// Boxes, `CxR` or `N` (1..8 each way).
    #[arg(long, default_value = "5x5")]
    boardsize: String,
    #[command(flatten)]
    clock: GeneralMatchArgs,
}

/// `quartet match dots --engine ... --engine ...`.
fn run_dots(a: DotsMatchArgs) -> Result<(), String> {
    let bad = || format!("bad --boardsize {:?} (expected CxR, 1..8)", a.boardsize);
    let (c, r) = a
        .boardsize
        .split_once('x')
        .unwrap_or((&a.boardsize, &a.boardsize));
    let (cols, rows): (usize, usize) = (
        c.trim().parse().map_err(|_| bad())?,
        r.trim().parse().map_err(|_| bad())?,
    );
    DotsReferee::new(cols, rows).ok_or_else(bad)?;
    let o = a.clock;
    let cap = o.tourney.max_moves;
    let new_game = move || {
        let g = DotsReferee::new(cols, rows).expect("size checked above");
        match cap {
            Some(n) => g.with_max_moves(n),
            None => g,
        }
    };
    let common = o.process.common(o.time_per_move, None)?;
    let title = format!("dots {cols}x{rows}");
    run_general(title, "dots", new_game, o.tourney, common)
}

/// Options of `quartet match gomoku` (the general form only).
#[derive(Args, Debug)]
struct GomokuMatchArgs {
    #[arg(long, default_value_t = 15)]
    boardsize: usize,
    /// freestyle, standard (exactly five) or renju.
    #[arg(long, default_value = "freestyle")]
    rule: String,
    #[command(flatten)]
    clock: GeneralMatchArgs,
}

/// `quartet match gomoku --engine ... --engine ...`.
fn run_gomoku(a: GomokuMatchArgs) -> Result<(), String> {
    let rule = Rule::parse(&a.rule).ok_or_else(|| format!("unknown --rule {:?}", a.rule))?;
    let size = a.boardsize;
    GomokuReferee::new(size, rule, &[])
        .ok_or_else(|| format!("unsupported --boardsize {size} (5..=22)"))?;
    let o = a.clock;
    let new_game = move || GomokuReferee::new(size, rule, &[]).expect("size checked above");
    let common = Common {
        pbrain_ok: true,
        ..o.process.common(o.time_per_move, None)?
    };
    let title = format!("gomoku {size}x{size} {}", rule.name());
    run_general(title, "sgf", new_game, o.tourney, common)
}

/// `quartet match go --engine ... --engine ...`.
fn run_go_general(a: GoMatchArgs) -> Result<(), String> {
    let (size, komi) = (a.boardsize, a.komi);
    if GoReferee::new(size, komi).is_none() || !komi.is_finite() {
        return Err(format!("unsupported board size {size} or komi {komi}"));
    }
    let cap = a.tourney.max_moves;
    let new_game = move || {
        let g = GoReferee::new(size, komi).expect("size checked above");
        match cap {
            Some(n) => g.with_max_moves(n),
            None => g,
        }
    };
    let common = a.process.common(a.time_per_move, a.sgf_dir.clone())?;
    let title = format!("go {size}x{size} komi {komi}");
    run_general(title, "sgf", new_game, a.tourney, common)
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
    let (Some(black), Some(white)) = (a.black.clone(), a.white.clone()) else {
        return Err("give --black and --white, or two or more --engine".into());
    };
    let both = limit("--time-per-move", a.time_per_move)?;
    let t1 = match a.time_per_move_1 {
        Some(s) => limit("--time-per-move-1", Some(s))?,
        None => both,
    };
    let t2 = match a.time_per_move_2 {
        Some(s) => limit("--time-per-move-2", Some(s))?,
        None => both,
    };
    let mut n1 = a.black_name.clone().unwrap_or_else(|| default_name(&black));
    let mut n2 = a.white_name.clone().unwrap_or_else(|| default_name(&white));
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
                command: black,
                time_per_move: t1,
            },
            EngineSpec {
                name: n2,
                command: white,
                time_per_move: t2,
            },
        ],
        games: a.games,
        concurrency: a.process.concurrency,
        margin: a.process.margin()?,
        hang_timeout: a.process.hang_timeout()?,
        command_timeout: Duration::from_secs(10),
        record_dir: a.sgf_dir.clone(),
        record_extension: "sgf".into(),
        stderr: a.process.stderr(),
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
        let detail = match r.outcome.detail() {
            d if d.is_empty() => d,
            d => format!(" ({d})"),
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
