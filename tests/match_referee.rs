//! The referee against real child processes: the hidden `quartet fake-gtp` engine in its
//! broken modes, two random engines, and two GNU Go instances (which need GNU Go: without
//! it that test skips with a message, or fails under CI; tests/common/oracle.rs).
use quartet::color::Color;
use quartet::go::board::Move;
use quartet::go::game::Game;
use quartet::go::sgf::parse_sgf;
use quartet::matches::go_referee::GoReferee;
use quartet::matches::gtp_client::{ClientError, GtpClient, StderrTarget};
use quartet::matches::referee::{play_game, EndReason, Outcome, RefereeGame, RefereeOptions};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

mod common;

const QUARTET: &str = env!("CARGO_BIN_EXE_quartet");

fn fake(mode: &str, seed: u64) -> String {
    format!("{QUARTET} fake-gtp --mode {mode} --seed {seed} --delay-ms 1500")
}

fn options(limit: Option<f64>) -> RefereeOptions {
    let t = limit.map(Duration::from_secs_f64);
    RefereeOptions {
        time_per_move: [t, t],
        clock: [None, None],
        margin: Duration::from_millis(100),
        command_timeout: Duration::from_secs(5),
        hang_timeout: Duration::from_secs(20),
        resign: None,
    }
}

/// Plays one 5x5 game between two command lines and returns the outcome and the referee.
async fn game(black: &str, white: &str, limit: Option<f64>) -> (Outcome, GoReferee) {
    let mut b = GtpClient::spawn(black, &StderrTarget::Null).unwrap();
    let mut w = GtpClient::spawn(white, &StderrTarget::Null).unwrap();
    let mut referee = GoReferee::new(5, 7.5).unwrap();
    let outcome = play_game(&mut referee, [&mut b, &mut w], &options(limit)).await;
    b.shutdown(Duration::from_secs(1)).await;
    w.shutdown(Duration::from_secs(1)).await;
    (outcome, referee)
}

/// Replays a record through a fresh `Game`: every move must be legal.
fn replay(moves: &[(Color, Option<(usize, usize)>)], size: usize) -> Game {
    let mut g = Game::new(size, 7.5);
    for &(c, p) in moves {
        let mv = match p {
            None => Move::Pass,
            Some((col, row)) => Move::Play(g.board().point(col, row)),
        };
        g.play(c, mv).expect("recorded move is legal");
    }
    g
}

#[tokio::test]
async fn illegal_move_loses() {
    let (o, _) = game(&fake("illegal", 1), &fake("random", 2), None).await;
    assert_eq!(o.winner, Some(Color::White), "{o:?}");
    assert!(matches!(o.reason, EndReason::Illegal(_)), "{o:?}");
    assert_eq!(o.result_text(), "W+F");
    // The illegal engine's second genmove is Black's second move: after B, W.
    assert_eq!(o.moves, 2);
}

#[tokio::test]
async fn malformed_answer_loses() {
    let (o, _) = game(&fake("random", 1), &fake("garbage", 2), None).await;
    assert_eq!(o.winner, Some(Color::Black), "{o:?}");
    assert_eq!(o.reason, EndReason::Malformed("banana".into()));
    assert_eq!(o.moves, 1);
}

#[tokio::test]
async fn too_slow_loses_on_time() {
    let start = Instant::now();
    let slow = format!("{QUARTET} fake-gtp --mode slow --delay-ms 6000");
    let (o, _) = game(&slow, &fake("random", 2), Some(0.3)).await;
    assert_eq!(o.winner, Some(Color::White), "{o:?}");
    assert_eq!(o.reason, EndReason::Time);
    assert_eq!(o.result_text(), "W+T");
    // Decided at the limit plus margin (0.4 s), not when the 6 s answer would arrive; the
    // slack covers starting two processes on a loaded machine.
    assert!(
        start.elapsed() < Duration::from_secs(4),
        "{:?}",
        start.elapsed()
    );
}

#[tokio::test]
async fn dead_engine_and_resignation() {
    let (o, _) = game(&fake("random", 1), &fake("die", 2), None).await;
    assert_eq!(o.winner, Some(Color::Black), "{o:?}");
    assert!(matches!(o.reason, EndReason::EngineFailure(_)), "{o:?}");
    let (o, _) = game(&fake("resign", 1), &fake("random", 2), None).await;
    assert_eq!(
        (o.winner, o.result_text()),
        (Some(Color::White), "W+R".into())
    );
}

#[tokio::test]
async fn two_random_engines_finish_and_the_record_replays() {
    let (o, referee) = game(&fake("random", 7), &fake("random", 8), Some(2.0)).await;
    assert!(matches!(o.reason, EndReason::Score { .. }), "{o:?}");
    // The fakes score with their own (identical) rules, so they agree with each other,
    // and with our scoring.
    let own = referee.own_score();
    assert_eq!(
        o.reason,
        EndReason::Score {
            margin: own,
            agreed: true
        }
    );
    let text = referee.record(&o, ["x", "y"], "2026-12-01");
    let rec = parse_sgf(&text).unwrap();
    assert_eq!(rec.result.as_deref(), Some(o.result_text().as_str()));
    assert_eq!(rec.moves.len(), o.moves);
    let last_two: Vec<_> = rec.moves.iter().rev().take(2).map(|m| m.1).collect();
    assert_eq!(last_two, [None, None], "ends on two passes");
    assert_eq!(replay(&rec.moves, 5).area_score(), own);
}

/// When the engines' `final_score` answers differ, our own area scoring decides.
#[tokio::test]
async fn disagreeing_scores_fall_back_to_ours() {
    let (o, referee) = game(&fake("random", 7), &fake("liar", 8), None).await;
    let own = referee.own_score();
    assert_eq!(
        o.reason,
        EndReason::Score {
            margin: own,
            agreed: false
        }
    );
    assert_ne!(own, -100.0);
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quartet-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[tokio::test]
async fn missing_program_is_a_spawn_error() {
    assert!(GtpClient::spawn("/nonexistent/engine", &StderrTarget::Null).is_err());
    assert!(GtpClient::spawn("'unterminated", &StderrTarget::Null).is_err());
}

/// Two GNU Go instances at level 1 on 5x5 through the two-engine form of the CLI: two
/// games, one line each on stderr, two games per engine with no forfeits in the JSON, and
/// both records replay legally under our rules.
#[test]
fn gnugo_against_gnugo_through_the_cli() {
    let Some(gnugo) = common::oracle::gnugo() else {
        return;
    };
    let dir = temp_dir("gnugo");
    let json = dir.with_extension("json");
    let engine = format!("{} --mode gtp --level 1 --chinese-rules", gnugo.display());
    // The table names an engine by its program's file name.
    let name = gnugo.file_name().unwrap().to_string_lossy().into_owned();
    let out = Command::new(QUARTET)
        .args(["match", "go", "--black", &engine, "--white", &engine])
        .args(["--games", "2", "--boardsize", "5", "--komi", "7.5"])
        .args(["--time-per-move", "10", "--concurrency", "2", "--sgf-dir"])
        .arg(&dir)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert_eq!(stderr.lines().filter(|l| l.contains("] game ")).count(), 2);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let engines = v["engines"].as_array().unwrap();
    // Equal program names: the second is told apart by its number.
    let names: Vec<_> = engines
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, [name.clone(), format!("{name}#2")]);
    for e in engines {
        let t = &e["total"];
        let games = ["wins", "draws", "losses"].map(|k| t[k].as_u64().unwrap());
        assert_eq!(games.iter().sum::<u64>(), 2, "{e}");
        for lost in [
            "lost_on_time",
            "lost_illegal",
            "lost_malformed",
            "lost_failure",
        ] {
            assert_eq!(e[lost], 0, "{e}");
        }
    }
    for i in 1..=2 {
        let text = std::fs::read_to_string(dir.join(format!("game-{i:05}.sgf"))).unwrap();
        let rec = parse_sgf(&text).unwrap();
        assert_eq!((rec.size, rec.komi), (5, 7.5));
        replay(&rec.moves, 5);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&json);
}

#[tokio::test]
async fn client_errors_and_timeouts() {
    let t = Duration::from_secs(5);
    let mut c = GtpClient::spawn(&fake("slow", 1), &StderrTarget::Null).unwrap();
    assert_eq!(c.send("name", t).await, Ok("fake-gtp".into()));
    assert_eq!(
        c.send("frobnicate", t).await,
        Err(ClientError::Failure("unknown command".into()))
    );
    // A newline inside a command must not turn it into two commands: one answer only
    // (the fake knows no two-argument boardsize), and the next answer is in step.
    assert_eq!(
        c.send("boardsize 5\nname", t).await,
        Err(ClientError::Failure("unknown command".into()))
    );
    assert_eq!(c.send("boardsize 5", t).await, Ok(String::new()));
    let short = Duration::from_millis(200);
    assert_eq!(c.send("genmove b", short).await, Err(ClientError::Timeout));
    assert_eq!(c.send("name", t).await, Err(ClientError::Unusable));
    c.shutdown(t).await;

    let mut d = GtpClient::spawn(&fake("die", 1), &StderrTarget::Null).unwrap();
    assert_eq!(d.send("genmove b", t).await, Err(ClientError::Died));
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(d.has_exited());
}

/// Every shipped opening file replays under our rules for its game and holds the number of
/// openings its header promises (the 26 renju openings are all distinct).
#[test]
fn shipped_opening_files_are_legal() {
    use quartet::gomoku::board::Rule;
    use quartet::matches::dots_referee::DotsReferee;
    use quartet::matches::gomoku_referee::GomokuReferee;
    use quartet::matches::othello_referee::OthelloReferee;
    use quartet::matches::schedule::parse_openings;
    let read = |name: &str| {
        let path = format!("{}/scripts/openings/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap()
    };
    let go = parse_openings(&read("go9.txt"), || GoReferee::new(9, 7.5).unwrap()).unwrap();
    assert_eq!(go.len(), 12);
    let othello = parse_openings(&read("othello.txt"), OthelloReferee::new).unwrap();
    assert_eq!(othello.len(), 9);
    let balanced = parse_openings(&read("othello-balanced.txt"), OthelloReferee::new).unwrap();
    assert_eq!(balanced.len(), 100);
    assert!(balanced.iter().all(|o| o.len() == 8));
    let mut distinct = balanced.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 100);
    let gomoku = parse_openings(&read("gomoku15.txt"), || {
        GomokuReferee::new(15, Rule::Renju, &[]).unwrap()
    })
    .unwrap();
    assert_eq!(gomoku.len(), 26);
    let mut distinct = gomoku.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 26);
    let dots = parse_openings(&read("dots5x5.txt"), || DotsReferee::new(5, 5).unwrap()).unwrap();
    assert_eq!(dots.len(), 20);
    let gomoku_balanced = parse_openings(&read("gomoku15-balanced.txt"), || {
        GomokuReferee::new(15, Rule::Freestyle, &[]).unwrap()
    })
    .unwrap();
    assert_eq!(gomoku_balanced.len(), 50);
}
