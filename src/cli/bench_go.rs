//! `quartet bench go`: light or heavy playouts per second on the empty board, one
//! thread; with `--threads N`, simulations per second of the tree search on N threads.
use clap::Args;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct BenchGoArgs {
    /// Board size (the empty board is played out or searched).
    #[arg(long, default_value_t = 9)]
    pub boardsize: usize,
    /// How long to run, in seconds (0 to 3600).
    #[arg(long, default_value_t = 5.0)]
    pub seconds: f64,
    /// Use the search's heavy playout policy instead of light random playouts.
    #[arg(long)]
    pub heavy: bool,
    /// Run the whole search (one tree shared by this many threads, 1 to 256) instead of
    /// bare playouts; a list (`1,2`) runs each in turn and compares its rate with the
    /// first's. Unset: bare playouts on one thread.
    #[arg(long, value_delimiter = ',')]
    pub threads: Vec<usize>,
    /// Seed of the random numbers.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Tree priors of the `--threads` search, as `quartet go --priors` (`mm`, `classic`
    /// or `mm-replace`).
    #[arg(long, default_value = "mm")]
    pub priors: String,
    /// Weights file for `--priors mm*`; unset: the built-in one.
    #[arg(long)]
    pub mm_weights: Option<String>,
    /// A policy and value network's weights: alone, time its evaluations per second on
    /// one thread over positions part way through random games; with `--threads`, search
    /// with its priors in the tree (as `quartet go --net`).
    #[arg(long, conflicts_with = "heavy")]
    pub net: Option<std::path::PathBuf>,
    /// Virtual wins of the network's likeliest move in the `--threads` search.
    #[arg(long, default_value_t = 30.0)]
    pub net_weight: f32,
}

pub fn run(a: BenchGoArgs) -> Result<(), String> {
    if !crate::go::board::valid_size(a.boardsize) {
        return Err(format!("unacceptable board size {}", a.boardsize));
    }
    if !(a.seconds > 0.0 && a.seconds <= 3600.0) {
        return Err("--seconds must be in (0, 3600]".into());
    }
    let (size, duration) = (a.boardsize, Duration::from_secs_f64(a.seconds));
    let net = match &a.net {
        Some(path) => Some(crate::go::net::Network::load(path)?),
        None => None,
    };
    if let (Some(net), true) = (net.as_ref(), a.threads.is_empty()) {
        let r = crate::go::bench::net_rate(size, duration, a.seed, net);
        println!(
            "go {size}x{size} network {net:?}: {} evaluations in {:.2} s = {:.0}/s ({:.0} per CPU-second, {:.3} ms each)",
            r.evaluations,
            r.seconds,
            r.evaluations as f64 / r.seconds,
            r.evaluations as f64 / r.cpu_seconds.max(1e-9),
            1000.0 * r.cpu_seconds / r.evaluations.max(1) as f64
        );
        return Ok(());
    }
    if !a.threads.is_empty() {
        if a.threads.iter().any(|&t| t == 0 || t > 256) {
            return Err("--threads must be between 1 and 256".into());
        }
        let params = crate::go::settings::SearchParams {
            model: super::go::prior_model(
                &a.priors,
                a.mm_weights.as_deref(),
                super::go::DEFAULT_MM_WEIGHT,
                false,
            )?,
            net: net.map(|net| {
                std::sync::Arc::new(crate::go::settings::TreeNet {
                    net,
                    weight: a.net_weight,
                    value_weight: 0.0,
                    visits: 8,
                })
            }),
            ..Default::default()
        };
        let mut first = None;
        for &threads in &a.threads {
            let r = crate::go::bench::search_rate(size, duration, threads, a.seed, &params);
            let rate = r.simulations as f64 / r.seconds;
            let ratio = match first {
                Some(f) => format!("; {:.2}x the first's rate", rate / f),
                None => String::new(),
            };
            first.get_or_insert(rate);
            println!(
                "go {size}x{size} search, {threads} thread(s): {} simulations in {:.2} s = {rate:.0}/s, {:.2} CPU-s ({:.0} per CPU-second), {} nodes{ratio}",
                r.simulations,
                r.seconds,
                r.cpu_seconds,
                r.simulations as f64 / r.cpu_seconds.max(1e-9),
                r.nodes
            );
        }
        return Ok(());
    }
    let r = crate::go::bench::playout_rate(size, duration, a.heavy, a.seed);
    println!(
        "go {size}x{size} {} playouts: {} in {:.2} s = {:.0} playouts/s ({:.0} per CPU-second of this thread), {:.1} stones at the end, black wins (komi 7.5) {:.1}%",
        if a.heavy { "heavy" } else { "light" },
        r.playouts,
        r.seconds,
        r.playouts as f64 / r.seconds,
        r.playouts as f64 / r.cpu_seconds.max(1e-9),
        r.moves as f64 / r.playouts as f64,
        100.0 * r.black_wins as f64 / r.playouts as f64
    );
    Ok(())
}
