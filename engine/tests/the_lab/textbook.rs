//! The textbook's policies on its own exercises, each computed by hand (OSTEP 7).

use super::*;

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

#[test]
fn stcf_on_two_cpus_preempts_the_task_with_the_most_left() {
    // A (100 ms) on CPU 0 and B (50 ms) on CPU 1 from 0; C (10 ms) arrives at 20 ms,
    // when A has 80 ms left and B 30: C takes A's CPU, 20–30, and A resumes at 30.
    let workload = "cpus 2\njob A length=100ms\njob B length=50ms\njob C at=20ms length=10ms\n";
    let run = run(workload, "stcf");
    assert_eq!(figures(&run, &["A", "B", "C"]), vec![(0, 110, 10), (0, 50, 0), (0, 10, 0)]);
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
fn time_before_a_job_arrives_is_no_part_of_its_sleep() {
    // C arrives at 20 ms, waits for B's CPU until 50 and runs 50–60: it never sleeps, and
    // the 20 ms before it existed count in no column of its row (turnaround starts at arrival).
    let workload = "cpus 2\njob A length=100ms\njob B length=50ms\njob C at=20ms length=10ms\n";
    let run = run(workload, "fifo");
    assert_eq!(task_ms(&run, "C", "sleep_ns"), 0);
    assert_eq!(task_ms(&run, "C", "turnaround_ns"), 40, "B ends at 50, C runs 50–60");
    let columns = ["user_ns", "sys_ns", "waiting_ns", "blocked_ns", "sleep_ns"];
    let accounted: u64 = columns.iter().map(|key| task_ms(&run, "C", key)).sum();
    assert_eq!(accounted, task_ms(&run, "C", "turnaround_ns"), "a row's columns add up to its turnaround");
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

/// Each queued task's (rank, key) in the policy's queue (`machine/shown.rs`), the
/// first time `ready(world)` holds; None for a task not in the queue.
fn queue_when(run: &Run, ready: impl Fn(&World) -> bool) -> Vec<Option<(i64, i64)>> {
    let world = (0..=run.total_ops()).map(|position| run.state_at(position)).find(|world| ready(world));
    let world = world.expect("the moment comes");
    world.tasks.iter().map(|task| (task.gauges[0] == 1).then(|| (task.gauges[1], task.gauges[2]))).collect()
}

#[test]
fn the_queue_is_shown_in_the_order_each_policy_takes_it() {
    // Round robin: once B has A's CPU (A's quantum ended), C is next and A, just put
    // at the tail, after it; B runs, out of the queue.
    let rr = run(&format!("kernel rr quantum=10ms\n{THREE_JOBS}"), "as-written");
    let b_runs = |world: &World| matches!(world.tasks[1].state, TaskState::RunningUser { .. });
    assert_eq!(queue_when(&rr, b_runs), vec![Some((2, 0)), None, Some((1, 0))]);
    // SJF: A runs; B (20 ms) and C (10 ms) arrive and are ordered by length, C first.
    let sjf = run(
        "kernel sjf\njob A length=30ms\njob B at=1ms length=20ms\njob C at=2ms length=10ms\n",
        "as-written",
    );
    let all_in = |world: &World| world.tasks[2].state == TaskState::Runnable;
    assert_eq!(queue_when(&sjf, all_in), vec![None, Some((2, 20 * MS as i64)), Some((1, 10 * MS as i64))]);
    // STCF orders by the time left: A ran 2 ms of 30 before C came and stays on its CPU
    // (28 ms left is more than C's 10 only if C preempts: it does; A is queued with 28).
    let stcf = run("kernel stcf\njob A length=30ms\njob C at=2ms length=10ms\n", "as-written");
    let c_runs = |world: &World| matches!(world.tasks[1].state, TaskState::RunningUser { .. });
    assert_eq!(queue_when(&stcf, c_runs), vec![Some((1, 28 * MS as i64)), None]);
}
