//! The endgame transposition table: exact disc pairs as keys, score bounds and the best
//! move as values.
use crate::othello::board::Board;

#[derive(Clone, Copy, Default)]
pub(super) struct Entry {
    p: u64,
    o: u64,
    pub(super) lower: i8,
    pub(super) upper: i8,
    pub(super) best: u8,
    pub(super) empties: u8,
}

/// A two-slot-per-bucket table keyed by the exact disc pair: slot 0 keeps the deepest
/// entry, slot 1 always takes the newest.
pub struct EndTable {
    slots: Vec<[Entry; 2]>,
    mask: usize,
}

impl EndTable {
    pub fn new(mb: usize) -> EndTable {
        let bytes = mb.max(1) << 20;
        let n = (bytes / std::mem::size_of::<[Entry; 2]>())
            .next_power_of_two()
            .max(2)
            / 2;
        EndTable {
            slots: vec![[Entry::default(); 2]; n],
            mask: n - 1,
        }
    }

    pub fn clear(&mut self) {
        self.slots.fill([Entry::default(); 2]);
    }

    #[inline]
    pub(super) fn probe(&self, b: &Board) -> Option<Entry> {
        let bucket = &self.slots[b.hash() as usize & self.mask];
        bucket
            .iter()
            .find(|e| e.p == b.p && e.o == b.o && (e.p | e.o) != 0)
            .copied()
    }

    #[inline]
    pub(super) fn store(&mut self, b: &Board, lower: i32, upper: i32, best: u8, empties: u32) {
        let bucket = &mut self.slots[b.hash() as usize & self.mask];
        let e = Entry {
            p: b.p,
            o: b.o,
            lower: lower as i8,
            upper: upper as i8,
            best,
            empties: empties as u8,
        };
        if (bucket[0].p == b.p && bucket[0].o == b.o) || bucket[0].empties as u32 <= empties {
            bucket[0] = e;
        } else {
            bucket[1] = e;
        }
    }
}
