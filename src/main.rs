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
    /// Speed benchmarks.
    Bench(cli::bench::BenchArgs),
    /// Othello engine speaking the GRhino/Edax GTP dialect on stdin/stdout.
    Othello(cli::othello::OthelloArgs),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Go(a) => cli::go::run(a),
        Command::Bench(a) => cli::bench::run(a),
        Command::Othello(a) => cli::othello::run(a),
    };
    if let Err(e) = result {
        eprintln!("quartet: {e}");
        std::process::exit(2);
    }
}
