//! Iterative-deepening principal-variation alpha-beta over the window evaluation, with a
//! transposition table, candidate moves ordered by the paper's point scores and cut to a
//! width, and threat-space search (VCF, VCT, defence against the opponent's VCF) at the root.
//!
//! Contract: [`Searcher::search`] blocks until a limit in `Limits` is reached (hard deadline,
//! node cap, stop token) or the depth is exhausted; it polls the limits every few hundred
//! nodes. It never does I/O.
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::board::{Board, Point, Rule};
use super::defence::{pass_alone, pass_shared, refutes, Check, Pass, PassSpec};
use super::dfpn::{Defences, Dfpn, Proof};
use super::eval::{
    add_pattern_scores, code_eval_counts, evaluate, evaluate_sums, keep_defences, scan,
    threat_eval_counts, Cand,
};
use super::patterns::{CodeTable, PatternCounts};
use super::threats::{five_move, four_moves, ThreatCache, Threats, CACHE_ENTRY_BYTES};
use super::tt::{Bound, Tt};
use super::weights::ClassWeights;
use crate::color::Color;
use crate::search::{no_progress, Deadline, Limits, Poller, Progress, StopToken};

pub const MATE: i32 = 1_000_000;
/// Scores above this are wins found by search.
pub const MATE_BOUND: i32 = MATE - 1000;
const MAX_PLY: usize = 128;

/// Limits ending at `share` of the soft time of `limits` (all of its deadline when it has
/// no soft one), as a phase of `limits`: running out of that time must not stop the main
/// search, while a stop of the main search (interrupt, a new analysis line, quit, END)
/// still stops the phase at once.
fn share_of_soft(limits: &Limits, share: f64) -> Limits {
    let deadline = match limits.deadline.soft {
        Some(soft) => {
            let t = soft
                .saturating_duration_since(limits.deadline.start)
                .mul_f64(share);
            Deadline::starting_at(limits.deadline.start, t, t)
        }
        None => limits.deadline,
    };
    limits.phase(deadline)
}

/// Entries of the threat cache for a table of `tt_mb` MB: the cache may take half as much
/// memory again (so a memory limit split half to the table stays within the limit).
fn cache_entries(tt_mb: usize) -> usize {
    (tt_mb << 20) / 2 / CACHE_ENTRY_BYTES
}

/// MiB of the df-pn table for a transposition table of `tt_mb` MiB: a quarter.
fn dfpn_mb(tt_mb: usize) -> usize {
    (tt_mb / 4).max(1)
}
/// Attacker moves of the df-pn VCT searches at the root (as the iterative deepening's 8).
const DFPN_MOVES: u32 = 8;
/// Node cap of one VCT search: the threat time is the real limit, the cap only keeps an
/// unlimited search finite.
const VCT_BUDGET: u64 = 20_000_000;
/// Moves checked by the root defence against the opponent's VCT.
const DEFENCE_TRIES: usize = 40;
/// Attacker moves of the opponent's VCT the root defence looks for after each move of
/// ours. Proving a move safe means exhausting that search: at depth 6 it took a sixth of the
/// nodes of depth 8 in a measured position, and the VCTs that decided games were 4 to 6
/// moves long.
const DEFENCE_VCT_DEPTH: u32 = 6;
/// From this VCT depth on, the root defence looks only for threats made in a window that
/// already holds two of the attacker's stones (`Threats::threat_stones`), not one: on the
/// lost positions of scripts/gomoku_defence_positions.txt it refuted nearly as many moves
/// with 2.5 times fewer nodes, so the passes that decide reach further
/// (docs/experiments/gomoku.md).
const DEFENCE_NARROW_FROM: u32 = 3;

fn defence_threat_stones(depth: u32) -> u8 {
    if depth >= DEFENCE_NARROW_FROM {
        2
    } else {
        1
    }
}

/// The checks of a root defence pass at VCT `depth`.
fn defence_spec(depth: u32, enough: Option<usize>) -> PassSpec {
    PassSpec {
        depth,
        threat_stones: defence_threat_stones(depth),
        budget: VCT_BUDGET,
        enough,
    }
}

/// When the root defence was cut short, the alpha-beta stops at this share of the soft
/// time, and the rest goes to checking its choice (see [`Searcher::verify_choice`]).
const VERIFY_FROM: f64 = 0.8;

/// The root defence stops after finding this many safe moves.
const DEFENCE_SAFE: usize = 3;
/// Share of the soft time the root defence against the opponent's VCT may use (counted
/// from the start of the move): a position where the opponent has a VCT is decided by
/// finding a defence, not by the alpha-beta over the moves that lose. When the passes are
/// cut short, the alpha-beta runs to [`VERIFY_FROM`] and its choice is checked after.
const DEFENCE_SHARE: f64 = 0.45;

/// What the root defence against the opponent's VCT leaves to the alpha-beta.
struct Defence {
    /// The moves to search.
    moves: Vec<Cand>,
    /// Moves proved safe at the depth of `verify`.
    proven: Vec<Point>,
    /// The VCT depth whose pass was cut short: the alpha-beta's choice must still pass it.
    verify: Option<u32>,
}

impl Defence {
    fn settled(moves: Vec<Cand>) -> Defence {
        Defence {
            moves,
            proven: Vec::new(),
            verify: None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Candidate moves searched per node (the paper's width). 10 rather than 8: it won
    /// more of the openings 8 had lost as White against the paper configuration, and as
    /// many over random ones (docs/experiments/gomoku.md).
    pub width: usize,
    /// Deepest iteration.
    pub max_depth: u32,
    /// VCF/VCT and VCF defence at the root.
    pub threats: bool,
    /// Line patterns (open threes, four-threes, double threes) in the evaluation and the
    /// move order, on top of the paper's window sums, weighed by `eval`: a small gain
    /// against the paper configuration for about 30% of the alpha-beta's node rate, the
    /// pattern upkeep and reading (docs/experiments/gomoku.md; leaves are valued by
    /// `Board::peek` and `Board::peek_counts` either way).
    pub patterns: bool,
    /// Transposition table size in MiB.
    pub tt_mb: usize,
    /// Weights of the line-pattern classes in the evaluation (with `patterns`).
    pub eval: ClassWeights,
    /// Pattern-code tables that replace `eval` in the evaluation (with `patterns`): the
    /// searcher hands them to the board, which keeps their sums per move.
    pub codes: Option<Arc<CodeTable>>,
    /// The VCT searches at the root (own and the opponent's) by df-pn ([`Dfpn::prove`])
    /// instead of iterative deepening.
    pub dfpn_attack: bool,
    /// The root defence against the opponent's VCT by df-pn ([`Dfpn::defend`]) instead of
    /// deepening passes over the moves.
    pub dfpn_defence: bool,
    /// Alpha-beta threads sharing the transposition table (lazy SMP); the threat searches
    /// at the root run on one, except the root defence's checks, which take them all. 1
    /// keeps a search reproducible.
    pub threads: usize,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            width: 10,
            max_depth: 64,
            threats: true,
            patterns: true,
            tt_mb: 64,
            eval: ClassWeights::default(),
            codes: None,
            // Off: at 0.5 s per move against the iterative deepening neither gained
            // (docs/experiments/gomoku.md).
            dfpn_attack: false,
            dfpn_defence: false,
            threads: 1,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchReport {
    pub best: Point,
    pub score: i32,
    pub depth: u32,
    /// Nodes of all threads.
    pub nodes: u64,
    /// Nodes of the main thread (the threat searches and its alpha-beta): with threads
    /// of equal speed, its share of the work shows the time the helpers saved.
    pub main_nodes: u64,
    pub elapsed: Duration,
    /// "win", "forced", "vcf", "vct", "vcf-defence", "vct-defence", "vct-verify" (the
    /// alpha-beta's choice lost to a VCT; another move was taken), "alphabeta".
    pub source: &'static str,
}

pub struct Searcher {
    pub config: SearchConfig,
    tt: Arc<Tt>,
    nodes: u64,
    /// Candidate lists of each alpha-beta thread, the main one first (grown to the
    /// thread count when a search needs more).
    lists: Vec<Vec<Vec<Cand>>>,
    /// Threat-search results kept from move to move (see [`ThreatCache`]).
    threat_cache: ThreatCache,
    /// The other threads' caches for the root defence, kept likewise.
    defence_caches: Vec<ThreatCache>,
    /// The df-pn table, kept from move to move too.
    dfpn: Dfpn,
    /// Whether leaves are valued without placing the stone (always, except in the test
    /// that compares both ways).
    pub(super) peek_leaves: bool,
}

impl Searcher {
    pub fn new(config: SearchConfig) -> Searcher {
        let tt = Arc::new(Tt::new(config.tt_mb));
        let threat_cache = ThreatCache::with_limit(cache_entries(config.tt_mb));
        let dfpn = Dfpn::new(dfpn_mb(config.tt_mb));
        Searcher {
            config,
            tt,
            nodes: 0,
            lists: vec![ply_lists()],
            threat_cache,
            defence_caches: Vec::new(),
            dfpn,
            peek_leaves: true,
        }
    }

    /// Forgets the transposition table (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.threat_cache.clear();
        self.defence_caches.clear();
        self.dfpn.clear();
    }

    pub fn resize_tt(&mut self, mb: usize) {
        self.config.tt_mb = mb;
        self.tt = Arc::new(Tt::new(mb));
        self.threat_cache.set_limit(cache_entries(mb));
        self.defence_caches.clear();
        self.dfpn = Dfpn::new(dfpn_mb(mb));
    }

    /// The move for `c` in `b` (which must not be over or full). `b` is restored.
    pub fn search(&mut self, b: &mut Board, c: Color, limits: &Limits) -> SearchReport {
        self.search_reporting(b, c, limits, &mut no_progress)
    }

    /// [`Searcher::search`], telling `progress` the main thread's result after each
    /// completed alpha-beta iteration (a move the threat searches decide is not reported).
    pub fn search_reporting(
        &mut self,
        b: &mut Board,
        c: Color,
        limits: &Limits,
        progress: Progress<'_, SearchReport>,
    ) -> SearchReport {
        // The threads' threat caches share the memory one cache has alone.
        let per_thread = cache_entries(self.config.tt_mb) / self.config.threads.max(1);
        self.threat_cache.set_limit(per_thread);
        for cache in &mut self.defence_caches {
            cache.set_limit(per_thread);
        }
        let report = self.search_unrestored(b, c, limits, progress);
        if self.config.patterns {
            // The threat phases pause the pattern upkeep.
            b.track_patterns();
        }
        report
    }

    /// [`Searcher::search`], leaving the pattern upkeep paused if a threat phase paused it.
    fn search_unrestored(
        &mut self,
        b: &mut Board,
        c: Color,
        limits: &Limits,
        progress: Progress<'_, SearchReport>,
    ) -> SearchReport {
        let start = Instant::now();
        self.nodes = 0;
        if self.config.patterns {
            b.set_codes(self.config.codes.clone());
            b.track_patterns();
        }
        let mut root = Vec::new();
        let s = scan(b, c, &mut root);
        let report = |best, score, depth, nodes, source| SearchReport {
            best,
            score,
            depth,
            nodes,
            main_nodes: nodes,
            elapsed: start.elapsed(),
            source,
        };
        if let Some(w) = s.win {
            return report(w, MATE - 1, 1, 1, "win");
        }
        if s.n_blocks > 0 {
            // Block the opponent's five (the first legal block; with two we lose anyway).
            let blocks = &s.blocks[..s.n_blocks];
            if root.iter().any(|m| blocks.contains(&m.p)) {
                root.retain(|m| blocks.contains(&m.p));
                let best = root[0].p;
                if root.len() <= 1 || !self.config.threats {
                    return report(best, 0, 0, 1, "forced");
                }
            } else {
                // Every block is a forbidden point for a renju Black: the five comes
                // whatever we play, but the move must still be legal (two games against
                // Rapfi were lost as failures when the forbidden block was answered).
                if root.is_empty() {
                    scan_all(b, c, &mut root);
                }
                let best = root
                    .iter()
                    .max_by_key(|m| m.score)
                    .map_or(s.blocks[0], |m| m.p);
                return report(best, -(MATE - 2), 0, 1, "lost");
            }
        }
        if root.is_empty() {
            // Every point near the stones is forbidden for a renju Black: play elsewhere.
            scan_all(b, c, &mut root);
        }
        if s.opp_double && s.n_blocks == 0 && self.config.threats {
            keep_defences(&mut root);
        }
        if self.config.patterns {
            add_pattern_scores(b, c, &mut root);
        }
        root.sort_by_key(|m| std::cmp::Reverse(m.score));
        // Helper threads start the alpha-beta at once, filling the table while this one
        // runs the threat searches.
        let mut helpers = self.start_helpers(b, c, &root, limits);
        let mut report = self.decide(
            b,
            c,
            root,
            s.n_blocks > 0,
            limits,
            start,
            &mut helpers,
            progress,
        );
        if let Some(h) = helpers {
            let (lists, nodes) = h.finish();
            self.lists.extend(lists);
            self.nodes += nodes;
            report.nodes += nodes;
        }
        report
    }

    /// The search after the root moves are scored (`root`, best first; `blocked` when
    /// they block a four): the threat searches, then the alpha-beta. The `helpers`' alpha-beta
    /// waits while the root defence takes every thread.
    #[allow(clippy::too_many_arguments)]
    fn decide(
        &mut self,
        b: &mut Board,
        c: Color,
        mut root: Vec<Cand>,
        blocked: bool,
        limits: &Limits,
        start: Instant,
        helpers: &mut Option<Helpers>,
        progress: Progress<'_, SearchReport>,
    ) -> SearchReport {
        let report = |best, score, depth, nodes, source| SearchReport {
            best,
            score,
            depth,
            nodes,
            main_nodes: nodes,
            elapsed: start.elapsed(),
            source,
        };
        // Threat searches get half the soft time, so the alpha-beta always runs: a VCT that
        // needs a quiet (fukumi) move takes a few hundred thousand threat nodes.
        let threat_limits = share_of_soft(limits, 0.5);
        let mut poller = threat_limits.poller();
        if self.config.threats {
            // The threat searches read no patterns: their upkeep would halve their speed.
            b.pause_patterns();
        }
        if self.config.threats && !blocked {
            let budget = 200_000;
            let (own_vcf, n) = self.threat_search(&mut poller, budget, |t| t.vcf_root(b, c, 120));
            if let Some(p) = own_vcf {
                return report(p, MATE - 2, 0, self.nodes, "vcf");
            }
            tracing::debug!(
                nodes = n,
                ms = start.elapsed().as_millis() as u64,
                "own vcf"
            );
            // The opponent's VCF: keep only moves after which it is gone.
            let (opp_vcf, n) = self.threat_search(&mut poller, budget, |t| {
                t.vcf_root(b, c.opponent(), 120).is_some()
            });
            tracing::debug!(
                nodes = n,
                ms = start.elapsed().as_millis() as u64,
                "opp vcf"
            );
            if opp_vcf {
                let mut keep = Vec::new();
                let mut tries: Vec<Cand> = root.iter().take(24).copied().collect();
                for p in four_moves(b, c) {
                    if !tries.iter().any(|m| m.p == p) {
                        if let Some(m) = root.iter().find(|m| m.p == p) {
                            tries.push(*m);
                        }
                    }
                }
                for m in tries {
                    b.place(m.p, c);
                    let (opp_first, _) = self.threat_search(&mut poller, budget / 8, |t| {
                        five_move(b, c.opponent()).is_some()
                            || t.vcf_root(b, c.opponent(), 120).is_some()
                    });
                    b.undo();
                    if !opp_first {
                        keep.push(m);
                    }
                }
                if keep.len() == 1 {
                    return report(keep[0].p, 0, 0, self.nodes, "vcf-defence");
                }
                if !keep.is_empty() {
                    root = keep;
                }
            }
            // The threat time (a third of the move) is the real limit; the node cap only
            // keeps an unlimited search finite.
            let vct_budget = VCT_BUDGET;
            let (own_vct, n) = self.vct(&mut poller, vct_budget, b, c);
            if let Some(p) = own_vct {
                return report(p, MATE - 3, 0, self.nodes, "vct");
            }
            tracing::debug!(
                nodes = n,
                ms = start.elapsed().as_millis() as u64,
                "own vct"
            );
            // The opponent's VCT, as if we passed: a move that leaves it standing loses to
            // it, whatever the alpha-beta (blind past its width and depth) thinks of it.
            let (opp_vct, first) = if self.config.dfpn_attack {
                let (opp_vct, _) = self.vct(&mut poller, vct_budget, b, c.opponent());
                let (first, _) = self.threat_search(&mut poller, vct_budget, |t| match opp_vct {
                    Some(x) => t.threat_replies(b, c.opponent(), x),
                    None => Vec::new(),
                });
                (opp_vct, first)
            } else {
                // One budget for the VCT and its replies, as before df-pn: the default
                // engine stays the one the A/B matches measured.
                self.threat_search(&mut poller, vct_budget, |t| {
                    let opp_vct = t.vct_root(b, c.opponent(), 8);
                    let first = match opp_vct {
                        Some(x) => t.threat_replies(b, c.opponent(), x),
                        None => Vec::new(),
                    };
                    (opp_vct, first)
                })
                .0
            };
            if opp_vct.is_some() && self.config.dfpn_defence {
                let defence_limits = share_of_soft(limits, DEFENCE_SHARE);
                let mut defence_poller = defence_limits.poller();
                let d = self.dfpn_defence(b, c, &root, &first, &mut defence_poller);
                tracing::debug!(
                    safe = d.safe.len(),
                    lost = d.lost.len(),
                    open = d.open.len(),
                    ms = start.elapsed().as_millis() as u64,
                    "opp vct (df-pn)"
                );
                // The moves proved safe; else those left undecided; else (every move
                // loses) all of them.
                let keep: Vec<Point> = if !d.safe.is_empty() {
                    d.safe
                } else if !d.open.is_empty() {
                    d.open
                } else {
                    Vec::new()
                };
                if !keep.is_empty() {
                    root.retain(|m| keep.contains(&m.p));
                }
                if root.len() == 1 {
                    return report(root[0].p, 0, 0, self.nodes, "vct-defence");
                }
            } else if opp_vct.is_some() {
                let defence_limits = share_of_soft(limits, DEFENCE_SHARE);
                let mut defence_poller = defence_limits.poller();
                if let Some(h) = helpers.take() {
                    let (lists, nodes) = h.finish();
                    self.lists.extend(lists);
                    self.nodes += nodes;
                }
                let defence = self.keep_vct_safe(b, c, root, &first, &mut defence_poller);
                root = defence.moves;
                tracing::debug!(
                    moves = root.len(),
                    proven = defence.proven.len(),
                    verify = defence.verify,
                    ms = start.elapsed().as_millis() as u64,
                    "opp vct"
                );
                if root.len() == 1 {
                    return report(root[0].p, 0, 0, self.nodes, "vct-defence");
                }
                if let Some(depth) = defence.verify {
                    let ab_limits = share_of_soft(limits, VERIFY_FROM);
                    if self.config.patterns {
                        b.track_patterns();
                    }
                    if helpers.is_none() {
                        *helpers = self.start_helpers(b, c, &root, limits);
                    }
                    let mut r = self.iterate(
                        b,
                        c,
                        &mut root,
                        &ab_limits,
                        start,
                        helpers.as_ref(),
                        progress,
                    );
                    let mut poller = limits.poller();
                    b.pause_patterns();
                    let best = self.verify_choice(b, c, &root, &defence.proven, depth, &mut poller);
                    if best != r.best {
                        // The alpha-beta's score was for the move the check turned down.
                        r.best = best;
                        r.score = 0;
                        r.source = "vct-verify";
                    }
                    r.elapsed = start.elapsed();
                    return r;
                }
            }
        }
        if self.config.patterns {
            b.set_codes(self.config.codes.clone());
            b.track_patterns();
        }
        if helpers.is_none() {
            *helpers = self.start_helpers(b, c, &root, limits);
        }
        self.iterate(b, c, &mut root, limits, start, helpers.as_ref(), progress)
    }

    /// A VCT for `c` (to move), by df-pn or by iterative deepening as configured, and the
    /// threat nodes it took.
    fn vct<'l>(
        &mut self,
        poller: &mut Poller<'l>,
        budget: u64,
        b: &mut Board,
        c: Color,
    ) -> (Option<Point>, u64) {
        if !self.config.dfpn_attack {
            return self.threat_search(poller, budget, |t| t.vct_root(b, c, 8));
        }
        let mut d = std::mem::replace(&mut self.dfpn, Dfpn::empty());
        d.max_moves = DFPN_MOVES;
        let answer = self.threat_search(poller, budget, |t| match d.prove(t, b, c) {
            Proof::Won(p) => Some(p),
            _ => None,
        });
        self.dfpn = d;
        answer
    }

    /// The df-pn root defence (see [`Dfpn::defend`]) over every move of `root`, the
    /// replies that may break the opponent's VCT (`first`) first.
    fn dfpn_defence(
        &mut self,
        b: &mut Board,
        c: Color,
        root: &[Cand],
        first: &[Point],
        poller: &mut Poller,
    ) -> Defences {
        let mut order: Vec<Point> = root
            .iter()
            .filter(|m| first.contains(&m.p))
            .map(|m| m.p)
            .collect();
        order.extend(root.iter().filter(|m| !first.contains(&m.p)).map(|m| m.p));
        let mut d = std::mem::replace(&mut self.dfpn, Dfpn::empty());
        d.max_moves = DEFENCE_VCT_DEPTH;
        let (answer, _) = self.threat_search(poller, VCT_BUDGET, |t| {
            d.defend(t, b, c, &order, DEFENCE_SAFE)
        });
        self.dfpn = d;
        answer
    }

    /// Whether the opponent has a five, a VCF or a VCT of `depth` attacker moves after `c`
    /// plays `p` (from VCT depth [`DEFENCE_NARROW_FROM`] on, the narrow one), and whether
    /// the search was cut short (then the first answer means nothing).
    fn refuted_after(
        &mut self,
        b: &mut Board,
        c: Color,
        p: Point,
        depth: u32,
        poller: &mut Poller,
    ) -> (bool, bool) {
        let spec = defence_spec(depth, None);
        let (refuted, stopped, nodes) = refutes(&mut self.threat_cache, poller, b, c, p, spec);
        self.nodes += nodes;
        (refuted, stopped)
    }

    /// One pass of the root defence over `moves` at VCT `depth` (stopping once `enough`
    /// are safe), on every thread of the search.
    fn defence_pass(
        &mut self,
        b: &mut Board,
        c: Color,
        moves: &[Cand],
        depth: u32,
        enough: Option<usize>,
        poller: &mut Poller,
    ) -> Pass {
        let spec = defence_spec(depth, enough);
        let threads = self.config.threads.max(1);
        let pass = if threads == 1 || moves.len() < 2 {
            pass_alone(&mut self.threat_cache, poller, b, c, moves, spec)
        } else {
            let limit = cache_entries(self.config.tt_mb) / threads;
            self.defence_caches
                .resize_with(threads - 1, || ThreatCache::with_limit(limit));
            let more = &mut self.defence_caches;
            pass_shared(&mut self.threat_cache, more, poller, b, c, moves, spec)
        };
        self.nodes += pass.nodes;
        pass
    }

    /// The first move of `order` (the alpha-beta's preference, best first) that the
    /// opponent's VCT of `depth` attacker moves does not refute, or is in `proven`; the
    /// first move left unchecked when the time runs out (all before it were refuted), or
    /// the first move when every one is.
    pub(super) fn verify_choice(
        &mut self,
        b: &mut Board,
        c: Color,
        order: &[Cand],
        proven: &[Point],
        depth: u32,
        poller: &mut Poller,
    ) -> Point {
        for m in order {
            if proven.contains(&m.p) {
                return m.p;
            }
            let (refuted, stopped) = self.refuted_after(b, c, m.p, depth, poller);
            tracing::debug!(refuted, stopped, depth, "verify");
            if stopped || !refuted {
                return m.p;
            }
        }
        order[0].p
    }

    /// The moves of `root` after which the opponent has no VCF or VCT, checked in the
    /// order: `first` (the replies that may break the opponent's VCT, best point score
    /// first), then the rest of `root` by point score, at most [`DEFENCE_TRIES`] moves.
    ///
    /// The check deepens over the whole list: a pass at VCT depth 1 over every move, then
    /// depth 2 over the survivors, and so on to [`DEFENCE_VCT_DEPTH`], where it stops after
    /// [`DEFENCE_SAFE`] safe moves. Proving a move safe at full depth can take several times
    /// the move's time, and a check cut short says nothing: deepening pass by pass, a
    /// time-out in the pass at depth d leaves the moves it proved safe and those it did not
    /// reach, with `verify` = d (the alpha-beta chooses among them and its choice is
    /// checked at depth d: the pass reaches only the first few of 40 moves in busy
    /// positions, so a static order would choose for it). The threat cache makes each pass
    /// cost about its new depth alone. When every move left loses at some depth, the
    /// survivors of the pass before (they lose only to longer VCTs). Adding a
    /// stone of ours never gives the opponent a threat it did not have, so this is called
    /// only when it has one now.
    fn keep_vct_safe(
        &mut self,
        b: &mut Board,
        c: Color,
        root: Vec<Cand>,
        first: &[Point],
        poller: &mut Poller,
    ) -> Defence {
        let mut alive: Vec<Cand> = root
            .iter()
            .filter(|m| first.contains(&m.p))
            .copied()
            .collect();
        alive.extend(root.iter().filter(|m| !first.contains(&m.p)));
        alive.truncate(DEFENCE_TRIES);
        for depth in 1..=DEFENCE_VCT_DEPTH {
            // Proving a move safe is the slow part: at the last depth a few are enough
            // for the alpha-beta to choose from, and it needs the time.
            let enough = (depth == DEFENCE_VCT_DEPTH).then_some(DEFENCE_SAFE);
            let pass = self.defence_pass(b, c, &alive, depth, enough, poller);
            let mut next = Vec::new();
            let mut undecided = Vec::new();
            for (m, check) in alive.iter().zip(&pass.checks) {
                match check {
                    Check::Safe => next.push(*m),
                    Check::NotReached => undecided.push(*m),
                    Check::Refuted => {}
                }
            }
            tracing::debug!(
                depth,
                alive = alive.len(),
                next = next.len(),
                aborted = pass.aborted,
                "defence pass"
            );
            if pass.aborted {
                // Cut short: the moves proved safe at this depth, then those not decided
                // (the alpha-beta may choose one, which is then checked at this depth);
                // the refuted ones are out.
                let proven: Vec<Point> = next.iter().map(|m| m.p).collect();
                next.append(&mut undecided);
                return Defence {
                    moves: next,
                    proven,
                    verify: Some(depth),
                };
            }
            if next.is_empty() {
                return Defence::settled(alive);
            }
            alive = next;
        }
        Defence::settled(alive)
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The threat cache's size now, in entries (for the memory-limit test).
    #[cfg(test)]
    pub(super) fn threat_cache_limit(&self) -> usize {
        self.threat_cache.limit()
    }

    /// Runs `f` on a threat search that starts from the kept cache and hands it back, its
    /// nodes added to the searcher's; returns `f`'s answer and the search's nodes.
    fn threat_search<'l, R>(
        &mut self,
        poller: &mut Poller<'l>,
        budget: u64,
        f: impl FnOnce(&mut Threats<'_, 'l>) -> R,
    ) -> (R, u64) {
        let cache = std::mem::take(&mut self.threat_cache);
        let mut t = Threats::with_cache(poller, budget, cache);
        let answer = f(&mut t);
        let nodes = t.nodes;
        self.nodes += nodes;
        self.threat_cache = t.into_cache();
        (answer, nodes)
    }

    /// The alpha-beta value of `b` for `c` to move at `depth`, full window, no time limit
    /// (for tests of the node search alone).
    #[cfg(test)]
    pub(super) fn value(&mut self, b: &mut Board, c: Color, depth: u32) -> i32 {
        let limits = Limits::new(Deadline::unlimited(), None, crate::search::StopToken::new());
        let mut poller = limits.poller();
        if self.config.patterns {
            b.set_codes(self.config.codes.clone());
            b.track_patterns();
        }
        let mut w = Worker {
            config: &self.config,
            tt: &self.tt,
            cands: &mut self.lists[0],
            nodes: 0,
            aborted: false,
            peek_leaves: self.peek_leaves,
            shared: None,
            helper_depth: None,
            stale: false,
        };
        let v = w.negamax::<false>(b, c, depth, -MATE - 1, MATE + 1, 1, &mut poller);
        self.nodes = w.nodes;
        v
    }

    /// The alpha-beta alone (no threat searches at the root) on the configured threads, to
    /// `config.max_depth` without a time limit (for tests of the parallel search). None
    /// when the position has a five to make or block.
    #[cfg(test)]
    pub(super) fn alpha_beta(&mut self, b: &mut Board, c: Color) -> Option<SearchReport> {
        let limits = Limits::new(Deadline::unlimited(), None, StopToken::new());
        let start = Instant::now();
        self.nodes = 0;
        if self.config.patterns {
            b.set_codes(self.config.codes.clone());
            b.track_patterns();
        }
        let mut root = Vec::new();
        let s = scan(b, c, &mut root);
        if s.win.is_some() || s.n_blocks > 0 || root.is_empty() {
            return None;
        }
        if self.config.patterns {
            add_pattern_scores(b, c, &mut root);
        }
        root.sort_by_key(|m| std::cmp::Reverse(m.score));
        let helpers = self.start_helpers(b, c, &root, &limits);
        let mut r = self.iterate(
            b,
            c,
            &mut root,
            &limits,
            start,
            helpers.as_ref(),
            &mut no_progress,
        );
        if let Some(h) = helpers {
            let (lists, nodes) = h.finish();
            self.lists.extend(lists);
            r.nodes += nodes;
        }
        Some(r)
    }

    /// The main thread's alpha-beta over `root` under `limits`, with `helpers` (if any)
    /// told its depth and `progress` told each completed iteration's result.
    #[allow(clippy::too_many_arguments)]
    fn iterate(
        &mut self,
        b: &mut Board,
        c: Color,
        root: &mut Vec<Cand>,
        limits: &Limits,
        start: Instant,
        helpers: Option<&Helpers>,
        progress: Progress<'_, SearchReport>,
    ) -> SearchReport {
        let mut main = Worker {
            config: &self.config,
            tt: &self.tt,
            cands: &mut self.lists[0],
            nodes: self.nodes,
            aborted: false,
            peek_leaves: self.peek_leaves,
            shared: helpers.map(|h| &*h.shared),
            helper_depth: None,
            stale: false,
        };
        let report = if helpers.is_some() {
            main.iterate::<true>(b, c, root, limits, start, progress)
        } else {
            main.iterate::<false>(b, c, root, limits, start, progress)
        };
        self.nodes = main.nodes;
        report
    }

    /// With more than one thread, the helpers' alpha-beta over `root` (see
    /// [`Worker::help`]) on copies of `b`, until the search is done or `limits` stop it.
    fn start_helpers(
        &mut self,
        b: &Board,
        c: Color,
        root: &[Cand],
        limits: &Limits,
    ) -> Option<Helpers> {
        let threads = self.config.threads.max(1);
        if threads == 1 || root.is_empty() {
            return None;
        }
        let shared = Arc::new(Shared {
            main_depth: AtomicU32::new(0),
            busy: Busy::new(),
        });
        // A child token: the helpers stop when the main thread is done, or with the search.
        let limits = limits.phase(limits.deadline);
        let config = Arc::new(self.config.clone());
        let peek_leaves = self.peek_leaves;
        let handles = (1..threads)
            .map(|_| {
                // The main thread keeps the first lists; helpers reuse the others.
                let mut lists = if self.lists.len() > 1 {
                    self.lists.pop().expect("more than one")
                } else {
                    ply_lists()
                };
                let (config, tt, shared, limits) = (
                    config.clone(),
                    self.tt.clone(),
                    shared.clone(),
                    limits.clone(),
                );
                let mut board = b.clone();
                let mut moves = root.to_vec();
                std::thread::spawn(move || {
                    let mut w = Worker {
                        config: &config,
                        tt: &tt,
                        cands: &mut lists,
                        nodes: 0,
                        aborted: false,
                        peek_leaves,
                        shared: Some(&shared),
                        helper_depth: Some(0),
                        stale: false,
                    };
                    w.help(&mut board, c, &mut moves, &limits);
                    let nodes = w.nodes;
                    (lists, nodes)
                })
            })
            .collect();
        Some(Helpers {
            shared,
            stop: limits.stop,
            handles,
        })
    }
}

/// What the search threads share besides the table (with more than one thread).
struct Shared {
    /// The iteration the main thread is in: a helper drops an iteration the main thread
    /// has passed.
    main_depth: AtomicU32,
    /// The moves being searched (ABDADA).
    busy: Busy,
}

/// Nodes at least this deep mark the moves they search as busy, and put off moves another
/// thread is searching: below, a subtree costs less than the marks.
const BUSY_DEPTH: u32 = 2;
/// Iterations a helper may search past the deepest one the main thread will: the main
/// thread still finds those entries in the table.
const HELPER_EXTRA_DEPTH: u32 = 4;

/// The (node, move) pairs some thread is searching, one per slot (a newer one overwrites;
/// a lost mark only costs a duplicated search).
struct Busy {
    slots: Box<[AtomicU64]>,
}

impl Busy {
    const SLOTS: usize = 1 << 14;

    fn new() -> Busy {
        Busy {
            slots: (0..Self::SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, k: u64) -> &AtomicU64 {
        &self.slots[(k >> 50) as usize & (Self::SLOTS - 1)]
    }

    #[inline]
    fn is_busy(&self, k: u64) -> bool {
        self.slot(k).load(Relaxed) == k
    }

    #[inline]
    fn enter(&self, k: u64) {
        self.slot(k).store(k, Relaxed);
    }

    #[inline]
    fn leave(&self, k: u64) {
        let _ = self.slot(k).compare_exchange(k, 0, Relaxed, Relaxed);
    }
}

/// The key of move `p` at the node of key `node`, for [`Busy`].
#[inline]
fn move_key(node: u64, p: Point) -> u64 {
    node ^ (p as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The helper threads of one search.
struct Helpers {
    shared: Arc<Shared>,
    /// Stops the helpers (a child of the search's token).
    stop: StopToken,
    /// Each returns its candidate lists and its node count.
    handles: Vec<JoinHandle<(Vec<Vec<Cand>>, u64)>>,
}

impl Helpers {
    /// Stops and joins the helpers: their candidate lists and their nodes.
    fn finish(self) -> (Vec<Vec<Vec<Cand>>>, u64) {
        self.stop.stop();
        let mut lists = Vec::new();
        let mut nodes = 0;
        for h in self.handles {
            let (l, n) = h.join().expect("a search thread panicked");
            lists.push(l);
            nodes += n;
        }
        (lists, nodes)
    }
}

/// One search thread's alpha-beta: its own node count and candidate lists, the settings
/// and the transposition table shared by reference.
struct Worker<'a> {
    config: &'a SearchConfig,
    tt: &'a Tt,
    cands: &'a mut Vec<Vec<Cand>>,
    nodes: u64,
    aborted: bool,
    peek_leaves: bool,
    shared: Option<&'a Shared>,
    /// A helper's current iteration: it is dropped once the main thread is deeper.
    helper_depth: Option<u32>,
    /// The last stop was for a dropped iteration, not the search's end.
    stale: bool,
}

/// Candidate lists for every ply of one thread.
fn ply_lists() -> Vec<Vec<Cand>> {
    (0..MAX_PLY).map(|_| Vec::with_capacity(512)).collect()
}

/// The root moves the alpha-beta searches first (`root` keeps them) and those it adds
/// once every one of them loses (returned; none without threats).
fn split_root(config: &SearchConfig, root: &mut Vec<Cand>) -> Vec<Cand> {
    let width = config.width.max(1);
    let kept = root
        .len()
        .min(width.max(if config.threats { 16 } else { width }));
    // The full engine searches the moves past the root's width too once all those
    // within it lose: a move the width left out may hold.
    if config.threats {
        root.split_off(kept)
    } else {
        root.truncate(kept);
        Vec::new()
    }
}

impl Worker<'_> {
    /// The main thread's iterative deepening: its result is the search's.
    fn iterate<const SMP: bool>(
        &mut self,
        b: &mut Board,
        c: Color,
        root: &mut Vec<Cand>,
        limits: &Limits,
        start: Instant,
        progress: Progress<'_, SearchReport>,
    ) -> SearchReport {
        let mut rest = split_root(self.config, root);
        let mut best = root[0].p;
        let mut best_score = 0;
        let mut done_depth = 0;
        let mut poller = limits.poller();
        let mut depth = 0;
        while depth < self.config.max_depth {
            depth += 1;
            if depth > 1 && !limits.may_start_iteration(self.nodes) {
                break;
            }
            if let Some(shared) = self.shared {
                shared.main_depth.store(depth, Relaxed);
            }
            if let Some((i, p, score)) = self.root_pass::<SMP>(b, c, root, depth, &mut poller) {
                // A partial iteration is used only if its best move beat the previous one
                // in a full-window search, which PVS guarantees for any improvement.
                best = p;
                best_score = score;
                let m = root.remove(i);
                root.insert(0, m);
            }
            if self.aborted {
                break;
            }
            done_depth = depth;
            tracing::debug!(depth, score = best_score, nodes = self.nodes, "iteration");
            progress(&SearchReport {
                best,
                score: best_score,
                depth,
                nodes: self.nodes,
                main_nodes: self.nodes,
                elapsed: start.elapsed(),
                source: "alphabeta",
            });
            if best_score <= -MATE_BOUND && !rest.is_empty() {
                root.append(&mut rest);
                depth -= 1;
                continue;
            }
            if best_score.abs() >= MATE_BOUND {
                break;
            }
        }
        SearchReport {
            best,
            score: best_score,
            depth: done_depth,
            nodes: self.nodes,
            main_nodes: self.nodes,
            elapsed: start.elapsed(),
            source: "alphabeta",
        }
    }

    /// A helper thread's iterative deepening (lazy SMP with ABDADA's busy moves): the same
    /// root, filling the shared table, each iteration at least the main thread's depth
    /// (the threads split its moves through [`Busy`]), dropped when the main thread
    /// passes it; until `limits` stop it.
    fn help(&mut self, b: &mut Board, c: Color, root: &mut Vec<Cand>, limits: &Limits) {
        let Some(shared) = self.shared else {
            return;
        };
        let mut rest = split_root(self.config, root);
        let mut poller = limits.poller();
        let mut depth = 0;
        loop {
            let main = shared.main_depth.load(Relaxed);
            depth = (depth + 1).max(main);
            if depth
                > self
                    .config
                    .max_depth
                    .saturating_add(HELPER_EXTRA_DEPTH)
                    .min(100)
            {
                break;
            }
            self.helper_depth = Some(depth);
            let mut best_score = 0;
            if let Some((i, _, score)) = self.root_pass::<true>(b, c, root, depth, &mut poller) {
                best_score = score;
                let m = root.remove(i);
                root.insert(0, m);
            }
            if self.aborted {
                if self.stale {
                    self.aborted = false;
                    self.stale = false;
                    continue;
                }
                break;
            }
            if best_score <= -MATE_BOUND && !rest.is_empty() {
                root.append(&mut rest);
                depth -= 1;
                continue;
            }
            if best_score.abs() >= MATE_BOUND {
                break;
            }
        }
    }

    /// Whether this helper's iteration is one the main thread has passed (then it sets
    /// `stale`).
    #[inline]
    fn stale(&mut self) -> bool {
        if let (Some(d), Some(shared)) = (self.helper_depth, self.shared) {
            if shared.main_depth.load(Relaxed) > d {
                self.stale = true;
                return true;
            }
        }
        false
    }

    /// One iteration over the root moves at `depth` (PVS, full window): the index, move
    /// and score of the best one that beat the moves before it, if any did before a stop.
    /// With `SMP`, a move another thread is searching waits until the others are done.
    fn root_pass<const SMP: bool>(
        &mut self,
        b: &mut Board,
        c: Color,
        root: &[Cand],
        depth: u32,
        poller: &mut Poller,
    ) -> Option<(usize, Point, i32)> {
        let mut alpha = -MATE - 1;
        let beta = MATE + 1;
        let mut iter_best = None;
        let node = b.hash() ^ side_key(c);
        let busy = self
            .shared
            .map(|s| &s.busy)
            .filter(|_| SMP && depth >= BUSY_DEPTH);
        let mut deferred: u64 = 0;
        let mut i = 0;
        let mut revisit = false;
        loop {
            let idx = if revisit && deferred != 0 {
                let j = deferred.trailing_zeros() as usize;
                deferred &= deferred - 1;
                j
            } else if i < root.len() {
                i += 1;
                i - 1
            } else if deferred != 0 {
                revisit = true;
                continue;
            } else {
                break;
            };
            let m = root[idx];
            let mk = move_key(node, m.p);
            if let Some(busy) = busy {
                if !revisit && idx > 0 && idx < 64 && busy.is_busy(mk) {
                    deferred |= 1 << idx;
                    continue;
                }
                busy.enter(mk);
            }
            b.place(m.p, c);
            let score = if b.makes_five_now(m.p, c) {
                MATE - 1
            } else if idx == 0 {
                -self.negamax::<SMP>(b, c.opponent(), depth - 1, -beta, -alpha, 1, poller)
            } else {
                let mut s =
                    -self.negamax::<SMP>(b, c.opponent(), depth - 1, -alpha - 1, -alpha, 1, poller);
                if s > alpha && !self.aborted {
                    s = -self.negamax::<SMP>(b, c.opponent(), depth - 1, -beta, -alpha, 1, poller);
                }
                s
            };
            b.undo();
            if let Some(busy) = busy {
                busy.leave(mk);
            }
            if self.aborted {
                break;
            }
            if score > alpha {
                alpha = score;
                iter_best = Some((idx, m.p, score));
            }
        }
        iter_best
    }

    /// Value for `c` to move; the previous move did not win. `SMP`: other threads search
    /// the same tree (see [`Shared`]).
    #[allow(clippy::too_many_arguments)]
    fn negamax<const SMP: bool>(
        &mut self,
        b: &mut Board,
        c: Color,
        mut depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        poller: &mut Poller,
    ) -> i32 {
        self.nodes += 1;
        if poller.poll(self.nodes) || (SMP && self.nodes.is_multiple_of(1024) && self.stale()) {
            self.aborted = true;
            return 0;
        }
        if b.is_full() {
            return 0;
        }
        if depth == 0 && b.rule() == Rule::Freestyle {
            let sums = [b.eval_sum(Color::Black), b.eval_sum(Color::White)];
            let fours = [b.four_windows(Color::Black), b.four_windows(Color::White)];
            if let Some(v) = leaf_value(sums, fours, c, ply, self.config.threats) {
                return self.with_patterns(b, c, v);
            }
        }
        let mut cands = std::mem::take(&mut self.cands[ply]);
        let s = scan(b, c, &mut cands);
        if let Some(_w) = s.win {
            self.cands[ply] = cands;
            return MATE - ply as i32 - 1;
        }
        if s.n_blocks > 0 {
            let blocks = s.blocks;
            let nb = s.n_blocks;
            cands.retain(|m| blocks[..nb].contains(&m.p));
            if cands.is_empty() {
                // The only block is forbidden for a renju Black.
                self.cands[ply] = cands;
                return -(MATE - ply as i32 - 2);
            }
            if nb >= 2 {
                self.cands[ply] = cands;
                return -(MATE - ply as i32 - 2);
            }
            if depth == 0 && self.config.threats && ply + 2 < MAX_PLY {
                // Quiescence: a four on the horizon is answered, so a leaf is never valued
                // in the middle of a forcing line (the block may make a four in turn).
                depth = 1;
            }
        }
        if depth == 0 || ply + 1 >= MAX_PLY {
            self.cands[ply] = cands;
            return self.with_patterns(b, c, evaluate(b, c));
        }
        if s.opp_double && s.n_blocks == 0 && self.config.threats {
            keep_defences(&mut cands);
        }
        let key = b.hash() ^ side_key(c);
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
            tt_move = Some(e.mv);
            let sc = from_tt(e.score, ply);
            if e.depth as u32 >= depth {
                match e.bound {
                    Bound::Exact => {
                        self.cands[ply] = cands;
                        return sc;
                    }
                    Bound::Lower if sc >= beta => {
                        self.cands[ply] = cands;
                        return sc;
                    }
                    Bound::Upper if sc <= alpha => {
                        self.cands[ply] = cands;
                        return sc;
                    }
                    _ => {}
                }
            }
        }
        if cands.is_empty() {
            self.cands[ply] = cands;
            return -(MATE - ply as i32 - 2);
        }
        if self.config.patterns {
            add_pattern_scores(b, c, &mut cands);
        }
        // Order: TT move first, then by point score; keep the width.
        let width = self.config.width.max(1);
        let total = cands.len();
        let mut limit = width.min(total);
        if total > limit {
            cands.select_nth_unstable_by(limit - 1, |a, x| x.score.cmp(&a.score));
        }
        cands[..limit].sort_unstable_by_key(|m| std::cmp::Reverse(m.score));
        if let Some(t) = tt_move {
            if let Some(i) = cands.iter().position(|m| m.p == t) {
                let m = cands.remove(i);
                cands.insert(0, m);
            }
        }
        // When every move within the width loses, the full engine tries every candidate
        // before it gives the node up: a loss is a proof, and a proof against the width's
        // best-looking defences only claimed wins that did not exist
        // (proof_tests.rs holds a position where the only defence ranks below the width).
        let mut widened = !self.config.threats;
        let alpha0 = alpha;
        let mut best = -MATE - 1;
        let mut best_move = cands[0].p;
        // Children that are freestyle leaves are valued from `Board::peek` (and
        // `Board::peek_counts` for the pattern evaluation), without placing the stone:
        // most nodes are leaves, and place/undo was half the time.
        let peek_leaves = depth == 1
            && self.peek_leaves
            && b.rule() == Rule::Freestyle
            && b.stone_count() + 1 < b.size() * b.size();
        if SMP {
            // ABDADA: a move another thread is searching at this node waits until the
            // others are done (it may be in the table by then); the first never waits.
            let node = key;
            let busy = self.shared.map(|s| &s.busy).filter(|_| depth >= BUSY_DEPTH);
            let mut i = 0;
            let mut deferred: u32 = 0;
            let mut revisit = false;
            loop {
                let idx = if revisit && deferred != 0 {
                    let j = deferred.trailing_zeros() as usize;
                    deferred &= deferred - 1;
                    j
                } else if i < limit {
                    revisit = false;
                    i += 1;
                    i - 1
                } else if deferred != 0 {
                    revisit = true;
                    continue;
                } else if !widened && best <= -MATE_BOUND && total > limit {
                    widened = true;
                    cands[limit..].sort_unstable_by_key(|m| std::cmp::Reverse(m.score));
                    limit = total;
                    continue;
                } else {
                    break;
                };
                let p = cands[idx].p;
                let mk = move_key(node, p);
                if let Some(busy) = busy {
                    if !revisit && idx > 0 && idx < 32 && busy.is_busy(mk) {
                        deferred |= 1 << idx;
                        continue;
                    }
                }
                let score = self.child::<SMP>(
                    b,
                    c,
                    p,
                    idx == 0,
                    (depth, alpha, beta, ply),
                    poller,
                    peek_leaves,
                    busy.map(|t| (t, mk)),
                );
                if self.aborted {
                    self.cands[ply] = cands;
                    return 0;
                }
                if score > best {
                    best = score;
                    best_move = p;
                }
                if score > alpha {
                    alpha = score;
                }
                if alpha >= beta {
                    break;
                }
            }
        } else {
            let mut i = 0;
            while i < limit {
                let p = cands[i].p;
                let score = self.child::<SMP>(
                    b,
                    c,
                    p,
                    i == 0,
                    (depth, alpha, beta, ply),
                    poller,
                    peek_leaves,
                    None,
                );
                if self.aborted {
                    self.cands[ply] = cands;
                    return 0;
                }
                if score > best {
                    best = score;
                    best_move = p;
                }
                if score > alpha {
                    alpha = score;
                }
                if alpha >= beta {
                    break;
                }
                i += 1;
                if i == limit && !widened && best <= -MATE_BOUND && total > limit {
                    widened = true;
                    cands[limit..].sort_unstable_by_key(|m| std::cmp::Reverse(m.score));
                    limit = total;
                }
            }
        }
        self.cands[ply] = cands;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, to_tt(best, ply), depth as u8, bound, best_move);
        best
    }

    /// The value for `c` of playing `p` at a node of `depth` (window `alpha`, `beta`) at
    /// `ply`: a peeked leaf, or the child searched (PVS: `first` gets the full window).
    /// With `busy`, the move is marked as being searched meanwhile.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn child<const SMP: bool>(
        &mut self,
        b: &mut Board,
        c: Color,
        p: Point,
        first: bool,
        (depth, alpha, beta, ply): (u32, i32, i32, usize),
        poller: &mut Poller,
        peek_leaves: bool,
        busy: Option<(&Busy, u64)>,
    ) -> i32 {
        let o = c.opponent();
        let leaf = if peek_leaves {
            let (sums, fours) = b.peek(p, c);
            leaf_value(sums, fours, o, ply + 1, self.config.threats).map(|v| {
                // As `with_patterns` values the child.
                if self.config.patterns && v.abs() < MATE_BOUND {
                    v + pattern_value(self.config, &b.peek_counts(p, c), o)
                } else {
                    v
                }
            })
        } else {
            None
        };
        if let Some(v) = leaf {
            self.nodes += 1;
            if poller.poll(self.nodes) {
                self.aborted = true;
            }
            return -v;
        }
        if let Some((t, k)) = busy {
            t.enter(k);
        }
        b.place(p, c);
        let score = if first {
            -self.negamax::<SMP>(b, o, depth - 1, -beta, -alpha, ply + 1, poller)
        } else {
            let mut s = -self.negamax::<SMP>(b, o, depth - 1, -alpha - 1, -alpha, ply + 1, poller);
            if s > alpha && s < beta && !self.aborted {
                s = -self.negamax::<SMP>(b, o, depth - 1, -beta, -alpha, ply + 1, poller);
            }
            s
        };
        b.undo();
        if let Some((t, k)) = busy {
            t.leave(k);
        }
        score
    }

    /// `v` (a static value for `c` to move) with the line-pattern evaluation added, for
    /// the full engine; proved wins and losses are left as they are.
    #[inline]
    fn with_patterns(&self, b: &Board, c: Color, v: i32) -> i32 {
        if self.config.patterns && v.abs() < MATE_BOUND {
            v + pattern_value(self.config, b.counts(), c)
        } else {
            v
        }
    }
}

/// The line-pattern part of the evaluation for `c` to move from `counts`: the code tables'
/// sums when `config` has them (the board keeps them), else the class weights.
#[inline(always)]
fn pattern_value(config: &SearchConfig, counts: &PatternCounts, c: Color) -> i32 {
    if let Some(table) = config.codes.as_deref() {
        code_eval_counts(counts, c, table)
    } else {
        threat_eval_counts(counts, c, &config.eval)
    }
}

/// The value of a freestyle depth-0 node for `c` to move, from the window sums and open
/// four-window counts of both colours (indexed by [`Color::index`]): a four window of the
/// mover is a five to complete. None when the opponent has two or more four windows (maybe
/// two fives to block), or with `quiesce` any four window (the full engine answers a four
/// on the horizon instead of valuing the position): the node then needs a scan.
#[inline]
fn leaf_value(sums: [i32; 2], fours: [u16; 2], c: Color, ply: usize, quiesce: bool) -> Option<i32> {
    if fours[c.index()] > 0 {
        return Some(MATE - ply as i32 - 1);
    }
    if fours[c.opponent().index()] > u16::from(!quiesce) {
        return None;
    }
    Some(evaluate_sums(sums[c.index()], sums[c.opponent().index()]))
}

fn side_key(c: Color) -> u64 {
    match c {
        Color::Black => 0,
        Color::White => 0xA5A5_5A5A_C3C3_3C3C,
    }
}

/// Mate scores are stored relative to the node, read back relative to the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Every empty point `c` may play, unscored (used only when all scanned moves are
/// forbidden); every empty point if even those are all forbidden.
fn scan_all(b: &mut Board, c: Color, out: &mut Vec<Cand>) {
    out.clear();
    let renju_black = b.rule() == Rule::Renju && c == Color::Black;
    let empty: Vec<Point> = b.points().filter(|&p| b.is_empty(p)).collect();
    for &p in &empty {
        if !(renju_black && b.is_forbidden(p)) {
            out.push(Cand {
                p,
                score: 0,
                threat: 0,
            });
        }
    }
    if out.is_empty() {
        out.extend(empty.into_iter().map(|p| Cand {
            p,
            score: 0,
            threat: 0,
        }));
    }
}

impl Board {
    /// Whether the stone just placed at `p` by `c` won (the stone is on the board).
    pub fn makes_five_now(&self, p: Point, c: Color) -> bool {
        (0..4).any(|d| self.rule().wins(c, self.run(p, d, c)))
    }
}
