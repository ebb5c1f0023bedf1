//! Locks, deadlocks, spinning, the run's horizon and its determinism.

use super::*;

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
    assert!(text.contains("Deadlock: 2 tasks"), "{text}");
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

/// The Perfetto export of a Lab run: each task a thread of the machine, each lock a
/// track of its own (process 2) with its holds as slices, when they were held.
#[test]
fn a_lab_run_exports_its_tasks_as_threads_and_its_locks_as_tracks() {
    let run = run(MUTEX_PAIR, "as-written");
    let meta = simulation("the-lab").expect("the Lab is built").meta();
    let json: serde_json::Value =
        serde_json::from_str(&slowpath_engine::export::perfetto::perfetto_json(meta, &run)).expect("JSON");
    let events = json["traceEvents"].as_array().expect("events");
    let named = |pid: u64| -> Vec<(u64, String)> {
        events
            .iter()
            .filter(|event| event["name"] == "thread_name" && event["pid"] == pid)
            .map(|event| {
                (event["tid"].as_u64().unwrap(), event["args"]["name"].as_str().unwrap().to_string())
            })
            .collect()
    };
    let threads: Vec<String> = named(1).into_iter().map(|(_, name)| name).collect();
    assert!(threads.contains(&"t1".to_string()) && threads.contains(&"t2".to_string()), "{threads:?}");
    let tracks = named(2);
    let (lock_tid, _) = tracks.iter().find(|(_, name)| name == "M").expect("M has a track");
    // Its holds: t1's 0–15 ms and t2's 15–30 ms, in µs on the track.
    let mut holds: Vec<(f64, f64)> = events
        .iter()
        .filter(|event| event["ph"] == "X" && event["pid"] == 2 && event["tid"].as_u64() == Some(*lock_tid))
        .map(|event| (event["ts"].as_f64().unwrap(), event["dur"].as_f64().unwrap()))
        .collect();
    holds.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert_eq!(holds, vec![(0.0, 15_000.0), (15_000.0, 15_000.0)]);
}
