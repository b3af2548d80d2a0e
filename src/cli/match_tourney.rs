//! The general form of `quartet match <game> --engine "name=A cmd=..." --engine ...`:
//! schedules, openings, shards, SPRT, progress on stderr, tables on stdout, results files;
//! and `quartet match merge DIR...`. The game-specific part is only a rules factory.
use crate::matches::gtp_client::{Protocol, StderrTarget};
use crate::matches::referee::{Clock, RefereeGame, ResignRule};
use crate::matches::report::{fmt_elo, render, to_json};
use crate::matches::results::{merge_dirs, results_text, summarize, GameRecord, TournamentInfo};
use crate::matches::schedule::{
    pairings, parse_openings, random_openings, schedule, ScheduleKind, Shard,
};
use crate::matches::stats::{Pentanomial, Sprt, SprtState, Wdl};
use crate::matches::tournament::{run_tournament, Player, TournamentConfig};
use clap::Args;
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

/// Options of the general form (shared by every game).
#[derive(Args, Debug, Default)]
pub struct TourneyArgs {
    /// An engine: `name=NAME [st=SECS] [tc=BASE+INC] cmd=COMMAND LINE...` (cmd last: it
    /// takes the rest). Two or more switch to the general form.
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,
    /// Rounds: every pairing plays each round's opening twice, colours swapped (with
    /// --black/--white and no --games: two games a round).
    #[arg(long, default_value_t = 1)]
    pub rounds: usize,
    /// round-robin (everyone against everyone), gauntlet (the first engine against each
    /// of the others) or fixed-colours (round robin; the first-listed engine of each
    /// pairing has Black in every game).
    #[arg(long, default_value = "round-robin")]
    pub schedule: String,
    /// Opening file: one opening per line, moves in protocol notation; round r uses line
    /// r modulo the number of lines.
    #[arg(long, value_name = "FILE", conflicts_with = "random_openings")]
    pub openings: Option<PathBuf>,
    /// Generate each round's opening from N random legal plies (seeded by --seed).
    #[arg(long, value_name = "N")]
    pub random_openings: Option<usize>,
    /// Seed of generated openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Sudden death plus increment for every engine, `BASE+INC` seconds (e.g. 60+0.5);
    /// sent as `time_settings BASE 0 0` and `time_left` before each move.
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<String>,
    /// Sequential test on the first pairing, e.g. `--sprt elo0=0 elo1=10 alpha=0.05
    /// beta=0.05`; the match stops when it decides (not with --shard).
    #[arg(long, num_args = 1.., value_name = "K=V")]
    pub sprt: Option<Vec<String>>,
    /// Play only the i-th of n disjoint slices of the schedule (needs --out).
    #[arg(long, value_name = "I/N", requires = "out")]
    pub shard: Option<String>,
    /// Directory for results.tsv, results.txt and (unless --records) records/.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Write the summary and every game as JSON to this file (fields in docs/match.md).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Directory for the game records (SGF for Go, Othello and Gomoku; text for Dots).
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// Adjudicate a game after this many moves (scored by our rules).
    #[arg(long, value_name = "N")]
    pub max_moves: Option<usize>,
    /// Resignation by agreement: end a game when for N moves in a row both engines'
    /// answers to --resign-command name the same winner by at least --resign-score.
    #[arg(long, value_name = "N")]
    pub resign_moves: Option<usize>,
    /// Smallest margin (points, discs, boxes) both engines must claim for --resign-moves.
    #[arg(
        long,
        value_name = "SCORE",
        default_value_t = 0.0,
        requires = "resign_moves"
    )]
    pub resign_score: f32,
    /// The command asked after every move for --resign-moves; answers like `final_score`.
    #[arg(
        long,
        value_name = "CMD",
        default_value = "final_score",
        requires = "resign_moves"
    )]
    pub resign_command: String,
}

/// `quartet match merge DIR...`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Output directories of shards (each holding results.tsv).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Also write the merged results as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

/// Settings the per-game front end (`match go`) passes on.
pub struct Common {
    pub time_per_move: Option<Duration>,
    pub margin: Duration,
    pub hang_timeout: Duration,
    pub concurrency: usize,
    pub stderr: StderrTarget,
    pub records: Option<PathBuf>,
    /// Whether engines may speak the Gomocup protocol (`proto=pbrain`): Gomoku only.
    pub pbrain_ok: bool,
}

/// The program's file name: `/usr/games/gnugo --mode gtp` is `gnugo`.
pub fn program_name(command: &str) -> String {
    let program = command.split_whitespace().next().unwrap_or("engine");
    // The last non-empty path part: `cmd=/` or `cmd=dir/` must not name an engine "".
    program
        .rsplit('/')
        .find(|part| !part.is_empty())
        .unwrap_or(program)
        .to_string()
}

/// `60+0.5` (or `60`) seconds.
fn parse_clock(text: &str) -> Result<Clock, String> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let secs = |s: &str| {
        s.trim()
            .parse::<f64>()
            .ok()
            .and_then(|x| Duration::try_from_secs_f64(x).ok())
            .ok_or_else(|| format!("bad time control {text:?} (expected BASE+INC seconds)"))
    };
    let clock = Clock {
        base: secs(base)?,
        increment: secs(inc)?,
    };
    if clock.base.is_zero() {
        return Err(format!("time control {text:?}: the base must be positive"));
    }
    Ok(clock)
}

/// Parses `name=A st=1 tc=60+1 proto=pbrain cmd=prog args...`.
pub fn parse_engine(spec: &str, defaults: &Common, tc: Option<Clock>) -> Result<Player, String> {
    let (head, command) = match spec.find("cmd=") {
        Some(i) => (&spec[..i], spec[i + 4..].trim()),
        None => return Err(format!("engine {spec:?}: cmd=... is missing")),
    };
    if command.is_empty() {
        return Err(format!("engine {spec:?}: empty cmd"));
    }
    let mut player = Player {
        name: program_name(command),
        command: command.to_string(),
        time_per_move: defaults.time_per_move,
        clock: tc,
        protocol: Protocol::Gtp,
    };
    for item in head.split_whitespace() {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| format!("engine {spec:?}: expected key=value, got {item:?}"))?;
        match k {
            "name" if !v.is_empty() && !v.contains(['\t', '\n']) => player.name = v.to_string(),
            "st" => {
                let secs: f64 = v.parse().map_err(|_| format!("engine {spec:?}: st={v}"))?;
                player.time_per_move = if secs == 0.0 {
                    None
                } else {
                    Some(
                        Duration::try_from_secs_f64(secs)
                            .map_err(|_| format!("engine {spec:?}: st={v}"))?,
                    )
                };
            }
            "tc" => player.clock = Some(parse_clock(v)?),
            "proto" => {
                player.protocol = match v {
                    "gtp" => Protocol::Gtp,
                    "pbrain" if defaults.pbrain_ok => Protocol::Pbrain,
                    "pbrain" => return Err(format!("engine {spec:?}: proto=pbrain is for Gomoku")),
                    _ => return Err(format!("engine {spec:?}: proto={v} (gtp or pbrain)")),
                }
            }
            _ => return Err(format!("engine {spec:?}: unknown key {k:?}")),
        }
    }
    Ok(player)
}

/// Running totals for the progress line of a two-engine match (engine 0's view).
#[derive(Default)]
struct Live {
    wdl: Wdl,
    penta: Pentanomial,
    half_pairs: HashMap<usize, f64>,
}

impl Live {
    fn add(&mut self, r: &GameRecord) {
        let p = r.points_of(0).unwrap_or(0.5);
        if p == 1.0 {
            self.wdl.wins += 1;
        } else if p == 0.0 {
            self.wdl.losses += 1;
        } else {
            self.wdl.draws += 1;
        }
        match self.half_pairs.remove(&(r.index / 2)) {
            Some(q) => self.penta.add(p + q),
            None => {
                self.half_pairs.insert(r.index / 2, p);
            }
        }
    }
}

/// The largest schedule a run accepts (a bound on memory, far beyond any real match).
const MAX_GAMES: usize = 1_000_000;

/// The two-engine form (`quartet match go --black CMD --white CMD --games N`): the same
/// tournament with its players given directly and a schedule of `games` games.
pub struct HeadToHead {
    /// The engine named by `--black` first: it has Black in games 1, 3, 5...
    pub players: [Player; 2],
    pub games: usize,
    /// The first engine has Black in every game (otherwise colours alternate).
    pub fixed_colours: bool,
}

/// Plays a tournament of any game: `title` names it in tables (`go 9x9 komi 7.5`),
/// `ext` is the record file extension. The players are `t.engines`, or those of `head`.
pub fn run_general<G, F>(
    title: String,
    ext: &str,
    new_game: F,
    t: TourneyArgs,
    common: Common,
    head: Option<HeadToHead>,
) -> Result<(), String>
where
    G: RefereeGame + 'static,
    F: Fn() -> G + Clone,
{
    let tc = t.tc.as_deref().map(parse_clock).transpose()?;
    // (players, schedule, rounds, games cut from the schedule's end)
    let (mut players, kind, rounds, games_wanted) = match head {
        None => {
            let players = t
                .engines
                .iter()
                .map(|s| parse_engine(s, &common, tc))
                .collect::<Result<Vec<_>, _>>()?;
            if t.rounds == 0 {
                return Err("--rounds must be at least 1".into());
            }
            let kind: ScheduleKind = t.schedule.parse()?;
            (players, kind, t.rounds, None)
        }
        Some(h) => {
            if h.games == 0 {
                return Err("--games (or --rounds) must be at least 1".into());
            }
            let kind = if h.fixed_colours {
                ScheduleKind::FixedColours
            } else {
                ScheduleKind::RoundRobin
            };
            let players = h.players.map(|p| Player {
                clock: p.clock.or(tc),
                ..p
            });
            (players.to_vec(), kind, h.games.div_ceil(2), Some(h.games))
        }
    };
    if players.len() < 2 {
        return Err("at least two --engine are needed".into());
    }
    let planned = rounds
        .checked_mul(2)
        .and_then(|n| n.checked_mul(pairings(kind, players.len()).len()))
        .filter(|&n| n <= MAX_GAMES);
    if planned.is_none() {
        return Err(format!(
            "more than {MAX_GAMES} games: fewer --rounds or --games"
        ));
    }
    for i in 0..players.len() {
        if players[..i].iter().any(|p| p.name == players[i].name) {
            players[i].name = format!("{}#{}", players[i].name, i + 1);
        }
    }
    let openings = match (&t.openings, t.random_openings) {
        (Some(path), _) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            parse_openings(&text, new_game.clone())
                .map_err(|e| format!("{}: {e}", path.display()))?
        }
        (None, Some(plies)) => random_openings(new_game.clone(), plies, rounds, t.seed)?,
        (None, None) => Vec::new(),
    };
    let shard: Option<Shard> = t.shard.as_deref().map(str::parse).transpose()?;
    let sprt_text = t.sprt.as_ref().map(|v| v.join(" "));
    let sprt = sprt_text.as_deref().map(Sprt::parse).transpose()?;
    if sprt.is_some() && players.len() != 2 {
        return Err("--sprt needs exactly two engines".into());
    }
    let mut full = schedule(kind, players.len(), rounds, openings.len());
    if let Some(n) = games_wanted {
        full.truncate(n);
    }
    let total_games = full.len();
    let games: Vec<_> = full
        .into_iter()
        .filter(|g| shard.is_none_or(|s| s.contains(g)))
        .collect();
    let info = TournamentInfo {
        game: title,
        engines: players.iter().map(|p| p.name.clone()).collect(),
        schedule: kind,
        rounds,
        total_games,
        sprt: sprt_text,
        shard,
    };
    let record_dir = t
        .records
        .clone()
        .or(common.records.clone())
        .or_else(|| t.out.as_ref().map(|d| d.join("records")));
    if let Some(out) = &t.out {
        std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    if let Some(path) = &t.json {
        check_writable(path)?;
    }
    let cfg = TournamentConfig {
        players,
        games,
        openings,
        concurrency: common.concurrency,
        margin: common.margin,
        hang_timeout: common.hang_timeout,
        command_timeout: Duration::from_secs(10),
        resign: t.resign_moves.map(|moves| ResignRule {
            moves: moves.max(1),
            margin: t.resign_score,
            command: t.resign_command.clone(),
        }),
        record_dir,
        record_extension: ext.to_string(),
        stderr: common.stderr,
    };
    let names = info.engines.clone();
    let planned = cfg.games.len();
    let mut live = Live::default();
    let mut finished = 0usize;
    // SPRT decides on whole pairs only, and never inside a shard (the others may differ).
    let sprt_active = sprt.filter(|_| shard.is_none());
    let progress = |r: &GameRecord| {
        finished += 1;
        let mut line = format!(
            "[{finished}/{planned}] game {}: {} (B) - {} (W) {} {}{} {} moves",
            r.index + 1,
            names[r.black],
            names[r.white],
            r.result,
            r.reason,
            if r.detail.is_empty() {
                String::new()
            } else {
                format!(" ({})", r.detail)
            },
            r.moves
        );
        let mut go_on = true;
        if names.len() == 2 {
            live.add(r);
            let w = live.wdl;
            line.push_str(&format!(
                " | {} {} - {} {}",
                names[0],
                w.points(),
                w.games() as f64 - w.points(),
                names[1]
            ));
            if let Some(e) = w.elo() {
                line.push_str(&format!(
                    " | Elo {} [{}, {}] LOS {:.1}%",
                    fmt_elo(e.elo),
                    fmt_elo(e.lo),
                    fmt_elo(e.hi),
                    100.0 * w.los()
                ));
            }
            if let Some(s) = sprt_active {
                let (llr, state) = s.decide_pentanomial(&live.penta);
                let (lo, hi) = s.bounds();
                line.push_str(&format!(" | LLR {llr:.2} ({lo:.2}, {hi:.2})"));
                if state != SprtState::Continue {
                    go_on = false;
                }
            }
        }
        eprintln!("{line}");
        go_on
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let records = runtime.block_on(run_tournament(cfg, new_game, progress))?;
    finish(&info, &records, t.out.as_ref(), t.json.as_ref())
}

/// Fails now, not after hours of games, when `path` cannot be written: opens it for
/// appending (creating it if missing) without touching what it holds.
fn check_writable(path: &PathBuf) -> Result<(), String> {
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map(drop)
        .map_err(|e| format!("--json {}: {e}", path.display()))
}

/// Prints the tables and writes the result files.
fn finish(
    info: &TournamentInfo,
    records: &[GameRecord],
    out: Option<&PathBuf>,
    json: Option<&PathBuf>,
) -> Result<(), String> {
    let summary = summarize(&info.engines, records);
    let table = render(info, &summary);
    print!("{table}");
    let write = |path: PathBuf, text: String| {
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    if let Some(dir) = out {
        write(dir.join("results.tsv"), results_text(info, records))?;
        write(dir.join("results.txt"), table)?;
    }
    if let Some(path) = json {
        write(path.clone(), to_json(info, &summary, records))?;
    }
    Ok(())
}

/// `quartet match merge DIR...`: the table of all shards together.
pub fn run_merge(a: MergeArgs) -> Result<(), String> {
    let (info, records) = merge_dirs(&a.dirs)?;
    finish(&info, &records, None, a.json.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn common() -> Common {
        Common {
            time_per_move: Some(Duration::from_secs(1)),
            margin: Duration::ZERO,
            hang_timeout: Duration::ZERO,
            concurrency: 1,
            stderr: StderrTarget::Null,
            records: None,
            pbrain_ok: false,
        }
    }

    #[test]
    fn engine_specs() {
        let p = parse_engine(
            "name=A st=0.5 cmd=/usr/bin/gnugo --mode gtp",
            &common(),
            None,
        )
        .unwrap();
        assert_eq!(p.name, "A");
        assert_eq!(p.command, "/usr/bin/gnugo --mode gtp");
        assert_eq!(p.time_per_move, Some(Duration::from_millis(500)));
        let p = parse_engine("cmd=/x/y/pachi -t 5", &common(), None).unwrap();
        assert_eq!(p.name, "pachi");
        assert_eq!(p.time_per_move, Some(Duration::from_secs(1)));
        let p = parse_engine("tc=10+0.25 cmd=e", &common(), None).unwrap();
        assert_eq!(
            p.clock,
            Some(Clock {
                base: Duration::from_secs(10),
                increment: Duration::from_millis(250)
            })
        );
        assert!(parse_engine("name=A", &common(), None).is_err());
        assert!(parse_engine("name=A cmd=", &common(), None).is_err());
        assert!(parse_engine("colour=red cmd=e", &common(), None).is_err());
        assert!(parse_engine("tc=0+1 cmd=e", &common(), None).is_err());
        assert!(parse_engine("st=-1 cmd=e", &common(), None).is_err());
        assert!(parse_engine("proto=pbrain cmd=e", &common(), None).is_err());
        let gomoku = Common {
            pbrain_ok: true,
            ..common()
        };
        let p = parse_engine("proto=pbrain cmd=pbrain-x", &gomoku, None).unwrap();
        assert_eq!(p.protocol, Protocol::Pbrain);
        assert!(parse_engine("proto=uci cmd=e", &gomoku, None).is_err());
    }
}
