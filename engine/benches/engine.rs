//! Engine benchmarks (divan), run by `cargo xtask bench`. Budgets from the
//! issues: ≤ 50 ns per micro-step, seek ≤ 1 ms into a run of 10^8 iterations.
//! They are reported, never asserted.

#[path = "../tests/common.rs"]
mod common;

use divan::Bencher;
use slowpath_engine::run::trace::Cursor;
use slowpath_engine::{run_checked, simulation, Run};
use std::sync::OnceLock;

fn main() {
    divan::main();
}

fn playground() -> &'static Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(|| {
        let case = simulation("rwsem-playground").expect("registered");
        let mut params = case.meta().default_params();
        params.0.insert("duration".into(), slowpath_engine::ParamValue::Unsigned(1_000_000_000));
        run_checked(case, &params, "v6.13", 1).expect("runs")
    })
}

fn hundred_million() -> &'static Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(|| common::synthetic_repeat_run(100_000_000))
}

/// Stepping forward one micro-op at a time over the whole playground run; divan
/// reports time per run, divided here into time per step by `counter`.
#[divan::bench]
fn micro_step_playground(bencher: Bencher) {
    let run = playground();
    let total = run.total_ops();
    bencher.counter(divan::counter::ItemsCount::new(total)).bench(|| {
        let mut cursor = Cursor::new(run);
        while cursor.step() {}
        divan::black_box(cursor.world().now_ns)
    });
}

/// Seeking to an arbitrary position inside a 10^8-iteration repeat, state and view.
#[divan::bench]
fn seek_into_hundred_million_iterations(bencher: Bencher) {
    let run = hundred_million();
    let mut next = 12_345_678_901u64;
    bencher.bench_local(|| {
        next = next.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let position = next % run.total_ops();
        divan::black_box(run.view(position))
    });
}

/// Every registered case's default run, from scratch: a new case is benchmarked
/// with no line here (the benchmarks below are particular settings worth timing).
#[divan::bench(args = slowpath_engine::simulations().map(|case| case.meta().id))]
fn default_run(id: &str) -> Run {
    let case = simulation(id).expect("registered");
    let meta = case.meta();
    run_checked(case, &meta.default_params(), meta.default_variant().id, 1).expect("runs")
}

/// The complete 1 TiB v6.13 sparse dump (268,435,456 pages), computed in closed form.
#[divan::bench]
fn sparse_dump_1tib_v613() -> Run {
    let case = simulation("sparse-dump").expect("registered");
    run_checked(case, &case.meta().default_params(), "v6.13", 1).expect("runs")
}

/// Seeking to page 200,000,000 of that dump and expanding its micro-ops.
#[divan::bench]
fn sparse_dump_seek_iteration_200m(bencher: Bencher) {
    static RUN: OnceLock<Run> = OnceLock::new();
    let run = RUN.get_or_init(sparse_dump_1tib_v613);
    bencher.bench_local(|| {
        let (first, end) =
            run.unit_ops(slowpath_engine::run::trace::Granularity::Iteration, 200_000_000).expect("exists");
        let ops: Vec<_> = (first..end).filter_map(|index| run.op(index)).collect();
        divan::black_box((run.view(end), ops))
    });
}

/// One simulated minute of the FIFO trigger on 2.6.1 (both passes: the writes, then the trace).
#[divan::bench]
fn fifo_trigger_60s_2_6_1() -> Run {
    fifo_minute("2.6.1")
}

/// The same minute on 2.4.24.
#[divan::bench]
fn fifo_trigger_60s_2_4_24() -> Run {
    fifo_minute("2.4.24")
}

fn fifo_minute(variant: &str) -> Run {
    let case = simulation("fifo-trigger").expect("registered");
    let mut params = case.meta().default_params();
    params.0.insert("duration".into(), slowpath_engine::ParamValue::Unsigned(60_000_000_000));
    run_checked(case, &params, variant, 1).expect("runs")
}

/// gVisor: two minutes of 16,384 sleeping threads scanned at 100 Hz (12,000 scans,
/// 196 M visits), before the fix: the case's default run.
#[divan::bench]
fn gvisor_2min_16384_threads_before() -> Run {
    gvisor("before")
}

/// The same two minutes with the tgids fix.
#[divan::bench]
fn gvisor_2min_16384_threads_tgids() -> Run {
    gvisor("tgids")
}

/// Seeking into the middle of scan 3,000 of that run and expanding its visit.
#[divan::bench]
fn gvisor_seek_mid_scan(bencher: Bencher) {
    static RUN: OnceLock<Run> = OnceLock::new();
    let run = RUN.get_or_init(|| gvisor("before"));
    let position = 1 + 2_999 * 16_391 + 1 + 8_192;
    bencher.bench_local(|| divan::black_box((run.view(position), run.op(position - 1))));
}

fn gvisor(variant: &str) -> Run {
    let case = simulation("gvisor-threadgroups").expect("registered");
    run_checked(case, &case.meta().default_params(), variant, 1).expect("runs")
}

/// The worst settings found by the worst-setting search (`examples/worst.rs`), one
/// benchmark each: every one must end within the work budget's targets.
const WORST_SETTINGS: &str = include_str!("worst-settings.txt");

fn worst_settings() -> impl Iterator<Item = &'static str> {
    WORST_SETTINGS.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#'))
}

#[divan::bench(args = worst_settings(), sample_count = 5, sample_size = 1)]
fn worst_setting(line: &str) -> Run {
    let mut words = line.split_whitespace();
    let case = simulation(words.next().expect("a case")).expect("registered");
    let variant = words.next().expect("a variant");
    let pairs: Vec<(&str, String)> = words
        .map(|pair| pair.split_once('=').expect("key=value"))
        .map(|(key, value)| (key, common::percent_decoded(value)))
        .collect();
    let pairs = pairs.iter().map(|(key, value)| (*key, value.as_str()));
    let params = slowpath_engine::ParamValues::from_pairs_exact(case.meta().params, pairs).expect("valid");
    run_checked(case, &params, variant, 1).expect("runs")
}

/// The reported core dump: 20 threads, SIGQUIT at 1.3 s, 2.6.14-rc2, to the last exit.
#[divan::bench]
fn coredump_threads_20() -> Run {
    coredump_threads("20", "60s")
}

/// 4,096 threads; the signal at 60 s, once every thread exists (the trace stops at its budget, the machine runs to the end).
#[divan::bench]
fn coredump_threads_4096() -> Run {
    coredump_threads("4096", "60s")
}

/// The same on four CPUs: the side-by-side stretches and the contended siglock.
#[divan::bench]
fn coredump_threads_4096_4cpus() -> Run {
    coredump_threads_on("4096", "60s", "4")
}

fn coredump_threads(threads: &str, signal_at: &str) -> Run {
    coredump_threads_on(threads, signal_at, "1")
}

fn coredump_threads_on(threads: &str, signal_at: &str, cpus: &str) -> Run {
    let case = simulation("coredump-threads").expect("registered");
    let params = slowpath_engine::ParamValues::from_pairs_exact(
        case.meta().params,
        [
            ("threads", threads),
            ("signal_at", if threads == "20" { "1.3s" } else { signal_at }),
            ("cpus", cpus),
        ],
    )
    .expect("valid");
    run_checked(case, &params, "2.6.14-rc2", 1).expect("runs")
}
