//! The evaluation the search uses: the pattern tables (default) or the older linear
//! features, chosen by the weights file given (`--weights`), which is read with a size cap.
use super::board::Board;
use super::eval::{evaluate, evaluate_f, Weights};
use super::pattern::Patterns;
use super::pattern_file::{decode, MAGIC, MAX_FILE_BYTES};
use super::pattern_incr::Features;
use std::sync::Arc;

/// The built-in pattern weights (see `scripts/othello_patterns.sh` for how they were made).
pub const DEFAULT_PATTERNS: &[u8] = include_bytes!("../../data/othello/patterns.bin");

#[derive(Clone)]
pub enum Evaluator {
    Linear(Weights),
    Pattern(Arc<Patterns>),
}

impl From<Weights> for Evaluator {
    fn from(w: Weights) -> Evaluator {
        Evaluator::Linear(w)
    }
}

impl From<Patterns> for Evaluator {
    fn from(p: Patterns) -> Evaluator {
        Evaluator::Pattern(Arc::new(p))
    }
}

impl Evaluator {
    /// The built-in pattern evaluation.
    pub fn default_patterns() -> Evaluator {
        Evaluator::from(decode(DEFAULT_PATTERNS).expect("embedded pattern weights decode"))
    }

    /// The evaluation the command-line options name: the weights file if given, else the
    /// built-in `linear` weights or (any other name) the built-in pattern tables.
    pub fn chosen(weights: Option<&std::path::Path>, name: &str) -> Result<Evaluator, String> {
        match weights {
            Some(p) => Evaluator::load(p),
            None if name == "linear" => {
                Ok(Evaluator::from(super::eval::Weights::default_weights()))
            }
            None => Ok(Evaluator::default_patterns()),
        }
    }

    /// Static evaluation in centi-discs for the side to move.
    #[inline]
    pub fn evaluate(&self, b: &Board) -> i32 {
        match self {
            Evaluator::Linear(w) => evaluate(w, b),
            Evaluator::Pattern(p) => p.evaluate(b),
        }
    }

    /// `evaluate` from the copy of instruction level `I` (`super::isa`), for the search's
    /// copies of the same level; the same value at every level.
    #[inline(always)]
    pub fn evaluate_f<const I: u8>(&self, b: &Board) -> i32 {
        match self {
            Evaluator::Linear(w) => evaluate_f::<I>(w, b),
            Evaluator::Pattern(p) => p.evaluate_f::<I>(b),
        }
    }

    /// `evaluate_f` of `b` given its pattern features (`b`'s own, kept move by move by
    /// the search): the same value, without recomputing the pattern indices.
    #[inline(always)]
    pub fn evaluate_with<const I: u8>(&self, b: &Board, feats: &Features) -> i32 {
        match self {
            Evaluator::Linear(w) => evaluate_f::<I>(w, b),
            Evaluator::Pattern(p) => p.evaluate_indexed::<I>(b, feats.for_mover(b)),
        }
    }

    /// Whether `evaluate_with` reads the features (else the search need not keep them).
    pub fn uses_features(&self) -> bool {
        matches!(self, Evaluator::Pattern(_))
    }

    /// Reads a weights file: pattern weights (binary, by their magic) or linear weights
    /// (text). Files above `MAX_FILE_BYTES` are refused without reading them whole.
    pub fn load(path: &std::path::Path) -> Result<Evaluator, String> {
        let name = path.display();
        let bytes = crate::bounded_read::read_capped(path, MAX_FILE_BYTES)?;
        if bytes.starts_with(MAGIC) {
            return decode(&bytes)
                .map(Evaluator::from)
                .map_err(|e| format!("{name}: {e}"));
        }
        let text = std::str::from_utf8(&bytes).map_err(|e| {
            format!(
                "{name}: neither pattern weights nor a text weights file (invalid UTF-8 at byte {})",
                e.valid_up_to()
            )
        })?;
        Weights::parse(text)
            .map(Evaluator::from)
            .map_err(|e| format!("{name}: {e}"))
    }
}
