//! The native half of `cargo xtask bench`'s wasm/native ratio: times one run given
//! as the browser benchmark's query (`run=<case>&v=<variant>&<param>=<value>…`),
//! ten times as the page `#/__perf` does in wasm (`run::timing`), and prints
//! `first_ms median_ms fastest_ms` (the median and the fastest of the nine after the first).
//! `cargo run --profile bench -p slowpath-engine --example native_time -- 'run=fifo-trigger&duration=60s'`
#[path = "../tests/common.rs"]
mod common;

use slowpath_engine::{run_checked, simulation};
use std::time::Instant;

fn main() {
    let query = std::env::args().nth(1).unwrap_or_default();
    let pairs: Vec<(&str, &str)> = query.split('&').filter_map(|pair| pair.split_once('=')).collect();
    let lookup = |key: &str| pairs.iter().find(|(k, _)| *k == key).map(|&(_, v)| v);
    let Some(case) = lookup("run").and_then(simulation) else {
        eprintln!("native_time: no case in {query:?}");
        std::process::exit(2);
    };
    let meta = case.meta();
    let variant = lookup("v").unwrap_or(meta.default_variant().id);
    let mut params = meta.default_params();
    for &(key, value) in &pairs {
        if key == "run" || key == "v" {
            continue;
        }
        let Some(spec) = meta.params.iter().find(|spec| spec.name == key) else {
            eprintln!("native_time: {} has no parameter {key}", meta.id);
            std::process::exit(2);
        };
        match spec.parse_exact(&common::percent_decoded(value)) {
            Ok(parsed) => {
                params.0.insert(key.to_string(), parsed);
            }
            Err(error) => {
                eprintln!("native_time: {key}={value}: {error}");
                std::process::exit(2);
            }
        }
    }
    let clock = Instant::now();
    let mut failure = None;
    let times_ms = slowpath_engine::run::timing::sample_runs_ms(
        || clock.elapsed().as_secs_f64() * 1000.0,
        || {
            if let Err(error) = run_checked(case, &params, variant, 1) {
                failure.get_or_insert(error);
            }
        },
        10,
    );
    if let Some(error) = failure {
        eprintln!("native_time: {error:?}");
        std::process::exit(1);
    }
    let first_ms = times_ms[0];
    let later = &times_ms[1..];
    let median_ms = slowpath_engine::run::measured::median(later.to_vec()).unwrap_or(first_ms);
    let fastest_ms = later.iter().copied().fold(f64::INFINITY, f64::min);
    println!("{first_ms:.3} {median_ms:.3} {fastest_ms:.3}");
}
