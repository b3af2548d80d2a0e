//! Live analysis in the formats GUIs parse: Leela Zero's `lz-analyze` (integers x10000)
//! and KataGo's `kata-analyze` (floats, score, ownership), as documented in KataGo's
//! `docs/GTP_Extensions.md`. The engines provide the numbers ([`Snapshot`]); this module
//! parses the arguments, paces the stream and formats the lines. No game knowledge.
use std::fmt::Write as _;
use std::time::{Duration, Instant};

use super::engine::{GtpError, Reply};
use super::stream::Stream;
use crate::search::StopToken;

/// One candidate move, all values from the point of view of the side analysed.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveInfo {
    /// The move as the protocol writes it (`D4`, `pass`, `a1-b1`).
    pub mv: String,
    pub visits: u64,
    /// Win rate in [0, 1].
    pub winrate: f64,
    /// The move's prior in [0, 1] (a policy share).
    pub prior: f64,
    /// A lower confidence bound of the win rate, in [0, 1].
    pub lcb: f64,
    /// Expected final margin in the game's unit (points, discs, boxes), if it has one.
    pub score_lead: Option<f64>,
    /// The principal variation starting with `mv`, with each move's visits.
    pub pv: Vec<(String, u64)>,
}

/// What the engine found so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    /// Most promising first (the order written as `order 0, 1, ...`).
    pub moves: Vec<MoveInfo>,
    /// Ownership per point in [-1, 1] from the analysed side's view, row-major from the
    /// top-left point; only games with territory give it.
    pub ownership: Option<Vec<f64>>,
}

/// The two line formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `info move D4 visits 12 winrate 5123 prior 1200 lcb 4900 order 0 pv D4 C3`.
    Lz,
    /// `info move D4 visits 12 utility 0.02 winrate 0.51 scoreMean ... order 0 pv D4 C3`.
    Kata,
}

/// Arguments of `lz-analyze`/`kata-analyze`/`analyze` and the genmove forms:
/// `[color] [interval] [interval N] [minmoves N] [maxmoves N] [ownership true|false]
/// [pvVisits true|false]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalyzeArgs {
    /// The colour argument as given, if any (the engine parses it).
    pub color: Option<String>,
    /// Between two lines; zero: search without writing lines.
    pub interval: Duration,
    pub minmoves: usize,
    pub maxmoves: Option<usize>,
    pub ownership: bool,
    pub pv_visits: bool,
}

fn count(s: &str) -> Result<usize, GtpError> {
    s.parse::<u32>()
        .map(|n| n as usize)
        .map_err(|_| GtpError::syntax())
}

fn flag(s: &str) -> Result<bool, GtpError> {
    match s {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(GtpError::syntax()),
    }
}

/// Parses the arguments as KataGo does: an optional colour (`is_color` decides), an
/// optional bare interval in centiseconds, then key-value pairs.
pub fn parse_args(
    args: &[String],
    is_color: impl Fn(&str) -> bool,
) -> Result<AnalyzeArgs, GtpError> {
    let mut out = AnalyzeArgs {
        color: None,
        interval: Duration::ZERO,
        minmoves: 0,
        maxmoves: None,
        ownership: false,
        pv_visits: false,
    };
    let mut rest = args;
    if let Some((first, tail)) = rest.split_first() {
        if is_color(first) {
            out.color = Some(first.clone());
            rest = tail;
        }
    }
    if let Some((first, tail)) = rest.split_first() {
        if first.bytes().all(|b| b.is_ascii_digit()) {
            out.interval = Duration::from_millis(10 * count(first)? as u64);
            rest = tail;
        }
    }
    if !rest.len().is_multiple_of(2) {
        return Err(GtpError::syntax());
    }
    for pair in rest.chunks(2) {
        let (key, value) = (pair[0].as_str(), pair[1].as_str());
        match key {
            "interval" => out.interval = Duration::from_millis(10 * count(value)? as u64),
            "minmoves" => out.minmoves = count(value)?,
            "maxmoves" => out.maxmoves = Some(count(value)?),
            "ownership" => out.ownership = flag(value)?,
            "pvVisits" => out.pv_visits = flag(value)?,
            _ => return Err(GtpError::new(format!("unknown analysis option '{key}'"))),
        }
    }
    Ok(out)
}

/// Which moves a line lists: every visited move, padded with unvisited ones up to
/// `minmoves`, cut at `maxmoves`.
fn listed<'a>(snap: &'a Snapshot, args: &AnalyzeArgs) -> impl Iterator<Item = &'a MoveInfo> {
    let visited = snap.moves.iter().filter(|m| m.visits > 0).count();
    let n = visited
        .max(args.minmoves)
        .min(args.maxmoves.unwrap_or(usize::MAX));
    snap.moves.iter().take(n)
}

/// Rounds `x` in [0, 1] to the integer x10000 Leela Zero writes.
fn permyriad(x: f64) -> i64 {
    (x.clamp(0.0, 1.0) * 10000.0).round() as i64
}

/// At most six decimals, always with a decimal point: Sabaki (src/modules/analysis.js)
/// reads a `winrate` without `.` as Leela Zero's integer x10000, so `1` would be 0.01%.
fn float(x: f64) -> String {
    let s = format!("{:.6}", x);
    let s = s.trim_end_matches('0');
    let s = if s.ends_with('.') {
        format!("{s}0")
    } else {
        s.to_string()
    };
    if s == "-0.0" {
        "0.0".to_string()
    } else {
        s
    }
}

/// One whole output line for a snapshot (every move on the same line, as both engines
/// write it). Empty when there is nothing to report yet.
pub fn format_line(snap: &Snapshot, style: Style, args: &AnalyzeArgs) -> String {
    let mut s = String::new();
    for (order, m) in listed(snap, args).enumerate() {
        if !s.is_empty() {
            s.push(' ');
        }
        match style {
            Style::Lz => {
                let _ = write!(
                    s,
                    "info move {} visits {} winrate {} prior {} lcb {} order {order} pv",
                    m.mv,
                    m.visits,
                    permyriad(m.winrate),
                    permyriad(m.prior),
                    permyriad(m.lcb)
                );
            }
            Style::Kata => {
                let utility = 2.0 * m.winrate - 1.0;
                let _ = write!(
                    s,
                    "info move {} visits {} utility {} winrate {}",
                    m.mv,
                    m.visits,
                    float(utility),
                    float(m.winrate)
                );
                if let Some(score) = m.score_lead {
                    let _ = write!(s, " scoreMean {} scoreLead {}", float(score), float(score));
                }
                let _ = write!(
                    s,
                    " prior {} lcb {} utilityLcb {} order {order} pv",
                    float(m.prior),
                    float(m.lcb),
                    float(2.0 * m.lcb - 1.0)
                );
            }
        }
        if m.pv.is_empty() {
            // Both engines print at least the move itself.
            let _ = write!(s, " {}", m.mv);
        }
        for (mv, _) in &m.pv {
            let _ = write!(s, " {mv}");
        }
        if style == Style::Kata && args.pv_visits {
            s.push_str(" pvVisits");
            if m.pv.is_empty() {
                let _ = write!(s, " {}", m.visits);
            }
            for (_, v) in &m.pv {
                let _ = write!(s, " {v}");
            }
        }
    }
    if style == Style::Kata && args.ownership {
        if let Some(own) = &snap.ownership {
            if !s.is_empty() {
                s.push(' ');
            }
            s.push_str("ownership");
            for v in own {
                let _ = write!(s, " {}", float(v.clamp(-1.0, 1.0)));
            }
        }
    }
    s
}

/// When no interval is given the search still runs, in steps of this length.
const SILENT_STEP: Duration = Duration::from_millis(100);

/// Streams an analysis until the command's token stops (new input, end of input,
/// `# interrupt`, a departed controller) or `limit` passes. `step(budget, stop)` searches for about
/// `budget` (returning early when `stop` trips) and returns the current snapshot; a line
/// is written after each step when an interval was asked for. Returns the last snapshot.
pub fn stream_analysis(
    out: &mut Stream<'_>,
    args: &AnalyzeArgs,
    style: Style,
    limit: Option<Duration>,
    mut step: impl FnMut(Duration, &StopToken) -> Snapshot,
) -> Snapshot {
    out.begin();
    let start = Instant::now();
    let stop = out.stop_token().clone();
    let mut last = Snapshot::default();
    loop {
        if stop.is_stopped() {
            break;
        }
        let mut budget = if args.interval.is_zero() {
            SILENT_STEP
        } else {
            args.interval
        };
        if let Some(limit) = limit {
            let left = limit.saturating_sub(start.elapsed());
            if left.is_zero() {
                break;
            }
            budget = budget.min(left);
        }
        let step_start = Instant::now();
        last = step(budget, &stop);
        // An engine that answers early (a solved position) still keeps the pace and
        // must not spin: wait out the interval, watching the stop token.
        while !stop.is_stopped() {
            let left = budget.saturating_sub(step_start.elapsed());
            if left.is_zero() {
                break;
            }
            std::thread::sleep(left.min(Duration::from_millis(5)));
        }
        if !args.interval.is_zero() {
            let line = format_line(&last, style, args);
            if !line.is_empty() {
                out.line(&line);
            }
        }
    }
    last
}

/// The common `analyze` command of the games other than Go: a stream in the `lz-analyze`
/// line shape until new input. `parse_color` maps the colour argument.
pub fn simple_analyze(
    out: &mut Stream<'_>,
    args: &AnalyzeArgs,
    step: impl FnMut(Duration, &StopToken) -> Snapshot,
) -> Reply {
    stream_analysis(out, args, Style::Lz, None, step);
    Ok(String::new())
}

/// The analysis lines of a `genmove_analyze` in the games whose search deepens in
/// iterations: the search offers a snapshot after each completed iteration; the first is
/// written at once, later ones only once `interval` has passed since the last line (with
/// a zero interval, every one). Lines come only between iterations, so a long iteration
/// delays the next line.
pub struct ProgressLines<'s, 'o> {
    out: &'s mut Stream<'o>,
    args: &'s AnalyzeArgs,
    last: Option<Instant>,
}

impl<'s, 'o> ProgressLines<'s, 'o> {
    /// Writes the answer's header: call once the arguments are known to be good.
    pub fn new(out: &'s mut Stream<'o>, args: &'s AnalyzeArgs) -> ProgressLines<'s, 'o> {
        out.begin();
        ProgressLines {
            out,
            args,
            last: None,
        }
    }

    /// Writes the line of `snap()` (in KataGo's float shape) if one is due; `snap` is only
    /// called then.
    pub fn offer(&mut self, snap: impl FnOnce() -> Snapshot) {
        if let Some(last) = self.last {
            if last.elapsed() < self.args.interval {
                return;
            }
        }
        let line = format_line(&snap(), Style::Kata, self.args);
        if !line.is_empty() {
            self.out.line(&line);
            self.last = Some(Instant::now());
        }
    }
}

/// Lower confidence bound of a win rate after `n` visits (normal approximation, 95%
/// one-sided, clamped to [0, 1]); Leela Zero uses a Student-t bound of the same idea.
pub fn lcb(winrate: f64, n: u64) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let var = (winrate * (1.0 - winrate)).max(0.0) / n as f64;
    (winrate - 1.645 * var.sqrt()).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &[&str]) -> Vec<String> {
        x.iter().map(|a| a.to_string()).collect()
    }

    fn color(x: &str) -> bool {
        matches!(
            x.to_ascii_lowercase().as_str(),
            "b" | "w" | "black" | "white"
        )
    }

    #[test]
    fn arguments_as_katago_reads_them() {
        let a = parse_args(&s(&["B", "10"]), color).unwrap();
        assert_eq!(a.color.as_deref(), Some("B"));
        assert_eq!(a.interval, Duration::from_millis(100));
        let a = parse_args(&s(&["50", "ownership", "true", "pvVisits", "true"]), color).unwrap();
        assert_eq!(
            (a.color, a.interval, a.ownership, a.pv_visits),
            (None, Duration::from_millis(500), true, true)
        );
        let a = parse_args(
            &s(&["w", "interval", "20", "minmoves", "3", "maxmoves", "5"]),
            color,
        )
        .unwrap();
        assert_eq!(
            (a.interval, a.minmoves, a.maxmoves),
            (Duration::from_millis(200), 3, Some(5))
        );
        assert!(parse_args(&s(&["b", "10", "ownership"]), color).is_err());
        assert!(parse_args(&s(&["b", "10", "ownership", "yes"]), color).is_err());
        assert!(parse_args(&s(&["b", "x"]), color).is_err());
        assert!(parse_args(&s(&["b", "99999999999"]), color).is_err());
    }

    fn info(mv: &str, visits: u64, winrate: f64) -> MoveInfo {
        MoveInfo {
            mv: mv.into(),
            visits,
            winrate,
            prior: 0.25,
            lcb: 0.4,
            score_lead: Some(-1.5),
            pv: vec![(mv.into(), visits), ("C3".into(), visits / 2)],
        }
    }

    #[test]
    fn lz_line_matches_the_documented_example_shape() {
        // KataGo's GTP_Extensions.md: `info move E4 visits 1178 winrate 4802 prior 2211
        // lcb 4781 order 0 pv E4 E3 ...`, every move on one line.
        let snap = Snapshot {
            moves: vec![
                info("D4", 10, 0.48023),
                info("E5", 3, 0.5),
                info("A1", 0, 0.5),
            ],
            ownership: None,
        };
        let args = parse_args(&[], color).unwrap();
        assert_eq!(
            format_line(&snap, Style::Lz, &args),
            "info move D4 visits 10 winrate 4802 prior 2500 lcb 4000 order 0 pv D4 C3 \
             info move E5 visits 3 winrate 5000 prior 2500 lcb 4000 order 1 pv E5 C3"
        );
        let args = parse_args(&s(&["minmoves", "3", "maxmoves", "1"]), color).unwrap();
        assert!(format_line(&snap, Style::Lz, &args).matches("info").count() == 1);
        let args = parse_args(&s(&["minmoves", "3"]), color).unwrap();
        assert!(format_line(&snap, Style::Lz, &args).contains("order 2 pv A1 C3"));
    }

    #[test]
    fn kata_line_has_floats_score_pv_visits_and_ownership() {
        let snap = Snapshot {
            moves: vec![info("D4", 10, 0.75)],
            ownership: Some(vec![1.0, -0.25, 0.0, 2.0]),
        };
        let args = parse_args(&s(&["ownership", "true", "pvVisits", "true"]), color).unwrap();
        assert_eq!(
            format_line(&snap, Style::Kata, &args),
            "info move D4 visits 10 utility 0.5 winrate 0.75 scoreMean -1.5 scoreLead -1.5 \
             prior 0.25 lcb 0.4 utilityLcb -0.2 order 0 pv D4 C3 pvVisits 10 5 \
             ownership 1.0 -0.25 0.0 1.0"
        );
    }

    #[test]
    fn progress_lines_write_the_first_offer_then_one_per_interval() {
        let snap = || Snapshot {
            moves: vec![info("D4", 10, 0.75)],
            ownership: None,
        };
        let written = |interval: &str| {
            let args = parse_args(&s(&[interval]), color).unwrap();
            let mut buf: Vec<u8> = Vec::new();
            let mut out = Stream::new(&mut buf, Some(3), StopToken::new());
            let mut lines = ProgressLines::new(&mut out, &args);
            for _ in 0..3 {
                lines.offer(snap);
            }
            drop(out);
            String::from_utf8(buf).unwrap()
        };
        // Interval 0: every completed iteration.
        let all = written("0");
        assert!(all.starts_with("=3\ninfo move D4 visits 10 "), "{all}");
        assert_eq!(all.matches("info move").count(), 3, "{all}");
        // An interval no test outlasts: only the first.
        let one = written("100000");
        assert_eq!(one.matches("info move").count(), 1, "{one}");
    }

    #[test]
    fn lower_confidence_bound() {
        assert_eq!(lcb(0.7, 0), 0.0);
        assert!((lcb(0.5, 100) - (0.5 - 1.645 * 0.05)).abs() < 1e-12);
        assert_eq!(lcb(1.0, 5), 1.0);
    }
}
