//! A game-agnostic time manager: the clock settings a controller sends (`time_settings`,
//! `kgs-time_settings`, `time_left`) and a per-move budget that never loses on time.
//!
//! Budgets are `(soft, hard)` durations from the moment the command arrived; both already
//! have the safety [`margin`] removed (2.5% plus 20 ms for process start-up of the reply,
//! pipe latency and the controller's own clock granularity; `--lag-buffer` sets the 20 ms).
//!
//! GTP semantics (GTP 2 spec, section 4.2 and `time_settings`): Canadian byo-yomi with
//! `main byo_time byo_stones`; `byo_time = 0` is absolute time; `byo_time > 0` with
//! `byo_stones = 0` means no time limit. `time_left color time stones` reports the time
//! left in the main time (stones = 0) or in the current byo-yomi period (stones > 0).
//! KGS adds `kgs-time_settings none | absolute M | byoyomi M T P | canadian M T S`; in
//! Japanese byo-yomi KGS reports the periods left as the `stones` of `time_left`.
//!
//! When the controller never sends `time_left`, the engine reports its own thinking time
//! with [`TimeManager::spent`] and the clocks are kept here.
use std::time::Duration;

use crate::color::Color;
use crate::protocol::engine::GtpError;

/// Fixed part of the safety margin, for pipe and process latency: a local pipe answers
/// in well under a millisecond (a 1 s Go move answers 1-2 ms after its search stops), and
/// a stop reaches the search threads within a few. A link over a network needs more,
/// which `--lag-buffer` gives.
pub const DEFAULT_LAG_BUFFER_MS: u64 = 20;

/// Longest `--lag-buffer` accepted: a minute.
pub const MAX_LAG_BUFFER: Duration = Duration::from_secs(60);

/// What an engine's command line sets for its time manager.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeSettings {
    /// Thinking time of every move while no clock is set (`--move-time`).
    pub move_time: Duration,
    /// Fixed part of the safety margin kept back from every move's time (`--lag-buffer`).
    pub lag_buffer: Duration,
}

impl TimeSettings {
    /// `move_time` per move and `lag_buffer_ms` of lag buffer (`--lag-buffer`), which must
    /// not exceed [`MAX_LAG_BUFFER`].
    pub fn new(move_time: Duration, lag_buffer_ms: u64) -> Result<TimeSettings, String> {
        if lag_buffer_ms > MAX_LAG_BUFFER.as_millis() as u64 {
            return Err(format!(
                "--lag-buffer must be at most {} ms",
                MAX_LAG_BUFFER.as_millis()
            ));
        }
        Ok(TimeSettings {
            move_time,
            lag_buffer: Duration::from_millis(lag_buffer_ms),
        })
    }

    /// `move_time` per move with the default lag buffer.
    pub fn with_move_time(move_time: Duration) -> TimeSettings {
        TimeSettings {
            move_time,
            lag_buffer: Duration::from_millis(DEFAULT_LAG_BUFFER_MS),
        }
    }
}

/// Longest thinking time for one move that a clock can buy (`time_settings 1000000000 0 0`
/// would otherwise allow months): 10 minutes, longer than any tournament move needs and
/// short enough that a forgotten engine gives its answer. `--move-time` (no clock) is the
/// user's explicit choice and is not capped.
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(600);

/// Longest time accepted in a command (about 31 years); more is a syntax error.
const MAX_SECONDS: u64 = 1_000_000_000;

/// What remains usable of `t`: `t - t/40 - lag_buffer`, never negative (0.955 s of 1 s with
/// the default 20 ms).
pub fn margin(t: Duration, lag_buffer: Duration) -> Duration {
    t.saturating_sub(t / 40).saturating_sub(lag_buffer)
}

/// The clock the controller set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// No limit: the engine's default per-move time is used.
    Unlimited,
    /// Sudden death: `main` for the whole game.
    Absolute { main: Duration },
    /// After `main`, each `period` must cover `stones` moves.
    Canadian {
        main: Duration,
        period: Duration,
        stones: u32,
    },
    /// Japanese byo-yomi: after `main`, `periods` periods of `period`; a move played within
    /// a period does not use it up.
    Byoyomi {
        main: Duration,
        period: Duration,
        periods: u32,
    },
}

/// One player's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Clock {
    main_left: Duration,
    in_overtime: bool,
    period_left: Duration,
    /// Canadian: stones still to play in this period. Japanese: periods left.
    count: u32,
}

impl Clock {
    fn fresh(control: TimeControl) -> Clock {
        let (main, period, count) = match control {
            TimeControl::Unlimited => (Duration::ZERO, Duration::ZERO, 0),
            TimeControl::Absolute { main } => (main, Duration::ZERO, 0),
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => (main, period, stones),
            TimeControl::Byoyomi {
                main,
                period,
                periods,
            } => (main, period, periods),
        };
        Clock {
            main_left: main,
            // Overtime with no main time before it (`time_settings 0 T 1`, a fixed time per
            // move) starts at the first move: nothing a move saves is banked.
            in_overtime: main.is_zero() && count > 0,
            period_left: period,
            count,
        }
    }
}

/// Clock state for both players plus the engine's default move time and lag buffer.
#[derive(Clone, Debug)]
pub struct TimeManager {
    control: TimeControl,
    clocks: [Clock; 2],
    default_move: Duration,
    lag_buffer: Duration,
}

/// Parses a non-negative number of seconds: digits with an optional decimal fraction
/// (`30`, `7.5`). Negative, non-numeric, exponent forms and absurd sizes are syntax errors.
pub fn parse_seconds(s: &str) -> Result<Duration, GtpError> {
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, f),
        None => (s, ""),
    };
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() || !digits(int) || !digits(frac) || (s.contains('.') && frac.is_empty()) {
        return Err(GtpError::syntax());
    }
    let secs: u64 = int.parse().map_err(|_| GtpError::syntax())?;
    if secs > MAX_SECONDS {
        return Err(GtpError::syntax());
    }
    let mut nanos: u32 = 0;
    let mut scale = 100_000_000;
    for b in frac.bytes().take(9) {
        nanos += u32::from(b - b'0') * scale;
        scale /= 10;
    }
    Ok(Duration::new(secs, nanos))
}

/// Parses a non-negative count (stones, periods) that fits a `u32`.
pub fn parse_count(s: &str) -> Result<u32, GtpError> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(GtpError::syntax());
    }
    s.parse().map_err(|_| GtpError::syntax())
}

/// The GTP `time_settings` triple as a [`TimeControl`] (spec section 4.2).
pub fn gtp_control(main: Duration, byo_time: Duration, byo_stones: u32) -> TimeControl {
    if byo_time > Duration::ZERO && byo_stones == 0 {
        // The spec's explicit "no time limits" encoding.
        TimeControl::Unlimited
    } else if byo_time == Duration::ZERO {
        if main == Duration::ZERO {
            // No time at all cannot be honoured; controllers use 0 0 0 to clear the clock.
            TimeControl::Unlimited
        } else {
            TimeControl::Absolute { main }
        }
    } else {
        TimeControl::Canadian {
            main,
            period: byo_time,
            stones: byo_stones,
        }
    }
}

impl TimeManager {
    /// No clock set; every move gets the settings' move time (soft and hard).
    pub fn new(settings: TimeSettings) -> TimeManager {
        TimeManager {
            control: TimeControl::Unlimited,
            clocks: [Clock::fresh(TimeControl::Unlimited); 2],
            default_move: settings.move_time,
            lag_buffer: settings.lag_buffer,
        }
    }

    /// What remains usable of `t` under this manager's lag buffer (see [`margin`]).
    pub fn margin(&self, t: Duration) -> Duration {
        margin(t, self.lag_buffer)
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    pub fn default_move_time(&self) -> Duration {
        self.default_move
    }

    pub fn set_default_move_time(&mut self, d: Duration) {
        self.default_move = d;
    }

    /// Installs a clock and resets both players to its start.
    pub fn set_control(&mut self, control: TimeControl) {
        self.control = control;
        self.clocks = [Clock::fresh(control); 2];
    }

    /// GTP `time_settings main_time byo_yomi_time byo_yomi_stones`.
    pub fn time_settings(&mut self, args: &[String]) -> Result<(), GtpError> {
        match args {
            [m, t, s] => {
                let control = gtp_control(parse_seconds(m)?, parse_seconds(t)?, parse_count(s)?);
                self.set_control(control);
                Ok(())
            }
            _ => Err(GtpError::syntax()),
        }
    }

    /// KGS `kgs-time_settings none | absolute M | byoyomi M T P | canadian M T S`
    /// (system names case-insensitive). Degenerate overtimes (`T = 0`, `P = 0`) are absolute
    /// time; `canadian` follows the GTP triple's rules.
    pub fn kgs_time_settings(&mut self, args: &[String]) -> Result<(), GtpError> {
        let system = args.first().map(|s| s.to_ascii_lowercase());
        let control = match (system.as_deref(), &args[args.len().min(1)..]) {
            (Some("none"), []) => TimeControl::Unlimited,
            (Some("absolute"), [m]) => gtp_control(parse_seconds(m)?, Duration::ZERO, 0),
            (Some("canadian"), [m, t, s]) => {
                gtp_control(parse_seconds(m)?, parse_seconds(t)?, parse_count(s)?)
            }
            (Some("byoyomi"), [m, t, p]) => {
                let (main, period, periods) =
                    (parse_seconds(m)?, parse_seconds(t)?, parse_count(p)?);
                if period == Duration::ZERO || periods == 0 {
                    gtp_control(main, Duration::ZERO, 0)
                } else {
                    TimeControl::Byoyomi {
                        main,
                        period,
                        periods,
                    }
                }
            }
            _ => return Err(GtpError::syntax()),
        };
        self.set_control(control);
        Ok(())
    }

    /// GTP `time_left color time stones`.
    pub fn time_left(&mut self, args: &[String]) -> Result<(), GtpError> {
        match args {
            [c, t, s] => {
                let color: Color = c.parse().map_err(|_| GtpError::syntax())?;
                self.set_time_left(color, parse_seconds(t)?, parse_count(s)?);
                Ok(())
            }
            _ => Err(GtpError::syntax()),
        }
    }

    /// The controller's view of one clock replaces ours. `stones == 0`: in main time;
    /// otherwise in overtime with `time` left in the period for `stones` stones (Canadian)
    /// or with `stones` periods left (Japanese).
    pub fn set_time_left(&mut self, color: Color, time: Duration, stones: u32) {
        let clock = &mut self.clocks[color.index()];
        match self.control {
            TimeControl::Unlimited => {}
            TimeControl::Absolute { .. } => clock.main_left = time,
            TimeControl::Canadian { .. } | TimeControl::Byoyomi { .. } => {
                if stones == 0 {
                    clock.in_overtime = false;
                    clock.main_left = time;
                } else {
                    clock.in_overtime = true;
                    clock.main_left = Duration::ZERO;
                    clock.period_left = time;
                    clock.count = stones;
                }
            }
        }
    }

    /// Books `elapsed` thinking time for one move of `color` on our own copy of its clock.
    pub fn spent(&mut self, color: Color, elapsed: Duration) {
        let clock = &mut self.clocks[color.index()];
        let mut overflow = elapsed;
        if !clock.in_overtime {
            if elapsed <= clock.main_left || matches!(self.control, TimeControl::Absolute { .. }) {
                clock.main_left = clock.main_left.saturating_sub(elapsed);
                return;
            }
            overflow = elapsed - clock.main_left;
            clock.main_left = Duration::ZERO;
            clock.in_overtime = true;
        }
        match self.control {
            TimeControl::Unlimited | TimeControl::Absolute { .. } => {}
            TimeControl::Canadian { period, stones, .. } => {
                clock.period_left = clock.period_left.saturating_sub(overflow);
                clock.count = clock.count.saturating_sub(1);
                if clock.count == 0 {
                    clock.period_left = period;
                    clock.count = stones;
                }
            }
            TimeControl::Byoyomi { period, .. } => {
                let used = (overflow.as_nanos() / period.as_nanos().max(1)) as u32;
                clock.count = clock.count.saturating_sub(used);
                clock.period_left = period;
            }
        }
    }

    /// `(soft, hard)` thinking time for `color`'s next move, given an estimate of that
    /// player's moves still to play (0 is read as 1). Zero means "answer at once".
    /// Budgets from a clock never exceed [`MAX_MOVE_TIME`].
    pub fn budget(&self, color: Color, moves_left: u32) -> (Duration, Duration) {
        if self.control == TimeControl::Unlimited {
            return (self.default_move, self.default_move);
        }
        let (soft, hard) = self.clock_budget(color, moves_left);
        (soft.min(MAX_MOVE_TIME), hard.min(MAX_MOVE_TIME))
    }

    /// Whether time `color` saves on a move is still there for its later moves: sudden
    /// death, main time, a Canadian period with more than one move left. A fixed time per
    /// move (no clock, one stone per period, Japanese overtime) banks nothing.
    pub fn banks_savings(&self, color: Color) -> bool {
        let clock = &self.clocks[color.index()];
        match self.control {
            TimeControl::Unlimited => false,
            TimeControl::Absolute { .. } => true,
            TimeControl::Canadian { .. } => !clock.in_overtime || clock.count > 1,
            TimeControl::Byoyomi { .. } => !clock.in_overtime,
        }
    }

    fn clock_budget(&self, color: Color, moves_left: u32) -> (Duration, Duration) {
        let n = moves_left.max(1);
        let clock = &self.clocks[color.index()];
        match self.control {
            TimeControl::Unlimited => (self.default_move, self.default_move),
            TimeControl::Absolute { .. } => self.main_phase(clock.main_left, n, Duration::ZERO),
            TimeControl::Canadian { period, stones, .. } => {
                if clock.in_overtime {
                    let per = self.margin(clock.period_left / clock.count.max(1));
                    (per, per)
                } else {
                    self.main_phase(clock.main_left, n, self.margin(period / stones.max(1)))
                }
            }
            TimeControl::Byoyomi { period, .. } => {
                if clock.in_overtime {
                    let per = self.margin(clock.period_left);
                    (per, per)
                } else {
                    self.main_phase(clock.main_left, n, self.margin(period))
                }
            }
        }
    }

    /// In main time: an even share of what is left, at least what one overtime move may
    /// use (crossing into overtime by that much is safe). The hard limit allows three
    /// shares but never more than half the usable main time (or the soft limit, if larger).
    fn main_phase(
        &self,
        main_left: Duration,
        n: u32,
        overtime_move: Duration,
    ) -> (Duration, Duration) {
        let usable = self.margin(main_left);
        let soft = (usable / n).max(overtime_move);
        let hard = (soft * 3).min((usable / 2).max(soft));
        (soft, hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &[&str]) -> Vec<String> {
        x.iter().map(|a| a.to_string()).collect()
    }
    fn ms(m: u64) -> Duration {
        Duration::from_millis(m)
    }
    fn ns(n: u64) -> Duration {
        Duration::from_nanos(n)
    }
    fn manager(move_time: Duration) -> TimeManager {
        TimeManager::new(TimeSettings::with_move_time(move_time))
    }

    #[test]
    fn parsing_numbers() {
        assert_eq!(parse_seconds("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_seconds("7.5"), Ok(ms(7500)));
        assert_eq!(parse_seconds("0"), Ok(Duration::ZERO));
        assert_eq!(parse_seconds("0.0000000019"), Ok(ns(1)));
        for bad in [
            "-1",
            "",
            "abc",
            "1e3",
            "inf",
            "NaN",
            "+5",
            ".5",
            "5.",
            "1.2.3",
            "99999999999",
        ] {
            assert_eq!(parse_seconds(bad), Err(GtpError::syntax()), "{bad}");
        }
        assert_eq!(parse_count("25"), Ok(25));
        assert_eq!(parse_count("4294967295"), Ok(u32::MAX));
        for bad in ["-1", "4294967296", "1.5", "", "x"] {
            assert_eq!(parse_count(bad), Err(GtpError::syntax()), "{bad}");
        }
    }

    #[test]
    fn gtp_time_settings_semantics() {
        let mut tm = manager(Duration::from_secs(1));
        assert_eq!(
            tm.budget(Color::Black, 30),
            (Duration::from_secs(1), Duration::from_secs(1))
        );
        tm.time_settings(&s(&["0", "1", "0"])).unwrap();
        assert_eq!(tm.control(), TimeControl::Unlimited);
        tm.time_settings(&s(&["300", "0", "0"])).unwrap();
        assert_eq!(
            tm.control(),
            TimeControl::Absolute {
                main: Duration::from_secs(300)
            }
        );
        tm.time_settings(&s(&["600", "30", "10"])).unwrap();
        assert_eq!(
            tm.control(),
            TimeControl::Canadian {
                main: Duration::from_secs(600),
                period: Duration::from_secs(30),
                stones: 10
            }
        );
        for bad in [
            &["1", "2"][..],
            &["-1", "0", "0"],
            &["a", "0", "0"],
            &["1", "2", "3", "4"],
        ] {
            assert_eq!(tm.time_settings(&s(bad)), Err(GtpError::syntax()));
        }
        assert_eq!(
            tm.time_left(&s(&["red", "10", "0"])),
            Err(GtpError::syntax())
        );
        assert_eq!(
            tm.time_left(&s(&["b", "-10", "0"])),
            Err(GtpError::syntax())
        );
    }

    #[test]
    fn the_margin_keeps_a_fortieth_and_the_lag_buffer() {
        assert_eq!(margin(ms(1000), ms(20)), ms(955));
        assert_eq!(margin(ms(1000), ms(300)), ms(675));
        assert_eq!(margin(ms(40_000), ms(0)), ms(39_000));
        assert_eq!(margin(ms(100), ms(300)), ms(0));
    }

    #[test]
    fn each_manager_keeps_its_own_lag_buffer() {
        // Two engines in one process: a 300 ms buffer does not change the other's 20 ms.
        let settings = |lag| TimeSettings::new(Duration::from_secs(5), lag).unwrap();
        let mut near = TimeManager::new(settings(20));
        let mut far = TimeManager::new(settings(300));
        for tm in [&mut near, &mut far] {
            tm.time_settings(&s(&["0", "1", "1"])).unwrap();
        }
        assert_eq!(far.budget(Color::Black, 30), (ms(675), ms(675)));
        assert_eq!(near.budget(Color::Black, 30), (ms(955), ms(955)));
        assert_eq!(
            TimeSettings::with_move_time(ms(5000)),
            settings(DEFAULT_LAG_BUFFER_MS)
        );
        assert!(TimeSettings::new(ms(1), 60_000).is_ok());
        let e = TimeSettings::new(ms(1), 60_001).unwrap_err();
        assert!(e.contains("--lag-buffer"), "{e}");
    }

    #[test]
    fn a_fixed_time_per_move_banks_nothing_from_the_first_move() {
        // `time_settings 0 1 1`, what match referees send for "1 s a move": the first
        // move is already in overtime, so a move stopped early saves nothing.
        let mut tm = manager(Duration::from_secs(5));
        tm.time_settings(&s(&["0", "1", "1"])).unwrap();
        for c in [Color::Black, Color::White] {
            assert!(!tm.banks_savings(c));
            let (soft, hard) = tm.budget(c, 30);
            assert_eq!(soft, hard);
            assert_eq!(soft, tm.margin(Duration::from_secs(1)));
        }
        tm.spent(Color::Black, ms(800));
        assert!(!tm.banks_savings(Color::Black));
        // With main time first, savings bank until overtime, and a period of ten stones
        // banks within the period.
        tm.time_settings(&s(&["60", "1", "1"])).unwrap();
        assert!(tm.banks_savings(Color::Black));
        tm.time_settings(&s(&["0", "30", "10"])).unwrap();
        assert!(tm.banks_savings(Color::Black));
    }

    #[test]
    fn kgs_time_settings_forms() {
        let mut tm = manager(Duration::from_secs(1));
        tm.kgs_time_settings(&s(&["byoyomi", "0", "10", "5"]))
            .unwrap();
        assert_eq!(
            tm.control(),
            TimeControl::Byoyomi {
                main: Duration::ZERO,
                period: Duration::from_secs(10),
                periods: 5
            }
        );
        tm.kgs_time_settings(&s(&["ABSOLUTE", "60"])).unwrap();
        assert_eq!(
            tm.control(),
            TimeControl::Absolute {
                main: Duration::from_secs(60)
            }
        );
        tm.kgs_time_settings(&s(&["canadian", "60", "20", "5"]))
            .unwrap();
        assert!(matches!(
            tm.control(),
            TimeControl::Canadian { stones: 5, .. }
        ));
        tm.kgs_time_settings(&s(&["none"])).unwrap();
        assert_eq!(tm.control(), TimeControl::Unlimited);
        for bad in [
            &[][..],
            &["none", "1"],
            &["absolute"],
            &["byoyomi", "1", "2"],
            &["fischer", "1"],
        ] {
            assert_eq!(tm.kgs_time_settings(&s(bad)), Err(GtpError::syntax()));
        }
    }

    #[test]
    fn absolute_budget_by_hand() {
        let mut tm = manager(Duration::from_secs(1));
        tm.time_settings(&s(&["300", "0", "0"])).unwrap();
        // usable = 300 - 7.5 - 0.02 = 292.48 s; /30 = 9.749333333 s; hard = 3 x soft.
        assert_eq!(
            tm.budget(Color::White, 30),
            (ns(9_749_333_333), ns(29_247_999_999))
        );
        // Last move: everything usable.
        assert_eq!(tm.budget(Color::White, 0), (ms(292_480), ms(292_480)));
        // Two moves left: hard is capped at half the usable time = the soft share.
        assert_eq!(tm.budget(Color::White, 2), (ms(146_240), ms(146_240)));
        // Own accounting: 10 s clock, 4 s spent: usable 6 - 0.15 - 0.02 = 5.83 s.
        tm.time_settings(&s(&["10", "0", "0"])).unwrap();
        tm.spent(Color::Black, Duration::from_secs(4));
        assert_eq!(tm.budget(Color::Black, 1), (ms(5_830), ms(5_830)));
        assert_eq!(tm.budget(Color::White, 1).0, ms(9_730));
        // Nearly out of time: answer at once rather than overstep.
        tm.time_left(&s(&["b", "0.02", "0"])).unwrap();
        assert_eq!(
            tm.budget(Color::Black, 10),
            (Duration::ZERO, Duration::ZERO)
        );
    }

    #[test]
    fn canadian_budget_by_hand() {
        let mut tm = manager(Duration::from_secs(1));
        // No main time: straight into byo-yomi, 30 s for 10 stones:
        // per move 3 s - 0.075 - 0.02 = 2.905 s.
        tm.time_settings(&s(&["0", "30", "10"])).unwrap();
        assert_eq!(tm.budget(Color::Black, 40), (ms(2_905), ms(2_905)));
        // Controller says: 12 s left for 3 stones: 4 s - 0.1 - 0.02 = 3.88 s.
        tm.time_left(&s(&["black", "12", "3"])).unwrap();
        assert_eq!(tm.budget(Color::Black, 40), (ms(3_880), ms(3_880)));
        // Main time 100 s left, 20 moves: usable 97.48 s, share 4.874 s (above the
        // 2.905 s overtime share), hard 3 x 4.874 = 14.622 s.
        tm.time_left(&s(&["b", "100", "0"])).unwrap();
        assert_eq!(
            tm.budget(Color::Black, 20),
            (ns(4_874_000_000), ns(14_622_000_000))
        );
        // Main time almost gone: the overtime share is safe to use.
        tm.time_left(&s(&["b", "1", "0"])).unwrap();
        assert_eq!(tm.budget(Color::Black, 20), (ms(2_905), ms(2_905)));
    }

    #[test]
    fn canadian_own_accounting() {
        let mut tm = manager(Duration::from_secs(1));
        tm.time_settings(&s(&["10", "20", "5"])).unwrap();
        // 12 s spent: main gone, 2 s into the period: 18 s for 4 stones:
        // 4.5 s - 0.1125 - 0.02 = 4.3675 s.
        tm.spent(Color::White, Duration::from_secs(12));
        assert_eq!(
            tm.budget(Color::White, 9),
            (ns(4_367_500_000), ns(4_367_500_000))
        );
        for _ in 0..4 {
            tm.spent(Color::White, Duration::from_secs(1));
        }
        // Period complete: a fresh 20 s for 5 stones: 4 s - 0.1 - 0.02 = 3.88 s.
        assert_eq!(tm.budget(Color::White, 9), (ms(3_880), ms(3_880)));
    }

    #[test]
    fn japanese_byoyomi() {
        let mut tm = manager(Duration::from_secs(1));
        tm.kgs_time_settings(&s(&["byoyomi", "5", "10", "3"]))
            .unwrap();
        tm.spent(Color::Black, Duration::from_secs(7));
        // In overtime: a whole period per move, 10 - 0.25 - 0.02 = 9.73 s.
        assert_eq!(tm.budget(Color::Black, 50), (ms(9_730), ms(9_730)));
        // A 25 s overrun inside overtime costs two of the three periods, not the game.
        tm.spent(Color::Black, Duration::from_secs(25));
        assert_eq!(tm.clocks[Color::Black.index()].count, 1);
        assert_eq!(tm.budget(Color::Black, 50), (ms(9_730), ms(9_730)));
        // KGS: 10 s left in the current period, 5 periods.
        tm.time_left(&s(&["w", "10", "5"])).unwrap();
        assert_eq!(tm.budget(Color::White, 50), (ms(9_730), ms(9_730)));
        // Fresh clock (main time 5 s): the even share 4.855 s / 50 is below one period, and
        // overrunning main time by less than one period is free, so 9.73 s is safe.
        assert_eq!(
            TimeManager {
                clocks: [Clock::fresh(tm.control()); 2],
                ..tm.clone()
            }
            .budget(Color::Black, 50),
            (ms(9_730), ms(9_730))
        );
    }

    #[test]
    fn absurd_clocks_are_capped_per_move() {
        // `time_settings 1000000000 0 0` (the largest accepted): about 31 years of main
        // time must not buy more than the documented cap, in any clock system.
        let mut tm = manager(Duration::from_secs(1));
        let huge = s(&["1000000000", "0", "0"]);
        tm.time_settings(&huge).unwrap();
        for n in [1u32, 40] {
            let (soft, hard) = tm.budget(Color::White, n);
            assert_eq!(hard, MAX_MOVE_TIME);
            assert!(soft <= MAX_MOVE_TIME);
        }
        tm.kgs_time_settings(&s(&["byoyomi", "0", "1000000000", "5"]))
            .unwrap();
        assert_eq!(tm.budget(Color::Black, 1), (MAX_MOVE_TIME, MAX_MOVE_TIME));
        // No clock: `--move-time` is taken as given.
        let tm = manager(Duration::from_secs(3600));
        assert_eq!(tm.budget(Color::Black, 1).1, Duration::from_secs(3600));
    }

    #[test]
    fn budgets_never_exceed_the_clock() {
        // Exhaustive sweep: whatever the state, soft <= hard <= what is really left.
        let mut tm = manager(Duration::from_secs(1));
        for (m, t, st) in [(0u64, 30u64, 10u32), (60, 0, 0), (5, 10, 1), (300, 20, 25)] {
            tm.set_control(gtp_control(
                Duration::from_secs(m),
                Duration::from_secs(t),
                st,
            ));
            for left_ms in [0u64, 50, 99, 100, 101, 999, 1000, 5000, 60_000] {
                for stones in [0u32, 1, 2, 7] {
                    tm.set_time_left(Color::Black, ms(left_ms), stones);
                    for n in [0u32, 1, 2, 10, 100] {
                        let (soft, hard) = tm.budget(Color::Black, n);
                        assert!(soft <= hard);
                        let available = if stones == 0 {
                            ms(left_ms) + tm.margin(Duration::from_secs(t) / st.max(1))
                        } else {
                            ms(left_ms)
                        };
                        assert!(hard <= available, "{m} {t} {st} {left_ms} {stones} {n}");
                    }
                }
            }
        }
    }
}
