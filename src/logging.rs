//! Logging setup: `tracing` to stderr only, since stdout carries protocol answers.
use tracing_subscriber::EnvFilter;

/// Installs the global subscriber. `level` (e.g. from `--log-level`: `warn`, `debug`, or a
/// full filter such as `quartet=debug`) wins over `RUST_LOG`; with neither, `warn`.
/// A malformed filter falls back to `warn` with a warning. Calling it twice is harmless.
pub fn init_logging(level: Option<&str>) {
    let (filter, bad) = match level {
        Some(l) => match EnvFilter::try_new(l) {
            Ok(f) => (f, None),
            Err(e) => (
                EnvFilter::new("warn"),
                Some(format!("bad log level {l:?}: {e}")),
            ),
        },
        None => match std::env::var("RUST_LOG") {
            Ok(v) if !v.is_empty() => match EnvFilter::try_new(&v) {
                Ok(f) => (f, None),
                Err(e) => (
                    EnvFilter::new("warn"),
                    Some(format!("bad RUST_LOG {v:?}: {e}")),
                ),
            },
            _ => (EnvFilter::new("warn"), None),
        },
    };
    let installed = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init()
        .is_ok();
    if let (true, Some(msg)) = (installed, bad) {
        tracing::warn!("{msg}; using warn");
    }
}
