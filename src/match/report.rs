//! The summary of a tournament as text (engine table, pair table with Elo, LOS and
//! pentanomial counts, crosstable, SPRT verdict) and as JSON. Pure functions of a
//! [`Summary`], so a merged run and a single run over the same games print the same bytes.
use super::results::{GameRecord, PairRow, Summary, TournamentInfo};
use super::stats::{
    finite_or_null, EloEstimate, Pentanomial, Sprt, SprtState, Wdl, SPRT_MIN_PAIRS,
};
use serde::Serialize;
use std::fmt::Write;

/// `+12.3`, `-inf`.
pub fn fmt_elo(x: f64) -> String {
    let x = x + 0.0; // no "-0.0" for an even score
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:+.1}")
    }
}

fn fmt_estimate(e: Option<EloEstimate>) -> String {
    match e {
        None => "-".to_string(),
        Some(e) => format!("{} [{}, {}]", fmt_elo(e.elo), fmt_elo(e.lo), fmt_elo(e.hi)),
    }
}

fn fmt_wdl(w: &Wdl) -> String {
    format!("{}-{}-{}", w.wins, w.draws, w.losses)
}

/// The SPRT verdict line for a two-engine run (pentanomial LLR over complete pairs).
pub fn sprt_line(sprt: &Sprt, pair: &PairRow) -> String {
    let (llr, state) = sprt.decide_pentanomial(&pair.penta);
    let (lo, hi) = sprt.bounds();
    let verdict = match state {
        SprtState::Continue if pair.penta.pairs() < SPRT_MIN_PAIRS => {
            "no decision before 10 complete pairs"
        }
        SprtState::Continue => "no decision yet",
        SprtState::AcceptH0 => "H0 accepted",
        SprtState::AcceptH1 => "H1 accepted",
    };
    format!(
        "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} ({lo:.2}, {hi:.2}): {verdict}",
        sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
    )
}

/// The final tables: engines (totals, colours, loss reasons), pairs (W-D-L, Elo with 95%
/// interval trinomial and pentanomial, LOS, pentanomial counts), crosstable, SPRT.
pub fn render(info: &TournamentInfo, summary: &Summary) -> String {
    let mut s = String::new();
    let shard = info
        .shard
        .map_or(String::new(), |sh| format!(", shard {sh}"));
    let _ = writeln!(
        s,
        "{}, {}, {} rounds: {} of {} games{shard}",
        info.game, info.schedule, info.rounds, summary.games, info.total_games
    );
    let width = summary
        .engines
        .iter()
        .map(|e| e.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let _ = writeln!(
        s,
        "\n{:<width$}  games  W-D-L          score [95%]             Elo vs field [95%]       as black   as white   lost time/illegal/malformed/failure",
        "engine"
    );
    let mut order: Vec<usize> = (0..summary.engines.len()).collect();
    order.sort_by(|&x, &y| {
        let (a, b) = (&summary.engines[x].total, &summary.engines[y].total);
        b.points().total_cmp(&a.points()).then(x.cmp(&y))
    });
    for &i in &order {
        let e = &summary.engines[i];
        let (lo, hi) = e.total.score_interval();
        let _ = writeln!(
            s,
            "{:<width$}  {:>5}  {:<13} {:>5.1}% [{:>5.1}%, {:>5.1}%]  {:<23}  {:<9}  {:<9}  {}/{}/{}/{}",
            e.name,
            e.total.games(),
            fmt_wdl(&e.total),
            100.0 * e.total.score(),
            100.0 * lo,
            100.0 * hi,
            fmt_estimate(e.total.elo()),
            fmt_wdl(&e.as_black),
            fmt_wdl(&e.as_white),
            e.lost_by[0],
            e.lost_by[1],
            e.lost_by[2],
            e.lost_by[3],
        );
    }
    let _ = writeln!(
        s,
        "\npair (first's view)  games  W-D-L          score  Elo [95%]                LOS     pairs LL/LD/DD+WL/WD/WW  Elo pentanomial [95%]"
    );
    for p in &summary.pairs {
        let names = format!(
            "{} vs {}",
            summary.engines[p.a].name, summary.engines[p.b].name
        );
        let c = p.penta.0;
        let _ = writeln!(
            s,
            "{names:<20} {:>6}  {:<13} {:>5.1}%  {:<23}  {:>5.1}%  {:>5} {:<18} {}",
            p.wdl.games(),
            fmt_wdl(&p.wdl),
            100.0 * p.wdl.score(),
            fmt_estimate(p.wdl.elo()),
            100.0 * p.wdl.los(),
            p.penta.pairs(),
            format!("{}/{}/{}/{}/{}", c[0], c[1], c[2], c[3], c[4]),
            fmt_estimate(p.penta.elo()),
        );
    }
    let _ = writeln!(s, "\ncrosstable (points of the row engine / games)");
    let cell = 11;
    let _ = write!(s, "{:<width$}", "");
    for e in &summary.engines {
        let short: String = e.name.chars().take(cell - 1).collect();
        let _ = write!(s, " {short:>cell$}");
    }
    let _ = writeln!(s);
    for (i, e) in summary.engines.iter().enumerate() {
        let _ = write!(s, "{:<width$}", e.name);
        for j in 0..summary.engines.len() {
            let text = if i == j {
                "-".to_string()
            } else {
                let (a, b) = (i.min(j), i.max(j));
                match summary.pairs.iter().find(|p| (p.a, p.b) == (a, b)) {
                    None => ".".to_string(),
                    Some(p) => {
                        let w = if i == a { p.wdl } else { p.wdl.flipped() };
                        format!("{}/{}", w.points(), w.games())
                    }
                }
            };
            let _ = write!(s, " {text:>cell$}");
        }
        let _ = writeln!(s);
    }
    if let (Some(text), [pair]) = (&info.sprt, &summary.pairs[..]) {
        if let Ok(sprt) = Sprt::parse(text) {
            let _ = writeln!(s, "\n{}", sprt_line(&sprt, pair));
        }
    }
    s
}

/// The 95% Wilson interval of a score.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct JsonInterval {
    pub lo95: f64,
    pub hi95: f64,
}

impl JsonInterval {
    fn of(w: &Wdl) -> JsonInterval {
        let (lo95, hi95) = w.score_interval();
        JsonInterval { lo95, hi95 }
    }
}

/// One engine's row in the JSON results.
#[derive(Clone, Debug, Serialize)]
pub struct JsonEngine {
    pub name: String,
    pub total: Wdl,
    pub as_black: Wdl,
    pub as_white: Wdl,
    /// Points per game (0.5 with no games).
    pub score: f64,
    pub score_interval: JsonInterval,
    pub elo_vs_field: Option<EloEstimate>,
    pub lost_on_time: u32,
    pub lost_illegal: u32,
    pub lost_malformed: u32,
    pub lost_failure: u32,
}

/// One pairing, from the first engine's view.
#[derive(Clone, Debug, Serialize)]
pub struct JsonPair {
    pub first: String,
    pub second: String,
    pub wdl: Wdl,
    pub elo: Option<EloEstimate>,
    pub los: f64,
    pub pentanomial: Pentanomial,
    pub elo_pentanomial: Option<EloEstimate>,
    /// The SPRT log-likelihood ratio over the pentanomial pairs (`null` without `--sprt`).
    #[serde(serialize_with = "finite_or_null")]
    pub llr: Option<f64>,
}

/// One game; `game` and `round` count from 1, `opening` indexes the opening list from 0.
#[derive(Clone, Debug, Serialize)]
pub struct JsonGame {
    pub game: usize,
    pub round: usize,
    pub opening: usize,
    pub black: String,
    pub white: String,
    pub result: String,
    pub reason: String,
    pub moves: usize,
}

/// Everything `--json` writes: what was played, the tables' figures and every game.
/// Scores and Elo figures that are infinite (a 0% or 100% score) are `null`.
#[derive(Clone, Debug, Serialize)]
pub struct JsonReport {
    pub game: String,
    pub schedule: String,
    pub rounds: usize,
    pub total_games: usize,
    pub games_played: usize,
    pub shard: Option<String>,
    /// The SPRT parameters as given.
    pub sprt: Option<String>,
    pub engines: Vec<JsonEngine>,
    pub pairs: Vec<JsonPair>,
    pub games: Vec<JsonGame>,
}

impl JsonReport {
    pub fn new(info: &TournamentInfo, summary: &Summary, records: &[GameRecord]) -> JsonReport {
        let name = |i: usize| summary.engines[i].name.clone();
        let sprt = info.sprt.as_deref().and_then(|t| Sprt::parse(t).ok());
        JsonReport {
            game: info.game.clone(),
            schedule: info.schedule.to_string(),
            rounds: info.rounds,
            total_games: info.total_games,
            games_played: summary.games,
            shard: info.shard.map(|sh| sh.to_string()),
            sprt: info.sprt.clone(),
            engines: summary
                .engines
                .iter()
                .map(|e| JsonEngine {
                    name: e.name.clone(),
                    total: e.total,
                    as_black: e.as_black,
                    as_white: e.as_white,
                    score: e.total.score(),
                    score_interval: JsonInterval::of(&e.total),
                    elo_vs_field: e.total.elo(),
                    lost_on_time: e.lost_by[0],
                    lost_illegal: e.lost_by[1],
                    lost_malformed: e.lost_by[2],
                    lost_failure: e.lost_by[3],
                })
                .collect(),
            pairs: summary
                .pairs
                .iter()
                .map(|p| JsonPair {
                    first: name(p.a),
                    second: name(p.b),
                    wdl: p.wdl,
                    elo: p.wdl.elo(),
                    los: p.wdl.los(),
                    pentanomial: p.penta,
                    elo_pentanomial: p.penta.elo(),
                    llr: sprt.map(|sp| sp.llr_pentanomial(&p.penta)),
                })
                .collect(),
            games: records
                .iter()
                .map(|r| JsonGame {
                    game: r.index + 1,
                    round: r.round + 1,
                    opening: r.opening,
                    black: name(r.black),
                    white: name(r.white),
                    result: r.result.clone(),
                    reason: r.reason.clone(),
                    moves: r.moves,
                })
                .collect(),
        }
    }
}

/// The summary and every game as pretty-printed JSON (see [`JsonReport`]).
pub fn to_json(info: &TournamentInfo, summary: &Summary, records: &[GameRecord]) -> String {
    let report = JsonReport::new(info, summary, records);
    // Plain data with string keys: serialising it cannot fail.
    let mut text = serde_json::to_string_pretty(&report).expect("JSON of plain data");
    text.push('\n');
    text
}
