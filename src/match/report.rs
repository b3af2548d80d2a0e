//! The summary of a tournament as text (engine table, pair table with Elo, LOS and
//! pentanomial counts, crosstable, SPRT verdict) and as JSON. Pure functions of a
//! [`Summary`], so a merged run and a single run over the same games print the same bytes.
use super::elo::{EloEstimate, Sprt, SprtState, Wdl, SPRT_MIN_PAIRS};
use super::results::{GameRecord, PairRow, Summary, TournamentInfo};
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
        "\n{:<width$}  games  W-D-L          score  Elo vs field [95%]       as black   as white   lost time/illegal/malformed/failure",
        "engine"
    );
    let mut order: Vec<usize> = (0..summary.engines.len()).collect();
    order.sort_by(|&x, &y| {
        let (a, b) = (&summary.engines[x].total, &summary.engines[y].total);
        b.points().total_cmp(&a.points()).then(x.cmp(&y))
    });
    for &i in &order {
        let e = &summary.engines[i];
        let _ = writeln!(
            s,
            "{:<width$}  {:>5}  {:<13} {:>5.1}%  {:<23}  {:<9}  {:<9}  {}/{}/{}/{}",
            e.name,
            e.total.games(),
            fmt_wdl(&e.total),
            100.0 * e.total.score(),
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

/// A JSON string literal.
fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON number; infinities (0% or 100% scores) become `null`.
fn json_num(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        "null".to_string()
    }
}

fn json_wdl(w: &Wdl) -> String {
    format!(
        "{{\"wins\": {}, \"draws\": {}, \"losses\": {}}}",
        w.wins, w.draws, w.losses
    )
}

fn json_estimate(e: Option<EloEstimate>) -> String {
    match e {
        None => "null".to_string(),
        Some(e) => format!(
            "{{\"score\": {}, \"elo\": {}, \"lo95\": {}, \"hi95\": {}}}",
            json_num(e.score),
            json_num(e.elo),
            json_num(e.lo),
            json_num(e.hi)
        ),
    }
}

/// The summary and every game as JSON (hand-written: a fixed, flat shape).
pub fn to_json(info: &TournamentInfo, summary: &Summary, records: &[GameRecord]) -> String {
    let mut s = String::from("{\n");
    let _ = writeln!(s, "  \"game\": {},", json_str(&info.game));
    let _ = writeln!(
        s,
        "  \"schedule\": {},",
        json_str(&info.schedule.to_string())
    );
    let _ = writeln!(s, "  \"rounds\": {},", info.rounds);
    let _ = writeln!(s, "  \"total_games\": {},", info.total_games);
    let _ = writeln!(s, "  \"games_played\": {},", summary.games);
    let shard = info
        .shard
        .map_or("null".to_string(), |sh| json_str(&sh.to_string()));
    let _ = writeln!(s, "  \"shard\": {shard},");
    let engines: Vec<String> = summary
        .engines
        .iter()
        .map(|e| {
            format!(
                "    {{\"name\": {}, \"total\": {}, \"as_black\": {}, \"as_white\": {}, \"elo_vs_field\": {}, \"lost_on_time\": {}, \"lost_illegal\": {}, \"lost_malformed\": {}, \"lost_failure\": {}}}",
                json_str(&e.name),
                json_wdl(&e.total),
                json_wdl(&e.as_black),
                json_wdl(&e.as_white),
                json_estimate(e.total.elo()),
                e.lost_by[0],
                e.lost_by[1],
                e.lost_by[2],
                e.lost_by[3]
            )
        })
        .collect();
    let _ = writeln!(s, "  \"engines\": [\n{}\n  ],", engines.join(",\n"));
    let sprt = info.sprt.as_deref().and_then(|t| Sprt::parse(t).ok());
    let pairs: Vec<String> = summary
        .pairs
        .iter()
        .map(|p| {
            let llr = sprt.map_or("null".to_string(), |sp| json_num(sp.llr_pentanomial(&p.penta)));
            let c = p.penta.0;
            format!(
                "    {{\"first\": {}, \"second\": {}, \"wdl\": {}, \"elo\": {}, \"los\": {}, \"pentanomial\": [{}, {}, {}, {}, {}], \"elo_pentanomial\": {}, \"llr\": {llr}}}",
                json_str(&summary.engines[p.a].name),
                json_str(&summary.engines[p.b].name),
                json_wdl(&p.wdl),
                json_estimate(p.wdl.elo()),
                json_num(p.wdl.los()),
                c[0], c[1], c[2], c[3], c[4],
                json_estimate(p.penta.elo()),
            )
        })
        .collect();
    let _ = writeln!(s, "  \"pairs\": [\n{}\n  ],", pairs.join(",\n"));
    let games: Vec<String> = records
        .iter()
        .map(|r| {
            format!(
                "    {{\"game\": {}, \"round\": {}, \"opening\": {}, \"black\": {}, \"white\": {}, \"result\": {}, \"reason\": {}, \"moves\": {}}}",
                r.index + 1,
                r.round + 1,
                r.opening,
                json_str(&summary.engines[r.black].name),
                json_str(&summary.engines[r.white].name),
                json_str(&r.result),
                json_str(&r.reason),
                r.moves
            )
        })
        .collect();
    let _ = writeln!(s, "  \"games\": [\n{}\n  ]", games.join(",\n"));
    s.push_str("}\n");
    s
}
