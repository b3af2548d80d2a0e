//! Finished games as data: one line per game in `results.tsv` (what a shard writes and
//! `quartet match merge` reads back), merging shards, and the summary computed from those
//! lines alone (per-engine rows, per-pair W/D/L and pentanomial counts). `report` turns a
//! summary into tables and JSON.
//!
//! A single run prints the summary of its own lines through the same functions a merge
//! uses, and every figure is a function of integer counts, so a merge of shards prints
//! exactly the table of one run over the same games.
use super::schedule::{ScheduleKind, Shard};
use super::stats::{Pentanomial, Wdl};
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
    /// What lies behind `reason` (the illegal move, the engine's error), for the progress
    /// line; empty when there is nothing to add. Not kept in `results.tsv`.
    pub detail: String,
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
            detail: String::new(),
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
            detail: String::new(),
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
        let table = super::super::report::render(&info(&["A", "B"]), &s);
        assert!(table.contains("4 of 4 games"), "{table}");
        assert!(table.contains("2.5/4"), "{table}");
        assert!(table.contains("1.5/4"), "{table}");
        assert!(table.contains("SPRT elo0=0 elo1=10"), "{table}");
        let json = super::super::report::to_json(&info(&["A", "B"]), &s, &records);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["total_games"], 4);
        assert_eq!(v["games_played"], 4);
        assert_eq!(v["sprt"], "elo0=0 elo1=10");
        assert_eq!(v["shard"], serde_json::Value::Null);
        let a = &v["engines"][0];
        assert_eq!(a["name"], "A");
        assert_eq!(
            a["total"],
            serde_json::json!({"wins": 2, "draws": 1, "losses": 1})
        );
        assert_eq!(a["as_black"]["draws"], 1);
        assert_eq!(a["lost_on_time"], 1);
        assert_eq!(a["score"], 0.625);
        // 2.5 of 4: s = 0.625, per-game variance (2*0.140625 + 0.015625 + 0.390625)/4 =
        // 0.171875, standard error 0.207289, so s in [0.218721, 1.031279]: the upper end is
        // past 1, an infinite Elo, written as null.
        let elo = &a["elo_vs_field"];
        assert!((elo["elo"].as_f64().unwrap() - 88.74).abs() < 0.01, "{elo}");
        assert!(
            (elo["lo95"].as_f64().unwrap() + 221.17).abs() < 0.01,
            "{elo}"
        );
        assert_eq!(elo["hi95"], serde_json::Value::Null);
        let p = &v["pairs"][0];
        assert_eq!(
            (p["first"].as_str(), p["second"].as_str()),
            (Some("A"), Some("B"))
        );
        assert_eq!(p["pentanomial"], serde_json::json!([0, 1, 0, 0, 1]));
        assert!(p["llr"].is_f64(), "{p}");
        let g = &v["games"][3];
        assert_eq!(
            (g["game"].as_u64(), g["round"].as_u64()),
            (Some(4), Some(2))
        );
        assert_eq!(
            (g["black"].as_str(), g["white"].as_str()),
            (Some("B"), Some("A"))
        );
        assert_eq!(
            (g["result"].as_str(), g["reason"].as_str()),
            (Some("B+T"), Some("time"))
        );
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
