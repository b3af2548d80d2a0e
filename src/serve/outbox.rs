//! What a session sends to its browser, through a writer task so that a slow client never
//! holds up the session or the engine: ordinary messages go through a bounded queue (a
//! client that lets it fill up is disconnected), analysis through a slot that keeps only
//! the latest line.
use axum::extract::ws::{Message, WebSocket};
use futures_util::stream::SplitSink;
use futures_util::SinkExt;
use serde_json::Value;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};

/// Ordinary messages waiting for the client at most.
const QUEUE: usize = 64;
/// A client that takes longer than this to accept one frame is dropped.
const SEND_TIMEOUT: Duration = Duration::from_secs(30);

/// The session's current position counter, shared with the engine worker and the writer:
/// analysis of an older position is never shown.
pub type Epoch = Arc<AtomicU64>;

/// Where the engine worker puts analysis messages.
#[derive(Clone)]
pub struct AnalysisSink {
    slot: watch::Sender<Option<(u64, String)>>,
    epoch: Epoch,
}

impl AnalysisSink {
    /// Replaces the waiting analysis (if any) with `text`, unless `epoch` is stale.
    pub fn publish(&self, epoch: u64, text: String) {
        if epoch == self.epoch.load(Ordering::SeqCst) {
            self.slot.send_replace(Some((epoch, text)));
        }
    }
}

/// The session's side of the writer.
pub struct Outbox {
    queue: mpsc::Sender<String>,
}

/// The queue is full: the client does not read.
#[derive(Debug)]
pub struct Overflow;

impl Outbox {
    /// Queues `msg` without waiting.
    pub fn send(&self, msg: &Value) -> Result<(), Overflow> {
        self.queue.try_send(msg.to_string()).map_err(|_| Overflow)
    }
}

/// Creates the outbox, the analysis sink and starts the writer on `sink`. The writer ends
/// when the outbox is dropped or the client stops accepting frames.
pub fn start(
    sink: SplitSink<WebSocket, Message>,
    epoch: Epoch,
) -> (Outbox, AnalysisSink, tokio::task::JoinHandle<()>) {
    let (tx, rx) = mpsc::channel(QUEUE);
    let (slot, slot_rx) = watch::channel(None);
    let task = tokio::spawn(write_loop(sink, rx, slot_rx, epoch.clone()));
    (Outbox { queue: tx }, AnalysisSink { slot, epoch }, task)
}

async fn write_loop(
    mut sink: SplitSink<WebSocket, Message>,
    mut queue: mpsc::Receiver<String>,
    mut analysis: watch::Receiver<Option<(u64, String)>>,
    epoch: Epoch,
) {
    loop {
        let text = tokio::select! {
            // Ordinary messages first: a state change must not wait behind analysis.
            biased;
            msg = queue.recv() => match msg {
                Some(text) => text,
                None => break,
            },
            changed = analysis.changed() => {
                if changed.is_err() {
                    // The worker is gone; keep serving the queue.
                    match queue.recv().await {
                        Some(text) => text,
                        None => break,
                    }
                } else {
                    let latest = analysis.borrow_and_update().clone();
                    match latest {
                        Some((e, text)) if e == epoch.load(Ordering::SeqCst) => text,
                        _ => continue,
                    }
                }
            }
        };
        match tokio::time::timeout(SEND_TIMEOUT, sink.send(Message::Text(text.into()))).await {
            Ok(Ok(())) => {}
            _ => break,
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(1), sink.close()).await;
}
