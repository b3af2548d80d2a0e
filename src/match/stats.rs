//! Match statistics, with the formulas chess testers use (fastchess, cutechess, fishtest):
//! the Wilson interval of a score, the logistic Elo difference of a score and its 95%
//! interval from the normal approximation (trinomial per game, or pentanomial per pair of
//! colour-swapped games, which removes the opening's bias from the variance), the
//! likelihood of superiority, and the GSPRT log-likelihood ratio with logistic Elo bounds.
//!
//! Everything here is pure arithmetic on counts, so a merged set of shards gives bit-for-bit
//! the same figures as one run over the same games.

use serde::{Serialize, Serializer};

/// The normal quantile for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wilson score interval for `successes` out of `n` trials at normal quantile `z`.
/// Chosen over the plain normal approximation because it stays inside [0, 1] and is sane
/// for 0% or 100% scores, which short matches often produce. `n == 0` gives [0, 1].
pub fn wilson_interval(successes: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = successes / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// The logistic Elo difference that a score (points per game, in (0, 1)) corresponds to:
/// `-400 log10(1/s - 1)`. A score of 0 or 1 gives an infinite difference.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of a logistic Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7, far below
/// the one decimal a percentage is printed with). `std` has no `erf`.
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// Scores per game of the pentanomial outcomes LL, LD, DD/WL, WD, WW.
const PENTA_VALUES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Sample mean, variance of one sample and sample count of `values` seen `counts` times.
fn weighted_moments(counts: &[f64], values: &[f64]) -> Option<(f64, f64, f64)> {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 {
        return None;
    }
    let mean = counts.iter().zip(values).map(|(c, x)| c * x).sum::<f64>() / n;
    let var = counts
        .iter()
        .zip(values)
        .map(|(c, x)| c * (x - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((mean, var, n))
}

/// Counts for the LLR: an empty cell becomes 1e-3 (as fastchess does), so a one-sided
/// result (all pairs won) has a variance and the test can still decide.
fn regularized<const N: usize>(mut counts: [f64; N]) -> [f64; N] {
    if counts.iter().sum::<f64>() > 0.0 {
        for c in &mut counts {
            if *c == 0.0 {
                *c = 1e-3;
            }
        }
    }
    counts
}

/// Writes a number that may be infinite (the Elo of a 0% or 100% score) or absent as a
/// JSON number or `null`; JSON has no infinities.
pub fn finite_or_null<S: Serializer>(x: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match x {
        Some(v) if v.is_finite() => s.serialize_f64(*v),
        _ => s.serialize_none(),
    }
}

fn finite<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    finite_or_null(&Some(*x), s)
}

/// An Elo difference with its 95% interval and the score it came from. In JSON the
/// interval is `lo95`/`hi95`, and infinite values are `null`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    #[serde(serialize_with = "finite")]
    pub score: f64,
    #[serde(serialize_with = "finite")]
    pub elo: f64,
    #[serde(rename = "lo95", serialize_with = "finite")]
    pub lo: f64,
    #[serde(rename = "hi95", serialize_with = "finite")]
    pub hi: f64,
}

impl EloEstimate {
    /// From a sample mean score and the variance of one sample over `n` samples.
    fn from_mean(score: f64, variance: f64, n: f64) -> EloEstimate {
        let se = (variance / n).sqrt();
        EloEstimate {
            score,
            elo: elo_from_score(score),
            lo: elo_from_score(score - Z95 * se),
            hi: elo_from_score(score + Z95 * se),
        }
    }

    /// Half the interval's width, the `+/-` of a table (infinite at a 0% or 100% score).
    pub fn error(&self) -> f64 {
        (self.hi - self.lo) / 2.0
    }
}

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Points per game; 0.5 with no games.
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / n as f64,
        }
    }

    /// 95% Wilson interval of the score (draws count as half a win); [0, 1] with no games.
    pub fn score_interval(&self) -> (f64, f64) {
        wilson_interval(self.points(), self.games() as f64, Z95)
    }

    /// The same games seen from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    fn counts(&self) -> [f64; 3] {
        [self.losses as f64, self.draws as f64, self.wins as f64]
    }

    /// Mean score and per-game variance of the trinomial model; `None` with no games.
    fn moments(&self) -> Option<(f64, f64, f64)> {
        weighted_moments(&self.counts(), &[0.0, 0.5, 1.0])
    }

    /// Elo difference and 95% interval, every game an independent sample.
    pub fn elo(&self) -> Option<EloEstimate> {
        self.moments()
            .map(|(s, var, n)| EloEstimate::from_mean(s, var, n))
    }

    /// Likelihood of superiority, `(1 + erf((W - L) / sqrt(2 (W + L)))) / 2`: the
    /// probability that this side is the stronger, draws carrying no information.
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        let diff = self.wins as f64 - self.losses as f64;
        0.5 * (1.0 + erf(diff / (2.0 * decisive).sqrt()))
    }
}

/// Pairs of games on one opening with colours swapped, counted by the pair's total points
/// for one side: index 0 holds pairs worth 0 points (LL), 1 holds 0.5 (LD), 2 holds 1 (WL
/// or DD), 3 holds 1.5 (WD), 4 holds 2 (WW). In JSON, the array of the five counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Adds a pair given its total points for this side (0, 0.5, 1, 1.5 or 2).
    pub fn add(&mut self, points: f64) {
        let i = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[i] += 1;
    }

    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    pub fn flipped(&self) -> Pentanomial {
        let mut p = self.0;
        p.reverse();
        Pentanomial(p)
    }

    fn counts(&self) -> [f64; 5] {
        self.0.map(f64::from)
    }

    /// Mean score per game and variance of a pair's mean score; `None` with no pairs.
    fn moments(&self) -> Option<(f64, f64, f64)> {
        weighted_moments(&self.counts(), &PENTA_VALUES)
    }

    /// Elo difference and 95% interval, every pair an independent sample.
    pub fn elo(&self) -> Option<EloEstimate> {
        self.moments()
            .map(|(s, var, n)| EloEstimate::from_mean(s, var, n))
    }
}

/// Complete pairs an SPRT needs before it may decide (our guard; fastchess has none).
pub const SPRT_MIN_PAIRS: u32 = 10;

/// What a sequential test has decided so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    /// The log-likelihood ratio fell to the lower bound: the difference is at most elo0.
    AcceptH0,
    /// It reached the upper bound: the difference is at least elo1.
    AcceptH1,
}

/// A sequential probability ratio test of `H0: elo = elo0` against `H1: elo = elo1`
/// (logistic Elo), with error rates alpha and beta. The log-likelihood ratio is the
/// generalised SPRT's normal approximation (fishtest, fastchess):
/// `LLR = (s1 - s0) (2 s - s0 - s1) / (2 var_s)`, where `s` is the observed mean score,
/// `var_s` the variance of that mean, and `s0`, `s1` the scores of elo0 and elo1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Sprt {
    /// Checks the parameters: `elo0 < elo1`, alpha and beta in (0, 1) with sum below 1.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        let unit = |x: f64| x > 0.0 && x < 1.0;
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err("SPRT: elo0 must be below elo1".into());
        }
        if !(unit(alpha) && unit(beta) && alpha + beta < 1.0) {
            return Err("SPRT: alpha and beta must be in (0, 1) with alpha + beta < 1".into());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Parses `elo0=0,elo1=10,alpha=0.05,beta=0.05` (commas or spaces; alpha and beta
    /// default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let (mut e0, mut e1, mut a, mut b) = (None, None, 0.05, 0.05);
        for item in text.split([',', ' ']).filter(|s| !s.is_empty()) {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| format!("SPRT: expected key=value, got {item:?}"))?;
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|_| format!("SPRT: {k} is not a number: {v:?}"))?;
            match k.trim() {
                "elo0" => e0 = Some(v),
                "elo1" => e1 = Some(v),
                "alpha" => a = v,
                "beta" => b = v,
                other => return Err(format!("SPRT: unknown parameter {other:?}")),
            }
        }
        match (e0, e1) {
            (Some(e0), Some(e1)) => Sprt::new(e0, e1, a, b),
            _ => Err("SPRT: elo0 and elo1 are required".into()),
        }
    }

    /// `(lower, upper)`: `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    fn llr_from(&self, moments: Option<(f64, f64, f64)>) -> f64 {
        let Some((s, var, n)) = moments else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var / n)
    }

    /// The LLR with every game an independent trinomial sample.
    pub fn llr_trinomial(&self, wdl: &Wdl) -> f64 {
        self.llr_from(weighted_moments(
            &regularized(wdl.counts()),
            &[0.0, 0.5, 1.0],
        ))
    }

    /// The LLR over colour-swapped pairs (the right model when openings are paired).
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        self.llr_from(weighted_moments(&regularized(p.counts()), &PENTA_VALUES))
    }

    /// The LLR over colour-swapped pairs and the decision, which waits for
    /// [`SPRT_MIN_PAIRS`] complete pairs: with fewer, the variance estimate is noise (one
    /// drawn pair has a regularized variance near zero and would "accept H0" at once).
    pub fn decide_pentanomial(&self, p: &Pentanomial) -> (f64, SprtState) {
        let llr = self.llr_pentanomial(p);
        if p.pairs() < SPRT_MIN_PAIRS {
            (llr, SprtState::Continue)
        } else {
            (llr, self.state(llr))
        }
    }

    pub fn state(&self, llr: f64) -> SprtState {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn near(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// Values worked out by hand from the formula with z = 1.96 (checked with a calculator):
    /// 5/10: centre 0.5, half-width 1.96/1.38415 * sqrt(0.025 + 0.0096040) = 0.26341.
    /// 0/10: centre = half-width = 0.19208/1.38415 = 0.13877, so [0, 0.27753].
    /// 10/10 mirrors 0/10; 30/40: [0.59806, 0.85813]; 1.5/4: [0.09190, 0.78057].
    #[test]
    fn wilson_against_hand_values() {
        let close = |a: (f64, f64), b: (f64, f64)| near(a.0, b.0, 5e-5) && near(a.1, b.1, 5e-5);
        assert!(close(wilson_interval(5.0, 10.0, Z95), (0.23659, 0.76341)));
        assert!(close(wilson_interval(0.0, 10.0, Z95), (0.0, 0.27753)));
        assert!(close(wilson_interval(10.0, 10.0, Z95), (0.72247, 1.0)));
        assert!(close(wilson_interval(30.0, 40.0, Z95), (0.59806, 0.85813)));
        assert_eq!(wilson_interval(0.0, 0.0, Z95), (0.0, 1.0));
        let wdl = Wdl {
            wins: 1,
            draws: 1,
            losses: 2,
        };
        assert!(close(wdl.score_interval(), (0.09190, 0.78057)));
        assert_eq!(Wdl::default().score_interval(), (0.0, 1.0));
    }

    /// erf against tabulated values (A&S table 7.1).
    #[test]
    fn erf_table() {
        for (x, v) in [
            (0.1, 0.112_462_916),
            (0.5, 0.520_499_878),
            (1.0, 0.842_700_793),
            (2.0, 0.995_322_265),
            (-0.7, -0.677_801_194),
            (0.0, 0.0),
        ] {
            assert!(near(erf(x), v, 2e-7), "erf({x}) = {}", erf(x));
        }
    }

    /// 60 wins, 20 draws, 20 losses, by hand: s = 0.7, Elo = -400 log10(3/7) = 147.19;
    /// per-game variance (60*0.09 + 20*0.04 + 20*0.49)/100 = 0.16, standard error 0.04,
    /// so s is in 0.7 -/+ 0.0784 = [0.62160, 0.77840] -> Elo [86.23, 218.25].
    #[test]
    fn trinomial_elo_by_hand() {
        let wdl = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let e = wdl.elo().unwrap();
        assert!(near(e.score, 0.7, 1e-12));
        assert!(near(e.elo, 147.19, 0.01), "{e:?}");
        assert!(near(e.lo, 86.23, 0.01), "{e:?}");
        assert!(near(e.hi, 218.25, 0.01), "{e:?}");
        let f = wdl.flipped().elo().unwrap();
        assert!(near(f.elo, -147.19, 0.01) && near(f.lo, -218.25, 0.01));
        assert_eq!(Wdl::default().elo(), None);
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(near(elo_from_score(0.75), 190.85, 0.01)); // 400 log10 3
        assert!(near(score_from_elo(190.848_501_9), 0.75, 1e-9));
        let all = Wdl {
            wins: 4,
            ..Wdl::default()
        };
        assert_eq!(all.elo().unwrap().elo, f64::INFINITY);
    }

    /// LOS by hand: 10 wins, 5 losses: erf(5 / sqrt 30) = erf(0.912871) = 0.803294, so
    /// LOS = 0.901647; equal wins and losses give exactly one half; draws do not count.
    #[test]
    fn los_by_hand() {
        let w = |wins, draws, losses| Wdl {
            wins,
            draws,
            losses,
        };
        assert!(near(w(10, 3, 5).los(), 0.901_647, 1e-6));
        assert!(near(w(5, 0, 10).los(), 1.0 - 0.901_647, 1e-6));
        assert!(near(w(7, 2, 7).los(), 0.5, 1e-6));
        assert_eq!(w(0, 9, 0).los(), 0.5);
    }

    /// Pairs LL 2, LD 5, DD/WL 20, WD 13, WW 10 (50 pairs), by hand: mean per game
    /// (5*0.25 + 20*0.5 + 13*0.75 + 10)/50 = 0.62, Elo 85.04; variance of a pair's mean
    /// score (2*0.3844 + 5*0.1369 + 20*0.0144 + 13*0.0169 + 10*0.1444)/50 = 0.0681,
    /// standard error sqrt(0.0681/50) = 0.036905, so s in [0.547668, 0.692332] ->
    /// Elo [33.22, 140.89].
    #[test]
    fn pentanomial_elo_by_hand() {
        let p = Pentanomial([2, 5, 20, 13, 10]);
        let e = p.elo().unwrap();
        assert!(near(e.score, 0.62, 1e-12));
        assert!(near(e.elo, 85.04, 0.01), "{e:?}");
        assert!(near(e.lo, 33.22, 0.01), "{e:?}");
        assert!(near(e.hi, 140.89, 0.01), "{e:?}");
        let mut q = Pentanomial::default();
        for pts in [0.0, 0.5, 1.0, 1.5, 2.0, 2.0] {
            q.add(pts);
        }
        assert_eq!(q, Pentanomial([1, 1, 1, 1, 2]));
        assert_eq!(q.flipped(), Pentanomial([2, 1, 1, 1, 1]));
    }

    /// SPRT(0, 10, 0.05, 0.05): bounds -/+ ln 19 = -/+ 2.944439. s1 = 1/(1+10^-0.025) =
    /// 0.514387. Trinomial 60/20/20: 0.014387 * (1.4 - 1.014387) / (2 * 0.0016) = 1.7337.
    /// Pentanomial above: 0.014387 * (1.24 - 1.014387) / (2 * 0.0681 / 50) = 1.1916.
    #[test]
    fn sprt_by_hand() {
        let s = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05").unwrap();
        let (lo, hi) = s.bounds();
        assert!(near(lo, -2.944_439, 1e-6) && near(hi, 2.944_439, 1e-6));
        let wdl = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!(near(s.llr_trinomial(&wdl), 1.7337, 1e-4));
        assert_eq!(s.state(1.7337), SprtState::Continue);
        assert_eq!(s.state(3.0), SprtState::AcceptH1);
        assert_eq!(s.state(-3.0), SprtState::AcceptH0);
        let p = Pentanomial([2, 5, 20, 13, 10]);
        assert!(near(s.llr_pentanomial(&p), 1.1916, 1e-4));
        // 100 W, 50 D, 110 L: s = 0.480769, var = 0.230030 (by hand), LLR = -0.4904.
        let wdl = Wdl {
            wins: 100,
            draws: 50,
            losses: 110,
        };
        assert!(near(s.llr_trinomial(&wdl), -0.4904, 1e-4));
        // All pairs won, regularized to [1e-3 x4, 10] by hand: n = 10.004, mean 0.999750,
        // variance 1.87363e-4, LLR = 0.0143868 * (1.999500 - 1.014387) / (2 * 1.87363e-5)
        // = 378.38: the test accepts H1 instead of seeing a zero variance.
        let all_won = Pentanomial([0, 0, 0, 0, 10]);
        assert!(near(s.llr_pentanomial(&all_won), 378.38, 0.01));
        assert_eq!(s.state(s.llr_pentanomial(&all_won)), SprtState::AcceptH1);
        assert_eq!(s.llr_pentanomial(&Pentanomial::default()), 0.0);
        // SPRT(0, 50) after one drawn pair: regularized variance 6.2e-4, LLR about -4.1,
        // below the lower bound, but there is no decision before 10 pairs.
        let wide = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
        let one_draw = Pentanomial([0, 0, 1, 0, 0]);
        let (llr, state) = wide.decide_pentanomial(&one_draw);
        assert!(llr < lo && state == SprtState::Continue);
        let (_, state) = s.decide_pentanomial(&all_won);
        assert_eq!(state, SprtState::AcceptH1);
        assert!(Sprt::parse("elo0=10,elo1=0").is_err());
        assert!(Sprt::parse("elo0=0,elo1=5,alpha=0").is_err());
        assert!(Sprt::parse("elo1=5").is_err());
        assert!(Sprt::parse("elo0=0 elo1=5 gamma=1").is_err());
        assert_eq!(Sprt::parse("elo0=0 elo1=5").unwrap().alpha, 0.05);
    }
}
