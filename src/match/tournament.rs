//! Running a scheduled tournament between any number of engines: up to K games at once as
//! tokio tasks, each game with fresh engine processes (so an engine that died, hung or fell
//! out of step in one game is simply started again for the next, and the game it broke is
//! already scored as its loss by the referee), records written as games finish, and a
//! callback that sees every result and may stop the run (SPRT).
use super::gtp_client::{GtpClient, Protocol, StderrTarget};
use super::referee::{play_game_from, Clock, RefereeGame, RefereeOptions, ResignRule};
use super::results::GameRecord;
use super::schedule::ScheduledGame;
use crate::record::utc_date_today;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::task::JoinSet;

/// One engine of a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    pub name: String,
    pub command: String,
    /// Per-move limit (GTP `time_settings 0 T 1`); ignored when `clock` is set.
    pub time_per_move: Option<Duration>,
    /// Sudden death plus increment.
    pub clock: Option<Clock>,
    /// GTP, or the Gomocup protocol for a Gomoku brain.
    pub protocol: Protocol,
}

/// Everything not specific to one game.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    pub players: Vec<Player>,
    /// The games to play (a whole schedule or one shard of it), in order.
    pub games: Vec<ScheduledGame>,
    /// Openings by index (`ScheduledGame::opening`); empty = every game from the start.
    pub openings: Vec<Vec<String>>,
    pub concurrency: usize,
    pub margin: Duration,
    pub hang_timeout: Duration,
    pub command_timeout: Duration,
    /// Adjudication of games both engines agree are decided.
    pub resign: Option<ResignRule>,
    /// Where records go (`game-00001.sgf`, numbered by global game index).
    pub record_dir: Option<PathBuf>,
    pub record_extension: String,
    pub stderr: StderrTarget,
}

async fn run_one<G: RefereeGame>(
    cfg: Arc<TournamentConfig>,
    mut game: G,
    sched: ScheduledGame,
    date: Arc<String>,
) -> Result<GameRecord, String> {
    let (pb, pw) = (&cfg.players[sched.black], &cfg.players[sched.white]);
    let spawn = |p: &Player| {
        GtpClient::spawn_speaking(&p.command, &cfg.stderr, p.protocol)
            .map_err(|e| format!("{}: {e}", p.name))
    };
    let mut b = spawn(pb)?;
    let mut w = spawn(pw)?;
    let opts = RefereeOptions {
        time_per_move: [pb.time_per_move, pw.time_per_move],
        clock: [pb.clock, pw.clock],
        margin: cfg.margin,
        command_timeout: cfg.command_timeout,
        hang_timeout: cfg.hang_timeout,
        resign: cfg.resign.clone(),
    };
    let opening: &[String] = cfg
        .openings
        .get(sched.opening)
        .map_or(&[], |o| o.as_slice());
    let outcome = play_game_from(&mut game, [&mut b, &mut w], &opts, opening).await;
    let grace = Duration::from_secs(2);
    tokio::join!(b.shutdown(grace), w.shutdown(grace));
    if let Some(dir) = &cfg.record_dir {
        let text = game.record(&outcome, [pb.name.as_str(), pw.name.as_str()], &date);
        let path = dir.join(format!(
            "game-{:05}.{}",
            sched.index + 1,
            cfg.record_extension
        ));
        if let Err(e) = std::fs::write(&path, text) {
            tracing::warn!("cannot write {}: {e}", path.display());
        }
    }
    Ok(GameRecord {
        index: sched.index,
        round: sched.round,
        opening: sched.opening,
        black: sched.black,
        white: sched.white,
        result: outcome.result_text(),
        reason: outcome.reason_word().to_string(),
        moves: outcome.moves,
        detail: outcome.detail(),
    })
}

/// Plays the configured games. `new_game` makes the rules object of each game;
/// `on_game` sees each finished game (in finishing order) and returns `false` to start no
/// further games (the running ones still finish and are returned). Errors only when an
/// engine cannot be started at all, a configuration mistake that would lose every game.
pub async fn run_tournament<G, F>(
    cfg: TournamentConfig,
    new_game: F,
    mut on_game: impl FnMut(&GameRecord) -> bool,
) -> Result<Vec<GameRecord>, String>
where
    G: RefereeGame + 'static,
    F: Fn() -> G,
{
    if let Some(dir) = &cfg.record_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let concurrency = cfg.concurrency.max(1);
    let games = cfg.games.clone();
    let cfg = Arc::new(cfg);
    let date = Arc::new(utc_date_today());
    let mut running = JoinSet::new();
    let mut next = 0;
    let mut go_on = true;
    let mut done = Vec::with_capacity(games.len());
    while (go_on && next < games.len()) || !running.is_empty() {
        while go_on && next < games.len() && running.len() < concurrency {
            running.spawn(run_one(cfg.clone(), new_game(), games[next], date.clone()));
            next += 1;
        }
        let Some(joined) = running.join_next().await else {
            break;
        };
        let record = joined.map_err(|e| format!("game task failed: {e}"))??;
        go_on &= on_game(&record);
        done.push(record);
    }
    done.sort_by_key(|r| r.index);
    Ok(done)
}
