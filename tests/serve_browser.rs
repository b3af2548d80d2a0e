//! The page of `quartet serve` in a real browser: starts the server on a free port and runs
//! tests/browser/play.mjs, which drives Debian's Chromium with `playwright-core` to play a
//! few moves of each game by clicking and check the board in the DOM after each (the piece
//! where it clicked, the engine's reply, the turn indicator, analysis rows and marks).
//! Needs Chromium, node and `npm install` in tests/browser (`.ci/run` does both): without
//! them the test skips with a message, or fails under CI (tests/common/oracle.rs).
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;

/// The server process, killed when the test ends however it ends.
struct Server {
    child: Child,
    log: std::path::PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}

impl Server {
    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("bind a free port")
        .port()
}

/// A plain HTTP/1.1 GET: (status code, body).
fn get(port: u16, path: &str) -> std::io::Result<(u16, String)> {
    let mut s = TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(Duration::from_secs(30)))?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf)?;
    let text = String::from_utf8_lossy(&buf).into_owned();
    let code = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    Ok((code, body))
}

fn start_server() -> (Server, u16) {
    let port = free_port();
    let log = std::env::temp_dir().join(format!("quartet-serve-browser-{port}.log"));
    let child = Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(["serve", "--port", &port.to_string(), "--bind", "127.0.0.1"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).expect("server log file"))
        .spawn()
        .expect("start quartet serve");
    let server = Server { child, log };
    // Generous: only stops a hang if the server never listens.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Ok((200, _)) = get(port, "/api/info") {
            return (server, port);
        }
        assert!(
            Instant::now() < deadline,
            "quartet serve did not answer on port {port}:\n{}",
            server.log_tail()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn every_page_file_is_served() {
    let (server, port) = start_server();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/serve/page");
    let (code, index) = get(port, "/").expect("GET /");
    assert_eq!(code, 200, "GET /");
    assert!(index.contains("app.js"), "/ is the page: {index}");
    for entry in std::fs::read_dir(&dir).expect("page folder") {
        let name = entry.expect("page entry").file_name();
        let name = name.to_string_lossy();
        let (code, body) = get(port, &format!("/{name}")).expect("GET a page file");
        let on_disk = std::fs::read_to_string(dir.join(&*name)).expect("read page file");
        assert_eq!(code, 200, "GET /{name}\n{}", server.log_tail());
        assert_eq!(body, on_disk, "/{name} is the file in src/serve/page");
    }
}

#[test]
fn a_person_plays_all_four_games_by_clicking() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    let Some(chromium) = common::oracle::browser(&dir) else {
        return;
    };
    let (server, port) = start_server();
    let out = Command::new("node")
        .arg(dir.join("play.mjs"))
        .arg("test")
        .arg(format!("http://127.0.0.1:{port}/"))
        .env("CHROMIUM", &chromium)
        .current_dir(&dir)
        .output()
        .expect("run node");
    assert!(
        out.status.success(),
        "stdout: {}\nstderr: {}\nserver log:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
        server.log_tail()
    );
}
