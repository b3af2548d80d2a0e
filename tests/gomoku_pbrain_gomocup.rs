//! Gomocup practice in the pbrain protocol, as transcripts with a live brain: the Swap2
//! opening command `SWAP2BOARD` (its three cases and its answers as the Gomocup
//! experimental-tournament text gives them: gomocup.org/news/experimental-tournament-update-2020/),
//! and the match clock (`INFO timeout_match`, `INFO time_left`; Petr Lastovicka's
//! protocol text, petr.lastovicka.sweb.cz/protocl2en.htm: "time_left - remaining time
//! limit of a whole match") never exceeded.
mod common;

use common::brain::Brain;
use std::time::Duration;

fn xy(s: &str) -> (usize, usize) {
    let (x, y) = s
        .split_once(',')
        .unwrap_or_else(|| panic!("not x,y: {s:?}"));
    (x.parse().unwrap(), y.parse().unwrap())
}

fn block(stones: &[(usize, usize)]) -> String {
    let mut s = "SWAP2BOARD\n".to_string();
    for (x, y) in stones {
        s += &format!("{x},{y}\n");
    }
    s + "DONE\n"
}

#[test]
fn swap2board_its_three_cases() {
    let mut b = Brain::start();
    assert_eq!(
        b.ask("START 15\nINFO rule 1\nINFO timeout_turn 600\nINFO max_memory 33554432\n")
            .0,
        "OK"
    );
    // Case 1: the first three stones, as three points on one line.
    let (a, _) = b.ask(&block(&[]));
    let three: Vec<(usize, usize)> = a.split(' ').map(xy).collect();
    assert_eq!(three.len(), 3, "{a:?}");
    for (i, &(x, y)) in three.iter().enumerate() {
        assert!(x < 15 && y < 15, "{a:?}");
        assert!(!three[..i].contains(&(x, y)), "{a:?}");
    }

    // Case 2 (the text's example): SWAP, the fourth stone, or the fourth and fifth.
    let given = [(7, 7), (8, 7), (9, 9)];
    let (a, _) = b.ask(&block(&given));
    if a != "SWAP" {
        let stones: Vec<(usize, usize)> = a.split(' ').map(xy).collect();
        assert!((1..=2).contains(&stones.len()), "{a:?}");
        assert!(stones.iter().all(|s| !given.contains(s)), "{a:?}");
        assert!(stones.len() == 1 || stones[0] != stones[1], "{a:?}");
    }

    // Case 3 (the text's example): SWAP or the sixth stone; then the game goes on from
    // there (the manager may send TURN with the next stone).
    let given = [(7, 7), (8, 7), (9, 9), (8, 8), (8, 6)];
    let (a, _) = b.ask(&block(&given));
    let mut taken = given.to_vec();
    if a != "SWAP" {
        let p = xy(&a);
        assert!(!given.contains(&p), "{a:?}");
        taken.push(p);
    }
    let next = if taken.contains(&(3, 3)) {
        (3, 4)
    } else {
        (3, 3)
    };
    taken.push(next);
    let (a, _) = b.ask(&format!("TURN {},{}\n", next.0, next.1));
    assert!(!taken.contains(&xy(&a)), "{a:?} on a stone of {taken:?}");
    b.end();
}

#[test]
fn swap2board_bad_blocks_are_one_error_each_and_change_nothing() {
    let mut b = Brain::start();
    assert!(b
        .ask(&block(&[(7, 7), (8, 7), (9, 9)]))
        .0
        .starts_with("ERROR SWAP2BOARD before START"));
    assert_eq!(b.ask("START 15\nINFO timeout_turn 300\n").0, "OK");
    let (a, _) = b.ask(&block(&[(7, 7), (8, 7)]));
    assert_eq!(a, "ERROR SWAP2BOARD takes 0, 3 or 5 stones, not 2");
    let (a, _) = b.ask(&block(&[(7, 7), (7, 7), (9, 9)]));
    assert!(a.starts_with("ERROR SWAP2BOARD stone 7,7"), "{a:?}");
    let (a, _) = b.ask(&block(&[(7, 7), (15, 7), (9, 9)]));
    assert_eq!(a, "ERROR bad SWAP2BOARD stone 15,7");
    let (a, _) = b.ask("SWAP2BOARD\n7,7\n8,7,1\n9,9\nDONE\n");
    assert!(
        a.starts_with("ERROR bad SWAP2BOARD line \"8,7,1\""),
        "{a:?}"
    );
    // The board is still the empty one of START: BEGIN opens in the centre.
    assert_eq!(b.ask("BEGIN\n").0, "7,7");
    b.end();
}

/// Plays BEGIN and then `turns` TURNs with stones on the edges, giving the brain before
/// each move what is left of `match_ms` as the manager would (if `time_left`), and returns
/// the brain's time per move. The edge stones block nothing: with `turns` above 4 the
/// brain may have made its five before the last TURN.
fn clocked_game(match_ms: u64, time_left: bool, turns: usize) -> Vec<Duration> {
    assert!(turns <= 4, "five stones of the brain at most");
    let mut b = Brain::start();
    assert_eq!(b.ask("START 15\n").0, "OK");
    // A turn limit far above the match share: only the match clock can keep moves short.
    b.tell(&format!(
        "INFO max_memory 33554432\nINFO timeout_turn 10000\nINFO timeout_match {match_ms}\n"
    ));
    // A manager's pause after START: the brain makes its tables outside a move's time.
    std::thread::sleep(Duration::from_millis(300));
    let mut used = Duration::ZERO;
    let mut times = Vec::new();
    let mut stones = Vec::new();
    let far = (0..15).flat_map(|y| [(0, y), (14, y)]);
    let mut far = far.into_iter();
    for i in 0..=turns {
        let left = (match_ms as u128).saturating_sub(used.as_millis());
        let info = if time_left {
            format!("INFO time_left {left}\n")
        } else {
            String::new()
        };
        let cmd = if i == 0 {
            "BEGIN\n".to_string()
        } else {
            let p = far.by_ref().find(|p| !stones.contains(p)).unwrap();
            stones.push(p);
            format!("TURN {},{}\n", p.0, p.1)
        };
        let (a, t) = b.ask(&(info + &cmd));
        stones.push(xy(&a));
        assert!(
            t.as_millis() < left,
            "move {i} took {t:?} with {left} ms left"
        );
        used += t;
        times.push(t);
    }
    b.end();
    times
}

#[test]
fn time_left_is_never_exceeded() {
    // 10 s per turn would be allowed; 3 s for the whole game is the real limit.
    let times = clocked_game(3000, true, 4);
    let total: Duration = times.iter().sum();
    assert!(total < Duration::from_millis(3000), "{times:?}");
}

#[test]
fn timeout_match_alone_is_never_exceeded() {
    // No time_left: the brain counts its own thinking time against timeout_match.
    let times = clocked_game(2000, false, 4);
    let total: Duration = times.iter().sum();
    assert!(total < Duration::from_millis(2000), "{times:?}");
}

#[test]
fn time_left_at_its_extremes() {
    // The text: time_left "can be negative when the brain runs out of time" and is
    // 2147483647 when the match time is unlimited (then the turn limit rules).
    let mut b = Brain::start();
    assert_eq!(b.ask("START 15\n").0, "OK");
    // A turn limit of 3 s, so that a move answered well inside 1 s shows the brain saw it
    // had no time; the bounds leave a loaded machine (CI) its latency.
    b.tell("INFO max_memory 33554432\nINFO timeout_turn 3000\nINFO timeout_match 0\n");
    std::thread::sleep(Duration::from_millis(300));
    let (a, t) = b.ask("INFO time_left 2147483647\nBEGIN\n");
    assert_eq!(a, "7,7");
    assert!(t < Duration::from_millis(3000), "{t:?}");
    let (a, t) = b.ask("INFO time_left -5\nTURN 0,0\n");
    assert!(xy(&a) != (0, 0) && xy(&a) != (7, 7), "{a:?}");
    assert!(t < Duration::from_millis(1000), "out of time, yet {t:?}");
    b.end();
}

/// The `threads` field of every `move` line of a brain's log.
fn threads_of_moves(log: &str) -> Vec<u32> {
    log.lines()
        .filter(|l| l.contains("pbrain") && l.contains(" move "))
        .map(|l| {
            let at = l
                .find(" threads=")
                .unwrap_or_else(|| panic!("no threads in {l:?}"))
                + 9;
            let rest = &l[at..];
            rest[..rest.find(' ').unwrap_or(rest.len())]
                .parse()
                .unwrap_or_else(|_| panic!("bad threads in {l:?}"))
        })
        .collect()
}

/// `INFO THREAD_NUM n` (the Gomocup managers send it) sets the search threads of the next
/// moves; a value out of 1..=256, or not a number, is logged and ignored (INFO gets no
/// answer), and the session goes on.
#[test]
fn info_thread_num_sets_the_threads_and_bad_values_are_ignored() {
    let mut b = Brain::start_logged();
    assert_eq!(b.ask("START 15\n").0, "OK");
    let (first, _) = b.ask("INFO timeout_turn 300\nINFO THREAD_NUM 2\nBEGIN\n");
    let mut taken = vec![xy(&first)];
    // Corner points the brain does not play this early.
    let (second, _) =
        b.ask("INFO THREAD_NUM 0\nINFO THREAD_NUM 257\nINFO THREAD_NUM two\nTURN 0,0\n");
    taken.push(xy(&second));
    let (third, _) = b.ask("INFO thread_num 1\nTURN 14,14\n");
    taken.push(xy(&third));
    for p in &taken {
        assert!(![(0, 0), (14, 14)].contains(p), "{taken:?}");
    }
    let log = b.end();
    assert_eq!(threads_of_moves(&log), [2, 2, 1], "{log}");
    assert!(
        log.contains("INFO THREAD_NUM 0: threads must be between 1 and 256"),
        "{log}"
    );
    assert!(
        log.contains("INFO THREAD_NUM 257: threads must be between 1 and 256"),
        "{log}"
    );
    assert!(log.contains("not a number"), "{log}");
}
