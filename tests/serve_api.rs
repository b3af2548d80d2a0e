//! The HTTP and WebSocket API of `quartet serve` (docs/serve.md), driven in-process: the
//! server binds a free loopback port and runs the real engines (this build's binary).
use futures_util::{SinkExt, StreamExt};
use quartet::serve::{bind, ServeSettings};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Only stops a hang; nothing here measures speed.
const WAIT: Duration = Duration::from_secs(120);

async fn start_server(max_games: usize) -> SocketAddr {
    start_server_with(|s| s.max_games = max_games).await
}

async fn start_server_with(change: impl FnOnce(&mut ServeSettings)) -> SocketAddr {
    let mut settings = ServeSettings::new(PathBuf::from(env!("CARGO_BIN_EXE_quartet")));
    settings.port = 0;
    change(&mut settings);
    let (addr, server) = bind(settings).await.expect("bind");
    tokio::spawn(server);
    addr
}

struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    async fn connect(addr: SocketAddr) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .expect("connect");
        let mut c = Client { ws };
        let hello = c.recv().await;
        assert_eq!(hello["type"], "hello", "{hello}");
        c
    }

    async fn send(&mut self, v: Value) {
        self.send_text(v.to_string()).await;
    }

    async fn send_text(&mut self, text: String) {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .expect("send");
    }

    async fn recv(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("no message in time")
                .expect("socket closed")
                .expect("socket error");
            if let Message::Text(t) = msg {
                return serde_json::from_str(t.as_str()).expect("JSON");
            }
        }
    }

    /// Skips messages until one satisfies `want`.
    async fn until(&mut self, want: impl Fn(&Value) -> bool) -> Value {
        let run = async {
            loop {
                let v = self.recv().await;
                if want(&v) {
                    return v;
                }
            }
        };
        tokio::time::timeout(WAIT, run)
            .await
            .expect("expected message never came")
    }

    async fn state(&mut self, want: impl Fn(&Value) -> bool) -> Value {
        self.until(|v| v["type"] == "state" && want(v)).await
    }

    async fn error(&mut self) -> Value {
        self.until(|v| v["type"] == "error").await
    }

    /// The next error or state, whichever comes first.
    async fn reply(&mut self) -> Value {
        self.until(|v| v["type"] == "error" || v["type"] == "state")
            .await
    }

    async fn save(&mut self) -> Value {
        self.send(json!({"type": "save"})).await;
        self.until(|v| v["type"] == "record").await
    }
}

fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect()
}

fn count(state: &Value, stone: char) -> usize {
    state["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().chars().filter(|&c| c == stone).count())
        .sum()
}

/// Tromp-Taylor area of Black minus White from the drawn board, minus komi.
fn go_area_margin(state: &Value) -> f64 {
    let rows: Vec<Vec<char>> = state["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().chars().collect())
        .collect();
    let n = rows.len();
    let mut seen = vec![vec![false; n]; n];
    let mut margin = 0i64;
    for r in 0..n {
        for c in 0..n {
            match rows[r][c] {
                'X' => margin += 1,
                'O' => margin -= 1,
                _ if !seen[r][c] => {
                    let (mut size, mut borders) = (0i64, (false, false));
                    let mut stack = vec![(r, c)];
                    seen[r][c] = true;
                    while let Some((y, x)) = stack.pop() {
                        size += 1;
                        let mut next = vec![];
                        if y > 0 {
                            next.push((y - 1, x));
                        }
                        if y + 1 < n {
                            next.push((y + 1, x));
                        }
                        if x > 0 {
                            next.push((y, x - 1));
                        }
                        if x + 1 < n {
                            next.push((y, x + 1));
                        }
                        for (yy, xx) in next {
                            match rows[yy][xx] {
                                'X' => borders.0 = true,
                                'O' => borders.1 = true,
                                _ if !seen[yy][xx] => {
                                    seen[yy][xx] = true;
                                    stack.push((yy, xx));
                                }
                                _ => {}
                            }
                        }
                    }
                    match borders {
                        (true, false) => margin += size,
                        (false, true) => margin -= size,
                        _ => {}
                    }
                }
                _ => {}
            }
        }
    }
    margin as f64 - state["komi"].as_f64().unwrap()
}

/// `B+3.5` -> 3.5, `W+2` -> -2, `Draw` -> 0; `None` for `B+R` and the like.
fn margin(result: &str) -> Option<f64> {
    if result == "Draw" {
        return Some(0.0);
    }
    let (who, m) = result.split_once('+')?;
    let m: f64 = m.parse().ok()?;
    Some(if who == "B" { m } else { -m })
}

async fn play_out(addr: SocketAddr, new: Value) -> Value {
    let mut c = Client::connect(addr).await;
    c.send(new).await;
    let end = c.state(|s| s["over"] == true).await;
    assert!(end["legal"].as_array().unwrap().is_empty());
    assert_eq!(end["thinking"], false);
    end
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_games_of_all_four_kinds_end_with_a_result_matching_the_board() {
    let addr = start_server(4).await;
    let ee = |mut v: Value| {
        v["black"] = json!("engine");
        v["white"] = json!("engine");
        v["seconds"] = json!(0.1);
        v["type"] = json!("new");
        v
    };
    let (go, othello, gomoku, dots) = tokio::join!(
        play_out(addr, ee(json!({"game": "go", "size": 9, "komi": 7.5}))),
        play_out(addr, ee(json!({"game": "othello"}))),
        play_out(
            addr,
            ee(json!({"game": "gomoku", "size": 15, "rule": "freestyle"}))
        ),
        play_out(addr, ee(json!({"game": "dots", "cols": 3, "rows": 2}))),
    );

    let r = go["result"].as_str().unwrap();
    match margin(r) {
        // Two passes (or the move cap, three times the points): our area count decides.
        Some(m) => {
            let played = moves(&go);
            let passes = played[played.len() - 2..] == ["pass", "pass"];
            assert!(passes || played.len() >= 3 * 81, "{r}");
            assert_eq!(m, go_area_margin(&go), "{go}");
        }
        None => assert!(r.ends_with("+R"), "{r}"),
    }

    let (b, w) = (
        othello["score"]["black"].as_i64().unwrap(),
        othello["score"]["white"].as_i64().unwrap(),
    );
    assert_eq!(
        (b as usize, w as usize),
        (count(&othello, 'X'), count(&othello, 'O'))
    );
    let m = margin(othello["result"].as_str().unwrap()).expect("scored");
    assert_eq!(m.signum(), ((b - w) as f64).signum(), "{othello}");

    let r = gomoku["result"].as_str().unwrap();
    if r != "Draw" {
        let stone = if r.starts_with('B') { 'X' } else { 'O' };
        let line = gomoku["winning_line"].as_array().expect("a winning line");
        assert!(line.len() >= 5, "{gomoku}");
        let rows = gomoku["board"].as_array().unwrap();
        for p in line {
            let (c, r) = (
                p[0].as_u64().unwrap() as usize,
                p[1].as_u64().unwrap() as usize,
            );
            let row: Vec<char> = rows[r].as_str().unwrap().chars().collect();
            assert_eq!(row[c], stone, "{gomoku}");
        }
    }

    let d = &dots["dots"];
    let boxes: Vec<&Value> = d["boxes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap())
        .collect();
    assert_eq!(boxes.len(), 6);
    let black = boxes.iter().filter(|b| **b == "black").count() as f64;
    let white = boxes.iter().filter(|b| **b == "white").count() as f64;
    assert_eq!(black + white, 6.0);
    assert_eq!(
        margin(dots["result"].as_str().unwrap()),
        Some(black - white)
    );
    assert_eq!(dots["score"]["black"], black as u64);
    assert!(d["edges"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["by"] != Value::Null));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn human_moves_are_checked() {
    let addr = start_server(4).await;
    let mut c = Client::connect(addr).await;
    c.send(json!({"type": "play", "move": "E5"})).await;
    assert_eq!(c.error().await["code"], "bad_message", "no game yet");

    c.send(json!({"type": "new", "game": "go", "size": 9, "black": "human", "white": "human"}))
        .await;
    let s = c.state(|_| true).await;
    assert_eq!(s["legal"].as_array().unwrap().len(), 82);
    for bad in ["Z99", "banana", "I5"] {
        c.send(json!({"type": "play", "move": bad})).await;
        assert_eq!(c.reply().await["code"], "illegal", "{bad}");
    }
    c.send(json!({"type": "play", "move": "e5"})).await;
    let s = c.state(|_| true).await;
    assert_eq!(moves(&s), ["E5"]);
    assert_eq!(s["board"][4], "....X....");
    c.send(json!({"type": "play", "move": "E5"})).await;
    assert_eq!(c.reply().await["code"], "illegal", "occupied");

    // White becomes the engine: while it thinks, no move is accepted.
    c.send(json!({"type": "players", "white": "engine", "seconds": 5.0}))
        .await;
    let s = c.state(|_| true).await;
    assert_eq!(s["thinking"], true);
    c.send(json!({"type": "play", "move": "A1"})).await;
    assert_eq!(c.reply().await["code"], "not_your_turn");
    let s = c.state(|s| s["thinking"] == false).await;
    assert_eq!(moves(&s).len(), 2);
    assert_eq!(s["to_move"], "black");

    // Othello notation and legality.
    c.send(json!({"type": "new", "game": "othello", "black": "human", "white": "human"}))
        .await;
    let s = c.state(|_| true).await;
    assert_eq!(s["legal"], json!(["d3", "c4", "f5", "e6"]));
    c.send(json!({"type": "play", "move": "a1"})).await;
    assert_eq!(c.reply().await["code"], "illegal");
    c.send(json!({"type": "play", "move": "pass"})).await;
    assert_eq!(c.reply().await["code"], "illegal");
    c.send(json!({"type": "play", "move": "d3"})).await;
    let s = c.state(|_| true).await;
    assert_eq!(s["board"][2], "...X....");
    assert_eq!(s["score"], json!({"black": 4, "white": 1}));

    // Dots: a capture keeps the turn.
    c.send(json!({"type": "new", "game": "dots", "cols": 1, "rows": 1, "black": "human", "white": "human"}))
        .await;
    c.state(|_| true).await;
    for m in ["a1-b1", "a1-a2", "b1-b2"] {
        c.send(json!({"type": "play", "move": m})).await;
        c.state(|_| true).await;
    }
    c.send(json!({"type": "play", "move": "a2-b2"})).await;
    let s = c.state(|_| true).await;
    assert_eq!(s["over"], true);
    assert_eq!(s["result"], "W+1");
    assert_eq!(s["dots"]["boxes"], json!([["white"]]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_and_oversized_frames_leave_the_game_as_it_was() {
    let addr = start_server(4).await;
    let mut c = Client::connect(addr).await;
    c.send(json!({"type": "new", "game": "gomoku", "black": "human", "white": "human"}))
        .await;
    c.state(|_| true).await;
    c.send(json!({"type": "play", "move": "H8"})).await;
    c.state(|_| true).await;
    let before = c.save().await;

    let cases: Vec<(String, &str)> = vec![
        ("{not json".into(), "bad_message"),
        (r#"{"type":"fly"}"#.into(), "bad_message"),
        (r#"{"type":"play","move":123}"#.into(), "bad_message"),
        (
            r#"{"type":"play","move":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}"#.into(),
            "bad_message",
        ),
        (
            r#"{"type":"new","game":"go","size":10}"#.into(),
            "bad_message",
        ),
        (
            r#"{"type":"new","game":"dots","cols":0}"#.into(),
            "bad_message",
        ),
        (r#"{"type":"players","seconds":1e9}"#.into(), "bad_message"),
        (r#"{"type":"analyze","on":"yes"}"#.into(), "bad_message"),
        (
            format!(r#"{{"type":"load","text":"{}"}}"#, "x".repeat(300 * 1024)),
            "too_large",
        ),
    ];
    for (text, code) in cases {
        let short: String = text.chars().take(40).collect();
        c.send_text(text).await;
        let e = c.error().await;
        assert_eq!(e["code"], code, "{short}: {e}");
    }
    c.ws.send(Message::Binary(vec![1, 2, 3].into()))
        .await
        .unwrap();
    assert_eq!(c.error().await["code"], "bad_message");

    assert_eq!(c.save().await, before, "the game is unchanged");
    c.send(json!({"type": "play", "move": "J9"})).await;
    let s = c.state(|_| true).await;
    assert_eq!(moves(&s), ["H8", "J9"], "the session still plays");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_cap_answers_busy_until_a_game_closes() {
    let addr = start_server(1).await;
    let new = json!({"type": "new", "game": "dots", "cols": 2, "rows": 2, "black": "human", "white": "engine"});
    let mut a = Client::connect(addr).await;
    a.send(new.clone()).await;
    a.state(|_| true).await;
    let info = http_get(addr, "/api/info").await;
    let info: Value = serde_json::from_str(&info.2).unwrap();
    assert_eq!(
        (info["max_games"].as_u64(), info["open_games"].as_u64()),
        (Some(1), Some(1))
    );

    let mut b = Client::connect(addr).await;
    b.send(new.clone()).await;
    assert_eq!(b.reply().await["code"], "busy");
    // A second game in the same session reuses its place.
    a.send(new.clone()).await;
    assert_eq!(a.reply().await["type"], "state");
    a.ws.close(None).await.unwrap();
    drop(a);
    // Closing the socket ends the game and its engine process.
    let freed = tokio::time::timeout(WAIT, async {
        loop {
            let info: Value = serde_json::from_str(&http_get(addr, "/api/info").await.2).unwrap();
            if info["open_games"] == 0 && info["engines"] == 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await;
    assert!(freed.is_ok(), "the engine process never exited");

    let got = tokio::time::timeout(WAIT, async {
        loop {
            b.send(new.clone()).await;
            let r = b.reply().await;
            if r["type"] == "state" {
                return r;
            }
            assert_eq!(r["code"], "busy");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("the place is freed");
    assert_eq!(got["game"], "dots");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_streams_and_stop_ends_it() {
    let addr = start_server(4).await;
    let mut c = Client::connect(addr).await;
    c.send(json!({"type": "new", "game": "go", "size": 9, "black": "human", "white": "human"}))
        .await;
    c.state(|_| true).await;
    c.send(json!({"type": "analyze", "on": true})).await;
    let a = c.until(|v| v["type"] == "analysis").await;
    assert_eq!(a["to_move"], "black");
    assert_eq!(a["ownership"].as_array().unwrap().len(), 81);
    let first = &a["moves"][0];
    assert!(first["visits"].as_u64().unwrap() > 0, "{a}");
    let w = first["winrate"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&w));
    assert!(a["moves"].as_array().unwrap().len() <= 10);

    c.send(json!({"type": "stop"})).await;
    let s = c.state(|_| true).await;
    assert_eq!(s["analyzing"], false);
    // Nothing more after the stop: a record round trip, then a quiet spell.
    c.save().await;
    let quiet = tokio::time::timeout(Duration::from_millis(1500), c.ws.next()).await;
    assert!(quiet.is_err(), "a message after stop: {quiet:?}");

    // The other engines' `analyze` stream too (Dots here), and Go's genmove stream.
    c.send(json!({"type": "new", "game": "dots", "cols": 2, "rows": 2, "black": "human", "white": "human"}))
        .await;
    c.state(|_| true).await;
    c.send(json!({"type": "analyze", "on": true})).await;
    let a = c.until(|v| v["type"] == "analysis").await;
    assert!(a["moves"][0]["move"].as_str().unwrap().contains('-'), "{a}");
    assert_eq!(a["ownership"], Value::Null);
    // A move ends the stream in the same engine, which goes on with the next position.
    c.send(json!({"type": "play", "move": "a1-b1"})).await;
    c.state(|s| moves(s).len() == 1).await;
    let a = c
        .until(|v| v["type"] == "analysis" && v["to_move"] == "white")
        .await;
    assert!(!a["moves"].as_array().unwrap().is_empty());
    c.send(json!({"type": "analyze", "on": false})).await;
    let s = c.state(|s| s["analyzing"] == false).await;
    assert_eq!(moves(&s), ["a1-b1"]);
    c.send(json!({"type": "players", "white": "engine", "seconds": 0.1}))
        .await;
    let s = c
        .state(|s| s["thinking"] == false && s["to_move"] == "black")
        .await;
    assert_eq!(
        moves(&s)[0],
        "a1-b1",
        "the engine replied from the right position"
    );

    // Analysis stays on into a new game, where the Go engine streams its own search.
    c.send(json!({"type": "analyze", "on": true})).await;
    c.state(|s| s["analyzing"] == true).await;
    c.send(json!({"type": "new", "game": "go", "size": 9, "black": "engine", "white": "human", "seconds": 2.0}))
        .await;
    let s = c.state(|_| true).await;
    assert_eq!(
        (s["thinking"].clone(), s["analyzing"].clone()),
        (json!(true), json!(true))
    );
    let a = c.until(|v| v["type"] == "analysis").await;
    assert_eq!(a["to_move"], "black");
    let s = c.state(|s| s["thinking"] == false).await;
    assert_eq!(moves(&s).len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dots_engine_streams_analysis_while_it_thinks_on_its_own_move() {
    let addr = start_server(4).await;
    let mut c = Client::connect(addr).await;
    c.send(json!({"type": "new", "game": "dots", "cols": 3, "rows": 3, "black": "human", "white": "human"}))
        .await;
    c.state(|_| true).await;
    c.send(json!({"type": "analyze", "on": true})).await;
    c.state(|s| s["analyzing"] == true).await;
    // Analysis stays on into the new game, where the engine moves first.
    c.send(json!({"type": "new", "game": "dots", "cols": 3, "rows": 3, "black": "engine", "white": "human", "seconds": 2.0}))
        .await;
    c.state(|s| s["thinking"] == true).await;
    // The first analysis after the engine began thinking comes from its own search
    // (`genmove_analyze`), before its move.
    let first = c
        .until(|v| v["type"] == "analysis" || (v["type"] == "state" && v["thinking"] == false))
        .await;
    assert_eq!(first["type"], "analysis", "{first}");
    assert_eq!(first["to_move"], "black");
    let best = first["moves"][0]["move"].as_str().unwrap();
    assert!(best.contains('-'), "{first}");
    assert!(first["moves"][0]["visits"].as_u64().unwrap() > 0, "{first}");
    let s = c.state(|s| s["thinking"] == false).await;
    assert_eq!(moves(&s).len(), 1);
    assert_eq!(s["to_move"], "white");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_interrupts_the_engine_and_pauses_engine_play() {
    let addr = start_server(4).await;
    let mut c = Client::connect(addr).await;
    c.send(json!({"type": "new", "game": "go", "size": 9, "black": "engine", "white": "engine", "seconds": 60.0}))
        .await;
    c.state(|s| s["thinking"] == true).await;
    c.send(json!({"type": "stop"})).await;
    // The guard is far below the 60 s the engine was given: only an interrupt answers.
    let s = tokio::time::timeout(Duration::from_secs(20), c.state(|s| s["thinking"] == false))
        .await
        .expect("the search stopped");
    assert_eq!(moves(&s).len(), 1);
    assert_eq!(s["paused"], true);
    c.send(json!({"type": "play", "move": "A1"})).await;
    assert_eq!(c.reply().await["code"], "not_your_turn");

    c.send(json!({"type": "players", "seconds": 0.1})).await;
    c.state(|_| true).await;
    c.send(json!({"type": "resume"})).await;
    let s = c.state(|s| moves(s).len() >= 3).await;
    assert_eq!(s["paused"], false);

    // A new game while the engine thinks: its move is dropped, and the same engine,
    // replayed to the new position, answers from there.
    c.send(json!({"type": "players", "seconds": 60.0})).await;
    let n = moves(&c.state(|s| s["seconds"] == 60.0).await).len();
    // The search after the next move is the one given 60 s.
    c.state(|s| s["thinking"] == true && moves(s).len() > n)
        .await;
    c.send(json!({"type": "new", "game": "go", "size": 9, "black": "human", "white": "human"}))
        .await;
    let s = c.state(|_| true).await;
    assert!(moves(&s).is_empty());
    assert_eq!(s["thinking"], false);
    c.send(json!({"type": "play", "move": "E5"})).await;
    c.state(|s| moves(s) == ["E5"]).await;
    c.send(json!({"type": "players", "white": "engine", "seconds": 0.1}))
        .await;
    let s = tokio::time::timeout(Duration::from_secs(20), c.state(|s| s["thinking"] == false))
        .await
        .expect("the interrupted search was replaced");
    let played = moves(&s);
    assert_eq!((played.len(), played[0].as_str()), (2, "E5"), "{s}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_takes_back_to_the_humans_turn() {
    let addr = start_server(4).await;
    let mut c = Client::connect(addr).await;
    c.send(json!({"type": "undo"})).await;
    assert_eq!(c.error().await["code"], "bad_message");
    c.send(json!({"type": "new", "game": "gomoku", "black": "human", "white": "engine", "seconds": 0.1}))
        .await;
    c.state(|_| true).await;
    c.send(json!({"type": "undo"})).await;
    assert_eq!(c.reply().await["code"], "illegal", "nothing to undo");
    c.send(json!({"type": "play", "move": "H8"})).await;
    let s = c
        .state(|s| s["thinking"] == false && moves(s).len() == 2)
        .await;
    assert_eq!(s["to_move"], "black");
    c.send(json!({"type": "undo"})).await;
    let s = c.state(|_| true).await;
    assert!(moves(&s).is_empty(), "{s}");
    assert_eq!(s["to_move"], "black");
    assert_eq!(s["thinking"], false);
    // The engine was taken back too: it answers a new move from the empty board.
    c.send(json!({"type": "play", "move": "A1"})).await;
    let s = c
        .state(|s| s["thinking"] == false && moves(s).len() == 2)
        .await;
    assert_eq!(moves(&s)[0], "A1");

    // Engine against engine: one move back, then paused.
    c.send(json!({"type": "players", "black": "engine", "white": "engine"}))
        .await;
    let s = c.state(|s| moves(s).len() >= 4).await;
    let n = moves(&s).len();
    c.send(json!({"type": "undo"})).await;
    let mut last = n;
    let s = loop {
        let v = c.state(|_| true).await;
        if v["paused"] == true {
            break v;
        }
        last = moves(&v).len();
    };
    assert_eq!(moves(&s).len(), last - 1, "{s}");
    // Paused: the engines make no move until resumed.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let text = c.save().await["text"].as_str().unwrap().to_string();
    assert_eq!(
        text.matches(";B[").count() + text.matches(";W[").count(),
        last - 1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn save_and_load_round_trip_and_bad_records_are_refused() {
    let addr = start_server(4).await;
    let mut c = Client::connect(addr).await;
    let cases = [
        (
            json!({"game": "go", "size": 9}),
            vec!["E5", "C3", "pass"],
            "sgf",
        ),
        (json!({"game": "othello"}), vec!["d3", "c5", "f6"], "ggf"),
        (
            json!({"game": "gomoku", "rule": "renju"}),
            vec!["H8", "J9"],
            "sgf",
        ),
        (
            json!({"game": "dots", "cols": 2, "rows": 3}),
            vec!["a1-b1", "a1-a2"],
            "dots",
        ),
    ];
    for (mut new, played, format) in cases {
        new["type"] = json!("new");
        new["black"] = json!("human");
        new["white"] = json!("human");
        c.send(new).await;
        c.state(|_| true).await;
        for m in &played {
            c.send(json!({"type": "play", "move": m})).await;
            c.state(|_| true).await;
        }
        let rec = c.save().await;
        assert_eq!(rec["format"], format);
        let text = rec["text"].as_str().unwrap().to_string();
        // Another game, then the record brings the first one back.
        c.send(
            json!({"type": "new", "game": "go", "size": 13, "black": "human", "white": "human"}),
        )
        .await;
        c.state(|_| true).await;
        c.send(json!({"type": "load", "text": text})).await;
        let s = c.state(|_| true).await;
        assert_eq!(moves(&s), played, "{text}");
        assert_eq!(c.save().await["text"], rec["text"]);
    }

    let before = c.save().await;
    for bad in [
        "(;GM[1]SZ[9];B[ee];W[ee])",
        "(;GM[1]SZ[9];B[ee];B[dd])",
        "(;GM[1]SZ[9];B[ee]",
        "(;GM[Othello]BO[8 -------------------------------------------------------------- *]B[a1])",
        "size 2x2\nB a1-b1\nW a1-b1\n",
        "banana",
    ] {
        c.send(json!({"type": "load", "text": bad})).await;
        let e = c.reply().await;
        assert_eq!(e["code"], "bad_record", "{bad}: {e}");
    }
    assert_eq!(c.save().await, before, "the game is unchanged");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_engine_is_reported_and_the_session_goes_on() {
    let addr = start_server_with(|s| s.engine_program = PathBuf::from("/bin/false")).await;
    let mut c = Client::connect(addr).await;
    c.send(json!({"type": "new", "game": "go", "size": 9, "black": "engine", "white": "human"}))
        .await;
    let e = c.error().await;
    assert_eq!(e["code"], "engine", "{e}");
    let s = c.state(|s| s["thinking"] == false).await;
    assert_eq!(s["paused"], true);
    assert!(moves(&s).is_empty());
    // Human against human needs no engine.
    c.send(json!({"type": "players", "black": "human"})).await;
    c.state(|_| true).await;
    c.send(json!({"type": "play", "move": "C3"})).await;
    let s = c.state(|s| !moves(s).is_empty()).await;
    assert_eq!(moves(&s), ["C3"]);
    let rec = c.save().await;
    assert!(rec["text"].as_str().unwrap().contains(";B[cg]"), "{rec}");
    let missing =
        start_server_with(|s| s.engine_program = PathBuf::from("/nonexistent/quartet")).await;
    let mut c = Client::connect(missing).await;
    c.send(json!({"type": "new", "game": "dots", "black": "engine"}))
        .await;
    assert_eq!(c.error().await["code"], "engine");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_sessions_are_closed_with_their_engine() {
    let addr = start_server_with(|s| s.idle_timeout = Duration::from_millis(500)).await;
    let mut c = Client::connect(addr).await;
    c.send(json!({"type": "new", "game": "othello", "black": "human", "white": "engine"}))
        .await;
    c.state(|_| true).await;
    let end = tokio::time::timeout(WAIT, async {
        while let Some(Ok(m)) = c.ws.next().await {
            if matches!(m, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
    assert!(end.is_ok(), "the idle session stayed open");
    let freed = tokio::time::timeout(WAIT, async {
        loop {
            let info: Value = serde_json::from_str(&http_get(addr, "/api/info").await.2).unwrap();
            if info["open_games"] == 0 && info["engines"] == 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await;
    assert!(freed.is_ok(), "the engine process never exited");
}

async fn http_get(addr: SocketAddr, path: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    tokio::time::timeout(WAIT, s.read_to_end(&mut buf))
        .await
        .unwrap()
        .unwrap();
    let text = String::from_utf8_lossy(&buf).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head.to_ascii_lowercase(), body.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_serves_the_page_and_404s_the_rest() {
    let addr = start_server(4).await;
    let (status, head, body) = http_get(addr, "/").await;
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/html"), "{head}");
    assert!(body.contains("<html"), "{body}");
    let (status, _, _) = http_get(addr, "/index.html").await;
    assert_eq!(status, 200);
    for missing in ["/nope", "/../Cargo.toml", "/api/nope"] {
        assert_eq!(http_get(addr, missing).await.0, 404, "{missing}");
    }
    let (status, head, body) = http_get(addr, "/api/info").await;
    assert_eq!(status, 200);
    assert!(head.contains("application/json"));
    let info: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(info["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(info["open_games"], 0);
    assert_eq!(info["engines"], 0);
}
