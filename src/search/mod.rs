//! Search machinery shared by the games: time management, stop tokens, pondering and
//! the young-brothers-wait split of a search between threads (`ybwc`).
pub mod ponder;
pub mod stop;
pub mod time;
pub mod ybwc;

/// Told by an iterative-deepening search what it has found after each completed iteration
/// (and after a completed exact solve), on the searching thread; the search itself never
/// writes anything. Searches without a listener pass [`no_progress`].
pub type Progress<'a, T> = &'a mut dyn FnMut(&T);

/// The listener that ignores every report.
pub fn no_progress<T>(_: &T) {}

pub use stop::{Deadline, Limits, Poller, StopToken};
pub use time::{TimeControl, TimeManager};
