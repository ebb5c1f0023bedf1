//! fifo-trigger's `today` variant (Linux 6.18's EEVDF, the seed's programs pinned to
//! one CPU) against the runs measured on the project's machine: session S6 of
//! `tools/measure/fifo-trigger/results.tsv` (7 runs of 10 s, CPU 0 the pair's own),
//! read as committed. Nothing in the model was fitted to these rows: the costs are
//! the per-call costs of `costs.tsv` beside them, the scheduler is 6.18's rules.
//!
//! Tolerances, stated once: the share of writes over 1 ms, the writes per 10 s and
//! the bursts per 10 s fall within the seven runs' min–max band; p99 within ±30 % of
//! the runs' median; the longest write at least one 4 ms tick and no longer than the
//! longest measured (never the 100 ms of 2.6.1); p50 sub-microsecond and within a
//! factor of two of the measured median. Two figures fall outside the band and are
//! asserted only to their order (documented in docs/cases/fifo-trigger.md): the fast
//! writes between bursts (the model ~1,060, measured 634–847) and the longest burst
//! (the model ~70, measured 92–255).

mod measured;

use measured::{median, rows, FIFO_TRIGGER};
use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::trace::{Metric, Outcome};
use slowpath_engine::{run_checked, simulation, Run};

const MS: f64 = 1e6;

/// The `today` run over the measurement's 10 s (the writer starts with the listener).
fn today() -> Run {
    let case = simulation("fifo-trigger").expect("registered");
    let sets = [("writer_start", "0"), ("duration", "10s")];
    let params = ParamValues::from_pairs_exact(case.meta().params, sets).expect("valid");
    let run = run_checked(case, &params, "today", 1).expect("runs");
    assert!(matches!(run.outcome, Outcome::TimeLimit), "the whole 10 s: {:?}", run.outcome);
    run
}

/// The seven reference runs' values of `column`: (min, median, max).
fn measured(column: &str) -> (f64, f64, f64) {
    let values: Vec<f64> = rows(FIFO_TRIGGER)
        .iter()
        .filter(|row| row.text("session") == "S6" && row.text("mode") == "pinned@ag-10")
        .map(|row| row.number(column))
        .collect();
    assert_eq!(values.len(), 7, "S6 pinned has seven runs");
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(0.0, f64::max);
    (min, median(values), max)
}

fn ns(run: &Run, name: &str) -> f64 {
    match run.metrics.get(name) {
        Some(Metric::Ns(ns)) => *ns as f64,
        other => panic!("{name}: {other:?}"),
    }
}

fn count(run: &Run, name: &str) -> f64 {
    match run.metrics.get(name) {
        Some(Metric::Count(n)) => *n as f64,
        Some(Metric::None(Some(n))) => *n as f64,
        other => panic!("{name}: {other:?}"),
    }
}

fn p50_ns(run: &Run) -> f64 {
    match run.metrics.get("write_dt_ns") {
        Some(Metric::Object(summary)) => match summary.get("p50") {
            Some(Metric::Ns(ns)) => *ns as f64,
            other => panic!("p50: {other:?}"),
        },
        other => panic!("write_dt_ns: {other:?}"),
    }
}

fn bursts(run: &Run) -> f64 {
    match run.metrics.get("bursts") {
        Some(Metric::Object(bursts)) => match bursts.get("count") {
            Some(Metric::Count(n)) => *n as f64,
            other => panic!("bursts.count: {other:?}"),
        },
        other => panic!("bursts: {other:?}"),
    }
}

#[test]
fn the_share_of_slow_writes_falls_in_the_measured_band() {
    let run = today();
    let Some(Metric::Ratio(share)) = run.metrics.get("share_over_1ms") else { panic!("share_over_1ms") };
    let (min, _, max) = measured("share_over_1ms");
    assert!((min..=max).contains(share), "model {share}, measured {min}–{max}");
    let writes = count(&run, "writes");
    let (min, _, max) = measured("n");
    assert!((min..=max).contains(&writes), "writes: model {writes}, measured {min}–{max}");
    let bursts = bursts(&run);
    let (min, _, max) = measured("bursts");
    assert!((min..=max).contains(&bursts), "bursts: model {bursts}, measured {min}–{max}");
}

#[test]
fn a_slow_write_lasts_a_tick_not_a_timeslice() {
    let run = today();
    let (_, p99_ms, _) = measured("p99_ms");
    let p99 = ns(&run, "write_p99_ns") / MS;
    assert!((p99 / p99_ms - 1.0).abs() <= 0.30, "p99: model {p99} ms, measured median {p99_ms} ms");
    let (_, _, longest_ms) = measured("max_ms");
    let max = ns(&run, "write_max_ns") / MS;
    assert!((4.0..=longest_ms).contains(&max), "max: model {max} ms, measured up to {longest_ms} ms");
    // The 2.6.1 run's slow writes are 100 ms slices: today's are bounded by a few ms.
    assert!(max < 20.0, "{max} ms");
    assert!(count(&run, "preemptions_in_write") > 0.0, "the wakeup inside write() still preempts");
}

#[test]
fn a_fast_write_costs_what_it_costs_today() {
    let run = today();
    let (_, p50_ms, _) = measured("p50_ms");
    let p50 = p50_ns(&run) / MS;
    assert!(p50 < 0.001, "sub-microsecond: {p50} ms");
    assert!((0.5..=2.0).contains(&(p50 / p50_ms)), "p50: model {p50} ms, measured {p50_ms} ms");
}

#[test]
fn the_bursts_come_and_go_on_the_measured_order() {
    let run = today();
    // Outside the measured band (see the notes): asserted to their order only.
    let (_, between, _) = measured("fast_run_median");
    let model = count(&run, "fast_writes_between_bursts");
    assert!((0.5..=2.0).contains(&(model / between)), "fast writes between bursts: {model} vs {between}");
    let (_, longest, _) = measured("burst_len_max");
    let model = count(&run, "longest_slow_run");
    assert!((0.2..=5.0).contains(&(model / longest)), "longest burst: {model} vs {longest}");
}

/// The narration of the first `limit` ops.
fn narrations(run: &Run, limit: u64) -> Vec<String> {
    (0..run.total_ops().min(limit))
        .map(|index| slowpath_engine::run::narration::plain(&run.narrate(&run.op(index).expect("op"))))
        .collect()
}

#[test]
fn lag_and_the_protected_slice_decide_the_wakeup_not_a_priority() {
    let run = today();
    let texts = narrations(&run, 60_000);
    let wakeups: Vec<&String> = texts.iter().filter(|text| text.contains("The wakeup puts")).collect();
    // A writer fresh on the CPU keeps it (RUN_TO_PARITY); one past its share loses it.
    assert!(wakeups.iter().any(|text| text.contains("no preemption")), "{wakeups:?}");
    assert!(wakeups.iter().any(|text| text.contains("wakeup_preempt_fair sets need_resched")), "{wakeups:?}");
    assert!(wakeups.iter().all(|text| !text.contains("sleep_avg") && !text.contains("goodness")));
    // Every slow write ends at a tick that finds the listener's slice used up.
    let slow = texts.iter().filter(|text| text.contains("reads the clock again: dt =")).count();
    let ticks = texts.iter().filter(|text| text.contains("past its virtual deadline")).count();
    assert!(slow > 0 && ticks >= slow, "{slow} slow writes, {ticks} slice ends");
}

/// The stage shows the program as measured: today's writer reads the clock with
/// clock_gettime (the measuring program's one change), 2.6.1's with gettimeofday, on
/// the same line numbers; the narration's code points at the same listing.
#[test]
fn today_shows_the_writer_as_measured() {
    use slowpath_engine::cases::fifo_trigger::program_listing;
    let run = today();
    let writer = &run.code[program_listing(true, 1)];
    let seed = &run.code[program_listing(false, 1)];
    assert_eq!(writer.lines.len(), seed.lines.len());
    assert!(writer.lines[2].contains("clock_gettime") && seed.lines[2].contains("gettimeofday"));
    assert_eq!(program_listing(true, 0), 0, "the listener is the seed's");
    let writer_function = program_listing(true, 1);
    assert!(
        (0..run.total_ops().min(2_000))
            .filter_map(|index| run.op(index))
            .any(|op| usize::from(op.code.function) == writer_function),
        "today's writer steps point at the measured listing"
    );
}
