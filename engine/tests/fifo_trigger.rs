//! The figures of seed 002 (qmail's FIFO trigger), asserted from the engine's
//! own output, plus the thread's other observations (nice values, two CPUs,
//! the drain fix). Where the model departs from the report, the test says so
//! and asserts what the model does instead.

mod common;

use slowpath_engine::cases::fifo_trigger::FifoCase;
use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::trace::Metric;
use slowpath_engine::{find, run_checked, Run};

const MS: u64 = 1_000_000;

fn run(variant: &str, sets: &[(&str, &str)]) -> Run {
    let case = find("fifo-trigger").expect("registered");
    let params = ParamValues::from_pairs_exact(case.meta().params, sets.iter().copied()).expect("valid");
    run_checked(case, &params, variant, 1).expect("runs")
}

fn fifo(run: &Run) -> &FifoCase {
    run.extras::<FifoCase>().expect("a FIFO run carries its FIFO data")
}

fn count(run: &Run, key: &str) -> u64 {
    match run.metrics.get(key) {
        Some(Metric::Count(value) | Metric::Ns(value)) => *value,
        other => panic!("{key}: {other:?}"),
    }
}

fn optional(run: &Run, key: &str) -> Option<u64> {
    match run.metrics.get(key) {
        Some(Metric::None(value)) => *value,
        other => panic!("{key}: {other:?}"),
    }
}

fn within(value: u64, target: u64, percent: u64) -> bool {
    value * 100 >= target * (100 - percent) && value * 100 <= target * (100 + percent)
}

#[test]
fn on_2_6_1_a_burst_starts_with_three_timeslices_then_one_timeslice_each() {
    let run = run("2.6.1", &[]);
    let case = fifo(&run);
    let first = &case.bursts[0];
    assert!(within(first.first_dt_ns, 300 * MS, 30), "first slow write {} ns", first.first_dt_ns);
    assert!(!first.following.is_empty(), "the first write is followed by more slow writes");
    for dt in &first.following {
        assert!(within(*dt, 100 * MS, 20), "following slow write {dt} ns");
    }
    // Every slow write in the run is a whole number of listener slices, never a fraction.
    for (k, dt) in case.write_dt_ns.iter().enumerate() {
        if *dt >= MS {
            assert!(*dt >= 80 * MS, "write {k}: {dt} ns");
        }
    }
    assert_eq!(optional(&run, "first_burst_first_dt_ns"), Some(first.first_dt_ns));
    // Every slow write is a preemption inside write(); the run may end inside one more.
    let slow = case.bursts.iter().map(|b| 1 + b.following.len() as u64).sum::<u64>();
    let preemptions = count(&run, "preemptions_in_write");
    assert!((slow..=slow + 1).contains(&preemptions), "{preemptions} preemptions, {slow} slow writes");
}

#[test]
fn on_2_6_1_long_runs_of_fast_writes_separate_the_bursts() {
    let run = run("2.6.1", &[]);
    let case = fifo(&run);
    assert!(case.bursts.len() >= 5, "{} bursts in 10 s", case.bursts.len());
    let fast = optional(&run, "fast_writes_between_bursts").expect("several bursts");
    // The reporter counted "around 700".
    assert!((350..=1_400).contains(&fast), "{fast} fast writes between bursts");
    for dt in case.write_dt_ns.iter().filter(|dt| **dt < MS) {
        assert!(*dt < 10_000, "a fast write is a few µs: {dt} ns");
    }
}

#[test]
fn the_fast_run_length_follows_the_writers_cost_per_line_and_the_loop() {
    let fast =
        |sets: &[(&str, &str)]| optional(&run("2.6.1", sets), "fast_writes_between_bursts").expect("bursts");
    // A fast run is what the writer prints in one timeslice: twice the cost per line, half the lines.
    let base = fast(&[]);
    let doubled = fast(&[("print_cost", "280us")]);
    assert!(within(doubled * 2, base, 10), "{base} vs {doubled} at twice the cost");
    // A ten times shorter busy loop lets the listener sleep more between its loops: longer fast runs.
    let short_loop = fast(&[("loop_iters", "100000")]);
    assert!(short_loop > base, "{short_loop} with a short loop vs {base}");
}

#[test]
fn the_drain_fix_and_a_second_cpu_remove_every_slow_write() {
    for variant in ["drain-fix", "2cpu"] {
        let run = run(variant, &[]);
        assert!(count(&run, "writes") > 1_000, "{variant}");
        assert_eq!(count(&run, "writes_over_1ms"), 0, "{variant}");
    }
}

/// The reporter saw only sub-millisecond writes on 2.4.24. With only these two
/// programs on the CPU, 2.4.24's own rules do let the listener preempt the
/// writer inside write(): a counter recalculation that finds it asleep in
/// select() gives it counter 9 against the writer's 6, and goodness 29 beats
/// 27 + 0. What the model does reproduce is the contrast the thread draws: on
/// 2.4 a delay is at most one counter (≤ 110 ms at HZ 100), never the
/// three-slice write of 2.6.1 ("I have never observed more than one timeslice
/// delay in 2.4"). See ARCHITECTURE.md, "fifo-trigger: model limits".
#[test]
fn on_2_4_24_no_write_waits_longer_than_one_counter() {
    let run = run("2.4.24", &[]);
    let case = fifo(&run);
    assert_eq!(case.hz, 100);
    let longest = case.write_dt_ns.iter().max().copied().unwrap_or(0);
    assert!(longest <= 110 * MS, "longest write {longest} ns");
    let v26 = run_checked(find("fifo-trigger").unwrap(), &run.params, "2.6.1", 1).unwrap();
    assert!(fifo(&v26).write_dt_ns.iter().max().copied().unwrap_or(0) > 2 * longest);
}

#[test]
fn the_listeners_nice_value_moves_the_delays_as_the_thread_reports() {
    // Manfred Spraul: "nice -20 resulted in delays of 200-1000 ms for each write call".
    let hot = run("2.6.1", &[("listener_nice", "-20")]);
    let case = fifo(&hot);
    assert!(count(&hot, "writes") > 10);
    let slow: Vec<u64> = case.write_dt_ns.iter().copied().filter(|dt| *dt >= MS).collect();
    assert!(slow.len() * 10 >= case.write_dt_ns.len() * 9, "nearly every write is slow");
    assert!(slow.iter().all(|dt| (190 * MS..=1_100 * MS).contains(dt)), "{slow:?}");
    // "nice 20 resulted in no slow calls".
    assert_eq!(count(&run("2.6.1", &[("listener_nice", "19")]), "writes_over_1ms"), 0);
}

#[test]
fn a_minute_of_2_6_1_is_a_small_trace_and_every_variant_stays_bounded() {
    for variant in ["2.6.1", "2.4.24"] {
        let run = run(variant, &[("duration", "60s")]);
        assert_eq!(run.outcome, slowpath_engine::Outcome::TimeLimit, "{variant}");
        let (ops, _, checkpoints) = run.stored();
        // Millions of micro-ops; tens of thousands stored: repeats carry the bulk.
        assert!(ops < 50_000 && checkpoints < 5_000, "{variant}: {ops} ops, {checkpoints} checkpoints");
        assert!(run.total_ops() > 100 * ops as u64, "{variant}");
    }
    // On two CPUs (or with the drain fix) the two programs interleave without
    // repeating, so the trace stops at the stored budget; the metrics still cover
    // the whole run, unless the run keeps more writes than one run may (two CPUs:
    // about 1,700 writes a second), when the figures cover up to that write.
    for variant in ["drain-fix", "2cpu", "2.4.24-smp"] {
        let run = run(variant, &[("duration", "60s")]);
        let (ops, blocks, _) = run.stored();
        assert!(ops <= slowpath_engine::run::budget::STORED_OPS_MAX + 64, "{variant}: {ops}");
        assert!(blocks <= slowpath_engine::run::budget::STORED_BLOCKS_MAX + 64, "{variant}: {blocks}");
        let writes = count(&run, "writes");
        assert_eq!(writes as usize, fifo(&run).write_dt_ns.len(), "{variant}");
        let last_write_ns = fifo(&run).write_time_ns.last().copied().unwrap_or(0);
        match run.outcome {
            slowpath_engine::Outcome::StepLimit { .. } => {
                assert_eq!(variant, "drain-fix");
                assert!(last_write_ns > 55 * 1_000 * MS, "{variant}: metrics span the minute");
            }
            slowpath_engine::Outcome::WorkLimit { at_ns, budget, .. } => {
                assert!(variant != "drain-fix" && budget == "kept writes", "{variant}: {budget}");
                assert_eq!(writes as usize, slowpath_engine::run::budget::KEPT_RECORDS_MAX);
                assert!(last_write_ns <= at_ns && at_ns < 60 * 1_000 * MS, "{variant}: stopped at {at_ns}");
                assert!(run.outcome.limit_text().expect("said in words").contains("figures cover"));
            }
            ref other => panic!("{variant}: {other:?}"),
        }
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

        /// Any valid parameters run without panicking, and seeking agrees with stepping.
        #[test]
        fn any_parameters_run_and_seek_equals_stepping(
            listener_nice in -20i64..20,
            writer_nice in -20i64..20,
            loop_iters in 1u64..5_000_000,
            print_us in 1u64..400,
            start_ms in 0u64..1_500,
            hz in prop::sample::select(vec!["native", "100", "250", "1000"]),
            preempt in any::<bool>(),
            variant in prop::sample::select(vec!["2.6.1", "2.4.24", "2.4.24-smp", "drain-fix", "2cpu"]),
        ) {
            let sets = [
                ("listener_nice", listener_nice.to_string()),
                ("writer_nice", writer_nice.to_string()),
                ("loop_iters", loop_iters.to_string()),
                ("print_cost", format!("{print_us}us")),
                ("writer_start", format!("{start_ms}ms")),
                ("duration", "2s".to_string()),
                ("hz", hz.to_string()),
                ("preempt", if preempt { "on" } else { "off" }.to_string()),
            ];
            let case = find("fifo-trigger").unwrap();
            let params = ParamValues::from_pairs_exact(case.meta().params, sets.iter().map(|(k, v)| (*k, v.as_str()))).unwrap();
            let run = run_checked(case, &params, variant, 1).unwrap();
            let case = fifo(&run);
            prop_assert_eq!(count(&run, "writes") as usize, case.write_dt_ns.len());
            common::assert_seek_agrees_with_stepping(&run);
        }
    }
}

/// Why 2.4.24 was fast, a hypothesis (issue 15): on one CPU, 2.4's rules make
/// every write slow after the first recalculation (~90 ms each); on two logical
/// CPUs with an SMP kernel, `reschedule_idle` sends the woken listener to the
/// idle CPU and never sets the writer's need_resched, and every write is fast,
/// as reported. Which one the reporter ran is unknown.
#[test]
fn on_2_4_24_one_cpu_predicts_slow_writes_and_only_smp_matches_the_report() {
    let up = run("2.4.24", &[]);
    assert!(count(&up, "writes_over_1ms") >= 30, "one CPU: {}", count(&up, "writes_over_1ms"));
    assert!(count(&up, "writes") < 500);
    let smp = run("2.4.24-smp", &[]);
    assert_eq!(fifo(&smp).kernel, "2.4.24");
    assert_eq!(fifo(&smp).cpus, 2);
    assert_eq!(fifo(&smp).hz, 100);
    assert!(count(&smp, "writes") > 10_000, "{}", count(&smp, "writes"));
    assert_eq!(count(&smp, "writes_over_1ms"), 0);
    assert_eq!(count(&smp, "preemptions_in_write"), 0, "the writer's need_resched is never set by a wakeup");
    // Every wakeup narrates the SMP rule: the woken task's own CPU was idle.
    let texts: Vec<String> = (0..smp.total_ops().min(20_000))
        .map(|index| slowpath_engine::run::narration::plain(&smp.narrate(&smp.op(index).expect("op"))))
        .filter(|text| text.starts_with("The wakeup puts"))
        .collect();
    assert!(!texts.is_empty() && texts.iter().all(|text| text.contains("SMP reschedule_idle")), "{texts:?}");
}

/// i386's defconfig at 2.6.1 set CONFIG_PREEMPT; the reporter's configuration is
/// unknown. The burst must not hinge on it: the same first write, the same slices.
#[test]
fn the_burst_is_the_same_with_config_preempt() {
    let off = run("2.6.1", &[]);
    let on = run("2.6.1", &[("preempt", "on")]);
    for key in ["first_burst_first_dt_ns", "following_slow_mean_ns"] {
        let (a, b) = (optional(&off, key).expect("a burst"), optional(&on, key).expect("a burst"));
        assert!(a.abs_diff(b) * 100 <= a, "{key}: {a} without, {b} with CONFIG_PREEMPT");
    }
    assert_eq!(count(&off, "writes_over_1ms"), count(&on, "writes_over_1ms"));
}
