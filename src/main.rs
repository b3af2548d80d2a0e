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
    /// Othello engine speaking the GRhino/Edax GTP dialect on stdin/stdout.
    Othello(cli::othello::OthelloArgs),
    /// Dots-and-Boxes engine speaking a GTP-style protocol on stdin/stdout.
    Dots(cli::dots::DotsArgs),
    /// Speed benchmarks.
    Bench(cli::bench::BenchArgs),
    /// Play two engines against each other and print a results table.
    Match(Box<cli::match_cmd::MatchArgs>),
    /// A deliberately simple (or broken) GTP engine for testing the referee.
    #[command(hide = true)]
    FakeGtp(cli::fake_gtp::FakeGtpArgs),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Go(a) => cli::go::run(a),
        Command::Othello(a) => cli::othello::run(a),
        Command::Dots(a) => cli::dots::run(a),
        Command::Bench(a) => cli::bench::run(a),
        Command::Match(a) => cli::match_cmd::run(*a),
        Command::FakeGtp(a) => cli::fake_gtp::run(a),
    };
    if let Err(e) = result {
        eprintln!("quartet: {e}");
        std::process::exit(2);
    }
}
