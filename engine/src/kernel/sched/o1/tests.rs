//! The O(1) rules, one by one, from hand-computed cases.

use super::*;
use crate::run::world::TaskId;

const MS: u64 = 1_000_000;

fn hz1000() -> O1 {
    O1::new(1000)
}

#[test]
fn static_priority_and_timeslice_follow_nice() {
    let o1 = hz1000();
    assert_eq!(static_prio(0), 120);
    assert_eq!(static_prio(-20), 100);
    assert_eq!(static_prio(19), 139);
    // 10 + 190 × (139 − 120) / 39 = 102 ms at nice 0; 200 ms at −20; 10 ms at +19.
    assert_eq!(o1.timeslice(120), 102);
    assert_eq!(o1.timeslice(100), 200);
    assert_eq!(o1.timeslice(139), 10);
    assert_eq!(o1.max_sleep_avg_ns(), 1_020 * MS);
    // At HZ 100 a jiffy is 10 ms: 1 + 19 × 19 / 39 = 10 jiffies = 100 ms.
    let o1 = O1::new(100);
    assert_eq!(o1.timeslice(120), 10);
    assert_eq!(o1.max_sleep_avg_ns(), 1_000 * MS);
}

#[test]
fn bonus_and_dynamic_priority() {
    let o1 = hz1000();
    assert_eq!(o1.current_bonus(0), 0);
    assert_eq!(o1.effective_prio(120, 0), 125, "a task that never sleeps");
    assert_eq!(o1.current_bonus(1_020 * MS), 10);
    assert_eq!(o1.effective_prio(120, 1_020 * MS), 115);
    assert_eq!(o1.current_bonus(714 * MS), 7);
    assert!(task_interactive(o1.effective_prio(120, 714 * MS), 120), "bonus 7 is interactive at nice 0");
    assert!(!task_interactive(o1.effective_prio(120, 600 * MS), 120), "bonus 5 is not");
    // One bonus step is 102 jiffies: below that a nice-0 task is at 125, like a pure hog.
    assert_eq!(o1.effective_prio(120, 101 * MS), 125);
    assert_eq!(o1.effective_prio(120, 102 * MS), 124);
}

#[test]
fn sleep_is_credited_on_wakeup_and_run_time_debited() {
    let o1 = hz1000();
    let mut task = O1Task::new(&o1, 0, 0);
    // 50 ms of sleep with bonus 0 counts ten times: 500 ms of sleep_avg.
    let credit = task.wake(&o1, 50 * MS);
    assert_eq!(credit.added_ns, 500 * MS);
    assert_eq!(task.sleep_avg_ns, 500 * MS);
    assert_eq!(task.activated, Activated::Woken);
    // 500 jiffies × 10 / 1,020 = bonus 4: one priority level worse than static.
    assert_eq!(task.prio, 121);
    // 100 ms of running debits 100 ms: no HIGH_CREDIT, so no division by the bonus.
    task.timestamp_ns = 1_000 * MS;
    assert_eq!(task.charge(&o1, 1_100 * MS), 100 * MS);
    assert_eq!(task.sleep_avg_ns, 400 * MS);
    // A HIGH_CREDIT task at bonus 3 is debited a third.
    task.interactive_credit = CREDIT_LIMIT + 1;
    task.timestamp_ns = 2_000 * MS;
    assert_eq!(task.charge(&o1, 2_090 * MS), 30 * MS);
    // A sleep longer than JUST_INTERACTIVE_SLEEP gives just interactive status.
    task.interactive_credit = 0;
    assert_eq!(o1.just_interactive_sleep_ns(120), 815 * MS);
    task.timestamp_ns = 3_000 * MS;
    let credit = task.wake(&o1, 3_900 * MS);
    assert!(credit.just_interactive);
    assert_eq!(task.sleep_avg_ns, (1_020 - 102) * MS);
    assert_eq!(task.interactive_credit, 1);
    assert!(task.interactive());
}

#[test]
fn a_child_of_an_idle_shell_starts_nearly_interactive_with_half_a_slice() {
    let o1 = hz1000();
    // Bonus 10 × 95 / 100 = 9 (integer), × 1,020 / 10 = 918 jiffies.
    let child = O1Task::forked(&o1, 0, 0, MAX_BONUS);
    assert_eq!(child.sleep_avg_ns, 918 * MS);
    assert_eq!(child.prio, 115, "the parent's priority, until its own is computed");
    assert!(child.interactive());
    assert_eq!(child.time_slice, 51);
}

#[test]
fn fork_shares_the_parents_remaining_slice() {
    // The child rounds up, the parent down: nothing is created or lost.
    assert_eq!(O1Task::fork_slice(196), (98, 98));
    assert_eq!(O1Task::fork_slice(195), (98, 97));
    assert_eq!(O1Task::fork_slice(200), (100, 100));
    // One jiffy left: both have one (the parent's ends at the fork's scheduler_tick).
    assert_eq!(O1Task::fork_slice(1), (1, 1));
    assert_eq!(O1Task::fork_slice(2), (1, 1));
}

#[test]
fn on_i386_a_half_second_sleep_at_bonus_zero_wraps_the_credit() {
    let o1 = hz1000();
    let mut task = O1Task::new(&o1, 0, 0);
    // 500,000,000 ns × 10 = 5,000,000,000, which is 705,032,704 modulo 2^32.
    task.wake(&o1, 500 * MS);
    assert_eq!(task.sleep_avg_ns, 705_032_704);
    let mut short = O1Task::new(&o1, 0, 0);
    short.wake(&o1, 400 * MS);
    assert_eq!(short.sleep_avg_ns, o1.max_sleep_avg_ns(), "4 × 10^9 fits, and is capped");
}

#[test]
fn running_down_to_zero_costs_credit_and_low_credit_caps_the_rise() {
    let o1 = hz1000();
    let mut task = O1Task::new(&o1, 0, 0);
    task.sleep_avg_ns = 10 * MS;
    task.charge(&o1, 20 * MS);
    assert_eq!((task.sleep_avg_ns, task.interactive_credit), (0, -1));
    task.interactive_credit = -CREDIT_LIMIT - 1;
    task.timestamp_ns = 0;
    task.wake(&o1, 50 * MS);
    assert_eq!(task.sleep_avg_ns, 102 * MS, "LOW_CREDIT: one timeslice of bonus at most");
}

#[test]
fn the_runqueue_wait_of_a_woken_task_counts_thirty_percent() {
    let o1 = hz1000();
    let mut task = O1Task::new(&o1, 0, 0);
    task.wake(&o1, 0);
    assert_eq!(task.sleep_avg_ns, 0);
    // Waited 100 ms on the run queue: 100 × 38/128 = 29.6875 ms, ×10 at bonus 0.
    let credit = task.credit_runqueue_wait(&o1, 100 * MS).expect("freshly woken");
    assert_eq!(credit.slept_ns, 29_687_500);
    assert_eq!(task.sleep_avg_ns, 296_875_000);
    assert_eq!(task.prio, 123);
    assert!(task.credit_runqueue_wait(&o1, 200 * MS).is_none(), "only once per wakeup");
}

#[test]
fn interactive_tasks_go_back_to_the_active_array_unless_the_expired_array_starves() {
    let o1 = hz1000();
    let mut rq = RunQueue::new();
    let mut task = O1Task::new(&o1, 0, 0);
    task.sleep_avg_ns = 1_000 * MS;
    task.prio = o1.effective_prio(120, task.sleep_avg_ns);
    rq.enqueue(Array::Active, TaskId(1), task.prio);
    rq.enqueue(Array::Active, TaskId(9), 125);
    task.time_slice = 1;
    assert_eq!(rq.tick(&o1, TaskId(1), &mut task, 0, 1), TickOutcome::ExpiredToActive);
    assert_eq!(task.time_slice, 102);
    // 1,000 ms of sleep_avg is bonus 9: priority 116.
    assert_eq!(rq.find(TaskId(1)), Some((Array::Active, 116)));
    // The first expiry stamped the run queue at 0; starving after 1,020 ms × 2 tasks + 1 jiffy.
    task.time_slice = 1;
    assert_eq!(rq.tick(&o1, TaskId(1), &mut task, 2_040 * MS, 1), TickOutcome::ExpiredToActive);
    task.time_slice = 1;
    assert_eq!(
        rq.tick(&o1, TaskId(1), &mut task, 2_041 * MS, 1),
        TickOutcome::ExpiredToExpired { starving: true }
    );
    let mut hog = O1Task::new(&o1, 0, 0);
    hog.prio = 125;
    hog.time_slice = 1;
    let mut rq = RunQueue::new();
    rq.enqueue(Array::Active, TaskId(2), 125);
    assert_eq!(rq.tick(&o1, TaskId(2), &mut hog, 0, 1), TickOutcome::ExpiredToExpired { starving: false });
}

#[test]
fn ticks_until_resched_in_closed_form_equals_ticking() {
    for hz in [100, 250, 1000] {
        let o1 = O1::new(hz);
        for nice in [-20, -5, 0, 7, 19] {
            for bonus in 0..=MAX_BONUS {
                for cpus in 1..=2 {
                    let mut task = O1Task::new(&o1, nice, 0);
                    task.sleep_avg_ns = bonus as u64 * o1.max_sleep_avg() / MAX_BONUS as u64 * o1.tick_ns();
                    task.prio = o1.effective_prio(task.static_prio, task.sleep_avg_ns);
                    // Beyond task_timeslice: a first slice shared at fork (the counting path).
                    for left in 0..=o1.timeslice(task.static_prio).max(o1.max_timeslice()) {
                        task.time_slice = left;
                        assert_eq!(
                            task.ticks_until_resched(&o1, cpus),
                            task.ticks_until_resched_by_ticks(&o1, cpus),
                            "hz {hz} nice {nice} bonus {bonus} cpus {cpus} left {left}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn interactive_tasks_round_robin_every_granularity() {
    let o1 = hz1000();
    // Bonus 8: 10 ms × 2^(2 − 1) = 20 ms; bonus 0: 10 ms × 2^9.
    assert_eq!(o1.granularity(900 * MS, 1), 20);
    assert_eq!(o1.granularity(0, 1), 5_120);
    let mut rq = RunQueue::new();
    let mut task = O1Task::new(&o1, 0, 0);
    task.sleep_avg_ns = 900 * MS;
    task.prio = o1.effective_prio(120, task.sleep_avg_ns);
    rq.enqueue(Array::Active, TaskId(1), task.prio);
    // Predicted without ticking: the 20th tick from a full slice; a hog only at slice end.
    assert_eq!(task.ticks_until_resched(&o1, 1), 20);
    assert_eq!(O1Task::new(&o1, 0, 0).ticks_until_resched(&o1, 1), 102);
    let outcomes: Vec<TickOutcome> = (0..20).map(|_| rq.tick(&o1, TaskId(1), &mut task, 0, 1)).collect();
    assert!(outcomes[..19].iter().all(|&o| o == TickOutcome::Continue));
    assert_eq!(outcomes[19], TickOutcome::Requeued, "after 20 jiffies of its slice");
}

#[test]
fn the_best_priority_runs_first_and_arrays_swap_when_active_empties() {
    let mut rq = RunQueue::new();
    rq.enqueue(Array::Active, TaskId(1), 125);
    rq.enqueue(Array::Active, TaskId(2), 115);
    rq.enqueue(Array::Expired, TaskId(3), 110);
    assert_eq!(rq.pick(), Some(TaskId(2)));
    rq.remove(TaskId(2));
    assert_eq!(rq.pick(), Some(TaskId(1)));
    rq.remove(TaskId(1));
    assert_eq!(rq.swaps, 0);
    assert_eq!(rq.pick(), Some(TaskId(3)), "the expired array becomes active");
    assert_eq!(rq.swaps, 1);
    rq.remove(TaskId(3));
    assert_eq!(rq.pick(), None);
}

#[test]
fn wakeup_preemption_needs_a_strictly_better_priority() {
    assert!(wakeup_preempts(115, 125));
    assert!(!wakeup_preempts(125, 125));
    assert!(!wakeup_preempts(126, 125));
}

#[test]
fn sched_yield_puts_a_task_behind_everything_in_the_expired_array() {
    let mut rq = RunQueue::new();
    rq.enqueue(Array::Active, TaskId(1), 139);
    rq.enqueue(Array::Active, TaskId(2), 115);
    assert_eq!(rq.pick(), Some(TaskId(2)));
    // yield() from the running task at priority 115 puts it in the expired array.
    rq.sched_yield(TaskId(2));
    assert_eq!(rq.find(TaskId(2)), Some((Array::Expired, 115)));
    assert_eq!(rq.pick(), Some(TaskId(1)), "even a worse active task runs first");
    rq.remove(TaskId(1));
    assert_eq!(rq.pick(), Some(TaskId(2)));
}

#[test]
fn task_timeslice_of_2_6_8_on_scales_by_static_priority() {
    let o1 = O1::v2_6_14(1000);
    assert_eq!(o1.task_timeslice(static_prio(0)), 100);
    assert_eq!(o1.task_timeslice(static_prio(-20)), 800);
    assert_eq!(o1.task_timeslice(static_prio(19)), 5);
    assert_eq!(o1.task_timeslice(static_prio(10)), 50);
    assert_eq!(o1.timeslice(120), 100, "timeslice() follows the rules");
    assert_eq!(o1.max_sleep_avg_ns(), 1_000 * MS);
    // HZ 250: DEF_TIMESLICE 25 jiffies; MIN_TIMESLICE one jiffy.
    let o1 = O1::v2_6_14(250);
    assert_eq!(o1.task_timeslice(120), 25);
    assert_eq!(o1.task_timeslice(139), 1);
    assert_eq!(o1.max_sleep_avg_ns(), 1_000 * MS);
    assert_eq!(o1.granularity(800 * MS, 1), 4, "bonus 8 at HZ 250: 2 jiffies × 2");
}

#[test]
fn on_2_6_14_every_task_is_charged_its_run_time_divided_by_its_bonus() {
    let o1 = O1::v2_6_14(1000);
    let mut task = O1Task::new(&o1, 0, 0);
    task.sleep_avg_ns = 800 * MS;
    task.timestamp_ns = 0;
    assert_eq!(task.charge(&o1, 40 * MS), 5 * MS, "bonus 8: 40 ms costs 5 ms");
    assert_eq!(task.sleep_avg_ns, 795 * MS);
    assert_eq!(task.interactive_credit, 0);
    // A wakeup from interrupt context credits the whole wait on the run queue.
    let mut woken = O1Task::new(&o1, 0, 0);
    woken.sleep_avg_ns = 700 * MS;
    woken.wake_from_interrupt(&o1, 0);
    let credit = woken.credit_runqueue_wait(&o1, 10 * MS).expect("freshly woken");
    assert_eq!(credit.slept_ns, 10 * MS);
    assert_eq!(woken.sleep_avg_ns, 730 * MS, "bonus 7: the wait counts three times");
}

#[test]
fn a_requeue_keeps_the_array_and_goes_to_the_tail_of_the_new_priority() {
    let mut rq = RunQueue::new();
    rq.enqueue(Array::Expired, TaskId(1), 125);
    rq.enqueue(Array::Expired, TaskId(2), 122);
    rq.requeue(TaskId(1), 122);
    assert_eq!(rq.find(TaskId(1)), Some((Array::Expired, 122)));
    let (active, expired) = rq.arrays();
    assert!(active.is_empty());
    assert_eq!(expired, vec![(122, TaskId(2)), (122, TaskId(1))]);
}

#[test]
fn balancing_pulls_half_the_difference_from_the_busiest_never_the_running_task() {
    assert_eq!(balance_plan(&[3, 0], 1), Some((0, 1)));
    assert_eq!(balance_plan(&[4, 0, 4], 1), Some((0, 2)), "a tie goes to the lowest CPU");
    assert_eq!(balance_plan(&[1, 0], 1), None, "one more is not enough");
    assert_eq!(balance_plan(&[0, 5], 1), None, "nobody has more");
    let mut rq = RunQueue::new();
    rq.enqueue(Array::Active, TaskId(0), 120);
    rq.enqueue(Array::Active, TaskId(1), 120);
    rq.enqueue(Array::Active, TaskId(2), 125);
    // The best priority, from its list's tail, not the running task.
    assert_eq!(rq.pull_candidate(Some(TaskId(0)), |_| true), Some((Array::Active, TaskId(1))));
    // Nothing at 120 may move: the next priority.
    assert_eq!(rq.pull_candidate(Some(TaskId(1)), |t| t != TaskId(0)), Some((Array::Active, TaskId(2))));
    // The expired array goes first.
    rq.enqueue(Array::Expired, TaskId(3), 130);
    assert_eq!(rq.pull_candidate(None, |_| true), Some((Array::Expired, TaskId(3))));
    // Nothing in the expired array may move (pinned): move_tasks goes on to the active one.
    assert_eq!(rq.pull_candidate(Some(TaskId(0)), |t| t != TaskId(3)), Some((Array::Active, TaskId(1))));
    assert_eq!(rq.pull_candidate(Some(TaskId(0)), |t| t == TaskId(0)), None, "nothing may move");
}

#[test]
fn a_busy_cpu_balances_every_64_intervals_staggered_by_cpu_offset() {
    // HZ 1000: busy, the interval is 1 ms × 64 = 64 jiffies. CPU 0 first balances at
    // jiffy 64; CPU 1, 1000 × 1 / 8 = 125 jiffies ahead, at once.
    let mut cpu0 = BalanceTimer::default();
    assert!(!cpu0.due(0, 63, 1000, false));
    assert!(cpu0.due(0, 64, 1000, false));
    assert_eq!(cpu0.last_balance, 64);
    let mut cpu1 = BalanceTimer::default();
    assert!(cpu1.due(1, 0, 1000, false));
    // Balanced: the interval doubles, 2 ms × 64 = 128 jiffies, up to 4 ms × 64.
    cpu1.balanced(Balance::Balanced);
    assert_eq!(cpu1.interval_jiffies(1000, false), 128);
    assert!(!cpu1.due(1, 66, 1000, false), "125 + 66 − 64 = 127");
    assert!(cpu1.due(1, 67, 1000, false));
    cpu1.balanced(Balance::Balanced);
    cpu1.balanced(Balance::Balanced);
    assert_eq!(cpu1.interval_ms, 4);
    // An imbalance found resets it; idle, no busy factor; HZ 100 rounds up to jiffies.
    cpu1.balanced(Balance::Tried);
    assert_eq!((cpu1.interval_ms, cpu1.interval_jiffies(1000, true)), (1, 1));
    assert_eq!(cpu1.interval_jiffies(100, false), 7, "64 ms at 10 ms a jiffy");
}

#[test]
fn an_all_pinned_imbalance_backs_off_to_max_pinned_interval() {
    // Every task of the busiest queue pinned elsewhere: out_balanced, doubling past
    // max_interval (4 ms) up to MAX_PINNED_INTERVAL (512 ms): 1 ms × 2⁹.
    let mut rq = RunQueue::new();
    rq.enqueue(Array::Active, TaskId(0), 120);
    rq.enqueue(Array::Expired, TaskId(1), 120);
    assert!(rq.all_pinned(|_| false));
    assert!(!rq.all_pinned(|t| t == TaskId(1)), "one allowed here, even expired");
    let mut cpu = BalanceTimer::default();
    for _ in 0..9 {
        cpu.balanced(Balance::AllPinned);
    }
    assert_eq!(cpu.interval_ms, 512);
    cpu.balanced(Balance::AllPinned);
    assert_eq!(cpu.interval_ms, 512, "MAX_PINNED_INTERVAL caps it");
    // Balanced next: above max_interval already, it stays; a real attempt resets it.
    cpu.balanced(Balance::Balanced);
    assert_eq!(cpu.interval_ms, 512);
    cpu.balanced(Balance::Tried);
    assert_eq!(cpu.interval_ms, 1);
}
