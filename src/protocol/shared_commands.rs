//! Handlers that behave the same in every game, written once so the four engines cannot
//! drift apart in how they read clocks or tolerate Go-only commands.
use super::args::one_arg;
use super::engine::{GtpError, Reply};
use crate::search::time::TimeManager;

/// An engine whose `genmove` budgets its thinking with a [`TimeManager`].
pub trait Timed {
    fn time_manager(&mut self) -> &mut TimeManager;
}

/// `time_settings main byo_yomi_time byo_yomi_stones` (GTP 2, section 6.3.5).
pub fn time_settings<E: Timed>(e: &mut E, args: &[String]) -> Reply {
    e.time_manager().time_settings(args).map(|_| String::new())
}

/// `kgs-time_settings none|absolute|byoyomi|canadian ...`, as GoGui and KGS send it.
pub fn kgs_time_settings<E: Timed>(e: &mut E, args: &[String]) -> Reply {
    e.time_manager()
        .kgs_time_settings(args)
        .map(|_| String::new())
}

/// `time_left color seconds stones`.
pub fn time_left<E: Timed>(e: &mut E, args: &[String]) -> Reply {
    e.time_manager().time_left(args).map(|_| String::new())
}

/// Controllers written for Go send `komi` to every engine; games without komi accept any
/// finite number and ignore it.
pub fn ignored_komi<E>(_: &mut E, args: &[String]) -> Reply {
    match one_arg(args)?.parse::<f64>() {
        Ok(k) if k.is_finite() => Ok(String::new()),
        _ => Err(GtpError::syntax()),
    }
}
