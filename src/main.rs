//! The `quartet` command line: one small file per subcommand under `src/cli/`.
mod cli;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "quartet",
    version,
    about = "Four board-game engines behind GTP-style protocols"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Benchmarks with independent reference numbers.
    Bench {
        #[command(subcommand)]
        game: BenchGame,
    },
}

#[derive(Subcommand, Debug)]
enum BenchGame {
    /// Othello: perft counts and the FFO endgame suite.
    Othello {
        #[command(subcommand)]
        what: cli::bench_othello::BenchOthello,
    },
}

fn main() {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Bench {
            game: BenchGame::Othello { what },
        } => cli::bench_othello::run(what),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
