//! Logging setup: `tracing` to stderr only, since stdout carries protocol answers.
use tracing_subscriber::EnvFilter;

const LEVELS: [&str; 6] = ["off", "error", "warn", "info", "debug", "trace"];

/// Checks a `--log-level` value: a level name, or a filter whose every directive ends in
/// `=level` (`quartet=debug,tokio=warn`). `EnvFilter` alone would take `foo` as a target
/// name and log nothing, silently.
pub fn check_level(level: &str) -> Result<(), String> {
    let is_level = |s: &str| LEVELS.iter().any(|l| l.eq_ignore_ascii_case(s.trim()));
    let well_formed = !level.trim().is_empty()
        && level.split(',').all(|d| match d.rsplit_once('=') {
            Some((target, l)) => !target.trim().is_empty() && is_level(l),
            None => is_level(d),
        });
    if well_formed && EnvFilter::try_new(level).is_ok() {
        Ok(())
    } else {
        Err(format!(
            "bad --log-level {level:?}: give one of {} or a filter such as quartet=debug",
            LEVELS.join(", ")
        ))
    }
}

/// Installs the global subscriber. `level` (e.g. from `--log-level`: `warn`, `debug`, or a
/// full filter such as `quartet=debug`) wins over `RUST_LOG`; with neither, `warn`.
/// A bad `level` is an error (checked before anything is installed); a malformed
/// `RUST_LOG` falls back to `warn` with a warning. Calling it twice is harmless.
pub fn init_logging(level: Option<&str>) -> Result<(), String> {
    let (filter, bad) = match level {
        Some(l) => {
            check_level(l)?;
            (EnvFilter::try_new(l).map_err(|e| e.to_string())?, None)
        }
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_level;

    #[test]
    fn levels_and_filters_pass_names_without_a_level_fail() {
        for ok in [
            "warn",
            "DEBUG",
            "off",
            "quartet=debug",
            "quartet=info,tokio=warn",
            "trace",
        ] {
            assert_eq!(check_level(ok), Ok(()), "{ok}");
        }
        for bad in [
            "foo",
            "",
            " ",
            "quartet=loud",
            "=debug",
            "debug,",
            "info,foo",
        ] {
            let e = check_level(bad).unwrap_err();
            assert!(e.starts_with("bad --log-level"), "{bad}: {e}");
        }
    }
}
