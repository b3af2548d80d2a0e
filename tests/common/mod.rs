//! Helpers shared by integration tests. Each test crate uses only some of them.
#![allow(dead_code)]
pub mod brain;
pub mod cli;
pub mod live;
pub mod oracle;
pub mod session;
pub mod tst;
