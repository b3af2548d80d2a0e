//! Exact endgame scores against the published FFO solutions (#40 and #41, the quick ones;
//! the whole #40-#49 run is `quartet bench othello ffo`).
use quartet::othello::bitboard::parse_square;
use quartet::othello::board::Board;
use quartet::othello::endgame::Solver;

const SUITE: &str = include_str!("../data/othello/ffo-40-59.obf");

fn check(line_no: usize) {
    let line = SUITE.lines().nth(line_no).unwrap();
    let mut it = line.split_whitespace();
    let (b, _) =
        Board::from_obf(it.next().unwrap(), it.next().unwrap().trim_end_matches(';')).unwrap();
    let first = it.next().unwrap().trim_end_matches(';');
    let (mv, score) = first.split_once(':').unwrap();
    let score: i32 = score.parse().unwrap();
    let mut solver = Solver::new(32);
    let r = solver.solve(&b);
    assert_eq!(r.score, score, "FFO line {line_no}");
    // The best move must be one the suite lists with the best score.
    let best = r.best.unwrap();
    let tied: Vec<usize> = line
        .split_whitespace()
        .skip(2)
        .filter_map(|s| {
            let (m, v) = s.trim_end_matches(';').split_once(':')?;
            (v.parse::<i32>().ok()? == score).then(|| parse_square(m).unwrap())
        })
        .collect();
    assert!(
        tied.contains(&best),
        "move {best} not among {tied:?} ({mv})"
    );
}

#[test]
fn ffo_40_exact() {
    check(0);
}

#[test]
fn ffo_41_exact() {
    check(1);
}
