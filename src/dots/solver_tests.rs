use super::*;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::collections::HashMap;

/// Plain minimax over every legal edge, memoised on the drawn set only: no capture rules,
/// no symmetry, no closed forms. The independent reference for the solver.
fn brute(b: &mut Board, memo: &mut HashMap<u128, i32>) -> i32 {
    if b.is_over() {
        return 0;
    }
    if let Some(&v) = memo.get(&b.drawn().lo) {
        return v;
    }
    let mut best = i32::MIN;
    for e in 0..b.geometry().n_edges() {
        if b.is_drawn(e) {
            continue;
        }
        let c = b.play(e).unwrap() as i32;
        let v = if c > 0 {
            c + brute(b, memo)
        } else {
            -brute(b, memo)
        };
        b.undo();
        best = best.max(v);
    }
    memo.insert(b.drawn().lo, best);
    best
}

fn solve(c: usize, r: usize) -> i32 {
    Solver::new(&Board::new(c, r).unwrap(), 18).unwrap().solve()
}

#[test]
fn published_values_of_small_boards() {
    for (c, r, v) in [
        (1, 1, -1),
        (1, 2, 0),
        (2, 1, 0),
        (1, 3, -1),
        (2, 2, 2),
        (2, 3, -2),
        (3, 2, -2),
        (2, 4, 2),
        (3, 3, -3),
    ] {
        assert_eq!(solve(c, r), v, "{c}x{r}");
    }
}

#[test]
fn brute_force_agrees_on_empty_small_boards() {
    for (c, r, v) in [(1, 1, -1), (1, 2, 0), (1, 3, -1), (2, 2, 2)] {
        assert_eq!(
            brute(&mut Board::new(c, r).unwrap(), &mut HashMap::new()),
            v
        );
    }
}

fn first_move_values(c: usize, r: usize) -> Vec<(String, i32)> {
    let b = Board::new(c, r).unwrap();
    let mut s = Solver::new(&b, 18).unwrap();
    (0..b.geometry().n_edges())
        .map(|e| {
            (
                b.edge_name(e).to_string(),
                s.move_value(e as u8, -99, 99, EXACT),
            )
        })
        .collect()
}

#[test]
fn two_by_two_only_boundary_first_moves_win() {
    let b = Board::new(2, 2).unwrap();
    for (e, (name, v)) in first_move_values(2, 2).into_iter().enumerate() {
        let boundary = b.geometry().edge_boxes(e).contains(&GROUND);
        assert_eq!(v, if boundary { 2 } else { 0 }, "{name}");
    }
}

#[test]
fn three_by_three_every_first_move_loses_by_three() {
    for (name, v) in first_move_values(3, 3) {
        assert_eq!(v, -3, "{name}");
    }
}

/// `empty` with a random number (at least `min_drawn`) of random edges drawn.
fn random_position(empty: &Board, rng: &mut SmallRng, min_drawn: usize) -> Board {
    let mut b = empty.clone();
    let n = b.geometry().n_edges();
    let mut edges: Vec<usize> = (0..n).collect();
    edges.shuffle(rng);
    let k = rand::Rng::gen_range(rng, min_drawn..n);
    for &e in &edges[..k] {
        b.play(e).unwrap();
    }
    b
}

/// Brute-force value of move `m` for the side to move on `b` (boxes it takes, then the
/// rest of the game); `b` is left as it was.
fn brute_after(b: &mut Board, m: usize, memo: &mut HashMap<u128, i32>) -> i32 {
    let c = b.play(m).unwrap() as i32;
    let v = if c > 0 {
        c + brute(b, memo)
    } else {
        -brute(b, memo)
    };
    b.undo();
    v
}

/// Thousands of random positions: the pruned solver (and its chosen move) against brute force.
#[test]
fn solver_matches_brute_force_on_random_positions() {
    let mut rng = SmallRng::seed_from_u64(11);
    // (cols, rows, positions, fewest edges drawn): 3x3 and 2x4 from mid-game on, where
    // isolated chains, loops and joints coexist.
    for (c, r, count, min_drawn) in [
        (2, 2, 1500, 0),
        (2, 3, 1500, 0),
        (3, 2, 500, 0),
        (1, 4, 300, 0),
        (1, 1, 50, 0),
        (3, 3, 400, 9),
        (2, 4, 300, 7),
    ] {
        let mut memo = HashMap::new();
        let empty = Board::new(c, r).unwrap();
        for _ in 0..count {
            let mut b = random_position(&empty, &mut rng, min_drawn);
            let want = brute(&mut b, &mut memo);
            let mut s = Solver::new(&b, 12).unwrap();
            let (v, m) = s.best_move();
            assert_eq!(v, want, "{c}x{r} value, drawn {:b}", b.drawn().lo);
            let m = m.expect("a move while edges remain");
            let got = brute_after(&mut b, m, &mut memo);
            assert_eq!(got, want, "{c}x{r} best move {}", b.edge_name(m));
        }
    }
}

#[test]
fn depth_limited_search_stays_within_bounds_and_exact_when_deep() {
    let b = Board::new(2, 3).unwrap();
    let mut s = Solver::new(&b, 14).unwrap();
    for d in 1..4 {
        s.hit_horizon = false;
        let v = s.search(-99, 99, d);
        assert!(v.abs() <= 6);
        assert!(s.hit_horizon);
    }
    s.hit_horizon = false;
    assert_eq!(s.search(-99, 99, 60), -2, "deeper than the game: exact");
    assert!(!s.hit_horizon);
}

/// 3x4 boxes: a tie (the published value). About 3.5M nodes, 1 s optimised.
#[test]
fn three_by_four_is_a_tie() {
    let b = Board::new(3, 4).unwrap();
    assert_eq!(Solver::new(&b, 22).unwrap().solve(), 0);
    let b = Board::new(4, 3).unwrap();
    assert_eq!(Solver::new(&b, 22).unwrap().solve(), 0);
}

/// The loony-offer shortcut, the loony sacrifice bounds and the parity rounding against
/// brute force, on boards and stages the test above leaves out: 3x3 from its eighth edge,
/// 2x5 and 5x2 from the middle game (long chains, chains whose ends meet one joint, loops
/// around a centre), and 1x6 (one long strip). Every legal move's value is checked too, so
/// a wrong bound anywhere below the root shows.
#[test]
fn fast_solver_matches_plain_minimax_on_more_boards() {
    let mut rng = SmallRng::seed_from_u64(29);
    for (c, r, count, min_drawn) in [
        (3, 3, 100, 8),
        (2, 5, 100, 12),
        (5, 2, 100, 12),
        (1, 6, 60, 0),
    ] {
        let mut memo = HashMap::new();
        let empty = Board::new(c, r).unwrap();
        for _ in 0..count {
            let mut b = random_position(&empty, &mut rng, min_drawn);
            let mut s = Solver::new(&b, 14).unwrap();
            assert_eq!(
                s.solve(),
                brute(&mut b, &mut memo),
                "{c}x{r} {:b}",
                b.drawn().lo
            );
            for m in b.legal_edges().collect::<Vec<_>>() {
                let got = s.move_value(m as u8, -99, 99, EXACT);
                let want = brute_after(&mut b, m, &mut memo);
                assert_eq!(
                    got,
                    want,
                    "{c}x{r} {:b} move {}",
                    b.drawn().lo,
                    b.edge_name(m)
                );
            }
        }
    }
}

/// Play keeps its table from move to move, so a search meets bounds that depth-limited
/// searches of other positions stored. A search that reports no horizon (play then stops
/// deepening and calls its value exact) must still return the exact value.
#[test]
fn kept_table_never_passes_a_horizon_off_as_exact() {
    let mut rng = SmallRng::seed_from_u64(41);
    for (c, r, min_drawn) in [(2, 3, 0), (3, 2, 0), (3, 3, 8), (2, 4, 6)] {
        let mut memo = HashMap::new();
        let empty = Board::new(c, r).unwrap();
        let mut table = Some(crate::dots::table::Table::new(
            14,
            empty.geometry().n_edges(),
        ));
        let mut claims = 0;
        for _ in 0..400 {
            let mut b = random_position(&empty, &mut rng, min_drawn);
            let mut s = Solver::with_table(&b, table.take().unwrap()).ok().unwrap();
            let depth = rand::Rng::gen_range(&mut rng, 1..8);
            for m in b.legal_edges().collect::<Vec<_>>() {
                s.hit_horizon = false;
                let got = s.move_value(m as u8, -99, 99, depth);
                if !s.hit_horizon {
                    claims += 1;
                    let want = brute_after(&mut b, m, &mut memo);
                    assert_eq!(
                        got,
                        want,
                        "{c}x{r} {:b} move {}",
                        b.drawn().lo,
                        b.edge_name(m)
                    );
                }
            }
            table = Some(s.into_table());
        }
        assert!(claims > 200, "{c}x{r}: only {claims} exact claims");
    }
}

/// Null-window questions at every threshold, of the position and of every move from it,
/// asked of one solver whose table keeps the
/// bounds of the earlier questions (as MTD(f) and the split tasks ask them): the cutoffs
/// that read stored bounds of the positions after a sacrifice and its forced replies, or
/// after a loony offer's boxes are taken, must answer each like plain minimax.
#[test]
fn null_windows_with_a_kept_table_match_plain_minimax() {
    let mut rng = SmallRng::seed_from_u64(53);
    for (c, r, count, min_drawn) in [
        (3, 3, 60, 6),
        (2, 5, 60, 8),
        (5, 2, 40, 10),
        (1, 6, 40, 0),
        (2, 3, 150, 0),
    ] {
        let mut memo = HashMap::new();
        let empty = Board::new(c, r).unwrap();
        for _ in 0..count {
            let mut b = random_position(&empty, &mut rng, min_drawn);
            let want = brute(&mut b, &mut memo);
            let mut s = Solver::new(&b, 12).unwrap();
            let rem = s.remaining();
            // Both directions, so each question meets bounds the other side stored.
            let mut ts: Vec<i32> = (-rem..=rem + 1).collect();
            ts.shuffle(&mut rng);
            let moves: Vec<(usize, i32)> = b
                .legal_edges()
                .collect::<Vec<_>>()
                .into_iter()
                .map(|m| (m, brute_after(&mut b, m, &mut memo)))
                .collect();
            for t in ts {
                let v = s.search(t - 1, t, EXACT);
                assert_eq!(
                    v >= t,
                    want >= t,
                    "{c}x{r} {:b} threshold {t}: got {v}, value {want}",
                    b.drawn().lo
                );
                for &(m, want) in &moves {
                    let v = s.move_value(m as u8, t - 1, t, EXACT);
                    assert_eq!(
                        v >= t,
                        want >= t,
                        "{c}x{r} {:b} move {} threshold {t}: got {v}, value {want}",
                        b.drawn().lo,
                        b.edge_name(m)
                    );
                }
            }
        }
    }
}

/// The copy compiled for popcnt and BMI and the baseline copy search the same tree: same
/// values, same node counts, on the empty 3x3 and on random positions of 2x4 (the plain
/// copy is otherwise never run on machines that have the features).
#[test]
fn both_instruction_set_copies_search_the_same_tree() {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut boards = vec![Board::new(3, 3).unwrap()];
    let empty = Board::new(2, 4).unwrap();
    boards.extend((0..200).map(|_| random_position(&empty, &mut rng, 4)));
    let mut memo = HashMap::new();
    for b in &boards {
        let run = |fast: bool| {
            let mut s = Solver::new(b, 16).unwrap();
            s.fast = fast;
            (s.solve(), s.nodes)
        };
        let plain = run(false);
        assert_eq!(plain, run(cpu_is_fast()), "drawn {:b}", b.drawn().lo);
        if b.geometry().n_edges() == 22 {
            assert_eq!(
                plain.0,
                brute(&mut b.clone(), &mut memo),
                "drawn {:b}",
                b.drawn().lo
            );
        }
    }
}
