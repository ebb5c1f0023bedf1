//! The figures of seed 002 (qmail's FIFO trigger), asserted from the engine's
//! own output, plus the thread's other observations (nice values, two CPUs,
//! the drain fix). Where the model departs from the report, the test says so
//! and asserts what the model does instead.

mod common;

use slowpath_engine::cases::fifo_trigger::FifoCase;
use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::trace::Metric;
use slowpath_engine::{run_checked, simulation, Run};

const MS: u64 = 1_000_000;

fn run(variant: &str, sets: &[(&str, &str)]) -> Run {
    let case = simulation("fifo-trigger").expect("registered");
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
    // A much shorter busy loop (3,000 iterations: 7.5 µs) lets the listener sleep more
    // between its loops: fast runs that span several of the writer's slices.
    let short_loop = fast(&[("loop_iters", "3000")]);
    assert!(short_loop > base, "{short_loop} with a short loop vs {base}");
}

/// Two CPUs remove every slow write. The drain fix removes every write of a
/// slice; a write that wakes the listener still waits for its busy loop (2.5 ms
/// at the calibrated cost), which the reporter's grep would show.
#[test]
fn the_drain_fix_and_a_second_cpu_remove_every_slow_write() {
    let two = run("2cpu", &[]);
    assert!(count(&two, "writes") > 1_000);
    assert_eq!(count(&two, "writes_over_1ms"), 0);
    let drain = run("drain-fix", &[]);
    assert!(count(&drain, "writes") > 1_000);
    let loop_ns = 1_000_000 * 2_500 / 1_000;
    let longest = fifo(&drain).write_dt_ns.iter().max().copied().unwrap_or(0);
    assert!(longest <= loop_ns + 20_000, "drain-fix: longest write {longest} ns, one loop {loop_ns} ns");
}

/// The reporter saw only sub-millisecond writes on 2.4.24. With only these two
/// programs on the CPU, 2.4.24's own rules do let the listener preempt the
/// writer inside write(): a counter recalculation that finds it asleep in
/// select() gives it counter 9 against the writer's 6, and goodness 29 beats
/// 27 + 0. What the model does reproduce is the contrast the thread draws: on
/// 2.4 a delay is at most one counter (≤ 110 ms at HZ 100), never the
/// three-slice write of 2.6.1 ("I have never observed more than one timeslice
/// delay in 2.4"). See docs/cases/fifo-trigger.md.
#[test]
fn on_2_4_24_no_write_waits_longer_than_one_counter() {
    let run = run("2.4.24", &[]);
    let case = fifo(&run);
    assert_eq!(case.hz, 100);
    let longest = case.write_dt_ns.iter().max().copied().unwrap_or(0);
    assert!(longest <= 110 * MS, "longest write {longest} ns");
    let v26 = run_checked(simulation("fifo-trigger").unwrap(), &run.params, "2.6.1", 1).unwrap();
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
    // the whole run, unless the run keeps more writes than one run may (two CPUs
    // with a loop of 0.55 ms: about 1,700 writes a second), when the figures cover
    // up to that write.
    for (variant, loop_ps) in
        [("drain-fix", "2500"), ("2cpu", "2500"), ("2.4.24-smp", "2500"), ("2cpu", "550")]
    {
        let run = run(variant, &[("duration", "60s"), ("loop_ps", loop_ps)]);
        let (ops, blocks, _) = run.stored();
        assert!(ops <= slowpath_engine::run::budget::STORED_OPS_MAX + 64, "{variant}: {ops}");
        assert!(blocks <= slowpath_engine::run::budget::STORED_BLOCKS_MAX + 64, "{variant}: {blocks}");
        let writes = count(&run, "writes");
        assert_eq!(writes as usize, fifo(&run).write_dt_ns.len(), "{variant}");
        let last_write_ns = fifo(&run).write_time_ns.last().copied().unwrap_or(0);
        match run.outcome {
            slowpath_engine::Outcome::StepLimit { .. } => {
                assert_eq!(loop_ps, "2500", "{variant}");
                assert!(last_write_ns > 55 * 1_000 * MS, "{variant}: metrics span the minute");
            }
            slowpath_engine::Outcome::WorkLimit { at_ns, budget, .. } => {
                assert!(loop_ps == "550" && budget == "kept writes", "{variant}: {budget}");
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
            // Up to 200 ms: a first slice longer than a nice 19 task's own (the unsigned wrap).
            shell_ms in 1u64..=200,
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
                ("shell_slice", format!("{shell_ms}ms")),
                ("duration", "2s".to_string()),
                ("hz", hz.to_string()),
                ("preempt", if preempt { "on" } else { "off" }.to_string()),
            ];
            let case = simulation("fifo-trigger").unwrap();
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
    // One write per listener loop (2.5 ms) over 8 s.
    assert!(count(&smp, "writes") > 2_500, "{}", count(&smp, "writes"));
    assert_eq!(count(&smp, "writes_over_1ms"), 0);
    assert_eq!(count(&smp, "preemptions_in_write"), 0, "the writer's need_resched is never set by a wakeup");
    // Every wakeup narrates the SMP rule: the woken task's own CPU was idle.
    let texts: Vec<String> = (0..smp.total_ops().min(20_000))
        .map(|index| slowpath_engine::run::narration::plain(&smp.narrate(&smp.op(index).expect("op"))))
        .filter(|text| text.contains("The wakeup puts"))
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

/// Issue 18: the reporter's thirteen lines went through `grep -v '= 0'`, which
/// hides every fast write between two slow ones. Through the same filter, the
/// model's default run shows his shape: about 302 ms, then twelve lines of one slice.
#[test]
fn through_the_reporters_grep_the_default_run_shows_his_thirteen_lines() {
    let run = run("2.6.1", &[]);
    let case = fifo(&run);
    let first = optional(&run, "grep_first_dt_ns").expect("a slow line");
    assert!(within(first, 302_220_000, 10), "first line {first} ns against 302.22 ms");
    assert_eq!(case.grep_lines.len(), 13, "thirteen lines through the filter");
    // The reported twelve: 99.725 to 101.775 ms; ± 2 % around that range.
    for line in &case.grep_lines[1..] {
        assert!(
            line.dt_ns * 100 >= 99_725_000 * 98 && line.dt_ns * 100 <= 101_775_000 * 102,
            "write {}: {} ns",
            line.write,
            line.dt_ns
        );
    }
    let min = optional(&run, "grep_following_min_ns").expect("twelve lines");
    let max = optional(&run, "grep_following_max_ns").expect("twelve lines");
    assert_eq!(min, case.grep_lines[1..].iter().map(|l| l.dt_ns).min().unwrap());
    assert_eq!(max, case.grep_lines[1..].iter().map(|l| l.dt_ns).max().unwrap());
    // The filter hides runs of fast writes between some of the thirteen lines, which
    // is why his output looks like one burst.
    let hidden: Vec<u64> = case.grep_lines.iter().map(|l| l.hidden_before).collect();
    assert!(hidden[1..].iter().any(|&h| h >= 350), "hidden fast lines: {hidden:?}");
    assert!(hidden[1..].contains(&0), "some slow lines follow each other: {hidden:?}");
    assert_eq!(count(&run, "grep_lines"), count(&run, "writes_over_1ms"), "the filter shows the slow writes");
}

/// At equal nice, each one-slice write costs the listener one slice of run time
/// (102 ms, exactly one bonus step: MAX_SLEEP_AVG / MAX_BONUS) and its select()
/// sleeps earn almost nothing back, so an unbroken run of slow writes ends within a
/// few writes: twelve in a row is out of reach whatever the shell left it.
#[test]
fn at_equal_nice_no_run_of_twelve_unbroken_slow_writes() {
    use slowpath_engine::kernel::sched::o1::{static_prio, MAX_BONUS, O1};
    let o1 = O1::new(1000);
    assert_eq!(o1.max_sleep_avg_ns() / MAX_BONUS as u64, o1.timeslice(static_prio(0)) * 1_000_000);
    for sets in [
        &[][..],
        &[("shell_slice", "1ms")],
        &[("shell_slice", "200ms")],
        &[("parent_bonus", "10")],
        &[("loop_iters", "100000")],
    ] {
        let run = run("2.6.1", sets);
        let longest = optional(&run, "longest_slow_run").expect("a burst");
        assert!((2..=8).contains(&longest), "{sets:?}: {longest} slow writes in a row");
    }
    assert_eq!(optional(&run("2.6.1", &[]), "first_burst_slow_writes"), Some(7));
}

/// copy_process gives the listener (shell_slice + 1) / 2 of the shell's remaining
/// slice; the first write lasts that plus whole slices while the listener stays
/// interactive at each expiry. The default (196 ms) gives 98 + 2 × 102 ms; the
/// third slice is lost between 124 ms (a first slice of 62: four slices) and 126 ms
/// (63: three), far from the default.
#[test]
fn the_listeners_first_slice_is_half_the_shells_remaining_slice() {
    let first =
        |shell: &str| optional(&run("2.6.1", &[("shell_slice", shell)]), "first_burst_first_dt_ns").unwrap();
    let near = |dt: u64, ms: u64| dt.abs_diff(ms * MS) < MS;
    assert!(near(first("196ms"), 98 + 2 * 102), "{}", first("196ms"));
    assert!(near(first("124ms"), 62 + 3 * 102), "{}", first("124ms"));
    assert!(near(first("126ms"), 63 + 2 * 102), "{}", first("126ms"));
    assert!(near(first("1ms"), 1 + 3 * 102), "{}", first("1ms"));
}

/// The interactivity test at a slice's end uses a sleep_avg debited only in
/// schedule(), so up to one granularity stale (the kernel's order). Replayed on
/// the scheduler's rules alone, the listener holds the CPU for as many slices
/// whether the debit comes before or after that test, at the default first slice;
/// only right at the boundary (62 jiffies) does the order decide.
#[test]
fn at_the_default_the_burst_does_not_hinge_on_the_order_of_updates() {
    use slowpath_engine::kernel::sched::o1::{Array, O1Task, RunQueue, TickOutcome, O1};
    use slowpath_engine::run::world::TaskId;
    fn slices_held(first: u64, debit_first: bool) -> u64 {
        let o1 = O1::new(1000);
        let (me, writer) = (TaskId(0), TaskId(1));
        let mut rq = RunQueue::new();
        let mut task = O1Task::new(&o1, 0, 0);
        let mut now = 2_000 * MS;
        task.wake(&o1, now);
        assert_eq!(task.sleep_avg_ns, 918 * MS, "just interactive");
        task.time_slice = first;
        rq.enqueue(Array::Active, me, task.prio);
        rq.enqueue(Array::Active, writer, 125);
        let mut slices = 1;
        loop {
            now += MS;
            if debit_first && task.time_slice == 1 {
                task.charge(&o1, now);
            }
            match rq.tick(&o1, me, &mut task, now, 1) {
                TickOutcome::Continue => {}
                // schedule() picks it again (priority better than the writer's 125) and debits it.
                TickOutcome::Requeued => {
                    task.charge(&o1, now);
                }
                TickOutcome::ExpiredToActive => {
                    task.charge(&o1, now);
                    slices += 1;
                }
                TickOutcome::ExpiredToExpired { .. } => return slices,
                TickOutcome::NotYetOff => unreachable!("it runs in the active array"),
            }
        }
    }
    assert_eq!(slices_held(98, false), 3, "the kernel's order at the default");
    assert_eq!(slices_held(98, true), 3, "debited first");
    assert_eq!(slices_held(62, false), 4);
    assert_eq!(slices_held(63, false), 3);
}
