//! The VCF/VCT position set (`tests/data/gomoku_vcf_vct.txt`, freestyle 15x15, taken from
//! quartet's games against Rapfi by `examples/gomoku_vcf_vct.rs extract`): quartet's threat
//! search proves every position, and each proof is checked by a second, independent search:
//!
//! - VCF lines: an exhaustive search written here on a plain grid (the attacker plays only
//!   moves that make a four, the defender only the forced block, a defender five ends the
//!   line) finds a win, and it wins after quartet's first move as well;
//! - VCT lines: Rapfi's verdict recorded in the file by `scripts/rapfi_mate.py` (a mate for
//!   the attacker to move, and the defender mated after quartet's first move).
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use quartet::color::Color;
use quartet::gomoku::board::Rule;
use quartet::gomoku::dfpn::{Dfpn, Proof};
use quartet::gomoku::game::Game;
use quartet::gomoku::threats::Threats;
use quartet::search::{Deadline, Limits, StopToken};

const N: usize = 15;
const DATA: &str = include_str!("data/gomoku_vcf_vct.txt");

struct Entry {
    name: String,
    vct: bool,
    /// (x, y from the top), Black first.
    moves: Vec<(usize, usize)>,
    first: (usize, usize),
    rapfi: String,
    after: String,
}

fn sgf(m: &str) -> (usize, usize) {
    let b = m.as_bytes();
    ((b[0] - b'a') as usize, (b[1] - b'a') as usize)
}

fn entries() -> Vec<Entry> {
    DATA.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let field = |key: &str| {
                f.iter()
                    .find_map(|w| w.strip_prefix(key))
                    .unwrap_or("")
                    .to_string()
            };
            Entry {
                name: f[0].to_string(),
                vct: match f[1] {
                    "vcf" => false,
                    "vct" => true,
                    k => panic!("{}: kind {k}", f[0]),
                },
                moves: f[2].split(',').map(sgf).collect(),
                first: sgf(f[3]),
                rapfi: field("rapfi="),
                after: field("after="),
            }
        })
        .collect()
}

/// The brute force's board: 0 empty, 1 Black, 2 White; `g[y][x]`.
type Grid = [[u8; N]; N];

const DIRS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

fn at(g: &Grid, x: isize, y: isize) -> Option<u8> {
    let inside = |v: isize| (0..N as isize).contains(&v);
    (inside(x) && inside(y)).then(|| g[y as usize][x as usize])
}

/// Whether `s` at the empty (x, y) would make five or more in a row (freestyle).
fn five_at(g: &Grid, x: usize, y: usize, s: u8) -> bool {
    DIRS.iter().any(|&(dx, dy)| {
        let run = |sign: isize| {
            (1..5)
                .take_while(|&k| {
                    at(g, x as isize + sign * k * dx, y as isize + sign * k * dy) == Some(s)
                })
                .count()
        };
        1 + run(1) + run(-1) >= 5
    })
}

fn fives(g: &Grid, s: u8) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for y in 0..N {
        for x in 0..N {
            if g[y][x] == 0 && five_at(g, x, y, s) {
                v.push((x, y));
            }
        }
    }
    v
}

/// Exhaustive VCF: can `a` win by fours alone within `depth` of its moves? `failed` keeps
/// positions already refuted (by grid contents) at a depth.
fn vcf(g: &mut Grid, a: u8, depth: u32, failed: &mut HashMap<u64, u32>, nodes: &mut u64) -> bool {
    *nodes += 1;
    if !fives(g, a).is_empty() {
        return true;
    }
    if depth == 0 {
        return false;
    }
    let mut h = DefaultHasher::new();
    g.hash(&mut h);
    let key = h.finish() ^ a as u64;
    if failed.get(&key).is_some_and(|&d| d >= depth) {
        return false;
    }
    let d = 3 - a;
    let threats = fives(g, d);
    let mut won = false;
    'moves: for y in 0..N {
        for x in 0..N {
            if g[y][x] != 0 || (!threats.is_empty() && !threats.contains(&(x, y))) {
                continue;
            }
            if wins_with(g, a, (x, y), depth, failed, nodes) {
                won = true;
                break 'moves;
            }
        }
    }
    if !won {
        failed.insert(key, depth);
    }
    won
}

/// Whether `a` playing `m` (a four, else it is no VCF move) wins by fours within `depth`.
/// Before `m`, `a` has no five to make, so every five point `m` gives it lies on one of the
/// four lines through `m`.
fn wins_with(
    g: &mut Grid,
    a: u8,
    (x, y): (usize, usize),
    depth: u32,
    failed: &mut HashMap<u64, u32>,
    nodes: &mut u64,
) -> bool {
    let d = 3 - a;
    g[y][x] = a;
    let mut mine = Vec::new();
    for (dx, dy) in DIRS {
        for k in -4..=4isize {
            let (ex, ey) = (x as isize + k * dx, y as isize + k * dy);
            if at(g, ex, ey) == Some(0) && five_at(g, ex as usize, ey as usize, a) {
                mine.push((ex as usize, ey as usize));
            }
        }
    }
    let won = if mine.is_empty() || !fives(g, d).is_empty() {
        // Not a four, or the defender completes its own five first.
        false
    } else if mine.len() >= 2 {
        true
    } else {
        let (bx, by) = mine[0];
        g[by][bx] = d;
        let w = vcf(g, a, depth - 1, failed, nodes);
        g[by][bx] = 0;
        w
    };
    g[y][x] = 0;
    won
}

fn grid_of(moves: &[(usize, usize)]) -> Grid {
    let mut g = [[0u8; N]; N];
    for (i, &(x, y)) in moves.iter().enumerate() {
        assert_eq!(g[y][x], 0, "a stone twice");
        g[y][x] = 1 + (i % 2) as u8;
    }
    g
}

/// quartet's first move of its VCF or VCT proof for the side to move, as (x, y from top).
fn quartet_proof(e: &Entry) -> Option<(usize, usize)> {
    let mut game = Game::new(N, Rule::Freestyle);
    for (i, &(x, y)) in e.moves.iter().enumerate() {
        let c = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let p = game.board().point(x, N - 1 - y);
        game.play(c, p).expect("a legal position");
    }
    let c = game.to_move();
    let lim = Limits::new(Deadline::unlimited(), None, StopToken::new());
    let mut poll = lim.poller();
    let b = game.board_mut();
    // The node budgets of the extraction (examples/gomoku_vcf_vct.rs): the first move is
    // the one recorded, and Rapfi checked that one.
    let p = if e.vct {
        Threats::new(&mut poll, 4_000_000).vct_root(b, c, 8)
    } else {
        Threats::new(&mut poll, 2_000_000).vcf_root(b, c, 120)
    };
    p.map(|p| {
        let (col, row) = b.col_row(p);
        (col, N - 1 - row)
    })
}

#[test]
fn the_set_holds_at_least_30_positions_of_both_kinds() {
    let all = entries();
    let vcf = all.iter().filter(|e| !e.vct).count();
    assert!(all.len() >= 30, "{} positions", all.len());
    assert!(
        vcf >= 10 && all.len() - vcf >= 10,
        "{vcf} VCF of {}",
        all.len()
    );
    let mut names: Vec<&str> = all.iter().map(|e| e.name.as_str()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), all.len(), "names are unique");
}

#[test]
fn quartet_proves_every_vcf_and_the_brute_force_agrees() {
    for e in entries().iter().filter(|e| !e.vct) {
        let got = quartet_proof(e).unwrap_or_else(|| panic!("{}: quartet finds no VCF", e.name));
        assert_eq!(got, e.first, "{}: the recorded first move", e.name);
        let a = 1 + (e.moves.len() % 2) as u8;
        let mut g = grid_of(&e.moves);
        assert!(
            fives(&g, 3 - a).is_empty(),
            "{}: the defender has a four",
            e.name
        );
        let (mut failed, mut nodes) = (HashMap::new(), 0);
        // Iterative deepening: the shortest VCF's length in attacker moves.
        let len = (1..=40)
            .find(|&d| vcf(&mut g, a, d, &mut failed, &mut nodes))
            .unwrap_or_else(|| panic!("{}: the brute force finds no VCF", e.name));
        assert!(
            wins_with(&mut g, a, got, 40, &mut HashMap::new(), &mut nodes),
            "{}: quartet's first move {got:?} is not a winning four",
            e.name
        );
        // Rapfi's own verdict on the line (not a bound on `len`: its 1 s mates are not
        // always the shortest, e.g. +M17 where 6 fours win).
        assert!(
            e.rapfi.starts_with("+M") && e.after.starts_with("-M"),
            "{}",
            e.name
        );
        eprintln!("{}: VCF of {len} fours, {nodes} brute-force nodes", e.name);
    }
}

#[test]
fn quartet_proves_every_vct_and_rapfi_agrees() {
    for e in entries().iter().filter(|e| e.vct) {
        assert!(
            e.rapfi.starts_with("+M") && e.after.starts_with("-M"),
            "{}: Rapfi's verdict {} / {}",
            e.name,
            e.rapfi,
            e.after
        );
        let got = quartet_proof(e).unwrap_or_else(|| panic!("{}: quartet finds no VCT", e.name));
        assert_eq!(got, e.first, "{}: the recorded first move", e.name);
    }
}

#[test]
fn the_brute_force_knows_a_vcf_from_no_vcf() {
    // Its own check on built positions: Black's broken three on an open row wins by fours
    // (a four, then a double four), the same with the row's ends closed by White does not.
    let open = [
        (5, 7),
        (0, 0),
        (6, 7),
        (0, 2),
        (8, 7),
        (0, 4),
        (7, 9),
        (14, 14),
        (7, 10),
        (14, 12),
        (7, 12),
    ];
    let mut g = grid_of(&open);
    let (mut f, mut n) = (HashMap::new(), 0);
    assert!(vcf(&mut g, 1, 6, &mut f, &mut n));
    let mut closed = grid_of(&open);
    closed[7][4] = 2;
    closed[7][9] = 2;
    closed[8][7] = 2;
    closed[13][7] = 2;
    assert!(!vcf(&mut closed, 1, 6, &mut HashMap::new(), &mut n));
}

/// The side to move's df-pn proof within `budget` threat nodes and `max_moves` attacker
/// moves, its principal line, and the position as a [`Game`].
fn dfpn_proof(
    moves: &[(usize, usize)],
    max_moves: u32,
    budget: u64,
) -> (Game, Proof, Vec<(usize, usize)>) {
    let mut game = Game::new(N, Rule::Freestyle);
    for (i, &(x, y)) in moves.iter().enumerate() {
        let c = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let p = game.board().point(x, N - 1 - y);
        game.play(c, p).expect("a legal position");
    }
    let c = game.to_move();
    let lim = Limits::new(Deadline::unlimited(), None, StopToken::new());
    let mut poll = lim.poller();
    let b = game.board_mut();
    let mut t = Threats::new(&mut poll, budget);
    let mut d = Dfpn::new(16);
    d.max_moves = max_moves;
    let proof = d.prove(&mut t, b, c);
    let line = if let Proof::Won(_) = proof {
        d.proof_line(&mut t, b, c)
            .into_iter()
            .map(|p| {
                let (col, row) = b.col_row(p);
                (col, N - 1 - row)
            })
            .collect()
    } else {
        Vec::new()
    };
    (game, proof, line)
}

/// Plays `line` from the end of `moves` by the rules (a `Game`): every move legal, the last
/// one the attacker's five.
fn line_wins(moves: &[(usize, usize)], line: &[(usize, usize)]) -> bool {
    let mut g = grid_of(moves);
    let a = 1 + (moves.len() % 2) as u8;
    for (i, &(x, y)) in line.iter().enumerate() {
        let s = if i % 2 == 0 { a } else { 3 - a };
        if g[y][x] != 0 {
            return false;
        }
        let five = five_at(&g, x, y, s);
        g[y][x] = s;
        if five {
            // Only the last move may make five, and it must be the attacker's.
            return i + 1 == line.len() && s == a;
        }
    }
    false
}

#[test]
fn dfpn_proves_every_position_and_its_line_wins_when_replayed() {
    let mut agree = 0;
    for e in entries() {
        // More than the 4 M nodes of `quartet_proof`: one position (full-game-00011-p33)
        // takes df-pn more than that (examples/gomoku_dfpn.rs compares the two).
        let (mut game, proof, line) = dfpn_proof(&e.moves, 8, 16_000_000);
        let Proof::Won(p) = proof else {
            panic!("{}: df-pn finds no win ({proof:?})", e.name);
        };
        let (col, row) = game.board().col_row(p);
        let first = (col, N - 1 - row);
        assert_eq!(
            line.first(),
            Some(&first),
            "{}: the line starts with the move",
            e.name
        );
        assert!(
            line_wins(&e.moves, &line),
            "{}: line {line:?} does not win",
            e.name
        );
        if first == e.first {
            agree += 1;
        } else if e.vct {
            // Another first move: the iterative-deepening search must prove it too.
            let c = game.to_move();
            let lim = Limits::new(Deadline::unlimited(), None, StopToken::new());
            let mut poll = lim.poller();
            let mut t = Threats::new(&mut poll, 20_000_000);
            assert!(
                t.try_threat(game.board_mut(), c, p, 8),
                "{}: df-pn's {first:?} is not proved by the other search",
                e.name
            );
        } else {
            let a = 1 + (e.moves.len() % 2) as u8;
            let mut g = grid_of(&e.moves);
            assert!(
                wins_with(&mut g, a, first, 40, &mut HashMap::new(), &mut 0),
                "{}: df-pn's {first:?} is not a winning four",
                e.name
            );
        }
    }
    eprintln!("df-pn chose the recorded first move in {agree} positions");
}

/// A small deterministic generator for the random positions.
fn next(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *seed >> 33
}

#[test]
fn every_one_threat_win_dfpn_claims_survives_every_reply_on_the_board() {
    // Random middle games; df-pn with one threat move before the VCF. Each claim is checked
    // against every reply on the board (not the replies the threat notion lists) with the
    // brute-force VCF: a reply after which the attacker has no VCF would be a defence the
    // proof missed.
    let mut seed = 7u64;
    let (mut claims, mut positions) = (0, 0);
    while claims < 12 && positions < 400 {
        positions += 1;
        let stones = 14 + (next(&mut seed) % 16) as usize;
        let mut g: Grid = [[0; N]; N];
        let mut moves = Vec::new();
        while moves.len() < stones {
            let x = 3 + (next(&mut seed) % 9) as usize;
            let y = 3 + (next(&mut seed) % 9) as usize;
            let s = 1 + (moves.len() % 2) as u8;
            if g[y][x] != 0 || five_at(&g, x, y, s) {
                continue;
            }
            g[y][x] = s;
            moves.push((x, y));
        }
        let a = 1 + (moves.len() % 2) as u8;
        let d = 3 - a;
        // No VCF now (else nothing is left to check) and no four of the defender's.
        let mut failed = HashMap::new();
        if !fives(&g, d).is_empty() || vcf(&mut g, a, 40, &mut failed, &mut 0) {
            continue;
        }
        let (_, proof, line) = dfpn_proof(&moves, 1, 4_000_000);
        let Proof::Won(_) = proof else { continue };
        claims += 1;
        let (x, y) = line[0];
        g[y][x] = a;
        for ry in 0..N {
            for rx in 0..N {
                if g[ry][rx] != 0 {
                    continue;
                }
                assert!(
                    !five_at(&g, rx, ry, d),
                    "{moves:?}: after {:?} the defender's {:?} makes five",
                    (x, y),
                    (rx, ry)
                );
                g[ry][rx] = d;
                let won = vcf(&mut g, a, 40, &mut HashMap::new(), &mut 0);
                g[ry][rx] = 0;
                assert!(
                    won,
                    "{moves:?}: after {:?} the reply {:?} leaves no VCF",
                    (x, y),
                    (rx, ry)
                );
            }
        }
    }
    assert!(claims >= 5, "only {claims} claims in {positions} positions");
    eprintln!("{claims} one-threat wins checked in {positions} positions");
}
