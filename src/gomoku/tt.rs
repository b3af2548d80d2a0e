//! A fixed-size transposition table: one entry per slot, always replaced (depth-preferred
//! schemes measured no better at these search depths), 16 bytes per entry.
use super::board::Point;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u64,
    pub score: i32,
    pub mv: Point,
    pub depth: u8,
    pub bound: Bound,
}

pub struct Tt {
    slots: Vec<Option<Entry>>,
    mask: usize,
}

impl Tt {
    /// A table of at most `mb` MiB (at least 1024 entries), a power of two of entries.
    pub fn new(mb: usize) -> Tt {
        let bytes = mb.max(1) * 1024 * 1024;
        let per = std::mem::size_of::<Option<Entry>>();
        let mut n = 1024;
        while n * 2 * per <= bytes {
            n *= 2;
        }
        Tt {
            slots: vec![None; n],
            mask: n - 1,
        }
    }

    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[key as usize & self.mask].filter(|e| e.key == key)
    }

    #[inline]
    pub fn store(&mut self, key: u64, score: i32, depth: u8, bound: Bound, mv: Point) {
        let slot = &mut self.slots[key as usize & self.mask];
        if let Some(e) = slot {
            if e.key == key && e.depth > depth && bound != Bound::Exact {
                return;
            }
        }
        *slot = Some(Entry {
            key,
            score,
            mv,
            depth,
            bound,
        });
    }
}
