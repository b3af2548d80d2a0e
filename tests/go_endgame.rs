//! Decisions at the end of a game: when to pass after the opponent passed, and when to
//! resign. Each position is built by hand; the comment above it says why the answer is
//! right, and GNU Go 3.8 (`gnugo --mode gtp --chinese-rules`, after `play w pass`) was asked
//! for `dragon_status` and `final_status_list` to confirm the life and death.
//! Fixed playouts and seeds make the searches reproducible.
use std::sync::atomic::AtomicBool;

use quartet::color::Color::{Black, White};
use quartet::go::board::Move;
use quartet::go::game::Game;
use quartet::go::player::{Decision, Player};
use quartet::go::settings::PlayerConfig;
use quartet::protocol::coords::format_vertex;

fn game_from(rows: &[&str], komi: f32) -> Game {
    let mut g = Game::new(rows.len(), komi);
    let stones = g.board().diagram_stones(rows);
    g.add_setup(&stones).unwrap();
    g
}

fn player(seed: u64) -> Player {
    Player::new(PlayerConfig {
        playouts: Some(3000),
        threads: 1,
        seed,
        resign_threshold: 0.08,
        ..PlayerConfig::default()
    })
}

fn answer(g: &Game, p: &mut Player) -> String {
    let stop = AtomicBool::new(false);
    match p.genmove(g, Black, None, &stop, false).decision {
        Decision::Play(Move::Play(q)) => format_vertex(Some(g.board().col_row(q))),
        Decision::Play(Move::Pass) => "pass".into(),
        Decision::Resign => "resign".into(),
    }
}

/// Black's group (columns A-E) has one eye space, the straight three A7-A9; White's group
/// lives with two eyes (J1, J3). The board as it stands counts B+1.5 (45 to 36, komi 7.5),
/// which is what the old rule looked at, and it passed. But the black group is unsettled:
/// White at A8 leaves it one eye and kills it, Black at A8 makes two eyes. GNU Go:
/// `dragon_status A6` = `critical A8 A8`, and its `genmove b` is A8. Under area rules A8 costs
/// Black nothing, so it is right whatever the judge says; passing leaves the game to the
/// judge's reading of an unsettled group.
const CRITICAL: [&str; 9] = [
    ".XXXXOOOO",
    ".XXXXOOOO",
    ".XXXXOOOO",
    "XXXXXOOOO",
    "XXXXXOOOO",
    "XXXXXOOOO",
    "XXXXXOOO.",
    "XXXXXOOOO",
    "XXXXXOOO.",
];

#[test]
fn settles_a_critical_group_instead_of_passing() {
    for seed in [1, 2, 3] {
        let mut g = game_from(&CRITICAL, 7.5);
        g.play(White, Move::Pass).unwrap();
        assert_eq!(answer(&g, &mut player(seed)), "A8", "seed {seed}");
    }
}

#[test]
fn passes_when_every_group_is_settled() {
    // The same board with a second black eye at A5: both groups are alive (GNU Go: `alive`
    // for both dragons, `final_status_list dead` empty, `final_score` B+1.5), every empty
    // point is an eye or inside Black's own area, so nothing left changes the count and
    // Black, ahead, ends the game.
    let mut rows = CRITICAL;
    rows[4] = ".XXXXOOOO";
    for seed in [1, 2] {
        let mut g = game_from(&rows, 7.5);
        g.play(White, Move::Pass).unwrap();
        assert_eq!(answer(&g, &mut player(seed)), "pass", "seed {seed}");
    }
}

#[test]
fn captures_a_dead_stone_before_passing_when_the_bare_count_loses() {
    // Black lives with the eye A5 and the corner space A7-B9, where a lone white stone
    // (A8) is dead (GNU Go: `dragon_status A8` = `dead`, `final_score` B+1.5 with it off).
    // Counted as the board stands, the stone makes the corner neutral and scores W+5.5: a
    // referee without life-and-death judgement would give White the game. Capturing it is
    // free under area rules, so Black must not pass yet.
    let rows = [
        "..XXXOOOO",
        "O.XXXOOOO",
        "..XXXOOOO",
        "XXXXXOOOO",
        ".XXXXOOOO",
        "XXXXXOOOO",
        "XXXXXOOO.",
        "XXXXXOOOO",
        "XXXXXOOO.",
    ];
    for seed in [1, 2] {
        let mut g = game_from(&rows, 7.5);
        g.play(White, Move::Pass).unwrap();
        let mv = answer(&g, &mut player(seed));
        assert!(
            ["A9", "B9", "B8", "A7", "B7"].contains(&mv.as_str()),
            "seed {seed}: {mv}"
        );
    }
}

#[test]
fn resigns_only_after_several_hopeless_moves() {
    // White's group on columns A-F has five separate eyes on the A file: unconditionally
    // alive, 54 points of area. Black can at best own the 27 points of columns G-J, so
    // every continuation loses and every win rate is 0: the old rule resigned at once. The
    // new one waits for three of its moves in a row below the threshold.
    let rows = [
        ".OOOOO...",
        "OOOOOO...",
        ".OOOOO...",
        "OOOOOO...",
        ".OOOOO...",
        "OOOOOO...",
        ".OOOOO...",
        "OOOOOO...",
        ".OOOOO...",
    ];
    let mut g = game_from(&rows, 7.5);
    // Nine White moves on the J file with Black passing: 18 plies, the fewest before a
    // resignation is considered on 9x9.
    for row in 1..=9 {
        g.play(Black, Move::Pass).unwrap();
        let p = g.board().point(8, row - 1);
        g.play(White, Move::Play(p)).unwrap();
    }
    let mut p = player(5);
    let stop = AtomicBool::new(false);
    let fillers = [(7, 0), (7, 1)];
    for (i, filler) in fillers.into_iter().enumerate() {
        let d = p.genmove(&g, Black, None, &stop, false);
        assert!(d.winrate < 0.08, "move {i}: win rate {}", d.winrate);
        let Decision::Play(m) = d.decision else {
            panic!("resigned at hopeless move {} of 3", i + 1);
        };
        g.play(Black, m).unwrap();
        let q = g.board().point(filler.0, filler.1);
        if g.play(White, Move::Play(q)).is_err() {
            g.play(White, Move::Pass).unwrap();
        }
    }
    assert_eq!(
        p.genmove(&g, Black, None, &stop, false).decision,
        Decision::Resign
    );
}
