//! The Go board: stones, strings with their liberty sets and counts, captures, simple ko
//! and Zobrist hashing, all in fixed-size arrays so a playout copies the board once and
//! never allocates.
//!
//! Points index a padded array of width `size + 2`, so every on-board point has four
//! neighbours and the border needs no bounds checks.
use crate::color::Color;

/// A point: an index into the padded array. Convert with [`Board::point`]/[`Board::col_row`].
pub type Point = usize;

pub const MAX_SIZE: usize = 19;
const MAX_WIDTH: usize = MAX_SIZE + 2;
/// Number of slots in the padded array of the largest board.
pub const MAX_POINTS: usize = MAX_WIDTH * MAX_WIDTH;
/// Captured points of the last move the board remembers: enough for every nakade shape.
pub const LAST_CAPTURED_KEPT: usize = 6;
/// 64-bit words of a set of points on the largest board.
const SET_WORDS: usize = MAX_POINTS.div_ceil(64);

/// A set of points, one bit per slot of the padded array: the liberties of strings, and
/// the unions of them tactics count (how many liberties a move would leave).
#[derive(Clone, Copy, Default)]
pub struct PointSet([u64; SET_WORDS]);

impl PointSet {
    #[inline]
    pub fn insert(&mut self, p: Point) {
        self.0[p >> 6] |= 1 << (p & 63);
    }

    #[inline]
    pub fn remove(&mut self, p: Point) {
        self.0[p >> 6] &= !(1 << (p & 63));
    }

    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        self.0[p >> 6] & (1 << (p & 63)) != 0
    }

    /// Points in the set, of a board whose sets take `words` words (see
    /// [`Board::set_words`]).
    #[inline]
    pub fn len(&self, words: usize) -> usize {
        self.0[..words]
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum()
    }
}

/// True for the sizes GTP `boardsize` accepts here.
pub fn valid_size(size: usize) -> bool {
    (2..=MAX_SIZE).contains(&size)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Move {
    Pass,
    Play(Point),
}

/// Contents of a slot of the padded array.
pub(crate) const EMPTY: u8 = 0;
pub(crate) const BORDER: u8 = 3;

#[inline]
pub(crate) fn cell(c: Color) -> u8 {
    c as u8 + 1
}

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Zobrist keys for [colour][point], fixed at compile time so hashes are reproducible.
static ZOBRIST: [[u64; MAX_POINTS]; 2] = {
    let mut keys = [[0u64; MAX_POINTS]; 2];
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < MAX_POINTS {
            keys[c][p] = splitmix((c * MAX_POINTS + p) as u64 * 7919 + 12345);
            p += 1;
        }
        c += 1;
    }
    keys
};

#[derive(Clone)]
pub struct Board {
    size: usize,
    width: usize,
    cells: [u8; MAX_POINTS],
    /// Head point of the string a stone belongs to.
    head: [u16; MAX_POINTS],
    /// Next stone of the same string (circular list).
    next: [u16; MAX_POINTS],
    /// Liberties and stone count, valid at a string's head.
    libs: [u16; MAX_POINTS],
    stones: [u16; MAX_POINTS],
    /// The liberties themselves, valid at a string's head: the string with head `h` owns
    /// words `h * set_words..(h + 1) * set_words`, so a small board's sets are packed at
    /// the front and copied with the rest of its used prefix.
    lib_sets: [u64; MAX_POINTS * SET_WORDS],
    /// Words a set needs on this board: 2 on 9x9, 7 on 19x19.
    set_words: usize,
    empties: [u16; MAX_POINTS],
    empty_pos: [u16; MAX_POINTS],
    n_empty: usize,
    /// Point forbidden to `ko_color` by the simple ko rule (0 = none).
    ko: usize,
    ko_color: Color,
    hash: u64,
    to_move: Color,
    captures: [u32; 2],
    stone_count: [u16; 2],
    last_move: Option<Move>,
    last2_move: Option<Move>,
    /// Stones the last move captured (how many, and the first [`LAST_CAPTURED_KEPT`]
    /// points): the playout pokes the eye a capture leaves (點眼).
    n_last_captured: u16,
    last_captured: [u16; LAST_CAPTURED_KEPT],
}

impl Board {
    /// An empty board. `size` must satisfy [`valid_size`]; larger sizes are clamped to 19.
    pub fn new(size: usize) -> Board {
        let size = size.clamp(1, MAX_SIZE);
        let width = size + 2;
        let mut b = Board {
            size,
            width,
            cells: [BORDER; MAX_POINTS],
            head: [0; MAX_POINTS],
            next: [0; MAX_POINTS],
            libs: [0; MAX_POINTS],
            stones: [0; MAX_POINTS],
            lib_sets: [0; MAX_POINTS * SET_WORDS],
            set_words: (width * width).div_ceil(64),
            empties: [0; MAX_POINTS],
            empty_pos: [0; MAX_POINTS],
            n_empty: 0,
            ko: 0,
            ko_color: Color::Black,
            hash: 0,
            to_move: Color::Black,
            captures: [0; 2],
            stone_count: [0; 2],
            last_move: None,
            last2_move: None,
            n_last_captured: 0,
            last_captured: [0; LAST_CAPTURED_KEPT],
        };
        for row in 0..size {
            for col in 0..size {
                let p = b.point(col, row);
                b.cells[p] = EMPTY;
                b.empty_pos[p] = b.n_empty as u16;
                b.empties[b.n_empty] = p as u16;
                b.n_empty += 1;
            }
        }
        b
    }

    /// Makes this board a copy of `src`, as `*self = src.clone()` would, but copies only
    /// the part of the arrays a board of this size uses (a quarter of them on 9x9): ladder
    /// reading and every simulation copy boards, and the whole arrays are 7.5 KB.
    pub fn copy_from(&mut self, src: &Board) {
        if self.size != src.size {
            *self = src.clone();
            return;
        }
        // Naming every field makes a new one a compile error here until it is copied.
        let Board {
            size: _,
            width: _,
            cells,
            head,
            next,
            libs,
            stones,
            lib_sets,
            set_words: _,
            empties,
            empty_pos,
            n_empty,
            ko,
            ko_color,
            hash,
            to_move,
            captures,
            stone_count,
            last_move,
            last2_move,
            n_last_captured,
            last_captured,
        } = src;
        let used = self.width * self.width;
        self.cells[..used].copy_from_slice(&cells[..used]);
        self.head[..used].copy_from_slice(&head[..used]);
        self.next[..used].copy_from_slice(&next[..used]);
        self.libs[..used].copy_from_slice(&libs[..used]);
        self.stones[..used].copy_from_slice(&stones[..used]);
        let words = used * self.set_words;
        self.lib_sets[..words].copy_from_slice(&lib_sets[..words]);
        self.empty_pos[..used].copy_from_slice(&empty_pos[..used]);
        self.empties[..*n_empty].copy_from_slice(&empties[..*n_empty]);
        self.n_empty = *n_empty;
        self.ko = *ko;
        self.ko_color = *ko_color;
        self.hash = *hash;
        self.to_move = *to_move;
        self.captures = *captures;
        self.stone_count = *stone_count;
        self.last_move = *last_move;
        self.last2_move = *last2_move;
        self.n_last_captured = *n_last_captured;
        self.last_captured = *last_captured;
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// Stride of the padded array: `point(c, r + 1) == point(c, r) + width()`.
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    /// The point at 0-based `col`, `row` (row 0 is the bottom row, GTP row 1).
    #[inline]
    pub fn point(&self, col: usize, row: usize) -> Point {
        (row + 1) * self.width + col + 1
    }

    #[inline]
    pub fn col_row(&self, p: Point) -> (usize, usize) {
        (p % self.width - 1, p / self.width - 1)
    }

    /// Every on-board point, bottom row first.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.size).flat_map(move |r| (0..self.size).map(move |c| self.point(c, r)))
    }

    #[inline]
    pub fn is_on_board(&self, p: Point) -> bool {
        p < MAX_POINTS && self.cells[p] != BORDER
    }

    #[inline]
    pub fn stone(&self, p: Point) -> Option<Color> {
        match self.cells[p] {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }

    /// What stands at `p` in two bits: 0 empty, 1 black, 2 white, 3 off the board (the
    /// codes 3x3 patterns are indexed by).
    #[inline]
    pub fn cell_code(&self, p: Point) -> u8 {
        self.cells[p]
    }

    #[inline]
    pub fn is_empty(&self, p: Point) -> bool {
        self.cells[p] == EMPTY
    }

    #[inline]
    pub fn neighbors(&self, p: Point) -> [Point; 4] {
        [p - self.width, p - 1, p + 1, p + self.width]
    }

    #[inline]
    pub fn diagonals(&self, p: Point) -> [Point; 4] {
        [
            p - self.width - 1,
            p - self.width + 1,
            p + self.width - 1,
            p + self.width + 1,
        ]
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }

    pub fn set_to_move(&mut self, c: Color) {
        self.to_move = c;
    }

    /// Hash of the stones alone (what positional superko compares).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn ko_point(&self) -> Option<Point> {
        (self.ko != 0).then_some(self.ko)
    }

    /// Stones captured so far by `c`.
    pub fn captures(&self, c: Color) -> u32 {
        self.captures[c.index()]
    }

    pub fn last_move(&self) -> Option<Move> {
        self.last_move
    }

    pub fn last2_move(&self) -> Option<Move> {
        self.last2_move
    }

    /// How many stones the last move captured, and (when there were at most
    /// [`LAST_CAPTURED_KEPT`]) where they stood; an empty slice when there were more.
    pub fn last_captured(&self) -> (usize, &[u16]) {
        let n = self.n_last_captured as usize;
        let kept = if n <= LAST_CAPTURED_KEPT { n } else { 0 };
        (n, &self.last_captured[..kept])
    }

    #[inline]
    pub fn empty_points(&self) -> &[u16] {
        &self.empties[..self.n_empty]
    }

    /// Liberties of the string through `p` (0 for an empty point).
    #[inline]
    pub fn libs(&self, p: Point) -> usize {
        if self.cells[p] == EMPTY || self.cells[p] == BORDER {
            0
        } else {
            self.libs[self.head[p] as usize] as usize
        }
    }

    /// Stones in the string through `p`.
    #[inline]
    pub fn string_len(&self, p: Point) -> usize {
        self.stones[self.head[p] as usize] as usize
    }

    #[inline]
    pub fn string_head(&self, p: Point) -> Point {
        self.head[p] as usize
    }

    /// Calls `f` on every stone of the string through `p`.
    pub fn for_each_stone(&self, p: Point, mut f: impl FnMut(Point)) {
        let mut q = p;
        loop {
            f(q);
            q = self.next[q] as usize;
            if q == p {
                break;
            }
        }
    }

    /// Calls `f` on the stones of the string through `p` until it returns true; returns
    /// whether it did.
    #[inline]
    pub fn any_stone(&self, p: Point, mut f: impl FnMut(Point) -> bool) -> bool {
        let mut q = p;
        loop {
            if f(q) {
                return true;
            }
            q = self.next[q] as usize;
            if q == p {
                return false;
            }
        }
    }

    /// The liberty of a string in atari, or `None` if it has more liberties (or none).
    pub fn atari_lib(&self, p: Point) -> Option<Point> {
        if self.libs(p) != 1 {
            return None;
        }
        self.first_lib(p)
    }

    /// A liberty of the string through `s` other than `p`, if any (the lowest-numbered).
    pub fn lib_other_than(&self, s: Point, p: Point) -> Option<Point> {
        let h = self.head[s] as usize;
        let w = self.set_words;
        for (i, &word) in self.lib_sets[h * w..h * w + w].iter().enumerate() {
            let mut bits = word;
            if p >> 6 == i {
                bits &= !(1 << (p & 63));
            }
            if bits != 0 {
                return Some(i * 64 + bits.trailing_zeros() as usize);
            }
        }
        None
    }

    /// Words of this board's point sets, for [`PointSet::len`].
    #[inline]
    pub fn set_words(&self) -> usize {
        self.set_words
    }

    /// Adds the liberties of the string through `p` to `set`.
    #[inline]
    pub fn add_libs_to(&self, p: Point, set: &mut PointSet) {
        let h = self.head[p] as usize;
        let w = self.set_words;
        for (a, &b) in set.0[..w].iter_mut().zip(&self.lib_sets[h * w..h * w + w]) {
            *a |= b;
        }
    }

    /// Makes `p` a liberty of the string with head `h`; returns whether it was not one.
    #[inline]
    fn gain_lib(&mut self, h: Point, p: Point) -> bool {
        let word = &mut self.lib_sets[h * self.set_words + (p >> 6)];
        let bit = 1 << (p & 63);
        let new = *word & bit == 0;
        *word |= bit;
        new
    }

    /// Takes the liberty `p` from the string with head `h`; returns whether it was one.
    #[inline]
    fn lose_lib(&mut self, h: Point, p: Point) -> bool {
        let word = &mut self.lib_sets[h * self.set_words + (p >> 6)];
        let bit = 1 << (p & 63);
        let had = *word & bit != 0;
        *word &= !bit;
        had
    }

    fn clear_libs(&mut self, h: Point) {
        let w = self.set_words;
        self.lib_sets[h * w..h * w + w].fill(0);
    }

    fn count_libs(&self, h: Point) -> u16 {
        let w = self.set_words;
        self.lib_sets[h * w..h * w + w]
            .iter()
            .map(|x| x.count_ones() as u16)
            .sum()
    }

    /// Stones of `c` on the board.
    pub fn stone_count(&self, c: Color) -> usize {
        self.stone_count[c.index()] as usize
    }

    fn first_lib(&self, p: Point) -> Option<Point> {
        let h = self.head[p] as usize;
        let w = self.set_words;
        self.lib_sets[h * w..h * w + w]
            .iter()
            .position(|&x| x != 0)
            .map(|i| i * 64 + self.lib_sets[h * w + i].trailing_zeros() as usize)
    }

    /// Up to two liberties of the string through `p` (for ladder and atari logic), in the
    /// order a walk of its stones meets them, not read from the liberty set: the ladder
    /// reader and the playouts try them in this order, and their choices depend on it.
    pub fn two_libs(&self, p: Point) -> [Option<Point>; 2] {
        let mut out = [None; 2];
        let mut q = p;
        loop {
            for n in self.neighbors(q) {
                if self.cells[n] == EMPTY {
                    match out[0] {
                        None => out[0] = Some(n),
                        Some(f) if f != n => {
                            out[1] = Some(n);
                            return out;
                        }
                        _ => {}
                    }
                }
            }
            q = self.next[q] as usize;
            if q == p {
                return out;
            }
        }
    }

    /// Whether `c` may play at `p`: empty, not the simple-ko point, and not suicide.
    /// Positional superko is checked by [`crate::go::game::Game`], not here.
    #[inline]
    pub fn is_legal(&self, c: Color, p: Point) -> bool {
        if self.cells[p] != EMPTY || p == self.ko && c == self.ko_color {
            return false;
        }
        !self.is_suicide(c, p)
    }

    /// Whether a stone of `c` at empty `p` would have no liberties after captures.
    #[inline]
    pub fn is_suicide(&self, c: Color, p: Point) -> bool {
        let own = cell(c);
        for n in self.neighbors(p) {
            let v = self.cells[n];
            if v == EMPTY {
                return false;
            }
            if v == BORDER {
                continue;
            }
            let l = self.libs[self.head[n] as usize];
            if (v == own) == (l > 1) {
                // A friend with a spare liberty, or an enemy we capture.
                return false;
            }
        }
        true
    }

    /// Whether `p` is an eye of `c` that `c` should never fill: all neighbours are `c` (or
    /// edge) and the diagonals do not let the opponent make it false (at most one enemy
    /// diagonal in the middle, none on the edge).
    #[inline]
    pub fn is_eye(&self, c: Color, p: Point) -> bool {
        if self.cells[p] != EMPTY {
            return false;
        }
        let own = cell(c);
        for n in self.neighbors(p) {
            let v = self.cells[n];
            if v != own && v != BORDER {
                return false;
            }
        }
        let enemy = cell(c.opponent());
        let mut bad = 0;
        let mut edge = false;
        for d in self.diagonals(p) {
            let v = self.cells[d];
            if v == enemy {
                bad += 1;
            } else if v == BORDER {
                edge = true;
            }
        }
        if edge {
            bad == 0
        } else {
            bad <= 1
        }
    }

    /// Plays a move already known to be legal (see [`Board::is_legal`]).
    pub fn play_legal(&mut self, c: Color, mv: Move) {
        self.last2_move = self.last_move;
        self.last_move = Some(mv);
        self.to_move = c.opponent();
        self.n_last_captured = 0;
        match mv {
            Move::Pass => self.ko = 0,
            Move::Play(p) => self.place(c, p),
        }
    }

    /// Plays `mv` for `c` if it is legal under the board's rules (no superko); returns whether
    /// it was played. An illegal move leaves the board unchanged.
    pub fn play(&mut self, c: Color, mv: Move) -> bool {
        if let Move::Play(p) = mv {
            if !self.is_on_board(p) || !self.is_legal(c, p) {
                return false;
            }
        }
        self.play_legal(c, mv);
        true
    }

    fn place(&mut self, c: Color, p: Point) {
        let own = cell(c);
        let enemy = cell(c.opponent());
        self.remove_empty(p);
        self.cells[p] = own;
        self.head[p] = p as u16;
        self.next[p] = p as u16;
        self.stones[p] = 1;
        self.libs[p] = 0;
        self.clear_libs(p);
        self.stone_count[c.index()] += 1;
        self.hash ^= ZOBRIST[c.index()][p];

        // Every enemy string next to p loses the liberty p, once: a string touching p twice
        // no longer has it the second time.
        let mut captured = 0usize;
        let mut ko_candidate = 0usize;
        let nbrs = self.neighbors(p);
        for n in nbrs {
            if self.cells[n] != enemy {
                continue;
            }
            let h = self.head[n] as usize;
            if !self.lose_lib(h, p) {
                continue;
            }
            self.libs[h] -= 1;
            if self.libs[h] == 0 {
                let len = self.stones[h] as usize;
                captured += len;
                ko_candidate = n;
                self.remove_string(h, c);
            }
        }
        self.captures[c.index()] += captured as u32;

        // Friendly strings around p: the common single-string case is updated in place
        // (p stops being a liberty, p's empty neighbours not yet liberties become ones);
        // joining two or more strings counts the union of their sets.
        let mut friend = 0usize;
        let mut several = false;
        for n in nbrs {
            if self.cells[n] == own {
                let h = self.head[n] as usize;
                if friend == 0 {
                    friend = h;
                } else if h != friend {
                    several = true;
                }
            }
        }
        // Captures above already gave p's string (and its friends) the points they freed.
        let h = if friend == 0 {
            for n in nbrs {
                if self.cells[n] == EMPTY && self.gain_lib(p, n) {
                    self.libs[p] += 1;
                }
            }
            p
        } else if !several {
            let mut libs = self.libs[friend] - 1;
            for n in nbrs {
                if self.cells[n] == EMPTY && self.gain_lib(friend, n) {
                    libs += 1;
                }
            }
            self.lose_lib(friend, p);
            self.merge(friend, p);
            let h = self.head[p] as usize;
            self.libs[h] = libs;
            h
        } else {
            for n in nbrs {
                if self.cells[n] == EMPTY {
                    self.gain_lib(p, n);
                }
            }
            for n in nbrs {
                if self.cells[n] == own && self.head[n] != self.head[p] {
                    self.merge(p, n);
                }
            }
            let h = self.head[p] as usize;
            self.lose_lib(h, p);
            self.libs[h] = self.count_libs(h);
            h
        };
        self.ko = if captured == 1 && self.stones[h] == 1 && self.libs[h] == 1 {
            self.ko_color = c.opponent();
            ko_candidate
        } else {
            0
        };
    }

    /// Merges the string through `b` into the string through `a`, liberty sets included
    /// (the caller sets the liberty count).
    fn merge(&mut self, a: Point, b: Point) {
        let (mut ha, mut hb) = (self.head[a] as usize, self.head[b] as usize);
        if self.stones[ha] < self.stones[hb] {
            std::mem::swap(&mut ha, &mut hb);
        }
        let mut q = hb;
        loop {
            self.head[q] = ha as u16;
            q = self.next[q] as usize;
            if q == hb {
                break;
            }
        }
        self.next.swap(ha, hb);
        self.stones[ha] += self.stones[hb];
        let w = self.set_words;
        for i in 0..w {
            self.lib_sets[ha * w + i] |= self.lib_sets[hb * w + i];
        }
    }

    /// Rebuilds the liberty set and count of the string with head `h` from its stones.
    fn recount_libs(&mut self, h: Point) {
        self.clear_libs(h);
        let mut q = h;
        loop {
            for n in self.neighbors(q) {
                if self.cells[n] == EMPTY {
                    self.gain_lib(h, n);
                }
            }
            q = self.next[q] as usize;
            if q == h {
                break;
            }
        }
        self.libs[h] = self.count_libs(h);
    }

    /// Removes a captured string; each capturer string next to a freed point gains it.
    fn remove_string(&mut self, h: Point, capturer: Color) {
        let victim = capturer.opponent();
        let mut q = h;
        loop {
            let nx = self.next[q] as usize;
            if (self.n_last_captured as usize) < LAST_CAPTURED_KEPT {
                self.last_captured[self.n_last_captured as usize] = q as u16;
            }
            self.n_last_captured = self.n_last_captured.saturating_add(1);
            self.cells[q] = EMPTY;
            self.stone_count[victim.index()] -= 1;
            self.hash ^= ZOBRIST[victim.index()][q];
            self.add_empty(q);
            for n in self.neighbors(q) {
                if self.cells[n] == cell(capturer) {
                    let hn = self.head[n] as usize;
                    if self.gain_lib(hn, q) {
                        self.libs[hn] += 1;
                    }
                }
            }
            q = nx;
            if q == h {
                break;
            }
        }
    }

    #[inline]
    fn remove_empty(&mut self, p: Point) {
        let i = self.empty_pos[p] as usize;
        self.n_empty -= 1;
        let last = self.empties[self.n_empty];
        self.empties[i] = last;
        self.empty_pos[last as usize] = i as u16;
    }

    #[inline]
    fn add_empty(&mut self, p: Point) {
        self.empty_pos[p] = self.n_empty as u16;
        self.empties[self.n_empty] = p as u16;
        self.n_empty += 1;
    }

    /// Area (Chinese, Tromp–Taylor) count: black stones and empty regions reaching only black,
    /// minus the same for white. Komi is not included.
    pub fn area_balance(&self) -> i32 {
        let mut owner = [0u8; MAX_POINTS];
        self.fill_area_owner(&mut owner);
        let mut balance = 0;
        for p in self.points() {
            match owner[p] {
                1 => balance += 1,
                2 => balance -= 1,
                _ => {}
            }
        }
        balance
    }

    /// For each point: 1 black area, 2 white area, 0 neutral (dame or empty touching both).
    pub fn fill_area_owner(&self, owner: &mut [u8; MAX_POINTS]) {
        let mut seen = [false; MAX_POINTS];
        let mut stack = [0u16; MAX_POINTS];
        let mut region = [0u16; MAX_POINTS];
        for p in self.points() {
            let v = self.cells[p];
            if v != EMPTY {
                owner[p] = v;
                continue;
            }
            if seen[p] {
                continue;
            }
            // Flood the empty region, noting which colours it touches.
            let (mut sp, mut rn, mut touches) = (0, 0, 0u8);
            stack[sp] = p as u16;
            sp += 1;
            seen[p] = true;
            while sp > 0 {
                sp -= 1;
                let q = stack[sp] as usize;
                region[rn] = q as u16;
                rn += 1;
                for n in self.neighbors(q) {
                    match self.cells[n] {
                        EMPTY if !seen[n] => {
                            seen[n] = true;
                            stack[sp] = n as u16;
                            sp += 1;
                        }
                        1 => touches |= 1,
                        2 => touches |= 2,
                        _ => {}
                    }
                }
            }
            let o = if touches == 1 || touches == 2 {
                touches
            } else {
                0
            };
            for &q in &region[..rn] {
                owner[q as usize] = o;
            }
        }
    }

    /// Removes a stone without capture logic; used to take dead stones off before scoring
    /// and by set-up code. Rebuilds string data, so it is slow but exact.
    pub fn remove_stones(&mut self, points: &[Point]) {
        let mut stones: Vec<(Color, Point)> = Vec::new();
        for p in self.points() {
            if let Some(c) = self.stone(p) {
                if !points.contains(&p) {
                    stones.push((c, p));
                }
            }
        }
        self.rebuild(&stones);
    }

    /// Puts set-up stones (handicap, SGF `AB`/`AW`) on the board. Returns false and changes
    /// nothing if a point is off the board or occupied, or if a string would have no liberty.
    pub fn add_setup_stones(&mut self, add: &[(Color, Point)]) -> bool {
        let mut stones: Vec<(Color, Point)> = Vec::new();
        for p in self.points() {
            if let Some(c) = self.stone(p) {
                stones.push((c, p));
            }
        }
        for &(c, p) in add {
            if !self.is_on_board(p) || stones.iter().any(|&(_, q)| q == p) {
                return false;
            }
            stones.push((c, p));
        }
        let mut copy = self.clone();
        copy.rebuild(&stones);
        let alive = copy
            .points()
            .all(|p| copy.stone(p).is_none() || copy.libs(p) > 0);
        if alive {
            *self = copy;
        }
        alive
    }

    fn rebuild(&mut self, stones: &[(Color, Point)]) {
        let (to_move, captures, last, last2) =
            (self.to_move, self.captures, self.last_move, self.last2_move);
        *self = Board::new(self.size);
        for &(c, p) in stones {
            // Placing stone by stone cannot capture: set-ups were checked for liberties.
            self.remove_empty(p);
            self.cells[p] = cell(c);
            self.head[p] = p as u16;
            self.next[p] = p as u16;
            self.stones[p] = 1;
            self.stone_count[c.index()] += 1;
            self.hash ^= ZOBRIST[c.index()][p];
            for n in self.neighbors(p) {
                if self.cells[n] == cell(c) && self.head[n] != self.head[p] {
                    self.merge(p, n);
                }
            }
        }
        let heads: Vec<Point> = self
            .points()
            .filter(|&p| self.stone(p).is_some() && self.head[p] as usize == p)
            .collect();
        for h in heads {
            self.recount_libs(h);
        }
        self.to_move = to_move;
        self.captures = captures;
        self.last_move = last;
        self.last2_move = last2;
    }

    /// Stones of a diagram written top row first (`X` black, `O` white, anything else
    /// empty) on a board as wide as the diagram is tall; for tests and examples.
    pub fn diagram_stones(&self, rows: &[&str]) -> Vec<(Color, Point)> {
        let size = rows.len().min(self.size);
        let mut stones = Vec::new();
        for (i, row) in rows.iter().take(size).enumerate() {
            for (col, ch) in row.chars().take(self.size).enumerate() {
                let p = self.point(col, size - 1 - i);
                match ch {
                    'X' => stones.push((Color::Black, p)),
                    'O' => stones.push((Color::White, p)),
                    _ => {}
                }
            }
        }
        stones
    }

    /// A board from a diagram (see [`Board::diagram_stones`]); `None` if a string would
    /// have no liberty or the size is not playable.
    pub fn from_diagram(rows: &[&str]) -> Option<Board> {
        if !valid_size(rows.len()) {
            return None;
        }
        let mut b = Board::new(rows.len());
        let stones = b.diagram_stones(rows);
        b.add_setup_stones(&stones).then_some(b)
    }

    /// Text diagram, top row first, `X` black, `O` white, `.` empty.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for row in (0..self.size).rev() {
            for col in 0..self.size {
                s.push(match self.stone(self.point(col, row)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                });
            }
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Liberties of the string at `p` found by a flood fill that shares nothing with the
    /// incremental bookkeeping.
    fn flood_libs(b: &Board, p: Point) -> usize {
        flood_lib_points(b, p).len()
    }

    /// The liberties of the string through `p`, by flood fill, in increasing order.
    fn flood_lib_points(b: &Board, p: Point) -> Vec<Point> {
        let c = b.stone(p).unwrap();
        let mut seen = vec![false; MAX_POINTS];
        let mut libs = vec![false; MAX_POINTS];
        let mut stack = vec![p];
        seen[p] = true;
        while let Some(q) = stack.pop() {
            for n in b.neighbors(q) {
                if b.stone(n) == Some(c) && !seen[n] {
                    seen[n] = true;
                    stack.push(n);
                } else if b.is_empty(n) {
                    libs[n] = true;
                }
            }
        }
        (0..MAX_POINTS).filter(|&q| libs[q]).collect()
    }

    /// Checks every string's liberty set, and the liberties read from it, against a flood
    /// fill.
    fn check_lib_sets(b: &Board) {
        for p in b.points() {
            if b.stone(p).is_none() {
                continue;
            }
            let want = flood_lib_points(b, p);
            let mut set = PointSet::default();
            b.add_libs_to(p, &mut set);
            let got: Vec<Point> = (0..MAX_POINTS).filter(|&q| set.contains(q)).collect();
            assert_eq!(got, want, "liberties of {p}");
            assert_eq!(set.len(b.set_words()), want.len());
            assert_eq!(b.libs(p), want.len());
            assert_eq!(b.atari_lib(p), (want.len() == 1).then(|| want[0]));
            let first = want[0];
            assert_eq!(b.lib_other_than(p, 0), Some(first));
            assert_eq!(b.lib_other_than(p, first), want.get(1).copied());
            let mut two: Vec<Point> = b.two_libs(p).into_iter().flatten().collect();
            two.sort();
            assert!(two.iter().all(|q| want.contains(q)));
            assert_eq!(two.len(), want.len().min(2));
        }
    }

    #[test]
    fn incremental_state_matches_recomputation_in_random_games() {
        let mut rng = SmallRng::seed_from_u64(7);
        for size in [2, 3, 5, 9, 13, 19] {
            for _game in 0..8 {
                let mut b = Board::new(size);
                for _ in 0..size * size * 3 {
                    let c = b.to_move();
                    let legal: Vec<Point> = b
                        .empty_points()
                        .iter()
                        .map(|&p| p as usize)
                        .filter(|&p| b.is_legal(c, p))
                        .collect();
                    let mv = if legal.is_empty() || rng.gen_bool(0.02) {
                        Move::Pass
                    } else {
                        Move::Play(legal[rng.gen_range(0..legal.len())])
                    };
                    assert!(b.play(c, mv));
                    let mut hash = 0;
                    let mut empties = 0;
                    for p in b.points() {
                        match b.stone(p) {
                            Some(s) => {
                                hash ^= ZOBRIST[s.index()][p];
                                assert_eq!(b.libs(p), flood_libs(&b, p), "size {size}");
                                assert!(b.libs(p) > 0);
                            }
                            None => {
                                empties += 1;
                                assert!(b.empty_points().contains(&(p as u16)));
                            }
                        }
                    }
                    check_lib_sets(&b);
                    assert_eq!(hash, b.hash());
                    assert_eq!(empties, b.empty_points().len());
                    let stones = size * size - empties;
                    assert_eq!(
                        stones,
                        b.stone_count(Color::Black) + b.stone_count(Color::White)
                    );
                }
            }
        }
    }

    /// Everything a caller can observe of a board, point by point.
    fn observed(b: &Board) -> Vec<(Option<Color>, usize, usize, u8)> {
        b.points()
            .map(|p| match b.stone(p) {
                Some(c) => (Some(c), b.libs(p), b.string_len(p), b.cell_code(p)),
                None => (None, 0, 0, b.cell_code(p)),
            })
            .collect()
    }

    fn same(a: &Board, b: &Board) {
        assert_eq!(observed(a), observed(b));
        assert_eq!(a.hash(), b.hash());
        assert_eq!(a.to_move(), b.to_move());
        assert_eq!(a.ko_point(), b.ko_point());
        assert_eq!(
            (a.last_move(), a.last2_move()),
            (b.last_move(), b.last2_move())
        );
        assert_eq!(a.last_captured(), b.last_captured());
        let mut ea = a.empty_points().to_vec();
        let mut eb = b.empty_points().to_vec();
        ea.sort();
        eb.sort();
        assert_eq!(ea, eb);
        for c in [Color::Black, Color::White] {
            assert_eq!(a.captures(c), b.captures(c));
            assert_eq!(a.stone_count(c), b.stone_count(c));
        }
    }

    fn legal_moves(b: &Board) -> Vec<Point> {
        let c = b.to_move();
        b.empty_points()
            .iter()
            .map(|&p| p as usize)
            .filter(|&p| b.is_legal(c, p))
            .collect()
    }

    #[test]
    fn a_board_copied_into_a_used_one_plays_on_like_a_clone() {
        let mut rng = SmallRng::seed_from_u64(11);
        // One scratch board for every size and position, as the ladder reader keeps them.
        let mut scratch = Board::new(19);
        for size in [9, 5, 19, 9, 13, 9] {
            let mut b = Board::new(size);
            for step in 0..size * size * 2 {
                let legal = legal_moves(&b);
                let Some(&p) = legal.get(rng.gen_range(0..legal.len().max(1))) else {
                    break;
                };
                assert!(b.play(b.to_move(), Move::Play(p)));
                if step % 7 != 0 {
                    continue;
                }
                scratch.copy_from(&b);
                let mut clone = b.clone();
                same(&scratch, &clone);
                // Sets left in the scratch board by older strings must not leak into new ones.
                for _ in 0..12 {
                    let legal = legal_moves(&clone);
                    let Some(&p) = legal.get(rng.gen_range(0..legal.len().max(1))) else {
                        break;
                    };
                    let c = clone.to_move();
                    assert!(scratch.play(c, Move::Play(p)));
                    assert!(clone.play(c, Move::Play(p)));
                    same(&scratch, &clone);
                    check_lib_sets(&scratch);
                }
            }
        }
    }

    #[test]
    fn strings_rebuilt_by_set_up_and_removal_have_their_liberties() {
        let mut rng = SmallRng::seed_from_u64(3);
        for size in [5, 9, 19] {
            let mut b = Board::new(size);
            for _ in 0..size * size {
                let legal = legal_moves(&b);
                let Some(&p) = legal.get(rng.gen_range(0..legal.len().max(1))) else {
                    break;
                };
                assert!(b.play(b.to_move(), Move::Play(p)));
            }
            let stones: Vec<Point> = b.points().filter(|&p| b.stone(p).is_some()).collect();
            let gone: Vec<Point> = stones.iter().copied().step_by(3).collect();
            b.remove_stones(&gone);
            check_lib_sets(&b);
            let empty: Vec<Point> = b.points().filter(|&p| b.is_empty(p)).collect();
            let add: Vec<(Color, Point)> = empty
                .iter()
                .step_by(5)
                .map(|&p| (Color::Black, p))
                .collect();
            if b.add_setup_stones(&add) {
                assert!(add.iter().all(|&(_, p)| b.stone(p) == Some(Color::Black)));
            }
            check_lib_sets(&b);
            for _ in 0..size * size {
                let legal = legal_moves(&b);
                let Some(&p) = legal.get(rng.gen_range(0..legal.len().max(1))) else {
                    break;
                };
                assert!(b.play(b.to_move(), Move::Play(p)));
                check_lib_sets(&b);
            }
        }
    }

    #[test]
    fn cell_codes_are_the_pattern_codes() {
        let mut b = Board::new(3);
        assert!(b.play(Color::Black, Move::Play(b.point(0, 0))));
        assert!(b.play(Color::White, Move::Play(b.point(1, 0))));
        let codes: Vec<u8> = [
            b.point(0, 0),
            b.point(1, 0),
            b.point(2, 0),
            b.point(0, 0) - 1,
        ]
        .iter()
        .map(|&p| b.cell_code(p))
        .collect();
        assert_eq!(codes, [1, 2, 0, 3]);
    }
}
