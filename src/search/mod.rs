//! Search machinery shared by the games: time management, stop tokens, pondering and
//! the young-brothers-wait split of a search between threads (`ybwc`).
pub mod ponder;
pub mod stop;
pub mod time;
pub mod ybwc;

pub use stop::{Deadline, Limits, Poller, StopToken};
pub use time::{TimeControl, TimeManager};
