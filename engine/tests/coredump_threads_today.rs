//! coredump-threads' `today` variant (Linux 6.18 on the project's machine) against
//! the deaths measured there: `tools/measure/coredump-threads/results.tsv`, read as
//! committed. The per-thread costs were calibrated on the N = 0 and N = 1,000 rows
//! of the `pause` session (cited in `engine/src/cases/coredump_threads/today.rs`);
//! N = 20 and 100, the ratios, the core files and the spinning sessions are checks.

mod measured;

use measured::{median, rows, COREDUMP_THREADS};
use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::trace::{Metric, Outcome};
use slowpath_engine::{run_checked, simulation, Run};

const MS: f64 = 1e6;

fn run(variant: &str, sets: &[(&str, &str)], seed: u64) -> Run {
    let case = simulation("coredump-threads").expect("registered");
    let params = ParamValues::from_pairs_exact(case.meta().params, sets.iter().copied()).expect("valid");
    run_checked(case, &params, variant, seed).expect("runs")
}

fn latency_ms(run: &Run) -> f64 {
    match run.metrics.get("exit_latency_ns") {
        Some(Metric::Ns(ns)) => *ns as f64 / MS,
        other => panic!("exit_latency_ns: {other:?}"),
    }
}

/// The model's time to die: `mode` is the results file's (`quit_core0`, `quit_core`, `int`).
fn today_ms(threads: &str, mode: &str, n: u64, cpus: u64, seed: u64) -> f64 {
    let (signal, core) = match mode {
        "int" => ("SIGINT", "0"),
        "quit_core" => ("SIGQUIT", "unlimited"),
        _ => ("SIGQUIT", "0"),
    };
    let n = n.to_string();
    let cpus = cpus.to_string();
    let doing = if threads.starts_with("pause") { "pause" } else { "spin" };
    let sets = [
        ("threads", n.as_str()),
        ("mode", doing),
        ("signal", signal),
        ("core_limit", core),
        ("cpus", cpus.as_str()),
    ];
    let run = run("today", &sets, seed);
    assert!(matches!(run.outcome, Outcome::Completed), "{sets:?}: {:?}", run.outcome);
    latency_ms(&run)
}

/// The median of a session's signal → reaped times, in ms.
fn measured_ms(threads: &str, mode: &str, n: u64) -> f64 {
    let values: Vec<f64> = rows(COREDUMP_THREADS)
        .iter()
        .filter(|row| {
            row.text("threads") == threads && row.text("mode") == mode && row.number("n") as u64 == n
        })
        .map(|row| row.number("signal_to_exit_ms"))
        .collect();
    assert!(values.len() >= 5, "{threads} {mode} {n}: {} runs", values.len());
    median(values)
}

/// Threads asleep in pause(): nothing but the kill path takes the CPU. Within 15 % of
/// the measured median for SIGQUIT with `ulimit -c 0` and for SIGINT at every N.
#[test]
fn today_dies_in_the_measured_time_with_the_threads_asleep() {
    for mode in ["quit_core0", "int"] {
        for n in [20, 100, 1000] {
            let measured = measured_ms("pause", mode, n);
            let model = today_ms("pause", mode, n, 2, 1);
            let error = (model - measured) / measured;
            assert!(error.abs() <= 0.15, "{mode} N = {n}: model {model:.3} ms, measured {measured:.3} ms");
        }
    }
}

/// O(N): from N = 100 to 1,000 the time grows about tenfold in both, and the ratio
/// of SIGQUIT (core off) to SIGINT stays near the measured 1.1–1.2.
#[test]
fn today_grows_linearly_and_costs_a_little_more_than_sigint() {
    let model_growth =
        today_ms("pause", "quit_core0", 1000, 2, 1) / today_ms("pause", "quit_core0", 100, 2, 1);
    let measured_growth = measured_ms("pause", "quit_core0", 1000) / measured_ms("pause", "quit_core0", 100);
    assert!((7.0..=11.0).contains(&measured_growth), "{measured_growth}");
    assert!(
        (model_growth / measured_growth - 1.0).abs() <= 0.15,
        "model ×{model_growth:.2}, measured ×{measured_growth:.2}"
    );
    for n in [20, 100, 1000] {
        let model = today_ms("pause", "quit_core0", n, 2, 1) / today_ms("pause", "int", n, 2, 1);
        let measured = measured_ms("pause", "quit_core0", n) / measured_ms("pause", "int", n);
        assert!((model - measured).abs() <= 0.15, "N = {n}: ratio model {model:.2}, measured {measured:.2}");
    }
}

/// A core written: every thread's 8 MiB stack walked page by page. Within a factor
/// 2.5 (N = 20 measures half the per-page cost of N = 100 and 1,000, which the model's
/// one cost a page, calibrated at N = 1,000, does not follow).
#[test]
fn today_writes_the_core_in_about_the_measured_time() {
    for n in [20, 100, 1000] {
        let measured = measured_ms("pause", "quit_core", n);
        let model = today_ms("pause", "quit_core", n, 2, 1);
        let factor = (model / measured).max(measured / model);
        assert!(factor <= 2.5, "N = {n}: model {model:.1} ms, measured {measured:.1} ms");
    }
}

/// Spinning threads: main must wait for a CPU before it can zap them, so SIGQUIT costs
/// many times SIGINT, in milliseconds, not the 13.7 s of 2.6.14-rc2. The measured
/// medians differ by up to 30× between sessions (the machine's load, main's EEVDF lag);
/// the model's median over 21 seeds must lie within a factor 2.5 of the range of the
/// sessions' medians, on two CPUs and pinned to one.
#[test]
fn today_with_spinning_threads_waits_for_a_cpu_milliseconds_not_seconds() {
    let sessions: [(&[&str], u64, &[u64]); 2] =
        [(&["spin", "spin@ag-10"], 2, &[20, 100, 1000]), (&["spin@cpu0", "spin@ag-10@cpu0"], 1, &[20, 100])];
    for (names, cpus, sizes) in sessions {
        for &n in sizes {
            let medians: Vec<f64> = names.iter().map(|name| measured_ms(name, "quit_core0", n)).collect();
            let low = medians.iter().copied().fold(f64::INFINITY, f64::min);
            let high = medians.iter().copied().fold(0.0, f64::max);
            let model = median((1..=21).map(|seed| today_ms("spin", "quit_core0", n, cpus, seed)).collect());
            assert!(
                model >= low / 2.5 && model <= high * 2.5,
                "{names:?} N = {n}: model {model:.1} ms, sessions {medians:?}"
            );
            let sigint = today_ms("spin", "int", n, cpus, 1);
            assert!(model > 10.0 * sigint, "N = {n}: SIGQUIT {model:.2} ms vs SIGINT {sigint:.2} ms");
        }
    }
    // Milliseconds, not seconds: the reported kernel took 13.7 s at N = 20 on one CPU.
    let today = median((1..=21).map(|seed| today_ms("spin", "quit_core0", 20, 1, seed)).collect());
    let reported = latency_ms(&run("2.6.14-rc2", &[], 1));
    assert!(today < 100.0 && reported > 10_000.0, "today {today:.1} ms, 2.6.14-rc2 {reported:.0} ms");
}

/// The scaling plot's measured points come from the same rows as these tests: for each
/// setting that was measured, one point per measured N ≥ 1 at that session's median;
/// none for settings that were not (three CPUs, SIGTERM).
#[test]
fn the_plot_reads_the_measured_medians_of_the_matching_session() {
    use slowpath_engine::cases::coredump_threads::measured_exit_points;
    let cases = [
        (false, 2, "SIGQUIT", true, "pause", "quit_core0"),
        (false, 1, "SIGINT", true, "pause", "int"),
        (true, 2, "SIGQUIT", true, "spin@ag-10", "quit_core0"),
        (true, 1, "SIGQUIT", false, "spin@ag-10@cpu0", "quit_core"),
    ];
    for (spin, cpus, signal, core_limited, session, mode) in cases {
        let points = measured_exit_points(COREDUMP_THREADS, spin, cpus, signal, core_limited);
        assert!(points.len() >= 2, "{session} {mode}: {points:?}");
        for (n, ns) in points {
            let expected = measured_ms(session, mode, n);
            assert!(
                (ns as f64 / MS - expected).abs() < 1e-6,
                "{session} {mode} N = {n}: {ns} ns against {expected} ms"
            );
        }
    }
    assert!(measured_exit_points(COREDUMP_THREADS, true, 3, "SIGQUIT", true).is_empty());
    assert!(measured_exit_points(COREDUMP_THREADS, false, 2, "SIGTERM", true).is_empty());
}

/// Today's kernel keeps RLIMIT_CPU: when the spinners reach it before the typed
/// signal, SIGXCPU is the core-dump signal, the thread on the CPU dumps at once, and
/// the process still dies in milliseconds; threads in pause() use no CPU and never
/// reach it.
#[test]
fn today_a_cpu_limit_reached_first_dumps_from_the_thread_on_the_cpu() {
    let case = slowpath_engine::simulation("coredump-threads").expect("registered");
    let run = |sets: &[(&str, &str)]| {
        let params = slowpath_engine::run::params::ParamValues::from_pairs_exact(
            case.meta().params,
            sets.iter().copied(),
        )
        .expect("valid");
        slowpath_engine::run_checked(case, &params, "today", 1).expect("runs")
    };
    let ns = |run: &slowpath_engine::Run, key: &str| match run.metrics.get(key) {
        Some(slowpath_engine::run::trace::Metric::Ns(v) | slowpath_engine::run::trace::Metric::Count(v)) => {
            *v
        }
        other => panic!("{key}: {other:?}"),
    };
    // Two CPUs spinning reach 5 s of CPU time at about 2.5 s, before a signal at 3 s.
    let first = run(&[("cpus", "2"), ("signal_at", "3s")]);
    let extras = first.extras::<slowpath_engine::cases::coredump_threads::CoredumpCase>().unwrap();
    assert_eq!(extras.first_signal, "SIGXCPU");
    let at = ns(&first, "signal_ns");
    assert!((2_500_000_000..2_600_000_000).contains(&at), "SIGXCPU at {at}");
    assert!(ns(&first, "exit_latency_ns") < 10_000_000, "still milliseconds today");
    // No limit, or threads asleep: the typed signal, as before.
    for sets in [
        [("cpus", "2"), ("signal_at", "3s"), ("rlimit_cpu", "none")],
        [("cpus", "2"), ("signal_at", "3s"), ("mode", "pause")],
    ] {
        let run = run(&sets);
        assert_eq!(
            run.extras::<slowpath_engine::cases::coredump_threads::CoredumpCase>().unwrap().first_signal,
            "SIGQUIT"
        );
        assert_eq!(ns(&run, "signal_ns"), 3_000_000_000, "{sets:?}");
    }
}
