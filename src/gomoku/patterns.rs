//! Rapfi-style line patterns: what one colour gets in one direction by playing at an empty
//! cell, read from the 8 neighbour cells of that line in one table lookup, and the per-cell
//! class ([`Pattern4`]) that combines the four directions.
//!
//! The paper's 5-cell window sums cannot tell an open three from a closed one, nor see that
//! one cell makes threats in two directions; these patterns can, and the board keeps them
//! incrementally (see `Board::pattern`): a stone changes the key of only the 8 cells
//! `p +- k*dir` (k = 1..=4) of each direction, so a move costs 32 key updates and lookups.
//!
//! The upkeep costs the plain alpha-beta (which reads none of this) about a fifth of its
//! node rate, and the threat search, which places and takes back far more stones per
//! node, half of it, so the full engine pauses the upkeep there (`Board::pause_patterns`).
//! Measurements and the table layouts tried: docs/experiments/gomoku.md.
//!
//! The patterns follow the freestyle rule (five *or more* in a row) under every rule: they
//! are a heuristic for evaluation and move ordering. Standard and renju keep their exact win
//! and forbidden-point tests in `board.rs` and `renju.rs`.
use std::sync::OnceLock;

/// The shape one colour gets in ONE direction by playing at an empty cell, from the 9 cells
/// centred there (walls and opponent stones both block), counting only fives through the
/// centre. Ordered by strength; fits in 4 bits (the board packs four per `u16`).
///
/// Five and the fours count the empty cells that complete a five through the centre
/// (Flex4: two or more, Block4: one). Below that the rank is recursive: a line is Flex3 if one
/// more own stone can make it Flex4, else Block3 if one can make it Block4, and so on down
/// to Flex1/Block1; Dead if no five through the centre fits in the line at all.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pattern {
    Dead,
    Block1,
    Flex1,
    Block2,
    Flex2,
    Block3,
    Flex3,
    Block4,
    Flex4,
    Five,
}

impl Pattern {
    pub const ALL: [Pattern; 10] = [
        Pattern::Dead,
        Pattern::Block1,
        Pattern::Flex1,
        Pattern::Block2,
        Pattern::Flex2,
        Pattern::Block3,
        Pattern::Flex3,
        Pattern::Block4,
        Pattern::Flex4,
        Pattern::Five,
    ];

    /// The pattern of a 4-bit code (codes above 9 never occur; they read as Dead).
    #[inline]
    pub fn from_code(v: u8) -> Pattern {
        *Pattern::ALL.get(v as usize).unwrap_or(&Pattern::Dead)
    }

    /// What the class of a cell reads of this pattern, 0..=6: everything up to Block2 is 0
    /// (no class looks at it), then Flex2 = 1 ... Five = 6. Three bits, so four directions
    /// index a 4 KB class table that stays in L1 (a 64 KB one over the 4-bit patterns
    /// missed the cache on most moves).
    #[inline(always)]
    pub fn category(code: u8) -> u8 {
        code.saturating_sub(Pattern::Block2 as u8)
    }

    /// The same kind one stone further from a five (Flex4 -> Flex3, Block2 -> Block1, Dead
    /// stays Dead): the recursive step of the definition.
    fn down(self) -> Pattern {
        match self {
            Pattern::Five | Pattern::Dead | Pattern::Block1 | Pattern::Flex1 => Pattern::Dead,
            p => Pattern::ALL[p as usize - 2],
        }
    }
}

/// The combined class of an empty cell for one colour, from its four direction patterns.
/// Ordered by strength so that `>=` comparisons work (Five strongest). Occupied cells are
/// `None`.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pattern4 {
    None,
    /// Two or more Flex2.
    Flex2x2,
    /// A Block3 and another Block3 or a Flex2.
    Block3Plus,
    /// A Flex3 alone (nothing above Flex1/Block2 elsewhere).
    Flex3,
    /// A Flex3 and a Block3 or Flex2 in another direction.
    Flex3Plus,
    /// Two or more Flex3.
    Flex3x2,
    /// A Block4 alone.
    Block4,
    /// A Block4 and a Block3 or Flex2.
    Block4Plus,
    /// A Block4 and a Flex3 in another direction.
    Block4Flex3,
    /// A Flex4, or two Block4 in any directions: a five cannot be stopped.
    Flex4,
    Five,
}

pub const N_CLASSES: usize = 11;

impl Pattern4 {
    pub const ALL: [Pattern4; N_CLASSES] = [
        Pattern4::None,
        Pattern4::Flex2x2,
        Pattern4::Block3Plus,
        Pattern4::Flex3,
        Pattern4::Flex3Plus,
        Pattern4::Flex3x2,
        Pattern4::Block4,
        Pattern4::Block4Plus,
        Pattern4::Block4Flex3,
        Pattern4::Flex4,
        Pattern4::Five,
    ];

    /// The class of four direction patterns (Rapfi's priority order).
    pub fn combine(pats: [Pattern; 4]) -> Pattern4 {
        let mut n = [0u8; 10];
        for p in pats {
            n[p as usize] += 1;
        }
        let has = |p: Pattern| n[p as usize] > 0;
        let count = |p: Pattern| n[p as usize];
        let (b3, f2) = (count(Pattern::Block3), count(Pattern::Flex2));
        if has(Pattern::Five) {
            Pattern4::Five
        } else if has(Pattern::Flex4) || count(Pattern::Block4) >= 2 {
            Pattern4::Flex4
        } else if has(Pattern::Block4) {
            if has(Pattern::Flex3) {
                Pattern4::Block4Flex3
            } else if b3 + f2 > 0 {
                Pattern4::Block4Plus
            } else {
                Pattern4::Block4
            }
        } else if count(Pattern::Flex3) >= 2 {
            Pattern4::Flex3x2
        } else if has(Pattern::Flex3) {
            if b3 + f2 > 0 {
                Pattern4::Flex3Plus
            } else {
                Pattern4::Flex3
            }
        } else if b3 >= 1 && b3 + f2 >= 2 {
            Pattern4::Block3Plus
        } else if f2 >= 2 {
            Pattern4::Flex2x2
        } else {
            Pattern4::None
        }
    }
}

/// Line categories, indexed by [`Pattern::category`]: 0 (Block2 and weaker), Flex2, Block3,
/// Flex3, Block4, Flex4, Five.
pub const N_LINE_CATS: usize = 7;

/// What the evaluation reads of a colour's patterns, per colour ([`crate::color::Color::index`]):
/// how many empty cells are in each [`Pattern4`] class, and how many (empty cell, direction)
/// pairs are in each line category. The classes see what one cell makes over its four
/// lines; the line counts see what the classes fold away: an open two or closed three alone
/// on a cell (class None), and how many directions carry a three or four at all.
///
/// `code`: with pattern-code weights on the board ([`CodeTable`]), per colour the sum over
/// its empty cells of the weight of the cell's pattern code as the side to move (0) and as
/// the side waiting (1); zeros without.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PatternCounts {
    pub class: [[u16; N_CLASSES]; 2],
    pub line: [[u16; N_LINE_CATS]; 2],
    pub code: [[i32; 2]; 2],
}

impl PatternCounts {
    /// Colour `k`'s empty cell with class-table index `cats` (three bits per direction)
    /// joins the counts (`delta` 1) or leaves them (`u16::MAX`, a wrapping -1).
    #[inline(always)]
    pub fn add_cell(&mut self, k: usize, cats: u16, class: &[u8; 1 << 12], delta: u16) {
        self.add_cell_with::<false>(k, cats, class, delta, &NO_CODES);
    }

    /// [`PatternCounts::add_cell`], and with `CODES` the code sums from `codes`.
    #[inline(always)]
    pub fn add_cell_with<const CODES: bool>(
        &mut self,
        k: usize,
        cats: u16,
        class: &[u8; 1 << 12],
        delta: u16,
        codes: &CodeWeightsByIndex,
    ) {
        let i = cats as usize & 0xfff;
        let n = &mut self.class[k][class[i] as usize];
        *n = n.wrapping_add(delta);
        for d in 0..4 {
            let n = &mut self.line[k][(cats >> (3 * d)) as usize & 7];
            *n = n.wrapping_add(delta);
        }
        if CODES {
            let sign = delta as i16 as i32;
            self.code[k][0] += sign * codes[i][0] as i32;
            self.code[k][1] += sign * codes[i][1] as i32;
        }
    }

    /// Colour `k`'s empty cell went from categories `old` to `new`, which differ at most in
    /// direction `d` (a stone changes one direction of each cell it reaches). No branch on
    /// whether anything changed: equal indexes cancel.
    #[inline(always)]
    pub fn change(&mut self, k: usize, d: usize, old: u16, new: u16, class: &[u8; 1 << 12]) {
        self.change_with::<false>(k, d, old, new, class, &NO_CODES);
    }

    /// [`PatternCounts::change`], and with `CODES` the code sums from `codes`.
    #[inline(always)]
    pub fn change_with<const CODES: bool>(
        &mut self,
        k: usize,
        d: usize,
        old: u16,
        new: u16,
        class: &[u8; 1 << 12],
        codes: &CodeWeightsByIndex,
    ) {
        let (o, n) = (old as usize & 0xfff, new as usize & 0xfff);
        self.class[k][class[o] as usize] -= 1;
        self.class[k][class[n] as usize] += 1;
        self.line[k][o >> (3 * d) & 7] -= 1;
        self.line[k][n >> (3 * d) & 7] += 1;
        if CODES {
            self.code[k][0] += codes[n][0] as i32 - codes[o][0] as i32;
            self.code[k][1] += codes[n][1] as i32 - codes[o][1] as i32;
        }
    }
}

/// Number of pattern codes: the unordered combinations of a cell's four direction categories
/// (4 out of [`N_LINE_CATS`] with repetition, C(10, 4)).
pub const N_CODES: usize = 210;

/// Per class-table index (four categories, 3 bits each), the code weights of that cell as
/// the side to move and as the side waiting: one lookup per cell change instead of two.
pub type CodeWeightsByIndex = [[i16; 2]; 1 << 12];

/// The weights of no code model (never read: the sums are only kept with a table).
pub static NO_CODES: CodeWeightsByIndex = [[0; 2]; 1 << 12];

/// The per-cell pattern-code weights a board keeps its code sums with
/// ([`PatternCounts::code`]), expanded to the class-table index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeTable {
    pub by_index: Box<CodeWeightsByIndex>,
    /// The weight of each threat mask ([`super::eval::threat_mask`]).
    pub mask: Box<[i16; super::eval::N_MASKS]>,
}

impl CodeTable {
    /// The table of `mover` and `waiter` weights per pattern code and of `mask` weights per
    /// threat mask (each within i16; a short `mask` leaves the rest 0).
    pub fn new(mover: &[i32; N_CODES], waiter: &[i32; N_CODES], mask: &[i32]) -> CodeTable {
        let code = &tables().code;
        let mut by_index = Box::new([[0i16; 2]; 1 << 12]);
        for (i, w) in by_index.iter_mut().enumerate() {
            let k = code[i] as usize;
            *w = [mover[k] as i16, waiter[k] as i16];
        }
        let mut m = Box::new([0i16; super::eval::N_MASKS]);
        for (slot, &w) in m.iter_mut().zip(mask) {
            *slot = w as i16;
        }
        CodeTable { by_index, mask: m }
    }
}

/// The four categories of pattern code `k`, weakest first (the inverse of [`Tables::code`]).
pub fn code_cats(k: usize) -> [u8; 4] {
    let mut n = 0;
    for a in 0..7u8 {
        for b in a..7 {
            for c in b..7 {
                for d in c..7 {
                    if n == k {
                        return [a, b, c, d];
                    }
                    n += 1;
                }
            }
        }
    }
    panic!("pattern code {k} >= {N_CODES}")
}

/// The two lookup tables, built once per process.
pub struct Tables {
    /// Index: [`Tables::line_index`] of a line: a wall configuration (how many of the 8
    /// neighbours are off the board at the near end and at the far end, 5 x 5) times 3^8,
    /// plus the 8 neighbour cells in base 3 (digit i for slot i: 0 empty or wall, 1 black,
    /// 2 white). Value: black's [`Pattern`] code in the low nibble, white's in the high
    /// nibble, so one lookup serves both colours and nothing is swapped at run time.
    ///
    /// Why this shape: a table over raw 2-bit cells (64 KB) missed L1 on most lookups, and
    /// one base-3 key per colour took two lookups per cell. Off the board cells are always
    /// at the ends of a line (a straight line does not come back), so walls need only the
    /// configuration, and the interior slice (configuration 0, 6.5 KB) that nearly every
    /// lookup reads stays in L1.
    pub line: Box<[u8]>,
    /// Index: four direction categories ([`Pattern::category`]), 3 bits each (direction d
    /// in bits 3d..3d+3). Value: the [`Pattern4`] class.
    pub class: Box<[u8; 1 << 12]>,
    /// Index: as `class`. Value: the pattern code (0..[`N_CODES`]), the rank of the sorted
    /// four categories among all sorted quadruples ([`code_cats`]); index 0 (nothing above
    /// Block2 anywhere) is code 0.
    pub code: Box<[u8; 1 << 12]>,
}

/// Number of base-3 line keys (3^8).
pub const LINES: usize = 6561;

/// Powers of 3: the weight of slot i in a line key.
pub const POW3: [u16; 8] = [1, 3, 9, 27, 81, 243, 729, 2187];

impl Tables {
    /// The class of four direction patterns through the table (what the board reads).
    pub fn class_of(&self, pats: [Pattern; 4]) -> Pattern4 {
        let idx = (0..4).fold(0, |acc, d| {
            acc | (Pattern::category(pats[d] as u8) as usize) << (3 * d)
        });
        Pattern4::ALL[self.class[idx] as usize]
    }

    /// The wall configuration and base-3 key of a line from the raw values of its 8
    /// neighbour cells by slot (0 empty, 1 black, 2 white, 3 wall), or None if a wall is
    /// not at an end (no line on a board looks like that): how the board builds its first
    /// keys. The line's table index is `config * LINES + key`.
    pub fn line_index(raw: [u8; 8]) -> Option<(u8, u16)> {
        let near = raw.iter().take_while(|&&v| v == 3).count().min(4);
        let far = raw.iter().rev().take_while(|&&v| v == 3).count().min(4);
        let mut key = 0;
        for slot in 0..8 {
            match raw[slot] {
                3 if slot < near || slot >= 8 - far => {}
                3 => return None,
                v => key += v as u16 * POW3[slot],
            }
        }
        Some(((near * 5 + far) as u8, key))
    }
}

/// The slot, in the key of cell `q`, of the cell at offset `off` (`-4..=4`, not 0) along
/// the direction: offsets -4..-1 take slots 0..3, offsets 1..4 take slots 4..7.
#[inline(always)]
pub const fn slot_of(off: isize) -> usize {
    (if off < 0 { off + 4 } else { off + 3 }) as usize
}

/// The shared tables, built on first use (the first `Board::new`).
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

fn build() -> Tables {
    let mut memo = [u8::MAX; LINES];
    for t in 0..LINES {
        rank(t, &mut memo);
    }
    let mut line = vec![0u8; 25 * LINES].into_boxed_slice();
    for (idx, v) in line.iter_mut().enumerate() {
        let (config, key) = (idx / LINES, idx % LINES);
        let (near, far) = (config / 5, config % 5);
        let mut own = [0usize; 2];
        for (slot, &pow) in POW3.iter().enumerate() {
            let digit = key / pow as usize % 3;
            let wall = slot < near || slot >= 8 - far;
            for (c, k) in own.iter_mut().enumerate() {
                // Per colour: 0 empty, 1 own, 2 blocked (opponent or wall).
                let d = match digit {
                    _ if wall => 2,
                    0 => 0,
                    x if x == c + 1 => 1,
                    _ => 2,
                };
                *k += d * pow as usize;
            }
        }
        *v = memo[own[0]] | memo[own[1]] << 4;
    }
    let mut class = Box::new([0u8; 1 << 12]);
    for (idx, v) in class.iter_mut().enumerate() {
        // Category k > 0 stands for pattern k + 3; category 0 for Dead (same class).
        let pats = [0, 1, 2, 3].map(|d| match (idx >> (3 * d)) as u8 & 7 {
            0 => Pattern::Dead,
            k => Pattern::from_code(k + Pattern::Block2 as u8),
        });
        *v = Pattern4::combine(pats) as u8;
    }
    let mut code_of_cats = [[[[0u8; 7]; 7]; 7]; 7];
    for k in 0..N_CODES {
        let [a, b, c, d] = code_cats(k);
        code_of_cats[a as usize][b as usize][c as usize][d as usize] = k as u8;
    }
    let mut code = Box::new([0u8; 1 << 12]);
    for (idx, v) in code.iter_mut().enumerate() {
        let mut cats = [0, 1, 2, 3].map(|d| (idx >> (3 * d)) & 7);
        cats.sort_unstable();
        // Category 7 never occurs (3 bits hold 0..=6); such indexes keep code 0.
        if cats[3] < 7 {
            *v = code_of_cats[cats[0]][cats[1]][cats[2]][cats[3]];
        }
    }
    Tables { line, class, code }
}

/// The 9 cells of base-3 line `t` (centre own): 0 empty, 1 own, 2 blocked.
fn cells_of(t: usize) -> [u8; 9] {
    let mut cells = [1u8; 9];
    let mut t = t;
    for slot in 0..8 {
        let i = if slot < 4 { slot } else { slot + 1 };
        cells[i] = (t % 3) as u8;
        t /= 3;
    }
    cells
}

/// The base-3 code of 9 cells (the centre is skipped).
fn code_of(cells: &[u8; 9]) -> usize {
    let mut t = 0;
    for i in (0..9).rev().filter(|&i| i != 4) {
        t = t * 3 + cells[i] as usize;
    }
    t
}

/// Length of the run of own stones through the centre.
fn run_through_centre(cells: &[u8; 9]) -> usize {
    let right = cells[5..].iter().take_while(|&&x| x == 1).count();
    let left = cells[..4].iter().rev().take_while(|&&x| x == 1).count();
    1 + left + right
}

/// The pattern of base-3 line `t`, memoised: lines with more own stones first by recursion.
fn rank(t: usize, memo: &mut [u8; LINES]) -> u8 {
    if memo[t] != u8::MAX {
        return memo[t];
    }
    let mut cells = cells_of(t);
    let p = if run_through_centre(&cells) >= 5 {
        Pattern::Five
    } else {
        let mut completes = 0;
        let mut best = Pattern::Dead;
        for i in 0..9 {
            if cells[i] != 0 {
                continue;
            }
            cells[i] = 1;
            if run_through_centre(&cells) >= 5 {
                completes += 1;
            } else {
                best = best.max(Pattern::from_code(rank(code_of(&cells), memo)).down());
            }
            cells[i] = 0;
        }
        match completes {
            0 => best,
            1 => Pattern::Block4,
            _ => Pattern::Flex4,
        }
    };
    memo[t] = p as u8;
    p as u8
}
