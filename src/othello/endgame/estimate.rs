//! Evaluation-based estimates: the midgame guess MTD(f) starts from, and the shallow
//! searches that order moves high in the tree (Edax's "sort by a short search").
use crate::othello::bitboard::{flips_f, moves_f, CORNERS};
use crate::othello::board::Board;
use crate::othello::eval::{evaluate_f, Weights};
use crate::othello::isa::{AVX2, AVX512, PLAIN};
use std::sync::OnceLock;

/// Depth of the root guess. Deeper is not better with the linear evaluation: the mean
/// error on FFO #40-#59 is 8.0 discs at depth 3, 5.6 at 5, 4.4 at 8, 5.0 at 12, and each
/// 2 discs of error is one more null-window probe at the root.
const GUESS_DEPTH: u32 = 8;
/// From this depth on the shallow search sorts its moves fastest-first; below it the
/// sorting costs more than the cut-offs it buys.
const SORTED_DEPTH: u32 = 2;
const INF: i32 = 100_000;

/// The built-in (fitted) weights, whatever `--weights` says: they guess FFO #40-#49 with
/// 7.0 discs of mean error against 10.8 for the hand-set ones.
pub(super) fn weights() -> &'static Weights {
    static W: OnceLock<Weights> = OnceLock::new();
    W.get_or_init(Weights::default_weights)
}

/// A midgame estimate of the final score (even, in discs) to start MTD(f) from; `nodes`
/// counts the positions it visits.
pub(super) fn guess(b: &Board, nodes: &mut u64, level: u8) -> i32 {
    let w = weights();
    let v = match level {
        AVX512 => eval_search::<AVX512>(w, b, GUESS_DEPTH, -INF, INF, nodes),
        AVX2 => eval_search::<AVX2>(w, b, GUESS_DEPTH, -INF, INF, nodes),
        _ => eval_search::<PLAIN>(w, b, GUESS_DEPTH, -INF, INF, nodes),
    };
    (((v as f64 / 200.0).round() as i32) * 2).clamp(-64, 64)
}

/// Fail-soft alpha-beta to `depth` with the evaluation at the leaves (centi-discs for the
/// side to move; finished games score exactly, times 100). `I` picks the copy compiled
/// for that instruction level, as for the solver (`per_isa!`): the ordering searches are a
/// third of the time of the hardest FFO positions.
#[inline(always)]
pub(super) fn eval_search<const I: u8>(
    w: &Weights,
    b: &Board,
    depth: u32,
    alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    if I >= AVX512 {
        // SAFETY: `I` is AVX512 only when `isa::detect()` found the features.
        unsafe { eval_search_wide(w, b, depth, alpha, beta, nodes) }
    } else if I >= AVX2 {
        // SAFETY: `I` is at least AVX2 only when `isa::detect()` found the features.
        unsafe { eval_search_fast(w, b, depth, alpha, beta, nodes) }
    } else {
        eval_search_body::<PLAIN>(w, b, depth, alpha, beta, nodes)
    }
}

#[cfg_attr(
    target_arch = "x86_64",
    target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2,avx512f,avx512vl,avx512cd")
)]
unsafe fn eval_search_wide(
    w: &Weights,
    b: &Board,
    depth: u32,
    alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    eval_search_body::<AVX512>(w, b, depth, alpha, beta, nodes)
}

#[cfg_attr(
    target_arch = "x86_64",
    target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")
)]
unsafe fn eval_search_fast(
    w: &Weights,
    b: &Board,
    depth: u32,
    alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    eval_search_body::<AVX2>(w, b, depth, alpha, beta, nodes)
}

#[inline(always)]
fn eval_search_body<const I: u8>(
    w: &Weights,
    b: &Board,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if depth == 0 {
        return evaluate_f::<I>(w, b);
    }
    let mut mv = moves_f::<I>(b.p, b.o);
    if mv == 0 {
        if moves_f::<I>(b.o, b.p) == 0 {
            return b.final_score() * 100;
        }
        return -eval_search::<I>(w, &b.pass(), depth, -beta, -alpha, nodes);
    }
    // Children with the opponent's weighted mobility (corners count double).
    let mut list = [(0u32, Board { p: 0, o: 0 }); 34];
    let mut count = 0;
    while mv != 0 {
        let sq = mv.trailing_zeros() as usize;
        mv &= mv - 1;
        let next = b.play_flips(sq, flips_f::<I>(b.p, b.o, sq));
        let mob = if depth >= SORTED_DEPTH {
            let r = moves_f::<I>(next.p, next.o);
            r.count_ones() + (r & CORNERS).count_ones()
        } else {
            0
        };
        list[count] = (mob, next);
        count += 1;
    }
    let mut best = -INF;
    for i in 0..count {
        if depth >= SORTED_DEPTH {
            let mut k = i;
            for j in i + 1..count {
                if list[j].0 < list[k].0 {
                    k = j;
                }
            }
            list.swap(i, k);
        }
        let v = -eval_search::<I>(w, &list[i].1, depth - 1, -beta, -alpha, nodes);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}
