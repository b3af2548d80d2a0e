//! The GTP server loop shared by every engine.
//!
//! Threads and their contracts:
//! - one **reader task** (tokio) splits the input into lines and sends them over a bounded
//!   channel. It never holds more than [`MAX_LINE`] bytes of one line: a longer line is
//!   drained up to its LF and replaced by a "too long" marker carrying its first bytes (to
//!   echo the id). So binary garbage costs bounded memory and never stalls the loop.
//! - one **dispatcher** on a blocking thread (`spawn_blocking`) owns the engine and the
//!   output. It parses each line, runs the handler (which may block, e.g. `genmove` for as
//!   long as its search is allowed), writes the answer and flushes it. Because it is off the
//!   async workers, a long handler never starves the reader.
//! - the server itself answers the administrative commands from [`ADMIN_COMMANDS`]; the
//!   engine's table provides the rest. Dispatch, `known_command` and `list_commands` read
//!   the same tables, so they cannot disagree.
//!
//! A panicking handler is a bug, but it must not kill a game in progress: the panic is
//! caught, answered with `? internal error` and logged (the engine state may be suspect).
use std::io::{self, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::mpsc;

use super::answer::format_reply;
use super::engine::{Command, CommandSpec, Flow, GtpEngine, GtpError, Reply};
use super::framing::{leading_id, parse_line};

/// Longest accepted command line, in bytes (without its LF).
pub const MAX_LINE: usize = 1 << 20;

/// Lines buffered between reader and dispatcher; bounds memory to about 16 x [`MAX_LINE`].
const CHANNEL_LINES: usize = 16;

/// How many bytes of an over-long line are kept to find its id.
const PREFIX_KEEP: usize = 64;

/// Commands the server answers itself, in `list_commands` order.
pub const ADMIN_COMMANDS: [&str; 6] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
];

/// One framed input line.
enum Line {
    Text(Vec<u8>),
    TooLong { prefix: Vec<u8> },
}

/// Reads `input` until EOF (or until the dispatcher hangs up), sending one [`Line`] per LF.
/// A final line without LF is still a line. Read errors end the input like EOF.
async fn read_lines<R: AsyncRead + Unpin>(mut input: R, tx: mpsc::Sender<Line>, cap: usize) {
    let mut buf = vec![0u8; 64 * 1024];
    let mut line: Vec<u8> = Vec::new();
    let mut too_long = false;
    let mut prefix: Vec<u8> = Vec::new();
    loop {
        let n = match input.read(&mut buf).await {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) => {
                tracing::warn!("reading commands failed, treating as end of input: {e}");
                break;
            }
        };
        let mut chunk = &buf[..n];
        while !chunk.is_empty() {
            let (part, ended) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], Some(i + 1)),
                None => (chunk, None),
            };
            if !too_long {
                if line.len() + part.len() > cap {
                    too_long = true;
                    line.extend_from_slice(
                        &part[..PREFIX_KEEP.saturating_sub(line.len()).min(part.len())],
                    );
                    line.truncate(PREFIX_KEEP);
                    prefix = std::mem::take(&mut line);
                } else {
                    line.extend_from_slice(part);
                }
            }
            match ended {
                Some(skip) => {
                    let msg = if too_long {
                        too_long = false;
                        Line::TooLong {
                            prefix: std::mem::take(&mut prefix),
                        }
                    } else {
                        Line::Text(std::mem::take(&mut line))
                    };
                    if tx.send(msg).await.is_err() {
                        return;
                    }
                    chunk = &chunk[skip..];
                }
                None => chunk = &[],
            }
        }
    }
    let last = if too_long {
        Some(Line::TooLong { prefix })
    } else if !line.is_empty() {
        Some(Line::Text(line))
    } else {
        None
    };
    if let Some(msg) = last {
        let _ = tx.send(msg).await;
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
/// Blocks for as long as the handler does.
pub fn execute<E: GtpEngine>(engine: &mut E, cmd: &Command) -> (Reply, Flow) {
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
        "quit" => return (Ok(String::new()), Flow::Quit),
        name => match table.iter().find(|c| c.name == name) {
            None => Err(GtpError::new("unknown command")),
            Some(spec) => {
                let handler = spec.handler;
                match catch_unwind(AssertUnwindSafe(|| handler(engine, &cmd.args))) {
                    Ok(reply) => reply,
                    Err(panic) => {
                        let what = panic
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| panic.downcast_ref::<String>().cloned())
                            .unwrap_or_default();
                        tracing::error!(
                            command = name,
                            args = ?cmd.args,
                            "handler panicked ({what}); engine state may be inconsistent"
                        );
                        Err(GtpError::new("internal error"))
                    }
                }
            }
        },
    };
    (reply, Flow::Continue)
}

/// The dispatcher loop: owns engine and output, answers every line in order.
fn dispatch<E: GtpEngine, W: Write>(
    engine: &mut E,
    rx: &mut mpsc::Receiver<Line>,
    out: &mut W,
) -> io::Result<()> {
    while let Some(line) = rx.blocking_recv() {
        let (id, reply, flow) = match line {
            Line::TooLong { prefix } => (
                leading_id(&prefix),
                Err(GtpError::new("line too long")),
                Flow::Continue,
            ),
            Line::Text(bytes) => match parse_line(&bytes) {
                None => continue,
                Some(Err(e)) => (e.id, Err(e.error), Flow::Continue),
                Some(Ok(cmd)) => {
                    tracing::debug!(?cmd, "command");
                    let (reply, flow) = execute(engine, &cmd);
                    (cmd.id, reply, flow)
                }
            },
        };
        out.write_all(format_reply(id, &reply).as_bytes())?;
        out.flush()?;
        if flow == Flow::Quit {
            break;
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
    let (tx, mut rx) = mpsc::channel(CHANNEL_LINES);
    let reader = tokio::spawn(read_lines(input, tx, MAX_LINE));
    let dispatcher = tokio::task::spawn_blocking(move || {
        let mut engine = engine;
        let mut output = output;
        let result = dispatch(&mut engine, &mut rx, &mut output);
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

/// Serves GTP on the process's stdin/stdout until `quit` or EOF. Returns `Ok` in both cases,
/// so `main` exits with status 0.
pub fn run_stdio<E: GtpEngine>(engine: E) -> io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let result = runtime.block_on(serve(engine, tokio::io::stdin(), io::stdout()));
    // tokio's stdin reads on a blocking thread that may sit in read(2) forever after
    // `quit`; do not wait for it.
    runtime.shutdown_background();
    result.map(|_| ())
}
