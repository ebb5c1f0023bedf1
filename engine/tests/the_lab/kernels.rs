//! The kernels' own rules (O(1), EEVDF, 2.4's goodness), each on a hand-computed run.

use super::*;

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
    assert!(text.contains("editor's priority 123 is better than hog's 125: editor preempts it"), "{text}");
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
