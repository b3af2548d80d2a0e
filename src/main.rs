use clap::{Parser, Subcommand};
use quartet::cli;

#[derive(Parser, Debug)]
#[command(
    name = "quartet",
    version,
    about = "Go, Othello, Gomoku and Dots-and-Boxes engines"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Go engine speaking GTP version 2 on stdin/stdout.
    Go(cli::go::GoArgs),
    /// Dots-and-Boxes engine speaking a GTP-style protocol on stdin/stdout.
    Dots(cli::dots::DotsArgs),
    /// Speed benchmarks.
    Bench(cli::bench::BenchArgs),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Go(a) => cli::go::run(a),
        Command::Dots(a) => cli::dots::run(a),
        Command::Bench(a) => cli::bench::run(a),
    };
    if let Err(e) = result {
        eprintln!("quartet: {e}");
        std::process::exit(2);
    }
}
