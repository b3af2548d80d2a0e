//! One WebSocket session: one game, its engine worker, and the rules copy that checks
//! every move. The session task reads the client's frames and the worker's events and
//! never waits on either side for long: replies go through the outbox, jobs through the
//! worker's queue.
use super::engine::{self, EngineHandle, Event, Job};
use super::messages::{self, check_move_text, check_seconds, ClientMessage, ErrorCode, PlayerKind};
use super::outbox::{self, AnalysisSink, Epoch, Outbox};
use super::records;
use super::rules::{GameSpec, Position};
use super::view::{self, Flags};
use super::Shared;
use crate::color::Color;
use axum::extract::ws::{Message, WebSocket};
use futures_util::StreamExt;
use serde_json::Value;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::sync::{mpsc, OwnedSemaphorePermit};

/// The game part of a session.
struct Game {
    pos: Position,
    players: [PlayerKind; 2],
    seconds: f64,
    /// Engine-vs-engine play is held after a stop or an undo.
    paused: bool,
    /// The engine is searching its own move.
    thinking: bool,
    /// The user wants live analysis.
    analysis_on: bool,
    /// An analysis stream runs in the engine.
    analyzing: bool,
}

struct Session {
    shared: Arc<Shared>,
    outbox: Outbox,
    analysis: AnalysisSink,
    epoch: Epoch,
    events: mpsc::UnboundedSender<Event>,
    engine: Option<EngineHandle>,
    /// Held while this session has a game (the `--max-games` cap).
    permit: Option<OwnedSemaphorePermit>,
    game: Option<Game>,
    /// The client must be dropped (its queue overflowed).
    closing: bool,
}

/// Runs a session until the client leaves, goes idle or stops reading.
pub async fn run(socket: WebSocket, shared: Arc<Shared>) {
    let (sink, mut stream) = socket.split();
    let epoch: Epoch = Arc::new(Default::default());
    let (outbox, analysis, writer) = outbox::start(sink, epoch.clone());
    let (events_tx, mut events) = mpsc::unbounded_channel();
    let idle = shared.settings.idle_timeout;
    let max_frame = shared.settings.max_frame;
    let mut s = Session {
        shared,
        outbox,
        analysis,
        epoch,
        events: events_tx,
        engine: None,
        permit: None,
        game: None,
        closing: false,
    };
    s.send(&messages::hello(s.shared.settings.max_games));
    while !s.closing {
        tokio::select! {
            frame = tokio::time::timeout(idle, stream.next()) => match frame {
                Err(_) => {
                    tracing::info!("closing an idle session");
                    break;
                }
                Ok(None) | Ok(Some(Err(_))) | Ok(Some(Ok(Message::Close(_)))) => break,
                Ok(Some(Ok(Message::Text(text)))) => {
                    if text.len() > max_frame {
                        s.error(ErrorCode::TooLarge, format!("frames are limited to {max_frame} bytes"));
                    } else {
                        s.on_text(text.as_str());
                    }
                }
                Ok(Some(Ok(Message::Binary(b)))) => {
                    if b.len() > max_frame {
                        s.error(ErrorCode::TooLarge, format!("frames are limited to {max_frame} bytes"));
                    } else {
                        s.error(ErrorCode::BadMessage, "messages are JSON text frames");
                    }
                }
                Ok(Some(Ok(_))) => {}
            },
            Some(event) = events.recv() => s.on_event(event),
        }
    }
    // Dropping the handle ends the worker, which quits (then kills) the engine.
    drop(s);
    let _ = writer.await;
}

impl Session {
    fn send(&mut self, msg: &Value) {
        if self.outbox.send(msg).is_err() {
            tracing::warn!("dropping a client that does not read its messages");
            self.closing = true;
        }
    }

    fn error(&mut self, code: ErrorCode, message: impl Into<String>) {
        self.send(&messages::error(code, message));
    }

    fn job(&self, job: Job) {
        if let Some(e) = &self.engine {
            e.send(job);
        }
    }

    /// A new position for the engine: older results become stale.
    fn bump_epoch(&mut self) -> u64 {
        self.epoch.fetch_add(1, Ordering::SeqCst) + 1
    }

    fn current_epoch(&self) -> u64 {
        self.epoch.load(Ordering::SeqCst)
    }

    fn on_text(&mut self, text: &str) {
        let msg = match messages::parse(text) {
            Ok(m) => m,
            Err(e) => return self.error(ErrorCode::BadMessage, e),
        };
        match msg {
            ClientMessage::New(n) => match n.check() {
                Ok(s) => match Position::new(&s.spec) {
                    Ok(pos) => self.start(pos, s.players, s.seconds),
                    Err(e) => self.error(ErrorCode::BadMessage, e),
                },
                Err(e) => self.error(ErrorCode::BadMessage, e),
            },
            ClientMessage::Load { text } => self.load(&text),
            other => {
                if self.game.is_none() {
                    return self.error(ErrorCode::BadMessage, "no game yet: send new first");
                }
                match other {
                    ClientMessage::Play { mv } => self.play(&mv),
                    ClientMessage::Analyze { on } => self.analyze(on),
                    ClientMessage::Stop => self.stop(),
                    ClientMessage::Resume => {
                        if let Some(g) = &mut self.game {
                            g.paused = false;
                        }
                        self.advance();
                    }
                    ClientMessage::Undo => self.undo(),
                    ClientMessage::Players {
                        black,
                        white,
                        seconds,
                    } => self.players(black, white, seconds),
                    ClientMessage::Save => self.save(),
                    ClientMessage::New(_) | ClientMessage::Load { .. } => {}
                }
            }
        }
    }

    /// Replaces the game by `pos` (a new game or a loaded record) and sets the engine up.
    fn start(&mut self, pos: Position, players: [PlayerKind; 2], seconds: f64) {
        if self.permit.is_none() {
            match self.shared.games.clone().try_acquire_owned() {
                Ok(p) => self.permit = Some(p),
                Err(_) => {
                    let max = self.shared.settings.max_games;
                    return self.error(
                        ErrorCode::Busy,
                        format!("all {max} games are in use; try again later"),
                    );
                }
            }
        }
        let kind = pos.spec().kind;
        if self.engine.as_ref().is_some_and(|e| e.kind != kind) {
            self.engine = None;
        }
        let analysis_on = self.game.as_ref().is_some_and(|g| g.analysis_on);
        self.game = Some(Game {
            pos,
            players,
            seconds,
            paused: false,
            thinking: false,
            analysis_on,
            analyzing: false,
        });
        self.reset_engine();
        self.advance();
    }

    /// Starts the engine if there is none, and brings it to the current position.
    fn reset_engine(&mut self) {
        let epoch = self.bump_epoch();
        let Some(g) = &mut self.game else { return };
        g.thinking = false;
        g.analyzing = false;
        let commands = g.pos.replay_commands();
        let kind = g.pos.spec().kind;
        if self.engine.is_none() {
            let Ok(permit) = self.shared.engines.clone().try_acquire_owned() else {
                return self.error(
                    ErrorCode::Busy,
                    "the engines of closed games are still stopping; try again",
                );
            };
            match engine::spawn(
                &self.shared.settings.engine_program,
                kind,
                self.events.clone(),
                self.analysis.clone(),
                permit,
            ) {
                Ok(e) => self.engine = Some(e),
                Err(e) => return self.error(ErrorCode::Engine, e),
            }
        }
        self.job(Job::Reset { epoch, commands });
    }

    /// Starts what the position calls for (the engine's move, or analysis) and sends the
    /// new state.
    fn advance(&mut self) {
        if self.engine.is_none() && self.needs_engine() {
            self.reset_engine();
        }
        let epoch = self.current_epoch();
        let engine_ready = self.engine.is_some();
        let Some(g) = &mut self.game else { return };
        let mut jobs = Vec::new();
        if g.pos.is_over() {
            if g.analyzing {
                jobs.push(Job::Stop);
                g.analyzing = false;
            }
        } else if engine_ready {
            let c = g.pos.to_move();
            if g.players[c.index()] == PlayerKind::Engine && !g.paused {
                if !g.thinking {
                    jobs.push(Job::Genmove {
                        epoch,
                        color: c,
                        seconds: g.seconds,
                        analyze: g.analysis_on,
                    });
                    g.thinking = true;
                    g.analyzing = false;
                }
            } else if !g.thinking && g.analysis_on && !g.analyzing {
                jobs.push(Job::Analyze { epoch, color: c });
                g.analyzing = true;
            } else if !g.analysis_on && g.analyzing {
                jobs.push(Job::Stop);
                g.analyzing = false;
            }
        }
        for j in jobs {
            self.job(j);
        }
        self.send_state();
    }

    fn needs_engine(&self) -> bool {
        let Some(g) = &self.game else { return false };
        if g.pos.is_over() {
            return false;
        }
        let engine_to_move = g.players[g.pos.to_move().index()] == PlayerKind::Engine;
        (engine_to_move && !g.paused) || g.analysis_on
    }

    fn send_state(&mut self) {
        let Some(g) = &self.game else { return };
        let flags = Flags {
            players: g.players,
            seconds: g.seconds,
            thinking: g.thinking,
            analyzing: g.analysis_on && !g.pos.is_over(),
            paused: g.paused,
        };
        let msg = view::state(&g.pos, &flags);
        self.send(&msg);
    }

    fn play(&mut self, mv: &str) {
        let mv = match check_move_text(mv) {
            Ok(m) => m.to_string(),
            Err(e) => return self.error(ErrorCode::BadMessage, e),
        };
        let Some(g) = &mut self.game else { return };
        if g.thinking {
            return self.error(ErrorCode::NotYourTurn, "the engine is thinking");
        }
        if g.pos.is_over() {
            return self.error(ErrorCode::Illegal, "the game is over");
        }
        let color = g.pos.to_move();
        if g.players[color.index()] != PlayerKind::Human {
            return self.error(
                ErrorCode::NotYourTurn,
                format!("{color} is played by the engine"),
            );
        }
        match g.pos.play(&mv) {
            Ok(name) => {
                g.analyzing = false;
                g.paused = false;
                let epoch = self.current_epoch();
                self.job(Job::Play {
                    epoch,
                    command: format!("play {color} {name}"),
                });
                self.advance();
            }
            Err(e) => self.error(ErrorCode::Illegal, e),
        }
    }

    fn on_event(&mut self, event: Event) {
        match event {
            Event::Failed { message } => {
                self.engine = None;
                if let Some(g) = &mut self.game {
                    g.thinking = false;
                    g.analyzing = false;
                    g.analysis_on = false;
                    g.paused = true;
                }
                self.error(ErrorCode::Engine, message);
                self.send_state();
            }
            Event::Moved { epoch, color, text } => {
                if epoch != self.current_epoch() {
                    return;
                }
                let Some(g) = &mut self.game else { return };
                g.thinking = false;
                if g.pos.is_over() || g.pos.to_move() != color {
                    self.reset_engine();
                    return self.advance();
                }
                if text.eq_ignore_ascii_case("resign") {
                    g.pos.resign(color);
                    return self.advance();
                }
                if let Err(e) = g.pos.play(&text) {
                    // Our rules refuse the engine's move: show it, and take it back in
                    // the engine by replaying the game.
                    g.paused = true;
                    self.error(
                        ErrorCode::Engine,
                        format!("the engine played {text}, which the rules refuse: {e}"),
                    );
                    self.reset_engine();
                }
                self.advance();
            }
        }
    }

    fn analyze(&mut self, on: bool) {
        if let Some(g) = &mut self.game {
            g.analysis_on = on;
        }
        self.advance();
    }

    fn stop(&mut self) {
        let Some(g) = &mut self.game else { return };
        let mut stop = false;
        if g.thinking {
            stop = true;
            // Engine-vs-engine play holds after this move; against a human the move
            // simply comes at once.
            if g.players.iter().all(|&p| p == PlayerKind::Engine) {
                g.paused = true;
            }
        }
        let mut stale = false;
        if g.analyzing {
            stop = true;
            g.analyzing = false;
            // Lines the stream wrote before it saw the stop are not shown; a move search
            // keeps its epoch, as its move still counts.
            stale = !g.thinking;
        }
        g.analysis_on = false;
        if stop {
            self.job(Job::Stop);
        }
        if stale {
            self.bump_epoch();
        }
        self.send_state();
    }

    fn undo(&mut self) {
        let Some(g) = &mut self.game else { return };
        let moves = g.pos.moves();
        if moves.is_empty() {
            return self.error(ErrorCode::Illegal, "no move to undo");
        }
        let has_human = g.players.contains(&PlayerKind::Human);
        // The position before move n has moves[n].0 to move.
        let mut n = moves.len() - 1;
        if has_human {
            while n > 0 && g.players[moves[n].0.index()] == PlayerKind::Engine {
                n -= 1;
            }
        }
        let keep = moves[..n].to_vec();
        match Position::replay(g.pos.spec(), &keep) {
            Ok(pos) => {
                g.pos = pos;
                if !has_human || g.players[g.pos.to_move().index()] == PlayerKind::Engine {
                    g.paused = true;
                }
                self.reset_engine();
                self.advance();
            }
            Err(e) => self.error(ErrorCode::Illegal, e),
        }
    }

    fn players(
        &mut self,
        black: Option<PlayerKind>,
        white: Option<PlayerKind>,
        seconds: Option<f64>,
    ) {
        let seconds = match seconds.map(check_seconds).transpose() {
            Ok(s) => s,
            Err(e) => return self.error(ErrorCode::BadMessage, e),
        };
        let Some(g) = &mut self.game else { return };
        if let Some(b) = black {
            g.players[Color::Black.index()] = b;
        }
        if let Some(w) = white {
            g.players[Color::White.index()] = w;
        }
        if let Some(s) = seconds {
            g.seconds = s;
        }
        let c = g.pos.to_move();
        if g.thinking && g.players[c.index()] == PlayerKind::Human {
            // The engine no longer plays this side: drop its search.
            self.reset_engine();
        }
        self.advance();
    }

    fn save(&mut self) {
        let Some(g) = &self.game else { return };
        let name = |p: PlayerKind| match p {
            PlayerKind::Human => "human",
            PlayerKind::Engine => "quartet",
        };
        let msg = records::save(&g.pos, [name(g.players[0]), name(g.players[1])]);
        self.send(&msg);
    }

    fn load(&mut self, text: &str) {
        let current = self
            .game
            .as_ref()
            .map(|g| g.pos.spec().clone())
            .unwrap_or_else(|| GameSpec::go(9, 7.5));
        match records::load(text, &current) {
            Ok(pos) => {
                let (players, seconds) = self
                    .game
                    .as_ref()
                    .map(|g| (g.players, g.seconds))
                    .unwrap_or(([PlayerKind::Human, PlayerKind::Engine], 1.0));
                self.start(pos, players, seconds);
            }
            Err(e) => self.error(ErrorCode::BadRecord, e),
        }
    }
}
