//! Subcommands of the `quartet` binary, one file each.
pub mod fake_gtp;
pub mod match_cmd;
