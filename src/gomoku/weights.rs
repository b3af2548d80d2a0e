//! The weights of the line-pattern evaluation ([`super::eval::threat_eval`]): one number
//! per [`Pattern4`](super::patterns::Pattern4) class for the side to move and one for the side waiting, and (version
//! 2) one per line category ([`super::patterns::N_LINE_CATS`], counted per empty cell and
//! direction) for each side, in units of the window-sum evaluation. Two sets ship: the hand-set, game-fitted `classic` one, and
//! the `learnt` one in `data/gomoku/eval-v1.txt` (fitted by `quartet train gomoku fit`
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
//! 11 integers per line, in [`Pattern4::ALL`](super::patterns::Pattern4::ALL) order. Version 2 adds two lines of 7 integers,
//! in category order (none, Flex2, Block3, Flex3, Block4, Flex4, Five; the first must be 0):
//!
//! ```text
//! quartet-gomoku-eval 2
//! mover  ...
//! waiter ...
//! line-mover  0 12 30 150 80 0 0
//! line-waiter 0 10 25 90 60 400 0
//! ```
//!
//! A version 1 file has no line weights (they are 0); a version 2 file needs all four
//! lines. A file that breaks any of that is refused with the line it broke on, never half
//! read.
//!
//! Version 3 is another model, [`CodeWeights`]: one weight per pattern code
//! ([`super::patterns::N_CODES`], the unordered four direction categories of an empty cell)
//! for the side to move and one for the side waiting, 210 integers a line, code 0 (nothing
//! above Block2) weighing 0:
//!
//! ```text
//! quartet-gomoku-eval 3
//! code-mover  0 12 ...
//! code-waiter 0 9 ...
//! ```
use super::eval::{N_MASKS, WIN_LIKE};
use super::patterns::{code_cats, CodeTable, N_CLASSES, N_CODES, N_LINE_CATS};

/// Per-class weights for the mover's and the waiting side's empty cells, and per line
/// category for their (cell, direction) pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassWeights {
    pub mover: [i32; N_CLASSES],
    pub waiter: [i32; N_CLASSES],
    pub line_mover: [i32; N_LINE_CATS],
    pub line_waiter: [i32; N_LINE_CATS],
}

/// The header word and the versions read (1: classes only; 2: classes and line categories).
const MAGIC: &str = "quartet-gomoku-eval";
const VERSION: u32 = 2;

/// A weight must stay well below the static "won" values (a four-three against no fours
/// is `WIN_LIKE / 2`), or a cell or two of a class would pass for a win.
pub const MAX_WEIGHT: i32 = WIN_LIKE / 10;

/// The learnt file, built into the binary so the engine needs no data path.
const LEARNT_TEXT: &str = include_str!("../../data/gomoku/eval-v1.txt");
/// The line-category fit, built in for the fit's comparisons.
const V2_TEXT: &str = include_str!("../../data/gomoku/eval-v2-lines.txt");

impl ClassWeights {
    /// The hand-set weights (fitted by scripts/gomoku_fit_eval.py to the results of 612
    /// match games, 14,043 positions: on held-out positions the classes cut the log-loss
    /// of the window sums alone from 0.611 to 0.448; the opponent's Flex3x2 came out
    /// negative and is 0).
    pub const CLASSIC: ClassWeights = ClassWeights {
        mover: [0, -21, 47, 45, 69, 21, -61, 199, 1980, 0, 0],
        waiter: [0, -21, 49, 44, 28, 0, -20, 85, 216, 3, 0],
        line_mover: [0; N_LINE_CATS],
        line_waiter: [0; N_LINE_CATS],
    };

    /// The weights of `data/gomoku/eval-v1.txt`.
    pub fn learnt() -> ClassWeights {
        // The file is checked by a test, so this cannot fail in a tested build.
        ClassWeights::parse(LEARNT_TEXT).expect("data/gomoku/eval-v1.txt is valid")
    }

    /// The weights of `data/gomoku/eval-v2-lines.txt` (for comparisons in the fit).
    pub fn shipped_v2() -> ClassWeights {
        ClassWeights::parse(V2_TEXT).expect("data/gomoku/eval-v2-lines.txt is valid")
    }

    /// `classic`, `learnt`, or a weights file.
    pub fn load(name: &str) -> Result<ClassWeights, String> {
        match name {
            "classic" => Ok(ClassWeights::CLASSIC),
            "learnt" => Ok(ClassWeights::learnt()),
            path => ClassWeights::parse(&read_small(path)?).map_err(|e| format!("{path}: {e}")),
        }
    }

    /// Parses the text format (see the module comment).
    pub fn parse(text: &str) -> Result<ClassWeights, String> {
        let mut version = None;
        let (mut mover, mut waiter) = (None, None);
        let (mut line_mover, mut line_waiter) = (None, None);
        for Entry { n, line, key, rest } in entries(text) {
            let Some(v) = version else {
                if key != MAGIC || rest.len() != 1 {
                    return Err(format!(
                        "line {n}: expected `{MAGIC} 1` or `{MAGIC} {VERSION}` first, found `{line}`"
                    ));
                }
                let v: u32 = rest[0]
                    .parse()
                    .map_err(|_| format!("line {n}: bad version `{}`", rest[0]))?;
                if !(1..=VERSION).contains(&v) {
                    return Err(format!(
                        "line {n}: version {v} (this build reads 1 to {VERSION})"
                    ));
                }
                version = Some(v);
                continue;
            };
            match key {
                "mover" => put(&mut mover, key, &rest, n)?,
                "waiter" => put(&mut waiter, key, &rest, n)?,
                "line-mover" | "line-waiter" if v < 2 => {
                    return Err(format!("line {n}: `{key}` needs version 2"))
                }
                "line-mover" => put(&mut line_mover, key, &rest, n)?,
                "line-waiter" => put(&mut line_waiter, key, &rest, n)?,
                _ => return Err(format!("line {n}: unknown key `{key}`")),
            }
        }
        let Some(v) = version else {
            return Err(format!("empty: expected `{MAGIC} {VERSION}`"));
        };
        let (mover, waiter) = match (mover, waiter) {
            (Some(m), Some(w)) => (m, w),
            (None, _) => return Err("no `mover` line".into()),
            (_, None) => return Err("no `waiter` line".into()),
        };
        let (line_mover, line_waiter) = match (line_mover, line_waiter) {
            (Some(m), Some(w)) => (m, w),
            (None, None) if v == 1 => ([0; N_LINE_CATS], [0; N_LINE_CATS]),
            (None, _) => return Err("no `line-mover` line".into()),
            (_, None) => return Err("no `line-waiter` line".into()),
        };
        Ok(ClassWeights {
            mover,
            waiter,
            line_mover,
            line_waiter,
        })
    }

    /// The text format, with `comment` lines on top.
    pub fn to_text(&self, comment: &str) -> String {
        let mut s = String::new();
        for l in comment.lines() {
            s.push_str(&format!("# {l}\n"));
        }
        // Without line weights the file stays version 1, readable by older builds.
        let lines = self.line_mover != [0; N_LINE_CATS] || self.line_waiter != [0; N_LINE_CATS];
        s.push_str(&format!("{MAGIC} {}\n", if lines { VERSION } else { 1 }));
        let mut rows = vec![("mover", &self.mover[..]), ("waiter", &self.waiter[..])];
        if lines {
            rows.push(("line-mover", &self.line_mover[..]));
            rows.push(("line-waiter", &self.line_waiter[..]));
        }
        for (key, w) in rows {
            let ws: Vec<String> = w.iter().map(|v| v.to_string()).collect();
            s.push_str(&format!("{key} {}\n", ws.join(" ")));
        }
        s
    }
}

/// One meaningful line of a weights file: its number, its text without the comment, its
/// key (first word) and the words after it.
struct Entry<'t> {
    n: usize,
    line: &'t str,
    key: &'t str,
    rest: Vec<&'t str>,
}

/// The lines of a weights file that are not blank or comments, as [`Entry`]s.
fn entries(text: &str) -> impl Iterator<Item = Entry<'_>> {
    text.lines().enumerate().filter_map(|(i, raw)| {
        let line = raw.split('#').next().unwrap_or("").trim();
        let mut words = line.split_whitespace();
        let key = words.next()?;
        Some(Entry {
            n: i + 1,
            line,
            key,
            rest: words.collect(),
        })
    })
}

/// A weights file's text; anything over 64 KiB is refused unread.
fn read_small(path: &str) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{path}: {e}"))?;
    if meta.len() > 64 * 1024 {
        return Err(format!("{path}: {} bytes is no weights file", meta.len()));
    }
    std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))
}

/// The pattern-code model (version 3 files): per pattern code, the weight of an empty cell
/// of the side to move and of the side waiting with that code, in window-sum units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeWeights {
    pub mover: [i32; N_CODES],
    pub waiter: [i32; N_CODES],
    /// Per threat mask ([`super::eval::threat_mask`]), its weight; 0 where the file has none.
    pub mask: Vec<i32>,
}

/// What `--eval` names: the class and line-category weights, or the pattern-code tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalWeights {
    Classes(ClassWeights),
    Codes(Box<CodeWeights>),
}

impl EvalWeights {
    /// What the searcher takes: the class weights (the default ones under code tables,
    /// where they only serve as a fallback) and the code table if any.
    pub fn into_search(self) -> (ClassWeights, Option<std::sync::Arc<CodeTable>>) {
        match self {
            EvalWeights::Classes(w) => (w, None),
            EvalWeights::Codes(w) => (
                ClassWeights::default(),
                Some(std::sync::Arc::new(w.table())),
            ),
        }
    }

    /// `classic`, `learnt`, or a weights file of any version.
    pub fn load(name: &str) -> Result<EvalWeights, String> {
        match name {
            "classic" | "learnt" => ClassWeights::load(name).map(EvalWeights::Classes),
            path => {
                let text = read_small(path)?;
                let v3 = entries(&text)
                    .next()
                    .is_some_and(|e| e.key == MAGIC && e.rest == ["3"]);
                if v3 {
                    CodeWeights::parse(&text).map(|w| EvalWeights::Codes(Box::new(w)))
                } else {
                    ClassWeights::parse(&text).map(EvalWeights::Classes)
                }
                .map_err(|e| format!("{path}: {e}"))
            }
        }
    }
}

impl CodeWeights {
    /// All weights 0.
    pub fn zero() -> CodeWeights {
        CodeWeights {
            mover: [0; N_CODES],
            waiter: [0; N_CODES],
            mask: vec![0; N_MASKS],
        }
    }

    /// The table a board keeps its code sums with.
    pub fn table(&self) -> CodeTable {
        CodeTable::new(&self.mover, &self.waiter, &self.mask)
    }

    /// Parses a version 3 file (see the module comment).
    pub fn parse(text: &str) -> Result<CodeWeights, String> {
        let mut header = false;
        let (mut mover, mut waiter, mut mask) = (None, None, None);
        for Entry { n, line, key, rest } in entries(text) {
            if !header {
                if key != MAGIC || rest != ["3"] {
                    return Err(format!(
                        "line {n}: expected `{MAGIC} 3` first, found `{line}`"
                    ));
                }
                header = true;
                continue;
            }
            match key {
                "code-mover" => put(&mut mover, key, &rest, n)?,
                "code-waiter" => put(&mut waiter, key, &rest, n)?,
                "threat-mask" => put_sparse(&mut mask, key, &rest, n)?,
                _ => return Err(format!("line {n}: unknown key `{key}`")),
            }
        }
        if !header {
            return Err(format!("empty: expected `{MAGIC} 3`"));
        }
        match (mover, waiter) {
            (Some(mover), Some(waiter)) => Ok(CodeWeights {
                mover,
                waiter,
                mask: mask.unwrap_or_else(|| vec![0; N_MASKS]),
            }),
            (None, _) => Err("no `code-mover` line".into()),
            (_, None) => Err("no `code-waiter` line".into()),
        }
    }

    /// The text format, with `comment` lines on top and a comment naming the categories of
    /// each code.
    pub fn to_text(&self, comment: &str) -> String {
        let mut s = String::new();
        for l in comment.lines() {
            s.push_str(&format!("# {l}\n"));
        }
        s.push_str("# codes in order, each its four direction categories (0 up to Block2,\n");
        s.push_str("# 1 Flex2, 2 Block3, 3 Flex3, 4 Block4, 5 Flex4, 6 Five):\n");
        for chunk in (0..N_CODES).collect::<Vec<_>>().chunks(15) {
            let names: Vec<String> = chunk
                .iter()
                .map(|&k| code_cats(k).iter().map(|c| c.to_string()).collect())
                .collect();
            s.push_str(&format!("# {}\n", names.join(" ")));
        }
        s.push_str(&format!("{MAGIC} 3\n"));
        for (key, w) in [("code-mover", &self.mover), ("code-waiter", &self.waiter)] {
            let ws: Vec<String> = w.iter().map(|v| v.to_string()).collect();
            s.push_str(&format!("{key} {}\n", ws.join(" ")));
        }
        let masks: Vec<String> = (self.mask.iter().enumerate())
            .filter(|&(_, &w)| w != 0)
            .map(|(k, w)| format!("{k}:{w}"))
            .collect();
        if !masks.is_empty() {
            s.push_str(&format!("threat-mask {}\n", masks.join(" ")));
        }
        s
    }
}

/// Reads a sparse weights line (`index:weight` pairs, the others 0) of [`N_MASKS`] slots,
/// refused as [`put`] refuses a dense one, and for an index out of range or given twice.
fn put_sparse(
    slot: &mut Option<Vec<i32>>,
    key: &str,
    rest: &[&str],
    n: usize,
) -> Result<(), String> {
    if slot.is_some() {
        return Err(format!("line {n}: `{key}` given twice"));
    }
    let mut w = vec![0i32; N_MASKS];
    let mut seen = vec![false; N_MASKS];
    for s in rest {
        let bad = || format!("line {n}: `{s}` is not `index:weight`");
        let (k, v) = s.split_once(':').ok_or_else(bad)?;
        let (k, v): (usize, i32) = (k.parse().map_err(|_| bad())?, v.parse().map_err(|_| bad())?);
        if k >= N_MASKS || seen[k] {
            return Err(format!(
                "line {n}: `{key}` index {k} is beyond {} or given twice",
                N_MASKS - 1
            ));
        }
        if v.abs() > MAX_WEIGHT {
            return Err(format!(
                "line {n}: weight {v} of `{key}` slot {k} is beyond +-{MAX_WEIGHT}"
            ));
        }
        seen[k] = true;
        w[k] = v;
    }
    *slot = Some(w);
    Ok(())
}

/// Reads one weights line into `slot` (the array's length says how many it needs); a
/// second line for the same key, a wrong count, a non-integer or a weight beyond
/// [`MAX_WEIGHT`] is refused with the line number. A line category's first weight (none,
/// Block2 and weaker) must be 0: it would weigh every empty cell.
fn put<const N: usize>(
    slot: &mut Option<[i32; N]>,
    key: &str,
    rest: &[&str],
    n: usize,
) -> Result<(), String> {
    if slot.is_some() {
        return Err(format!("line {n}: `{key}` given twice"));
    }
    if rest.len() != N {
        return Err(format!(
            "line {n}: `{key}` needs {N} weights, found {}",
            rest.len()
        ));
    }
    let mut w = [0i32; N];
    for (k, s) in rest.iter().enumerate() {
        let v: i32 = s
            .parse()
            .map_err(|_| format!("line {n}: `{s}` is not an integer"))?;
        if v.abs() > MAX_WEIGHT {
            return Err(format!(
                "line {n}: weight {v} of `{key}` slot {k} is beyond +-{MAX_WEIGHT}"
            ));
        }
        w[k] = v;
    }
    if (key.starts_with("line-") || key.starts_with("code-")) && w[0] != 0 {
        return Err(format!(
            "line {n}: `{key}` weighs category 0 (every empty cell) with {}",
            w[0]
        ));
    }
    *slot = Some(w);
    Ok(())
}

/// The learnt weights: against the classic ones they won the A/B matches in
/// docs/experiments/gomoku.md.
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
            ("mover 1 2\n", "line 1: expected `quartet-gomoku-eval 1`"),
            ("quartet-gomoku-eval 3\n", "version 3"),
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
            (
                "quartet-gomoku-eval 1\nline-mover 0 0 0 0 0 0 0\n",
                "line 2: `line-mover` needs version 2",
            ),
            (
                "quartet-gomoku-eval 2\nmover 0 0 0 0 0 0 0 0 0 0 0\nwaiter 0 0 0 0 0 0 0 0 0 0 0\n",
                "no `line-mover`",
            ),
            (
                "quartet-gomoku-eval 2\nmover 0 0 0 0 0 0 0 0 0 0 0\nwaiter 0 0 0 0 0 0 0 0 0 0 0\nline-mover 0 0 0 0 0 0 0\n",
                "no `line-waiter`",
            ),
            (
                "quartet-gomoku-eval 2\n# c\nline-waiter 0 1 2 3\n",
                "line 3: `line-waiter` needs 7 weights, found 4",
            ),
            (
                "quartet-gomoku-eval 2\nline-waiter 5 1 2 3 4 5 6\n",
                "line 2: `line-waiter` weighs category 0",
            ),
            (
                "quartet-gomoku-eval 2\nline-mover 0 1 2 3 4 5 10001\n",
                "line 2: weight 10001 of `line-mover` slot 6 is beyond",
            ),
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
        let v2 = ClassWeights {
            line_mover: [0, 1, 2, 3, 4, 5, 6],
            ..ClassWeights::CLASSIC
        };
        let twice = format!("{}line-mover 0 0 0 0 0 0 0\n", v2.to_text(""));
        assert!(ClassWeights::parse(&twice)
            .unwrap_err()
            .contains("`line-mover` given twice"));
    }

    #[test]
    fn line_weights_round_trip_and_old_files_read_them_as_zero() {
        let w = ClassWeights {
            line_mover: [0, -15, 30, 256, 301, 0, 7],
            line_waiter: [0, -26, 9, -448, -997, -689, 0],
            ..ClassWeights::CLASSIC
        };
        // The shipped line-category fit loads and writes back the same weights.
        let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/data/gomoku/eval-v2-lines.txt");
        let v2 = ClassWeights::load(shipped).unwrap();
        assert_ne!(v2.line_waiter, [0; N_LINE_CATS]);
        assert_eq!(ClassWeights::shipped_v2(), v2);
        assert_eq!(ClassWeights::parse(&v2.to_text("")).unwrap(), v2);
        let text = w.to_text("fitted\nby hand");
        assert!(text.contains("quartet-gomoku-eval 2\n"), "{text}");
        assert_eq!(ClassWeights::parse(&text).unwrap(), w);
        // Without line weights the text stays version 1, and reads back with zeros.
        let c = ClassWeights::CLASSIC.to_text("");
        assert!(
            c.contains("quartet-gomoku-eval 1\n") && !c.contains("line-"),
            "{c}"
        );
        let read = ClassWeights::parse(&c).unwrap();
        assert_eq!(read.line_mover, [0; N_LINE_CATS]);
        assert_eq!(read.line_waiter, [0; N_LINE_CATS]);
        // A file on disk loads the same.
        let path = std::env::temp_dir().join(format!("gomoku-eval-{}.txt", std::process::id()));
        std::fs::write(&path, &text).unwrap();
        let loaded = ClassWeights::load(path.to_str().unwrap());
        std::fs::remove_file(&path).ok();
        assert_eq!(loaded.unwrap(), w);
    }

    #[test]
    fn code_weights_round_trip_and_bad_ones_are_refused() {
        let mut w = CodeWeights::zero();
        for k in 1..N_CODES {
            w.mover[k] = k as i32 * 7 - 700;
            w.waiter[k] = -(k as i32) * 3;
        }
        w.mask[0] = 12;
        w.mask[N_MASKS - 1] = -10_000;
        let text = w.to_text("fitted\nsomehow");
        assert!(text.contains("\nthreat-mask 0:12 2047:-10000\n"), "{text}");
        assert!(text.contains("quartet-gomoku-eval 3\n"), "{text}");
        assert_eq!(CodeWeights::parse(&text).unwrap(), w);
        // Loaded from a file, a version 3 file is the code model, older ones the classes.
        let path = std::env::temp_dir().join(format!("gomoku-codes-{}.txt", std::process::id()));
        std::fs::write(&path, &text).unwrap();
        let loaded = EvalWeights::load(path.to_str().unwrap());
        std::fs::write(&path, ClassWeights::CLASSIC.to_text("")).unwrap();
        let old = EvalWeights::load(path.to_str().unwrap());
        // A huge file is refused unread.
        std::fs::write(&path, "# x\n".repeat(20_000)).unwrap();
        let huge = EvalWeights::load(path.to_str().unwrap());
        std::fs::remove_file(&path).ok();
        assert_eq!(loaded.unwrap(), EvalWeights::Codes(Box::new(w.clone())));
        assert_eq!(old.unwrap(), EvalWeights::Classes(ClassWeights::CLASSIC));
        assert!(huge.unwrap_err().contains("is no weights file"));
        assert_eq!(
            EvalWeights::load("learnt").unwrap(),
            EvalWeights::Classes(ClassWeights::learnt())
        );
        // The shipped code fit loads as the code model, weighs something, and writes back.
        let shipped = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/gomoku/eval-codes-masks.txt"
        );
        let EvalWeights::Codes(v3) = EvalWeights::load(shipped).unwrap() else {
            panic!("{shipped} is no code model");
        };
        assert_ne!(v3.mover, CodeWeights::zero().mover);
        assert!(v3.mask.iter().any(|&w| w != v3.mask[0]), "masks all alike");
        assert_eq!(CodeWeights::parse(&v3.to_text("")).unwrap(), *v3);
        // The class parser does not take a version 3 file.
        assert!(ClassWeights::parse(&text)
            .unwrap_err()
            .contains("version 3"));
        let zeros = |n: usize| vec!["0"; n].join(" ");
        let mover = format!("code-mover {}\n", zeros(N_CODES));
        let waiter = format!("code-waiter {}\n", zeros(N_CODES));
        let head = "quartet-gomoku-eval 3\n";
        let cases = [
            (String::new(), "empty"),
            (
                format!("quartet-gomoku-eval 2\n{mover}"),
                "expected `quartet-gomoku-eval 3`",
            ),
            (format!("{head}{mover}"), "no `code-waiter`"),
            (format!("{head}{waiter}"), "no `code-mover`"),
            (
                format!("{head}{mover}{mover}{waiter}"),
                "line 3: `code-mover` given twice",
            ),
            (
                format!("{head}code-mover {}\n{waiter}", zeros(N_CODES - 1)),
                "line 2: `code-mover` needs 210 weights, found 209",
            ),
            (
                format!("{head}code-mover {} 0\n{waiter}", zeros(N_CODES)),
                "needs 210 weights, found 211",
            ),
            (
                format!("{head}{mover}code-waiter {} x\n", zeros(N_CODES - 1)),
                "line 3: `x` is not an integer",
            ),
            (
                format!("{head}{mover}code-waiter {} 10001\n", zeros(N_CODES - 1)),
                "weight 10001 of `code-waiter` slot 209 is beyond",
            ),
            (
                format!("{head}code-mover 4 {}\n{waiter}", zeros(N_CODES - 1)),
                "`code-mover` weighs category 0",
            ),
            (format!("{head}mover 1\n"), "line 2: unknown key `mover`"),
            (
                format!("{head}{mover}{waiter}threat-mask 3:1 2048:5\n"),
                "line 4: `threat-mask` index 2048 is beyond 2047",
            ),
            (
                format!("{head}{mover}{waiter}threat-mask 3:1 3:2\n"),
                "index 3 is beyond 2047 or given twice",
            ),
            (
                format!("{head}{mover}{waiter}threat-mask 3\n"),
                "line 4: `3` is not `index:weight`",
            ),
            (
                format!("{head}{mover}{waiter}threat-mask 3:-10001\n"),
                "weight -10001 of `threat-mask` slot 3 is beyond",
            ),
        ];
        for (text, want) in cases {
            let e = CodeWeights::parse(&text).unwrap_err();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }
}
