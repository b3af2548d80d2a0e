//! Tests of the search's shortcuts against values computed another way: `Board::peek`
//! against window sums counted from scratch off the cells, and the defence filter against
//! the defence points of an open three that gomoku theory names.
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::board::{Board, Point, Rule, EVAL_WEIGHT};
use super::board_tests::random_empty_in;
use super::eval::{keep_defences, scan, Cand};
use super::search::{SearchConfig, Searcher, MATE_BOUND};
use super::threats::{five_move, four_moves, ThreatCache, Threats};
use crate::color::Color::{self, Black, White};
use crate::search::{Deadline, Limits, StopToken};

/// Window sums and open four-window counts of both colours, counted from the cells alone.
fn from_scratch(b: &Board) -> ([i32; 2], [u16; 2]) {
    let n = b.size() as isize;
    let mut sums = [0; 2];
    let mut fours = [0; 2];
    for (dc, dr) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
        for r in 0..n {
            for c in 0..n {
                let (ec, er) = (c + 4 * dc, r + 4 * dr);
                if !(0..n).contains(&ec) || !(0..n).contains(&er) {
                    continue;
                }
                let mut k = [0usize; 2];
                for j in 0..5 {
                    let p = b.point((c + j * dc) as usize, (r + j * dr) as usize);
                    if let Some(s) = b.stone(p) {
                        k[s.index()] += 1;
                    }
                }
                for (i, o) in [(0, 1), (1, 0)] {
                    if k[o] == 0 {
                        sums[i] += EVAL_WEIGHT[k[i]];
                        fours[i] += (k[i] == 4) as u16;
                    }
                }
            }
        }
    }
    (sums, fours)
}

#[test]
fn peek_gives_the_sums_of_the_position_after_the_move() {
    let mut rng = SmallRng::seed_from_u64(5);
    for game in 0..20 {
        let mut b = Board::new(if game % 2 == 0 { 15 } else { 9 }, Rule::Freestyle);
        let empties = |b: &Board| -> Vec<Point> { b.points().filter(|&p| b.is_empty(p)).collect() };
        // Stones clustered near the centre, so windows fill up to fours and die.
        let n = b.size();
        for ply in 0..40 {
            let c = if ply % 2 == 0 { Black } else { White };
            for _ in 0..6 {
                let pts = empties(&b);
                let p = pts[rng.gen_range(0..pts.len())];
                b.place(p, c);
                let want = from_scratch(&b);
                b.undo();
                assert_eq!(b.peek(p, c), want, "game {game} ply {ply}");
            }
            // The next stone: a random empty cell of the central half, else anywhere.
            let (lo, hi) = (n / 4, n - n / 4);
            let central: Vec<Point> = empties(&b)
                .into_iter()
                .filter(|&p| {
                    let (x, y) = b.col_row(p);
                    (lo..hi).contains(&x) && (lo..hi).contains(&y)
                })
                .collect();
            let pool = if central.is_empty() {
                empties(&b)
            } else {
                central
            };
            let p = pool[rng.gen_range(0..pool.len())];
            b.place(p, c);
        }
    }
}

/// `Board::peek_counts` against the class and line counts after really placing the stone
/// (which the pattern tests check against a recount from the cells), on boards of two
/// sizes, with walls and crowded lines.
#[test]
fn peek_counts_gives_the_counts_after_the_move() {
    let mut rng = SmallRng::seed_from_u64(11);
    for game in 0..12 {
        let mut b = Board::new(if game % 2 == 0 { 15 } else { 7 }, Rule::Freestyle);
        b.track_patterns();
        let mut c = Black;
        while !b.is_full() {
            let empties: Vec<Point> = b.points().filter(|&p| b.is_empty(p)).collect();
            for _ in 0..4 {
                let p = empties[rng.gen_range(0..empties.len())];
                let peeked = b.peek_counts(p, c);
                b.place(p, c);
                assert_eq!(&peeked, b.counts(), "game {game}");
                b.undo();
            }
            b.place(empties[rng.gen_range(0..empties.len())], c);
            c = c.opponent();
        }
    }
}

/// Up to `plies` random stones in the central 9x9 of a 15x15 freestyle board, Black
/// first, and the side to move; None when either side has a five to complete (the
/// searches tested here need a position without one).
fn random_middle_game(rng: &mut SmallRng, plies: usize) -> Option<(Board, Color)> {
    let mut b = Board::new(15, Rule::Freestyle);
    let mut c = Black;
    for _ in 0..plies {
        let Some(p) = random_empty_in(&b, 4, 11, rng) else {
            break;
        };
        b.place(p, c);
        c = c.opponent();
        if five_move(&b, c).is_some() || five_move(&b, c.opponent()).is_some() {
            return None;
        }
    }
    Some((b, c))
}

/// Valuing leaves by peeking must give exactly what placing the stone and valuing the
/// child gives: the same values, with and without patterns.
#[test]
fn leaves_valued_by_peeking_match_leaves_valued_on_the_board() {
    let mut rng = SmallRng::seed_from_u64(3);
    for patterns in [true, false] {
        for _ in 0..6 {
            let plies = rng.gen_range(4..12);
            let Some((mut b, c)) = random_middle_game(&mut rng, plies) else {
                continue;
            };
            let config = SearchConfig {
                patterns,
                ..SearchConfig::default()
            };
            let mut peek = Searcher::new(config.clone());
            let mut place = Searcher::new(config);
            place.peek_leaves = false;
            let v1 = peek.value(&mut b, c, 4);
            let v2 = place.value(&mut b, c, 4);
            let why = format!("patterns {patterns}: {:?}", b.history());
            assert_eq!(v1, v2, "{why}");
            // A leaf valued on the board after a null-window search that failed high is
            // valued again for the re-search; a peeked leaf value is exact and used once.
            assert!(peek.nodes() <= place.nodes(), "{why}");
        }
    }
}

#[test]
fn stone_box_spans_the_stones() {
    let mut b = Board::new(15, Rule::Freestyle);
    assert_eq!(b.stone_box(), None);
    b.place(b.point(3, 9), Black);
    b.place(b.point(11, 2), White);
    assert_eq!(b.stone_box(), Some(((3, 11), (2, 9))));
    b.undo();
    assert_eq!(b.stone_box(), Some(((3, 3), (9, 9))));
}

/// White to move against Black's open three `. . X X X . .` on row 7, columns 5..=7, with
/// no four of its own: the defences are the four empty points of the line next to and one
/// beyond the three (blocking farther lets Black make an open four).
#[test]
fn an_open_three_leaves_only_its_four_defence_points() {
    let mut b = Board::new(15, Rule::Freestyle);
    for (col, c) in [(5, Black), (6, Black), (7, Black)] {
        b.place(b.point(col, 7), c);
    }
    b.place(b.point(1, 1), White);
    b.place(b.point(13, 13), White);
    let mut cands = Vec::new();
    let s = scan(&mut b, White, &mut cands);
    assert!(s.opp_double && s.n_blocks == 0);
    keep_defences(&mut cands);
    let mut got: Vec<(usize, usize)> = cands.iter().map(|m| b.col_row(m.p)).collect();
    got.sort();
    assert_eq!(got, vec![(3, 7), (4, 7), (8, 7), (9, 7)]);

    // A closed three (one end blocked) is no double threat: nothing is filtered.
    b.place(b.point(8, 7), White);
    let s = scan(&mut b, White, &mut cands);
    assert!(!s.opp_double);
}

/// White to move must block Black's four on row 7 at (7, 7), and that block makes an open
/// four for White in column 7 (White at (7, 8)..(7, 10)): White wins. At depth 0 the full
/// engine answers the four before valuing the node and sees the win; the paper
/// configuration values the node statically (well short of a win).
#[test]
fn a_four_on_the_horizon_is_answered_before_the_node_is_valued() {
    let mut b = Board::new(15, Rule::Freestyle);
    b.place(b.point(2, 7), White);
    for col in 3..=6 {
        b.place(b.point(col, 7), Black);
    }
    for row in 8..=10 {
        b.place(b.point(7, row), White);
    }
    b.place(b.point(12, 2), Black);
    let mut full = Searcher::new(SearchConfig::default());
    assert!(full.value(&mut b, White, 0) >= MATE_BOUND);
    let paper = SearchConfig {
        width: 5,
        max_depth: 10,
        threats: false,
        patterns: false,
        tt_mb: 1,
        ..SearchConfig::default()
    };
    assert!(Searcher::new(paper).value(&mut b, White, 0).abs() < MATE_BOUND);

    // Without White's column the block wins nothing and the value is no win either way.
    let mut b2 = Board::new(15, Rule::Freestyle);
    b2.place(b2.point(2, 7), White);
    for col in 3..=6 {
        b2.place(b2.point(col, 7), Black);
    }
    b2.place(b2.point(7, 12), White);
    b2.place(b2.point(12, 2), Black);
    b2.place(b2.point(1, 13), White);
    assert!(full.value(&mut b2, White, 0).abs() < MATE_BOUND);
}

/// Black's threat at (7, 7) next to its stones at (5, 7) and (6, 7) makes an open three on
/// an empty row; the replies offered against it must hold that point and the two points
/// next to the three, the defences gomoku theory gives against an open three.
#[test]
fn threat_replies_hold_the_defences_of_an_open_three() {
    let mut b = Board::new(15, Rule::Freestyle);
    b.place(b.point(5, 7), Black);
    b.place(b.point(12, 12), White);
    b.place(b.point(6, 7), Black);
    b.place(b.point(12, 2), White);
    let limits = Limits::new(Deadline::unlimited(), None, StopToken::new());
    let mut poller = limits.poller();
    let mut t = Threats::new(&mut poller, 1_000_000);
    let x = b.point(7, 7);
    let replies = t.threat_replies(&mut b, Black, x);
    for (col, row) in [(7, 7), (4, 7), (8, 7)] {
        assert!(replies.contains(&b.point(col, row)), "({col}, {row})");
    }
    assert!(replies.iter().all(|&q| b.is_empty(q)));
}

/// `four_moves` (read from the window tables, inside the stones' box only) against the
/// points counted from the cells: an empty cell in a 5-cell window with three or four
/// stones of the colour (a four, or a five to complete) and none of the other.
#[test]
fn four_moves_match_a_count_from_the_cells() {
    let mut rng = SmallRng::seed_from_u64(9);
    for game in 0..30 {
        let n = if game % 3 == 0 { 9 } else { 15 };
        let mut b = Board::new(n, Rule::Freestyle);
        let (lo, hi) = if game % 2 == 0 {
            (0, n)
        } else {
            (n / 3, n - n / 3)
        };
        for ply in 0..30 {
            let c = if ply % 2 == 0 { Black } else { White };
            let Some(p) = random_empty_in(&b, lo, hi, &mut rng) else {
                break;
            };
            b.place(p, c);
            for who in [Black, White] {
                let mut want = Vec::new();
                for p in b.points().filter(|&p| b.is_empty(p)) {
                    let (x, y) = b.col_row(p);
                    let (x, y) = (x as isize, y as isize);
                    let hit = [(1, 0), (0, 1), (1, 1), (-1, 1)].iter().any(|&(dx, dy)| {
                        (-4..=0).any(|k| {
                            let mut mine = 0;
                            for j in 0..5 {
                                let (cx, cy) = (x + (k + j) * dx, y + (k + j) * dy);
                                if !(0..n as isize).contains(&cx) || !(0..n as isize).contains(&cy)
                                {
                                    return false;
                                }
                                match b.stone(b.point(cx as usize, cy as usize)) {
                                    Some(s) if s == who => mine += 1,
                                    Some(_) => return false,
                                    None => {}
                                }
                            }
                            mine >= 3
                        })
                    });
                    if hit {
                        want.push(p);
                    }
                }
                assert_eq!(four_moves(&b, who), want, "game {game} ply {ply}");
            }
        }
    }
}

/// A threat cache kept from search to search (as the searcher keeps it across the root
/// defence's candidates and across moves) must give the answers of a search that starts
/// with an empty one: every entry is a fact about one position.
#[test]
fn a_threat_cache_kept_across_searches_gives_the_answers_of_fresh_ones() {
    let mut rng = SmallRng::seed_from_u64(33);
    let limits = Limits::new(Deadline::unlimited(), None, StopToken::new());
    let mut cache = ThreatCache::default();
    let (mut wins, mut checks) = (0, 0);
    for game in 0..8 {
        let mut b = Board::new(15, Rule::Freestyle);
        // Crowded random play in the centre makes threats and the odd win.
        for ply in 0..24 {
            let c = if ply % 2 == 0 { Black } else { White };
            if five_move(&b, c).is_some() || five_move(&b, c.opponent()).is_some() {
                break;
            }
            if ply >= 6 {
                for who in [c, c.opponent()] {
                    if five_move(&b, who.opponent()).is_some() {
                        continue;
                    }
                    let mut poller = limits.poller();
                    let mut fresh = Threats::new(&mut poller, u64::MAX);
                    let want_vcf = fresh.vcf_root(&mut b, who, 30).is_some();
                    let want_vct = fresh.vct_root(&mut b, who, 3).is_some();
                    let mut poller = limits.poller();
                    let mut kept = Threats::with_cache(&mut poller, u64::MAX, cache);
                    let got_vcf = kept.vcf_root(&mut b, who, 30).is_some();
                    let got_vct = kept.vct_root(&mut b, who, 3).is_some();
                    cache = kept.into_cache();
                    assert_eq!(
                        (got_vcf, got_vct),
                        (want_vcf, want_vct),
                        "game {game} ply {ply}"
                    );
                    wins += want_vct as u32;
                    checks += 1;
                }
            }
            b.place(random_empty_in(&b, 4, 11, &mut rng).expect("room"), c);
        }
    }
    // The positions must hold wins as well as failures for the check to mean anything.
    assert!(wins > 5 && wins < checks, "{wins} wins in {checks} checks");
    assert!(!cache.is_empty());
}

/// The threat cache never holds more than its limit, within one search or across many, and
/// the searcher sizes it from the table's memory (the pbrain `max_memory` split).
#[test]
fn threat_cache_stays_within_its_limit() {
    let mut rng = SmallRng::seed_from_u64(23);
    let limits = Limits::new(Deadline::unlimited(), None, StopToken::new());
    let mut cache = ThreatCache::with_limit(50);
    let mut peak = 0;
    for _ in 0..20 {
        let mut b = Board::new(15, Rule::Freestyle);
        let mut c = Black;
        for _ in 0..14 {
            b.place(random_empty_in(&b, 4, 11, &mut rng).expect("room"), c);
            c = c.opponent();
            let mut poller = limits.poller();
            let mut t = Threats::with_cache(&mut poller, u64::MAX, cache);
            t.vct_root(&mut b, c, 3);
            cache = t.into_cache();
            peak = peak.max(cache.len());
            assert!(cache.len() <= 50, "{} entries", cache.len());
        }
    }
    // The limit was reached, so the test bounded something.
    assert_eq!(peak, 50);

    let small = Searcher::new(SearchConfig {
        tt_mb: 1,
        ..SearchConfig::default()
    });
    let mut big = Searcher::new(SearchConfig {
        tt_mb: 1,
        ..SearchConfig::default()
    });
    big.resize_tt(16);
    assert!(small.threat_cache_limit() * super::threats::CACHE_ENTRY_BYTES <= 1 << 19);
    let (s, b) = (small.threat_cache_limit(), big.threat_cache_limit());
    assert!(
        b >= 16 * s && b < 16 * (s + 1),
        "{s} entries at 1 MB, {b} at 16 MB"
    );
}

/// The pattern evaluation's win rules on hand positions: an open three of the mover (an
/// open four to make) is a win-like value, for the mover only; a double three of the mover
/// is one only while the opponent has no four to interpose. And a search with patterns on starts tracking them on a board placed untracked.
#[test]
fn pattern_evaluation_sees_open_threes_and_double_threes() {
    use super::eval::{threat_eval, WIN_LIKE};
    use super::weights::ClassWeights;
    let mut b = Board::new(15, Rule::Freestyle);
    for col in 5..=7 {
        b.place(b.point(col, 7), Black);
    }
    b.place(b.point(1, 1), White);
    b.track_patterns();
    assert_eq!(threat_eval(&b, Black, &ClassWeights::CLASSIC), WIN_LIKE);
    assert!(threat_eval(&b, White, &ClassWeights::CLASSIC).abs() < WIN_LIKE / 2);

    // Black: two stones on row 7 and two in column 10 whose lines cross at (10, 7), free
    // around; White has scattered stones only. Black to move plays a double three there.
    let mut b = Board::new(15, Rule::Freestyle);
    for (col, row) in [(7, 7), (8, 7), (10, 9), (10, 10)] {
        b.place(b.point(col, row), Black);
    }
    for (col, row) in [(1, 1), (13, 1), (1, 13), (13, 13)] {
        b.place(b.point(col, row), White);
    }
    b.track_patterns();
    assert_eq!(threat_eval(&b, Black, &ClassWeights::CLASSIC), WIN_LIKE / 2);
    // A White three with one end blocked gives White a four to interpose: no longer a
    // static win.
    for (col, row) in [(2, 3), (3, 3), (4, 3)] {
        b.place(b.point(col, row), White);
    }
    b.place(b.point(1, 3), Black);
    let v = threat_eval(&b, Black, &ClassWeights::CLASSIC);
    assert!(v < WIN_LIKE / 2 && v > -WIN_LIKE / 2, "{v}");

    // The engine with patterns on tracks them itself and still finds the open-three win.
    let mut b = Board::new(15, Rule::Freestyle);
    for col in 5..=7 {
        b.place(b.point(col, 7), Black);
    }
    b.place(b.point(1, 1), White);
    assert!(!b.tracks_patterns());
    let mut s = Searcher::new(SearchConfig {
        patterns: true,
        ..SearchConfig::default()
    });
    let v = s.value(&mut b, Black, 2);
    assert!(b.tracks_patterns());
    assert!(v >= WIN_LIKE, "{v}");
}

/// Black has an open three on row 7 (columns 5..=7). A White move far away leaves Black an
/// open four, a move at (4, 7) next to the three leaves a closed three only: checking the
/// alpha-beta's order, the root defence must pass over the first and take the block; a
/// move already proved safe is taken without a check.
#[test]
fn the_choice_check_skips_a_move_that_loses_to_the_threat() {
    let mut b = Board::new(15, Rule::Freestyle);
    for col in 5..=7 {
        b.place(b.point(col, 7), Black);
    }
    b.place(b.point(1, 1), White);
    b.place(b.point(13, 13), White);
    let cand = |p| Cand {
        p,
        score: 0,
        threat: 0,
    };
    let (far, block) = (b.point(12, 2), b.point(4, 7));
    let order = [cand(far), cand(block)];
    let limits = Limits::new(Deadline::unlimited(), None, StopToken::new());
    let mut s = Searcher::new(SearchConfig::default());
    for depth in [1, 3] {
        let mut poller = limits.poller();
        let got = s.verify_choice(&mut b, White, &order, &[], depth, &mut poller);
        assert_eq!(got, block, "depth {depth}");
    }
    let mut poller = limits.poller();
    assert_eq!(
        s.verify_choice(&mut b, White, &order, &[far], 1, &mut poller),
        far
    );
    assert_eq!(b.stone_count(), 5, "the board is restored");
}

/// A VCT found when threats must come from windows that already hold two attacker stones
/// is one the general search (threats from windows with one) finds too, at the same depth:
/// the narrow search only leaves moves out. Random middle games.
#[test]
fn a_narrow_threat_search_wins_only_where_the_general_one_does() {
    let mut rng = SmallRng::seed_from_u64(29);
    let limits = Limits::new(Deadline::unlimited(), None, StopToken::new());
    let mut narrow_wins = 0;
    for _ in 0..40 {
        let plies = rng.gen_range(8..18);
        let Some((mut b, c)) = random_middle_game(&mut rng, plies) else {
            continue;
        };
        let mut poller = limits.poller();
        let mut t = Threats::new(&mut poller, 2_000_000);
        t.threat_stones = 2;
        let narrow = t.vct_root(&mut b, c, 3);
        let mut poller = limits.poller();
        let mut t = Threats::new(&mut poller, 2_000_000);
        let general = t.vct_root(&mut b, c, 3);
        assert!(!t.aborted);
        if narrow.is_some() {
            narrow_wins += 1;
            assert!(general.is_some(), "{:?}", b.history());
        }
    }
    assert!(narrow_wins > 0, "some positions have a VCT");
}

#[test]
fn renju_black_whose_only_block_is_forbidden_still_plays_a_legal_move() {
    // White's four on the diagonal (3,4)..(6,7), closed at (2,3) by Black, is blocked
    // only at (7,8); Black's open threes (7,6),(7,7) and (5,8),(6,8) make (7,8) a double
    // three. Black is lost, but must answer with a point it may play (two games against
    // Rapfi ended as failures: the brain answered the forbidden block).
    let mut b = Board::new(15, Rule::Renju);
    for (x, y) in [(7, 6), (7, 7), (5, 8), (6, 8), (2, 3)] {
        let p = b.point(x, y);
        b.place(p, Black);
    }
    for (x, y) in [(3, 4), (4, 5), (5, 6), (6, 7)] {
        let p = b.point(x, y);
        b.place(p, White);
    }
    let block = b.point(7, 8);
    assert!(b.makes_five(block, White));
    assert!(b.is_forbidden(block), "the block is a double three");
    let mut s = Searcher::new(SearchConfig {
        tt_mb: 1,
        ..SearchConfig::default()
    });
    let limits = Limits::new(
        Deadline::after(
            std::time::Duration::from_millis(200),
            std::time::Duration::from_millis(200),
        ),
        None,
        StopToken::new(),
    );
    let r = s.search(&mut b, Black, &limits);
    assert!(b.is_empty(r.best) && !b.is_forbidden(r.best), "{r:?}");
    assert!(r.score <= -MATE_BOUND, "a lost position: {r:?}");
}

/// The alpha-beta alone at a fixed depth on 2 and 4 threads (lazy SMP over one table)
/// proves the same puzzle wins as on one thread, each with a winning move of the puzzle
/// file, under freestyle and renju; helpers that reach deeper may only add proofs, and
/// only with the file's winning moves.
#[test]
fn more_threads_prove_the_same_puzzle_wins_as_one() {
    let text = include_str!("../../tests/data/gomoku_puzzles.txt");
    let puzzles = super::puzzles::parse(text).unwrap();
    let mut proved = 0;
    for p in &puzzles {
        for (rule, answers) in [(Rule::Freestyle, &p.freestyle), (Rule::Renju, &p.renju)] {
            if answers.is_empty() {
                continue;
            }
            let mut answers = answers.clone();
            if rule == Rule::Freestyle && p.attacker == Black {
                answers.extend(p.renju.iter().copied());
            }
            let mut results = Vec::new();
            for threads in [1, 2, 4] {
                let mut g = p.game(rule);
                let c = g.to_move();
                let mut s = Searcher::new(SearchConfig {
                    max_depth: 7,
                    tt_mb: 4,
                    threads,
                    ..SearchConfig::default()
                });
                let before = g.board().hash();
                let Some(r) = s.alpha_beta(g.board_mut(), c) else {
                    continue;
                };
                assert_eq!(g.board().hash(), before, "{}: board not restored", p.name);
                let won = r.score >= MATE_BOUND;
                let at = g.board().col_row(r.best);
                if won {
                    assert!(
                        answers.contains(&at),
                        "{} {rule:?} {threads} threads: {at:?} is not a winning move",
                        p.name
                    );
                }
                results.push(won);
            }
            if let Some(&one) = results.first() {
                proved += one as usize;
                for (i, &won) in results.iter().enumerate().skip(1) {
                    assert!(won || !one, "{} {rule:?}: run {i} lost the proof", p.name);
                }
            }
        }
    }
    assert!(
        proved >= 5,
        "only {proved} puzzle wins proved at this depth"
    );
}

/// A root defence pass on several threads (each with its own fresh threat cache) decides
/// every move as the pass on one thread does, in random middle games where the opponent
/// has a VCT; stopping at `enough` safe moves, every move it decided agrees too.
#[test]
fn a_defence_pass_on_threads_decides_each_move_as_one_thread_does() {
    use super::defence::{pass_alone, pass_shared, Check, PassSpec};
    let mut rng = SmallRng::seed_from_u64(41);
    let limits = Limits::new(Deadline::unlimited(), None, StopToken::new());
    let (mut positions, mut refuted, mut safe) = (0, 0, 0);
    for _ in 0..300 {
        if positions == 6 {
            break;
        }
        let plies = rng.gen_range(8..18);
        let Some((mut b, c)) = random_middle_game(&mut rng, plies) else {
            continue;
        };
        let mut poller = limits.poller();
        let mut t = Threats::new(&mut poller, 2_000_000);
        let Some(vct) = t.vct_root(&mut b, c.opponent(), 3) else {
            continue;
        };
        // The moves that may break the VCT first, as the searcher orders them.
        let replies = t.threat_replies(&mut b, c.opponent(), vct);
        positions += 1;
        let mut root = Vec::new();
        scan(&mut b, c, &mut root);
        let mut moves: Vec<Cand> = root
            .iter()
            .filter(|m| replies.contains(&m.p))
            .copied()
            .collect();
        moves.extend(root.iter().filter(|m| !replies.contains(&m.p)));
        moves.truncate(12);
        let spec = |enough| PassSpec {
            depth: 2,
            threat_stones: 1,
            budget: 5_000_000,
            enough,
        };
        let mut poller = limits.poller();
        let mut cache = ThreatCache::default();
        let want = pass_alone(&mut cache, &mut poller, &mut b, c, &moves, spec(None));
        assert!(!want.aborted);
        assert!(want.checks.iter().all(|&x| x != Check::NotReached));
        refuted += want.checks.iter().filter(|&&x| x == Check::Refuted).count();
        safe += want.checks.iter().filter(|&&x| x == Check::Safe).count();
        for extra in [1, 2] {
            for enough in [None, Some(2)] {
                let mut cache = ThreatCache::default();
                let mut more: Vec<ThreatCache> =
                    (0..extra).map(|_| ThreatCache::default()).collect();
                let mut poller = limits.poller();
                let got = pass_shared(
                    &mut cache,
                    &mut more,
                    &mut poller,
                    &b,
                    c,
                    &moves,
                    spec(enough),
                );
                assert!(!got.aborted);
                for (i, (&g, &w)) in got.checks.iter().zip(&want.checks).enumerate() {
                    assert!(
                        g == w || (enough.is_some() && g == Check::NotReached),
                        "move {i}: {g:?} on {} threads, {w:?} on one",
                        extra + 1
                    );
                }
                let found = got.checks.iter().filter(|&&x| x == Check::Safe).count();
                let have = want.checks.iter().filter(|&&x| x == Check::Safe).count();
                assert!(found >= have.min(enough.unwrap_or(usize::MAX)));
                assert!(got.nodes > 0);
            }
        }
    }
    // The positions must hold refuted and safe moves for the comparison to mean anything.
    assert_eq!(positions, 6);
    assert!(refuted > 5 && safe > 5, "{refuted} refuted, {safe} safe");
}
