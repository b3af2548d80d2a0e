//! `quartet match <game> ...`: the options of each game, turned into a rules factory for
//! the tournament of `match_tourney`. `match go --black CMD --white CMD --games N` is the
//! same tournament with two engines given directly; `quartet match merge` combines shards.
use super::match_tourney::{
    program_name, run_general, run_merge, Common, HeadToHead, MergeArgs, TourneyArgs,
};
use crate::gomoku::board::Rule;
use crate::matches::dots_referee::DotsReferee;
use crate::matches::go_referee::GoReferee;
use crate::matches::gomoku_referee::GomokuReferee;
use crate::matches::gtp_client::Protocol;
use crate::matches::gtp_client::StderrTarget;
use crate::matches::othello_referee::OthelloReferee;
use crate::matches::tournament::Player;
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
    /// Command line of engine 1, Black in games 1, 3, 5... (colours alternate unless
    /// --fixed-colours).
    #[arg(long, value_name = "CMD", conflicts_with_all = ["engines", "schedule"], requires = "white")]
    black: Option<String>,
    /// Command line of engine 2, White in games 1, 3, 5...
    #[arg(long, value_name = "CMD", conflicts_with_all = ["engines", "schedule"], requires = "black")]
    white: Option<String>,
    /// Number of games with --black/--white (default: two per --rounds).
    #[arg(long, conflicts_with_all = ["engines", "rounds"])]
    games: Option<usize>,
    /// With --black/--white: engine 1 has Black in every game.
    #[arg(long, conflicts_with = "engines")]
    fixed_colours: bool,
    /// Board size, 2 to 19.
    #[arg(long, default_value_t = 9)]
    boardsize: usize,
    /// Komi: points added to White's area score.
    #[arg(long, default_value_t = 7.0, allow_negative_numbers = true)]
    komi: f32,
    /// Per-move time limit for every engine, sent as `time_settings 0 T 1` and enforced
    /// (default: none).
    #[arg(long, value_name = "SECS")]
    time_per_move: Option<f64>,
    /// Per-move limit for the --black engine only (overrides --time-per-move; 0 = no limit).
    #[arg(long, value_name = "SECS", conflicts_with = "engines")]
    time_per_move_1: Option<f64>,
    /// Per-move limit for the --white engine only (overrides --time-per-move; 0 = no limit).
    #[arg(long, value_name = "SECS", conflicts_with = "engines")]
    time_per_move_2: Option<f64>,
    /// Save every game as SGF in this directory (the same as --records).
    #[arg(long, value_name = "DIR")]
    sgf_dir: Option<PathBuf>,
    /// Display name of the --black engine (default: its program name).
    #[arg(long, conflicts_with = "engines")]
    black_name: Option<String>,
    /// Display name of the --white engine (default: its program name).
    #[arg(long, conflicts_with = "engines")]
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
    run_general(
        "othello 8x8".into(),
        "sgf",
        new_game,
        a.tourney,
        common,
        None,
    )
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
    run_general(title, "dots", new_game, o.tourney, common, None)
}

/// Options of `quartet match gomoku` (the general form only).
#[derive(Args, Debug)]
struct GomokuMatchArgs {
    /// Board size, 5 to 22.
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
    run_general(title, "sgf", new_game, o.tourney, common, None)
}

/// `quartet match go`: the general form with `--engine`, or two engines with
/// `--black`/`--white`.
fn run_go(a: GoMatchArgs) -> Result<(), String> {
    let (size, komi) = (a.boardsize, a.komi);
    if GoReferee::new(size, komi).is_none() || !komi.is_finite() {
        return Err(format!("unsupported board size {size} or komi {komi}"));
    }
    let head = match (&a.black, &a.white) {
        (Some(black), Some(white)) => Some(head_to_head(&a, black, white)?),
        _ if a.tourney.engines.is_empty() => {
            return Err("give --black and --white, or two or more --engine".into())
        }
        _ => None,
    };
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
    run_general(title, "sgf", new_game, a.tourney, common, head)
}

/// The two players of `--black CMD --white CMD`, with their names and move limits.
fn head_to_head(a: &GoMatchArgs, black: &str, white: &str) -> Result<HeadToHead, String> {
    let both = limit("--time-per-move", a.time_per_move)?;
    let own = |what: &str, secs: Option<f64>| match secs {
        Some(s) => limit(what, Some(s)),
        None => Ok(both),
    };
    let name = |what: &str, given: &Option<String>, command: &str| match given {
        None => Ok(program_name(command)),
        Some(n) if n.is_empty() || n.contains(['\t', '\n', '\r']) => Err(format!(
            "{what} {n:?}: a name must not be empty or hold a tab or line break"
        )),
        Some(n) => Ok(n.clone()),
    };
    let player = |command: &str, name: String, time_per_move| Player {
        name,
        command: command.to_string(),
        time_per_move,
        clock: None,
        protocol: Protocol::Gtp,
    };
    Ok(HeadToHead {
        players: [
            player(
                black,
                name("--black-name", &a.black_name, black)?,
                own("--time-per-move-1", a.time_per_move_1)?,
            ),
            player(
                white,
                name("--white-name", &a.white_name, white)?,
                own("--time-per-move-2", a.time_per_move_2)?,
            ),
        ],
        games: a.games.unwrap_or(a.tourney.rounds.saturating_mul(2)),
        fixed_colours: a.fixed_colours,
    })
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
