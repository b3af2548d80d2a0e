//! Strength against the greedy player: takes a box when it can, else a random edge
//! that gives no box away, else any random edge. Ignored by default (it plays real games
//! on the clock); run with `cargo test --release --test dots_strength -- --ignored`. The
//! process-level measurement through `quartet match` is `scripts/dots_vs_greedy.sh`.
use quartet::color::Color;
use quartet::dots::greedy::greedy_move;
use quartet::dots::play::choose_move;
use quartet::dots::Board;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::time::Duration;

#[test]
#[ignore]
fn beats_greedy_on_5x5() {
    let games: usize = std::env::var("DOTS_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let ms: u64 = std::env::var("DOTS_MS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let mut rng = SmallRng::seed_from_u64(2026);
    let mut wins = 0;
    for g in 0..games {
        let engine = if g % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut b = Board::new(5, 5).unwrap();
        while !b.is_over() {
            let e = if b.to_move() == engine {
                let t = Duration::from_millis(ms);
                choose_move(&b, t / 2, t, None).unwrap().edge
            } else {
                greedy_move(&b, &mut rng).unwrap()
            };
            b.play(e).unwrap();
        }
        let m = b.margin(engine);
        eprintln!("game {g}: engine {engine} margin {m:+}");
        wins += (m > 0) as usize;
    }
    eprintln!("engine won {wins} of {games}");
    assert!(wins * 20 >= games * 19, "won {wins} of {games}");
}
