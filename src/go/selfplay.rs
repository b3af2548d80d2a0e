//! `quartet train go selfplay`: games of the tree search against itself at a fixed playout
//! count, the training data of the policy and value network (`net`).
//!
//! The file is text, one game a line after a header line that says what the run is:
//!
//! ```text
//! quartet-go-selfplay 1 size=9 komi=7.5 playouts=1000 sample=8 games=2000 seed=1 shard=1/2
//! 17<TAB>B+3.5<TAB>E5 0.52 E5:610 D5:220 C3:4<TAB>D4 0.47 D4:801 pass:1<TAB>...
//! ```
//!
//! A game line holds the game's index in the run, the result (`B+3.5`, `W+R`, `0` for a
//! draw) and one field per move: the move played, the searching side's win rate of its
//! best move, and the visits of every root move searched. The first `sample` plies are
//! drawn in proportion to the visits (never a pass), the rest are the most visited move,
//! so that games differ from the start.
//!
//! A game is written whole and flushed; a run started again on its file skips the games
//! already there (a cut last line is dropped), and `--shard i/n` plays the games `g` with
//! `g mod n = i - 1`, so one run splits over many machines.
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::board::{Board, Move};
use super::game::Game;
use super::player::{Decision, Player};
use super::settings::PlayerConfig;
use crate::color::Color;
use crate::protocol::coords::{format_vertex, parse_vertex};

const MAGIC: &str = "quartet-go-selfplay 1";

/// What one run plays.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    pub size: usize,
    pub komi: f32,
    /// Playouts of every move's search.
    pub playouts: u64,
    /// Opening plies drawn in proportion to the visits.
    pub sample: usize,
    pub games: u32,
    pub seed: u64,
    /// `(i, n)`: this process plays the games `g` with `g mod n = i - 1`.
    pub shard: (u32, u32),
    /// The search's settings besides the playouts and the seed.
    pub player: PlayerConfig,
}

impl SelfPlay {
    fn header(&self) -> String {
        format!(
            "{MAGIC} size={} komi={} playouts={} sample={} games={} seed={} shard={}/{}",
            self.size,
            self.komi,
            self.playouts,
            self.sample,
            self.games,
            self.seed,
            self.shard.0,
            self.shard.1
        )
    }
}

/// One searched move of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Searched {
    pub played: Move,
    /// The mover's win rate of the most visited move.
    pub winrate: f32,
    /// Visits of every root move searched.
    pub visits: Vec<(Move, u32)>,
}

/// One self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub index: u32,
    /// Black's final margin (komi included); `None` when a side resigned.
    pub margin: Option<f32>,
    pub winner: Option<Color>,
    pub moves: Vec<Searched>,
}

/// Longest game, in plies per board point, before it is scored as it stands.
const MAX_PLIES_PER_POINT: usize = 3;

/// Plays one game.
pub fn play_game(cfg: &SelfPlay, index: u32) -> GameRecord {
    let mut rng =
        SmallRng::seed_from_u64(cfg.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut player = Player::new(PlayerConfig {
        playouts: Some(cfg.playouts),
        seed: rng.gen(),
        ..cfg.player.clone()
    });
    let mut game = Game::new(cfg.size, cfg.komi);
    let stop = AtomicBool::new(false);
    let mut moves = Vec::new();
    let max_plies = MAX_PLIES_PER_POINT * cfg.size * cfg.size;
    let mut resigned = None;
    while game.trailing_passes() < 2 && moves.len() < max_plies {
        let color = game.to_move();
        let report = player.genmove(&game, color, None, &stop, false);
        let visits: Vec<(Move, u32)> = player
            .all_root_stats()
            .iter()
            .filter(|s| s.visits > 0)
            .map(|s| (s.mv, s.visits))
            .collect();
        let chosen = match report.decision {
            Decision::Resign => {
                resigned = Some(color);
                None
            }
            Decision::Play(best) if moves.len() < cfg.sample => {
                Some(sample_move(&visits, &mut rng).unwrap_or(best))
            }
            Decision::Play(best) => Some(best),
        };
        let Some(mv) = chosen else { break };
        if game.play(color, mv).is_err() {
            // Not expected (the search plays legal moves); end the game as it stands.
            break;
        }
        moves.push(Searched {
            played: mv,
            winrate: report.winrate,
            visits,
        });
    }
    let (margin, winner) = match resigned {
        Some(loser) => (None, Some(loser.opponent())),
        None => {
            let m = player.final_score(&game);
            let w = match m {
                m if m > 0.0 => Some(Color::Black),
                m if m < 0.0 => Some(Color::White),
                _ => None,
            };
            (Some(m), w)
        }
    };
    GameRecord {
        index,
        margin,
        winner,
        moves,
    }
}

/// A move other than a pass, drawn in proportion to its visits.
fn sample_move(visits: &[(Move, u32)], rng: &mut SmallRng) -> Option<Move> {
    let plays = || visits.iter().filter(|v| v.0 != Move::Pass);
    let total: u64 = plays().map(|v| v.1 as u64).sum();
    if total == 0 {
        return None;
    }
    let mut x = rng.gen_range(0..total);
    for &(mv, n) in plays() {
        if x < n as u64 {
            return Some(mv);
        }
        x -= n as u64;
    }
    None
}

fn vertex(b: &Board, m: Move) -> String {
    format_vertex(match m {
        Move::Pass => None,
        Move::Play(p) => Some(b.col_row(p)),
    })
}

/// One game as its line (without the newline).
pub fn encode(size: usize, r: &GameRecord) -> String {
    let b = Board::new(size);
    let result = match (r.winner, r.margin) {
        (None, _) => "0".to_string(),
        (Some(w), m) => {
            let who = if w == Color::Black { "B" } else { "W" };
            match m {
                Some(m) => format!("{who}+{}", m.abs()),
                None => format!("{who}+R"),
            }
        }
    };
    let mut line = format!("{}\t{result}", r.index);
    for s in &r.moves {
        line.push('\t');
        line.push_str(&vertex(&b, s.played));
        line.push_str(&format!(" {:.3}", s.winrate));
        for &(mv, n) in &s.visits {
            line.push_str(&format!(" {}:{n}", vertex(&b, mv)));
        }
    }
    line
}

fn parse_move(s: &str, b: &Board) -> Result<Move, String> {
    match parse_vertex(s, b.size()) {
        Ok(Some((c, r))) => Ok(Move::Play(b.point(c, r))),
        Ok(None) => Ok(Move::Pass),
        Err(e) => Err(format!("bad move {s:?}: {}", e.0)),
    }
}

/// Reads one game line.
pub fn decode(size: usize, line: &str) -> Result<GameRecord, String> {
    let b = Board::new(size);
    let mut fields = line.split('\t');
    let index = fields
        .next()
        .and_then(|f| f.parse().ok())
        .ok_or("a game line must start with its index")?;
    let result = fields.next().ok_or("a game line needs a result")?;
    let (winner, margin) = match result {
        "0" => (None, Some(0.0)),
        r => {
            let (who, m) = r.split_once('+').ok_or(format!("bad result {r:?}"))?;
            let w = match who {
                "B" => Color::Black,
                "W" => Color::White,
                _ => return Err(format!("bad result {r:?}")),
            };
            let m = match m {
                "R" => None,
                m => {
                    let v: f32 = m.parse().map_err(|_| format!("bad result {r:?}"))?;
                    Some(if w == Color::Black { v } else { -v })
                }
            };
            (Some(w), m)
        }
    };
    let mut moves = Vec::new();
    for f in fields {
        let mut parts = f.split(' ');
        let played = parse_move(parts.next().unwrap_or(""), &b)?;
        let winrate: f32 = parts
            .next()
            .and_then(|w| w.parse().ok())
            .ok_or(format!("bad move field {f:?}"))?;
        let mut visits = Vec::new();
        for v in parts {
            let (mv, n) = v.rsplit_once(':').ok_or(format!("bad visits {v:?}"))?;
            let n: u32 = n.parse().map_err(|_| format!("bad visits {v:?}"))?;
            visits.push((parse_move(mv, &b)?, n));
        }
        moves.push(Searched {
            played,
            winrate,
            visits,
        });
    }
    Ok(GameRecord {
        index,
        margin,
        winner,
        moves,
    })
}

/// Reads a self-play file: its board size and games (a cut last line is left out).
pub fn read_file(path: &Path) -> Result<(usize, Vec<GameRecord>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (header, body) = text.split_once('\n').unwrap_or((&text, ""));
    if !header.starts_with(MAGIC) {
        return Err(format!("{}: not a Go self-play file", path.display()));
    }
    let size: usize = header
        .split(' ')
        .find_map(|f| f.strip_prefix("size="))
        .and_then(|s| s.parse().ok())
        .filter(|&s| super::board::valid_size(s))
        .ok_or(format!("{}: no valid size in the header", path.display()))?;
    let complete = match body.rfind('\n') {
        Some(i) => &body[..i],
        None => "",
    };
    let mut games = Vec::new();
    for (i, line) in complete.lines().enumerate() {
        let g = decode(size, line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 2))?;
        games.push(g);
    }
    Ok((size, games))
}

/// Plays the shard's games not yet in `out`, appending each as it ends.
pub fn run(out: &Path, cfg: &SelfPlay) -> Result<(), String> {
    let header = cfg.header();
    let mut done = std::collections::HashSet::new();
    if out.exists() {
        let file = std::fs::File::open(out).map_err(|e| format!("{}: {e}", out.display()))?;
        let mut lines = std::io::BufReader::new(file);
        let mut first = String::new();
        lines.read_line(&mut first).map_err(|e| e.to_string())?;
        if first.trim_end() != header {
            return Err(format!(
                "{} holds another run ({}); give a new file",
                out.display(),
                first.trim_end()
            ));
        }
        let (_, games) = read_file(out)?;
        done.extend(games.iter().map(|g| g.index));
        // Drop a cut last line before appending.
        let text = std::fs::read_to_string(out).map_err(|e| e.to_string())?;
        let keep = text.rfind('\n').map_or(0, |i| i + 1);
        if keep < text.len() {
            std::fs::write(out, &text[..keep]).map_err(|e| e.to_string())?;
        }
    } else {
        std::fs::write(out, format!("{header}\n")).map_err(|e| e.to_string())?;
    }
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let (i, n) = cfg.shard;
    let todo: Vec<u32> = (0..cfg.games)
        .filter(|g| g % n == i - 1 && !done.contains(g))
        .collect();
    tracing::info!(done = done.len(), todo = todo.len(), "go self-play");
    for (k, g) in todo.iter().enumerate() {
        let start = std::time::Instant::now();
        let r = play_game(cfg, *g);
        writeln!(file, "{}", encode(cfg.size, &r)).map_err(|e| e.to_string())?;
        file.flush().map_err(|e| e.to_string())?;
        tracing::info!(
            game = g,
            plies = r.moves.len(),
            secs = start.elapsed().as_secs_f32(),
            left = todo.len() - k - 1,
            "game written"
        );
    }
    Ok(())
}

/// Writes the positions of self-play files as training records for
/// `scripts/train/go_net.py` and returns how many were written. The file (little-endian):
/// `QGOPLN01`, `u32` board size, `u32` planes, then one record a position:
///
/// | bytes | |
/// |---|---|
/// | 4 | the game: `u32` (its file's number in `files` times 2^20, plus its index) |
/// | 4 | the ply, `u32` |
/// | ceil(planes n^2 / 8) | the input planes as bits (`net::planes::to_bytes`, most significant bit first) |
/// | 4 (n^2 + 1) | the visits' shares, `f32`, point by point (row, column), then pass |
/// | 4 | the game's result for the mover, `f32`: 1 won, -1 lost, 0 drawn |
/// | 4 | the search's win rate for the mover, `f32` |
pub fn write_planes(files: &[std::path::PathBuf], out: &Path) -> Result<usize, String> {
    use super::net::planes::{to_bytes, PLANES};
    let mut w = std::io::BufWriter::new(
        std::fs::File::create(out).map_err(|e| format!("{}: {e}", out.display()))?,
    );
    let mut size_seen = None;
    let mut count = 0;
    for (fi, path) in files.iter().enumerate() {
        let (size, games) = read_file(path)?;
        match size_seen {
            None => {
                size_seen = Some(size);
                w.write_all(b"QGOPLN01").map_err(|e| e.to_string())?;
                w.write_all(&(size as u32).to_le_bytes())
                    .map_err(|e| e.to_string())?;
                w.write_all(&(PLANES as u32).to_le_bytes())
                    .map_err(|e| e.to_string())?;
            }
            Some(s) if s != size => {
                return Err(format!("{}: board size {size}, not {s}", path.display()))
            }
            _ => {}
        }
        for g in &games {
            let id = ((fi as u32) << 20) | (g.index & 0xF_FFFF);
            let mut game = Game::new(size, 0.0);
            for (ply, m) in g.moves.iter().enumerate() {
                let mover = game.to_move();
                let bytes = to_bytes(game.board(), mover);
                let mut rec = Vec::with_capacity(16 + bytes.len() / 8 + 4 * (size * size + 3));
                rec.extend((id).to_le_bytes());
                rec.extend((ply as u32).to_le_bytes());
                for chunk in bytes.chunks(8) {
                    let mut byte = 0u8;
                    for (j, &bit) in chunk.iter().enumerate() {
                        byte |= bit << (7 - j);
                    }
                    rec.push(byte);
                }
                let total: u32 = m.visits.iter().map(|v| v.1).sum();
                let mut shares = vec![0.0f32; size * size + 1];
                for &(mv, n) in &m.visits {
                    let i = match mv {
                        Move::Pass => size * size,
                        Move::Play(p) => {
                            let (c, r) = game.board().col_row(p);
                            r * size + c
                        }
                    };
                    shares[i] = n as f32 / total.max(1) as f32;
                }
                for v in shares {
                    rec.extend(v.to_le_bytes());
                }
                let z = match g.winner {
                    None => 0.0f32,
                    Some(c) if c == mover => 1.0,
                    Some(_) => -1.0,
                };
                rec.extend(z.to_le_bytes());
                rec.extend(m.winrate.to_le_bytes());
                w.write_all(&rec).map_err(|e| e.to_string())?;
                count += 1;
                game.play(mover, m.played).map_err(|_| {
                    format!("{}: game {} has an illegal move", path.display(), g.index)
                })?;
            }
        }
    }
    if size_seen.is_none() {
        return Err("no self-play files given".into());
    }
    w.flush().map_err(|e| e.to_string())?;
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quick(games: u32, shard: (u32, u32)) -> SelfPlay {
        SelfPlay {
            size: 5,
            komi: 0.5,
            playouts: 60,
            sample: 2,
            games,
            seed: 7,
            shard,
            player: PlayerConfig::default(),
        }
    }

    #[test]
    fn games_round_trip_through_their_lines() {
        let cfg = quick(1, (1, 1));
        let r = play_game(&cfg, 0);
        assert!(!r.moves.is_empty());
        let back = decode(5, &encode(5, &r)).unwrap();
        assert_eq!(back.index, r.index);
        assert_eq!(back.winner, r.winner);
        assert_eq!(back.moves.len(), r.moves.len());
        for (a, b) in back.moves.iter().zip(&r.moves) {
            assert_eq!(a.played, b.played);
            assert_eq!(a.visits, b.visits);
            assert!((a.winrate - b.winrate).abs() < 1e-3);
        }
        // Every move replays legally and the visits name legal moves of their position.
        let mut g = Game::new(5, 0.5);
        for s in &back.moves {
            let c = g.to_move();
            for &(mv, _) in &s.visits {
                assert!(g.is_legal(c, mv), "{mv:?}");
            }
            g.play(c, s.played).unwrap();
        }
    }

    #[test]
    fn a_cut_run_continues_and_shards_split_the_games() {
        let dir = std::env::temp_dir().join(format!("qgo-sp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("a.txt");
        let _ = std::fs::remove_file(&out);
        let cfg = quick(3, (2, 2));
        run(&out, &cfg).unwrap();
        let (_, games) = read_file(&out).unwrap();
        assert_eq!(games.iter().map(|g| g.index).collect::<Vec<_>>(), vec![1]);
        // Cut the last line in the middle: the next run drops it and plays the game again.
        let text = std::fs::read_to_string(&out).unwrap();
        std::fs::write(&out, &text[..text.len() - 5]).unwrap();
        assert!(read_file(&out).unwrap().1.is_empty());
        run(&out, &cfg).unwrap();
        let (_, again) = read_file(&out).unwrap();
        assert_eq!(again, games);
        // Another run's options are refused.
        assert!(run(&out, &quick(4, (2, 2))).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
