//! The GTP server loop shared by every engine.
//!
//! Commands run in input order, each to its own bound (its clock, `--solve-time`, the
//! analysis rules): a script piped in whole gets the same answers as one sent line by line.
//!
//! Threads and their contracts:
//! - one **reader task** (tokio) splits the input into lines and sends them over a bounded
//!   channel. It never holds more than [`MAX_LINE`] bytes of one line: a longer line is
//!   drained up to its LF and replaced by a "too long" marker carrying its first bytes (to
//!   echo the id). So binary garbage costs bounded memory and never stalls the loop.
//!   Every line it forwards carries a fresh [`StopToken`] for the command it holds; the
//!   tokens of the commands not yet answered are kept in [`Outstanding`], so input can
//!   still act on a running command. The only input-side effects on it:
//!   - the line `# interrupt` (GoGui's convention) stops the latest command sent; GTP
//!     ignores comment lines, so it gets no answer of its own;
//!   - any line after an analysis command (`lz-analyze` ...) stops that stream, and so
//!     does end of input (a stream has no end of its own);
//!   - nothing else: `quit` and end of input wait for the commands before them.
//! - the **output watcher** (run_stdio only, [`super::controller`]) notices when nobody
//!   reads stdout any more: it stops every command not yet answered and ends the reader,
//!   so the process exits within a fraction of a second whatever the clocks say.
//! - one **dispatcher** on a blocking thread (`spawn_blocking`) owns the engine and the
//!   output. It parses each line, runs the handler (which blocks for as long as its search
//!   is allowed or until its token stops), writes the answer and flushes it. Answers come
//!   in input order: a command pipelined behind `genmove` is answered after it. Because the
//!   dispatcher is off the async workers, a long handler never starves the reader.
//! - the server itself answers the administrative commands from [`ADMIN_COMMANDS`]; the
//!   engine's table provides the rest. Dispatch, `known_command` and `list_commands` read
//!   the same tables, so they cannot disagree.
//!
//! A panicking handler is a bug, but it must not kill a game in progress: the panic is
//! caught, answered with `? internal error` and logged (the engine state may be suspect).
use std::io::{self, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::mpsc;

use super::answer::format_reply;
use super::engine::{Command, CommandSpec, Flow, GtpEngine, GtpError, Reply, Run};
use super::framing::{leading_id, parse_line};
use super::lines::{Line, LineEnds, LineSplitter, MAX_LINE};
use super::pending::{Admission, Job, Outstanding};
use super::stream::Stream;
use crate::search::StopToken;

/// Lines buffered between reader and dispatcher; bounds memory to about 16 x [`MAX_LINE`].
const CHANNEL_LINES: usize = 16;

/// Commands the server answers itself, in `list_commands` order. `gogui-interrupt` tells
/// GoGui that the `# interrupt` line works (for every engine); as a command it does nothing.
/// `cputime` is the process's CPU seconds (all threads), which gogui-twogtp reads.
pub const ADMIN_COMMANDS: [&str; 8] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "gogui-interrupt",
    "cputime",
];

/// CPU seconds used by this process so far (every thread; 0 where the clock is unavailable).
pub fn cpu_seconds() -> f64 {
    crate::cpu_time::process_seconds().unwrap_or(0.0)
}

/// Reads `input` until EOF (or until the dispatcher hangs up, or the controller is gone),
/// sending one [`Job`] per LF. A final line without LF is still a line. Read errors end
/// the input like EOF.
async fn read_lines<R: AsyncRead + Unpin>(
    mut input: R,
    tx: mpsc::Sender<Job>,
    cap: usize,
    mut admission: Admission,
    outstanding: Arc<Outstanding>,
) {
    let mut buf = vec![0u8; 64 * 1024];
    let mut splitter = LineSplitter::new(cap, LineEnds::Lf);
    loop {
        if outstanding.is_gone() {
            return;
        }
        let n = tokio::select! {
            // Nobody reads the answers: reading more commands is pointless.
            _ = outstanding.gone() => return,
            read = input.read(&mut buf) => match read {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) => {
                    tracing::warn!("reading commands failed, treating as end of input: {e}");
                    break;
                }
            },
        };
        let mut chunk = &buf[..n];
        while let Some(line) = splitter.next_line(&mut chunk) {
            if let Some(job) = admission.admit(line) {
                if tx.send(job).await.is_err() {
                    return;
                }
            }
        }
    }
    let last = splitter.finish().and_then(|line| admission.admit(line));
    admission.end_of_input();
    if let Some(job) = last {
        let _ = tx.send(job).await;
    }
}

fn known<E: GtpEngine>(table: &[CommandSpec<E>], name: &str) -> bool {
    ADMIN_COMMANDS.contains(&name) || table.iter().any(|c| c.name == name)
}

fn list<E: GtpEngine>(table: &[CommandSpec<E>]) -> String {
    let mut names: Vec<&str> = ADMIN_COMMANDS.to_vec();
    for spec in table {
        if !names.contains(&spec.name) {
            names.push(spec.name);
        }
    }
    names.join("\n")
}

/// Runs one parsed command: administrative commands first, then the engine's table.
/// Blocks for as long as the handler does. A streaming command writes its whole answer to
/// `out` itself; the reply returned is then `None`.
pub fn execute<E: GtpEngine>(
    engine: &mut E,
    cmd: &Command,
    stop: &StopToken,
    out: &mut dyn Write,
) -> io::Result<(Option<Reply>, Flow)> {
    let table = E::commands();
    let reply = match cmd.name.as_str() {
        "protocol_version" => Ok("2".to_string()),
        "name" => Ok(engine.name().to_string()),
        "version" => Ok(engine.version().to_string()),
        "known_command" => match cmd.args.as_slice() {
            [name] => Ok(known(table, name).to_string()),
            _ => Err(GtpError::syntax()),
        },
        "list_commands" => Ok(list(table)),
        "gogui-interrupt" => Ok(String::new()),
        "cputime" => match cmd.args.as_slice() {
            [] => Ok(format!("{:.3}", cpu_seconds())),
            _ => Err(GtpError::syntax()),
        },
        "quit" => return Ok((Some(Ok(String::new())), Flow::Quit)),
        name => match table.iter().find(|c| c.name == name) {
            None => Err(GtpError::new("unknown command")),
            Some(spec) => {
                engine.begin_command(spec.name, stop);
                let reply = match spec.run {
                    Run::Plain(handler) => {
                        Some(guarded(name, &cmd.args, || handler(engine, &cmd.args)))
                    }
                    Run::Stream { handler, .. } => {
                        let mut stream = Stream::new(out, cmd.id, stop.clone());
                        let reply =
                            guarded(name, &cmd.args, || handler(engine, &cmd.args, &mut stream));
                        stream.finish(&reply)?;
                        None
                    }
                };
                return Ok((reply, Flow::Continue));
            }
        },
    };
    Ok((Some(reply), Flow::Continue))
}

/// Runs a handler, turning a panic into `? internal error` (logged).
fn guarded(name: &str, args: &[String], f: impl FnOnce() -> Reply) -> Reply {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(reply) => reply,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            tracing::error!(
                command = name,
                ?args,
                "handler panicked ({what}); engine state may be inconsistent"
            );
            Err(GtpError::new("internal error"))
        }
    }
}

/// The dispatcher loop: owns engine and output, answers every line in order.
fn dispatch<E: GtpEngine, W: Write>(
    engine: &mut E,
    rx: &mut mpsc::Receiver<Job>,
    out: &mut W,
    outstanding: &Outstanding,
) -> io::Result<()> {
    while let Some(Job { line, stop }) = rx.blocking_recv() {
        if outstanding.is_gone() {
            break;
        }
        let mut ran: Option<&'static str> = None;
        let (id, reply, flow) = match line {
            Line::TooLong { prefix, .. } => (
                leading_id(&prefix),
                Err(GtpError::new("line too long")),
                Flow::Continue,
            ),
            Line::Text(bytes) => match parse_line(&bytes) {
                None => continue,
                Some(Err(e)) => (e.id, Err(e.error), Flow::Continue),
                Some(Ok(cmd)) => {
                    tracing::debug!(?cmd, "command");
                    ran = E::commands()
                        .iter()
                        .find(|c| c.name == cmd.name)
                        .map(|c| c.name);
                    let (reply, flow) = execute(engine, &cmd, &stop, out)?;
                    match reply {
                        Some(reply) => (cmd.id, reply, flow),
                        None => {
                            if let Some(name) = ran {
                                engine.end_command(name);
                            }
                            continue;
                        }
                    }
                }
            },
        };
        out.write_all(format_reply(id, &reply).as_bytes())?;
        out.flush()?;
        if flow == Flow::Quit {
            break;
        }
        if let Some(name) = ran {
            engine.end_command(name);
        }
    }
    Ok(())
}

/// Serves GTP on `input`/`output` until `quit` or end of input, then calls
/// [`GtpEngine::on_quit`] and hands engine and writer back (tests inspect them).
///
/// Must run inside a tokio runtime (any flavour): the dispatcher uses `spawn_blocking`.
/// A closed output (broken pipe) ends the session quietly, like EOF.
pub async fn serve<E, R, W>(engine: E, input: R, output: W) -> io::Result<(E, W)>
where
    E: GtpEngine,
    R: AsyncRead + Unpin + Send + 'static,
    W: Write + Send + 'static,
{
    serve_watched(engine, input, output, Outstanding::new()).await
}

/// [`serve`], with the commands not yet answered in `outstanding`: calling
/// [`Outstanding::controller_gone`] stops them all, stops reading and ends the session
/// once the running handler has returned (its answer is still written, if it can be).
pub async fn serve_watched<E, R, W>(
    engine: E,
    input: R,
    output: W,
    outstanding: Arc<Outstanding>,
) -> io::Result<(E, W)>
where
    E: GtpEngine,
    R: AsyncRead + Unpin + Send + 'static,
    W: Write + Send + 'static,
{
    let (tx, mut rx) = mpsc::channel(CHANNEL_LINES);
    let analysis: Vec<&'static str> = E::commands()
        .iter()
        .filter(|c| c.ends_on_input())
        .map(|c| c.name)
        .collect();
    let admission = Admission::new(Arc::clone(&outstanding), analysis);
    let reader = tokio::spawn(read_lines(
        input,
        tx,
        MAX_LINE,
        admission,
        Arc::clone(&outstanding),
    ));
    let dispatcher = tokio::task::spawn_blocking(move || {
        let mut engine = engine;
        let mut output = output;
        let result = dispatch(&mut engine, &mut rx, &mut output, &outstanding);
        engine.on_quit();
        (engine, output, result)
    });
    let joined = dispatcher.await;
    // After `quit` the reader may still wait for input that will never be read.
    reader.abort();
    let (engine, output, result) = joined.map_err(io::Error::other)?;
    match result {
        Ok(()) => Ok((engine, output)),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            tracing::info!("output closed by the controller");
            Ok((engine, output))
        }
        Err(e) => Err(e),
    }
}

/// Serves GTP on the process's stdin/stdout until `quit` or EOF (each after the commands
/// before it), or until nobody reads stdout any more. Returns `Ok` in every case, so
/// `main` exits with status 0.
pub fn run_stdio<E: GtpEngine>(engine: E) -> io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let outstanding = Outstanding::new();
    let watched = Arc::clone(&outstanding);
    super::controller::watch_stdout(move || watched.controller_gone());
    let result = runtime.block_on(serve_watched(
        engine,
        tokio::io::stdin(),
        io::stdout(),
        outstanding,
    ));
    // tokio's stdin reads on a blocking thread that may sit in read(2) forever after
    // `quit`; do not wait for it.
    runtime.shutdown_background();
    result.map(|_| ())
}
