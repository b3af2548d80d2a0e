//! The HTTP routes: the page files, `/api/info`, and `/ws`, which upgrades to a WebSocket
//! game session.
use super::{page_files, session, Shared};
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;
use std::sync::Arc;

/// Largest WebSocket message read at all; frames between `max_frame` and this are answered
/// `too_large` without closing the session, larger ones close it.
const WS_READ_LIMIT: usize = 4 * 1024 * 1024;

pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/api/info", get(info))
        .route("/ws", get(ws))
        .fallback(page)
        .with_state(shared)
}

async fn info(State(shared): State<Arc<Shared>>) -> Json<serde_json::Value> {
    let max = shared.settings.max_games;
    let open = max - shared.games.available_permits();
    Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "games": {
            "go": {"sizes": super::messages::GO_SIZES, "komi": 7.5},
            "othello": {"size": 8},
            "gomoku": {"sizes": [super::messages::GOMOKU_SIZES.0, super::messages::GOMOKU_SIZES.1],
                       "size": 15, "rules": ["freestyle", "standard", "renju"]},
            "dots": {"cols": [super::messages::DOTS_SIDE.0, super::messages::DOTS_SIDE.1],
                     "rows": [super::messages::DOTS_SIDE.0, super::messages::DOTS_SIDE.1]},
        },
        "seconds": [super::messages::SECONDS_RANGE.0, super::messages::SECONDS_RANGE.1],
        "max_games": max,
        "open_games": open,
        "engines": shared.running_engines(),
        "max_frame": shared.settings.max_frame,
    }))
}

async fn ws(State(shared): State<Arc<Shared>>, upgrade: WebSocketUpgrade) -> Response {
    upgrade
        .max_message_size(WS_READ_LIMIT)
        .max_frame_size(WS_READ_LIMIT)
        .on_upgrade(move |socket| session::run(socket, shared))
}

async fn page(State(shared): State<Arc<Shared>>, uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let name = if path.is_empty() { "index.html" } else { path };
    match page_files::get(shared.settings.page_dir.as_deref(), name).await {
        Some(body) => (
            [
                (header::CONTENT_TYPE, page_files::content_type(name)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            body.into_owned(),
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found\n").into_response(),
    }
}
