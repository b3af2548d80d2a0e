//! `quartet gomoku`: the Gomoku engine over GTP, or with `--pbrain` over the Gomocup
//! protocol; and `quartet bench gomoku ...`.
use clap::{Args, Subcommand};

use crate::gomoku::bench;
use crate::gomoku::search::SearchConfig;
use crate::gomoku::weights::ClassWeights;

#[derive(Args, Debug)]
pub struct GomokuArgs {
    /// Speak the Gomocup (Piskvork) protocol instead of GTP.
    #[arg(long)]
    pub pbrain: bool,
    /// Candidate moves searched per node (the paper's width).
    #[arg(long, default_value_t = 10)]
    pub width: usize,
    /// Deepest search iteration (the paper's depth); the clock may stop earlier.
    #[arg(long, default_value_t = 64)]
    pub depth: u32,
    /// No VCF/VCT search and no VCF defence: the paper's plain window alpha-beta.
    #[arg(long)]
    pub no_threats: bool,
    /// No line patterns in the evaluation and move order (the window sums alone).
    #[arg(long)]
    pub no_patterns: bool,
    /// Where df-pn replaces the iterative-deepening VCT search: `attack` (the own and the
    /// opponent's VCT at the root), `defence` (the root defence against the opponent's VCT),
    /// `all` or `none`.
    #[arg(long, default_value = "none")]
    pub dfpn: String,
    /// Seconds per move when no time control was set.
    #[arg(long, default_value_t = 1.0)]
    pub move_time: f64,
    /// Milliseconds kept back from every move's time, besides 2.5% of it, for the lag
    /// between the controller's clock and ours (raise it when playing over a network).
    #[arg(long, default_value_t = crate::search::time::DEFAULT_LAG_BUFFER_MS)]
    pub lag_buffer: u64,
    /// Transposition table size in MiB: 1 to 65536, and (with the threat cache, half as
    /// much again) no more than the machine's memory.
    #[arg(long, default_value_t = 64)]
    pub hash_mb: usize,
    /// Search on the opponent's time: after each `genmove`, until the next command (GTP
    /// only).
    #[arg(long)]
    pub ponder: bool,
    /// Log level on stderr (error, warn, info, debug, trace); RUST_LOG also works.
    #[arg(long)]
    pub log_level: Option<String>,
    /// Weights of the line-pattern evaluation: `learnt` (data/gomoku/eval-v1.txt, built
    /// in), `classic` (the hand-set ones before it) or a weights file.
    #[arg(long, default_value = "learnt")]
    pub eval: String,
}

impl Default for GomokuArgs {
    fn default() -> Self {
        GomokuArgs {
            pbrain: true,
            width: 10,
            depth: 64,
            no_threats: false,
            no_patterns: false,
            dfpn: "none".into(),
            move_time: 1.0,
            lag_buffer: crate::search::time::DEFAULT_LAG_BUFFER_MS,
            hash_mb: 64,
            ponder: false,
            log_level: None,
            eval: "learnt".into(),
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum GomokuBench {
    /// Solve the puzzle file: freestyle wins under freestyle, renju ones under renju.
    Puzzles {
        file: std::path::PathBuf,
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        #[arg(long, default_value_t = 8)]
        width: usize,
    },
    /// Nodes per second of the plain alpha-beta from a fixed opening.
    Nps {
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        #[arg(long, default_value_t = 8)]
        width: usize,
        /// With the line-pattern evaluation and move order (as the full engine).
        #[arg(long)]
        patterns: bool,
    },
    /// Self-play games of the full engine at a fixed depth from random openings (15x15
    /// freestyle), appended to a binary positions file (format: src/gomoku/selfplay.rs).
    Selfplay {
        #[arg(long)]
        out: std::path::PathBuf,
        #[arg(long, default_value_t = 100)]
        games: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// Fewest and most random opening plies (in the central square).
        #[arg(long, default_value_t = 2)]
        min_random: usize,
        #[arg(long, default_value_t = 6)]
        max_random: usize,
        /// Seconds a move may take at most (the depth is the real limit).
        #[arg(long, default_value_t = 2.0)]
        move_cap: f64,
        /// Evaluation weights of the players (`classic`, `learnt` or a file).
        #[arg(long, default_value = "classic")]
        eval: String,
        /// Plain alpha-beta players (no VCF/VCT at the root): many times faster.
        #[arg(long)]
        no_threats: bool,
    },
    /// Fit the line-pattern class weights to `selfplay` files (logistic regression on the
    /// results blended with the search scores); prints the held-out errors, writes the
    /// weights file (format: src/gomoku/weights.rs).
    Train {
        #[arg(long, required = true, num_args = 1..)]
        positions: Vec<std::path::PathBuf>,
        #[arg(long)]
        out: std::path::PathBuf,
        /// Share of the game result in the target (the rest: the search score).
        #[arg(long, default_value_t = 0.5)]
        lambda: f64,
        /// L2 penalty on the standardised weights.
        #[arg(long, default_value_t = 1e-4)]
        l2: f64,
        /// Every N-th game is held out of the fit and measured.
        #[arg(long, default_value_t = 10)]
        holdout: usize,
        /// Write the fit over the cell classes alone (a version 1 file), not the one with
        /// the per-direction line categories; both are fitted and measured either way.
        #[arg(long)]
        no_lines: bool,
    },
}

fn config(args: &GomokuArgs) -> Result<SearchConfig, String> {
    if !(1..=400).contains(&args.width) {
        return Err("--width must be between 1 and 400".into());
    }
    if !(1..=100).contains(&args.depth) {
        return Err("--depth must be between 1 and 100".into());
    }
    if !(args.move_time > 0.0 && args.move_time <= 86_400.0) {
        return Err("--move-time must be in (0, 86400] seconds".into());
    }
    crate::search::time::set_lag_buffer(args.lag_buffer)?;
    let (dfpn_attack, dfpn_defence) = match args.dfpn.as_str() {
        "all" => (true, true),
        "attack" => (true, false),
        "defence" => (false, true),
        "none" => (false, false),
        _ => return Err("--dfpn must be all, attack, defence or none".into()),
    };
    // The threat cache takes half as much again as the table, the df-pn table a quarter.
    crate::memory::check_hash_mb(args.hash_mb, args.hash_mb as u64 * 7 / 4)?;
    Ok(SearchConfig {
        width: args.width,
        max_depth: args.depth,
        threats: !args.no_threats,
        patterns: !args.no_threats && !args.no_patterns,
        tt_mb: args.hash_mb,
        eval: ClassWeights::load(&args.eval)?,
        dfpn_attack,
        dfpn_defence,
    })
}

pub fn run(args: GomokuArgs) -> Result<(), String> {
    crate::logging::init_logging(args.log_level.as_deref())?;
    let cfg = config(&args)?;
    let move_time = std::time::Duration::from_secs_f64(args.move_time);
    if args.pbrain && args.ponder {
        return Err("--ponder is for the GTP mode; the pbrain mode does not ponder".into());
    }
    if args.pbrain {
        crate::gomoku::pbrain::run_stdio(cfg, move_time).map_err(|e| format!("i/o error: {e}"))
    } else {
        let engine = crate::gomoku::gtp::GomokuEngine::new(cfg, move_time).with_ponder(args.ponder);
        crate::protocol::run_stdio(engine).map_err(|e| format!("i/o error: {e}"))
    }
}

pub fn bench(what: GomokuBench) -> Result<(), String> {
    match what {
        GomokuBench::Puzzles {
            file,
            seconds,
            width,
        } => {
            if !(seconds > 0.0 && seconds <= 3600.0) || width == 0 {
                return Err("--seconds must be in (0, 3600], --width at least 1".into());
            }
            let text = std::fs::read_to_string(&file)
                .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            let cfg = SearchConfig {
                width,
                ..SearchConfig::default()
            };
            let results = bench::run_puzzles(&text, seconds, &cfg)?;
            let mut solved = 0;
            for r in &results {
                solved += r.solved as usize;
                println!(
                    "{:<32} {:<9} {:<4} {:<7} {:<11} {:>6} ms {:>9} nodes",
                    r.name,
                    r.rule.name(),
                    r.played,
                    if r.solved { "solved" } else { "MISSED" },
                    r.source,
                    r.elapsed.as_millis(),
                    r.nodes
                );
            }
            println!("solved {solved}/{}", results.len());
            Ok(())
        }
        GomokuBench::Selfplay {
            out,
            games,
            seed,
            depth,
            min_random,
            max_random,
            move_cap,
            eval,
            no_threats,
        } => {
            if !(1..=20).contains(&depth) || min_random > max_random || max_random > 40 {
                return Err("--depth 1..=20, --min-random <= --max-random <= 40".into());
            }
            if !(move_cap > 0.0 && move_cap <= 3600.0) {
                return Err("--move-cap must be in (0, 3600] seconds".into());
            }
            let cfg = crate::gomoku::selfplay::SelfPlay {
                size: 15,
                random_plies: min_random..=max_random,
                depth,
                move_cap: std::time::Duration::from_secs_f64(move_cap),
                weights: ClassWeights::load(&eval)?,
                threats: !no_threats,
            };
            crate::gomoku::selfplay::run(&out, games, seed, &cfg)
        }
        GomokuBench::Train {
            positions,
            out,
            lambda,
            l2,
            holdout,
            no_lines,
        } => {
            if !(0.0..=1.0).contains(&lambda) || !(0.0..=1.0).contains(&l2) || holdout < 2 {
                return Err("--lambda and --l2 in [0, 1], --holdout at least 2".into());
            }
            let mut all = Vec::new();
            let mut games = 0;
            for f in &positions {
                let data = std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?;
                let (size, recs) = crate::gomoku::selfplay::read(&data)
                    .map_err(|e| format!("{}: {e}", f.display()))?;
                games += recs.len();
                all.extend(crate::gomoku::train::samples(size, &recs, holdout));
            }
            eprintln!("train: {games} games, {} positions kept", all.len());
            let fitted = crate::gomoku::train::train(&all, lambda, l2, !no_lines)?;
            for l in &fitted.report {
                println!("{l}");
            }
            let files: Vec<String> = positions.iter().map(|p| p.display().to_string()).collect();
            let comment = format!(
                "quartet bench gomoku train --lambda {lambda} --l2 {l2} --holdout {holdout}{} on {games} games: {}\n{}",
                if no_lines { " --no-lines" } else { "" },
                files.join(" "),
                fitted.report.join("\n")
            );
            let text = fitted.weights.to_text(&comment);
            print!("{text}");
            std::fs::write(&out, text).map_err(|e| format!("{}: {e}", out.display()))
        }
        GomokuBench::Nps {
            seconds,
            width,
            patterns,
        } => {
            if !(seconds > 0.0 && seconds <= 3600.0) || width == 0 {
                return Err("--seconds must be in (0, 3600], --width at least 1".into());
            }
            let (nodes, secs, depth) = bench::nps(seconds, width, patterns);
            let with = if patterns { " with patterns" } else { "" };
            println!(
                "gomoku 15x15 alpha-beta width {width}{with}: {nodes} nodes in {secs:.2} s = {:.0} nodes/s (depth {depth})",
                nodes as f64 / secs
            );
            Ok(())
        }
    }
}
