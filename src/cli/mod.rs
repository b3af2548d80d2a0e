//! The command line: one small module per subcommand.
pub mod bench;
pub mod go;
