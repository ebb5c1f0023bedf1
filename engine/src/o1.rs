//! The Linux 2.6 O(1) scheduler's rules (kernel/sched.c, 2.6.1), one CPU's
//! run queue: active and expired priority arrays over 140 priorities, static
//! priority from nice, timeslices by static priority, `sleep_avg` credited on
//! wakeup and debited for run time, `CURRENT_BONUS` and the dynamic priority,
//! `TASK_INTERACTIVE` tasks re-queued into the active array at slice end unless
//! the expired array is starving, the array swap, wakeup preemption iff the
//! woken task's priority is strictly better, and `sched_yield` to the expired
//! array. Time is in nanoseconds; ticks are 1 ms (HZ = 1000).
//!
//! Model choices, said where they show: the `interactive_credit` refinements
//! (HIGH_CREDIT/LOW_CREDIT) and the partial credit for time spent waiting on the
//! run queue (`activated`, ON_RUNQUEUE_WEIGHT) are not modelled; run time is
//! always divided by `CURRENT_BONUS` when debited, as later 2.6 kernels do.

use crate::world::TaskId;
use std::collections::VecDeque;

pub const HZ: u64 = 1000;
pub const TICK_NS: u64 = 1_000_000_000 / HZ;
pub const MAX_RT_PRIO: i32 = 100;
pub const MAX_PRIO: i32 = 140;
pub const MAX_USER_PRIO: i32 = 40;
/// `MAX_BONUS` = MAX_USER_PRIO × PRIO_BONUS_RATIO (25) / 100.
pub const MAX_BONUS: i64 = 10;
pub const INTERACTIVE_DELTA: i64 = 2;
/// 2.6.0–2.6.7: timeslices from 10 ms to 200 ms, linear in static priority.
pub const MIN_TIMESLICE_MS: u64 = 10;
pub const MAX_TIMESLICE_MS: u64 = 200;

/// `NICE_TO_PRIO`: nice −20..19 → static priority 100..139.
pub fn static_prio(nice: i32) -> i32 {
    MAX_RT_PRIO + 20 + nice.clamp(-20, 19)
}

/// `BASE_TIMESLICE` of 2.6.1, in milliseconds (ticks): 102 at nice 0.
pub fn timeslice_ms(static_prio: i32) -> u64 {
    let span = MAX_TIMESLICE_MS - MIN_TIMESLICE_MS;
    MIN_TIMESLICE_MS + span * (MAX_PRIO - 1 - static_prio) as u64 / (MAX_USER_PRIO - 1) as u64
}

/// `AVG_TIMESLICE`: the nice-0 slice. `MAX_SLEEP_AVG` = AVG_TIMESLICE × MAX_BONUS = 1,020 ms.
pub fn max_sleep_avg_ns() -> u64 {
    timeslice_ms(static_prio(0)) * MAX_BONUS as u64 * 1_000_000
}

/// `CURRENT_BONUS`: sleep_avg (in whole jiffies) × MAX_BONUS / MAX_SLEEP_AVG.
pub fn current_bonus(sleep_avg_ns: u64) -> i64 {
    let jiffies = sleep_avg_ns / TICK_NS;
    (jiffies * MAX_BONUS as u64 / (max_sleep_avg_ns() / TICK_NS)) as i64
}

/// `effective_prio`: static priority − (bonus − MAX_BONUS / 2), clamped to 100..=139.
pub fn effective_prio(static_prio: i32, sleep_avg_ns: u64) -> i32 {
    let bonus = current_bonus(sleep_avg_ns) - MAX_BONUS / 2;
    (static_prio - bonus as i32).clamp(MAX_RT_PRIO, MAX_PRIO - 1)
}

/// `DELTA(p)`: how far below its static priority a task must be to count as interactive.
pub fn interactive_delta(static_prio: i32) -> i32 {
    let nice = static_prio - MAX_RT_PRIO - 20;
    (nice as i64 * MAX_BONUS / MAX_USER_PRIO as i64 + INTERACTIVE_DELTA) as i32
}

/// `TASK_INTERACTIVE`: prio ≤ static_prio − DELTA. At nice 0: bonus ≥ 7.
pub fn task_interactive(prio: i32, static_prio: i32) -> bool {
    prio <= static_prio - interactive_delta(static_prio)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct O1Task {
    pub static_prio: i32,
    pub prio: i32,
    pub sleep_avg_ns: u64,
    /// Ticks left in the current slice.
    pub time_slice: u64,
    /// When it last started running or went to sleep (`p->timestamp`).
    pub timestamp_ns: u64,
}

impl O1Task {
    pub fn new(nice: i32, now_ns: u64) -> O1Task {
        let static_prio = static_prio(nice);
        O1Task {
            static_prio,
            prio: static_prio,
            sleep_avg_ns: 0,
            time_slice: timeslice_ms(static_prio),
            timestamp_ns: now_ns,
        }
    }

    pub fn interactive(&self) -> bool {
        task_interactive(self.prio, self.static_prio)
    }

    /// `recalc_task_prio` on wakeup: credit the time slept, scaled up for tasks with
    /// little credit (×(MAX_BONUS − bonus)); a long sleeper gets just interactive status.
    pub fn wake(&mut self, now_ns: u64) {
        let slept = (now_ns - self.timestamp_ns).min(max_sleep_avg_ns());
        if slept > 0 {
            let interactive_sleep_ms = (max_sleep_avg_ns() / 1_000_000)
                * (MAX_BONUS / 2 + i64::from(interactive_delta(self.static_prio)) + 1) as u64
                / MAX_BONUS as u64
                - 1;
            if slept > interactive_sleep_ms * 1_000_000 {
                self.sleep_avg_ns = max_sleep_avg_ns() - timeslice_ms(static_prio(0)) * 1_000_000;
            } else {
                let scale = (MAX_BONUS - current_bonus(self.sleep_avg_ns)).max(1) as u64;
                self.sleep_avg_ns = (self.sleep_avg_ns + slept * scale).min(max_sleep_avg_ns());
            }
        }
        self.prio = effective_prio(self.static_prio, self.sleep_avg_ns);
        self.timestamp_ns = now_ns;
    }

    /// `schedule()` switching this task out: debit run time / CURRENT_BONUS.
    pub fn charge(&mut self, now_ns: u64) {
        let ran = (now_ns - self.timestamp_ns).min(max_sleep_avg_ns());
        let debit = ran / current_bonus(self.sleep_avg_ns).max(1) as u64;
        self.sleep_avg_ns = self.sleep_avg_ns.saturating_sub(debit);
        self.timestamp_ns = now_ns;
    }
}

/// Tasks of one priority array with their priorities, best first.
pub type ArrayView = Vec<(i32, TaskId)>;

/// Where a task went at the end of its slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliceEnd {
    /// Interactive and nobody starving: back into the active array, new slice.
    Active,
    Expired,
}

/// One CPU's run queue: two arrays of 140 FIFO lists.
#[derive(Clone, Debug)]
pub struct RunQueue {
    active: Vec<VecDeque<TaskId>>,
    expired: Vec<VecDeque<TaskId>>,
    /// `rq->expired_timestamp`: when the first task went to the expired array.
    expired_since_ns: Option<u64>,
    pub swaps: u64,
}

impl Default for RunQueue {
    fn default() -> Self {
        RunQueue::new()
    }
}

impl RunQueue {
    pub fn new() -> RunQueue {
        RunQueue {
            active: vec![VecDeque::new(); MAX_PRIO as usize],
            expired: vec![VecDeque::new(); MAX_PRIO as usize],
            expired_since_ns: None,
            swaps: 0,
        }
    }

    pub fn enqueue_active(&mut self, task: TaskId, prio: i32) {
        self.active[prio as usize].push_back(task);
    }

    pub fn enqueue_expired(&mut self, task: TaskId, prio: i32, now_ns: u64) {
        self.expired[prio as usize].push_back(task);
        self.expired_since_ns.get_or_insert(now_ns);
    }

    pub fn remove(&mut self, task: TaskId) {
        for list in self.active.iter_mut().chain(self.expired.iter_mut()) {
            list.retain(|&t| t != task);
        }
    }

    pub fn nr_running(&self) -> usize {
        self.active.iter().chain(&self.expired).map(VecDeque::len).sum()
    }

    /// `EXPIRED_STARVING`: the expired array has waited ≥ STARVATION_LIMIT × nr_running + 1 tick.
    pub fn expired_starving(&self, now_ns: u64, running: usize) -> bool {
        self.expired_since_ns.is_some_and(|since| {
            now_ns - since >= max_sleep_avg_ns() * (self.nr_running() + running) as u64 + TICK_NS
        })
    }

    /// `schedule()`'s pick: the first task of the best non-empty priority in the
    /// active array; if the active array is empty, swap the arrays first.
    pub fn pick(&mut self) -> Option<TaskId> {
        if self.active.iter().all(VecDeque::is_empty) {
            if self.expired.iter().all(VecDeque::is_empty) {
                return None;
            }
            std::mem::swap(&mut self.active, &mut self.expired);
            self.expired_since_ns = None;
            self.swaps += 1;
        }
        self.active.iter_mut().find(|list| !list.is_empty()).and_then(VecDeque::pop_front)
    }

    /// Tasks in the active and expired arrays with their priorities, best first (for the view).
    pub fn arrays(&self) -> (ArrayView, ArrayView) {
        let flatten = |arrays: &Vec<VecDeque<TaskId>>| {
            arrays
                .iter()
                .enumerate()
                .flat_map(|(prio, list)| list.iter().map(move |&t| (prio as i32, t)))
                .collect()
        };
        (flatten(&self.active), flatten(&self.expired))
    }
}

/// `scheduler_tick` when the running task's slice runs out: recompute its priority,
/// give it a new slice, and decide which array it goes back to.
pub fn slice_expired(task: &mut O1Task, rq: &RunQueue, now_ns: u64) -> SliceEnd {
    task.prio = effective_prio(task.static_prio, task.sleep_avg_ns);
    task.time_slice = timeslice_ms(task.static_prio);
    if task.interactive() && !rq.expired_starving(now_ns, 1) {
        SliceEnd::Active
    } else {
        SliceEnd::Expired
    }
}

/// `TASK_PREEMPTS_CURR`: a woken task preempts the running one iff its priority is strictly better.
pub fn wakeup_preempts(woken_prio: i32, current_prio: i32) -> bool {
    woken_prio < current_prio
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn static_priority_and_timeslice_follow_nice() {
        assert_eq!(static_prio(0), 120);
        assert_eq!(static_prio(-20), 100);
        assert_eq!(static_prio(19), 139);
        // 10 + 190 × (139 − 120) / 39 = 102 ms at nice 0; 200 ms at −20; 10 ms at +19.
        assert_eq!(timeslice_ms(120), 102);
        assert_eq!(timeslice_ms(100), 200);
        assert_eq!(timeslice_ms(139), 10);
        assert_eq!(max_sleep_avg_ns(), 1_020 * MS);
    }

    #[test]
    fn bonus_and_dynamic_priority() {
        assert_eq!(current_bonus(0), 0);
        assert_eq!(effective_prio(120, 0), 125, "a task that never sleeps");
        assert_eq!(current_bonus(1_020 * MS), 10);
        assert_eq!(effective_prio(120, 1_020 * MS), 115);
        assert_eq!(current_bonus(714 * MS), 7);
        assert!(task_interactive(effective_prio(120, 714 * MS), 120), "bonus 7 is interactive at nice 0");
        assert!(!task_interactive(effective_prio(120, 600 * MS), 120), "bonus 5 is not");
    }

    #[test]
    fn sleep_is_credited_on_wakeup_and_run_time_debited() {
        let mut task = O1Task::new(0, 0);
        // 50 ms of sleep with bonus 0 counts ten times: 500 ms of sleep_avg.
        task.wake(50 * MS);
        assert_eq!(task.sleep_avg_ns, 500 * MS);
        // 500 jiffies × 10 / 1,020 = bonus 4: one priority level worse than static.
        assert_eq!(task.prio, 121);
        // 100 ms of running at bonus 4 debits 25 ms.
        task.timestamp_ns = 1_000 * MS;
        task.charge(1_100 * MS);
        assert_eq!(task.sleep_avg_ns, 475 * MS);
        // A sleep longer than INTERACTIVE_SLEEP gives just interactive status.
        task.wake(3_000 * MS);
        assert_eq!(task.sleep_avg_ns, (1_020 - 102) * MS);
        assert!(task.interactive());
    }

    #[test]
    fn interactive_tasks_go_back_to_the_active_array_unless_the_expired_array_starves() {
        let mut rq = RunQueue::new();
        let mut task = O1Task::new(0, 0);
        task.sleep_avg_ns = 1_000 * MS;
        assert_eq!(slice_expired(&mut task, &rq, 0), SliceEnd::Active);
        assert_eq!(task.time_slice, 102);
        rq.enqueue_expired(TaskId(9), 125, 0);
        // Starving after STARVATION_LIMIT × nr_running + 1 tick: 1,020 ms × 2 + 1 ms.
        assert_eq!(slice_expired(&mut task, &rq, 2_040 * MS), SliceEnd::Active);
        assert_eq!(slice_expired(&mut task, &rq, 2_041 * MS), SliceEnd::Expired);
        task.sleep_avg_ns = 0;
        assert_eq!(slice_expired(&mut task, &RunQueue::new(), 0), SliceEnd::Expired);
    }

    #[test]
    fn the_best_priority_runs_first_and_arrays_swap_when_active_empties() {
        let mut rq = RunQueue::new();
        rq.enqueue_active(TaskId(1), 125);
        rq.enqueue_active(TaskId(2), 115);
        rq.enqueue_expired(TaskId(3), 110, 0);
        assert_eq!(rq.pick(), Some(TaskId(2)));
        assert_eq!(rq.pick(), Some(TaskId(1)));
        assert_eq!(rq.swaps, 0);
        assert_eq!(rq.pick(), Some(TaskId(3)), "the expired array becomes active");
        assert_eq!(rq.swaps, 1);
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
        rq.enqueue_active(TaskId(1), 139);
        // yield() from a task at priority 115 goes to the expired array.
        rq.enqueue_expired(TaskId(2), 115, 0);
        assert_eq!(rq.pick(), Some(TaskId(1)), "even a worse active task runs first");
        assert_eq!(rq.pick(), Some(TaskId(2)));
    }
}
