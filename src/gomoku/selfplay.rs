//! `quartet train gomoku selfplay`: games of the engine against itself at a fixed depth from
//! random openings, the training data of the learnt evaluation (`train.rs`).
//!
//! The file (binary, little-endian): the header `QGSP`, a version byte, the board size and
//! the rule (0 freestyle, 1 standard, 2 renju); version 2 adds what the run was (see
//! [`RunHeader`]: seed, games in all, shard, depth, opening plies, threats), so that a run
//! stopped part way is continued, not restarted or mixed with another. Then one record per
//! game:
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
//! game is written whole; a run killed in the middle of a write leaves a cut last record,
//! which the next run on the file drops before it goes on.
//!
//! Game `g` of a run draws its opening from a generator seeded by the run's seed and `g`
//! alone, so `--shard i/n` (games `g` with `g mod n = i - 1`) splits one run over many
//! machines, and the shards together hold the games the whole run would (the same games
//! exactly with `--no-threats`, whose players are not timed).
use std::io::{Seek, Write};
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
/// The version written; version 1 files (no run header) are still read.
const VERSION: u8 = 2;
const V1_HEADER: usize = 7;
const V2_HEADER: usize = V1_HEADER + 24;
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

/// What a self-play run is: stored in the file's header, checked when a run continues.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunHeader {
    pub seed: u64,
    /// Games of the whole run, all shards together.
    pub games: u32,
    /// This file's shard: games `g` with `g % shard.1 == shard.0 - 1` (1-based `i/n`).
    pub shard: (u16, u16),
    pub depth: u8,
    pub min_random: u8,
    pub max_random: u8,
    pub threats: bool,
}

impl RunHeader {
    /// The run `cfg` makes with these games, seed and shard.
    pub fn new(cfg: &SelfPlay, games: u32, seed: u64, shard: (u16, u16)) -> RunHeader {
        RunHeader {
            seed,
            games,
            shard,
            depth: cfg.depth as u8,
            min_random: *cfg.random_plies.start() as u8,
            max_random: *cfg.random_plies.end() as u8,
            threats: cfg.threats,
        }
    }

    /// The indices of the run's games this shard plays, in order.
    pub fn game_indices(&self) -> impl Iterator<Item = u32> {
        let (i, n) = (self.shard.0 as u32, self.shard.1 as u32);
        (i - 1..self.games).step_by(n as usize)
    }
}

/// The generator of game `g`'s opening: depends on the seed and `g` only.
pub fn game_rng(seed: u64, g: u32) -> SmallRng {
    // splitmix64 of the pair, so that neighbouring seeds and games are unrelated.
    let mut z = seed ^ (g as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    SmallRng::seed_from_u64(z ^ (z >> 31))
}

/// Plays this shard's games of the run `run` and appends them to `out`. A new (or empty)
/// file gets the header; a file that holds games of the same run is continued after its
/// last whole game (a cut record at its end is dropped); any other file is refused.
/// Progress on stderr.
pub fn run(out: &std::path::Path, run: &RunHeader, cfg: &SelfPlay) -> Result<(), String> {
    let err = |e: std::io::Error| format!("{}: {e}", out.display());
    if run.shard.0 == 0 || run.shard.0 > run.shard.1 {
        return Err(format!("bad shard {}/{}", run.shard.0, run.shard.1));
    }
    let old = match std::fs::read(out) {
        Ok(d) => d,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(err(e)),
    };
    let mut done = 0usize;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(out)
        .map_err(err)?;
    if old.is_empty() {
        file.write_all(&header(cfg.size, Some(run))).map_err(err)?;
    } else {
        let h = read_header(&old).map_err(|e| format!("{}: {e}", out.display()))?;
        if h.run.as_ref() != Some(run) || h.size != cfg.size {
            return Err(format!(
                "{}: holds games of another run ({}); continue it with the same options \
                 or write a new file",
                out.display(),
                match h.run {
                    Some(r) => format!(
                        "size {}, seed {}, {} games, shard {}/{}, depth {}, {}..{} random plies{}",
                        h.size,
                        r.seed,
                        r.games,
                        r.shard.0,
                        r.shard.1,
                        r.depth,
                        r.min_random,
                        r.max_random,
                        if r.threats { "" } else { ", no threats" }
                    ),
                    None => "an older file without a run header".into(),
                }
            ));
        }
        let (games, whole) = read_records(&old, h.size, h.len);
        done = games.len();
        if whole < old.len() {
            eprintln!(
                "selfplay: {}: dropped a cut record after game {done}",
                out.display()
            );
        }
        file.set_len(whole as u64).map_err(err)?;
    }
    file.seek(std::io::SeekFrom::End(0)).map_err(err)?;
    let mut s = Searcher::new(SearchConfig {
        max_depth: cfg.depth,
        tt_mb: 16,
        eval: cfg.weights,
        threats: cfg.threats,
        ..SearchConfig::default()
    });
    let todo: Vec<u32> = run.game_indices().skip(done).collect();
    if done > 0 {
        eprintln!(
            "selfplay: {}: {done} games there, {} to play",
            out.display(),
            todo.len()
        );
    }
    let t = Instant::now();
    let (mut positions, mut wins) = (0usize, [0u32; 3]);
    for (k, &g) in todo.iter().enumerate() {
        let rec = play_game(cfg, &mut game_rng(run.seed, g), &mut s);
        positions += rec.scores.len();
        wins[match rec.winner {
            Some(Color::Black) => 0,
            Some(Color::White) => 1,
            None => 2,
        }] += 1;
        // One write a game, so that a kill cuts at most the last record.
        file.write_all(&encode(&rec)).map_err(err)?;
        if (k + 1) % 50 == 0 || k + 1 == todo.len() {
            eprintln!(
                "selfplay: {}/{} games (B {} W {} D {}), {positions} positions, {:.0} s",
                done + k + 1,
                done + todo.len(),
                wins[0],
                wins[1],
                wins[2],
                t.elapsed().as_secs_f64()
            );
        }
    }
    Ok(())
}

fn header(size: usize, run: Option<&RunHeader>) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    match run {
        None => h.extend_from_slice(&[1, size as u8, 0]),
        Some(r) => {
            h.extend_from_slice(&[VERSION, size as u8, 0]);
            h.extend_from_slice(&r.seed.to_le_bytes());
            h.extend_from_slice(&r.games.to_le_bytes());
            h.extend_from_slice(&r.shard.0.to_le_bytes());
            h.extend_from_slice(&r.shard.1.to_le_bytes());
            h.extend_from_slice(&[r.depth, r.min_random, r.max_random, r.threats as u8]);
            h.extend_from_slice(&[0; 4]);
        }
    }
    h
}

/// A file's header.
struct Header {
    size: usize,
    /// The run, in version 2 files.
    run: Option<RunHeader>,
    /// Bytes of the header: the records start here.
    len: usize,
}

/// The header of a file, or why it is not a self-play file.
fn read_header(data: &[u8]) -> Result<Header, String> {
    if data.len() < V1_HEADER || &data[..4] != MAGIC {
        return Err("not a gomoku self-play file (no QGSP header)".into());
    }
    let version = data[4];
    if version == 0 || version > VERSION {
        return Err(format!(
            "self-play file version {version} (this build reads 1 to {VERSION})"
        ));
    }
    let size = data[5] as usize;
    if !super::board::valid_size(size) || size * size > u16::MAX as usize || data[6] > 2 {
        return Err(format!("bad header: size {size}, rule {}", data[6]));
    }
    if version == 1 {
        return Ok(Header {
            size,
            run: None,
            len: V1_HEADER,
        });
    }
    if data.len() < V2_HEADER {
        return Err("truncated header".into());
    }
    let h = &data[V1_HEADER..V2_HEADER];
    let u16_at = |i: usize| u16::from_le_bytes([h[i], h[i + 1]]);
    let run = RunHeader {
        seed: u64::from_le_bytes(h[0..8].try_into().expect("8 bytes")),
        games: u32::from_le_bytes(h[8..12].try_into().expect("4 bytes")),
        shard: (u16_at(12), u16_at(14)),
        depth: h[16],
        min_random: h[17],
        max_random: h[18],
        threats: h[19] != 0,
    };
    if run.shard.0 == 0 || run.shard.0 > run.shard.1 || run.min_random > run.max_random {
        return Err(format!(
            "bad run header: shard {}/{}, random plies {}..{}",
            run.shard.0, run.shard.1, run.min_random, run.max_random
        ));
    }
    Ok(Header {
        size,
        run: Some(run),
        len: V2_HEADER,
    })
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
    let h = read_header(data)?;
    if h.size * h.size > 256 {
        return Err(format!(
            "size {}: this version stores boards up to 16x16",
            h.size
        ));
    }
    let mut i = h.len;
    let mut games = Vec::new();
    while i < data.len() {
        let (rec, next) = read_record(data, i, h.size)
            .map_err(|what| format!("game {}: {what}", games.len() + 1))?;
        games.push(rec);
        i = next;
    }
    Ok((h.size, games))
}

/// [`read`] of a file another run may still be writing: a cut last record (shorter than
/// the longest game) is dropped and its game count returned with the games, as a resumed
/// run drops it; a bad record before the end is still an error.
pub fn read_growing(data: &[u8]) -> Result<(usize, Vec<GameRecord>, Option<usize>), String> {
    let h = read_header(data)?;
    if h.size * h.size > 256 {
        return Err(format!(
            "size {}: this version stores boards up to 16x16",
            h.size
        ));
    }
    let (games, whole) = read_records(data, h.size, h.len);
    if whole == data.len() {
        return Ok((h.size, games, None));
    }
    // The longest record: 4 header bytes, a move and a score per cell.
    let longest = 4 + 3 * h.size * h.size;
    if data.len() - whole >= longest {
        let what = read_record(data, whole, h.size).err().unwrap_or_default();
        return Err(format!("game {}: {what}", games.len() + 1));
    }
    let n = games.len();
    Ok((h.size, games, Some(n)))
}

/// The whole records from `start` on, and where the first cut or bad one begins (the
/// file's length when every record is whole).
fn read_records(data: &[u8], size: usize, start: usize) -> (Vec<GameRecord>, usize) {
    let mut i = start;
    let mut games = Vec::new();
    while i < data.len() {
        match read_record(data, i, size) {
            Ok((rec, next)) => {
                games.push(rec);
                i = next;
            }
            Err(_) => break,
        }
    }
    (games, i)
}

/// The record at `i` and the index after it, or what is wrong with it.
fn read_record(data: &[u8], mut i: usize, size: usize) -> Result<(GameRecord, usize), String> {
    if i + 4 > data.len() {
        return Err("truncated header".into());
    }
    let (random, result) = (data[i] as usize, data[i + 1]);
    let n = u16::from_le_bytes([data[i + 2], data[i + 3]]) as usize;
    i += 4;
    if result > 2 || random > n || n > size * size {
        return Err("bad header".into());
    }
    let need = n + 2 * (n - random);
    if i + need > data.len() {
        return Err("truncated".into());
    }
    let moves: Vec<u16> = data[i..i + n].iter().map(|&m| m as u16).collect();
    if moves.iter().any(|&m| m as usize >= size * size) {
        return Err("move off the board".into());
    }
    i += n;
    let scores = data[i..i + 2 * (n - random)]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    i += 2 * (n - random);
    let rec = GameRecord {
        random,
        winner: match result {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        },
        moves,
        scores,
    };
    Ok((rec, i))
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
            // The root threat searches take up to half of this a move.
            move_cap: Duration::from_millis(100),
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
        let mut data = header(9, None);
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

    fn quick(size: usize) -> SelfPlay {
        SelfPlay {
            size,
            random_plies: 2..=4,
            depth: 2,
            move_cap: Duration::from_secs(30),
            weights: ClassWeights::CLASSIC,
            threats: false,
        }
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("quartet-gomoku-sp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        let _ = std::fs::remove_file(&p);
        p
    }

    #[test]
    fn shards_together_hold_the_games_of_the_whole_run() {
        let cfg = quick(9);
        let whole = temp("whole.bin");
        run(&whole, &RunHeader::new(&cfg, 7, 5, (1, 1)), &cfg).unwrap();
        let (_, all) = read(&std::fs::read(&whole).unwrap()).unwrap();
        assert_eq!(all.len(), 7);
        let mut from_shards = vec![None; 7];
        for i in 1..=3u16 {
            let p = temp(&format!("shard-{i}.bin"));
            let h = RunHeader::new(&cfg, 7, 5, (i, 3));
            run(&p, &h, &cfg).unwrap();
            let (_, games) = read(&std::fs::read(&p).unwrap()).unwrap();
            let idx: Vec<u32> = h.game_indices().collect();
            assert_eq!(games.len(), idx.len());
            for (g, rec) in idx.into_iter().zip(games) {
                assert!(from_shards[g as usize].replace(rec).is_none());
            }
        }
        let from_shards: Vec<GameRecord> = from_shards.into_iter().map(Option::unwrap).collect();
        assert_eq!(from_shards, all);
        // Different games, not one opening seven times.
        assert!(all.windows(2).any(|w| w[0].moves[..2] != w[1].moves[..2]));
    }

    #[test]
    fn a_cut_run_continues_where_it_stopped() {
        let cfg = quick(9);
        let h = RunHeader::new(&cfg, 4, 9, (1, 1));
        let full = temp("full.bin");
        run(&full, &h, &cfg).unwrap();
        let data = std::fs::read(&full).unwrap();
        let (_, games) = read(&data).unwrap();
        // The file as a kill in the middle of writing the third game leaves it.
        let two = V2_HEADER + encode(&games[0]).len() + encode(&games[1]).len();
        let cut = temp("cut.bin");
        std::fs::write(&cut, &data[..two + 5]).unwrap();
        assert!(read(&data[..two + 5]).unwrap_err().contains("game 3"));
        // A reader of a file still being written drops the cut game and says so.
        let (_, whole, dropped) = read_growing(&data[..two + 5]).unwrap();
        assert_eq!((whole, dropped), (games[..2].to_vec(), Some(2)));
        assert_eq!(read_growing(&data).unwrap(), (9, games.clone(), None));
        // Bad bytes before the end are no cut write: refused.
        let mut bad = data[..two].to_vec();
        bad.push(9);
        bad.extend(vec![0; 4 + 3 * 81]);
        assert!(read_growing(&bad)
            .unwrap_err()
            .contains("game 3: bad header"));
        run(&cut, &h, &cfg).unwrap();
        assert_eq!(std::fs::read(&cut).unwrap(), data);
        // A finished run plays nothing more.
        run(&cut, &h, &cfg).unwrap();
        assert_eq!(std::fs::read(&cut).unwrap(), data);
        // Another run's options are refused and leave the file as it was.
        for other in [
            RunHeader::new(&cfg, 4, 10, (1, 1)),
            RunHeader::new(&cfg, 5, 9, (1, 1)),
            RunHeader::new(&cfg, 4, 9, (1, 2)),
        ] {
            let e = run(&cut, &other, &cfg).unwrap_err();
            assert!(e.contains("another run"), "{e}");
            assert_eq!(std::fs::read(&cut).unwrap(), data);
        }
        let e = run(&cut, &h, &quick(11)).unwrap_err();
        assert!(e.contains("another run"), "{e}");
        // A version 1 file (no run header) is read, but not continued.
        let mut v1 = header(9, None);
        v1.extend(encode(&games[0]));
        assert_eq!(read(&v1).unwrap().1, vec![games[0].clone()]);
        let old = temp("v1.bin");
        std::fs::write(&old, &v1).unwrap();
        assert!(run(&old, &h, &cfg).unwrap_err().contains("older file"));
        assert!(read(b"QGSP\x03\x09\x00").unwrap_err().contains("version 3"));
        assert!(read(&data[..V2_HEADER - 1])
            .unwrap_err()
            .contains("truncated"));
    }
}
