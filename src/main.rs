use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
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
    /// Gomoku engine: GTP on stdin/stdout, or the Gomocup protocol with --pbrain.
    Gomoku(cli::gomoku::GomokuArgs),
    /// Speed and correctness benchmarks: node rates, exact solves of known positions,
    /// search signatures.
    Bench(cli::bench::BenchArgs),
    /// Self-play data, evaluation fits and opening books (how the built-in data was made).
    Train(cli::train::TrainArgs),
    /// Play two engines against each other and print a results table.
    Match(Box<cli::match_cmd::MatchArgs>),
    /// Serve a web page to play and analyse the four games in a browser.
    Serve(cli::serve::ServeArgs),
    /// A deliberately simple (or broken) GTP engine for testing the referee.
    #[command(hide = true)]
    FakeGtp(cli::fake_gtp::FakeGtpArgs),
}

fn main() {
    // Started as `pbrain-quartet` (a symlink, the Gomocup naming): the Gomocup brain.
    if std::env::args_os().next().is_some_and(|a| {
        let a = a.to_string_lossy();
        a.strip_suffix(".exe")
            .unwrap_or(&a)
            .ends_with("pbrain-quartet")
    }) {
        if let Err(e) = cli::gomoku::run(cli::gomoku::GomokuArgs::default()) {
            eprintln!("pbrain-quartet: {e}");
            std::process::exit(2);
        }
        return;
    }
    let matches = accept_negative_numbers(Cli::command()).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let result = match cli.command {
        Command::Go(a) => cli::go::run(a),
        Command::Othello(a) => cli::othello::run(a),
        Command::Dots(a) => cli::dots::run(a),
        Command::Gomoku(a) => cli::gomoku::run(a),
        Command::Bench(a) => cli::bench::run(a),
        Command::Train(a) => cli::train::run(a),
        Command::Match(a) => cli::match_cmd::run(*a),
        Command::Serve(a) => cli::serve::run(a),
        Command::FakeGtp(a) => cli::fake_gtp::run(a),
    };
    if let Err(e) = result {
        eprintln!("quartet: {e}");
        std::process::exit(2);
    }
}

/// Lets every option of every subcommand take a value starting with `-` followed by a
/// digit (`--seed -1`, `--komi -0.5`), so such a value reaches the option's own parser and
/// range check, which name the option, instead of clap's `unexpected argument '-1'`.
fn accept_negative_numbers(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|a| {
        if a.get_action().takes_values() {
            a.allow_negative_numbers(true)
        } else {
            a
        }
    })
    .mut_subcommands(accept_negative_numbers)
}
