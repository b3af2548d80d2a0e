//! `quartet serve`: the web page for playing and analysing the four games.
use crate::serve::{self, ServeSettings};
use clap::Args;
use std::net::IpAddr;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// TCP port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on; anything but a loopback address opens the engines to the
    /// network.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Games (each with its own engine process) open at once; further ones are refused
    /// as busy.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    max_games: u16,
    /// Serve the page from this folder instead of the copy built in (for editing it).
    #[arg(long, hide = true, value_name = "DIR")]
    page_dir: Option<PathBuf>,
    /// Log level (error, warn, info, debug, trace).
    #[arg(long)]
    log_level: Option<String>,
}

pub fn run(args: ServeArgs) -> Result<(), String> {
    crate::logging::init_logging(args.log_level.as_deref())?;
    let program =
        std::env::current_exe().map_err(|e| format!("cannot find the quartet binary: {e}"))?;
    if let Some(dir) = &args.page_dir {
        if !dir.is_dir() {
            return Err(format!("--page-dir {}: not a folder", dir.display()));
        }
    }
    let settings = ServeSettings {
        port: args.port,
        bind: args.bind,
        max_games: args.max_games as usize,
        page_dir: args.page_dir,
        ..ServeSettings::new(program)
    };
    serve::run(settings)
}
