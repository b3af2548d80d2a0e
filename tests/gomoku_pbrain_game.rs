//! Two `quartet gomoku --pbrain` processes play each other move by move, as Piskvork would
//! drive them, and every alpha-beta search either brain logs must have completed depth 4 or
//! more, unless it proved the game won or lost (iterative deepening stops at the first
//! depth that proves it). Issue 18: after the first search that ran into its hard deadline,
//! the brain's stop token stayed set and every later `TURN` completed no iteration
//! (`depth=0`, score 0).
mod common;

use common::brain::Brain;

/// Moves each brain makes. 10 each is 20 searches; two equal engines do not finish a
/// 15x15 game that fast.
const MOVES_EACH: usize = 10;

/// Scores at or beyond this are wins or losses proved by the search (the engine's
/// `MATE_BOUND`: a mate value minus at most 1000 plies).
const PROVEN: i64 = 999_000;

/// `(depth, source, score)` of every `move` line in a brain's log.
fn searches(log: &str) -> Vec<(u32, String, i64)> {
    let field = |line: &str, key: &str| -> Option<String> {
        let at = line.find(&format!(" {key}="))? + key.len() + 2;
        let rest = &line[at..];
        let end = rest.find(' ').unwrap_or(rest.len());
        Some(rest[..end].trim_matches('"').to_string())
    };
    log.lines()
        .filter(|l| l.contains("pbrain") && l.contains(" move "))
        .map(|l| {
            let depth = field(l, "depth").and_then(|d| d.parse().ok());
            let source = field(l, "source");
            let score = field(l, "score").and_then(|s| s.parse().ok());
            (
                depth.unwrap_or_else(|| panic!("no depth in {l:?}")),
                source.unwrap_or_else(|| panic!("no source in {l:?}")),
                score.unwrap_or_else(|| panic!("no score in {l:?}")),
            )
        })
        .collect()
}

fn is_move(answer: &str) -> bool {
    answer
        .split_once(',')
        .is_some_and(|(x, y)| x.parse::<u32>().is_ok() && y.parse::<u32>().is_ok())
}

#[test]
fn every_search_of_a_pbrain_game_completes_depth_four() {
    let mut black = Brain::start_logged();
    let mut white = Brain::start_logged();
    for b in [&mut black, &mut white] {
        assert_eq!(b.ask("START 15").0, "OK");
        b.tell("INFO timeout_turn 500");
    }
    let mut last = black.ask("BEGIN").0;
    let mut made = (1, 0);
    while made.1 < MOVES_EACH {
        assert!(is_move(&last), "black answered {last:?}");
        last = white.ask(&format!("TURN {last}")).0;
        if !is_move(&last) {
            break;
        }
        made.1 += 1;
        if made.1 == MOVES_EACH {
            break;
        }
        last = black.ask(&format!("TURN {last}")).0;
        if !is_move(&last) {
            break;
        }
        made.0 += 1;
    }
    let logs = [black.end(), white.end()];
    assert!(
        made.0 + made.1 >= 2 * MOVES_EACH - 1,
        "the game ended after {made:?} moves ({last:?})"
    );
    let all: Vec<(u32, String, i64)> = logs.iter().flat_map(|l| searches(l)).collect();
    assert_eq!(
        all.len(),
        made.0 + made.1,
        "one log line per move: {logs:?}"
    );
    let alphabeta: Vec<(u32, i64)> = all
        .iter()
        .filter(|(_, s, _)| s == "alphabeta")
        .map(|(d, _, v)| (*d, *v))
        .collect();
    assert!(
        alphabeta.len() >= 10,
        "only {} alpha-beta searches: {all:?}",
        alphabeta.len()
    );
    // A proof may come at depth 1 (the quiescence follows fours past the horizon), but it
    // needs one completed iteration; an open position needs depth 4.
    assert!(
        alphabeta
            .iter()
            .all(|&(d, v)| d >= 4 || (v.abs() >= PROVEN && d >= 1)),
        "alpha-beta (depth, score) per move: {alphabeta:?}"
    );
}
