//! The Lab: the textbook's exercises computed by hand, locks and deadlocks, errors
//! a person can act on, and property tests over random workloads and random bytes.

use proptest::prelude::*;
use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::trace::{Metric, Outcome, Run};
use slowpath_engine::run::world::Effect;
use slowpath_engine::{run_checked, simulation, RunError};

const MS: u64 = 1_000_000;

fn params(workload: &str) -> ParamValues {
    let meta = simulation("the-lab").expect("the Lab is built").meta();
    ParamValues::from_pairs_exact(meta.params, [("workload", workload)]).expect("fits the parameter")
}

fn try_run(workload: &str, variant: &str) -> Result<Run, RunError> {
    run_checked(simulation("the-lab").expect("the Lab is built"), &params(workload), variant, 1)
}

fn run(workload: &str, variant: &str) -> Run {
    try_run(workload, variant).unwrap_or_else(|error| panic!("{error}"))
}

fn errors(workload: &str) -> String {
    match try_run(workload, "as-written") {
        Ok(_) => panic!("the workload ran:\n{workload}"),
        Err(error) => error.to_string(),
    }
}

fn ns(metric: Option<&Metric>) -> u64 {
    match metric {
        Some(Metric::Ns(value) | Metric::Count(value) | Metric::None(Some(value))) => *value,
        other => panic!("not a figure: {other:?}"),
    }
}

/// A task's figure, in ms (exact: these exercises are whole milliseconds).
fn task_ms(run: &Run, task: &str, key: &str) -> u64 {
    let Some(Metric::Object(tasks)) = run.metrics.get("tasks") else { panic!("no tasks") };
    let Some(Metric::Object(fields)) = tasks.get(task) else { panic!("no task {task}") };
    let value = ns(fields.get(key));
    assert_eq!(value % MS, 0, "{task}.{key} = {value} ns is not whole ms");
    value / MS
}

/// A task's figure, in ns.
fn task_ns(run: &Run, task: &str, key: &str) -> u64 {
    let Some(Metric::Object(tasks)) = run.metrics.get("tasks") else { panic!("no tasks") };
    let Some(Metric::Object(fields)) = tasks.get(task) else { panic!("no task {task}") };
    ns(fields.get(key))
}

/// (response, turnaround, waiting) in ms for each task.
fn figures(run: &Run, tasks: &[&str]) -> Vec<(u64, u64, u64)> {
    tasks
        .iter()
        .map(|task| {
            (
                task_ms(run, task, "response_ns"),
                task_ms(run, task, "turnaround_ns"),
                task_ms(run, task, "waiting_ns"),
            )
        })
        .collect()
}

const THREE_JOBS: &str = "\
job A at=0 length=100ms
job B at=0 length=200ms
job C at=0 length=300ms
";

#[test]
fn fifo_three_jobs_together() {
    // FIFO runs A 0–100, B 100–300, C 300–600.
    // response = start − arrival: 0, 100, 300; turnaround = end − arrival: 100, 300, 600;
    // waiting (ready, not running) = response here, since none runs twice: 0, 100, 300.
    let run = run(&format!("kernel fifo\n{THREE_JOBS}"), "as-written");
    assert_eq!(run.outcome, Outcome::Completed);
    assert_eq!(figures(&run, &["A", "B", "C"]), vec![(0, 100, 0), (100, 300, 100), (300, 600, 300)]);
    // Average turnaround (100 + 300 + 600) / 3 = 333.33 ms, to the nanosecond below.
    assert_eq!(ns(run.metrics.get("turnaround_avg_ns")), 333_333_333);
    assert_eq!(ns(run.metrics.get("response_avg_ns")), 133_333_333);
}

#[test]
fn fifo_suffers_the_convoy_that_sjf_avoids() {
    // The long job first: FIFO runs C 0–300, B 300–500, A 500–600:
    // turnarounds 600, 500, 300 (A, B, C), average 1400 / 3 = 466.67 ms.
    let reversed = "job C length=300ms\njob B length=200ms\njob A length=100ms\n";
    let fifo = run(reversed, "fifo");
    assert_eq!(figures(&fifo, &["A", "B", "C"]), vec![(500, 600, 500), (300, 500, 300), (0, 300, 0)]);
    assert_eq!(ns(fifo.metrics.get("turnaround_avg_ns")), 466_666_666);
    // SJF picks by length whatever the order: A 0–100, B 100–300, C 300–600, as FIFO did in order.
    let sjf = run(reversed, "sjf");
    assert_eq!(figures(&sjf, &["A", "B", "C"]), vec![(0, 100, 0), (100, 300, 100), (300, 600, 300)]);
    assert_eq!(ns(sjf.metrics.get("turnaround_avg_ns")), 333_333_333);
}

#[test]
fn round_robin_with_a_one_millisecond_quantum() {
    // Quantum 1 ms, A B C in turn: responses 0, 1, 2 ms.
    // A needs 100 slices: its 100th starts at 3 × 99 = 297 and ends at 298.
    // Then B and C alternate: B's 100th slice ended at 299, C's at 300; B needs 100 more,
    // one every 2 ms: it ends at 300 + 2 × 99 + 1 = 499. C alone then ends at 600.
    // waiting = turnaround − length: 298 − 100 = 198, 499 − 200 = 299, 600 − 300 = 300.
    let run = run(&format!("kernel rr quantum=1ms\n{THREE_JOBS}"), "as-written");
    assert_eq!(figures(&run, &["A", "B", "C"]), vec![(0, 298, 198), (1, 499, 299), (2, 600, 300)]);
    // Each job is switched in once per slice it runs, except C's last 100 back to back.
    assert_eq!(task_ms(&run, "A", "user_ns"), 100);
}

const LATE_SHORT_JOBS: &str = "\
job A at=0 length=100ms
job B at=10ms length=10ms
job C at=10ms length=10ms
";

#[test]
fn sjf_with_late_short_jobs_waits_and_stcf_preempts() {
    // SJF never preempts: A 0–100, B 100–110, C 110–120.
    // response: A 0, B 100 − 10 = 90, C 110 − 10 = 100; turnaround: 100, 110 − 10 = 100, 120 − 10 = 110.
    let sjf = run(LATE_SHORT_JOBS, "sjf");
    assert_eq!(figures(&sjf, &["A", "B", "C"]), vec![(0, 100, 0), (90, 100, 90), (100, 110, 100)]);
    assert_eq!(ns(sjf.metrics.get("turnaround_avg_ns")), 103_333_333, "(100 + 100 + 110) / 3");
    // STCF: at 10 ms B (10 ms left) preempts A (90 ms left): A 0–10, B 10–20, C 20–30, A 30–120.
    // response: A 0, B 0, C 20 − 10 = 10; turnaround: 120, 10, 20; A waited 20, C 10.
    let stcf = run(LATE_SHORT_JOBS, "stcf");
    assert_eq!(figures(&stcf, &["A", "B", "C"]), vec![(0, 120, 20), (0, 10, 0), (10, 20, 10)]);
    assert_eq!(ns(stcf.metrics.get("turnaround_avg_ns")), 50 * MS, "(120 + 10 + 20) / 3");
    assert_eq!(ns(stcf.metrics.get("preemptions")), 1);
}

#[test]
fn two_cpus_share_one_queue() {
    // Two CPUs, FIFO: A on CPU 0 and B on CPU 1 at 0; C waits for the first free CPU (A's, at 100).
    let run = run(&format!("kernel fifo\ncpus 2\n{THREE_JOBS}"), "as-written");
    assert_eq!(figures(&run, &["A", "B", "C"]), vec![(0, 100, 0), (0, 200, 0), (100, 400, 100)]);
}

const MUTEX_PAIR: &str = "\
kernel rr quantum=10ms
mutex M
task t x 2
  lock M
  sys 15ms
  unlock M
";

#[test]
fn a_mutex_held_across_a_quantum_makes_the_other_wait() {
    // t1 takes M at 0 and is preempted at 10 with it held; t2 runs, finds M held and sleeps;
    // t1 runs 10–15, unlocks and wakes t2 (woken, not granted); t2 retries at 15 and takes it:
    // it waited 15 − 10 = 5 ms. t2 then holds M 15–30 (preempted once at 25, alone, so renewed).
    let run = run(MUTEX_PAIR, "as-written");
    assert_eq!(run.outcome, Outcome::Completed);
    let Some(Metric::Object(locks)) = run.metrics.get("locks") else { panic!("no locks") };
    let Some(Metric::Object(m)) = locks.get("M") else { panic!("no M") };
    assert_eq!(ns(m.get("acquisitions")), 2);
    assert_eq!(ns(m.get("contended")), 1);
    assert_eq!(ns(m.get("wait_total_ns")), 5 * MS);
    assert_eq!(task_ms(&run, "t2", "lock_wait_ns"), 5);
    assert_eq!(task_ms(&run, "t2", "turnaround_ns"), 30);
    let text = narration(&run);
    assert!(text.contains("t2 cannot take M: t1 holds it"), "{text}");
    assert!(text.contains("t1 unlocks M and wakes t2"), "{text}");
}

#[test]
fn a_cycle_of_waits_ends_the_run_with_the_cycle_named() {
    let workload = "\
kernel rr quantum=1ms
mutex A
mutex B
task left
  lock A
  run 5ms
  lock B
  unlock B
  unlock A
task right
  lock B
  run 5ms
  lock A
  unlock A
  unlock B
";
    let run = run(workload, "as-written");
    let Outcome::Deadlock(deadlock) = &run.outcome else { panic!("no deadlock: {:?}", run.outcome) };
    assert_eq!(deadlock.cycle.len(), 2);
    let text = narration(&run);
    assert!(text.contains("left holds A and waits for B."), "{text}");
    assert!(text.contains("right holds B and waits for A."), "{text}");
    assert!(text.contains("Deadlock: 2 task(s)"), "{text}");
}

#[test]
fn a_spinlock_waiter_burns_its_cpu_until_the_holder_unspins() {
    // Two CPUs: s1 and s2 start together; s1 (CPU 0) takes S, s2 (CPU 1) spins 0–3 ms as sys time.
    let workload = "cpus 2\nspinlock S\ntask s x 2\n  spin S\n  sys 3ms\n  unspin S\n";
    let run = run(workload, "fifo");
    assert_eq!(task_ms(&run, "s2", "lock_wait_ns"), 3);
    assert_eq!(task_ms(&run, "s2", "sys_ns"), 6, "3 ms spinning + 3 ms holding");
    assert_eq!(task_ms(&run, "s2", "turnaround_ns"), 6);
}

#[test]
fn readers_share_an_rwsem_and_a_writer_waits_for_them() {
    // r1, r2 read 0–5 ms on two CPUs; w arrives at 1 ms, queues, and is woken when the last reader leaves.
    let workload = "\
cpus 3
rwsem R
task r x 2
  read R
  sys 5ms
  release R
task w at=1ms
  write R
  sys 1ms
  release R
";
    let run = run(workload, "fifo");
    assert_eq!(run.outcome, Outcome::Completed);
    assert_eq!(task_ms(&run, "w", "lock_wait_ns"), 4);
    assert_eq!(task_ms(&run, "w", "turnaround_ns"), 5, "arrives at 1, done at 6");
    let text = narration(&run);
    assert!(text.contains("w cannot write R"), "{text}");
}

#[test]
fn forever_runs_to_the_horizon() {
    let run = run("kernel rr\nuntil 50ms\ntask hog\n  forever {\n    run 3ms\n  }\n", "as-written");
    assert_eq!(run.outcome, Outcome::TimeLimit);
    assert_eq!(run.end_ns, 50 * MS);
}

#[test]
fn the_same_text_kernel_and_seed_give_the_same_trace() {
    let preset = slowpath_engine::cases::the_lab::PRESET;
    let first = run(preset, "as-written");
    let again = run(preset, "as-written");
    assert_eq!(first.trace_hash, again.trace_hash);
    let other = run(preset, "fifo");
    assert_ne!(first.trace_hash, other.trace_hash, "another kernel, another trace");
}

// ---- errors ------------------------------------------------------------------------

#[test]
fn an_undeclared_resource_is_named_with_its_place_and_what_is_declared() {
    let message = errors("mutex M\nrwsem R\ntask t\n  lock M2\n");
    assert!(message.contains("line 4, column 8: unknown resource `M2`; declared: M, R"), "{message}");
}

#[test]
fn several_errors_are_listed_at_once_and_capped() {
    let message = errors("cpus 9\ntask t\n  run 5\n  unlock M\n  frobnicate\n");
    assert!(message.contains("line 1, column 6: CPUs:"), "{message}");
    assert!(message.contains("line 3, column 7: duration:") && message.contains("no unit"), "{message}");
    assert!(message.contains("line 5, column 3: unknown operation `frobnicate`"), "{message}");
    let many: String = (0..20).map(|i| format!("bogus{i}\n")).collect();
    let message = errors(&many);
    assert_eq!(message.lines().count(), 10, "a count, 8 errors and a line counting the rest:\n{message}");
    assert!(message.contains("and 12 more"), "{message}");
}

#[test]
fn what_is_wrong_before_running_is_said_before_running() {
    let unlock = errors("mutex M\ntask t\n  run 1ms\n  unlock M\n");
    assert!(unlock.contains("line 4, column 10: `M` is not held here"), "{unlock}");
    let sleeps = errors("spinlock S\ntask t\n  spin S\n  sleep 1ms\n  unspin S\n");
    assert!(sleeps.contains("line 4, column 3: `sleep` while holding spinlock `S`"), "{sleeps}");
    let kind = errors("rwsem R\ntask t\n  lock R\n  unlock R\n");
    assert!(kind.contains("`R` is a rwsem: use read, write and release"), "{kind}");
    let spins = errors("task t\n  forever {\n    yield\n  }\n");
    assert!(spins.contains("line 2, column 3: this `forever` takes no time"), "{spins}");
    let held = errors("mutex M\ntask t\n  lock M\n  run 1ms\n");
    assert!(held.contains("`t` ends holding `M`"), "{held}");
}

#[test]
fn the_bounds_are_stated_and_kept() {
    let big = format!("job A length=1ms\n#{}\n", "x".repeat(4200));
    let meta = simulation("the-lab").expect("the Lab is built").meta();
    let refused =
        ParamValues::from_pairs_exact(meta.params, [("workload", big.as_str())]).expect_err("too long");
    assert!(refused.message.contains("more than 4096"), "{}", refused.message);
    let parsed = slowpath_engine::cases::the_lab::lang::load(&big).expect_err("too long for the parser too");
    assert!(parsed[0].message.contains("at most 4096 are read"), "{:?}", parsed);
    let crowd = errors("task t x 40\n  run 1ms\ntask u x 40\n  run 1ms\n");
    assert!(crowd.contains("80 tasks so far; at most 64"), "{crowd}");
    let cpus = errors("cpus 5\njob A length=1ms\n");
    assert!(cpus.contains("1 to 4"), "{cpus}");
}

#[test]
fn hostile_text_is_quoted_safely() {
    let message = errors("mutex M\ntask t\n  lock \u{202e}M\u{1b}[2J\n");
    assert!(!message.chars().any(|c| c == '\u{202e}' || c == '\u{1b}'), "{message:?}");
    assert!(message.contains("\\u{202e}"), "{message}");
}

fn narration(run: &Run) -> String {
    run.trace_lines(100_000).collect::<Vec<_>>().join("\n")
}

// ---- properties --------------------------------------------------------------------

/// A random workload from the grammar: balanced lock use most of the time, so that
/// most of them run, and every operation the language has.
fn workload() -> impl Strategy<Value = String> {
    let kernel = prop::sample::select(vec![
        "fifo",
        "sjf",
        "stcf",
        "rr",
        "rr quantum=1ms",
        "rr quantum=3ms",
        "o1",
        "o1 hz=100",
        "eevdf",
        "eevdf hz=1000",
        "goodness",
        "goodness hz=1000",
    ]);
    let kinds = prop::collection::vec(prop::sample::select(vec!["mutex", "spinlock", "rwsem", "pipe"]), 0..4);
    let op = (0u8..12, 0usize..4, 1u64..20);
    let body = prop::collection::vec(op, 1..8);
    let tasks = prop::collection::vec((body, 1u64..4, 0u64..20, any::<bool>()), 1..5);
    (kernel, 1u64..5, kinds, tasks, 5u64..200).prop_map(|(kernel, cpus, kinds, tasks, until)| {
        let mut text = format!("kernel {kernel}\ncpus {cpus}\nuntil {until}ms\n");
        if until % 4 == 0 {
            // Lock operations that take time: a burst after each acquisition.
            text += &format!("lockcost fast={until}ns slow={}us\n", until / 4);
        }
        for (index, kind) in kinds.iter().enumerate() {
            let capacity = if *kind == "pipe" { format!(" {}KiB", index * 3 + 1) } else { String::new() };
            text += &format!("{kind} L{index}{capacity}\n");
        }
        for (number, (body, copies, at, job)) in tasks.iter().enumerate() {
            if *job {
                let io = if at % 3 == 0 {
                    format!(" io_every={}ms io_for={}ms", copies + 1, at % 5 + 1)
                } else {
                    String::new()
                };
                text += &format!("job J{number} at={at}ms length={}ms{io}\n", copies * 7);
                continue;
            }
            text += &format!("task T{number} x {copies} at={at}ms\n");
            for &(choice, lock, ms) in body {
                text += &statement(choice, lock, ms, &kinds);
            }
        }
        text
    })
}

fn statement(choice: u8, lock: usize, ms: u64, kinds: &[&str]) -> String {
    // A declared lock, mostly; with none declared, lock statements name `L0`, an error to report.
    let lock = if kinds.is_empty() || choice == 9 { lock } else { lock % kinds.len() };
    let (take, give) = lock_ops(kinds.get(lock).copied(), ms);
    match choice {
        0 => format!("  run {ms}ms\n"),
        1 => format!("  sys {ms}00us\n"),
        2 => format!("  sleep {ms}ms\n"),
        3 => "  yield\n".to_string(),
        4 => format!("  repeat {ms} {{\n    run 1ms\n    sleep 1ms\n  }}\n"),
        5 => format!(
            "  forever {{\n    run {ms}ms\n    {take} L{lock}\n    sys 1ms\n    {give} L{lock}\n  }}\n"
        ),
        6 => format!("  {take} L{lock}\n  {give} L{lock}\n"),
        // Unbalanced, or undeclared (choice 9): an error to report, never a panic.
        7 | 9 if ms % 4 == 0 => format!("  {give} L{lock}\n"),
        // Two locks in either order: a deadlock when two tasks disagree.
        10 => {
            let other = (lock + 1) % kinds.len().max(1);
            let (take2, give2) = lock_ops(kinds.get(other).copied(), ms);
            format!(
                "  {take} L{lock}\n  run {ms}ms\n  {take2} L{other}\n  {give2} L{other}\n  {give} L{lock}\n"
            )
        }
        _ => format!("  {take} L{lock}\n  sys {ms}ms\n  {give} L{lock}\n"),
    }
}

fn lock_ops(kind: Option<&str>, ms: u64) -> (&'static str, &'static str) {
    match kind {
        Some("mutex") => ("lock", "unlock"),
        Some("spinlock") => ("spin", "unspin"),
        Some("pipe") if ms % 2 == 0 => ("send", "recv"),
        Some("pipe") => ("recv", "send"),
        Some(_) if ms % 2 == 0 => ("read", "release"),
        Some(_) => ("write", "release"),
        None => ("lock", "unlock"),
    }
}

fn check_messages(error: &RunError) {
    let message = error.to_string();
    assert!(message.lines().count() <= 2 + slowpath_engine::cases::the_lab::lang::ERRORS_MAX, "{message}");
    for line in message.lines() {
        assert!(
            !line.chars().any(|c| c.is_control() || slowpath_engine::run::params::is_invisible_format(c)),
            "{line:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_workloads_run_or_say_why_within_the_budget(text in workload()) {
        for variant in ["as-written", "fifo", "stcf", "o1", "eevdf", "goodness"] {
            match try_run(&text, variant) {
                Ok(run) => {
                    let (ops, blocks, _) = run.stored();
                    prop_assert!(ops <= slowpath_engine::run::budget::STORED_OPS_MAX + 256);
                    prop_assert!(blocks <= slowpath_engine::run::budget::STORED_BLOCKS_MAX + 1);
                    // At every key moment the picture is what the words say.
                    let case = simulation("the-lab").expect("the Lab is built");
                    let (disagreements, uncovered) = run.stage_disagreements(case.stage_claims());
                    prop_assert!(disagreements.is_empty(), "{:?}", disagreements.first().map(|d| (d.says, &d.shows)));
                    prop_assert!(uncovered.is_empty(), "templates with no claim: {uncovered:?}");
                    let stopped_storing = matches!(run.outcome, Outcome::StepLimit { .. });
                    prop_assert!(!stopped_storing, "the Lab stops simulating, never only storing");
                }
                Err(error) => check_messages(&error),
            }
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Err(error) = try_run(&text, "as-written") {
            check_messages(&error);
        }
    }

    #[test]
    fn random_lines_of_words_never_panic(
        lines in prop::collection::vec(
            prop::collection::vec(prop::sample::select(vec![
                "task", "job", "mutex", "rwsem", "spinlock", "kernel", "rr", "cpus", "2", "x", "3", "run", "5ms",
                "lock", "unlock", "M", "{", "}", "repeat", "forever", "sleep", "at=1ms", "length=2ms", "until",
                "read", "write", "release", "spin", "unspin", "yield", "exit", "quantum=1ms", "#", "T",
                "pipe", "send", "recv", "P", "4KiB", "eevdf", "goodness", "o1", "hz=1000", "io_every=1ms",
                "io_for=2ms", "lockcost", "fast=1ns", "slow=2us",
            ]), 0..6),
            0..20,
        )
    ) {
        let text: String = lines.iter().map(|words| words.join(" ") + "\n").collect();
        if let Err(error) = try_run(&text, "as-written") {
            check_messages(&error);
        }
    }
}

#[test]
fn stcf_on_two_cpus_preempts_the_task_with_the_most_left() {
    // A (100 ms) on CPU 0 and B (50 ms) on CPU 1 from 0; C (10 ms) arrives at 20 ms,
    // when A has 80 ms left and B 30: C takes A's CPU, 20–30, and A resumes at 30.
    let workload = "cpus 2\njob A length=100ms\njob B length=50ms\njob C at=20ms length=10ms\n";
    let run = run(workload, "stcf");
    assert_eq!(figures(&run, &["A", "B", "C"]), vec![(0, 110, 10), (0, 50, 0), (0, 10, 0)]);
}

#[test]
fn o1_hogs_take_whole_timeslices_and_meet_again_after_the_array_swap() {
    // 2.6.14 at HZ 1000: nice 0 is static priority 120 and a 100 ms slice (task_timeslice).
    // hog1 runs 0–100 and expires (a hog has no sleep_avg: priority 120 − 0 + 5 = 125, not
    // interactive), hog2 100–200 and expires; the active array is empty: swap; hog1 200–300.
    let workload = "kernel o1\nuntil 300ms\ntask hog x 2\n  forever {\n    run 50ms\n  }\n";
    let run = run(workload, "as-written");
    assert_eq!(run.outcome, Outcome::TimeLimit);
    assert_eq!((task_ms(&run, "hog1", "user_ns"), task_ms(&run, "hog2", "user_ns")), (200, 100));
    assert_eq!(task_ms(&run, "hog2", "response_ns"), 100);
    let text = narration(&run);
    assert!(
        text.contains("hog1's timeslice is used up: it moves to the expired array at priority 125"),
        "{text}"
    );
    assert!(text.contains("schedule() swaps the arrays"), "{text}");
}

#[test]
fn o1_an_interactive_sleeper_earns_a_better_priority_and_preempts_the_hog() {
    // The editor sleeps 20 ms after each 1 ms: recalc_task_prio credits 20 ms × (10 − bonus 0)
    // = 200 ms of sleep_avg, bonus 200 / 1000 × 10 = 2, priority 120 − 2 + 5 = 123, better
    // than the expired hog's 125: the woken editor preempts it.
    let workload = "kernel o1\nuntil 1s\ntask hog\n  forever {\n    run 50ms\n  }\ntask editor\n  forever {\n    run 1ms\n    sleep 20ms\n  }\n";
    let run = run(workload, "as-written");
    let text = narration(&run);
    assert!(text.contains("editor's sleep_avg is 200 ms (bonus 2), so its priority is 123"), "{text}");
    assert!(
        text.contains("editor's priority 123 is better than hog's 125: the woken task preempts it"),
        "{text}"
    );
    // After its first wait behind the hog's first slice (100 ms), the editor never waits again.
    assert_eq!(task_ms(&run, "editor", "waiting_ns"), 100);
}

#[test]
fn o1_a_task_that_yields_waits_in_the_expired_array_for_every_hog_slice() {
    // The coredump-threads stall in small (issue 33 §5): sched_yield puts y behind every task
    // of the active array. Hogs run whole 100 ms slices: hog1 0–100, hog2 100–200, hog3
    // 200–300 (each expires to 125). y (120) runs 300–301 and yields; the active array is
    // empty, the arrays swap, y is still the best and runs 301–302; then the hogs 302–602;
    // swap, y 602–603; hogs 603–903; swap, y 903–904; hog1 904–1000.
    // y: 4 × 1 ms; hog1: 100 + 100 + 100 + 96 = 396 ms; hog2, hog3: 300 ms each.
    let workload = "kernel o1\nuntil 1s\ntask hog x 3\n  forever {\n    run 50ms\n  }\ntask y\n  forever {\n    run 1ms\n    yield\n  }\n";
    let run = run(workload, "as-written");
    let user: Vec<u64> =
        ["hog1", "hog2", "hog3", "y"].iter().map(|task| task_ms(&run, task, "user_ns")).collect();
    assert_eq!(user, vec![396, 300, 300, 4]);
    assert_eq!(task_ms(&run, "y", "response_ns"), 300);
}

#[test]
fn eevdf_two_equal_jobs_take_turns_a_tick_each() {
    // 6.18's EEVDF at HZ 250 on one CPU: a slice is 0.7 ms, a tick 4 ms. Both arrive at
    // V = 0 with deadline 0.35 ms; A (first declared) wins the tie. Each tick charges 4 ms,
    // past the deadline, so the other (now eligible, earlier deadline) runs:
    // A 0–4, B 4–8, A 8–12, B 12–16, A 16–18 (done), B 18–20.
    let run = run("kernel eevdf\njob A length=10ms\njob B length=10ms\n", "as-written");
    assert_eq!(figures(&run, &["A", "B"]), vec![(0, 18, 8), (4, 20, 10)]);
    let text = narration(&run);
    assert!(
        text.contains("The tick charges A: its vruntime 4 ms has reached its virtual deadline 350 µs"),
        "{text}"
    );
    assert!(text.contains("B runs on CPU 0: it is eligible (vruntime 0 ns ≤ V = 2 ms)"), "{text}");
}

#[test]
fn eevdf_a_sleeper_keeps_its_lag_and_preempts_at_each_wakeup() {
    // io runs 4–5 (after hog's first tick) and sleeps: V = (4 + 1) / 2 = 2.5 ms, so it
    // keeps a lag of 1.5 ms. Woken at 15 with hog at vruntime 14 ms, place_entity puts it
    // 1.5 × 2 = 3 ms behind V (11 ms), so that the new V, 12.5 ms, still owes it 1.5 ms:
    // eligible with an earlier deadline, it preempts hog at once, as again at 26 and at
    // 37 (its exit). io waits only at the start (0–4); hog 1 ms at each of io's runs.
    let workload =
        "kernel eevdf\ntask hog\n  run 40ms\ntask io\n  repeat 3 {\n    run 1ms\n    sleep 10ms\n  }\n";
    let run = run(workload, "as-written");
    assert_eq!(figures(&run, &["hog", "io"]), vec![(0, 43, 3), (4, 37, 4)]);
    let text = narration(&run);
    assert!(
        text.contains("io leaves the run queue eligible and keeps its lag for its wakeup: 1.5 ms"),
        "{text}"
    );
    assert!(
        text.contains("io wakes with the lag it kept, 1.5 ms: place_entity puts its vruntime at 11 ms, so that V, now 12.5 ms"),
        "{text}"
    );
    assert!(text.contains("wakeup_preempt reschedules hog"), "{text}");
}

#[test]
fn goodness_counters_run_out_and_a_new_epoch_favours_the_task_that_ran_last() {
    // 2.4.24 at HZ 100: a full slice at nice 0 is NICE_TO_TICKS = 6 ticks of 10 ms; a forked
    // task starts with half, 3. A runs 0–30 (its counter 3 → 0), B 30–60; both spent: a new
    // epoch gives each 0 / 2 + 6 = 6, and B, which ran last, has goodness 6 + 20 + 1 = 27
    // against A's 26: B runs on to its end at 80, then A 80–100.
    let run = run("kernel goodness\njob A length=50ms\njob B length=50ms\n", "as-written");
    assert_eq!(figures(&run, &["A", "B"]), vec![(0, 100, 50), (30, 80, 30)]);
    let text = narration(&run);
    assert!(text.contains("Every runnable task's counter is 0: schedule() starts a new epoch"), "{text}");
    assert!(
        text.contains("B runs on CPU 0: goodness 27 (counter 6 + 20 − nice 0, + 1 if it ran last)"),
        "{text}"
    );
}

#[test]
fn goodness_a_sleeper_keeps_its_counter_and_preempts_the_hog() {
    // hog runs 0–30 and spends its counter; ed runs 30–31 and sleeps 25 ms. Alone and spent,
    // hog gets a new epoch (6), ed too while asleep (3 / 2 + 6 = 7). At 56 ed wakes with
    // goodness 27 against hog's 4 + 20 + 1 = 25 (two ticks, at 40 and 50): it preempts.
    let workload =
        "kernel goodness\nuntil 100ms\ntask hog\n  forever {\n    run 50ms\n  }\ntask ed\n  forever {\n    run 1ms\n    sleep 25ms\n  }\n";
    let run = run(workload, "as-written");
    let text = narration(&run);
    assert!(text.contains("ed's goodness 27 beats hog's 25"), "{text}");
    assert_eq!(task_ms(&run, "ed", "response_ns"), 30);
}

#[test]
fn goodness_never_preempts_a_task_in_a_system_call() {
    // The sleeper test's hog, in a 50 ms system call instead of user code: its counter runs
    // out at 30 ms (3 ticks), but 2.4 does not preempt the kernel, so it keeps the CPU
    // until the call returns at 50 ms, and ed, runnable since 0, first runs then.
    let workload =
        "kernel goodness\nuntil 100ms\ntask hog\n  forever {\n    sys 50ms\n  }\ntask ed\n  forever {\n    run 1ms\n    sleep 25ms\n  }\n";
    let run = run(workload, "as-written");
    let text = narration(&run);
    assert!(text.contains("hog must reschedule, but it is in a system call"), "{text}");
    assert!(text.contains("hog's system call returns with need_resched set"), "{text}");
    assert_eq!(task_ms(&run, "ed", "response_ns"), 50);
}

const PRODUCER_CONSUMER: &str = "\
kernel fifo
pipe P 8KiB
task producer
  repeat 4 {
    run 1ms
    send P 4KiB
  }
task consumer
  repeat 4 {
    recv P 4KiB
    run 2ms
  }
";

#[test]
fn a_full_pipe_puts_the_writer_to_sleep_and_an_empty_one_the_reader() {
    // FIFO on one CPU. producer runs 0–3: sends at 1 and 2 fill the 8 KiB pipe; the third
    // 4 KiB send is atomic (≤ PIPE_BUF) and finds no room: it sleeps at 3. consumer runs:
    // its read at 3 makes room and wakes producer (runnable, FIFO keeps consumer on), reads
    // again at 5, finds the pipe empty at 7 and sleeps; producer's retried send at 7 wakes
    // it, its last send at 8 fills 4 KiB again, and it exits at 8; consumer reads at 8 and
    // 10 and exits at 12. producer waits 3–7 for the CPU; consumer 0–3 and 7–8.
    let run = run(PRODUCER_CONSUMER, "as-written");
    assert_eq!(figures(&run, &["producer", "consumer"]), vec![(0, 8, 4), (3, 12, 4)]);
    let Some(Metric::Object(pipes)) = run.metrics.get("pipes") else { panic!("no pipes") };
    let Some(Metric::Object(p)) = pipes.get("P") else { panic!("no pipe P") };
    let figure = |key: &str| ns(p.get(key));
    assert_eq!((figure("sent_bytes"), figure("received_bytes"), figure("left_bytes")), (16_384, 16_384, 0));
    assert_eq!((figure("read_waits"), figure("write_waits")), (1, 1));
    let text = narration(&run);
    assert!(text.contains("producer must write its 4,096 bytes at once (at most PIPE_BUF, 4 KiB, is atomic) but pipe P holds 8,192 of 8,192"), "{text}");
    assert!(text.contains("consumer wakes producer, the first writer asleep on the full pipe P"), "{text}");
    assert!(text.contains("consumer finds pipe P empty and sleeps"), "{text}");
}

#[test]
fn a_pipe_is_as_big_as_the_kernel_makes_it() {
    // round_pipe_size: a 1-byte pipe is a page, so an atomic 4 KiB write fits it at once
    // (in bytes as asked, it would never fit and the run would stall).
    let run = run("pipe P 1\ntask w\n  send P 4KiB\ntask r\n  recv P 4KiB\n", "as-written");
    assert_eq!(run.outcome, Outcome::Completed);
    let text = narration(&run);
    assert!(text.contains("4,096 of 4,096"), "{text}");
    assert!(!text.contains("holds 0 of 1"), "{text}");
}

#[test]
fn a_reader_of_a_pipe_nobody_writes_is_a_named_stall() {
    let run = run("pipe P\ntask r\n  recv P\ntask w\n  run 1ms\n", "as-written");
    assert_eq!(run.outcome, Outcome::Stalled { at_ns: MS, tasks: 1 });
    let text = narration(&run);
    assert!(
        text.contains("r waits to read pipe P, which is empty, and no live task will ever write to it."),
        "{text}"
    );
    // Two tasks each waiting to read what only the other would write: both named.
    let cycle = "pipe P\npipe Q\ntask a\n  recv P\n  send Q\ntask b\n  recv Q\n  send P\n";
    let both = self::run(cycle, "as-written");
    assert_eq!(both.outcome, Outcome::Stalled { at_ns: 0, tasks: 2 });
    let text = narration(&both);
    assert!(
        text.contains("a waits to read pipe P, which is empty; the tasks that could write to it wait too."),
        "{text}"
    );
    assert!(text.contains("b waits to read pipe Q"), "{text}");
}

#[test]
fn pipe_mistakes_are_found_before_running() {
    let kind = errors("pipe P\ntask t\n  lock P\n  unlock P\n");
    assert!(kind.contains("line 3, column 8: `P` is a pipe: use send and recv"), "{kind}");
    let mutex = errors("mutex M\ntask t\n  send M 1KiB\n");
    assert!(mutex.contains("line 3, column 8: `M` is a mutex: use lock and unlock"), "{mutex}");
    let unknown = errors("pipe P\ntask t\n  recv Q\n");
    assert!(unknown.contains("line 3, column 8: unknown resource `Q`; declared: P"), "{unknown}");
    let size = errors("pipe P 2MiB\ntask t\n  send P 2MiB\n");
    assert!(size.contains("line 1, column 8: size:"), "{size}");
    assert!(size.contains("line 3, column 10: size:"), "{size}");
    let spin = errors("spinlock S\npipe P\ntask t\n  spin S\n  send P\n  unspin S\n");
    assert!(spin.contains("line 5, column 8: `send` while holding spinlock `S`"), "{spin}");
}

/// The rwsem playground's default scenario as a workload: four readers (think 400 µs,
/// hold 200 µs) and a writer (think 2 ms, hold 300 µs) under round robin with a 4 ms
/// slice, for 20 ms. What the Lab cannot say is set on the playground's side: no
/// jitter, writers that do not spin (`no-spin`), 4 CPUs (the Lab's most).
const RWSEM_DEFAULT: &str = "\
kernel rr quantum=4ms
cpus 4
until 20ms
rwsem mmap_lock
task R x 4
  forever {
    run 400us
    read mmap_lock
    sys 200us
    release mmap_lock
  }
task W
  forever {
    run 2ms
    write mmap_lock
    sys 300us
    release mmap_lock
  }
";

fn lock_figures(run: &Run, lock: &str) -> [u64; 4] {
    let Some(Metric::Object(locks)) = run.metrics.get("locks") else { panic!("no locks") };
    let Some(Metric::Object(fields)) = locks.get(lock) else { panic!("no lock {lock}") };
    ["acquisitions", "contended", "wait_total_ns", "wait_max_ns"].map(|key| ns(fields.get(key)))
}

/// Every lock decision, from the effects on the world's lock state: at which ns who
/// acquires (and in which mode, after waiting how long), queues, releases, and when the
/// handoff flag is set or cleared; the playground's names as the Lab's.
fn lock_decisions(run: &Run) -> Vec<String> {
    let name = |task| {
        let name = run.layout.task_name(task);
        match name.strip_prefix('R').and_then(|n| n.parse::<u64>().ok()) {
            Some(n) if run.case == "rwsem-playground" => format!("R{}", n + 1),
            _ if name == "W0" => "W".to_string(),
            _ => name.to_string(),
        }
    };
    let mut decisions = Vec::new();
    for index in 0..run.total_ops() {
        let op = run.op(index).expect("in range");
        for effect in op.effects.iter() {
            let decision = match *effect {
                Effect::Acquire { task, mode, waited_ns, .. } => {
                    format!("{} acquires ({mode:?}) after {waited_ns} ns", name(task))
                }
                Effect::Enqueue { task, mode, .. } => format!("{} queues ({mode:?})", name(task)),
                Effect::Release { task, .. } => format!("{} releases", name(task)),
                Effect::SetHandoff { on, .. } => format!("handoff {on}"),
                _ => continue,
            };
            decisions.push(format!("{:>9} {decision}", op.at_ns));
        }
    }
    decisions
}

#[test]
fn the_rwsem_playground_default_agrees_exactly_when_the_lab_states_its_lock_costs() {
    // The playground's own model choice: a lock operation takes time (its constants, added
    // to the hold after a fast and a slow acquisition). A `lockcost` line says the same.
    use slowpath_engine::cases::rwsem_playground::{FAST_LOCK_NS, SLOW_LOCK_NS};
    let workload = format!("lockcost fast={FAST_LOCK_NS}ns slow={SLOW_LOCK_NS}ns\n{RWSEM_DEFAULT}");
    let lab = run(&workload, "as-written");
    let case = simulation("rwsem-playground").expect("the playground is built");
    let params = ParamValues::from_pairs_exact(case.meta().params, [("jitter", "0"), ("cpus", "4")])
        .expect("valid parameters");
    let playground = run_checked(case, &params, "no-spin", 1).expect("runs");
    assert_eq!(lock_figures(&lab, "mmap_lock"), lock_figures(&playground, "mmap_lock"));
    let decisions = lock_decisions(&lab);
    assert!(decisions.len() > 200, "{} lock decisions", decisions.len());
    assert_eq!(decisions, lock_decisions(&playground));
    // Without the line, lock operations are free: the Lab's readers meet the 4 ms slice end
    // exactly, take the lock there and are preempted holding it (the playground's, 17 ns a
    // round later, are preempted in user mode just before): the figures part.
    let free = run(RWSEM_DEFAULT, "as-written");
    assert_eq!(lock_figures(&free, "mmap_lock"), [109, 20, 8_300_000, 600_000]);
}

#[test]
fn lockcost_is_sys_time_after_the_lock_is_taken() {
    // A takes M free at 0 (fast: 1 µs in the kernel), then runs 1 ms of sys. B, arriving
    // at 0.5 ms on the second CPU, queues; A's unlock at 1.001 ms wakes it, and B's retry
    // takes M on the slow path (2 µs), then 1 ms of sys: B ends at 2.003 ms.
    let workload = "lockcost fast=1us slow=2us\ncpus 2\nmutex M\ntask A\n  lock M\n  sys 1ms\n  unlock M\n\
                    task B at=500us\n  lock M\n  sys 1ms\n  unlock M\n";
    let run = run(workload, "as-written");
    assert_eq!(task_ns(&run, "A", "sys_ns"), 1_001_000);
    assert_eq!(task_ns(&run, "B", "sys_ns"), 1_002_000);
    assert_eq!(task_ns(&run, "B", "turnaround_ns"), 1_503_000);
    let text = narration(&run);
    assert!(text.contains("B spends 2 µs in the kernel on the lock operation itself"), "{text}");
    let twice = errors("lockcost fast=1ns\nlockcost slow=1ns\njob A length=1ms\n");
    assert!(twice.contains("line 2, column 1: `lockcost` is given twice"), "{twice}");
    let key = errors("lockcost quick=1ns\njob A length=1ms\n");
    assert!(key.contains("line 1, column 10: unexpected `quick=1ns`; expected `fast=` or `slow=`"), "{key}");
}

#[test]
fn jobs_with_io_overlap_under_stcf_and_leave_the_cpu_idle_under_fifo() {
    // OSTEP 7.8, "Incorporating I/O": A computes 50 ms in 10 ms bursts, each followed by
    // 10 ms of I/O; B computes 60 ms. STCF: A (50 left) runs 0–10; during its I/O B runs;
    // each time A wakes it has less left than B (40 < 50, 30 < 40, 20 < 30, 10 < 20) and
    // preempts it: A ends at 90, B at 110, the CPU never idle.
    let workload = "job A length=50ms io_every=10ms io_for=10ms\njob B length=60ms\n";
    let stcf = run(workload, "stcf");
    assert_eq!(figures(&stcf, &["A", "B"]), vec![(0, 90, 0), (10, 110, 50)]);
    assert_eq!(task_ms(&stcf, "A", "sleep_ns"), 40);
    // FIFO: B runs 10–70 to its end while A's I/O is long done; then A alone: its four
    // remaining bursts at 70, 90, 110 and 130 with the CPU idle during each I/O.
    let fifo = run(workload, "fifo");
    assert_eq!(figures(&fifo, &["A", "B"]), vec![(0, 140, 50), (10, 70, 10)]);
}

#[test]
fn io_options_are_checked() {
    let alone = errors("job A length=10ms io_every=2ms\n");
    assert!(alone.contains("line 1, column 19: `io_every=` and `io_for=` go together"), "{alone}");
    let many = errors("job A length=10s io_every=1ns io_for=1ms\n");
    assert!(many.contains("line 1, column 31: 10,000,000,000 I/O bursts; at most 1,000,000"), "{many}");
    let task = errors("task t io_every=1ms\n  run 1ms\n");
    assert!(task.contains("unknown option `io_every`; expected at=, nice= or cpu="), "{task}");
}

#[test]
fn hz_sets_the_tick_of_the_kernels_that_have_one() {
    // EEVDF at HZ 1000: each 1 ms tick passes the 0.7 ms slice, so the jobs alternate by
    // the millisecond: A 0–1, B 1–2, …, A ends at 19, B at 20.
    let fair = run("kernel eevdf hz=1000\njob A length=10ms\njob B length=10ms\n", "as-written");
    assert_eq!(figures(&fair, &["A", "B"]), vec![(0, 19, 9), (1, 20, 10)]);
    // 2.4 at HZ 1000: NICE_TO_TICKS(0) = (20 << 1) + 1 = 41 ticks, a forked task 21. A runs
    // 0–21, B 21–42; the new epoch gives both 41, and B (ran last, 62 against 61) runs on
    // to its end at 71; A 71–100.
    let good = run("kernel goodness hz=1000\njob A length=50ms\njob B length=50ms\n", "as-written");
    assert_eq!(figures(&good, &["A", "B"]), vec![(0, 100, 50), (21, 71, 21)]);
    let wrong = errors("kernel eevdf hz=200\njob A length=1ms\n");
    assert!(wrong.contains("line 1, column 17: hz: 200 is not a CONFIG_HZ"), "{wrong}");
    let textbook = errors("kernel sjf hz=100\njob A length=1ms\n");
    assert!(textbook.contains("unexpected `hz=100`; expected nothing after `kernel sjf`"), "{textbook}");
}

#[test]
fn o1_on_two_cpus_an_idle_cpu_pulls_from_the_busiest_queue() {
    // Three hogs arrive on CPU 0 (forked there). CPU 0 runs hog1; CPU 1, idle, balances:
    // CPU 0 has 3 tasks, it has 0, so it pulls half the difference, one task, from the
    // tail of the best priority's list that is not running: hog3. CPU 1 never idles again
    // (a busy CPU's own balancing is not modelled): hog3 has it alone for 1 s, hog1 and
    // hog2 share CPU 0 in 100 ms slices.
    let workload = "kernel o1\ncpus 2\nuntil 1s\ntask hog x 3\n  forever {\n    run 50ms\n  }\n";
    let run = run(workload, "as-written");
    let user: Vec<u64> = ["hog1", "hog2", "hog3"].iter().map(|task| task_ms(&run, task, "user_ns")).collect();
    assert_eq!(user, vec![500, 500, 1000]);
    let text = narration(&run);
    assert!(text.contains("CPU 1 is about to idle: idle_balance pulls hog3 from CPU 0, the busiest run queue (3 tasks), out of its active array."), "{text}");
    // Pinned elsewhere, a task is never pulled: hog2 and hog3 stay on CPU 0 with hog1.
    let pinned = "kernel o1\ncpus 2\nuntil 1s\ntask hog x 3 cpu=0\n  forever {\n    run 50ms\n  }\n";
    let run = self::run(pinned, "as-written");
    assert!(!narration(&run).contains("idle_balance pulls"));
}

#[test]
fn goodness_on_two_cpus_follows_reschedule_idle_and_the_cpu_bonus() {
    // 2.4.24 SMP at HZ 100 (a tick is 10 ms); a forked task starts with 3 ticks. A arrives
    // at 0 and its CPU (0) is idle: it runs there. B (1 ms) finds CPU 0 busy: CPU 1 has
    // idled longest, B runs there. C (5 ms) finds no CPU idle, and preempts neither: on
    // CPU 0 its 3 + 15 (its last CPU) + 20 = 38 against A's 3 + 15 + 1 + 20 = 39.
    let workload = "kernel goodness\ncpus 2\nuntil 55ms\ntask A\n  forever {\n    run 50ms\n  }\n\
                    task B at=1ms\n  forever {\n    run 50ms\n  }\n\
                    task C at=5ms\n  forever {\n    run 1ms\n    sleep 20ms\n  }\n";
    let run = run(workload, "as-written");
    let text = narration(&run);
    assert!(
        text.contains("CPU 0 runs its idle task and is the CPU it last ran on: A is sent there"),
        "{text}"
    );
    assert!(text.contains("CPU 1 runs its idle task and is idle the longest: B is sent there"), "{text}");
    // At 30 ms A's and B's counters run out together. CPU 0 takes C (38: 3 + 15 + 20); A,
    // preempted, is offered to CPU 1 (idle), where only A and B, both spent, remain: a new
    // epoch (A and B 6, C 3 / 2 + 6 = 7), and B (6 + 15 + 1 + 20 = 42) beats A (26).
    assert_eq!(task_ms(&run, "C", "response_ns"), 25);
    assert!(
        text.contains("Every runnable task CPU 1 may take (not running elsewhere) has a counter of 0"),
        "{text}"
    );
    assert!(text.contains("B runs on CPU 1: goodness 42"), "{text}");
    // C runs 30–31 and sleeps; CPU 0 takes A (6 + 15 + 20 = 41). At 51 ms C wakes with
    // 7 ticks: on CPU 0, 7 + 15 + 20 = 42 beats A's 4 + 15 + 1 + 20 = 40: A is preempted.
    assert!(text.contains("on CPU 0 its goodness 42 beats A's 40"), "{text}");
    let user: Vec<u64> = ["A", "B", "C"].iter().map(|task| task_ms(&run, task, "user_ns")).collect();
    assert_eq!(user, vec![30 + 20 + 3, 29 + 25, 2]);
}

#[test]
fn eevdf_on_two_cpus_places_wakeups_on_idle_cpus_and_an_idle_cpu_pulls() {
    // HZ 250 (a tick is 4 ms); on 2 CPUs a slice is 0.7 ms × (1 + log2 2) = 1.4 ms. A, B and
    // C arrive at 0, as if forked on CPU 0. A finds CPU 0 idle; B finds CPU 0's queue taken
    // and goes to the next idle CPU, 1; C finds none idle and stays on CPU 0. CPU 0 picks A
    // (A and C tie on deadline 0.7 ms, half a slice: the lower task number), CPU 1 picks B.
    let workload = "kernel eevdf\ncpus 2\njob A length=10ms\njob B length=2ms\njob C length=6ms\n";
    let run = run(workload, "as-written");
    let text = narration(&run);
    assert!(text.contains("A joins CPU 0's queue, its previous CPU, idle (CPU 0)"), "{text}");
    assert!(
        text.contains("B joins CPU 1's queue, the first idle CPU after its previous one (CPU 0)"),
        "{text}"
    );
    assert!(
        text.contains("C joins CPU 0's queue, its previous CPU: none it may use is idle (CPU 0)"),
        "{text}"
    );
    // B ends at 2 ms and CPU 1's queue is empty: it pulls from CPU 0 (2 tasks) its waiting
    // task, C. A is charged 2 ms first, so V there is (2 + 0) / 2 = 1 ms and C leaves owed
    // 1 ms. CPU 1's queue is empty, so no lag is scaled: C is placed at its V, where B left
    // it (vruntime 2 ms). A migration is no sleep, so PLACE_REL_DEADLINE keeps C's deadline
    // as far after its vruntime as it was, the half slice it arrived with: 2.7 ms (a fresh
    // slice would give 3.4 ms). C runs 2–8 ms.
    assert!(
        text.contains("CPU 1 finds its queue empty: newidle balancing pulls C from CPU 0, the queue with the most tasks (2), the waiting task that ran least recently. It leaves with lag 1 ms and is placed here at vruntime 2 ms, deadline 2.7 ms"),
        "{text}"
    );
    // A has CPU 0 to itself from then on: 0–10 ms.
    assert_eq!(figures(&run, &["A", "B", "C"]), vec![(0, 10, 0), (0, 2, 0), (2, 8, 2)]);
}

#[test]
fn o1_an_all_pinned_imbalance_backs_off_to_max_pinned_interval() {
    // x runs pinned on CPU 1, three hogs pinned on CPU 0. CPU 1 sees 3 tasks against
    // its 1 at every balance, but none may come: load_balance goes to out_balanced and
    // the interval doubles past max_interval (4 ms). CPU 1 is 125 jiffies ahead; busy,
    // the interval is balance_interval × 64: due at jiffy 1 (126 − 0 ≥ 64; last_balance
    // 64, interval 2 ms), 67 (192 − 64 ≥ 128; 192, 4 ms), 323 (448; 8 ms), 835 (960;
    // 16 ms), 1859 (1984; 32 ms). Capped at max_interval it would come every 256 ms
    // from 323 on (579, 835, 1091, ...).
    let workload = "kernel o1\ncpus 2\nuntil 2s\ntask x cpu=1\n  forever {\n    run 50ms\n  }\n\
                    task hog x 3 cpu=0\n  forever {\n    run 50ms\n  }\n";
    let run = run(workload, "as-written");
    let text = narration(&run);
    let pinned: Vec<&str> = text.lines().filter(|line| line.contains("finds them all pinned")).collect();
    assert_eq!(pinned.len(), 5, "{}", pinned.join("\n"));
    assert!(
        pinned[0].contains(
            "CPU 1, busy, balances (rebalance_tick: every 64 ms while busy): CPU 0 has 3 tasks, it has 1"
        ),
        "{}",
        pinned[0]
    );
    assert!(pinned[0].contains("next in 128 ms while busy"), "{}", pinned[0]);
    let at_ms: Vec<u64> = pinned
        .iter()
        .map(|line| {
            line.split_whitespace().next().and_then(|ns| ns.parse::<u64>().ok()).unwrap_or(0) / 1_000_000
        })
        .collect();
    assert_eq!(at_ms, vec![1, 67, 323, 835, 1859]);
    assert!(pinned[4].contains("every 1.02 s while busy"), "{}", pinned[4]);
    assert!(!text.contains("load_balance pulls"), "nothing may move");
}

#[test]
fn o1_a_busy_cpu_pulls_at_its_periodic_rebalance() {
    // x runs pinned on CPU 1; three hogs arrive on CPU 0. CPU 1 is never idle, so
    // idle_balance never runs there; but rebalance_tick does at each tick, due once
    // 1 ms × busy_factor 64 has passed. CPU 1 is CPU_OFFSET = 1000 × 1 / 8 = 125 jiffies
    // ahead of the domain's clock, so at its first tick (1 ms): CPU 0 has 3 tasks, it has
    // 1, it pulls one, hog3 (the tail, not running). Then each CPU runs two hogs in
    // turns of a 100 ms slice: 500 ms each in 1 s. The 1 ms pull follows from the Lab's
    // named simplification (task counts now instead of 2.6.14's decayed cpu_load, which
    // starts at 0 and would not show the imbalance at that first balance, so the first
    // pull would come at a later one, a busy interval or more on); it is not 2.6.14's
    // own timing.
    let workload = "kernel o1\ncpus 2\nuntil 1s\ntask x cpu=1\n  forever {\n    run 50ms\n  }\n\
                    task hog x 3\n  forever {\n    run 50ms\n  }\n";
    let run = run(workload, "as-written");
    let text = narration(&run);
    assert!(
        text.contains("CPU 1, busy, balances (rebalance_tick: every 64 ms while busy, its domain's interval times busy_factor): CPU 0 has 3 tasks, it has 1, so load_balance pulls hog3 out of CPU 0's active array."),
        "{text}"
    );
    let user: Vec<u64> =
        ["x", "hog1", "hog2", "hog3"].iter().map(|task| task_ms(&run, task, "user_ns")).collect();
    assert_eq!(user, vec![500, 500, 500, 500]);
}
