//! Search machinery shared by the games: time management and stop tokens.
pub mod stop;
pub mod time;

pub use stop::{Deadline, Limits, Poller, StopToken};
pub use time::{TimeControl, TimeManager};
