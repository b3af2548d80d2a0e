//! Search machinery shared by the games: time management, stop tokens and pondering.
pub mod ponder;
pub mod stop;
pub mod time;

pub use stop::{Deadline, Limits, Poller, StopToken};
pub use time::{TimeControl, TimeManager};
