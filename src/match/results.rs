//! Finished games as data: one line per game in `results.tsv` (what a shard writes and
//! `quartet match merge` reads back), the summary computed from those lines alone
//! (per-engine rows, per-pair W/D/L, Elo, LOS, pentanomial counts, SPRT, crosstable), and
//! the JSON form of the same summary.
//!
//! A single run prints the summary of its own lines through the same function a merge
//! uses, and every figure is a function of integer counts, so a merge of shards prints
//! exactly the table of one run over the same games.
use super::elo::{EloEstimate, Pentanomial, Sprt, SprtState, Wdl, SPRT_MIN_PAIRS};
use super::schedule::{ScheduleKind, Shard};
use crate::color::Color;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub index: usize,
    pub round: usize,
    pub opening: usize,
    pub black: usize,
    pub white: usize,
    /// The SGF `RE` text: `B+R`, `W+3.5`, `B+T`, `W+F`, `0`.
    pub result: String,
    /// `resign`, `score`, `time`, `illegal`, `malformed`, `failure`, `adjudicated`.
    pub reason: String,
    pub moves: usize,
}

impl GameRecord {
    /// The winner as the result text says (`0`, `Draw` or anything else not starting with
    /// `B+`/`W+` is a draw).
    pub fn winner(&self) -> Option<Color> {
        if self.result.starts_with("B+") {
            Some(Color::Black)
        } else if self.result.starts_with("W+") {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Points scored by `engine` (1, 0.5, 0), `None` if it did not play.
    pub fn points_of(&self, engine: usize) -> Option<f64> {
        let color = if engine == self.black {
            Color::Black
        } else if engine == self.white {
            Color::White
        } else {
            return None;
        };
        Some(match self.winner() {
            None => 0.5,
            Some(c) if c == color => 1.0,
            Some(_) => 0.0,
        })
    }

    fn to_line(&self) -> String {
        format!(
            "g\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.index,
            self.round,
            self.opening,
            self.black,
            self.white,
            self.result,
            self.reason,
            self.moves
        )
    }

    fn parse_line(line: &str, engines: usize) -> Result<GameRecord, String> {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 9 || f[0] != "g" {
            return Err(format!("bad game line {line:?}"));
        }
        let num = |i: usize| {
            f[i].parse::<usize>()
                .map_err(|_| format!("bad number {:?} in {line:?}", f[i]))
        };
        let r = GameRecord {
            index: num(1)?,
            round: num(2)?,
            opening: num(3)?,
            black: num(4)?,
            white: num(5)?,
            result: f[6].to_string(),
            reason: f[7].to_string(),
            moves: num(8)?,
        };
        if r.black >= engines || r.white >= engines || r.black == r.white {
            return Err(format!("bad engine numbers in {line:?}"));
        }
        Ok(r)
    }
}

/// What was played: enough to check that shards belong together and to title the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentInfo {
    /// e.g. `go 9x9 komi 7.5`.
    pub game: String,
    pub engines: Vec<String>,
    pub schedule: ScheduleKind,
    pub rounds: usize,
    /// Games in the whole schedule (all shards).
    pub total_games: usize,
    /// The SPRT parameters as given, if any.
    pub sprt: Option<String>,
    pub shard: Option<Shard>,
}

const MAGIC: &str = "# quartet match results v1";

/// The text of `results.tsv`.
pub fn results_text(info: &TournamentInfo, records: &[GameRecord]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{MAGIC}");
    let _ = writeln!(s, "game\t{}", info.game);
    let _ = writeln!(s, "schedule\t{}", info.schedule);
    let _ = writeln!(s, "rounds\t{}", info.rounds);
    let _ = writeln!(s, "games\t{}", info.total_games);
    if let Some(sprt) = &info.sprt {
        let _ = writeln!(s, "sprt\t{sprt}");
    }
    let shard = info.shard.map_or("all".to_string(), |sh| sh.to_string());
    let _ = writeln!(s, "shard\t{shard}");
    for e in &info.engines {
        let _ = writeln!(s, "engine\t{e}");
    }
    let _ = writeln!(s, "# g index round opening black white result reason moves");
    let mut sorted: Vec<&GameRecord> = records.iter().collect();
    sorted.sort_by_key(|r| r.index);
    for r in sorted {
        let _ = writeln!(s, "{}", r.to_line());
    }
    s
}

/// Parses `results.tsv`.
pub fn parse_results(text: &str) -> Result<(TournamentInfo, Vec<GameRecord>), String> {
    let mut lines = text.lines();
    if lines.next() != Some(MAGIC) {
        return Err("not a quartet results file".into());
    }
    let mut info = TournamentInfo {
        game: String::new(),
        engines: Vec::new(),
        schedule: ScheduleKind::RoundRobin,
        rounds: 0,
        total_games: 0,
        sprt: None,
        shard: None,
    };
    let mut records = Vec::new();
    for line in lines {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let (key, value) = line.split_once('\t').unwrap_or((line, ""));
        let num = |v: &str| {
            v.parse::<usize>()
                .map_err(|_| format!("bad number in {line:?}"))
        };
        match key {
            "game" => info.game = value.to_string(),
            "schedule" => info.schedule = value.parse()?,
            "rounds" => info.rounds = num(value)?,
            "games" => info.total_games = num(value)?,
            "sprt" => info.sprt = Some(value.to_string()),
            "shard" if value == "all" => info.shard = None,
            "shard" => info.shard = Some(value.parse()?),
            "engine" => info.engines.push(value.to_string()),
            "g" => records.push(GameRecord::parse_line(line, info.engines.len())?),
            _ => return Err(format!("unknown line {line:?}")),
        }
    }
    if info.engines.len() < 2 {
        return Err("fewer than two engines".into());
    }
    Ok((info, records))
}

/// Combines shard results: same game, engines, schedule and rounds, disjoint game numbers.
pub fn merge(
    parts: Vec<(TournamentInfo, Vec<GameRecord>)>,
) -> Result<(TournamentInfo, Vec<GameRecord>), String> {
    let mut parts = parts.into_iter();
    let (first, mut records) = parts.next().ok_or("nothing to merge")?;
    let mut info = first.clone();
    info.shard = None;
    for (other, recs) in parts {
        let same = TournamentInfo {
            shard: None,
            ..other.clone()
        };
        if same != info {
            return Err(format!(
                "shards do not belong together ({:?} / {:?} vs {:?} / {:?})",
                info.game, info.engines, other.game, other.engines
            ));
        }
        records.extend(recs);
    }
    records.sort_by_key(|r| r.index);
    if let Some(w) = records.windows(2).find(|w| w[0].index == w[1].index) {
        return Err(format!("game {} appears twice", w[0].index + 1));
    }
    Ok((info, records))
}

/// Reads `DIR/results.tsv` of every directory and merges them.
pub fn merge_dirs(dirs: &[impl AsRef<Path>]) -> Result<(TournamentInfo, Vec<GameRecord>), String> {
    let mut parts = Vec::new();
    for d in dirs {
        let path = d.as_ref().join("results.tsv");
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        parts.push(parse_results(&text).map_err(|e| format!("{}: {e}", path.display()))?);
    }
    merge(parts)
}

/// Per-engine totals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineRow {
    pub name: String,
    pub total: Wdl,
    pub as_black: Wdl,
    pub as_white: Wdl,
    /// Losses by time, illegal move, malformed answer, engine failure.
    pub lost_by: [u32; 4],
}

/// One pairing, seen from the engine with the lower index.
#[derive(Clone, Debug, PartialEq)]
pub struct PairRow {
    pub a: usize,
    pub b: usize,
    pub wdl: Wdl,
    pub penta: Pentanomial,
}

/// Everything the tables show.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub engines: Vec<EngineRow>,
    pub pairs: Vec<PairRow>,
    pub games: usize,
}

fn add(w: &mut Wdl, points: f64) {
    if points == 1.0 {
        w.wins += 1;
    } else if points == 0.0 {
        w.losses += 1;
    } else {
        w.draws += 1;
    }
}

/// Tallies the records.
pub fn summarize(names: &[String], records: &[GameRecord]) -> Summary {
    let mut engines: Vec<EngineRow> = names
        .iter()
        .map(|n| EngineRow {
            name: n.clone(),
            ..EngineRow::default()
        })
        .collect();
    let mut pairs: BTreeMap<(usize, usize), PairRow> = BTreeMap::new();
    let mut by_pair_id: BTreeMap<usize, Vec<&GameRecord>> = BTreeMap::new();
    for r in records {
        for (e, black) in [(r.black, true), (r.white, false)] {
            let p = r.points_of(e).unwrap_or(0.5);
            let row = &mut engines[e];
            add(&mut row.total, p);
            add(
                if black {
                    &mut row.as_black
                } else {
                    &mut row.as_white
                },
                p,
            );
            if p == 0.0 {
                let slot = match r.reason.as_str() {
                    "time" => Some(0),
                    "illegal" => Some(1),
                    "malformed" => Some(2),
                    "failure" => Some(3),
                    _ => None,
                };
                if let Some(i) = slot {
                    row.lost_by[i] += 1;
                }
            }
        }
        let (a, b) = (r.black.min(r.white), r.black.max(r.white));
        let row = pairs.entry((a, b)).or_insert(PairRow {
            a,
            b,
            wdl: Wdl::default(),
            penta: Pentanomial::default(),
        });
        add(&mut row.wdl, r.points_of(a).unwrap_or(0.5));
        by_pair_id.entry(r.index / 2).or_default().push(r);
    }
    for games in by_pair_id.values() {
        if let [g1, g2] = games[..] {
            let (a, b) = (g1.black.min(g1.white), g1.black.max(g1.white));
            if (g2.black.min(g2.white), g2.black.max(g2.white)) == (a, b) {
                let pts = g1.points_of(a).unwrap_or(0.5) + g2.points_of(a).unwrap_or(0.5);
                if let Some(row) = pairs.get_mut(&(a, b)) {
                    row.penta.add(pts);
                }
            }
        }
    }
    Summary {
        engines,
        pairs: pairs.into_values().collect(),
        games: records.len(),
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(index: usize, black: usize, white: usize, result: &str, reason: &str) -> GameRecord {
        GameRecord {
            index,
            round: index / 2,
            opening: 0,
            black,
            white,
            result: result.into(),
            reason: reason.into(),
            moves: 40,
        }
    }

    fn info(engines: &[&str]) -> TournamentInfo {
        TournamentInfo {
            game: "go 9x9 komi 7.5".into(),
            engines: engines.iter().map(|s| s.to_string()).collect(),
            schedule: ScheduleKind::RoundRobin,
            rounds: 2,
            total_games: 4,
            sprt: Some("elo0=0 elo1=10".into()),
            shard: None,
        }
    }

    /// Two pairs: A wins both games of the first (WW), splits the second with a draw and a
    /// time loss (LD); by hand A has 1 + 1 + 0.5 + 0 = 2.5 of 4.
    #[test]
    fn tallies_pairs_and_pentanomial() {
        let records = vec![
            rec(0, 0, 1, "B+R", "resign"),
            rec(1, 1, 0, "W+3.5", "score"),
            rec(2, 0, 1, "0", "score"),
            rec(3, 1, 0, "B+T", "time"),
        ];
        let names = vec!["A".to_string(), "B".to_string()];
        let s = summarize(&names, &records);
        let a = &s.engines[0];
        assert_eq!((a.total.wins, a.total.draws, a.total.losses), (2, 1, 1));
        assert_eq!((a.as_black.wins, a.as_black.draws), (1, 1));
        assert_eq!((a.as_white.wins, a.as_white.losses), (1, 1));
        assert_eq!(a.lost_by, [1, 0, 0, 0]);
        assert_eq!(s.pairs.len(), 1);
        assert_eq!(s.pairs[0].penta, Pentanomial([0, 1, 0, 0, 1]));
        assert_eq!(s.pairs[0].wdl.points(), 2.5);
        let table = render(&info(&["A", "B"]), &s);
        assert!(table.contains("4 of 4 games"), "{table}");
        assert!(table.contains("2.5/4"), "{table}");
        assert!(table.contains("1.5/4"), "{table}");
        assert!(table.contains("SPRT elo0=0 elo1=10"), "{table}");
        let json = to_json(&info(&["A", "B"]), &s, &records);
        assert!(json.contains("\"pentanomial\": [0, 1, 0, 0, 1]"), "{json}");
    }

    #[test]
    fn text_round_trip_and_merge() {
        let records = vec![
            rec(0, 0, 1, "B+R", "resign"),
            rec(1, 1, 0, "W+3.5", "score"),
            rec(2, 0, 1, "0", "score"),
            rec(3, 1, 0, "B+T", "time"),
        ];
        let mut i1 = info(&["A", "B"]);
        i1.shard = Some("1/2".parse().unwrap());
        let mut i2 = i1.clone();
        i2.shard = Some("2/2".parse().unwrap());
        let t1 = results_text(&i1, &[records[0].clone(), records[1].clone()]);
        let t2 = results_text(&i2, &[records[3].clone(), records[2].clone()]);
        let p1 = parse_results(&t1).unwrap();
        assert_eq!(p1.0, i1);
        let (mi, mr) = merge(vec![parse_results(&t2).unwrap(), p1.clone()]).unwrap();
        assert_eq!(mr, records);
        assert_eq!(mi, info(&["A", "B"]));
        assert!(merge(vec![p1.clone(), p1.clone()]).is_err(), "duplicates");
        let mut other = p1.clone();
        other.0.engines[1] = "C".into();
        assert!(merge(vec![p1, other]).is_err(), "different engines");
        assert!(parse_results("hello").is_err());
        assert!(parse_results(&t1.replace("\t0\t1\tB+R", "\t0\t7\tB+R")).is_err());
    }
}
