//! The time manager: a move with nothing to think about is answered at once, a move that
//! wins everything stops before its plan, and a game under a short sudden-death clock
//! through the real binary is never lost on time.
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use quartet::color::Color::Black;
use quartet::go::board::Move;
use quartet::go::game::Game;
use quartet::go::player::{Decision, Player};
use quartet::go::settings::PlayerConfig;
use quartet::go::timing::{MovePlan, StopReason};
use quartet::protocol::coords::format_vertex;

const QUARTET: &str = env!("CARGO_BIN_EXE_quartet");

fn game_from(rows: &[&str], komi: f32) -> Game {
    let mut g = Game::new(rows.len(), komi);
    let stones = g.board().diagram_stones(rows);
    g.add_setup(&stones).unwrap();
    g
}

/// A timed player (no playout limit) searching `g` for Black under a managed plan.
fn managed_move(g: &Game, base: Duration) -> (String, Option<StopReason>, Duration) {
    let mut p = Player::new(PlayerConfig {
        playouts: None,
        threads: 1,
        seed: 3,
        resign_threshold: 0.0,
        ..PlayerConfig::default()
    });
    let plan = MovePlan {
        base,
        max: base * 3,
        managed: true,
    };
    let stop = AtomicBool::new(false);
    let r = p.genmove(g, Black, Some(plan), &stop, false);
    let mv = match r.decision {
        Decision::Play(Move::Play(q)) => format_vertex(Some(g.board().col_row(q))),
        Decision::Play(Move::Pass) => "pass".into(),
        Decision::Resign => "resign".into(),
    };
    (mv, r.stopped, r.elapsed)
}

#[test]
fn a_single_legal_move_is_played_without_thinking() {
    // Black's eyes at B4 and D4 are never candidates, B1 and D1 are suicide inside
    // White's living group: E3 is Black's only move.
    let g = game_from(&["XXXXX", "X.X.X", "XXXX.", "OOOOO", "O.O.O"], 0.5);
    let base = Duration::from_secs(5);
    let (mv, stopped, elapsed) = managed_move(&g, base);
    assert_eq!(mv, "E3");
    assert_eq!(stopped, Some(StopReason::OnlyMove));
    assert!(elapsed < base / 2, "{elapsed:?}");
}

#[test]
fn a_capture_that_wins_everything_stops_before_the_plan() {
    // The capturing race of `go_search`: J9 captures White's big string and wins, every
    // other move loses. The search settles on it long before the plan is spent.
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
    let base = Duration::from_secs(3);
    let (mv, stopped, elapsed) = managed_move(&g, base);
    assert_eq!(mv, "J9");
    assert!(
        matches!(
            stopped,
            Some(StopReason::Decided | StopReason::Obvious | StopReason::OnlyMove)
        ),
        "{stopped:?}"
    );
    assert!(elapsed < base, "{elapsed:?}");
}

/// Two games on 7x7 with 3 s sudden death for each side, one engine with the manager and
/// one without, refereed by `quartet match` with a 0.1 s allowance: nobody loses on time.
#[test]
fn a_short_sudden_death_game_is_not_lost_on_time() {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("quartet-go-timing-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(QUARTET)
        .args([
            "match",
            "go",
            "--boardsize",
            "7",
            "--engine",
            &format!("name=tm cmd={QUARTET} go --time-manager on"),
            "--engine",
            &format!("name=plain cmd={QUARTET} go --time-manager off"),
            "--tc",
            "3+0",
            "--time-margin",
            "0.1",
            "--max-moves",
            "150",
            "--out",
            dir.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results = std::fs::read_to_string(dir.join("results.tsv")).unwrap();
    let games: Vec<Vec<&str>> = results
        .lines()
        .filter(|l| l.starts_with("g\t"))
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(games.len(), 2, "{results}");
    for g in &games {
        assert!(
            matches!(g[7], "score" | "resign" | "adjudicated"),
            "not decided by play: {g:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
