//! The puzzle file's known winning first moves (renju-note/quintet solutions re-checked with
//! Rapfi; see the file header) must be found quickly: every puzzle the threat search solves
//! gets 1 s here. The slow ones are left to `quartet bench gomoku puzzles` (see the report).
use quartet::gomoku::bench::run_puzzles;
use quartet::gomoku::search::SearchConfig;

/// Not solved, or solved only by a long alpha-beta, within 5 s (measured, see the bench).
const SLOW: &[&str] = &[
    "vct_fukumi_move",
    "vct_game_white_l05_1",
    "vct_dual_forbiddens",
];

#[test]
fn threat_search_solves_the_puzzles_with_their_known_answers() {
    let text = include_str!("data/gomoku_puzzles.txt");
    let kept: String = text
        .split("=====")
        .filter(|b| !SLOW.iter().any(|s| b.contains(&format!("name: {s}\n"))))
        .collect::<Vec<_>>()
        .join("=====");
    let results = run_puzzles(&kept, 1.0, &SearchConfig::default()).unwrap();
    // 16 puzzles, 13 freestyle wins and 16 renju wins = 29 runs, minus the 5 slow runs.
    assert_eq!(results.len(), 24);
    let missed: Vec<String> = results
        .iter()
        .filter(|r| !r.solved)
        .map(|r| format!("{} {} played {}", r.name, r.rule.name(), r.played))
        .collect();
    assert!(missed.is_empty(), "missed: {missed:?}");
}
