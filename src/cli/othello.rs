//! `quartet othello`: the Othello GTP engine on stdin/stdout.
#[derive(clap::Args, Debug)]
pub struct OthelloArgs {}
pub fn run(_a: OthelloArgs) -> Result<(), String> {
    Ok(())
}
