//! One pass of the root defence: for each candidate move, whether it leaves the opponent a
//! five, a VCF or a VCT of a given depth. Checked one move after another, or on several
//! threads at once, each with its own threat cache, taking the moves in order.
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering::Relaxed};

use super::board::{Board, Point};
use super::eval::Cand;
use super::threats::{five_move, ThreatCache, Threats};
use crate::color::Color;
use crate::search::Poller;

/// What a pass learnt about one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Check {
    /// Not checked: the pass stopped first, or had enough safe moves.
    NotReached,
    /// The opponent wins after it.
    Refuted,
    /// No win for the opponent up to the pass's depth.
    Safe,
}

/// The checks of one pass, in the order of its moves.
pub(super) struct Pass {
    pub checks: Vec<Check>,
    /// A check was cut short (time, stop, or the node cap of one search): the moves not
    /// reached are undecided, not safe.
    pub aborted: bool,
    /// Threat nodes of all threads.
    pub nodes: u64,
}

/// What one pass asks.
#[derive(Clone, Copy)]
pub(super) struct PassSpec {
    /// Attacker moves of the opponent's VCT.
    pub depth: u32,
    /// Own stones a threat window must hold (see [`Threats::threat_stones`]).
    pub threat_stones: u8,
    /// Node cap of one check.
    pub budget: u64,
    /// Stop once this many moves are safe.
    pub enough: Option<usize>,
}

/// Whether the opponent has a five, a VCF or a VCT after `c` plays `p`, searched with
/// `cache` (which keeps what it proves); also whether the search was cut short (then the
/// first answer means nothing), and its nodes.
pub(super) fn refutes(
    cache: &mut ThreatCache,
    poller: &mut Poller,
    b: &mut Board,
    c: Color,
    p: Point,
    spec: PassSpec,
) -> (bool, bool, u64) {
    let o = c.opponent();
    b.place(p, c);
    let mut t = Threats::with_cache(poller, spec.budget, std::mem::take(cache));
    t.threat_stones = spec.threat_stones;
    let refuted = five_move(b, o).is_some()
        || t.vcf_root(b, o, 120).is_some()
        || t.vct_root(b, o, spec.depth).is_some();
    let (stopped, nodes) = (t.aborted, t.nodes);
    *cache = t.into_cache();
    b.undo();
    (refuted, stopped, nodes)
}

/// The pass on this thread: the moves in order until one check is cut short or `enough`
/// are safe.
pub(super) fn pass_alone(
    cache: &mut ThreatCache,
    poller: &mut Poller,
    b: &mut Board,
    c: Color,
    moves: &[Cand],
    spec: PassSpec,
) -> Pass {
    let mut pass = Pass {
        checks: vec![Check::NotReached; moves.len()],
        aborted: false,
        nodes: 0,
    };
    let mut safe = 0;
    for (i, m) in moves.iter().enumerate() {
        let (refuted, stopped, nodes) = refutes(cache, poller, b, c, m.p, spec);
        pass.nodes += nodes;
        if stopped {
            pass.aborted = true;
            break;
        }
        if refuted {
            pass.checks[i] = Check::Refuted;
        } else {
            pass.checks[i] = Check::Safe;
            safe += 1;
            if spec.enough.is_some_and(|k| safe >= k) {
                break;
            }
        }
    }
    pass
}

const NOT_REACHED: u8 = 0;
const REFUTED: u8 = 1;
const SAFE: u8 = 2;
const STOPPED: u8 = 3;

/// The pass on this thread and one more per cache of `more`: each takes the next move not
/// yet taken, until a check is cut short, `enough` moves are safe or none is left. Every
/// thread is joined before this returns.
pub(super) fn pass_shared(
    cache: &mut ThreatCache,
    more: &mut [ThreatCache],
    poller: &mut Poller,
    b: &Board,
    c: Color,
    moves: &[Cand],
    spec: PassSpec,
) -> Pass {
    let next = AtomicUsize::new(0);
    let safe = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let checks: Vec<AtomicU8> = moves.iter().map(|_| AtomicU8::new(NOT_REACHED)).collect();
    let work = |cache: &mut ThreatCache, poller: &mut Poller, mut board: Board| {
        let mut nodes = 0;
        while !halt.load(Relaxed) && spec.enough.is_none_or(|k| safe.load(Relaxed) < k) {
            let i = next.fetch_add(1, Relaxed);
            let Some(m) = moves.get(i) else {
                break;
            };
            let (refuted, stopped, n) = refutes(cache, poller, &mut board, c, m.p, spec);
            nodes += n;
            let check = if stopped {
                halt.store(true, Relaxed);
                STOPPED
            } else if refuted {
                REFUTED
            } else {
                safe.fetch_add(1, Relaxed);
                SAFE
            };
            checks[i].store(check, Relaxed);
        }
        nodes
    };
    let work = &work;
    let limits = poller.limits();
    let nodes = std::thread::scope(|scope| {
        let handles: Vec<_> = more
            .iter_mut()
            .map(|cache| {
                let board = b.clone();
                scope.spawn(move || work(cache, &mut limits.poller(), board))
            })
            .collect();
        let mut nodes = work(cache, poller, b.clone());
        for h in handles {
            nodes += h.join().expect("a defence thread panicked");
        }
        nodes
    });
    let mut aborted = false;
    let checks = checks
        .iter()
        .map(|x| match x.load(Relaxed) {
            REFUTED => Check::Refuted,
            SAFE => Check::Safe,
            STOPPED => {
                aborted = true;
                Check::NotReached
            }
            _ => Check::NotReached,
        })
        .collect();
    Pass {
        checks,
        aborted,
        nodes,
    }
}
