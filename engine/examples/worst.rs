//! The worst settings: a property-based search over every case's parameter
//! space for the runs that take the longest and keep the most memory, to check
//! the work budget (`run::budget`) against the real targets (≤ 1 s natively,
//! ≤ 2 s in wasm, under 64 MB).
//!
//! `cargo run --release -p slowpath-engine --example worst [samples] [seed]`
//! draws `samples` random valid settings per case (default 120), edges favoured
//! (`ParamValues::drawn`), then mutates the slowest few one parameter at a time,
//! and prints the worst found as command lines. The findings are kept in
//! `engine/benches/worst-settings.txt`, which `cargo xtask bench` times
//! natively and in wasm.

use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::rng::Rng;
use slowpath_engine::{run_checked, simulations, Case};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Counts live and peak heap bytes, so that a run's peak memory is measured, not guessed.
struct Counting;
static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);
static PEAK_BYTES: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE_BYTES.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK_BYTES.fetch_max(live, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE_BYTES.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

struct Trial {
    variant: &'static str,
    params: ParamValues,
    ms: f64,
    peak_mb: f64,
    steps: u64,
    outcome: String,
}

fn measure(case: &dyn Case, variant: &'static str, params: ParamValues) -> Trial {
    let before = LIVE_BYTES.load(Ordering::Relaxed);
    PEAK_BYTES.store(before, Ordering::Relaxed);
    let started = Instant::now();
    let run = run_checked(case, &params, variant, 1).expect("drawn settings are valid");
    let ms = started.elapsed().as_secs_f64() * 1e3;
    let peak_mb = (PEAK_BYTES.load(Ordering::Relaxed) - before) as f64 / 1e6;
    let outcome = run.outcome.limit_text().map_or_else(
        || format!("{:?}", run.outcome),
        |_| format!("{:?}", run.outcome).split_whitespace().next().unwrap_or("").to_string(),
    );
    Trial { variant, params, ms, peak_mb, steps: run.simulated_steps, outcome }
}

fn command_line(case: &dyn Case, trial: &Trial) -> String {
    let meta = case.meta();
    let mut line = format!("{} {}", meta.id, trial.variant);
    for (name, text) in trial.params.non_default_pairs(meta.params) {
        line.push_str(&format!(" {name}={text}"));
    }
    line
}

fn main() {
    let mut args = std::env::args().skip(1);
    let samples: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(120);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut rng = Rng::new(seed);
    println!("# worst settings: {samples} samples per case, seed {seed}; time (ms), peak heap (MB), steps, outcome");
    for case in simulations() {
        let meta = case.meta();
        let mut trials: Vec<Trial> = Vec::new();
        for _ in 0..samples {
            let variant = meta.variants[rng.below(meta.variants.len() as u64) as usize].id;
            let params = ParamValues::drawn(meta.params, |bound| rng.below(bound));
            trials.push(measure(case, variant, params));
        }
        // Hill-climb from the slowest and the hungriest: redraw one parameter at a time.
        for round in 0..samples / 2 {
            trials.sort_by(|a, b| b.ms.total_cmp(&a.ms));
            let start = if round % 2 == 0 {
                &trials[(round as usize / 2) % trials.len().min(3)]
            } else {
                trials.iter().max_by(|a, b| a.peak_mb.total_cmp(&b.peak_mb)).expect("trials")
            };
            let variant = start.variant;
            let mut params = start.params.clone();
            let redrawn = ParamValues::drawn(meta.params, |bound| rng.below(bound));
            let spec = &meta.params[rng.below(meta.params.len() as u64) as usize];
            params.0.insert(spec.name.to_string(), redrawn.0[spec.name].clone());
            trials.push(measure(case, variant, params));
        }
        trials.sort_by(|a, b| b.ms.total_cmp(&a.ms));
        let hungriest = trials.iter().max_by(|a, b| a.peak_mb.total_cmp(&b.peak_mb)).expect("trials");
        for trial in trials.iter().take(3).chain(std::iter::once(hungriest)) {
            println!(
                "{:>8.1} ms {:>7.1} MB {:>10} steps  {:<12} {}",
                trial.ms,
                trial.peak_mb,
                trial.steps,
                trial.outcome,
                command_line(case, trial)
            );
        }
    }
}
