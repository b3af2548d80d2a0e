//! What a game engine provides to the shared GTP server.
use super::stream::Stream;
use crate::search::StopToken;

/// One parsed command line: `[id] name args...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    pub id: Option<u32>,
    pub name: String,
    pub args: Vec<String>,
}

/// A failed command; the text is the GTP error message (`? <text>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GtpError(pub String);

impl GtpError {
    pub fn new(msg: impl Into<String>) -> GtpError {
        GtpError(msg.into())
    }
    pub fn syntax() -> GtpError {
        GtpError::new("syntax error")
    }
}

pub type Reply = Result<String, GtpError>;

/// What the server does after answering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// A handler receives the engine and the command's arguments.
pub type Handler<E> = fn(&mut E, &[String]) -> Reply;

/// A handler that writes part of its answer while it runs (analysis lines). It calls
/// [`Stream::begin`] once its arguments are valid; what it returns is the answer's last
/// line (`play D4`) or empty. Returning an error before `begin` is an ordinary `? error`.
pub type StreamHandler<E> = fn(&mut E, &[String], &mut Stream<'_>) -> Reply;

/// How the server runs one command.
pub enum Run<E: 'static> {
    /// Answered once, when the handler returns.
    Plain(Handler<E>),
    /// Streams lines while it runs. `ends_on_input`: any new input line stops it (the
    /// `lz-analyze` family); otherwise it is an ordinary command that only streams
    /// (`lz-genmove_analyze`), stopped like `genmove` by `# interrupt` (or a departed
    /// controller), and otherwise run to its own bound.
    Stream {
        handler: StreamHandler<E>,
        ends_on_input: bool,
    },
}

/// One row of an engine's command table. Dispatch, `list_commands` and `known_command`
/// all read the same table, so they cannot disagree.
pub struct CommandSpec<E: 'static> {
    pub name: &'static str,
    pub run: Run<E>,
}

impl<E: 'static> CommandSpec<E> {
    /// One table row; `const` so tables stay `static`.
    pub const fn new(name: &'static str, handler: Handler<E>) -> CommandSpec<E> {
        CommandSpec {
            name,
            run: Run::Plain(handler),
        }
    }

    /// An analysis stream that ends when the next input line arrives.
    pub const fn analysis(name: &'static str, handler: StreamHandler<E>) -> CommandSpec<E> {
        CommandSpec {
            name,
            run: Run::Stream {
                handler,
                ends_on_input: true,
            },
        }
    }

    /// A command that streams lines but ends on its own (a `genmove` with analysis).
    pub const fn streaming(name: &'static str, handler: StreamHandler<E>) -> CommandSpec<E> {
        CommandSpec {
            name,
            run: Run::Stream {
                handler,
                ends_on_input: false,
            },
        }
    }

    pub fn ends_on_input(&self) -> bool {
        matches!(
            self.run,
            Run::Stream {
                ends_on_input: true,
                ..
            }
        )
    }
}

/// A game engine behind the GTP framing.
///
/// Contract: `commands()` is called once; every handler runs on the dispatcher thread, one
/// at a time and in input order. A searching handler blocks the dispatcher (not the input
/// reader) until its search ends, which must happen promptly once the command's
/// [`StopToken`] (given by [`GtpEngine::begin_command`]) is stopped: the server stops it on
/// `# interrupt`, when nobody reads the output any more, and, for analysis streams, on any
/// new input line or the end of input (`quit` and end of input wait for every other
/// command). The administrative commands (`protocol_version`, `name`, `version`,
/// `known_command`, `list_commands`, `quit`) are answered by the server itself.
pub trait GtpEngine: Send + 'static {
    fn name(&self) -> &str;
    fn version(&self) -> &str;
    fn commands() -> &'static [CommandSpec<Self>]
    where
        Self: Sized;

    /// Called on the dispatcher thread before each command of the engine's table runs,
    /// with that command's name and stop token. Engines keep the token for their searches;
    /// an engine that ponders stops its background search here. Must not block for long.
    fn begin_command(&mut self, _name: &str, _stop: &StopToken) {}

    /// Called after each command of the engine's table has been answered (the answer is
    /// already flushed): a pondering engine starts thinking here. Must not block.
    fn end_command(&mut self, _name: &str) {}

    /// Called once when the server stops (after `quit` is answered, at end of input once
    /// every command is answered, or when the controller is gone), on the dispatcher
    /// thread. Engines with worker threads stop and join them here.
    /// Must not block for long: the process exits right after.
    fn on_quit(&mut self) {}
}
