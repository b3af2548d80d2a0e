//! Exact endgame scores against the published FFO solutions (#40 and #41, the quick ones;
//! the whole #40-#49 run is `quartet bench othello ffo`).
use quartet::othello::endgame::Solver;
use quartet::othello::obf;

const SUITE: &str = include_str!("../data/othello/ffo-40-59.obf");

fn check(line_no: usize) {
    let p = obf::parse_line(obf::lines(SUITE)[line_no]).unwrap();
    let mut solver = Solver::new(32);
    let r = solver.solve(&p.board);
    assert_eq!(Some(r.score), p.score(), "FFO line {line_no}");
    // The best move must be one the suite lists with the best score.
    let best = r.best.unwrap();
    assert!(p.is_best(best), "move {best} not best in {:?}", p.moves);
}

#[test]
fn ffo_40_exact() {
    check(0);
}

#[test]
fn ffo_41_exact() {
    check(1);
}
