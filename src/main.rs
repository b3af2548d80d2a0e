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
    /// Speed benchmarks.
    Bench(cli::bench::BenchArgs),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Bench(a) => cli::bench::run(a),
    };
    if let Err(e) = result {
        eprintln!("quartet: {e}");
        std::process::exit(2);
    }
}
