//! The search finds moves any player would: capturing a large string in atari, saving its
//! own, and not filling its own eyes. Fixed playouts and seed make it reproducible.
use std::sync::atomic::AtomicBool;

use quartet::color::Color::{self, Black, White};
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

fn best(g: &Game, c: Color, playouts: u64) -> String {
    best_on_threads(g, c, playouts, 1)
}

fn best_on_threads(g: &Game, c: Color, playouts: u64, threads: usize) -> String {
    let mut p = Player::new(PlayerConfig {
        playouts: Some(playouts),
        threads,
        seed: 3,
        resign_threshold: 0.0,
        ..PlayerConfig::default()
    });
    let stop = AtomicBool::new(false);
    match p.genmove(g, c, None, &stop, false).decision {
        Decision::Play(Move::Play(q)) => format_vertex(Some(g.board().col_row(q))),
        Decision::Play(Move::Pass) => "pass".into(),
        Decision::Resign => "resign".into(),
    }
}

#[test]
fn wins_the_capturing_race() {
    // Two big strings with one liberty each: black's (upper left, liberty A9) and white's
    // (upper right, liberty J9). The lower groups live with two eyes each; E3 and E4 are
    // dame. Black must capture at J9: after a dame move white takes A9 and wins.
    let g = game_from(
        &[
            ".XXXOOOO.",
            "XXXXOOOOO",
            "XXXXOOOOO",
            "XXXXOOOOO",
            "OOOOXXXXX",
            "OOOO.XXXX",
            "OOOO.XXXX",
            "OOOOXXXXX",
            ".O.OX.X.X",
        ],
        7.5,
    );
    assert_eq!(best(&g, Black, 1000), "J9");
    assert_eq!(best(&g, White, 1000), "A9");
    // Threads sharing one tree (virtual loss sends them down different lines) find it too.
    assert_eq!(best_on_threads(&g, Black, 1000, 2), "J9");
    assert_eq!(best_on_threads(&g, White, 1000, 3), "A9");
}

#[test]
fn saves_its_own_string_in_atari() {
    let g = game_from(
        &[
            ".........",
            ".........",
            ".........",
            ".OOOO....",
            "OXXXX....",
            ".OOOO....",
            ".........",
            ".........",
            ".........",
        ],
        7.5,
    );
    // Extending to F5 gives three liberties in open space.
    assert_eq!(best(&g, Black, 3000), "F5");
}

#[test]
fn never_fills_its_own_eye_and_passes_when_nothing_is_left() {
    // Black owns the whole 5x5 board with two eyes: the only moves left fill them.
    let mut g = game_from(&["X.XXX", "XXXXX", "XXXXX", "XXXX.", "XXXXX"], 0.5);
    g.play(White, Move::Pass).unwrap();
    assert_eq!(best(&g, Black, 500), "pass");
}
