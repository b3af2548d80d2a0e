//! The Gomoku board: a padded one-dimensional array, the rules of five, and the incremental
//! window tables the evaluation reads.
//!
//! Every 5-cell window (start cell, direction) that lies fully on the board keeps how many
//! black and white stones it holds. Placing a stone touches exactly the 20 windows through
//! it (4 directions x 5 offsets), so the tables and the summed evaluation are updated, not
//! recomputed: this is the "incremental line/pattern table" of the engine.
//!
//! Each cell also keeps, per direction, a 16-bit key of its 8 line neighbours and both
//! colours' line [`Pattern`]s and [`Pattern4`] classes (see [`super::patterns`]), updated
//! for the 32 cells a move changes, with per-colour counts of the empty cells in each class
//! and of the (empty cell, direction) pairs in each line category ([`PatternCounts`]).
use super::patterns::{
    slot_of, tables, CodeTable, CodeWeightsByIndex, Pattern, Pattern4, PatternCounts, Tables,
    LINES, N_CLASSES, N_LINE_CATS, POW3,
};
use crate::color::Color;
use std::sync::Arc;

pub const MIN_SIZE: usize = 5;
pub const MAX_SIZE: usize = 22;
pub const DEFAULT_SIZE: usize = 15;
/// Padding cells on each side, so `p +- 5*dir` never leaves the array.
const PAD: usize = 5;

/// A cell index into the padded array.
pub type Point = u16;

/// Which lines win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five wins, for both colours; overlines do not win.
    Standard,
    /// Black: exactly five wins, double-three, double-four and overline are forbidden.
    /// White: five or more wins.
    Renju,
}

impl Rule {
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
        }
    }
    pub fn parse(s: &str) -> Option<Rule> {
        match s.to_ascii_lowercase().as_str() {
            "freestyle" | "free" => Some(Rule::Freestyle),
            "standard" | "exact" | "exactfive" => Some(Rule::Standard),
            "renju" => Some(Rule::Renju),
            _ => None,
        }
    }
    /// Whether an unbroken line of `len >= 5` stones of `c` wins.
    #[inline]
    pub fn wins(self, c: Color, len: usize) -> bool {
        match (self, c) {
            (Rule::Freestyle, _) | (Rule::Renju, Color::White) => len >= 5,
            _ => len == 5,
        }
    }
}

pub fn valid_size(n: usize) -> bool {
    (MIN_SIZE..=MAX_SIZE).contains(&n)
}

const EMPTY: u8 = 0;
const WALL: u8 = 3;

#[inline]
pub fn cell_of(c: Color) -> u8 {
    match c {
        Color::Black => 1,
        Color::White => 2,
    }
}

/// The five-tuple table (the common published weights): a window through a point holding
/// `k` stones of the mover and none of the opponent (index 0 is the empty window).
pub const OWN: [i32; 5] = [7, 35, 800, 15_000, 800_000];
/// A window holding `k >= 1` stones of the opponent and none of the mover.
pub const OPP: [i32; 5] = [7, 15, 400, 1_800, 100_000];

/// Tuple score of a window with `own` and `other` stones, for the mover.
#[inline]
const fn tuple_score(own: u8, other: u8) -> i32 {
    // `min` is not const.
    if other == 0 {
        OWN[if own > 4 { 4 } else { own } as usize]
    } else if own == 0 {
        OPP[if other > 4 { 4 } else { other } as usize]
    } else {
        0
    }
}

/// Window weights of the sum evaluation (index = stones of one colour in a window free of
/// the other colour). Geometric so that one four outweighs many threes.
pub const EVAL_WEIGHT: [i32; 6] = [0, 1, 12, 150, 2500, 0];

/// What one window's change does when a stone enters or leaves it: the window's new
/// (black, white) counts, the lanes every cell of the window receives (see [`CellInfo`]),
/// and the changes of the eval sums and four-window counts. One table entry per (colour,
/// placed or removed, black count, white count), so a move's 20 window updates are table
/// reads instead of branches.
#[derive(Clone, Copy)]
struct WindowStep {
    counts: [u8; 2],
    live: bool,
    cells: [i32; 4],
    eval: [i32; 2],
    fours: [i16; 2],
}

/// Index: colour index * 2 + placed (1) or removed (0); then black * 6 + white counts.
static WINDOW_STEPS: [[WindowStep; 36]; 4] = window_steps();

const fn window_steps() -> [[WindowStep; 36]; 4] {
    const NONE: WindowStep = WindowStep {
        counts: [0, 0],
        live: false,
        cells: [0; 4],
        eval: [0; 2],
        fours: [0; 2],
    };
    let mut t = [[NONE; 36]; 4];
    let mut kind = 0;
    while kind < 4 {
        let (black, add) = (kind / 2 == 0, kind % 2 == 1);
        let mut i = 0;
        while i < 36 {
            let (b, w) = ((i / 6) as u8, (i % 6) as u8);
            // Counts a change cannot reach (a removal from an empty side, a sixth stone)
            // are never read; they stay NONE.
            let ok = match (black, add) {
                (true, true) => b < 5,
                (true, false) => b > 0,
                (false, true) => w < 5,
                (false, false) => w > 0,
            };
            if ok {
                let (nb, nw) = match (black, add) {
                    (true, true) => (b + 1, w),
                    (true, false) => (b - 1, w),
                    (false, true) => (b, w + 1),
                    (false, false) => (b, w - 1),
                };
                let old = window_value(b, w);
                let new = window_value(nb, nw);
                t[kind][i] = WindowStep {
                    counts: [nb, nw],
                    live: !(b != 0 && w != 0 && nb != 0 && nw != 0),
                    cells: [
                        tuple_score(nb, nw) - tuple_score(b, w),
                        tuple_score(nw, nb) - tuple_score(w, b),
                        pat_code(nb, nw).wrapping_sub(pat_code(b, w)) as i32,
                        pat_code(nw, nb).wrapping_sub(pat_code(w, b)) as i32,
                    ],
                    eval: [new[0] - old[0], new[1] - old[1]],
                    fours: [
                        (nb == 4 && nw == 0) as i16 - (b == 4 && w == 0) as i16,
                        (nw == 4 && nb == 0) as i16 - (w == 4 && b == 0) as i16,
                    ],
                };
            }
            i += 1;
        }
        kind += 1;
    }
    t
}

/// Eval-sum weight of a window with `b` black and `w` white stones, per colour.
const fn window_value(b: u8, w: u8) -> [i32; 2] {
    if w == 0 {
        [EVAL_WEIGHT[b as usize], 0]
    } else if b == 0 {
        [0, EVAL_WEIGHT[w as usize]]
    } else {
        [0, 0]
    }
}

#[derive(Clone)]
pub struct Board {
    size: usize,
    stride: usize,
    rule: Rule,
    cells: Vec<u8>,
    /// Per direction, per start cell: black and white counts, or `u8::MAX` if the window
    /// leaves the board.
    win_black: [Vec<u8>; 4],
    win_white: [Vec<u8>; 4],
    /// Stones within the 5x5 square around each cell: candidate moves have `near > 0`.
    near: Vec<u8>,
    dirs: [isize; 4],
    /// Sum over windows of `EVAL_WEIGHT`, per colour.
    eval_sum: [i32; 2],
    /// Windows holding 4 stones of one colour and none of the other, per colour: a
    /// non-zero count means that colour has a five to complete (exact under freestyle).
    fours: [u16; 2],
    /// Per cell, both colours' point scores and window counts (see [`CellInfo`]): one
    /// 16-byte record, so a move's updates and the candidate scan touch one cache line.
    info: Vec<CellInfo>,
    /// Stones per row and per column: the scan only visits the stones' bounding box.
    row_stones: Vec<u16>,
    col_stones: Vec<u16>,
    zobrist: Vec<[u64; 2]>,
    hash: u64,
    stones: usize,
    history: Vec<Point>,
    /// Per cell, the line keys and patterns of [`super::patterns`] (see [`LineInfo`]).
    lines: Vec<LineInfo>,
    /// Whether `lines` and `counts` are kept (see [`Board::track_patterns`]).
    tracking: bool,
    /// Per colour, how many empty on-board cells are in each [`Pattern4`] class, and how
    /// many of their directions in each line category.
    counts: PatternCounts,
    /// The shared pattern tables (a plain reference: no `OnceLock` check per move).
    tables: &'static Tables,
    /// The pattern-code weights whose sums `counts.code` keeps (see [`Board::set_codes`]).
    codes: Option<Arc<CodeTable>>,
}

/// The pattern record of one cell: 16 bytes, so a move's update of a cell touches one
/// cache line.
///
/// `key[d]`: the 8 neighbour cells along direction d in base 3 (black digit 1, white 2; a
/// stone adds or subtracts its digit), `wall[d]`: the wall configuration of that line (fixed
/// by the cell's position); see [`Tables::line`]. `cats[c]`: colour c's four
/// [`Pattern::category`] values, 3 bits per direction, the index of the class table (the
/// class is read from it, not stored). Both are kept for every cell, occupied or not (an
/// occupied cell's class reads as None and is not counted), so a take-back recomputes
/// nothing.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(16))]
struct LineInfo {
    key: [u16; 4],
    cats: [u16; 2],
    wall: [u8; 4],
}

impl LineInfo {
    /// Both colours' pattern codes in direction d (black low nibble, white high nibble).
    #[inline(always)]
    fn both(&self, line: &[u8], d: usize) -> u8 {
        line[self.wall[d] as usize * LINES + self.key[d] as usize]
    }

    /// Direction d's key after adding `delta` (a stone's digit times its slot's power of
    /// 3, wrapping for a removal), and both colours' class-table indexes with that
    /// direction's categories read from the new key.
    #[inline(always)]
    fn shifted(&self, line: &[u8], d: usize, delta: u16) -> (u16, [u16; 2]) {
        let key = self.key[d].wrapping_add(delta);
        let both = line[self.wall[d] as usize * LINES + key as usize] as u16;
        let shift = 3 * d as u32;
        let cat = |code: u16| (Pattern::category(code as u8 & 15) as u16) << shift;
        let cats = [
            self.cats[0] & !(7 << shift) | cat(both),
            self.cats[1] & !(7 << shift) | cat(both >> 4),
        ];
        (key, cats)
    }

    /// Both colours' class-table indexes, from the keys.
    #[inline(always)]
    fn cats_from_keys(&self, line: &[u8]) -> [u16; 2] {
        let mut cats = [0u16; 2];
        for d in 0..4 {
            let both = self.both(line, d);
            for (c, x) in cats.iter_mut().enumerate() {
                *x |= (Pattern::category(both >> (4 * c) & 15) as u16) << (3 * d);
            }
        }
        cats
    }
}

/// What the board keeps per cell for each colour (indexed by [`Color::index`]).
///
/// Lanes 0 and 1 (`score`): the paper's point score for that colour to move (sum of the
/// tuple table over the 20 windows through the cell), kept up to date per move.
/// Lanes 2 and 3 (`pat`, the bits of a `u32`): how many windows through the cell hold one,
/// two, three and four stones of that colour and none of the other, one count per byte (at
/// most 20 windows pass through a cell). Byte 3 non-zero on an empty cell = a five may be
/// completed there; byte 2 = a four may be made there. The threat search reads these
/// instead of scanning windows. One array of four lanes, so a move adds a window's change
/// to a cell in one vector add.
#[derive(Clone, Copy, Debug, Default)]
struct CellInfo {
    v: [i32; 4],
}

/// Lane-wise wrapping add (the `pat` lanes are bit patterns, not numbers).
#[inline(always)]
fn add_lanes(x: &mut [i32; 4], y: &[i32; 4]) {
    for l in 0..4 {
        x[l] = x[l].wrapping_add(y[l]);
    }
}

/// A window's contribution to [`Board::patterns`] for the colour with `own` stones.
#[inline]
const fn pat_code(own: u8, other: u8) -> u32 {
    if other != 0 || own == 0 || own == 5 {
        0
    } else {
        1 << (8 * (own as u32 - 1))
    }
}

/// The board's code weights when `CODES` (the caller checked there are some), else a table
/// that is never read.
#[inline(always)]
fn code_weights<const CODES: bool>(codes: &Option<Arc<CodeTable>>) -> &CodeWeightsByIndex {
    match codes {
        Some(t) if CODES => &t.by_index,
        _ => &super::patterns::NO_CODES,
    }
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Board {
    /// An empty board; `size` must satisfy [`valid_size`].
    pub fn new(size: usize, rule: Rule) -> Board {
        assert!(valid_size(size));
        let stride = size + PAD;
        let total = (size + 2 * PAD + 1) * stride;
        let mut cells = vec![WALL; total];
        for r in 0..size {
            for c in 0..size {
                cells[(r + PAD) * stride + c + PAD] = EMPTY;
            }
        }
        let dirs = [1, stride as isize, stride as isize + 1, stride as isize - 1];
        let mut win_black: [Vec<u8>; 4] = Default::default();
        for (d, &dir) in dirs.iter().enumerate() {
            win_black[d] = vec![u8::MAX; total];
            for (s, w) in win_black[d].iter_mut().enumerate() {
                let ok = (0..5).all(|k| {
                    let i = s as isize + k * dir;
                    i >= 0 && (i as usize) < total && cells[i as usize] == EMPTY
                });
                if ok {
                    *w = 0;
                }
            }
        }
        let win_white = win_black.clone();
        // Every window starts empty and scores OWN[0] for each of its cells.
        let mut pscore = vec![0i32; total];
        for (d, &dir) in dirs.iter().enumerate() {
            for s in 0..total {
                if win_black[d][s] == 0 {
                    for k in 0..5 {
                        pscore[(s as isize + k * dir) as usize] += OWN[0];
                    }
                }
            }
        }
        let mut seed = 0x0051_5741_5254_4554_u64;
        let zobrist = (0..total)
            .map(|_| [splitmix(&mut seed), splitmix(&mut seed)])
            .collect();
        Board {
            size,
            stride,
            rule,
            cells,
            win_black,
            win_white,
            near: vec![0; total],
            dirs,
            eval_sum: [0, 0],
            fours: [0, 0],
            info: pscore
                .iter()
                .map(|&v| CellInfo { v: [v, v, 0, 0] })
                .collect(),
            row_stones: vec![0; size],
            col_stones: vec![0; size],
            zobrist,
            hash: 0,
            stones: 0,
            history: Vec::new(),
            lines: Vec::new(),
            tracking: false,
            counts: PatternCounts::default(),
            tables: tables(),
            codes: None,
        }
    }

    /// The line records of an empty board, from the cells: keys near the edge hold the wall
    /// cells (cells beyond the padded array read as wall too; off-board cells' records are
    /// never read).
    fn initial_lines(
        cells: &[u8],
        dirs: &[isize; 4],
        t: &Tables,
        codes: Option<&CodeTable>,
    ) -> (Vec<LineInfo>, PatternCounts) {
        let total = cells.len() as isize;
        let mut counts = PatternCounts::default();
        let lines = (0..total)
            .map(|q| {
                let mut info = LineInfo::default();
                if cells[q as usize] == WALL {
                    return info;
                }
                for (d, &dir) in dirs.iter().enumerate() {
                    let mut raw = [WALL; 8];
                    for off in (-4..=4isize).filter(|&o| o != 0) {
                        let i = q + off * dir;
                        if (0..total).contains(&i) {
                            raw[slot_of(off)] = cells[i as usize];
                        }
                    }
                    let (wall, key) =
                        Tables::line_index(raw).expect("walls lie at the ends of a line");
                    info.wall[d] = wall;
                    info.key[d] = key;
                }
                info.cats = info.cats_from_keys(&t.line);
                if cells[q as usize] == EMPTY {
                    for c in 0..2 {
                        match codes {
                            Some(w) => counts.add_cell_with::<true>(
                                c,
                                info.cats[c],
                                &t.class,
                                1,
                                &w.by_index,
                            ),
                            None => counts.add_cell(c, info.cats[c], &t.class, 1),
                        }
                    }
                }
                info
            })
            .collect();
        (lines, counts)
    }

    /// Starts keeping the line patterns and classes (built from the cells now, then kept per
    /// move). Off by default: the upkeep costs about a fifth of the node rate, and only the
    /// pattern evaluation (`SearchConfig::patterns`) reads them. Idempotent.
    pub fn track_patterns(&mut self) {
        if !self.tracking {
            let (lines, counts) =
                Self::initial_lines(&self.cells, &self.dirs, self.tables, self.codes.as_deref());
            self.lines = lines;
            self.counts = counts;
            self.tracking = true;
        }
    }

    /// Keeps the sums of the pattern-code weights `codes` in [`Board::counts`] from now on
    /// (None: no sums, all zero). Rebuilds the pattern records if they are being kept and
    /// the table is another; the same table again costs nothing.
    pub fn set_codes(&mut self, codes: Option<Arc<CodeTable>>) {
        let same = match (&self.codes, &codes) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.codes = codes;
            if self.tracking {
                self.tracking = false;
                self.track_patterns();
            }
        }
    }

    /// The code sums ([`PatternCounts::code`]) recomputed from every empty cell's
    /// categories, for checks of the incremental ones. Needs [`Board::track_patterns`].
    pub fn code_sums_from_scratch(&self) -> [[i32; 2]; 2] {
        let mut sums = [[0; 2]; 2];
        if let Some(t) = &self.codes {
            for p in self.points() {
                if self.is_empty(p) {
                    for (k, s) in sums.iter_mut().enumerate() {
                        let w = t.by_index[self.lines[p as usize].cats[k] as usize & 0xfff];
                        s[0] += w[0] as i32;
                        s[1] += w[1] as i32;
                    }
                }
            }
        }
        sums
    }

    /// The class-table index of `p` for `c` (four direction categories, 3 bits each; see
    /// [`Tables::code`] for its pattern code). Needs [`Board::track_patterns`].
    #[inline]
    pub fn cats(&self, p: Point, c: Color) -> u16 {
        debug_assert!(self.tracking, "patterns read without track_patterns");
        self.lines[p as usize].cats[c.index()] & 0xfff
    }

    /// Stops keeping the line patterns until the next [`Board::track_patterns`], which
    /// rebuilds them from the cells (tens of microseconds): the threat search reads none of
    /// them, and their upkeep halved its node rate.
    pub fn pause_patterns(&mut self) {
        self.tracking = false;
    }

    /// Whether [`Board::track_patterns`] is on.
    pub fn tracks_patterns(&self) -> bool {
        self.tracking
    }

    pub fn size(&self) -> usize {
        self.size
    }
    pub fn rule(&self) -> Rule {
        self.rule
    }
    pub fn set_rule(&mut self, rule: Rule) {
        self.rule = rule;
    }
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// The hash the board would have after `c` plays `p`.
    pub fn hash_after(&self, p: Point, c: Color) -> u64 {
        self.hash ^ self.zobrist[p as usize][c.index()]
    }
    pub fn stone_count(&self) -> usize {
        self.stones
    }
    pub fn is_full(&self) -> bool {
        self.stones == self.size * self.size
    }
    pub fn history(&self) -> &[Point] {
        &self.history
    }
    pub fn dirs(&self) -> [isize; 4] {
        self.dirs
    }
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// Cell of 0-based (column, row), row 0 at the bottom.
    #[inline]
    pub fn point(&self, col: usize, row: usize) -> Point {
        ((row + PAD) * self.stride + col + PAD) as Point
    }
    #[inline]
    pub fn col_row(&self, p: Point) -> (usize, usize) {
        let p = p as usize;
        (p % self.stride - PAD, p / self.stride - PAD)
    }
    /// Every on-board cell, row by row from the bottom.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.size).flat_map(move |r| (0..self.size).map(move |c| self.point(c, r)))
    }
    #[inline]
    pub fn is_empty(&self, p: Point) -> bool {
        self.cells[p as usize] == EMPTY
    }
    #[inline]
    pub fn stone(&self, p: Point) -> Option<Color> {
        match self.cells[p as usize] {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }
    #[inline]
    pub fn raw(&self, i: isize) -> u8 {
        self.cells[i as usize]
    }
    #[inline]
    pub fn near(&self, p: Point) -> bool {
        self.near[p as usize] > 0
    }

    /// Sets a cell without touching the window tables, hash or history: the renju
    /// forbidden-point test places trial stones this way (it reads cells only), which is
    /// far cheaper than [`Board::place`]. The caller restores the cell.
    #[inline]
    pub(super) fn set_cell(&mut self, p: Point, v: u8) {
        self.cells[p as usize] = v;
    }

    /// Counts of (own, other) stones in window `d` starting at `s`; None off the board.
    #[inline]
    pub fn window(&self, d: usize, s: isize, c: Color) -> Option<(u8, u8)> {
        let b = self.win_black[d][s as usize];
        if b == u8::MAX {
            return None;
        }
        let w = self.win_white[d][s as usize];
        Some(match c {
            Color::Black => (b, w),
            Color::White => (w, b),
        })
    }

    fn update_windows(&mut self, p: Point, c: Color, add: bool) {
        for d in 0..4 {
            let dir = self.dirs[d];
            // The change of each of the 5 windows through `p` in this direction, as the
            // lanes (score black, score white, pat black, pat white) every cell of the
            // window receives. A cell at offset j from `p` lies in the windows k with
            // max(0, -j) <= k <= min(4, 4 - j), so with prefix sums over k the 9 cells of
            // the line take one add each instead of 5 adds per window (25 per direction):
            // this is most of the threat search's time.
            let mut delta = [[0i32; 4]; 5];
            let mut changed = false;
            let steps = &WINDOW_STEPS[c.index() * 2 + add as usize];
            for (k, dk) in delta.iter_mut().enumerate() {
                let s = (p as isize - k as isize * dir) as usize;
                let b = self.win_black[d][s];
                if b == u8::MAX {
                    continue;
                }
                let w = self.win_white[d][s];
                let st = &steps[b as usize * 6 + w as usize];
                self.win_black[d][s] = st.counts[0];
                self.win_white[d][s] = st.counts[1];
                if !st.live {
                    // Dead before and after (both colours in it): it scores nothing either
                    // way. Common in crowded positions.
                    continue;
                }
                *dk = st.cells;
                changed = true;
                for i in 0..2 {
                    self.eval_sum[i] += st.eval[i];
                    self.fours[i] = self.fours[i].wrapping_add(st.fours[i] as u16);
                }
            }
            if !changed {
                continue;
            }
            // Cell p - m*dir (m = 0..=4) lies in windows m..=4, cell p + m*dir in 0..=4-m.
            let mut suffix = [0i32; 4];
            let mut prefix = [0i32; 4];
            for m in 0..5 {
                add_lanes(&mut suffix, &delta[4 - m]);
                add_lanes(&mut prefix, &delta[m]);
                let before = (p as isize - (4 - m) as isize * dir) as usize;
                add_lanes(&mut self.info[before].v, &suffix);
                if m < 4 {
                    let after = (p as isize + (4 - m) as isize * dir) as usize;
                    add_lanes(&mut self.info[after].v, &prefix);
                }
            }
        }
        let stride = self.stride as isize;
        for dr in -2..=2isize {
            for dc in -2..=2isize {
                let q = (p as isize + dr * stride + dc) as usize;
                if add {
                    self.near[q] += 1;
                } else {
                    self.near[q] -= 1;
                }
            }
        }
    }

    /// Keeps the line keys, categories and class counts after a stone of `c` was placed at
    /// or removed from `p` (`cells[p]` already changed; `add` says which). Only the 8 cells
    /// `p +- k*dir` of each direction change, and only in that direction: per cell one add
    /// to the key and one lookup in the line table (both colours), and class-count updates
    /// (a 4 KB table) only for an empty cell whose categories changed. No loop over the
    /// board. Measured cost: see the module doc of `patterns.rs`.
    fn update_lines(&mut self, p: Point, c: Color, add: bool) {
        // One branch a move, not a cell: without code weights the upkeep is what it was.
        if self.codes.is_some() {
            self.update_lines_with::<true>(p, c, add);
        } else {
            self.update_lines_with::<false>(p, c, add);
        }
    }

    /// [`Board::update_lines`], with `CODES` keeping the code sums too.
    #[inline(always)]
    fn update_lines_with<const CODES: bool>(&mut self, p: Point, c: Color, add: bool) {
        let (line, class) = (&*self.tables.line, &*self.tables.class);
        let codes = code_weights::<CODES>(&self.codes);
        let digit = cell_of(c) as u16;
        // A removal subtracts, as a wrapping add.
        let digit = if add { digit } else { digit.wrapping_neg() };
        for d in 0..4 {
            let dir = self.dirs[d];
            for off in [-4isize, -3, -2, -1, 1, 2, 3, 4] {
                let q = (p as isize + off * dir) as usize;
                let info = &mut self.lines[q];
                // `p` lies at offset -off from `q`.
                let (key, new) = info.shifted(line, d, digit.wrapping_mul(POW3[slot_of(-off)]));
                let old = info.cats;
                info.key[d] = key;
                info.cats = new;
                // One branch per cell: most moves change no category of a cell (everything
                // up to Block2 is category 0), and occupied cells are not counted.
                if new != old && self.cells[q] == EMPTY {
                    for k in 0..2 {
                        self.counts
                            .change_with::<CODES>(k, d, old[k], new[k], class, codes);
                    }
                }
            }
        }
        // `p` itself leaves or rejoins the counts (its categories are always up to date).
        let info = &self.lines[p as usize];
        for k in 0..2 {
            self.counts.add_cell_with::<CODES>(
                k,
                info.cats[k],
                class,
                if add { u16::MAX } else { 1 },
                codes,
            );
        }
    }

    /// The [`Pattern`] that `c` gets in direction `d` (index into [`Board::dirs`]) by playing
    /// at the on-board cell `p`: an open three, a closed four... that the window sums cannot
    /// tell apart. Also right for an occupied cell (as if it were empty). Needs
    /// [`Board::track_patterns`], like [`Board::pattern4`] and [`Board::class_count`].
    #[inline]
    pub fn pattern(&self, p: Point, c: Color, d: usize) -> Pattern {
        debug_assert!(self.tracking, "patterns read without track_patterns");
        let both = self.lines[p as usize].both(&self.tables.line, d);
        Pattern::from_code(both >> (4 * c.index()) & 15)
    }

    /// The combined class of `p` for `c` (a four plus an open three, a double three...),
    /// kept per move so move ordering and threat detection need no scan; `None` for an
    /// occupied cell.
    #[inline]
    pub fn pattern4(&self, p: Point, c: Color) -> Pattern4 {
        debug_assert!(self.tracking, "patterns read without track_patterns");
        if self.cells[p as usize] != EMPTY {
            return Pattern4::None;
        }
        let idx = self.lines[p as usize].cats[c.index()] as usize & 0xfff;
        Pattern4::ALL[self.tables.class[idx] as usize]
    }

    /// How many empty cells are in class `k` for `c`: e.g. a non-zero Five count means `c`
    /// can complete a five (freestyle sense) in one move, without scanning the board.
    #[inline]
    pub fn class_count(&self, c: Color, k: Pattern4) -> u16 {
        debug_assert!(self.tracking, "patterns read without track_patterns");
        self.counts.class[c.index()][k as usize]
    }

    /// Both colours' class and line-category counts ([`Board::counts`]) that placing `c`
    /// at the empty `p` would give, without placing it: the same 32 key reads and table
    /// lookups as a move's update, but no writes and no take-back, so the full engine's
    /// leaves are valued like the plain ones (see [`Board::peek`]).
    /// Needs [`Board::track_patterns`].
    pub fn peek_counts(&self, p: Point, c: Color) -> PatternCounts {
        if self.codes.is_some() {
            self.peek_counts_with::<true>(p, c)
        } else {
            self.peek_counts_with::<false>(p, c)
        }
    }

    /// [`Board::peek_counts`], with `CODES` the code sums too.
    #[inline(always)]
    fn peek_counts_with<const CODES: bool>(&self, p: Point, c: Color) -> PatternCounts {
        debug_assert!(self.tracking, "patterns read without track_patterns");
        let (line, class) = (&*self.tables.line, &*self.tables.class);
        let codes = code_weights::<CODES>(&self.codes);
        let mut counts = self.counts;
        let digit = cell_of(c) as u16;
        for d in 0..4 {
            let dir = self.dirs[d];
            for off in [-4isize, -3, -2, -1, 1, 2, 3, 4] {
                let q = (p as isize + off * dir) as usize;
                if self.cells[q] != EMPTY {
                    continue;
                }
                let info = &self.lines[q];
                let (_, new) = info.shifted(line, d, digit * POW3[slot_of(-off)]);
                let old = info.cats;
                if new != old {
                    for k in 0..2 {
                        counts.change_with::<CODES>(k, d, old[k], new[k], class, codes);
                    }
                }
            }
        }
        let info = &self.lines[p as usize];
        for k in 0..2 {
            counts.add_cell_with::<CODES>(k, info.cats[k], class, u16::MAX, codes);
        }
        counts
    }

    /// Both colours' class counts now (see [`Board::peek_counts`]).
    #[inline]
    pub fn class_counts(&self) -> &[[u16; N_CLASSES]; 2] {
        debug_assert!(self.tracking, "patterns read without track_patterns");
        &self.counts.class
    }

    /// How many (empty cell, direction) pairs of `c` are in line category `k`
    /// ([`Pattern::category`]: 1 an open two ... 6 a five).
    #[inline]
    pub fn line_count(&self, c: Color, k: usize) -> u16 {
        debug_assert!(self.tracking, "patterns read without track_patterns");
        debug_assert!(k < N_LINE_CATS);
        self.counts.line[c.index()][k]
    }

    /// Both colours' class and line-category counts now.
    #[inline]
    pub fn counts(&self) -> &PatternCounts {
        debug_assert!(self.tracking, "patterns read without track_patterns");
        &self.counts
    }

    /// The window sums ([`Board::eval_sum`]) and open four-window counts
    /// ([`Board::four_windows`]) of both colours, indexed by [`Color::index`], that placing
    /// `c` at the empty `p` would give, without placing it: 20 window reads instead of the
    /// 100-odd table writes of [`Board::place`] and [`Board::undo`]. The search's leaves
    /// need nothing else.
    #[inline]
    pub fn peek(&self, p: Point, c: Color) -> ([i32; 2], [u16; 2]) {
        let mut ev = self.eval_sum;
        let mut fours = self.fours;
        for d in 0..4 {
            let dir = self.dirs[d];
            for k in 0..5 {
                let s = (p as isize - k * dir) as usize;
                let b = self.win_black[d][s];
                if b == u8::MAX {
                    continue;
                }
                let w = self.win_white[d][s];
                let (own, other) = match c {
                    Color::Black => (b, w),
                    Color::White => (w, b),
                };
                if other != 0 {
                    // Dead after the move; it scored for the other colour alone if this
                    // is the first stone of ours in it.
                    if own == 0 {
                        let oi = c.opponent().index();
                        ev[oi] -= EVAL_WEIGHT[other as usize];
                        fours[oi] -= (other == 4) as u16;
                    }
                    continue;
                }
                let ci = c.index();
                ev[ci] += EVAL_WEIGHT[own as usize + 1] - EVAL_WEIGHT[own as usize];
                fours[ci] = fours[ci] + (own == 3) as u16 - (own == 4) as u16;
            }
        }
        (ev, fours)
    }

    /// Places a stone on an empty on-board cell (no rule checks; see [`Board::is_forbidden`]).
    pub fn place(&mut self, p: Point, c: Color) {
        debug_assert!(self.is_empty(p));
        self.cells[p as usize] = cell_of(c);
        self.update_windows(p, c, true);
        if self.tracking {
            self.update_lines(p, c, true);
        }
        let (col, row) = self.col_row(p);
        self.row_stones[row] += 1;
        self.col_stones[col] += 1;
        self.hash ^= self.zobrist[p as usize][c.index()];
        self.stones += 1;
        self.history.push(p);
    }

    /// Takes back the last stone placed.
    pub fn undo(&mut self) -> Option<Point> {
        let p = self.history.pop()?;
        let c = self.stone(p).expect("history holds stones");
        self.cells[p as usize] = EMPTY;
        self.update_windows(p, c, false);
        if self.tracking {
            self.update_lines(p, c, false);
        }
        let (col, row) = self.col_row(p);
        self.row_stones[row] -= 1;
        self.col_stones[col] -= 1;
        self.hash ^= self.zobrist[p as usize][c.index()];
        self.stones -= 1;
        Some(p)
    }

    /// The columns and rows (first, last) holding stones, None on an empty board.
    pub fn stone_box(&self) -> Option<((usize, usize), (usize, usize))> {
        fn span(v: &[u16]) -> Option<(usize, usize)> {
            let lo = v.iter().position(|&n| n > 0)?;
            let hi = v.iter().rposition(|&n| n > 0)?;
            Some((lo, hi))
        }
        Some((span(&self.col_stones)?, span(&self.row_stones)?))
    }

    /// The paper's score of cell `p` for `c` to move (incremental).
    #[inline]
    pub fn point_score(&self, p: Point, c: Color) -> i32 {
        self.info[p as usize].v[c.index()]
    }

    /// Windows through `p` holding four of `c` and none of the other colour.
    #[inline]
    pub fn fours_at(&self, p: Point, c: Color) -> u8 {
        (self.info[p as usize].v[2 + c.index()] as u32 >> 24) as u8
    }

    /// The packed window counts of `p` for `c` (see the `pat` field): bytes 0..=3 count the
    /// windows through `p` with 1..=4 stones of `c` and none of the other colour.
    #[inline]
    pub fn patterns(&self, p: Point, c: Color) -> u32 {
        self.info[p as usize].v[2 + c.index()] as u32
    }

    /// Number of windows where `c` has four stones and the fifth cell is empty.
    #[inline]
    pub fn four_windows(&self, c: Color) -> u16 {
        self.fours[c.index()]
    }

    /// Sum of window weights for `c` (incremental).
    #[inline]
    pub fn eval_sum(&self, c: Color) -> i32 {
        self.eval_sum[c.index()]
    }

    /// Length of the unbroken line of `c` through `p` in direction `d`, counting `p` itself
    /// as `c` whatever it holds.
    #[inline]
    pub fn run(&self, p: Point, d: usize, c: Color) -> usize {
        let v = cell_of(c);
        let dir = self.dirs[d];
        let mut n = 1;
        let mut i = p as isize + dir;
        while self.cells[i as usize] == v {
            n += 1;
            i += dir;
        }
        let mut i = p as isize - dir;
        while self.cells[i as usize] == v {
            n += 1;
            i -= dir;
        }
        n
    }

    /// Whether a stone of `c` at `p` makes a winning line under the current rule.
    pub fn makes_five(&self, p: Point, c: Color) -> bool {
        (0..4).any(|d| self.rule.wins(c, self.run(p, d, c)))
    }

    /// Whether a stone of `c` at `p` makes any line of five or more (overline included).
    pub fn makes_five_or_more(&self, p: Point, c: Color) -> bool {
        (0..4).any(|d| self.run(p, d, c) >= 5)
    }
}
