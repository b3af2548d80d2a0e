//! `quartet othello`: the Othello GTP engine on stdin/stdout.
