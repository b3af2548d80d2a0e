//! What a game engine provides to the shared GTP server.

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

/// One row of an engine's command table. Dispatch, `list_commands` and `known_command`
/// all read the same table, so they cannot disagree.
pub struct CommandSpec<E: 'static> {
    pub name: &'static str,
    pub handler: Handler<E>,
}

impl<E: 'static> CommandSpec<E> {
    /// One table row; `const` so tables stay `static`.
    pub const fn new(name: &'static str, handler: Handler<E>) -> CommandSpec<E> {
        CommandSpec { name, handler }
    }
}

/// A game engine behind the GTP framing.
///
/// Contract: `commands()` is called once; every handler runs on the dispatcher thread and may
/// block only for as long as the command itself needs (e.g. `genmove` blocks until its search
/// ends, bounded by the engine's hard deadline). The administrative commands
/// (`protocol_version`, `name`, `version`, `known_command`, `list_commands`, `quit`) are
/// answered by the server itself.
pub trait GtpEngine: Send + 'static {
    fn name(&self) -> &str;
    fn version(&self) -> &str;
    fn commands() -> &'static [CommandSpec<Self>]
    where
        Self: Sized;

    /// Called once when the server stops (after `quit` is answered, or at EOF on input),
    /// on the dispatcher thread. Engines with worker threads stop and join them here.
    /// Must not block for long: the process exits right after.
    fn on_quit(&mut self) {}
}
