mod cli;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "quartet",
    version,
    about = "Four board-game engines behind GTP-style protocols"
)]
struct Cli {
    #[command(subcommand)]
    command: Commands,
}

#[derive(Subcommand)]
enum Commands {
    /// Play two engines against each other and print a results table.
    Match(Box<cli::match_cmd::MatchArgs>),
    /// A deliberately simple (or broken) GTP engine for testing the referee.
    #[command(hide = true)]
    FakeGtp(cli::fake_gtp::FakeGtpArgs),
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    match Cli::parse().command {
        Commands::Match(args) => cli::match_cmd::run(*args),
        Commands::FakeGtp(args) => cli::fake_gtp::run(args),
    }
}
