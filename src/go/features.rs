//! Move features for learnt tree priors, after Coulom, "Computing Elo ratings of move
//! patterns in the game of Go" (2007): each candidate move has at most one feature per
//! group (its 3x3 shape, a capture, an extension from atari, ...), every feature has a
//! strength gamma, and a move's strength is the product of its features' gammas, so its
//! probability of being played is its strength over the sum of all candidates'.
//! The gammas are fitted by `quartet train go mm` (see `mm.rs`) and stored as text
//! (`data/go/mm-v1.txt`; `mm-v2.txt` adds the 12-point diamonds of `diamond.rs`; `mm-v3.txt`
//! is the same model fitted to Pachi's games; all parsed by [`Gammas::parse`]).
use std::sync::OnceLock;

use super::board::{Board, Move, Point};
use super::diamond::{self, DiamondTable};
use super::ladder;
use super::patterns;
use super::playout;
use super::tactics;
use crate::color::Color;

pub const GROUPS: usize = 9;
pub const PATTERN: usize = 0;
pub const CAPTURE: usize = 1;
pub const EXTENSION: usize = 2;
pub const ATARI: usize = 3;
pub const SELF_ATARI: usize = 4;
pub const DIST_LAST: usize = 5;
pub const DIST_LAST2: usize = 6;
pub const LINE: usize = 7;
/// The 12-point diamond (`diamond.rs`): its levels come with the weights, 0 = rare.
pub const DIAMOND: usize = 8;

pub const GROUP_NAMES: [&str; GROUPS] = [
    "pattern",
    "capture",
    "extension",
    "atari",
    "self-atari",
    "dist-last",
    "dist-last2",
    "line",
    "diamond",
];

/// Coulom's distance `dx + dy + max(dx, dy)` runs from 2 (adjacent) up; 17 and beyond share
/// the last level.
const DIST_LEVELS: usize = 17;

/// Levels per group, level 0 meaning "no feature of this group" (strength 1, not fitted);
/// the diamond group has only its rare level here (its others come with the weights, see
/// [`Gammas::levels`]).
pub fn group_levels(g: usize) -> usize {
    match g {
        PATTERN => pattern_table().count + 1,
        CAPTURE => 4,
        EXTENSION => 4,
        ATARI => 3,
        SELF_ATARI => 3,
        DIST_LAST | DIST_LAST2 => DIST_LEVELS,
        LINE => 11,
        DIAMOND => 1,
        _ => 0,
    }
}

/// A candidate's level in each group.
pub type Features = [u16; GROUPS];

/// Cell codes of a colour-normalised neighbourhood: 0 empty, 1 own, 2 opponent, 3 edge.
struct PatternTable {
    /// Neighbourhood code (own colour = 1) to a dense id, 1-based.
    id: Vec<u16>,
    /// Dense id - 1 to its canonical code (the least code among the 8 symmetries).
    canonical: Vec<u16>,
    count: usize,
}

/// The 8 symmetries of the square as permutations of the cells of a neighbourhood code
/// (order: row above left to right, left, right, row below; see `patterns::neighbourhood`).
fn symmetries() -> [[usize; 8]; 8] {
    const POS: [(usize, usize); 8] = [
        (0, 0),
        (0, 1),
        (0, 2),
        (1, 0),
        (1, 2),
        (2, 0),
        (2, 1),
        (2, 2),
    ];
    std::array::from_fn(|sym| {
        std::array::from_fn(|i| {
            let (mut r, mut c) = POS[i];
            if sym & 1 != 0 {
                c = 2 - c;
            }
            if sym & 2 != 0 {
                r = 2 - r;
            }
            if sym & 4 != 0 {
                std::mem::swap(&mut r, &mut c);
            }
            POS.iter().position(|&q| q == (r, c)).unwrap()
        })
    })
}

fn pattern_table() -> &'static PatternTable {
    static T: OnceLock<PatternTable> = OnceLock::new();
    T.get_or_init(|| {
        let syms = symmetries();
        let canon = |code: usize| -> u16 {
            syms.iter()
                .map(|perm| {
                    let mut out = 0usize;
                    for (i, &j) in perm.iter().enumerate() {
                        out |= ((code >> (2 * j)) & 3) << (2 * i);
                    }
                    out as u16
                })
                .min()
                .unwrap()
        };
        let mut canonical = Vec::new();
        let mut by_canon = vec![0u16; 1 << 16];
        let id: Vec<u16> = (0..1usize << 16)
            .map(|code| {
                let k = canon(code) as usize;
                if by_canon[k] == 0 {
                    canonical.push(k as u16);
                    by_canon[k] = canonical.len() as u16;
                }
                by_canon[k]
            })
            .collect();
        let count = canonical.len();
        PatternTable {
            id,
            canonical,
            count,
        }
    })
}

/// Swaps the two stone colours of a neighbourhood code (1 <-> 2; empty and edge stay).
fn swap_colours(code: usize) -> usize {
    let mut out = code;
    for i in 0..8 {
        let v = (code >> (2 * i)) & 3;
        if v == 1 || v == 2 {
            out ^= 3 << (2 * i);
        }
    }
    out
}

/// The pattern level of `p` for `c` to move: the symmetry class of its 3x3 neighbourhood
/// with `c`'s stones as "own".
pub fn pattern_level(b: &Board, c: Color, p: Point) -> u16 {
    let mut code = patterns::neighbourhood(b, p);
    // `neighbourhood` codes Black as 1: for White to move the colours swap.
    if c == Color::White {
        code = swap_colours(code);
    }
    pattern_table().id[code]
}

/// The canonical neighbourhood code of pattern level `level` (for the weights file).
pub fn pattern_code(level: u16) -> Option<u16> {
    pattern_table()
        .canonical
        .get((level as usize).checked_sub(1)?)
        .copied()
}

/// The pattern level of a canonical code, if `code` is one.
pub fn pattern_level_of_code(code: u16) -> Option<u16> {
    let t = pattern_table();
    let level = t.id[code as usize];
    (t.canonical[level as usize - 1] == code).then_some(level)
}

fn distance_level(b: &Board, p: Point, m: Option<Move>) -> u16 {
    let Some(Move::Play(q)) = m else {
        return 0;
    };
    let (c1, r1) = b.col_row(p);
    let (c2, r2) = b.col_row(q);
    let (dx, dy) = (c1.abs_diff(c2), r1.abs_diff(r2));
    let d = dx + dy + dx.max(dy);
    if d == 0 {
        // The move's stone was captured since (a ko or snapback): no distance feature.
        return 0;
    }
    // d >= 2 for distinct points: levels 1..=16.
    (d.min(DIST_LEVELS) - 1) as u16
}

/// Whether no stone lies within Manhattan distance `r` of `p`.
pub fn empty_around(b: &Board, p: Point, r: usize) -> bool {
    let (col, row) = b.col_row(p);
    let size = b.size() as isize;
    let r = r as isize;
    for dc in -r..=r {
        let rest = r - dc.abs();
        for dr in -rest..=rest {
            let (c2, r2) = (col as isize + dc, row as isize + dr);
            if c2 < 0 || r2 < 0 || c2 >= size || r2 >= size {
                continue;
            }
            if b.stone(b.point(c2 as usize, r2 as usize)).is_some() {
                return false;
            }
        }
    }
    true
}

/// The features of `c` playing at the empty, legal point `p`, all but the diamond's level
/// (which needs the weights' table: [`Gammas::features`]).
pub fn features(b: &Board, c: Color, p: Point) -> Features {
    let mut f = [0u16; GROUPS];
    f[PATTERN] = pattern_level(b, c, p);
    let mut captured = 0;
    let mut own_in_atari = false;
    let mut atari_target = false;
    // Each string once, though it may touch `p` on several sides.
    let mut heads = [0usize; 4];
    for (i, n) in b.neighbors(p).into_iter().enumerate() {
        let Some(s) = b.stone(n) else { continue };
        heads[i] = b.string_head(n);
        if s == c {
            own_in_atari |= b.libs(n) == 1;
            continue;
        }
        match b.libs(n) {
            1 if !heads[..i].contains(&heads[i]) => captured += b.string_len(n),
            2 => atari_target = true,
            _ => {}
        }
    }
    if captured > 0 {
        f[CAPTURE] = if own_in_atari {
            3
        } else if captured == 1 {
            1
        } else {
            2
        };
    }
    if own_in_atari {
        let libs = tactics::libs_after_play(b, c, p, 0, 3);
        f[EXTENSION] = match libs {
            0 | 1 => 0,
            2 => {
                let saved = b
                    .neighbors(p)
                    .into_iter()
                    .find(|&n| b.stone(n) == Some(c) && b.libs(n) == 1);
                match saved {
                    Some(s) if ladder::escapes(b, s) => 2,
                    _ => 1,
                }
            }
            _ => 3,
        };
    }
    if atari_target && !playout::is_self_atari(b, c, p) {
        f[ATARI] = if ladder::atari_captures(b, c, p) {
            1
        } else {
            2
        };
    }
    if captured == 0 && playout::is_self_atari(b, c, p) {
        let joins = b.neighbors(p).into_iter().any(|n| b.stone(n) == Some(c));
        f[SELF_ATARI] = if joins { 2 } else { 1 };
    }
    f[DIST_LAST] = distance_level(b, p, b.last_move());
    f[DIST_LAST2] = distance_level(b, p, b.last2_move());
    let (col, row) = b.col_row(p);
    let size = b.size();
    let line = col.min(row).min(size - 1 - col).min(size - 1 - row).min(4);
    f[LINE] = 1 + 2 * line as u16 + u16::from(empty_around(b, p, 3));
    f
}

/// Fitted strengths of all features, indexed by group and level.
#[derive(Clone, Debug, PartialEq)]
pub struct Gammas {
    /// `offsets[g] + level` indexes `gamma`; level 0 of every group stays 1.
    offsets: [usize; GROUPS + 1],
    gamma: Vec<f32>,
    /// The frequent diamonds' levels (empty in a version 1 model).
    diamonds: DiamondTable,
}

const HEADER_V1: &str = "quartet-go-mm 1";
/// Version 2 adds the diamond group (`diamond CODE gamma` lines, codes in hex).
const HEADER_V2: &str = "quartet-go-mm 2";

impl Default for Gammas {
    fn default() -> Self {
        Self::new()
    }
}

impl Gammas {
    /// All strengths 1 (every move equally likely), no diamonds.
    pub fn new() -> Gammas {
        Gammas::with_diamonds(Vec::new())
    }

    /// All strengths 1, with a level for each of `diamonds` (distinct canonical codes).
    pub fn with_diamonds(diamonds: Vec<u32>) -> Gammas {
        let diamonds = DiamondTable::new(diamonds);
        let mut offsets = [0usize; GROUPS + 1];
        for g in 0..GROUPS {
            let levels = if g == DIAMOND {
                diamonds.len() + 1
            } else {
                group_levels(g)
            };
            offsets[g + 1] = offsets[g] + levels;
        }
        Gammas {
            offsets,
            gamma: vec![1.0; offsets[GROUPS]],
            diamonds,
        }
    }

    pub fn len(&self) -> usize {
        self.gamma.len()
    }

    pub fn is_empty(&self) -> bool {
        self.gamma.is_empty()
    }

    /// Levels of group `g`, level 0 included.
    pub fn levels(&self, g: usize) -> usize {
        self.offsets[g + 1] - self.offsets[g]
    }

    pub fn diamonds(&self) -> &DiamondTable {
        &self.diamonds
    }

    /// Index of (group, level) in the flat vector.
    #[inline]
    pub fn index(&self, g: usize, level: u16) -> usize {
        self.offsets[g] + level as usize
    }

    pub fn get(&self, g: usize, level: u16) -> f32 {
        self.gamma[self.index(g, level)]
    }

    pub fn set_flat(&mut self, i: usize, v: f32) {
        self.gamma[i] = v;
    }

    pub fn flat(&self) -> &[f32] {
        &self.gamma
    }

    /// All features of `c` playing at `p`, the diamond's level from this model's table.
    #[inline]
    pub fn features(&self, b: &Board, c: Color, p: Point) -> Features {
        let mut f = features(b, c, p);
        if !self.diamonds.is_empty() {
            f[DIAMOND] = self.diamonds.level(diamond::code(b, c, p));
        }
        f
    }

    /// The strength of a move with features `f`.
    #[inline]
    pub fn strength(&self, f: &Features) -> f32 {
        let mut s = 1.0;
        for (g, &l) in f.iter().enumerate() {
            s *= self.gamma[self.offsets[g] + l as usize];
        }
        s
    }

    /// The weights file: a header line, then `group level gamma` per fitted feature
    /// (patterns by their canonical neighbourhood code in hex); features left out keep 1.
    /// A model with diamonds is version 2 and lists every diamond of its table (in level
    /// order, so the table reads back the same); one without stays version 1.
    pub fn to_text(&self, comment: &str) -> String {
        let header = if self.diamonds.is_empty() {
            HEADER_V1
        } else {
            HEADER_V2
        };
        let mut s = format!("{header}\n");
        for line in comment.lines() {
            s.push_str(&format!("# {line}\n"));
        }
        for (g, name) in GROUP_NAMES.iter().enumerate() {
            for level in 1..self.levels(g) as u16 {
                let v = self.get(g, level);
                match g {
                    PATTERN if v != 1.0 => s.push_str(&format!(
                        "{name} {:#06x} {v:.6e}\n",
                        pattern_code(level).unwrap()
                    )),
                    DIAMOND => s.push_str(&format!(
                        "{name} {:#08x} {v:.6e}\n",
                        self.diamonds.code(level).unwrap()
                    )),
                    PATTERN => {}
                    _ if v != 1.0 => s.push_str(&format!("{name} {level} {v:.6e}\n")),
                    _ => {}
                }
            }
        }
        s
    }

    /// Parses a weights file of version 1 or 2; errors name the line.
    pub fn parse(text: &str) -> Result<Gammas, String> {
        let mut lines = text.lines().enumerate();
        let v2 = match lines.next() {
            Some((_, l)) if l.trim() == HEADER_V1 => false,
            Some((_, l)) if l.trim() == HEADER_V2 => true,
            _ => {
                return Err(format!(
                    "line 1: expected the header `{HEADER_V1}` or `{HEADER_V2}`"
                ))
            }
        };
        // Diamonds first (they size the table), the other groups' entries after.
        let mut diamonds = Vec::new();
        let mut diamond_gammas = Vec::new();
        let mut seen_diamond = std::collections::HashSet::new();
        let mut entries = Vec::new();
        for (i, raw) in lines {
            let n = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let parts: Vec<&str> = line.split_whitespace().collect();
            let [name, level, value] = parts[..] else {
                return Err(format!("line {n}: expected `group level gamma`"));
            };
            let g = GROUP_NAMES
                .iter()
                .position(|&x| x == name)
                .ok_or_else(|| format!("line {n}: unknown group `{name}`"))?;
            let v: f32 = value
                .parse()
                .ok()
                .filter(|v: &f32| v.is_finite() && *v > 0.0)
                .ok_or_else(|| format!("line {n}: gamma `{value}` is not a positive number"))?;
            if g == DIAMOND {
                if !v2 {
                    return Err(format!(
                        "line {n}: diamond features need the header `{HEADER_V2}`"
                    ));
                }
                let hex = level.strip_prefix("0x").unwrap_or(level);
                let code = u32::from_str_radix(hex, 16)
                    .ok()
                    .filter(|&c| diamond::is_canonical(c))
                    .ok_or_else(|| {
                        format!("line {n}: `{level}` is not a canonical diamond code")
                    })?;
                if !seen_diamond.insert(code) {
                    return Err(format!("line {n}: diamond {level} given twice"));
                }
                if diamonds.len() == diamond::MAX_DIAMONDS {
                    return Err(format!(
                        "line {n}: more than {} diamonds",
                        diamond::MAX_DIAMONDS
                    ));
                }
                diamonds.push(code);
                diamond_gammas.push(v);
                continue;
            }
            let level = if g == PATTERN {
                let hex = level.strip_prefix("0x").unwrap_or(level);
                u16::from_str_radix(hex, 16)
                    .ok()
                    .and_then(pattern_level_of_code)
                    .ok_or_else(|| format!("line {n}: `{level}` is not a canonical pattern code"))?
            } else {
                level
                    .parse::<u16>()
                    .ok()
                    .filter(|&l| l >= 1 && (l as usize) < group_levels(g))
                    .ok_or_else(|| format!("line {n}: no level `{level}` in group {name}"))?
            };
            entries.push((n, g, level, v));
        }
        let mut out = Gammas::with_diamonds(diamonds);
        for (level, v) in (1u16..).zip(diamond_gammas) {
            let idx = out.index(DIAMOND, level);
            out.gamma[idx] = v;
        }
        let mut seen = vec![false; out.len()];
        for (n, g, level, v) in entries {
            let idx = out.index(g, level);
            if std::mem::replace(&mut seen[idx], true) {
                return Err(format!("line {n}: {} {level} given twice", GROUP_NAMES[g]));
            }
            out.gamma[idx] = v;
        }
        Ok(out)
    }
}

/// How the tree uses a learnt model for its priors.
#[derive(Debug)]
pub struct PriorModel {
    pub gammas: Gammas,
    /// Virtual wins (and visits) of the likeliest move; others get this times the square
    /// root of their probability relative to it.
    pub weight: f32,
    /// Whether the learnt term replaces the hand-set capture, self-atari, pattern and
    /// distance priors (it covers the same knowledge) instead of adding to them.
    pub replace: bool,
    /// Whether a move's virtual wins are `weight` times the square root of its probability
    /// among all the candidates, as Pachi's pattern prior gives them (so an unsure model
    /// spreads them thin), instead of relative to the likeliest move's.
    pub by_probability: bool,
}

/// The weights fitted to GNU Go self-play (`scripts/go_mm.sh`), built in: the diamond
/// model (data/go/mm-v2.txt; how it compares with mm-v1 is in docs/experiments/go.md).
pub const BUILT_IN: &str = include_str!("../../data/go/mm-v2.txt");

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        Board::from_diagram(rows).unwrap()
    }

    #[test]
    fn pattern_levels_do_not_depend_on_orientation_or_colour() {
        // A black hane shape at C2 and its mirror image, and the same with colours swapped
        // and White to move.
        let a = board(&[".....", ".....", ".XOX.", ".....", "....."]);
        let m = board(&[".....", ".....", ".XOX.", ".....", "....."]);
        let s = board(&[".....", ".....", ".OXO.", ".....", "....."]);
        let pa = pattern_level(&a, Color::Black, a.point(2, 1));
        let pm = pattern_level(&m, Color::Black, m.point(2, 3));
        let ps = pattern_level(&s, Color::White, s.point(2, 1));
        assert_eq!(pa, pm);
        assert_eq!(pa, ps);
        // With the other side to move the shape is a different one.
        assert_ne!(pa, pattern_level(&a, Color::White, a.point(2, 1)));
        let code = pattern_code(pa).unwrap();
        assert_eq!(pattern_level_of_code(code), Some(pa));
    }

    #[test]
    fn capture_and_self_atari_features() {
        // White B2 in atari: Black at B1... rows are from the top; row 0 of the diagram
        // is the top row.
        let b = board(&[".....", ".....", ".X...", "XOX..", "....."]);
        let c = Color::Black;
        let cap = b.point(1, 0); // B1, White B2's last liberty
        let f = features(&b, c, cap);
        assert_eq!(f[CAPTURE], 1, "{f:?}");
        assert_eq!(f[SELF_ATARI], 0);
        // A white move into the corner A1 next to black A2 is a self-atari of one stone.
        let w = Color::White;
        let a1 = b.point(0, 0);
        let f = features(&b, w, a1);
        assert_eq!(f[SELF_ATARI], 1, "A1 has B1 only: {f:?}");
        assert_eq!(f[LINE], 1, "first line, stones near: {f:?}");
        // B5 between two black stones on the edge: a self-atari; Black there is not.
        let e = board(&["X.X..", ".....", ".....", ".....", "....."]);
        let b5 = e.point(1, 4);
        let f = features(&e, w, b5);
        assert_eq!(f[SELF_ATARI], 1, "{f:?}");
        assert_eq!(f[CAPTURE], 0);
        assert_eq!(features(&e, c, b5)[SELF_ATARI], 0);
        // An atari: Black B5 next to a white C5 with two liberties (B5, D5).
        let a = board(&["..O..", "..X..", ".....", ".....", "....."]);
        assert_ne!(features(&a, c, a.point(1, 4))[ATARI], 0);
        assert_eq!(features(&a, c, a.point(0, 0))[ATARI], 0);
    }

    #[test]
    fn built_in_weights_parse() {
        Gammas::parse(BUILT_IN).unwrap();
    }

    /// The committed diamond models (`--mm-weights data/go/mm-v2.txt`, the GNU Go fit, and
    /// `mm-v3.txt`, the Pachi fit) read, and the empty board's centre point, surely
    /// frequent in their games, has a diamond level.
    #[test]
    fn the_diamond_weights_parse_and_know_common_diamonds() {
        for text in [
            include_str!("../../data/go/mm-v2.txt"),
            include_str!("../../data/go/mm-v3.txt"),
        ] {
            let g = Gammas::parse(text).unwrap();
            assert!(g.diamonds().len() > 1000, "{}", g.diamonds().len());
            let b = Board::new(9);
            let f = g.features(&b, Color::Black, b.point(4, 4));
            assert_ne!(f[DIAMOND], 0);
        }
    }

    #[test]
    fn parser_rejects_bad_files_with_the_line() {
        assert!(Gammas::parse("capture 1 2.0\n")
            .unwrap_err()
            .contains("line 1"));
        let bad = [
            ("capture 9 2.0", "line 3"),
            ("capture 1 -2.0", "line 3"),
            ("capture 1 nan", "line 3"),
            ("capture 1", "line 3"),
            ("kapture 1 2.0", "line 3"),
            ("pattern 0x4000 2.0", "line 3"),
            ("capture 1 2.0\ncapture 1 3.0", "line 4"),
        ];
        for (body, want) in bad {
            let text = format!("{HEADER_V1}\n# c\n{body}\n");
            let e = Gammas::parse(&text).err();
            assert!(
                e.as_deref().is_some_and(|e| e.contains(want)),
                "{body}: {e:?}"
            );
        }
        let ok = Gammas::parse(&format!("{HEADER_V1}\ncapture 2 2.5\n")).unwrap();
        assert_eq!(ok.get(CAPTURE, 2), 2.5);
        assert_eq!(ok.get(CAPTURE, 1), 1.0);
        let again = Gammas::parse(&ok.to_text("x")).unwrap();
        assert_eq!(again, ok);
    }

    /// Three canonical diamonds seen from a real board (the empty centre, an edge point,
    /// a point with stones), so the codes are ones play produces.
    fn some_diamonds() -> Vec<u32> {
        let b = board(&[".....", ".....", ".XO..", ".....", "....."]);
        let c = Color::Black;
        vec![
            diamond::code(&b, c, b.point(2, 1)),
            diamond::code(&b, c, b.point(4, 4)),
            diamond::code(&Board::new(5), c, Board::new(5).point(2, 2)),
        ]
    }

    #[test]
    fn a_version_2_model_round_trips_and_scores_its_diamonds() {
        let codes = some_diamonds();
        let mut g = Gammas::with_diamonds(codes.clone());
        assert_eq!(g.levels(DIAMOND), 4);
        for (i, v) in [(1u16, 3.5f32), (2, 1.0), (3, 0.25)] {
            let idx = g.index(DIAMOND, i);
            g.set_flat(idx, v);
        }
        let idx = g.index(CAPTURE, 1);
        g.set_flat(idx, 7.0);
        let text = g.to_text("a test\nof two lines");
        assert!(text.starts_with(HEADER_V2), "{text}");
        let again = Gammas::parse(&text).unwrap();
        assert_eq!(again, g);
        // The move at C2 has the first diamond, so its strength carries 3.5.
        let b = board(&[".....", ".....", ".XO..", ".....", "....."]);
        let f = again.features(&b, Color::Black, b.point(2, 1));
        assert_eq!(f[DIAMOND], 1);
        let mut without = f;
        without[DIAMOND] = 0;
        let ratio = again.strength(&f) / again.strength(&without);
        assert!((ratio - 3.5).abs() < 1e-6, "{ratio}");
        // A diamond outside the table is rare: level 0, strength 1.
        let f = again.features(&b, Color::White, b.point(1, 1));
        assert_eq!(f[DIAMOND], 0);
        // A model without diamonds writes version 1, which the parser still reads.
        let v1 = Gammas::new().to_text("");
        assert!(v1.starts_with(HEADER_V1));
        assert_eq!(Gammas::parse(&v1).unwrap(), Gammas::new());
    }

    #[test]
    fn bad_version_2_files_are_rejected_with_the_line() {
        let [a, b, _] = some_diamonds()[..] else {
            unreachable!()
        };
        // A code that is not the least of its symmetry class.
        let not_canonical = (0..1u32 << 24)
            .find(|&c| !diamond::is_canonical(c))
            .unwrap();
        let bad = [
            (
                format!("diamond {a:#08x} 2.0\ndiamond {a:#08x} 3.0"),
                "line 4",
            ),
            (format!("diamond {not_canonical:#08x} 2.0"), "line 3"),
            ("diamond 0x1000000 2.0".to_string(), "line 3"),
            ("diamond zz 2.0".to_string(), "line 3"),
            (format!("capture 1 2.0\ndiamond {b:#08x} 0"), "line 4"),
            (format!("diamond {b:#08x}"), "line 3"),
        ];
        for (body, want) in &bad {
            let text = format!("{HEADER_V2}\n# c\n{body}\n");
            let e = Gammas::parse(&text).err();
            assert!(
                e.as_deref().is_some_and(|e| e.contains(want)),
                "{body}: {e:?}"
            );
        }
        // Diamonds under a version 1 header.
        let e = Gammas::parse(&format!("{HEADER_V1}\ndiamond {a:#08x} 2.0\n")).unwrap_err();
        assert!(e.contains("line 2") && e.contains(HEADER_V2), "{e}");
        assert!(Gammas::parse("quartet-go-mm 3\n")
            .unwrap_err()
            .contains("line 1"));
    }
}
