//! Who plays whom, with which opening and colour: round robin or gauntlet over N rounds,
//! every pairing playing each round's opening twice with colours swapped; the deterministic
//! shards of that list; and openings read from a file or generated from a seed.
//!
//! The schedule depends only on (kind, engine count, rounds), never on timing, so every
//! shard of a split run computes the same global game numbers and a merge can line the
//! games up again.
use super::referee::{check_opening, EngineMove, RefereeGame};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::fmt;
use std::str::FromStr;

/// The pairing scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScheduleKind {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others (a new version against references).
    Gauntlet,
    /// Round robin where the first-listed engine of each pairing has Black in every game
    /// (the two-engine form's `--fixed-colours`).
    FixedColours,
}

impl FromStr for ScheduleKind {
    type Err = String;
    fn from_str(s: &str) -> Result<ScheduleKind, String> {
        match s {
            "round-robin" | "roundrobin" | "rr" => Ok(ScheduleKind::RoundRobin),
            "gauntlet" => Ok(ScheduleKind::Gauntlet),
            "fixed-colours" => Ok(ScheduleKind::FixedColours),
            _ => Err(format!(
                "unknown schedule {s:?} (expected round-robin, gauntlet or fixed-colours)"
            )),
        }
    }
}

impl fmt::Display for ScheduleKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ScheduleKind::RoundRobin => "round-robin",
            ScheduleKind::Gauntlet => "gauntlet",
            ScheduleKind::FixedColours => "fixed-colours",
        })
    }
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Global 0-based number; games `2k` and `2k + 1` are one colour-swapped pair.
    pub index: usize,
    pub round: usize,
    /// Index into the opening list (the round number modulo its length).
    pub opening: usize,
    /// Engine indices holding Black and White.
    pub black: usize,
    pub white: usize,
}

impl ScheduledGame {
    /// The colour-swapped pair this game belongs to (the unit of sharding and of the
    /// pentanomial statistics).
    pub fn pair_id(&self) -> usize {
        self.index / 2
    }
}

/// The pairings of one round, each as (first, second) with first < second.
pub fn pairings(kind: ScheduleKind, engines: usize) -> Vec<(usize, usize)> {
    match kind {
        ScheduleKind::RoundRobin | ScheduleKind::FixedColours => (0..engines)
            .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
            .collect(),
        ScheduleKind::Gauntlet => (1..engines).map(|b| (0, b)).collect(),
    }
}

/// The whole schedule: for each round, for each pairing, the first engine takes Black on
/// the round's opening, then the second does (with fixed colours the first again). `openings` is the length of the opening
/// list (0 = start from the empty board every time).
pub fn schedule(
    kind: ScheduleKind,
    engines: usize,
    rounds: usize,
    openings: usize,
) -> Vec<ScheduledGame> {
    let pairs = pairings(kind, engines);
    let mut games = Vec::with_capacity(rounds * pairs.len() * 2);
    for round in 0..rounds {
        let opening = if openings == 0 { 0 } else { round % openings };
        for &(a, b) in &pairs {
            let second = if kind == ScheduleKind::FixedColours {
                (a, b)
            } else {
                (b, a)
            };
            for (black, white) in [(a, b), second] {
                games.push(ScheduledGame {
                    index: games.len(),
                    round,
                    opening,
                    black,
                    white,
                });
            }
        }
    }
    games
}

/// `--shard i/n`: the i-th (1-based) of n disjoint slices. Whole colour-swapped pairs go
/// to one shard, dealt out in turn (pair k to shard k mod n), so each shard gets an even
/// share of every round and its pentanomial counts stay exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    pub fn contains(&self, game: &ScheduledGame) -> bool {
        game.pair_id() % self.count == self.index - 1
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("bad shard {s:?}: expected i/n with 1 <= i <= n");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Reads an opening file: one opening per line, moves in protocol notation separated by
/// spaces or commas; `#` starts a comment (a whole line or the end of one, as
/// `docs/match.md` says) and blank lines are skipped. Every opening is
/// replayed through our rules (`new_game` gives a fresh game), so a typo is reported with
/// its line number before any engine starts.
pub fn parse_openings<G: RefereeGame>(
    text: &str,
    new_game: impl Fn() -> G,
) -> Result<Vec<Vec<String>>, String> {
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        // `#` starts a comment, on a line of its own or after the moves (no notation of
        // ours uses `#`).
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let moves: Vec<String> = line
            // Any whitespace separates moves: a stray vertical tab must not become part
            // of a move sent to the engines (found by tests/fuzz_parsers.rs).
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|m| !m.is_empty())
            .map(str::to_string)
            .collect();
        check_opening(&mut new_game(), &moves).map_err(|e| format!("line {}: {e}", n + 1))?;
        openings.push(moves);
    }
    if openings.is_empty() {
        return Err("no openings in the file".into());
    }
    Ok(openings)
}

/// `count` openings of `plies` random legal moves each; opening `r` is a function of
/// `(seed, r)` alone, so any shard regenerates exactly the openings of its rounds.
pub fn random_openings<G: RefereeGame>(
    new_game: impl Fn() -> G,
    plies: usize,
    count: usize,
    seed: u64,
) -> Result<Vec<Vec<String>>, String> {
    (0..count)
        .map(|r| {
            // SplitMix-style spreading so neighbouring rounds get unrelated streams.
            let mixed = seed ^ (r as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let mut rng = SmallRng::seed_from_u64(mixed);
            let mut game = new_game();
            let mut moves = Vec::with_capacity(plies);
            for _ in 0..plies {
                if game.is_over() {
                    break;
                }
                let color = game.to_move();
                let Some(mv) = game.random_move(&mut rng) else {
                    return Err("this game cannot generate random openings".to_string());
                };
                let text = game.move_text(mv);
                // Round-trip through the parser: the text is what engines will receive.
                match game.parse_move(color, &text) {
                    Ok(EngineMove::Move(_)) => {}
                    _ => return Err(format!("generated move {text} does not parse")),
                }
                game.play(color, mv)?;
                moves.push(text);
            }
            Ok(moves)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::go_referee::GoReferee;

    #[test]
    fn round_robin_and_gauntlet() {
        // 4 engines: 6 pairings round robin, 3 in a gauntlet.
        assert_eq!(
            pairings(ScheduleKind::RoundRobin, 4),
            vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(
            pairings(ScheduleKind::Gauntlet, 4),
            vec![(0, 1), (0, 2), (0, 3)]
        );
        let s = schedule(ScheduleKind::RoundRobin, 3, 2, 5);
        assert_eq!(s.len(), 2 * 3 * 2);
        for (i, g) in s.iter().enumerate() {
            assert_eq!(g.index, i);
            let mate = s[i ^ 1];
            assert_eq!((g.black, g.white), (mate.white, mate.black), "colours swap");
            assert_eq!((g.opening, g.round), (mate.opening, mate.round));
        }
        assert_eq!(s[6].round, 1);
        assert_eq!(s[6].opening, 1);
        let every_engine_even = (0..3).all(|e| {
            let black = s.iter().filter(|g| g.black == e).count();
            let white = s.iter().filter(|g| g.white == e).count();
            black == white && black == 4
        });
        assert!(every_engine_even);
        assert_eq!(schedule(ScheduleKind::Gauntlet, 2, 3, 0)[5].opening, 0);
        // Fixed colours: two engines, engine 0 always Black, two games per round.
        let f = schedule(ScheduleKind::FixedColours, 2, 2, 0);
        let sides: Vec<_> = f.iter().map(|g| (g.round, g.black, g.white)).collect();
        assert_eq!(sides, [(0, 0, 1), (0, 0, 1), (1, 0, 1), (1, 0, 1)]);
        for kind in [
            ScheduleKind::RoundRobin,
            ScheduleKind::Gauntlet,
            ScheduleKind::FixedColours,
        ] {
            assert_eq!(kind.to_string().parse::<ScheduleKind>(), Ok(kind));
        }
    }

    #[test]
    fn shards_partition_the_schedule() {
        let s = schedule(ScheduleKind::RoundRobin, 3, 7, 0);
        let shards: Vec<Shard> = (1..=4).map(|i| format!("{i}/4").parse().unwrap()).collect();
        for g in &s {
            assert_eq!(shards.iter().filter(|sh| sh.contains(g)).count(), 1);
            let mate = s[g.index ^ 1];
            assert!(shards.iter().all(|sh| sh.contains(g) == sh.contains(&mate)));
        }
        assert!("0/4".parse::<Shard>().is_err());
        assert!("5/4".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
        assert_eq!("2/3".parse::<Shard>().unwrap().to_string(), "2/3");
    }

    #[test]
    fn openings_from_text_are_checked() {
        let go = || GoReferee::new(9, 7.5).unwrap();
        let o = parse_openings("# 9x9\nE5 C3\n\nd4,f6 pass\n", go).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[1], vec!["d4", "f6", "pass"]);
        let e = parse_openings("E5 E5\n", go).unwrap_err();
        assert!(e.starts_with("line 1:"), "{e}");
        assert!(parse_openings("E5 Z9\n", go).is_err());
        assert!(parse_openings("# nothing\n", go).is_err());
    }

    /// docs/match.md: "one opening per line (protocol notation, `#` comments)". A trailing
    /// comment was read as moves (`"#"` is not a move).
    #[test]
    fn openings_take_trailing_comments() {
        let go = || GoReferee::new(9, 7.5).unwrap();
        let o = parse_openings(
            "E5 C3  # tengen, then a 3-3\nd4 f6#no space\n  # indented\n",
            go,
        )
        .unwrap();
        assert_eq!(o, vec![vec!["E5", "C3"], vec!["d4", "f6"]]);
        assert!(parse_openings("E5 E5 # occupied\n", go).is_err());
    }

    #[test]
    fn random_openings_are_legal_and_reproducible() {
        let go = || GoReferee::new(9, 7.5).unwrap();
        let a = random_openings(go, 6, 5, 42).unwrap();
        let b = random_openings(go, 6, 5, 42).unwrap();
        let c = random_openings(go, 6, 5, 43).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.iter().all(|o| o.len() == 6));
        assert_ne!(a[0], a[1]);
        for o in &a {
            check_opening(&mut go(), o).unwrap();
        }
    }
}
