//! The engine worker: one task per session owning one engine process (the same binary,
//! `quartet <game>`), driven through the match runner's GTP client. The session sends it
//! jobs; it answers with events, and publishes analysis lines straight to the session's
//! outbox (latest wins), so a busy session never holds up the stream.
//!
//! Blocking contract: the worker waits on the engine only within a time limit (command
//! timeout, move time plus a margin), and races every wait against the next job, so a stop
//! or a new position is acted on at once. Dropping the [`EngineHandle`] ends the worker and
//! its process (`quit`, then killed after a short grace).
use super::analysis::analysis_message;
use super::outbox::AnalysisSink;
use super::rules::GameKind;
use crate::color::Color;
use crate::matches::gtp_client::{ClientError, GtpClient, StderrTarget, StreamEvent};
use crate::matches::referee::gtp_seconds;
use std::collections::VecDeque;
use std::path::Path;
use std::time::Duration;
use tokio::sync::{mpsc, OwnedSemaphorePermit};
use tokio::time::Instant;

/// Limit for an ordinary command (setup, `play`).
const COMMAND_TIMEOUT: Duration = Duration::from_secs(20);
/// Allowance over the move time before a silent engine counts as hung.
const MOVE_MARGIN: Duration = Duration::from_secs(30);
/// How long an ended analysis stream may take to close.
const STREAM_END_TIMEOUT: Duration = Duration::from_secs(10);
/// Between two analysis lines, in centiseconds (five a second).
const ANALYSIS_INTERVAL_CS: u32 = 20;
/// Time the engine gets to quit before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// Work for the engine. `epoch` is the session's position counter: results of an older
/// epoch are stale and dropped by the session.
#[derive(Clone, Debug)]
pub enum Job {
    /// Send these commands (setup and the moves so far) to bring the engine to a position.
    Reset { epoch: u64, commands: Vec<String> },
    /// One human move (`play black D4`).
    Play { epoch: u64, command: String },
    /// Think and play a move for `color`, streaming analysis if `analyze`.
    Genmove {
        epoch: u64,
        color: Color,
        seconds: f64,
        analyze: bool,
    },
    /// Stream analysis of the position for `color` until the next job.
    Analyze { epoch: u64, color: Color },
    /// End the move search now (it answers its best move) or the analysis stream.
    Stop,
}

/// What the worker reports.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The engine's move (as the engine wrote it) for `color`.
    Moved {
        epoch: u64,
        color: Color,
        text: String,
    },
    /// The engine failed; the worker has ended.
    Failed { message: String },
}

/// The session's end of a worker.
pub struct EngineHandle {
    pub kind: GameKind,
    jobs: mpsc::UnboundedSender<Job>,
}

impl EngineHandle {
    /// Queues a job; a worker that has ended has already reported why.
    pub fn send(&self, job: Job) {
        let _ = self.jobs.send(job);
    }
}

/// The command line of the engine for `kind`: the program and the game's subcommand.
fn command_line(program: &Path, kind: GameKind) -> String {
    let program = program.to_string_lossy().replace('\'', r"'\''");
    format!("'{program}' {}", kind.name())
}

/// Starts the engine process and its worker task, which holds `permit` until the process
/// has exited. Must be called inside a tokio runtime.
pub fn spawn(
    program: &Path,
    kind: GameKind,
    events: mpsc::UnboundedSender<Event>,
    analysis: AnalysisSink,
    permit: OwnedSemaphorePermit,
) -> Result<EngineHandle, String> {
    let client = GtpClient::spawn(&command_line(program, kind), &StderrTarget::Null)
        .map_err(|e| e.to_string())?;
    let (tx, rx) = mpsc::unbounded_channel();
    let worker = Worker {
        client,
        kind,
        jobs: rx,
        pending: VecDeque::new(),
        events,
        analysis,
        _permit: permit,
    };
    tokio::spawn(worker.run());
    Ok(EngineHandle { kind, jobs: tx })
}

struct Worker {
    client: GtpClient,
    kind: GameKind,
    jobs: mpsc::UnboundedReceiver<Job>,
    /// Jobs that arrived while a search or stream was being ended.
    pending: VecDeque<Job>,
    events: mpsc::UnboundedSender<Event>,
    analysis: AnalysisSink,
    /// One of the server's engine places, given back when the worker (and so the process)
    /// has ended.
    _permit: OwnedSemaphorePermit,
}

/// Why the worker stops.
enum Exit {
    /// The session dropped its handle.
    Closed,
    Failed(String),
}

impl From<ClientError> for Exit {
    fn from(e: ClientError) -> Exit {
        Exit::Failed(e.to_string())
    }
}

impl Worker {
    async fn run(mut self) {
        let exit = self.serve().await;
        if let Exit::Failed(message) = exit {
            tracing::warn!("engine {} failed: {message}", self.kind.name());
            let _ = self.events.send(Event::Failed { message });
        }
        self.client.shutdown(QUIT_GRACE).await;
    }

    async fn next_job(&mut self) -> Option<Job> {
        match self.pending.pop_front() {
            Some(job) => Some(job),
            None => self.jobs.recv().await,
        }
    }

    async fn serve(&mut self) -> Exit {
        loop {
            let Some(job) = self.next_job().await else {
                return Exit::Closed;
            };
            let result = match job {
                Job::Reset { commands, .. } => self.commands(&commands).await,
                Job::Play { command, .. } => self.commands(&[command]).await,
                Job::Genmove {
                    epoch,
                    color,
                    seconds,
                    analyze,
                } => self.genmove(epoch, color, seconds, analyze).await,
                Job::Analyze { epoch, color } => self.analyze(epoch, color).await,
                Job::Stop => Ok(()),
            };
            if let Err(exit) = result {
                return exit;
            }
        }
    }

    async fn commands(&mut self, commands: &[String]) -> Result<(), Exit> {
        for c in commands {
            self.client
                .send(c, COMMAND_TIMEOUT)
                .await
                .map_err(|e| Exit::Failed(format!("{c}: {e}")))?;
        }
        Ok(())
    }

    fn publish(&self, epoch: u64, line: &str, color: Color) {
        if let Some(msg) = analysis_message(line, color) {
            self.analysis.publish(epoch, msg.to_string());
        }
    }

    async fn genmove(
        &mut self,
        epoch: u64,
        color: Color,
        seconds: f64,
        analyze: bool,
    ) -> Result<(), Exit> {
        let limit = Duration::from_secs_f64(seconds);
        self.commands(&[format!("time_settings 0 {} 1", gtp_seconds(limit))])
            .await?;
        let command = match (analyze, self.kind) {
            (true, GameKind::Go) => format!(
                "kata-genmove_analyze {color} interval {ANALYSIS_INTERVAL_CS} ownership true"
            ),
            // The other games write a line after completed iterations of their search.
            (true, _) => format!("genmove_analyze {color} {ANALYSIS_INTERVAL_CS}"),
            (false, _) => format!("genmove {color}"),
        };
        self.client.start_stream(&command).await?;
        let deadline = Instant::now() + limit + MOVE_MARGIN;
        let mut interrupted = false;
        let mut answer = None;
        loop {
            tokio::select! {
                event = self.client.next_stream_event() => match event? {
                    StreamEvent::Line(line) => {
                        if line.starts_with("info ") {
                            self.publish(epoch, &line, color);
                        } else {
                            let mv = line.strip_prefix("play ").unwrap_or(&line);
                            answer = Some(mv.trim().to_string());
                        }
                    }
                    StreamEvent::End => break,
                },
                job = self.jobs.recv(), if !interrupted => {
                    // Any job ends the search: a stop, or a new position to set up.
                    match job {
                        None => return Err(Exit::Closed),
                        Some(Job::Stop) => {}
                        Some(other) => self.pending.push_back(other),
                    }
                    self.client.send_line("# interrupt").await?;
                    interrupted = true;
                }
                _ = tokio::time::sleep_until(deadline) => {
                    return Err(Exit::Failed(format!("no move within {:.1} s", seconds)));
                }
            }
        }
        let text = answer.ok_or_else(|| Exit::Failed("empty genmove answer".into()))?;
        let _ = self.events.send(Event::Moved { epoch, color, text });
        Ok(())
    }

    async fn analyze(&mut self, epoch: u64, color: Color) -> Result<(), Exit> {
        let command = match self.kind {
            GameKind::Go => {
                format!("kata-analyze {color} interval {ANALYSIS_INTERVAL_CS} ownership true")
            }
            _ => format!("analyze {color} {ANALYSIS_INTERVAL_CS}"),
        };
        self.client.start_stream(&command).await?;
        loop {
            tokio::select! {
                event = self.client.next_stream_event() => match event {
                    Ok(StreamEvent::Line(line)) => self.publish(epoch, &line, color),
                    Ok(StreamEvent::End) => return Ok(()),
                    // The engine declined (a finished game): nothing to show.
                    Err(ClientError::Failure(m)) => {
                        tracing::debug!("analysis refused: {m}");
                        return Ok(());
                    }
                    Err(e) => return Err(e.into()),
                },
                job = self.jobs.recv() => {
                    match job {
                        None => return Err(Exit::Closed),
                        Some(Job::Stop) => {}
                        Some(other) => self.pending.push_back(other),
                    }
                    break;
                }
            }
        }
        // Any line ends the stream; the engine then closes its answer.
        self.client.send_line("").await?;
        let end = Instant::now() + STREAM_END_TIMEOUT;
        loop {
            match tokio::time::timeout_at(end, self.client.next_stream_event()).await {
                Err(_) => return Err(Exit::Failed("analysis did not end".into())),
                Ok(Ok(StreamEvent::Line(_))) => {}
                Ok(Ok(StreamEvent::End)) | Ok(Err(ClientError::Failure(_))) => return Ok(()),
                Ok(Err(e)) => return Err(e.into()),
            }
        }
    }
}
