//! Scheduling a two-engine match: colours alternate game by game, up to K games run at once
//! as tokio tasks, every game gets fresh engine processes (so a crash, a hang or a desynced
//! pipe in one game cannot leak into the next), and records are written as games finish.
use super::go_referee::GoReferee;
use super::gtp_client::{GtpClient, StderrTarget};
use super::referee::{play_game, Outcome, RefereeGame, RefereeOptions};
use super::stats::MatchStats;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::task::JoinSet;

/// One engine of a match.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub name: String,
    pub command: String,
    /// Per-move limit sent with the protocol's time command; `None` sends none.
    pub time_per_move: Option<Duration>,
}

/// Everything that is not game-specific about a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Engine 0 has Black in even-numbered games (0, 2, ...), engine 1 in odd ones.
    pub engines: [EngineSpec; 2],
    pub games: usize,
    pub concurrency: usize,
    pub margin: Duration,
    pub hang_timeout: Duration,
    pub command_timeout: Duration,
    /// Where records go (`game-0001.sgf` ...); `None` keeps none.
    pub record_dir: Option<PathBuf>,
    pub record_extension: String,
    pub stderr: StderrTarget,
}

/// A finished game, as reported to the progress callback.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// 0-based game number.
    pub index: usize,
    /// Engine indices holding Black and White.
    pub black: usize,
    pub white: usize,
    pub outcome: Outcome,
    pub record_path: Option<PathBuf>,
    pub elapsed: Duration,
}

/// Today's date in UTC as `YYYY-MM-DD` (SGF `DT`), without a date crate: days since the
/// epoch to the proleptic Gregorian calendar (H. Hinnant's `civil_from_days`).
pub fn utc_date_today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Plays one game with fresh engines. Errors only when an engine cannot be started at all
/// (a configuration mistake that would fail every game).
async fn run_one<G: RefereeGame>(
    cfg: Arc<MatchConfig>,
    mut game: G,
    index: usize,
    date: Arc<String>,
) -> Result<GameReport, String> {
    let start = Instant::now();
    let (black, white) = if index.is_multiple_of(2) {
        (0, 1)
    } else {
        (1, 0)
    };
    let spawn = |i: usize| {
        GtpClient::spawn(&cfg.engines[i].command, &cfg.stderr)
            .map_err(|e| format!("{}: {e}", cfg.engines[i].name))
    };
    let mut b = spawn(black)?;
    let mut w = spawn(white)?;
    let opts = RefereeOptions {
        time_per_move: [
            cfg.engines[black].time_per_move,
            cfg.engines[white].time_per_move,
        ],
        clock: [None, None],
        margin: cfg.margin,
        command_timeout: cfg.command_timeout,
        hang_timeout: cfg.hang_timeout,
        resign: None,
    };
    let outcome = play_game(&mut game, [&mut b, &mut w], &opts).await;
    let grace = Duration::from_secs(2);
    tokio::join!(b.shutdown(grace), w.shutdown(grace));
    let mut record_path = None;
    if let Some(dir) = &cfg.record_dir {
        let names = [
            cfg.engines[black].name.as_str(),
            cfg.engines[white].name.as_str(),
        ];
        let text = game.record(&outcome, names, &date);
        let path = dir.join(format!("game-{:04}.{}", index + 1, cfg.record_extension));
        // A few kilobytes: writing them inline is cheaper than a blocking-pool hop.
        match std::fs::write(&path, text) {
            Ok(()) => record_path = Some(path),
            Err(e) => tracing::warn!("cannot write {}: {e}", path.display()),
        }
    }
    Ok(GameReport {
        index,
        black,
        white,
        outcome,
        record_path,
        elapsed: start.elapsed(),
    })
}

/// Plays the whole match; `new_game` makes the rules object for each game and
/// `on_game` sees every finished game in the order they finish.
pub async fn run_match<G, F>(
    cfg: MatchConfig,
    new_game: F,
    mut on_game: impl FnMut(&GameReport),
) -> Result<MatchStats, String>
where
    G: RefereeGame + 'static,
    F: Fn() -> G,
{
    if let Some(dir) = &cfg.record_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let mut stats = MatchStats::new(&names);
    let concurrency = cfg.concurrency.max(1);
    let games = cfg.games;
    let cfg = Arc::new(cfg);
    let date = Arc::new(utc_date_today());
    let mut running = JoinSet::new();
    let mut next = 0;
    while next < games || !running.is_empty() {
        while next < games && running.len() < concurrency {
            running.spawn(run_one(cfg.clone(), new_game(), next, date.clone()));
            next += 1;
        }
        let Some(joined) = running.join_next().await else {
            break;
        };
        let report = joined.map_err(|e| format!("game task failed: {e}"))??;
        stats.record(report.black, report.white, &report.outcome);
        on_game(&report);
    }
    Ok(stats)
}

/// A Go match on a `size`x`size` board.
pub async fn run_go_match(
    cfg: MatchConfig,
    size: usize,
    komi: f32,
    on_game: impl FnMut(&GameReport),
) -> Result<MatchStats, String> {
    if GoReferee::new(size, komi).is_none() {
        return Err(format!("unsupported board size {size}"));
    }
    let new_game = move || GoReferee::new(size, komi).expect("size checked above");
    run_match(cfg, new_game, on_game).await
}

#[cfg(test)]
mod tests {
    use super::civil_from_days;

    /// Dates from a calendar: 1970-01-01 is day 0, 2000-03-01 is day 11017,
    /// 2026-12-01 is day 20788.
    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(civil_from_days(20_788), (2026, 12, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }
}
