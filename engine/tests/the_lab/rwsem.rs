//! Agreement with the rwsem playground, and the lock costs that make it exact.

use super::*;

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
