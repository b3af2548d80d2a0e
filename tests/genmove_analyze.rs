//! `genmove_analyze` in Othello, Gomoku and Dots: `genmove` that writes `info move ...`
//! lines (the shape of each game's `analyze`) while its search runs, then `play <move>`.
//! The move is genmove's (same search), it is played, and `# interrupt` ends the search
//! like genmove's. Real binary, real pipes.
mod common;
use common::live::Live;
use regex::Regex;
use std::time::Duration;

/// The KataGo float shape every game's `analyze` writes.
fn info_line() -> Regex {
    Regex::new(
        "^info move (\\S+) visits \\d+ utility \\S+ winrate \\S+( scoreMean \\S+ scoreLead \\S+)? \
         prior \\S+ lcb \\S+ utilityLcb \\S+ order 0 pv \\S+$",
    )
    .unwrap()
}

/// The moves of the info lines and the played move of a `genmove_analyze` answer whose
/// first line is `header`; panics on any other shape.
fn parse(answer: &str, header: &str) -> (Vec<String>, String) {
    let re = info_line();
    let lines: Vec<&str> = answer.lines().collect();
    assert_eq!(lines[0], header, "{answer}");
    let played = lines
        .last()
        .and_then(|l| l.strip_prefix("play "))
        .unwrap_or_else(|| panic!("no play line: {answer}"))
        .to_string();
    let moves = lines[1..lines.len() - 1]
        .iter()
        .map(|l| {
            let c = re
                .captures(l)
                .unwrap_or_else(|| panic!("not an info line: {l}"));
            c[1].to_string()
        })
        .collect();
    (moves, played)
}

/// Each game: its arguments, the commands before the move, the colour to move and the
/// other one.
fn games() -> [(
    &'static [&'static str],
    &'static [&'static str],
    &'static str,
    &'static str,
); 3] {
    [
        (
            &["othello", "--no-book", "--move-time", "0.5"],
            &[],
            "b",
            "w",
        ),
        (
            &["gomoku", "--move-time", "0.5"],
            &["boardsize 15", "play b h8"],
            "w",
            "b",
        ),
        (&["dots", "--move-time", "0.5"], &["boardsize 3"], "b", "w"),
    ]
}

#[test]
fn info_lines_name_legal_moves_then_the_move_is_played_and_the_game_goes_on() {
    for (args, setup, us, them) in games() {
        let mut q = Live::start(args);
        let listed = q.ask("list_commands");
        assert!(listed.lines().any(|l| l == "genmove_analyze"), "{listed}");
        for c in setup {
            assert_eq!(q.ask(c), "=", "{args:?} {c}");
        }
        let answer = q.ask(&format!("7 genmove_analyze {us} 10"));
        let (moves, played) = parse(&answer, "=7");
        assert!(!moves.is_empty(), "{args:?}: {answer}");
        // Played: the same move again is refused.
        assert!(
            q.ask(&format!("play {us} {played}")).starts_with('?'),
            "{args:?}: {played} was not played"
        );
        assert_eq!(q.ask("undo"), "=", "{args:?}");
        // Every move a line named is legal here.
        for m in &moves {
            assert_eq!(q.ask(&format!("play {us} {m}")), "=", "{args:?}: {m}");
            assert_eq!(q.ask("undo"), "=", "{args:?}");
        }
        assert_eq!(q.ask(&format!("play {us} {played}")), "=", "{args:?}");
        let reply = q.ask(&format!("genmove {them}"));
        assert!(
            reply.starts_with("= ") && reply.len() > 2,
            "{args:?}: {reply}"
        );
        // The colour is optional: the side to move.
        let (_, next) = parse(&q.ask("genmove_analyze 10"), "=");
        assert!(!next.is_empty(), "{args:?}");
    }
}

#[test]
fn the_move_is_genmoves_when_the_search_is_deterministic() {
    // Fixed work under a clock that never runs out: a depth for Othello and Gomoku, an
    // exact solve for the 2x2 Dots board.
    let cases: [(&[&str], &[&str], &str); 3] = [
        (
            &["othello", "--no-book", "--depth", "6", "--move-time", "60"],
            &["play b d3", "play w c5"],
            "b",
        ),
        (
            &[
                "gomoku",
                "--no-threats",
                "--depth",
                "4",
                "--move-time",
                "60",
            ],
            &["boardsize 15", "play b h8", "play w j9"],
            "b",
        ),
        (&["dots", "--move-time", "60"], &["boardsize 2"], "b"),
    ];
    for (args, setup, us) in cases {
        let mut plain = Live::start(args);
        let mut analysed = Live::start(args);
        for c in setup {
            assert_eq!(plain.ask(c), "=", "{args:?} {c}");
            assert_eq!(analysed.ask(c), "=", "{args:?} {c}");
        }
        let want = plain.ask(&format!("genmove {us}"));
        let want = want.strip_prefix("= ").unwrap_or_else(|| panic!("{want}"));
        // Interval 0: a line after every completed iteration, the last one the search's
        // final choice.
        let answer = analysed.ask(&format!("genmove_analyze {us} 0"));
        let (moves, played) = parse(&answer, "=");
        assert!(played.eq_ignore_ascii_case(want), "{args:?}: {answer}");
        let last = moves.last().unwrap_or_else(|| panic!("{args:?}: {answer}"));
        assert!(last.eq_ignore_ascii_case(want), "{args:?}: {answer}");
    }
}

#[test]
fn an_interrupt_ends_the_search_with_a_play_line() {
    let long: [&[&str]; 3] = [
        &["othello", "--no-book", "--move-time", "60"],
        &["gomoku", "--no-threats", "--move-time", "60"],
        &["dots", "--move-time", "60"],
    ];
    for (args, (_, setup, us, _)) in long.into_iter().zip(games()) {
        let mut q = Live::start(args);
        for c in setup {
            assert_eq!(q.ask(c), "=", "{args:?} {c}");
        }
        q.send(&format!("genmove_analyze {us} 10"));
        assert_eq!(q.line(Duration::from_secs(30)).as_deref(), Some("="));
        let first = q.line(Duration::from_secs(30)).expect("an info line");
        assert!(info_line().is_match(&first), "{args:?}: {first}");
        q.send("# interrupt");
        // Far sooner than the 60 s move; the bound only stops a hang.
        let rest = q
            .answer(Duration::from_secs(20))
            .unwrap_or_else(|| panic!("{args:?}: no end after the interrupt"));
        let (_, played) = parse(&format!("=\n{rest}"), "=");
        assert_eq!(q.ask("undo"), "=", "{args:?}");
        assert_eq!(q.ask(&format!("play {us} {played}")), "=", "{args:?}");
    }
}
