//! The command line: one small module per subcommand.
pub mod bench;
pub mod dots;
pub mod go;
