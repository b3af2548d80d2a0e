//! The weights of the line-pattern evaluation ([`super::eval::threat_eval`]): one number
//! per [`Pattern4`] class for the side to move and one for the side waiting, in units of
//! the window-sum evaluation. Two sets ship: the hand-set, game-fitted `classic` one, and
//! the `learnt` one in `data/gomoku/eval-v1.txt` (fitted by `quartet bench gomoku train`
//! to self-play positions; see `data/gomoku/README.md`). Any other file in the same format
//! can be loaded with `quartet gomoku --eval FILE`.
//!
//! The file format (text, `#` comments and blank lines ignored):
//!
//! ```text
//! quartet-gomoku-eval 1
//! mover  0 -21 47 45 69 21 -61 199 1980 0 0
//! waiter 0 -21 49 44 28 0 -20 85 216 3 0
//! ```
//!
//! 11 integers per line, in [`Pattern4::ALL`] order. A file that breaks any of that is
//! refused with the line it broke on, never half read.
use super::eval::WIN_LIKE;
use super::patterns::{Pattern4, N_CLASSES};

/// Per-class weights for the mover's and the waiting side's empty cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassWeights {
    pub mover: [i32; N_CLASSES],
    pub waiter: [i32; N_CLASSES],
}

/// The header word and the only version read.
const MAGIC: &str = "quartet-gomoku-eval";
const VERSION: u32 = 1;

/// A weight must stay well below the static "won" values (a four-three against no fours
/// is `WIN_LIKE / 2`), or a cell or two of a class would pass for a win.
pub const MAX_WEIGHT: i32 = WIN_LIKE / 10;

/// The learnt file, built into the binary so the engine needs no data path.
const LEARNT_TEXT: &str = include_str!("../../data/gomoku/eval-v1.txt");

impl ClassWeights {
    /// The hand-set weights (fitted by scripts/gomoku_fit_eval.py to the results of 612
    /// match games, 14,043 positions: on held-out positions the classes cut the log-loss
    /// of the window sums alone from 0.611 to 0.448; the opponent's Flex3x2 came out
    /// negative and is 0).
    pub const CLASSIC: ClassWeights = ClassWeights {
        mover: [0, -21, 47, 45, 69, 21, -61, 199, 1980, 0, 0],
        waiter: [0, -21, 49, 44, 28, 0, -20, 85, 216, 3, 0],
    };

    /// The weights of `data/gomoku/eval-v1.txt`.
    pub fn learnt() -> ClassWeights {
        // The file is checked by a test, so this cannot fail in a tested build.
        ClassWeights::parse(LEARNT_TEXT).expect("data/gomoku/eval-v1.txt is valid")
    }

    /// `classic`, `learnt`, or a weights file.
    pub fn load(name: &str) -> Result<ClassWeights, String> {
        match name {
            "classic" => Ok(ClassWeights::CLASSIC),
            "learnt" => Ok(ClassWeights::learnt()),
            path => {
                let meta = std::fs::metadata(path).map_err(|e| format!("{path}: {e}"))?;
                if meta.len() > 64 * 1024 {
                    return Err(format!("{path}: {} bytes is no weights file", meta.len()));
                }
                let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
                ClassWeights::parse(&text).map_err(|e| format!("{path}: {e}"))
            }
        }
    }

    /// Parses the text format (see the module comment).
    pub fn parse(text: &str) -> Result<ClassWeights, String> {
        let mut version = None;
        let (mut mover, mut waiter) = (None, None);
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let n = i + 1;
            let mut words = line.split_whitespace();
            let key = words.next().unwrap_or("");
            let rest: Vec<&str> = words.collect();
            if version.is_none() {
                if key != MAGIC || rest.len() != 1 {
                    return Err(format!(
                        "line {n}: expected `{MAGIC} {VERSION}` first, found `{line}`"
                    ));
                }
                let v: u32 = rest[0]
                    .parse()
                    .map_err(|_| format!("line {n}: bad version `{}`", rest[0]))?;
                if v != VERSION {
                    return Err(format!(
                        "line {n}: version {v} (this build reads {VERSION})"
                    ));
                }
                version = Some(v);
                continue;
            }
            let slot = match key {
                "mover" => &mut mover,
                "waiter" => &mut waiter,
                _ => return Err(format!("line {n}: unknown key `{key}`")),
            };
            if slot.is_some() {
                return Err(format!("line {n}: `{key}` given twice"));
            }
            if rest.len() != N_CLASSES {
                return Err(format!(
                    "line {n}: `{key}` needs {N_CLASSES} weights, found {}",
                    rest.len()
                ));
            }
            let mut w = [0i32; N_CLASSES];
            for (k, s) in rest.iter().enumerate() {
                let v: i32 = s
                    .parse()
                    .map_err(|_| format!("line {n}: `{s}` is not an integer"))?;
                if v.abs() > MAX_WEIGHT {
                    return Err(format!(
                        "line {n}: weight {v} of {:?} is beyond +-{MAX_WEIGHT}",
                        Pattern4::ALL[k]
                    ));
                }
                w[k] = v;
            }
            *slot = Some(w);
        }
        if version.is_none() {
            return Err(format!("empty: expected `{MAGIC} {VERSION}`"));
        }
        match (mover, waiter) {
            (Some(mover), Some(waiter)) => Ok(ClassWeights { mover, waiter }),
            (None, _) => Err("no `mover` line".into()),
            (_, None) => Err("no `waiter` line".into()),
        }
    }

    /// The text format, with `comment` lines on top.
    pub fn to_text(&self, comment: &str) -> String {
        let mut s = String::new();
        for l in comment.lines() {
            s.push_str(&format!("# {l}\n"));
        }
        s.push_str(&format!("{MAGIC} {VERSION}\n"));
        for (key, w) in [("mover", &self.mover), ("waiter", &self.waiter)] {
            let ws: Vec<String> = w.iter().map(|v| v.to_string()).collect();
            s.push_str(&format!("{key} {}\n", ws.join(" ")));
        }
        s
    }
}

/// The learnt weights: against the classic ones they won the A/B matches in
/// `data/gomoku/README.md`.
impl Default for ClassWeights {
    fn default() -> Self {
        ClassWeights::learnt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_parses_and_text_round_trips() {
        let w = ClassWeights::learnt();
        assert_eq!(ClassWeights::parse(&w.to_text("a\nb")).unwrap(), w);
        let c = ClassWeights::CLASSIC;
        assert_eq!(ClassWeights::parse(&c.to_text("")).unwrap(), c);
        assert_eq!(ClassWeights::load("classic").unwrap(), c);
        // The shipped file is a fit, not the classic set copied, and the engine's default.
        assert_ne!(w, c);
        assert_eq!(ClassWeights::default(), w);
        assert_eq!(super::super::search::SearchConfig::default().eval, w);
    }

    #[test]
    fn bad_files_are_refused_with_the_line() {
        let good = ClassWeights::CLASSIC.to_text("");
        let cases = [
            ("", "empty"),
            ("mover 1 2\n", "expected `quartet-gomoku-eval 1` first"),
            ("quartet-gomoku-eval 2\n", "version 2"),
            ("quartet-gomoku-eval x\n", "bad version"),
            (
                "quartet-gomoku-eval 1\nmover 0 0 0 0 0 0 0 0 0 0 0\n",
                "no `waiter`",
            ),
            (
                "quartet-gomoku-eval 1\nwaiter 0 0 0 0 0 0 0 0 0 0 0\n",
                "no `mover`",
            ),
            (
                "quartet-gomoku-eval 1\nmover 0 0 0\n",
                "line 2: `mover` needs 11",
            ),
            (
                "quartet-gomoku-eval 1\nmover 0 0 0 0 0 0 0 0 0 0 1.5\n",
                "not an integer",
            ),
            (
                "quartet-gomoku-eval 1\nmover 0 0 0 0 0 0 0 0 0 0 99999\n",
                "beyond",
            ),
            ("quartet-gomoku-eval 1\nbias 3\n", "unknown key `bias`"),
        ];
        for (text, want) in cases {
            let e = ClassWeights::parse(text).unwrap_err();
            assert!(e.contains(want), "{text:?}: {e}");
        }
        let twice = format!("{good}mover 0 0 0 0 0 0 0 0 0 0 0\n");
        assert!(ClassWeights::parse(&twice)
            .unwrap_err()
            .contains("given twice"));
        let e = ClassWeights::load("/nonexistent/eval.txt").unwrap_err();
        assert!(e.starts_with("/nonexistent/eval.txt"), "{e}");
    }
}
