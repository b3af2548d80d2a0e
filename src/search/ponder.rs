//! Thinking on the opponent's time (`--ponder`): an engine's searcher, with its tables,
//! lent to a background thread between two commands and taken back, with what it learnt,
//! when the next command arrives.
//!
//! Thread contract: [`Lent::lend`] and [`Lent::get`] are called by the dispatcher only.
//! `lend` never blocks (it spawns the thread). `get` blocks while a lent value comes home:
//! it stops the thread's token and joins it, which takes one search poll (the searches
//! poll their token every node). The thread never does I/O, and a panic in it is caught
//! and logged: the value comes back as it is (a search leaves only its tables behind,
//! which are hints), so no command ever fails because of pondering.
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::thread::JoinHandle;
use std::time::Duration;

use super::StopToken;

/// Longest ponder (the same bound as the longest move): a forgotten engine stops using
/// the machine.
pub const MAX_PONDER: Duration = super::time::MAX_MOVE_TIME;

/// A value that is either here or lent to a pondering thread.
pub struct Lent<T: Send + 'static> {
    slot: Slot<T>,
    /// Makes a new value if a lent one is lost (its thread died outside the search).
    fresh: Box<dyn Fn() -> T + Send>,
}

enum Slot<T> {
    Home(T),
    Away {
        stop: StopToken,
        handle: JoinHandle<Option<T>>,
    },
    /// Only while the value moves between the two others.
    Moving,
}

impl<T: Send + 'static> Lent<T> {
    /// `value` at home; `fresh` replaces it if a ponder thread ever loses it.
    pub fn new(value: T, fresh: impl Fn() -> T + Send + 'static) -> Lent<T> {
        Lent {
            slot: Slot::Home(value),
            fresh: Box::new(fresh),
        }
    }

    /// Runs `think(&mut value, &stop)` on a new thread until [`Lent::get`] stops it; first
    /// takes back a value lent before. If no thread can be started, nothing is pondered.
    pub fn lend<F>(&mut self, think: F)
    where
        F: FnOnce(&mut T, &StopToken) + Send + 'static,
    {
        self.get();
        let stop = StopToken::new();
        let token = stop.clone();
        // The value goes over a channel once the thread exists, so a failed spawn keeps it.
        let (tx, rx) = std::sync::mpsc::channel::<T>();
        let spawned = std::thread::Builder::new()
            .name("ponder".into())
            .spawn(move || {
                let mut value = rx.recv().ok()?;
                if catch_unwind(AssertUnwindSafe(|| think(&mut value, &token))).is_err() {
                    tracing::error!("pondering panicked; its tables are kept as they are");
                }
                Some(value)
            });
        let handle = match spawned {
            Ok(handle) => handle,
            Err(e) => {
                tracing::warn!("cannot start the ponder thread: {e}");
                return;
            }
        };
        let Slot::Home(value) = std::mem::replace(&mut self.slot, Slot::Moving) else {
            unreachable!("get() leaves the value home")
        };
        // The receiver lives until the thread has it; a send error gives the value back.
        if let Err(back) = tx.send(value) {
            self.slot = Slot::Home(back.0);
            return;
        }
        self.slot = Slot::Away { stop, handle };
    }

    /// Whether a ponder runs now.
    pub fn is_away(&self) -> bool {
        matches!(self.slot, Slot::Away { .. })
    }

    /// The value, stopping and joining a running ponder first.
    pub fn get(&mut self) -> &mut T {
        if self.is_away() {
            let Slot::Away { stop, handle } = std::mem::replace(&mut self.slot, Slot::Moving)
            else {
                unreachable!("checked just above")
            };
            stop.stop();
            let value = match handle.join() {
                Ok(Some(v)) => v,
                _ => {
                    tracing::error!("the ponder thread lost its value; starting afresh");
                    (self.fresh)()
                }
            };
            self.slot = Slot::Home(value);
        }
        match &mut self.slot {
            Slot::Home(v) => v,
            // `Moving` never outlives the two calls above.
            _ => unreachable!("the value is home"),
        }
    }
}

impl<T: Send + 'static> Drop for Lent<T> {
    fn drop(&mut self) {
        // Never leave a thread searching after its engine is gone.
        if self.is_away() {
            self.get();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn the_value_comes_back_with_the_work_done_and_promptly() {
        let mut lent = Lent::new(0u64, || 0);
        lent.lend(|n, stop| {
            while !stop.is_stopped() {
                *n += 1;
                std::thread::yield_now();
            }
        });
        assert!(lent.is_away());
        std::thread::sleep(Duration::from_millis(50));
        let t = Instant::now();
        let n = *lent.get();
        assert!(t.elapsed() < Duration::from_millis(500));
        assert!(n > 0, "the ponder ran");
        assert!(!lent.is_away());
        // A second get does nothing; a new lend starts from the kept value.
        assert_eq!(*lent.get(), n);
        lent.lend(|n, _| *n += 1_000_000);
        assert_eq!(*lent.get(), n + 1_000_000);
    }

    #[test]
    fn a_panicking_ponder_gives_the_value_back() {
        let mut lent = Lent::new(vec![1, 2, 3], Vec::new);
        lent.lend(|v, _| {
            v.push(4);
            panic!("test panic");
        });
        assert_eq!(lent.get(), &vec![1, 2, 3, 4]);
    }
}
