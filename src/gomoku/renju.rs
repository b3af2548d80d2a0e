//! Renju forbidden points for Black: overline, double-four and double-three.
//!
//! The subtle part is the three. A line is a *three* only if one more black stone can turn it
//! into a straight four (`.XXXX.` whose both completions are exact fives), **and that extension
//! point is not itself forbidden**. So deciding a three recursively asks whether another point
//! is forbidden, with the first stone on the board; the recursion ends because each level adds
//! a stone. A move that makes an exact five is never forbidden, even if it also makes a
//! double-four or double-three.
use super::board::{Board, Point, Rule};
use crate::color::Color;

const B: Color = Color::Black;
const BLACK: u8 = 1;
const EMPTY: u8 = 0;

impl Board {
    /// Whether Black may not play the empty point `p` under renju. Always false under the
    /// other rules.
    pub fn is_forbidden(&mut self, p: Point) -> bool {
        if self.rule() != Rule::Renju || !self.is_empty(p) {
            return false;
        }
        self.forbidden_at(p)
    }

    fn forbidden_at(&mut self, p: Point) -> bool {
        let mut over = false;
        for d in 0..4 {
            let n = self.run(p, d, B);
            if n == 5 {
                return false;
            }
            over |= n > 5;
        }
        if over {
            return true;
        }
        // Cheap filter: a double needs two directions each with a window holding at least
        // two black stones already and no white one.
        let mut busy = 0;
        for d in 0..4 {
            if self.best_window(p, d) >= 2 {
                busy += 1;
            }
        }
        if busy < 2 && !self.two_fours_possible(p) {
            return false;
        }
        self.set_cell(p, BLACK);
        let mut fours = 0;
        let mut threes = 0;
        for d in 0..4 {
            let f = self.fours_in_dir(p, d);
            if f > 0 {
                fours += f;
            } else if threes < 2 && self.is_three_dir(p, d) {
                threes += 1;
            }
            if fours >= 2 {
                break;
            }
        }
        self.set_cell(p, EMPTY);
        fours >= 2 || threes >= 2
    }

    /// Two fours on one line (`X.XXX.X` through the point) need only one busy direction.
    fn two_fours_possible(&self, p: Point) -> bool {
        (0..4).any(|d| self.best_window(p, d) >= 3)
    }

    /// Most black stones in a window through `p` in direction `d` free of white stones and
    /// of the edge. Read from the cells, not the window tables: trial stones placed with
    /// `set_cell` are not in the tables.
    fn best_window(&self, p: Point, d: usize) -> u8 {
        let dir = self.dirs()[d];
        let mut best = 0;
        for k in 0..5 {
            let s = p as isize - k * dir;
            let mut own = 0;
            let mut clean = true;
            for j in 0..5 {
                match self.raw(s + j * dir) {
                    BLACK => own += 1,
                    EMPTY => {}
                    _ => {
                        clean = false;
                        break;
                    }
                }
            }
            if clean && own > best {
                best = own;
            }
        }
        best
    }

    /// Offsets `k` (cells `p + k*dir`) of the empty points completing an exact black five
    /// that contains `p` (a black stone) along `d`; `out` receives them, the count returned.
    fn five_completions(&self, p: Point, d: usize, out: &mut [isize; 9]) -> usize {
        let dir = self.dirs()[d];
        let mut n = 0;
        for k in -4..=4isize {
            if k == 0 {
                continue;
            }
            let q = p as isize + k * dir;
            if self.raw(q) != 0 {
                continue;
            }
            // The run through q, as if black, must be exactly five and reach p.
            let (mut lo, mut hi) = (0isize, 0isize);
            while self.raw(q + (hi + 1) * dir) == 1 {
                hi += 1;
            }
            while self.raw(q - (lo + 1) * dir) == 1 {
                lo += 1;
            }
            if lo + hi + 1 == 5 && -lo <= -k && -k <= hi {
                out[n] = k;
                n += 1;
            }
        }
        n
    }

    /// Number of fours black's stone at `p` takes part in along `d` (a straight four is one).
    fn fours_in_dir(&self, p: Point, d: usize) -> usize {
        let mut ks = [0isize; 9];
        let n = self.five_completions(p, d, &mut ks);
        if n >= 2 && straight(&ks[..n]) {
            n - 1
        } else {
            n
        }
    }

    /// Whether black's stone at `p` forms a real three along `d`.
    fn is_three_dir(&mut self, p: Point, d: usize) -> bool {
        let dir = self.dirs()[d];
        for k in -4..=4isize {
            if k == 0 {
                continue;
            }
            let q = (p as isize + k * dir) as Point;
            if self.raw(q as isize) != 0 {
                continue;
            }
            self.set_cell(q, BLACK);
            let mut ks = [0isize; 9];
            let n = self.five_completions(p, d, &mut ks);
            let open = n >= 2 && straight(&ks[..n]);
            self.set_cell(q, EMPTY);
            if open && !self.forbidden_at(q) {
                return true;
            }
        }
        false
    }
}

/// Two completion points five apart: the two ends of one straight four.
fn straight(ks: &[isize]) -> bool {
    ks.iter().any(|a| ks.iter().any(|b| b - a == 5))
}
