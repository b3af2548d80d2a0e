//! Each Go player carries its own settings: players with different settings that search at
//! the same time in one process play exactly as each does alone, and every setting
//! reaches the search. A setting kept in a process-wide variable would make the players
//! that run together read one another's.
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Barrier};

use quartet::color::Color::{self, Black, White};
use quartet::go::board::Move;
use quartet::go::features::{Gammas, PriorModel, BUILT_IN};
use quartet::go::game::Game;
use quartet::go::lgrf::Stage;
use quartet::go::mcts::MoveStats;
use quartet::go::net::Network;
use quartet::go::player::{Decision, Player};
use quartet::go::playout::{Mercy, PlayoutParams};
use quartet::go::settings::PlayerConfig;
use quartet::go::settings::{SearchParams, TreeNet};

const PLAYOUTS: u64 = 1000;

fn player(search: SearchParams) -> Player {
    Player::new(PlayerConfig {
        playouts: Some(PLAYOUTS),
        threads: 1,
        seed: 5,
        resign_threshold: 0.0,
        search,
        ..PlayerConfig::default()
    })
}

fn built_in_model(replace: bool, by_probability: bool) -> Arc<PriorModel> {
    Arc::new(PriorModel {
        gammas: Gammas::parse(BUILT_IN).unwrap(),
        weight: 30.0,
        replace,
        by_probability,
    })
}

/// What one search gave: the move chosen and every root move's visits and wins.
type Record = (Decision, Vec<MoveStats>);

/// `moves` moves of `p` playing both sides from the empty 9x9 board (the tree kept from
/// move to move); `before_each` runs before every search.
fn self_play(p: &mut Player, moves: usize, before_each: &dyn Fn()) -> Vec<Record> {
    let mut game = Game::new(9, 7.0);
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    for i in 0..moves {
        let c = if i % 2 == 0 { Black } else { White };
        before_each();
        let report = p.genmove(&game, c, None, &stop, false);
        out.push((report.decision, p.all_root_stats()));
        let Decision::Play(m) = report.decision else {
            break;
        };
        game.play(c, m).unwrap();
    }
    out
}

/// The shipped network with these weights of its priors and value.
fn tree_net(weight: f32, value_weight: f32, visits: u32) -> Arc<TreeNet> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/go/net-v1.bin");
    Arc::new(TreeNet {
        net: Network::load(std::path::Path::new(path)).unwrap(),
        weight,
        value_weight,
        visits,
    })
}

/// Settings that differ from the defaults in every way a command-line option can.
fn all_changed() -> SearchParams {
    SearchParams {
        rave_equiv: 1000.0,
        weak_prior: 20.0,
        model: Some(built_in_model(true, true)),
        net: Some(tree_net(20.0, 5.0, 16)),
        playout: PlayoutParams {
            lgrf: Stage::BeforeRandom,
            global_capture: 0.3,
            nakade: 0.5,
            mercy: Mercy::Stones(0),
        },
    }
}

fn mercy_only(stones: u32) -> SearchParams {
    SearchParams {
        model: Some(built_in_model(false, false)),
        playout: PlayoutParams {
            mercy: Mercy::Stones(stones),
            ..PlayoutParams::default()
        },
        ..SearchParams::default()
    }
}

#[test]
fn players_with_different_settings_search_side_by_side_as_they_do_alone() {
    const MOVES: usize = 4;
    let settings = [SearchParams::default(), all_changed(), mercy_only(4)];
    let alone: Vec<Vec<Record>> = settings
        .iter()
        .map(|s| self_play(&mut player(s.clone()), MOVES, &|| {}))
        .collect();
    for i in 0..alone.len() {
        for j in 0..i {
            assert_ne!(alone[i], alone[j], "settings {i} and {j} search alike");
        }
    }
    // All players exist before any searches, then they search their moves in step.
    let mut players: Vec<Player> = settings.iter().map(|s| player(s.clone())).collect();
    let step = Barrier::new(players.len());
    let together: Vec<Vec<Record>> = std::thread::scope(|scope| {
        let runs: Vec<_> = players
            .iter_mut()
            .map(|p| {
                let step = &step;
                scope.spawn(move || {
                    self_play(p, MOVES, &|| {
                        step.wait();
                    })
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    for (i, (a, t)) in alone.iter().zip(&together).enumerate() {
        assert_eq!(a.len(), MOVES, "settings {i} stopped early");
        assert_eq!(
            a, t,
            "settings {i}: searched beside the others, it searched otherwise"
        );
    }
}

/// A middle-game position with strings in atari and short of liberties, White to move.
fn fight() -> Game {
    let mut g = Game::new(9, 7.0);
    let moves = [
        "E5", "E4", "D4", "F5", "F4", "E6", "D6", "F3", "G4", "D5", "C5", "E3", "D3",
    ];
    for (i, m) in moves.iter().enumerate() {
        let c = if i % 2 == 0 { Black } else { White };
        let v = quartet::protocol::coords::parse_vertex(m, 9)
            .unwrap()
            .unwrap();
        let p = g.board().point(v.0, v.1);
        g.play(c, Move::Play(p)).unwrap();
    }
    g
}

fn search(g: &Game, c: Color, search: SearchParams) -> Record {
    let mut p = player(search);
    let stop = AtomicBool::new(false);
    let report = p.genmove(g, c, None, &stop, false);
    (report.decision, p.all_root_stats())
}

#[test]
fn every_setting_reaches_the_search() {
    let g = fight();
    let base = search(&g, White, SearchParams::default());
    assert_eq!(base, search(&g, White, SearchParams::default()));
    let playout = |p: PlayoutParams| SearchParams {
        playout: p,
        ..SearchParams::default()
    };
    let model = |replace, by_probability| SearchParams {
        model: Some(built_in_model(replace, by_probability)),
        ..SearchParams::default()
    };
    let changed = [
        (
            "rave equiv",
            SearchParams {
                rave_equiv: 1000.0,
                ..SearchParams::default()
            },
        ),
        (
            "weak prior",
            SearchParams {
                weak_prior: 50.0,
                ..SearchParams::default()
            },
        ),
        ("model", model(false, false)),
        (
            "network priors",
            SearchParams {
                net: Some(tree_net(30.0, 0.0, 8)),
                ..SearchParams::default()
            },
        ),
        (
            "network priors and value",
            SearchParams {
                net: Some(tree_net(30.0, 10.0, 8)),
                ..SearchParams::default()
            },
        ),
        (
            "network for nodes with 40 visits",
            SearchParams {
                net: Some(tree_net(30.0, 0.0, 40)),
                ..SearchParams::default()
            },
        ),
        ("model replacing", model(true, false)),
        ("model by probability", model(false, true)),
        ("mercy off, with the model", mercy_only(0)),
        (
            "mercy 4",
            playout(PlayoutParams {
                mercy: Mercy::Stones(4),
                ..PlayoutParams::default()
            }),
        ),
        (
            "global capture",
            playout(PlayoutParams {
                global_capture: 0.5,
                ..PlayoutParams::default()
            }),
        ),
        (
            "nakade",
            playout(PlayoutParams {
                nakade: 0.5,
                ..PlayoutParams::default()
            }),
        ),
    ];
    let stages = [Stage::First, Stage::AfterCaptures, Stage::BeforeRandom];
    let stages = stages.map(|lgrf| {
        playout(PlayoutParams {
            lgrf,
            ..PlayoutParams::default()
        })
    });
    let mut seen = vec![base];
    for (name, s) in changed.into_iter().chain(stages.map(|s| ("lgrf stage", s))) {
        let r = search(&g, White, s);
        assert!(!seen.contains(&r), "{name}: the search did not change");
        seen.push(r);
    }
}
