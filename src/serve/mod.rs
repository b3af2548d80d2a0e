//! `quartet serve`: a web page to play and analyse the four games in a browser. One
//! WebSocket per game session, each with its own engine process driven through the match
//! runner's GTP client and checked by the match referees' rules. See docs/serve.md.
pub mod analysis;
pub mod engine;
pub mod http;
pub mod messages;
pub mod outbox;
pub mod page_files;
pub mod records;
pub mod rules;
pub mod session;
pub mod view;

use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// Everything the server needs, built by the command line (or a test).
#[derive(Clone, Debug)]
pub struct ServeSettings {
    pub bind: IpAddr,
    /// 0 picks a free port.
    pub port: u16,
    /// Sessions holding an engine at once; the next `new` is answered `busy`.
    pub max_games: usize,
    /// Serve the page from this folder instead of the embedded copy.
    pub page_dir: Option<PathBuf>,
    /// The quartet binary the engines run as (`<program> go`, ...).
    pub engine_program: PathBuf,
    /// A session with neither a client message nor an engine event for this long is
    /// closed (a watched engine game keeps its session).
    pub idle_timeout: Duration,
    /// Largest accepted message; larger ones are answered `too_large`.
    pub max_frame: usize,
}

impl ServeSettings {
    /// The defaults of `quartet serve`, with engines run as `engine_program`.
    pub fn new(engine_program: PathBuf) -> ServeSettings {
        ServeSettings {
            bind: IpAddr::from([127, 0, 0, 1]),
            port: 8080,
            max_games: 4,
            page_dir: None,
            engine_program,
            idle_timeout: Duration::from_secs(30 * 60),
            max_frame: 256 * 1024,
        }
    }
}

/// State shared by all sessions.
pub struct Shared {
    pub settings: ServeSettings,
    /// One permit per game that holds an engine.
    pub games: Arc<Semaphore>,
    /// One permit per engine process until it has exited: twice the games, so a game can
    /// switch engines while the old one quits, but a client cannot pile up processes.
    pub engines: Arc<Semaphore>,
}

impl Shared {
    /// Engine processes started and not yet known to have exited.
    pub fn running_engines(&self) -> usize {
        2 * self.settings.max_games - self.engines.available_permits()
    }
}

/// Binds the listening socket and answers its address and the server, which runs until
/// its future is dropped. Must be called inside a tokio runtime.
pub async fn bind(
    settings: ServeSettings,
) -> std::io::Result<(SocketAddr, impl Future<Output = std::io::Result<()>>)> {
    if !settings.bind.is_loopback() {
        tracing::warn!(
            "binding {}: the page and its engines are open to other machines",
            settings.bind
        );
    }
    let listener = tokio::net::TcpListener::bind((settings.bind, settings.port)).await?;
    let addr = listener.local_addr()?;
    let shared = Arc::new(Shared {
        games: Arc::new(Semaphore::new(settings.max_games)),
        engines: Arc::new(Semaphore::new(2 * settings.max_games)),
        settings,
    });
    let app = http::router(shared);
    Ok((addr, async move { axum::serve(listener, app).await }))
}

/// Runs the server until interrupted.
pub fn run(settings: ServeSettings) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(async move {
        let (addr, server) = bind(settings)
            .await
            .map_err(|e| format!("cannot listen: {e}"))?;
        tracing::info!("serving on http://{addr}/");
        eprintln!("quartet serve: open http://{addr}/ in a browser");
        server.await.map_err(|e| format!("server failed: {e}"))
    })
}
