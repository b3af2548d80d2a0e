//! `quartet train gomoku selfplay`: games of the engine against itself at a fixed depth from
//! random openings, the training data of the learnt evaluation (`train.rs`).
//!
//! The file (binary, little-endian): the header `QGSP`, a version byte (1), the board size
//! and the rule (0 freestyle, 1 standard, 2 renju); then one record per game:
//!
//! | bytes | |
//! |---|---|
//! | 1 | random opening plies `r` |
//! | 1 | result: 0 draw, 1 Black won, 2 White won |
//! | 2 | moves `n` (Black first) |
//! | n | moves, `row * size + col` |
//! | 2 (n - r) | the searching side's score before each searched move (i16, clamped) |
//!
//! About 3 bytes a position: a few hundred thousand positions take about a megabyte. A
//! game is written whole, so a stopped run leaves a readable file.
use std::io::Write;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::board::Rule;
use super::game::{Game, Outcome};
use super::search::{SearchConfig, Searcher};
use super::weights::ClassWeights;
use crate::color::Color;
use crate::search::{Deadline, Limits, StopToken};

const MAGIC: &[u8; 4] = b"QGSP";
const VERSION: u8 = 1;
/// Scores are clamped to this (proved and static wins alike are "won").
pub const SCORE_CAP: i32 = 30_000;

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Random opening plies at the start of `moves` (not searched, no scores).
    pub random: usize,
    pub winner: Option<Color>,
    /// `row * size + col`, Black first.
    pub moves: Vec<u16>,
    /// The mover's score before each move from `random` on.
    pub scores: Vec<i16>,
}

/// What to play.
pub struct SelfPlay {
    pub size: usize,
    /// Random opening plies, drawn uniformly from this range, each in the central square of
    /// side `size / 2`.
    pub random_plies: std::ops::RangeInclusive<usize>,
    pub depth: u32,
    /// A time cap per move, in case a threat search runs long; the depth is the real limit.
    pub move_cap: Duration,
    pub weights: ClassWeights,
    /// VCF/VCT at the root of every move (the full engine), or the plain alpha-beta.
    pub threats: bool,
}

/// Plays one game from `rng`'s random opening.
pub fn play_game(cfg: &SelfPlay, rng: &mut SmallRng, s: &mut Searcher) -> GameRecord {
    let n = cfg.size;
    let mut g = Game::new(n, Rule::Freestyle);
    let lo = n / 4;
    let span = n - 2 * lo;
    let random = rng.gen_range(cfg.random_plies.clone());
    let mut moves = Vec::new();
    while moves.len() < random {
        let (x, y) = (lo + rng.gen_range(0..span), lo + rng.gen_range(0..span));
        let p = g.board().point(x, y);
        let c = g.to_move();
        if g.play(c, p).is_ok() {
            moves.push((y * n + x) as u16);
        }
    }
    let mut scores = Vec::new();
    s.clear();
    while g.outcome().is_none() {
        let c = g.to_move();
        let limits = Limits::new(
            Deadline::after(cfg.move_cap, cfg.move_cap),
            None,
            StopToken::new(),
        );
        let r = s.search(g.board_mut(), c, &limits);
        let (x, y) = g.board().col_row(r.best);
        g.play(c, r.best).expect("the search plays legal moves");
        moves.push((y * n + x) as u16);
        scores.push(r.score.clamp(-SCORE_CAP, SCORE_CAP) as i16);
    }
    let winner = match g.outcome() {
        Some(Outcome::Win(c)) => Some(c),
        _ => None,
    };
    GameRecord {
        random,
        winner,
        moves,
        scores,
    }
}

/// Plays `games` games from `seed` and appends them to `out` (the header first if the file
/// is new). Progress on stderr.
pub fn run(out: &std::path::Path, games: u32, seed: u64, cfg: &SelfPlay) -> Result<(), String> {
    let err = |e: std::io::Error| format!("{}: {e}", out.display());
    let fresh = std::fs::metadata(out).map(|m| m.len() == 0).unwrap_or(true);
    if !fresh {
        // Appending to another board size or a foreign file would corrupt it.
        let old = std::fs::read(out).map_err(err)?;
        let (size, _) = read_header(&old)?;
        if size != cfg.size {
            return Err(format!(
                "{}: games of size {size}, not {}",
                out.display(),
                cfg.size
            ));
        }
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(err)?;
    if fresh {
        file.write_all(&header(cfg.size)).map_err(err)?;
    }
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut s = Searcher::new(SearchConfig {
        max_depth: cfg.depth,
        tt_mb: 16,
        eval: cfg.weights,
        threats: cfg.threats,
        ..SearchConfig::default()
    });
    let t = Instant::now();
    let (mut positions, mut wins) = (0usize, [0u32; 3]);
    for i in 0..games {
        let rec = play_game(cfg, &mut rng, &mut s);
        positions += rec.scores.len();
        wins[match rec.winner {
            Some(Color::Black) => 0,
            Some(Color::White) => 1,
            None => 2,
        }] += 1;
        file.write_all(&encode(&rec)).map_err(err)?;
        if (i + 1) % 50 == 0 || i + 1 == games {
            eprintln!(
                "selfplay: {}/{games} games (B {} W {} D {}), {positions} positions, {:.0} s",
                i + 1,
                wins[0],
                wins[1],
                wins[2],
                t.elapsed().as_secs_f64()
            );
        }
    }
    Ok(())
}

fn header(size: usize) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.extend_from_slice(&[VERSION, size as u8, 0]);
    h
}

/// The board size and the rule byte of a file, or why it is not a self-play file.
fn read_header(data: &[u8]) -> Result<(usize, u8), String> {
    if data.len() < 7 || &data[..4] != MAGIC {
        return Err("not a gomoku self-play file (no QGSP header)".into());
    }
    if data[4] != VERSION {
        return Err(format!(
            "self-play file version {} (this build reads {VERSION})",
            data[4]
        ));
    }
    let size = data[5] as usize;
    if !super::board::valid_size(size) || size * size > u16::MAX as usize || data[6] > 2 {
        return Err(format!("bad header: size {size}, rule {}", data[6]));
    }
    Ok((size, data[6]))
}

pub fn encode(r: &GameRecord) -> Vec<u8> {
    let mut v = vec![
        r.random as u8,
        match r.winner {
            None => 0,
            Some(Color::Black) => 1,
            Some(Color::White) => 2,
        },
    ];
    v.extend_from_slice(&(r.moves.len() as u16).to_le_bytes());
    // One byte a move fits boards up to 15x15; larger boards take two.
    for &m in &r.moves {
        v.push(m as u8);
    }
    for &s in &r.scores {
        v.extend_from_slice(&s.to_le_bytes());
    }
    v
}

/// Reads a whole file: the board size and the games. Truncated or inconsistent data is an
/// error naming the game.
pub fn read(data: &[u8]) -> Result<(usize, Vec<GameRecord>), String> {
    let (size, _) = read_header(data)?;
    if size * size > 256 {
        return Err(format!(
            "size {size}: this version stores boards up to 16x16"
        ));
    }
    let mut games = Vec::new();
    let mut i = 7;
    while i < data.len() {
        let bad = |what: &str| format!("game {}: {what}", games.len() + 1);
        if i + 4 > data.len() {
            return Err(bad("truncated header"));
        }
        let (random, result) = (data[i] as usize, data[i + 1]);
        let n = u16::from_le_bytes([data[i + 2], data[i + 3]]) as usize;
        i += 4;
        if result > 2 || random > n || n > size * size {
            return Err(bad("bad header"));
        }
        let need = n + 2 * (n - random);
        if i + need > data.len() {
            return Err(bad("truncated"));
        }
        let moves: Vec<u16> = data[i..i + n].iter().map(|&m| m as u16).collect();
        if moves.iter().any(|&m| m as usize >= size * size) {
            return Err(bad("move off the board"));
        }
        i += n;
        let scores = data[i..i + 2 * (n - random)]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        i += 2 * (n - random);
        games.push(GameRecord {
            random,
            winner: match result {
                1 => Some(Color::Black),
                2 => Some(Color::White),
                _ => None,
            },
            moves,
            scores,
        });
    }
    Ok((size, games))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_round_trip_and_end_with_a_five() {
        let cfg = SelfPlay {
            size: 9,
            random_plies: 2..=3,
            depth: 2,
            move_cap: Duration::from_secs(5),
            weights: ClassWeights::CLASSIC,
            threats: true,
        };
        let mut rng = SmallRng::seed_from_u64(1);
        let mut s = Searcher::new(SearchConfig {
            max_depth: 2,
            tt_mb: 1,
            ..SearchConfig::default()
        });
        let recs: Vec<GameRecord> = (0..3).map(|_| play_game(&cfg, &mut rng, &mut s)).collect();
        let mut data = header(9);
        for r in &recs {
            assert!(cfg.random_plies.contains(&r.random));
            assert_eq!(r.scores.len(), r.moves.len() - r.random);
            data.extend(encode(r));
        }
        let (size, back) = read(&data).unwrap();
        assert_eq!((size, &back), (9, &recs));
        // Replaying a decided game ends on the winner's five.
        for r in recs.iter().filter(|r| r.winner.is_some()) {
            let mut g = Game::new(9, Rule::Freestyle);
            for &m in &r.moves {
                let p = g.board().point(m as usize % 9, m as usize / 9);
                let c = g.to_move();
                g.play(c, p).unwrap();
            }
            assert_eq!(g.outcome(), Some(Outcome::Win(r.winner.unwrap())));
        }
        // A cut file is refused, not half read.
        assert!(read(&data[..data.len() - 1])
            .unwrap_err()
            .contains("truncated"));
        assert!(read(b"QGSX\x01\x09\x00").is_err());
    }
}
