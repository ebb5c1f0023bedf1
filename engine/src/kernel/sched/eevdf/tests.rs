//! EEVDF's rules, one by one, from hand-computed cases.

use super::*;

const MS: i64 = 1_000_000;

/// A queue of `tasks` nice-0 tasks on a 2-CPU machine at HZ 250 (slice 1.4 ms, tick 4 ms).
fn queue(tasks: usize) -> RunQueue {
    RunQueue::new(tasks, 0, 2, 250, DEFAULT_FEATURES)
}

#[test]
fn weights_follow_sched_prio_to_weight() {
    assert_eq!(weight_of_nice(0), 1024);
    assert_eq!(weight_of_nice(5), 335);
    assert_eq!(weight_of_nice(-5), 3121);
    assert_eq!(weight_of_nice(-20), 88761);
    assert_eq!(weight_of_nice(19), 15);
    assert_eq!(weight_of_nice(40), 15, "clamped");
}

#[test]
fn the_base_slice_is_0_70_ms_times_one_plus_log2_of_the_cpus_up_to_8() {
    assert_eq!(base_slice_ns(1), 700_000);
    assert_eq!(base_slice_ns(2), 1_400_000);
    assert_eq!(base_slice_ns(3), 1_400_000);
    assert_eq!(base_slice_ns(4), 2_100_000);
    assert_eq!(base_slice_ns(8), 2_800_000);
    assert_eq!(base_slice_ns(64), 2_800_000, "scaled for at most 8 CPUs");
}

#[test]
fn virtual_time_runs_slower_for_heavier_tasks() {
    assert_eq!(calc_delta_fair(1_000_000, 1024), 1_000_000);
    // 1 ms × 1024 / 3121 = 328,099.96…, rounded down.
    assert_eq!(calc_delta_fair(1_000_000, 3121), 328_099);
    // 1 ms × 1024 / 335 = 3,056,716.4…
    assert_eq!(calc_delta_fair(1_000_000, 335), 3_056_716);
}

#[test]
fn v_is_the_weighted_average_vruntime_rounded_down() {
    let mut rq = queue(2);
    rq.entities[0] = Entity { vruntime: 0, on_rq: true, ..rq.entities[0] };
    rq.entities[1] = Entity { vruntime: 3_001, on_rq: true, ..rq.entities[1] };
    assert_eq!(rq.avg_vruntime(), 1_500, "(0 + 3001) / 2 rounded down");
    // Weights 1024 and 3121: (0 × 1024 + 4145 × 3121) / 4145 = 3121.
    rq.entities[1] = Entity { vruntime: 4_145, weight: 3121, ..rq.entities[1] };
    assert_eq!(rq.avg_vruntime(), 3_121);
    // Negative sums round towards minus infinity: (−1 − 2) / 2 = −1.5 → −2.
    rq.entities[0].vruntime = -1;
    rq.entities[1] = Entity { vruntime: -2, weight: 1024, ..rq.entities[1] };
    assert_eq!(rq.avg_vruntime(), -2);
}

#[test]
fn eligible_means_owed_service_vruntime_at_most_v() {
    let mut rq = queue(3);
    for (task, v) in [(0, 0), (1, 1_000), (2, 2_000)] {
        rq.entities[task] = Entity { vruntime: v, on_rq: true, ..rq.entities[task] };
    }
    // V = 1000.
    assert!(rq.eligible(0));
    assert!(rq.eligible(1), "exactly at V is eligible");
    assert!(!rq.eligible(2));
}

#[test]
fn a_new_task_starts_at_v_with_half_a_slice_to_its_deadline() {
    let mut rq = queue(2);
    rq.enqueue(0, Enqueue::Initial);
    assert_eq!(rq.entities[0].vruntime, 0);
    assert_eq!(rq.entities[0].deadline, 700_000, "PLACE_DEADLINE_INITIAL: 1.4 ms / 2");
    rq.enqueue(1, Enqueue::Wakeup);
    assert_eq!(rq.entities[1].deadline, 1_400_000, "a wakeup gets the whole slice");
}

#[test]
fn place_lag_scales_the_kept_lag_by_the_load_it_joins() {
    let mut rq = queue(2);
    rq.enqueue(0, Enqueue::Wakeup);
    rq.set_next(0);
    rq.update_curr(1_000_000); // task 0 at v = 1 ms: V = 1 ms
    rq.entities[1].vlag = 300_000;
    rq.enqueue(1, Enqueue::Wakeup);
    // lag = 300 µs × (1024 + 1024) / 1024 = 600 µs: placed at 1 ms − 0.6 ms.
    assert_eq!(rq.entities[1].vruntime, 400_000);
    assert_eq!(rq.entities[1].deadline, 1_800_000);
    // V after joining: (1 ms + 0.4 ms) / 2 = 0.7 ms = 1 ms − the 300 µs it was owed.
    assert_eq!(rq.avg_vruntime(), 700_000);
    // Without PLACE_LAG the lag is forgotten.
    let mut rq = RunQueue::new(2, 0, 2, 250, Features { place_lag: false, ..DEFAULT_FEATURES });
    rq.enqueue(0, Enqueue::Wakeup);
    rq.set_next(0);
    rq.update_curr(1_000_000);
    rq.entities[1].vlag = 300_000;
    rq.enqueue(1, Enqueue::Wakeup);
    assert_eq!(rq.entities[1].vruntime, 1_000_000);
}

#[test]
fn a_sleeper_keeps_its_lag_clamped_to_two_slices_or_a_tick() {
    let mut rq = queue(2);
    rq.enqueue(0, Enqueue::Wakeup);
    rq.enqueue(1, Enqueue::Wakeup);
    rq.set_next(0);
    rq.update_curr(1_000_000); // 0 at 1 ms, 1 at 0: V = 0.5 ms
    rq.dequeue_sleep(1);
    assert_eq!(rq.entities[1].vlag, 500_000, "owed V − v = 0.5 ms");
    // A large debt is clamped to max(2 × 1.4 ms, 4 ms tick) = 4 ms.
    let mut rq = queue(2);
    rq.enqueue(0, Enqueue::Wakeup);
    rq.enqueue(1, Enqueue::Wakeup);
    rq.set_next(0);
    rq.update_curr(20_000_000); // V = 10 ms, task 1 owed 10 ms
    rq.dequeue_sleep(1);
    assert_eq!(rq.entities[1].vlag, 4 * MS);
    // Not eligible when it sleeps: it leaves with zero lag (model choice).
    rq.enqueue(1, Enqueue::Wakeup);
    rq.dequeue_sleep(0);
    assert_eq!(rq.entities[0].vlag, 0);
}

#[test]
fn the_current_task_gets_a_new_deadline_when_it_reaches_the_old_one() {
    let mut rq = queue(2);
    rq.enqueue(0, Enqueue::Wakeup);
    rq.enqueue(1, Enqueue::Wakeup);
    rq.set_next(0);
    assert!(!rq.update_curr(1_000_000), "1 ms of a 1.4 ms slice");
    assert_eq!(rq.entities[0].deadline, 1_400_000);
    assert!(rq.update_curr(500_000), "the slice is used up: reschedule");
    assert_eq!(rq.entities[0].deadline, 2_900_000, "vruntime 1.5 ms + a slice");
    // Alone on the queue, a new deadline does not ask for a reschedule.
    let mut rq = queue(1);
    rq.enqueue(0, Enqueue::Wakeup);
    rq.set_next(0);
    assert!(!rq.update_curr(1_500_000));
    assert_eq!(rq.entities[0].deadline, 2_900_000);
}

#[test]
fn a_task_picked_again_is_rescheduled_when_its_old_protection_runs_out() {
    // update_curr also reschedules when the slice is no longer protected
    // (`!protect_slice(curr)`), without a new deadline: task 0 picked, then its
    // deadline pushed on (as a renewal away from a tick does) while vprot stays.
    let mut rq = queue(2);
    rq.enqueue(0, Enqueue::Wakeup);
    rq.enqueue(1, Enqueue::Wakeup);
    rq.set_next(0); // deadline = vprot = 1.4 ms
    rq.entities[0].deadline = 5 * MS;
    assert!(!rq.update_curr(1_000_000), "1 ms: still protected");
    assert!(rq.update_curr(500_000), "1.5 ms: past vprot, no new deadline, reschedule");
    assert_eq!(rq.entities[0].deadline, 5 * MS, "the deadline was not renewed");
}

#[test]
fn slices_expire_at_ticks() {
    // HZ 250: a 1.4 ms slice is noticed at the first 4 ms tick.
    let mut rq = queue(2);
    rq.enqueue(0, Enqueue::Wakeup);
    rq.enqueue(1, Enqueue::Wakeup);
    rq.set_next(0);
    assert_eq!(rq.run_until_tick_resched_ns(), Some(4_000_000));
    // HZ 1000 on 2 CPUs: two 1 ms ticks.
    let mut rq = RunQueue::new(2, 0, 2, 1000, DEFAULT_FEATURES);
    rq.enqueue(0, Enqueue::Wakeup);
    rq.set_next(0);
    assert_eq!(rq.run_until_tick_resched_ns(), Some(2_000_000));
    // A nice −5 task's 1.4 ms slice is 459,339 virtual ns (1.4 ms × 1024 / 3121, rounded down), still 1.4 ms of real time.
    let mut rq = RunQueue::new(1, -5, 2, 1000, DEFAULT_FEATURES);
    rq.enqueue(0, Enqueue::Wakeup);
    rq.set_next(0);
    assert_eq!(rq.entities[0].deadline, 459_339);
    assert_eq!(rq.run_until_tick_resched_ns(), Some(2_000_000));
}

#[test]
fn pick_takes_the_earliest_deadline_among_eligible_tasks() {
    let mut rq = queue(3);
    for (task, v, d) in [(0, 0, 5 * MS), (1, 2 * MS, 3 * MS), (2, MS, 4 * MS)] {
        rq.entities[task] = Entity { vruntime: v, deadline: d, on_rq: true, ..rq.entities[task] };
    }
    // V = 1 ms: tasks 0 and 2 eligible; 1 has the earliest deadline but is not.
    assert_eq!(rq.pick(true), Some(2));
}

/// A heavy task (nice −5) waiting with an earlier deadline than the current nice-0
/// task: RUN_TO_PARITY keeps the current one while it is eligible and protected.
fn heavy_waiter(features: Features) -> RunQueue {
    let mut rq = RunQueue::new(2, 0, 2, 250, features);
    rq.entities[1].weight = weight_of_nice(-5);
    rq.enqueue(0, Enqueue::Wakeup); // v 0, deadline 1.4 ms
    rq.set_next(0);
    rq.enqueue(1, Enqueue::Wakeup); // v 0, deadline 459,339
    rq
}

#[test]
fn run_to_parity_keeps_an_eligible_current_task_until_its_deadline() {
    let rq = heavy_waiter(DEFAULT_FEATURES);
    assert_eq!(rq.entities[1].deadline, 459_339);
    assert!(rq.eligible(0));
    assert_eq!(rq.pick(true), Some(0), "protected: vruntime 0 < vprot 1.4 ms");
    assert!(!rq.wakeup_preempts(1));
    assert_eq!(rq.pick(false), Some(1), "unprotected pick: the earlier deadline");
    let rq = heavy_waiter(Features { run_to_parity: false, ..DEFAULT_FEATURES });
    assert_eq!(rq.pick(true), Some(1));
    assert!(rq.wakeup_preempts(1));
}

#[test]
fn a_woken_task_preempts_a_current_task_that_is_no_longer_eligible() {
    let mut rq = queue(2);
    rq.enqueue(0, Enqueue::Wakeup);
    rq.set_next(0);
    rq.update_curr(100_000); // v 0.1 ms, V 0.1 ms
    rq.entities[1].vlag = 600_000;
    rq.enqueue(1, Enqueue::Wakeup);
    // Placed at 0.1 − 1.2 = −1.1 ms, deadline 0.3 ms; V = −0.5 ms, so 0 is not eligible.
    assert_eq!(rq.entities[1].vruntime, -1_100_000);
    assert!(!rq.eligible(0));
    assert!(rq.wakeup_preempts(1));
    // Woken owing service (negative lag), it waits: 0 is eligible and protected.
    let mut rq = queue(2);
    rq.enqueue(0, Enqueue::Wakeup);
    rq.set_next(0);
    rq.update_curr(100_000);
    rq.entities[1].vlag = -200_000;
    rq.enqueue(1, Enqueue::Wakeup);
    assert_eq!(rq.entities[1].vruntime, 500_000);
    assert!(!rq.wakeup_preempts(1));
}

#[test]
fn two_equal_tasks_take_turns_a_tick_each() {
    // Both nice 0 on one CPU at HZ 250: each runs until the tick that ends its slice.
    let mut rq = queue(2);
    rq.enqueue(0, Enqueue::Wakeup);
    rq.enqueue(1, Enqueue::Wakeup);
    let mut order = Vec::new();
    let mut current = rq.pick(true).expect("a task");
    for _ in 0..6 {
        rq.set_next(current);
        order.push(current);
        let run = rq.run_until_tick_resched_ns().expect("current");
        assert_eq!(run, 4_000_000);
        assert!(rq.update_curr(run));
        current = rq.pick(true).expect("a task");
    }
    assert_eq!(order, [0, 1, 0, 1, 0, 1]);
}

#[test]
fn a_wakeup_charges_the_current_task_first_and_schedule_keeps_a_task_picked_again() {
    let mut rq = queue(2);
    assert!(rq.wake(0, Enqueue::Initial, 0), "an idle queue: the new task runs");
    assert_eq!(rq.schedule(None, 0, false), Some(0));
    // 0 ran 0.5 ms, short of its 0.7 ms deadline: 1 joins at V = 0.5 ms (V of 0 alone).
    assert!(!rq.wake(1, Enqueue::Initial, 500_000), "0 is eligible and protected");
    assert_eq!(rq.entities[0].vruntime, 500_000);
    assert_eq!((rq.entities[1].vruntime, rq.entities[1].deadline), (500_000, 1_200_000));
    // 0 runs on to 0.7 ms: its deadline, renewed to 2.1 ms; 1's 1.2 ms is earlier.
    assert_eq!(rq.schedule(Some(0), 200_000, false), Some(1));
    // 1 sleeps at once: it leaves with its lag, V − vruntime = 0.6 − 0.5 ms.
    assert_eq!(rq.lag(1), 100_000);
    assert_eq!(rq.schedule(Some(1), 0, true), Some(0));
    assert_eq!(rq.entities[1].vlag, 100_000);
}

#[test]
fn an_eligible_task_that_yields_gives_up_the_rest_of_its_request() {
    let mut rq = queue(2);
    rq.enqueue(0, Enqueue::Wakeup);
    rq.enqueue(1, Enqueue::Wakeup);
    rq.set_next(0);
    // Deadline 1.4 ms; it yields at once, eligible: vruntime 1.4 ms, deadline 2.8 ms.
    assert!(rq.yield_curr(0));
    assert_eq!((rq.entities[0].vruntime, rq.entities[0].deadline), (1_400_000, 2_800_000));
    assert_eq!(rq.pick(true), Some(1));
    // Not eligible (vruntime 0.2 ms past V = 0.1 ms), a yield only charges it.
    let mut ahead = queue(2);
    ahead.enqueue(0, Enqueue::Wakeup);
    ahead.enqueue(1, Enqueue::Wakeup);
    ahead.set_next(0);
    assert!(!ahead.yield_curr(200_000));
    assert_eq!((ahead.entities[0].vruntime, ahead.entities[0].deadline), (200_000, 1_400_000));
    // Alone on the queue, a yield does nothing.
    let mut alone = queue(1);
    alone.enqueue(0, Enqueue::Wakeup);
    alone.set_next(0);
    assert!(!alone.yield_curr(200_000));
    assert_eq!(alone.entities[0].vruntime, 0);
}

#[test]
fn a_wakeup_goes_to_its_previous_cpu_if_idle_else_the_next_idle_one_else_back() {
    assert_eq!(select_idle_sibling(1, &[true, true, false]), 1);
    assert_eq!(select_idle_sibling(1, &[true, false, false]), 0, "wrapping after CPU 1");
    assert_eq!(select_idle_sibling(1, &[true, false, true]), 2, "the first after it");
    assert_eq!(select_idle_sibling(2, &[false, false, false]), 2, "none idle: its own");
}

#[test]
fn a_migrated_task_keeps_its_lag_and_the_oldest_waiter_moves() {
    // Three tasks on one queue: a runs 2 ms; b and c wait, owed service.
    let mut from = queue(3);
    for task in 0..3 {
        from.enqueue(task, Enqueue::Wakeup);
    }
    assert_eq!(from.schedule(None, 0, false), Some(0));
    from.update_curr(2 * MS as u64);
    // b was enqueued before c, and neither has run since: b is at the tail of cfs_tasks.
    assert_eq!(from.migration_candidate(|_| true), Some(1));
    assert_eq!(from.migration_candidate(|t| t != 1), Some(2));
    // V = (2 ms + 0 + 0) / 3 rounded down; b's lag is V − 0, within the clamp.
    let v = from.avg_vruntime();
    assert_eq!(v, 666_666);
    let left = from.dequeue_migrate(1);
    assert_eq!(left.vlag, 666_666);
    assert!(!from.entities[1].on_rq);
    // On an empty queue it is placed at that queue's V (zero) less nothing: PLACE_LAG
    // scales a lag only by a load already there.
    let mut to = queue(3);
    to.adopt(1, &left);
    to.enqueue(1, Enqueue::Wakeup);
    assert_eq!((to.entities[1].vruntime, to.entities[1].deadline), (0, 1_400_000));
    // A task that is not eligible leaves with its negative lag too (not a sleep).
    let mut ahead = queue(2);
    ahead.enqueue(0, Enqueue::Wakeup);
    ahead.enqueue(1, Enqueue::Wakeup);
    assert_eq!(ahead.schedule(None, 0, false), Some(0));
    ahead.update_curr(2 * MS as u64);
    ahead.schedule(Some(0), 0, false);
    assert_eq!(ahead.curr, Some(1));
    assert_eq!(ahead.dequeue_migrate(0).vlag, -MS);
}

#[test]
fn a_migrated_task_keeps_what_is_left_of_its_slice_a_woken_one_gets_a_fresh_one() {
    // a and b join at V = 0, each with a deadline one virtual slice (1.4 ms on 2 CPUs)
    // later; a runs 0.5 ms, then b is picked (a is not eligible: 0.5 ms > V = 0.25 ms).
    let mut from = queue(2);
    from.enqueue(0, Enqueue::Wakeup);
    from.enqueue(1, Enqueue::Wakeup);
    assert_eq!(from.schedule(None, 0, false), Some(0));
    from.update_curr(MS as u64 / 2);
    assert_eq!(from.schedule(Some(0), 0, false), Some(1));
    assert_eq!((from.entities[0].vruntime, from.entities[0].deadline), (500_000, 1_400_000));
    // detach_task is no sleep: PLACE_REL_DEADLINE keeps deadline − vruntime = 0.9 ms.
    let left = from.dequeue_migrate(0);
    assert_eq!((left.vlag, left.deadline, left.rel_deadline), (-250_000, 900_000, true));
    // On an empty queue it joins at V = 0 (no load to scale its lag by), deadline 0.9 ms
    // on (a fresh slice would put it at 1.4 ms).
    let mut to = queue(2);
    to.adopt(0, &left);
    to.enqueue(0, Enqueue::Wakeup);
    assert_eq!((to.entities[0].vruntime, to.entities[0].deadline), (0, 900_000));
    assert!(!to.entities[0].rel_deadline);
    // A sleep keeps no relative deadline: woken elsewhere, a fresh slice.
    assert_eq!(to.schedule(None, 0, false), Some(0));
    to.update_curr(MS as u64 / 2);
    to.dequeue_sleep(0);
    let mut other = queue(2);
    other.adopt(0, &to.entities[0]);
    other.enqueue(0, Enqueue::Wakeup);
    assert_eq!((other.entities[0].vruntime, other.entities[0].deadline), (0, 1_400_000));
}
