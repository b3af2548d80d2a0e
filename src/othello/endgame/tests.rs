//! The solver against an unpruned minimax, bounds, deadlines and the last-square count.
use super::last_plies::last_one;
use super::*;
use crate::othello::bitboard::nth_square;
use crate::othello::board::Board;

/// Plain minimax to the end, the independent reference for small positions.
fn minimax(b: &Board, passed: bool) -> i32 {
    let mut mv = b.moves();
    if mv == 0 {
        if passed {
            return -b.pass().final_score();
        }
        return -minimax(&b.pass(), true);
    }
    let mut best = -65;
    while mv != 0 {
        let sq = mv.trailing_zeros() as usize;
        mv &= mv - 1;
        best = best.max(-minimax(&b.play(sq).unwrap(), false));
    }
    best
}

/// A game of uniformly random moves from the start, down to `empties` empty squares or
/// to its end if that comes first.
fn random_game(rng: &mut rand::rngs::SmallRng, empties: u32) -> Board {
    use rand::Rng;
    let mut b = Board::start();
    while b.empties().count_ones() > empties && !b.is_game_over() {
        let mv = b.moves();
        b = if mv == 0 {
            b.pass()
        } else {
            b.play(nth_square(mv, rng.gen_range(0..mv.count_ones())))
                .unwrap()
        };
    }
    b
}

#[test]
fn solver_agrees_with_minimax_near_the_end() {
    use rand::{rngs::SmallRng, Rng, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(11);
    let mut solver = Solver::new(4);
    let mut checked = 0;
    while checked < 60 {
        let target = rng.gen_range(9..=11);
        let b = random_game(&mut rng, target);
        if b.is_game_over() {
            continue;
        }
        let exact = minimax(&b, false);
        solver.mtd = checked % 2 == 0;
        let s = solver.solve(&b);
        assert_eq!(s.score, exact, "{}", b.to_obf(crate::color::Color::Black));
        if let Some(sq) = s.best {
            assert_eq!(-minimax(&b.play(sq).unwrap(), false), exact);
        }
        // Null-window probes bound the score on the right side.
        let lo = solver.solve_window(&b, exact - 1, exact).score;
        assert!(lo >= exact);
        let hi = solver.solve_window(&b, exact, exact + 1).score;
        assert!(hi <= exact);
        checked += 1;
    }
}

/// The written-out last levels (4, 3, 2 and 1 empties), the unsorted ones above them and
/// the sorted levels without the table (up to 8 empties) and their pass handling, against
/// minimax on many random near-final positions, with windows around the exact score.
#[test]
fn last_empties_agree_with_minimax() {
    use rand::{rngs::SmallRng, Rng, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(23);
    let mut solver = Solver::new(1);
    let mut checked = 0;
    while checked < 3000 {
        let target = rng.gen_range(1..=TABLE_EMPTIES - 1);
        let b = random_game(&mut rng, target);
        let exact = minimax(&b, false);
        let n = b.empties().count_ones();
        // Positions in turn through each copy this CPU runs (`per_isa!`): the baseline
        // x86-64 one otherwise never runs on a CPU that has the fast instructions.
        let level = (checked % 3) as u8;
        solver.set_isa(level);
        for (a, be) in [
            (-64, 64),
            (exact - 1, exact + 1),
            (exact, exact + 2),
            (exact - 2, exact),
        ] {
            let v = match solver.isa() {
                isa::AVX512 => solver.search::<{ isa::AVX512 }>(b, a, be, n),
                isa::AVX2 => solver.search::<{ isa::AVX2 }>(b, a, be, n),
                _ => solver.search::<{ isa::PLAIN }>(b, a, be, n),
            };
            // Fail-soft: inside the window exact, outside it a bound on the right side.
            let obf = b.to_obf(crate::color::Color::Black);
            if v > a && v < be {
                assert_eq!(v, exact, "{obf}");
            } else if v <= a {
                assert!(exact <= v, "fail-low {v} below the score {exact}: {obf}");
            } else {
                assert!(exact >= v, "fail-high {v} above the score {exact}: {obf}");
            }
        }
        checked += 1;
    }
}

#[test]
fn a_deadline_stops_a_long_solve_promptly() {
    // FFO #46 (24 empties) takes seconds; a 50 ms deadline must end it at once.
    let (b, _) = Board::from_obf(
        "---XXX----OOOX----OOOXX--OOOOXXX--OOOOXX--OXOXXX--XXOO---XXXX-O-",
        "X",
    )
    .unwrap();
    let mut solver = Solver::new(8);
    let t = Instant::now();
    solver.set_limits(
        StopToken::new(),
        Some(t + std::time::Duration::from_millis(50)),
    );
    solver.solve(&b);
    assert!(solver.was_aborted());
    assert!(
        t.elapsed() < std::time::Duration::from_millis(400),
        "{:?}",
        t.elapsed()
    );
}

#[test]
fn last_one_counts_flips_and_the_winner_takes_the_empty() {
    // 63 black discs, a1 empty, white... nobody: black to move cannot flip anything.
    assert_eq!(last_one(!1u64, 0), 64);
    // White owns h8 and the rest is black's; white to move on a1 flips b2..g7.
    assert_eq!(last_one(1u64 << 63, 0), 2 * (1 + 1 + 6) - 64);
}

/// The selective pre-search, brought down to sizes minimax can check, must leave the
/// exact scores exact: its table entries lend moves, never bounds.
#[test]
fn selective_pre_search_leaves_exact_scores() {
    use rand::{rngs::SmallRng, Rng, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(5);
    let mut solver = Solver::new(4);
    solver.sel_root = 10;
    solver.sel_passes = &[(3, 8), (3, 9)];
    let mut checked = 0;
    while checked < 40 {
        let target = rng.gen_range(10..=11);
        let b = random_game(&mut rng, target);
        if b.is_game_over() {
            continue;
        }
        let exact = minimax(&b, false);
        let s = solver.solve(&b);
        assert_eq!(s.score, exact, "{}", b.to_obf(crate::color::Color::Black));
        if let Some(sq) = s.best {
            assert_eq!(-minimax(&b.play(sq).unwrap(), false), exact);
        }
        checked += 1;
    }
}

/// The score of `b` after `sq` by a fresh single-threaded solve.
fn score_after(b: &Board, sq: usize) -> i32 {
    -Solver::new(4).solve(&b.play(sq).unwrap()).score
}

/// Parallel solves (splitting from 9 empties up so that small positions share work, and
/// at the usual size) give the single-threaded exact score and a best move that keeps it,
/// with the selective pre-search on and off.
#[test]
fn parallel_solves_give_the_single_threaded_scores() {
    use rand::{rngs::SmallRng, Rng, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(17);
    let mut checked = 0;
    while checked < 24 {
        let target = rng.gen_range(14..=20);
        let b = random_game(&mut rng, target);
        if b.is_game_over() || b.moves() == 0 {
            continue;
        }
        let mut one = Solver::new(4);
        let exact = one.solve(&b);
        for threads in [2, 4] {
            let mut par = Solver::new(4);
            par.set_threads(threads);
            par.split_min = if checked % 2 == 0 { 9 } else { SPLIT_MIN };
            if checked % 3 == 0 {
                par.sel_root = 14;
            }
            par.mtd = checked % 4 != 1;
            let s = par.solve(&b);
            let obf = b.to_obf(crate::color::Color::Black);
            let how = format!(
                "{threads} threads, split from {}, mtd {}, selective from {}: {obf}",
                par.split_min, par.mtd, par.sel_root
            );
            assert_eq!(s.score, exact.score, "{how}");
            let m = s.best.expect("a move");
            assert!(b.moves() >> m & 1 != 0, "{how}");
            assert_eq!(score_after(&b, m), exact.score, "{how}");
            assert!(!par.was_aborted());
        }
        checked += 1;
    }
}

/// Four FFO positions (#40-#43, 20-23 empties) with 2 and 4 threads: the known scores and
/// best moves.
#[test]
fn parallel_solves_of_ffo_positions_are_exact() {
    let text = include_str!("../../../data/othello/ffo-40-59.obf");
    for line in crate::othello::obf::lines(text).iter().take(4) {
        let p = crate::othello::obf::parse_line(line).unwrap();
        for threads in [2, 4] {
            let mut par = Solver::new(16);
            par.set_threads(threads);
            let s = par.solve(&p.board);
            assert_eq!(Some(s.score), p.score(), "{line}");
            assert!(p.is_best(s.best.unwrap()), "{line}");
        }
    }
}

/// A parallel solve stops on the stop token, its helpers with it.
#[test]
fn a_stop_ends_a_parallel_solve_promptly() {
    let (b, _) = Board::from_obf(
        "---XXX----OOOX----OOOXX--OOOOXXX--OOOOXX--OXOXXX--XXOO---XXXX-O-",
        "X",
    )
    .unwrap();
    let mut solver = Solver::new(8);
    solver.set_threads(2);
    let stop = StopToken::new();
    solver.set_limits(stop.clone(), None);
    let t = Instant::now();
    let s = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(50));
        stop.stop();
    });
    solver.solve(&b);
    s.join().unwrap();
    assert!(solver.was_aborted());
    assert!(
        t.elapsed() < std::time::Duration::from_millis(1000),
        "{:?}",
        t.elapsed()
    );
}
