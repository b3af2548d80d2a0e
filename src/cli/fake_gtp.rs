//! `quartet fake-gtp --mode ...` (hidden): a tiny Go GTP engine whose `genmove` is random,
//! deliberately illegal, garbage, slow, fatal or a resignation. It exists so that the
//! referee's tests can run against a real child process without a script interpreter.
use crate::color::Color;
use crate::go::board::{valid_size, Move};
use crate::go::game::Game;
use crate::protocol::coords::{format_vertex, parse_vertex};
use clap::{Args, ValueEnum};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::io::{BufRead, Write};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// Random legal moves that never fill a one-point own eye; passes when none is left.
    Random,
    /// Like random, but from its second genmove on answers an occupied point.
    Illegal,
    /// Answers genmove with `= banana`.
    Garbage,
    /// Like random, but sleeps `--delay-ms` before each genmove answer.
    Slow,
    /// Exits without answering the first genmove.
    Die,
    /// Resigns at its first genmove.
    Resign,
    /// Like random, but claims `W+100.0` in `final_score`.
    Liar,
}

#[derive(Args, Debug)]
pub struct FakeGtpArgs {
    /// How `genmove` answers.
    #[arg(long, value_enum, default_value_t = Mode::Random)]
    mode: Mode,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Milliseconds the `slow` mode waits before each genmove answer.
    #[arg(long, default_value_t = 3000)]
    delay_ms: u64,
}

struct Fake {
    game: Game,
    komi: f32,
    rng: SmallRng,
    args: FakeGtpArgs,
    genmoves: u32,
}

impl Fake {
    /// A random legal move for `color`, skipping points whose neighbours are all `color`.
    fn random_move(&mut self, color: Color) -> Move {
        let board = self.game.board().clone();
        let n = board.size();
        let mut points: Vec<(usize, usize)> = (0..n)
            .flat_map(|c| (0..n).map(move |r| (c, r)))
            .filter(|&(c, r)| board.stone(board.point(c, r)).is_none())
            .collect();
        points.shuffle(&mut self.rng);
        for (c, r) in points {
            let own_eye = [(0, 1), (2, 1), (1, 0), (1, 2)].iter().all(|&(dc, dr)| {
                let (nc, nr) = ((c + dc).wrapping_sub(1), (r + dr).wrapping_sub(1));
                nc >= n || nr >= n || board.stone(board.point(nc, nr)) == Some(color)
            });
            if own_eye {
                continue;
            }
            let mv = Move::Play(board.point(c, r));
            if self.game.is_legal(color, mv) {
                return mv;
            }
        }
        Move::Pass
    }

    fn genmove(&mut self, color: Color) -> Result<String, String> {
        self.genmoves += 1;
        match self.args.mode {
            Mode::Garbage => return Ok("banana".into()),
            Mode::Resign => return Ok("resign".into()),
            Mode::Die => std::process::exit(3),
            Mode::Slow => std::thread::sleep(Duration::from_millis(self.args.delay_ms)),
            Mode::Illegal if self.genmoves > 1 => {
                let board = self.game.board();
                let n = board.size();
                let occupied = (0..n * n)
                    .map(|i| (i % n, i / n))
                    .find(|&(c, r)| board.stone(board.point(c, r)).is_some());
                if let Some(p) = occupied {
                    return Ok(format_vertex(Some(p)));
                }
            }
            _ => {}
        }
        let mv = self.random_move(color);
        self.game.play(color, mv).map_err(|e| e.to_string())?;
        Ok(match mv {
            Move::Pass => "pass".into(),
            Move::Play(p) => format_vertex(Some(self.game.board().col_row(p))),
        })
    }

    fn handle(&mut self, name: &str, args: &[&str]) -> Result<String, String> {
        let size = self.game.board().size();
        match (name, args) {
            ("protocol_version", _) => Ok("2".into()),
            ("name", _) => Ok("fake-gtp".into()),
            ("version", _) => Ok(format!("{:?}", self.args.mode).to_lowercase()),
            ("boardsize", [n]) => match n.parse::<usize>() {
                Ok(n) if valid_size(n) => {
                    self.game = Game::new(n, self.komi);
                    Ok(String::new())
                }
                _ => Err("unacceptable size".into()),
            },
            ("clear_board", _) => {
                self.game = Game::new(size, self.komi);
                Ok(String::new())
            }
            ("komi", [k]) => {
                self.komi = k.parse().map_err(|_| "syntax error".to_string())?;
                self.game = Game::new(size, self.komi);
                Ok(String::new())
            }
            ("time_settings", _) => Ok(String::new()),
            ("time_left", _) => Ok(String::new()),
            ("play", [c, v]) => {
                let color: Color = c.parse().map_err(|_| "syntax error".to_string())?;
                let mv = match parse_vertex(v, size).map_err(|e| e.0)? {
                    None => Move::Pass,
                    Some((col, row)) => Move::Play(self.game.board().point(col, row)),
                };
                self.game.play(color, mv).map_err(|e| e.to_string())?;
                Ok(String::new())
            }
            ("genmove", [c]) => {
                let color: Color = c.parse().map_err(|_| "syntax error".to_string())?;
                self.genmove(color)
            }
            ("final_score", _) if self.args.mode == Mode::Liar => Ok("W+100.0".into()),
            ("final_score", _) => {
                let s = self.game.area_score();
                Ok(if s > 0.0 {
                    format!("B+{s:.1}")
                } else if s < 0.0 {
                    format!("W+{:.1}", -s)
                } else {
                    "0".into()
                })
            }
            _ => Err("unknown command".into()),
        }
    }
}

pub fn run(args: FakeGtpArgs) -> Result<(), String> {
    let mut fake = Fake {
        game: Game::new(9, 7.0),
        komi: 7.0,
        rng: SmallRng::seed_from_u64(args.seed),
        args,
        genmoves: 0,
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let mut words: Vec<&str> = line.split_whitespace().collect();
        // GTP 2, section 2.6: an optional numeric id, repeated in the answer.
        let id = match words.first() {
            Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => words.remove(0),
            _ => "",
        };
        let Some((&name, rest)) = words.split_first() else {
            continue;
        };
        if name == "quit" {
            let _ = write!(out, "={id}\n\n");
            let _ = out.flush();
            break;
        }
        let answer = match fake.handle(name, rest) {
            Ok(body) if body.is_empty() => format!("={id}\n\n"),
            Ok(body) => format!("={id} {body}\n\n"),
            Err(msg) => format!("?{id} {msg}\n\n"),
        };
        if out
            .write_all(answer.as_bytes())
            .and_then(|_| out.flush())
            .is_err()
        {
            break;
        }
    }
    Ok(())
}
