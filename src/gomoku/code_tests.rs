//! Tests of the pattern-code model: the code table, the board's incremental code sums and
//! the evaluation and search that read them.
use std::sync::Arc;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::board::{Board, Rule};
use super::board_tests::random_empty_in;
use super::eval::{code_eval_counts, threat_eval_counts};
use super::patterns::{code_cats, tables, CodeTable, N_CODES, N_LINE_CATS};
use super::search::{SearchConfig, Searcher};
use super::weights::{ClassWeights, CodeWeights};
use crate::color::Color::{self, Black, White};

/// How many of each category the index holds (3 bits per direction).
fn multiset(idx: usize) -> [u8; N_LINE_CATS + 1] {
    let mut n = [0u8; N_LINE_CATS + 1];
    for d in 0..4 {
        n[(idx >> (3 * d)) & 7] += 1;
    }
    n
}

#[test]
fn the_code_table_numbers_the_category_multisets() {
    let code = &tables().code;
    let mut first = vec![None; N_CODES];
    for idx in 0..1 << 12 {
        let m = multiset(idx);
        if m[7] > 0 {
            continue; // category 7 never occurs
        }
        let k = code[idx] as usize;
        assert!(k < N_CODES, "index {idx:o}: code {k}");
        // Same code, same multiset; and the code's categories are that multiset.
        let cats = code_cats(k);
        let mut from_code = [0u8; N_LINE_CATS + 1];
        for c in cats {
            from_code[c as usize] += 1;
        }
        assert_eq!(from_code, m, "index {idx:o} code {k}");
        assert!(cats.windows(2).all(|w| w[0] <= w[1]), "{cats:?}");
        match first[k] {
            None => first[k] = Some(idx),
            Some(j) => assert_eq!(multiset(j), m, "indexes {j:o} and {idx:o} share code {k}"),
        }
    }
    // Every code is reached, and the empty multiset is code 0.
    assert!(first.iter().all(Option::is_some));
    assert_eq!(code[0], 0);
    assert_eq!(code_cats(0), [0; 4]);
    assert_eq!(code_cats(N_CODES - 1), [6; 4]);
}

/// Random code weights within `r`.
fn random_codes(rng: &mut SmallRng, r: i32) -> CodeWeights {
    let mut w = CodeWeights::zero();
    for k in 1..N_CODES {
        w.mover[k] = rng.gen_range(-r..=r);
        w.waiter[k] = rng.gen_range(-r..=r);
    }
    w
}

#[test]
fn code_sums_kept_per_move_equal_a_recount_and_peeks_equal_moves() {
    let mut rng = SmallRng::seed_from_u64(41);
    for game in 0..8 {
        let n = [9, 15, 20, 15][game % 4];
        let table = Arc::new(random_codes(&mut rng, 500).table());
        let mut b = Board::new(n, Rule::Freestyle);
        let mut plain = Board::new(n, Rule::Freestyle);
        // Half the games switch the table on mid-game, after stones were placed.
        if game % 2 == 0 {
            b.set_codes(Some(table.clone()));
        }
        b.track_patterns();
        plain.track_patterns();
        let (lo, hi) = if game < 4 { (0, n) } else { (n / 4, n - n / 4) };
        for ply in 0..80 {
            let Some(p) = random_empty_in(&b, lo, hi, &mut rng) else {
                break;
            };
            let c = if rng.gen_range(0..3) == 0 {
                Black
            } else {
                White
            };
            if ply == 10 {
                b.set_codes(Some(table.clone()));
            }
            if b.stone_count() + 1 < n * n {
                // The peeked counts are the counts after the move.
                let peeked = *b.counts();
                let after_peek = b.peek_counts(p, c);
                b.place(p, c);
                assert_eq!(after_peek, *b.counts(), "game {game} ply {ply}");
                b.undo();
                assert_eq!(peeked, *b.counts(), "game {game} ply {ply} undo");
            }
            b.place(p, c);
            plain.place(p, c);
            if rng.gen_range(0..4) == 0 {
                b.undo();
                plain.undo();
            }
            let why = format!("game {game} n {n} ply {ply}");
            if ply >= 10 || game % 2 == 0 {
                assert_eq!(b.counts().code, b.code_sums_from_scratch(), "{why}");
            }
            // The table changes nothing else.
            assert_eq!(b.counts().class, plain.counts().class, "{why}");
            assert_eq!(b.counts().line, plain.counts().line, "{why}");
            assert_eq!(plain.counts().code, [[0; 2]; 2]);
            // Pausing and tracking again rebuilds the same sums.
            if ply % 17 == 16 {
                let kept = *b.counts();
                b.pause_patterns();
                b.track_patterns();
                assert_eq!(kept, *b.counts(), "{why} retracked");
            }
        }
        while b.undo().is_some() {}
        assert_eq!(b.counts().code, b.code_sums_from_scratch());
        // Taking the table away leaves no sums.
        b.set_codes(None);
        assert_eq!(b.counts().code, [[0; 2]; 2]);
    }
}

/// The code weights that value every cell as `w` does through its class and its four line
/// categories: the code model holds the class model.
fn codes_of(w: &ClassWeights) -> CodeWeights {
    let class = &tables().class;
    let mut c = CodeWeights::zero();
    for k in 0..N_CODES {
        let cats = code_cats(k);
        let idx = (0..4).fold(0, |a, d| a | (cats[d] as usize) << (3 * d));
        let cl = class[idx] as usize;
        c.mover[k] = w.mover[cl] + cats.iter().map(|&x| w.line_mover[x as usize]).sum::<i32>();
        c.waiter[k] = w.waiter[cl] + cats.iter().map(|&x| w.line_waiter[x as usize]).sum::<i32>();
    }
    c
}

/// A game of random moves near the centre with no five on the board.
fn random_position(rng: &mut SmallRng, plies: usize) -> Board {
    let mut b = Board::new(15, Rule::Freestyle);
    let mut c = Black;
    for _ in 0..plies {
        let Some(p) = random_empty_in(&b, 4, 11, rng) else {
            break;
        };
        if b.makes_five(p, c) {
            break;
        }
        b.place(p, c);
        c = c.opponent();
    }
    b
}

#[test]
fn codes_holding_the_class_model_evaluate_and_search_as_it_does() {
    let v2 = ClassWeights::load(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/gomoku/eval-v2-lines.txt"
    ))
    .unwrap();
    let mut rng = SmallRng::seed_from_u64(5);
    for w in [ClassWeights::CLASSIC, ClassWeights::learnt(), v2] {
        let codes = codes_of(&w);
        assert_eq!((codes.mover[0], codes.waiter[0]), (0, 0));
        let table = Arc::new(codes.table());
        for _ in 0..20 {
            let plies = rng.gen_range(3..40);
            let mut b = random_position(&mut rng, plies);
            b.set_codes(Some(table.clone()));
            b.track_patterns();
            for c in [Black, White] {
                assert_eq!(
                    code_eval_counts(b.counts(), c, &table),
                    threat_eval_counts(b.counts(), c, &w),
                    "{:?}",
                    b.history()
                );
            }
        }
        // The searches agree node for node.
        for _ in 0..3 {
            let plies = rng.gen_range(6..14);
            let mut b = random_position(&mut rng, plies);
            let c: Color = if b.stone_count().is_multiple_of(2) {
                Black
            } else {
                White
            };
            let classes = SearchConfig {
                eval: w,
                tt_mb: 1,
                ..SearchConfig::default()
            };
            let with_codes = SearchConfig {
                codes: Some(table.clone()),
                eval: ClassWeights::CLASSIC,
                ..classes.clone()
            };
            let mut s1 = Searcher::new(classes);
            let mut s2 = Searcher::new(with_codes);
            let v1 = s1.value(&mut b, c, 4);
            let n1 = s1.nodes();
            let v2 = s2.value(&mut b, c, 4);
            assert_eq!((v1, n1), (v2, s2.nodes()), "{:?}", b.history());
        }
    }
}

#[test]
fn the_code_weights_reach_the_evaluation() {
    // Other code weights change the value; the mover's table weighs the mover's cells.
    let mut rng = SmallRng::seed_from_u64(9);
    let mut b = random_position(&mut rng, 12);
    let zero = Arc::new(CodeWeights::zero().table());
    b.set_codes(Some(zero.clone()));
    b.track_patterns();
    assert_eq!(code_eval_counts(b.counts(), Black, &zero), 0);
    let mut w = CodeWeights::zero();
    w.mover[1] = 3; // code 1: one Flex2 direction
    let table = Arc::new(w.table());
    b.set_codes(Some(table.clone()));
    let code1 = b
        .points()
        .filter(|&p| b.is_empty(p) && tables().code[b.cats(p, Black) as usize] == 1)
        .count() as i32;
    assert!(code1 > 0);
    assert_eq!(code_eval_counts(b.counts(), Black, &table), 3 * code1);
    // The waiting side's table weighs the opponent's cells, subtracted.
    let mut w = CodeWeights::zero();
    w.waiter[1] = 5;
    let table = Arc::new(CodeTable::new(&w.mover, &w.waiter, &w.mask));
    b.set_codes(Some(table.clone()));
    let white1 = b
        .points()
        .filter(|&p| b.is_empty(p) && tables().code[b.cats(p, White) as usize] == 1)
        .count() as i32;
    assert_eq!(code_eval_counts(b.counts(), Black, &table), -5 * white1);
}

#[test]
fn threat_masks_read_each_sides_classes_and_their_weights_reach_the_evaluation() {
    use super::eval::{threat_mask, N_MASKS};
    use super::patterns::{Pattern4, PatternCounts};
    let with = |own: &[Pattern4], opp: &[Pattern4]| {
        let mut c = PatternCounts::default();
        for &k in own {
            c.class[Black.index()][k as usize] += 1;
        }
        for &k in opp {
            c.class[White.index()][k as usize] += 1;
        }
        c
    };
    use Pattern4::*;
    assert_eq!(threat_mask(&with(&[], &[]), Black), 0);
    // The mover's bits are the low five, the waiting side's the next five, its open four
    // the top one; each side's are read from its own counts.
    assert_eq!(threat_mask(&with(&[Block4], &[]), Black), 1);
    assert_eq!(threat_mask(&with(&[Block4], &[]), White), 1 << 5);
    assert_eq!(threat_mask(&with(&[Block4Flex3], &[]), Black), 0b11);
    assert_eq!(threat_mask(&with(&[Flex3x2], &[]), Black), 0b110);
    assert_eq!(threat_mask(&with(&[Flex3Plus], &[]), Black), 0b1100);
    assert_eq!(threat_mask(&with(&[Flex2x2, None], &[]), Black), 0b10000);
    assert_eq!(threat_mask(&with(&[], &[Block3Plus]), Black), 0b10000 << 5);
    assert_eq!(threat_mask(&with(&[], &[Flex4]), Black), 1 << 10);
    let all = with(
        &[Block4Flex3, Flex3Plus, Block3Plus],
        &[Flex4, Block4Flex3, Flex3Plus, Flex2x2],
    );
    assert_eq!(threat_mask(&all, Black), N_MASKS - 1);
    // A position's mask weight is added to its value.
    let mut rng = SmallRng::seed_from_u64(12);
    for _ in 0..20 {
        let plies = rng.gen_range(3..30);
        let mut b = random_position(&mut rng, plies);
        let mut w = random_codes(&mut rng, 300);
        let plain = Arc::new(w.table());
        b.set_codes(Some(plain.clone()));
        b.track_patterns();
        let before = code_eval_counts(b.counts(), Black, &plain);
        if before.abs() >= super::eval::WIN_LIKE / 2 {
            continue;
        }
        let m = threat_mask(b.counts(), Black);
        w.mask[m] = 777;
        w.mask[m ^ 1] = -999;
        let masked = Arc::new(w.table());
        b.set_codes(Some(masked.clone()));
        assert_eq!(code_eval_counts(b.counts(), Black, &masked), before + 777);
    }
}
