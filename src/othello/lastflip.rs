//! Flip counts on a full board (the Edax `count_last_flip` idea).
//!
//! With one empty square left every other square is occupied, so the number of discs a
//! move there flips along a line depends only on which squares of that line belong to the
//! mover: everything else is the opponent's. Each of the four lines through the square is
//! gathered into a byte (a shift for the row, a multiply for the column and diagonals) and
//! a 8x256 table gives the count. No move mask, no flip mask: this is the innermost node of
//! every endgame solve, so it is worth the 2 KB table.
use super::bitboard::FILE_A;

/// `COUNT[pos][line]`: discs flipped by playing at `pos` of an 8-square line where the
/// bits of `line` are the mover's and every other square (bar `pos`) the opponent's.
static COUNT: [[u8; 256]; 8] = build_count();

const fn build_count() -> [[u8; 256]; 8] {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            let mut n = 0;
            // Towards higher positions.
            let mut i = pos + 1;
            while i < 8 && line >> i & 1 == 0 {
                i += 1;
            }
            if i < 8 {
                n += i - pos - 1;
            }
            // Towards lower positions.
            let mut i = pos as i32 - 1;
            while i >= 0 && line >> i & 1 == 0 {
                i -= 1;
            }
            if i >= 0 {
                n += pos - i as usize - 1;
            }
            t[pos][line] = n as u8;
            line += 1;
        }
        pos += 1;
    }
    t
}

/// Diagonal (step 9) and anti-diagonal (step 7) masks through each square.
static DIAGS: [[u64; 2]; 64] = build_diags();

const fn build_diags() -> [[u64; 2]; 64] {
    let mut t = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut s: usize = 0;
        while s < 64 {
            let (c2, r2) = ((s % 8) as i32, (s / 8) as i32);
            if c2 - r2 == c - r {
                t[sq][0] |= 1u64 << s;
            }
            if c2 + r2 == c + r {
                t[sq][1] |= 1u64 << s;
            }
            s += 1;
        }
        sq += 1;
    }
    t
}

/// Discs flipped when the owner of `p` plays `sq` on a board whose only empty square is
/// `sq` (every square outside `p` and `sq` is the opponent's).
///
/// A diagonal shorter than 8 squares is gathered by column, so its missing squares read as
/// "opponent" at the ends of the byte, where a run of them never reaches a mover's disc:
/// they flip nothing, as they should.
#[inline(always)]
pub fn count_last_flip(p: u64, sq: usize) -> u32 {
    let (col, row) = (sq & 7, sq >> 3);
    let row_bits = (p >> (row * 8)) & 0xff;
    let col_bits = ((p >> col) & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let [d9, d7] = DIAGS[sq];
    let d9_bits = (p & d9).wrapping_mul(FILE_A) >> 56;
    let d7_bits = (p & d7).wrapping_mul(FILE_A) >> 56;
    COUNT[col][row_bits as usize] as u32
        + COUNT[row][col_bits as usize] as u32
        + COUNT[col][d9_bits as usize] as u32
        + COUNT[col][d7_bits as usize] as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::bitboard::flips;
    use rand::{rngs::SmallRng, Rng, SeedableRng};

    #[test]
    fn matches_flips_on_random_full_boards() {
        let mut rng = SmallRng::seed_from_u64(5);
        for _ in 0..20000 {
            let sq = rng.gen_range(0..64);
            let p = rng.gen::<u64>() & !(1u64 << sq);
            let o = !p & !(1u64 << sq);
            assert_eq!(
                count_last_flip(p, sq),
                flips(p, o, sq).count_ones(),
                "sq {sq}"
            );
            assert_eq!(
                count_last_flip(o, sq),
                flips(o, p, sq).count_ones(),
                "sq {sq}"
            );
        }
    }

    #[test]
    fn edge_cases() {
        // a1 empty, the mover owns only h8: the whole long diagonal b2..g7 flips.
        let p = 1u64 << 63;
        assert_eq!(count_last_flip(p, 0), 6);
        // Nobody of ours anywhere: nothing flips.
        assert_eq!(count_last_flip(0, 27), 0);
    }
}
