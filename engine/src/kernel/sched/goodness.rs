//! The Linux 2.4 scheduler's rules (kernel/sched.c at v2.4.24), for one CPU:
//! every runnable task has a `counter` of ticks left in this epoch; `schedule()`
//! scans the run queue for the best `goodness()` (counter + 20 − nice, + 1 for
//! sharing the previous task's mm); when every runnable task has used its
//! counter, a recalculation gives *every* task, sleeping ones included,
//! `counter / 2 + NICE_TO_TICKS(nice)`. A wakeup preempts the running task iff
//! the woken one's goodness, seen from the running task's mm, is strictly
//! greater (`reschedule_idle` on UP). There is no sleep average: a sleeper's
//! only advantage is the counter it did not use, at most about twice a slice.
//!
//! On SMP (`CONFIG_SMP`), one global run queue still serves every CPU: a CPU's
//! `schedule()` weighs only the tasks it may run (`can_schedule`: not running on
//! another CPU, allowed here) and `goodness()` adds `PROC_CHANGE_PENALTY` for a task
//! that last ran on this CPU ([`schedule_pick_smp`]); a wakeup's `reschedule_idle`
//! first looks for an idle CPU ([`reschedule_idle_smp`]).
//!
//! Model choice: the two programs are separate processes (different mm), so the
//! +1 goes to whichever task ran last.

use crate::run::world::TaskId;

/// `TICK_SCALE(x)` for the configured HZ.
pub fn tick_scale(x: i64, hz: u64) -> i64 {
    match hz {
        0..200 => x >> 2,
        200..400 => x >> 1,
        400..800 => x,
        800..1600 => x << 1,
        _ => x << 2,
    }
}

/// `NICE_TO_TICKS(nice)`: 6 ticks (60 ms) at nice 0 and HZ 100.
pub fn nice_to_ticks(nice: i32, hz: u64) -> i64 {
    tick_scale(20 - i64::from(nice.clamp(-20, 19)), hz) + 1
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoodTask {
    pub nice: i32,
    /// Ticks left in this epoch.
    pub counter: i64,
}

impl GoodTask {
    pub fn new(nice: i32, hz: u64) -> GoodTask {
        GoodTask { nice, counter: nice_to_ticks(nice, hz) }
    }

    /// `do_fork`: the child takes half of its parent's counter (here a full one).
    pub fn forked(nice: i32, hz: u64) -> GoodTask {
        GoodTask { nice, counter: (nice_to_ticks(nice, hz) + 1) >> 1 }
    }

    /// `goodness(p, this_cpu, this_mm)` for a SCHED_OTHER task; `same_mm` is
    /// whether it shares the mm of the task that ran last.
    pub fn goodness(&self, same_mm: bool) -> i64 {
        if self.counter == 0 {
            return 0;
        }
        self.counter + i64::from(same_mm) + 20 - i64::from(self.nice)
    }

    /// SMP `goodness(p, this_cpu, this_mm)`: as [`GoodTask::goodness`], plus
    /// `PROC_CHANGE_PENALTY` when the task last ran on this CPU (`p->processor ==
    /// this_cpu`); a spent counter stays 0 without it.
    pub fn goodness_smp(&self, same_mm: bool, same_cpu: bool) -> i64 {
        if self.counter == 0 {
            return 0;
        }
        self.goodness(same_mm) + if same_cpu { PROC_CHANGE_PENALTY } else { 0 }
    }

    /// The timer tick while this task runs: true when its counter ran out (need_resched).
    pub fn tick(&mut self) -> bool {
        self.counter -= 1;
        if self.counter <= 0 {
            self.counter = 0;
            true
        } else {
            false
        }
    }

    /// The epoch recalculation, applied to every task whether runnable or not.
    pub fn recalculate(&mut self, hz: u64) {
        self.counter = (self.counter >> 1) + nice_to_ticks(self.nice, hz);
    }
}

/// `preemption_goodness(curr, p) > 0`: does waking `woken` preempt `current`?
/// Both are seen from `current`'s mm, so only `current` gets the +1.
pub fn wakeup_preempts(woken: &GoodTask, current: &GoodTask) -> bool {
    woken.goodness(false) > current.goodness(true)
}

/// `schedule()`'s pick: the run queue in list order (new arrivals at the tail,
/// the previous task where it was), `goodness` seen from the previous task's mm,
/// and a later task must be strictly better. `None` means every runnable counter
/// is zero and the caller must recalculate (or the queue is empty).
pub fn pick(prev: Option<TaskId>, queue: &[(TaskId, &GoodTask)]) -> Option<TaskId> {
    let mut best: Option<(TaskId, i64)> = None;
    for &(id, task) in queue {
        let weight = task.goodness(prev == Some(id));
        if best.is_none_or(|(_, c)| weight > c) {
            best = Some((id, weight));
        }
    }
    best.filter(|&(_, c)| c > 0).map(|(id, _)| id)
}

/// What `schedule()`'s pick did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoodPick {
    pub next: Option<TaskId>,
    /// Every runnable counter was spent: a new epoch for every task before the pick.
    pub recalculated: bool,
}

/// The goodness `schedule()` weighs `id` with: −1 for a task that has just called
/// `sched_yield` (SCHED_YIELD), else `goodness` seen from the previous task's mm.
pub fn weight(prev: Option<TaskId>, yielded: Option<TaskId>, id: TaskId, task: &GoodTask) -> i64 {
    if yielded == Some(id) {
        -1
    } else {
        task.goodness(prev == Some(id))
    }
}

/// 2.4's `schedule()` pick with its recalculation: the run queue `queue` in list
/// order, a later task only if strictly better; when the best weight is 0 (every
/// runnable counter spent), `recalculate` for every task in `tasks` (indexed by
/// task number, sleepers included) and pick again. A yielding task weighs −1, so
/// it runs again only when nobody else can.
pub fn schedule_pick(
    prev: Option<TaskId>,
    queue: &[TaskId],
    tasks: &mut [GoodTask],
    hz: u64,
    yielded: Option<TaskId>,
) -> GoodPick {
    pick_with(queue, tasks, hz, |id, task| weight(prev, yielded, id, task))
}

/// SMP `schedule()` on `this_cpu`: as [`schedule_pick`], but `queue` holds only the
/// tasks this CPU may take (`can_schedule`: none running on another CPU, none
/// pinned elsewhere), each weighed by [`GoodTask::goodness_smp`] with its last CPU
/// (`last_cpu`, indexed by task number); `prev` is the task that ran last on this
/// CPU (its mm is still loaded, lazily, even if the CPU idled since). The
/// recalculation still covers every task, those running elsewhere included.
pub fn schedule_pick_smp(
    this_cpu: usize,
    prev: Option<TaskId>,
    queue: &[TaskId],
    last_cpu: &[usize],
    tasks: &mut [GoodTask],
    hz: u64,
    yielded: Option<TaskId>,
) -> GoodPick {
    pick_with(queue, tasks, hz, |id, task| {
        if yielded == Some(id) {
            -1
        } else {
            let same_cpu = last_cpu.get(id.0 as usize) == Some(&this_cpu);
            task.goodness_smp(prev == Some(id), same_cpu)
        }
    })
}

/// The scan of `schedule()` in list order (a later task only if strictly better),
/// and the recalculation of every counter when the best weight is 0.
fn pick_with(
    queue: &[TaskId],
    tasks: &mut [GoodTask],
    hz: u64,
    weigh: impl Fn(TaskId, &GoodTask) -> i64,
) -> GoodPick {
    let best = |tasks: &[GoodTask]| {
        let mut best: Option<(TaskId, i64)> = None;
        for &id in queue {
            let w = weigh(id, &tasks[id.0 as usize]);
            if best.is_none_or(|(_, c)| w > c) {
                best = Some((id, w));
            }
        }
        best
    };
    match best(tasks) {
        None => GoodPick { next: None, recalculated: false },
        Some((id, c)) if c != 0 => GoodPick { next: Some(id), recalculated: false },
        Some(_) => {
            for task in tasks.iter_mut() {
                task.recalculate(hz);
            }
            GoodPick { next: best(tasks).map(|(id, _)| id), recalculated: true }
        }
    }
}

/// `PROC_CHANGE_PENALTY` (i386): SMP `goodness()` favours a task on the CPU it last ran on.
pub const PROC_CHANGE_PENALTY: i64 = 15;

/// One CPU as SMP `reschedule_idle` sees it.
#[derive(Clone, Copy, Debug)]
pub struct CpuSeen<'a> {
    /// The running task, `None` when the CPU runs its idle task.
    pub current: Option<&'a GoodTask>,
    /// When `schedule()` last switched tasks there (`last_schedule(cpu)`).
    pub last_schedule_ns: u64,
    /// Whether the woken task may run there (`can_schedule`: its `cpus_allowed`).
    pub allowed: bool,
}

/// What SMP `reschedule_idle(p)` does with a woken task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmpWake {
    /// Send it to this idle CPU (`send_now_idle`): nobody is preempted.
    Idle(usize),
    /// Set `need_resched` on this CPU's running task.
    Preempt(usize),
    /// Leave it on the run queue.
    Wait,
}

/// 2.4's SMP `reschedule_idle(p)`: if `p`'s last CPU runs its idle task, `p` goes
/// there (`cpu_curr(best_cpu) == tsk`); else the idle CPU that has been idle
/// longest (`oldest_idle`); only when no CPU is idle, the running task with the
/// largest positive `preemption_goodness` gets `need_resched`. (The i386
/// idle-sibling-pair preference needs two physical packages; one Hyper-Threading
/// P4 has one, so it never applies.)
pub fn reschedule_idle_smp(woken: &GoodTask, last_cpu: usize, cpus: &[CpuSeen<'_>]) -> SmpWake {
    if cpus.get(last_cpu).is_some_and(|cpu| cpu.allowed && cpu.current.is_none()) {
        return SmpWake::Idle(last_cpu);
    }
    let idle = cpus
        .iter()
        .enumerate()
        .filter(|(_, cpu)| cpu.allowed && cpu.current.is_none())
        .min_by_key(|&(index, cpu)| (cpu.last_schedule_ns, index));
    if let Some((index, _)) = idle {
        return SmpWake::Idle(index);
    }
    let mut best: Option<(usize, i64)> = None;
    for (index, cpu) in cpus.iter().enumerate().filter(|(_, cpu)| cpu.allowed) {
        let Some(current) = cpu.current else { continue };
        // goodness seen from the running task's mm and CPU: it gets +1 (mm) and the
        // CPU bonus; the woken task gets the CPU bonus only on its last CPU. A spent
        // counter is 0 before any bonus (goodness() returns early), which a task in a
        // sys burst can hold while it runs.
        let theirs = woken.goodness_smp(false, index == last_cpu);
        let prio = theirs - current.goodness_smp(true, true);
        if prio > best.map_or(0, |(_, p)| p) {
            best = Some((index, prio));
        }
    }
    best.map_or(SmpWake::Wait, |(index, _)| SmpWake::Preempt(index))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_follow_nice_and_hz() {
        assert_eq!(nice_to_ticks(0, 100), 6, "(20 >> 2) + 1 ticks of 10 ms");
        assert_eq!(nice_to_ticks(-20, 100), 11);
        assert_eq!(nice_to_ticks(19, 100), 1);
        assert_eq!(nice_to_ticks(0, 1000), 41, "(20 << 1) + 1 ticks of 1 ms");
    }

    #[test]
    fn goodness_is_counter_plus_nice_plus_mm() {
        let task = GoodTask::new(0, 100);
        assert_eq!(task.goodness(false), 26);
        assert_eq!(task.goodness(true), 27);
        assert_eq!(GoodTask { nice: 0, counter: 0 }.goodness(true), 0, "a used-up task is never picked");
    }

    #[test]
    fn a_sleeper_keeps_its_counter_and_gains_at_recalculation() {
        let mut sleeper = GoodTask::new(0, 100);
        let mut hog = GoodTask::new(0, 100);
        while !hog.tick() {}
        assert_eq!(hog.counter, 0);
        sleeper.recalculate(100);
        hog.recalculate(100);
        assert_eq!((sleeper.counter, hog.counter), (9, 6));
        // Converges to twice a slice minus one for a task that never runs.
        for _ in 0..10 {
            sleeper.recalculate(100);
        }
        assert_eq!(sleeper.counter, 11);
    }

    #[test]
    fn a_wakeup_preempts_only_when_strictly_better_than_current_plus_one() {
        let current = GoodTask { nice: 0, counter: 4 };
        assert!(!wakeup_preempts(&GoodTask { nice: 0, counter: 5 }, &current));
        assert!(wakeup_preempts(&GoodTask { nice: 0, counter: 6 }, &current));
    }

    #[test]
    fn smp_reschedule_idle_prefers_an_idle_cpu_to_preempting() {
        let writer = GoodTask { nice: 0, counter: 1 };
        let listener = GoodTask { nice: 0, counter: 6 };
        // On one CPU the listener would preempt the writer (26 > 22)...
        assert!(wakeup_preempts(&listener, &writer));
        // ...on two, its own CPU is idle: it goes there and the writer runs on.
        let idle = CpuSeen { current: None, last_schedule_ns: 5, allowed: true };
        let busy = CpuSeen { current: Some(&writer), last_schedule_ns: 0, allowed: true };
        assert_eq!(reschedule_idle_smp(&listener, 0, &[idle, busy]), SmpWake::Idle(0));
        // Its last CPU busy: the idle CPU that has idled longest.
        let older = CpuSeen { current: None, last_schedule_ns: 1, allowed: true };
        assert_eq!(reschedule_idle_smp(&listener, 1, &[idle, busy, older]), SmpWake::Idle(2));
        // No idle CPU: preemption_goodness, with PROC_CHANGE_PENALTY for the last CPU.
        assert_eq!(reschedule_idle_smp(&listener, 1, &[busy, busy]), SmpWake::Preempt(1));
        let strong = GoodTask { nice: 0, counter: 6 };
        let running = CpuSeen { current: Some(&strong), last_schedule_ns: 0, allowed: true };
        assert_eq!(reschedule_idle_smp(&listener, 0, &[running]), SmpWake::Wait);
        // can_schedule: a CPU the task may not use is neither idle for it nor preempted.
        let barred = CpuSeen { allowed: false, ..idle };
        assert_eq!(reschedule_idle_smp(&listener, 0, &[barred, busy, older]), SmpWake::Idle(2));
        assert_eq!(reschedule_idle_smp(&listener, 1, &[barred, busy]), SmpWake::Preempt(1));
        let barred_busy = CpuSeen { allowed: false, ..busy };
        assert_eq!(reschedule_idle_smp(&listener, 1, &[barred, barred_busy]), SmpWake::Wait);
    }

    #[test]
    fn smp_reschedule_idle_weighs_a_spent_running_task_as_zero_without_the_cpu_bonus() {
        // A task in a sys burst runs on with counter 0: goodness() returns 0 before
        // PROC_CHANGE_PENALTY. A nice 19 task with one tick left weighs 1 + 20 − 19 = 2
        // on a CPU it did not last use: preemption_goodness 2 − 0 > 0, it preempts
        // (with the bonus wrongly added to the spent task, 2 − 15 < 0: it would wait).
        let spent = GoodTask { nice: 0, counter: 0 };
        let weak = GoodTask { nice: 19, counter: 1 };
        let running = CpuSeen { current: Some(&spent), last_schedule_ns: 0, allowed: true };
        let barred = CpuSeen { current: None, last_schedule_ns: 0, allowed: false };
        assert_eq!(reschedule_idle_smp(&weak, 1, &[running, barred]), SmpWake::Preempt(0));
        // A spent woken task weighs 0 even on its last CPU: it preempts nobody.
        let none_left = GoodTask { nice: 0, counter: 0 };
        assert_eq!(reschedule_idle_smp(&none_left, 0, &[running]), SmpWake::Wait);
    }

    #[test]
    fn schedule_pick_recalculates_a_spent_epoch_and_weighs_a_yielder_minus_one() {
        let (a, b) = (TaskId(0), TaskId(1));
        let mut tasks = vec![GoodTask { nice: 0, counter: 0 }, GoodTask { nice: 0, counter: 0 }];
        // Both spent: a new epoch, 0 / 2 + 6 = 6 each; 26 against 26, the first in the list.
        let picked = schedule_pick(None, &[b, a], &mut tasks, 100, None);
        assert_eq!(picked, GoodPick { next: Some(b), recalculated: true });
        assert_eq!((tasks[0].counter, tasks[1].counter), (6, 6));
        // a yields: −1 against b's 26; alone, the yielder runs again without an epoch.
        assert_eq!(schedule_pick(Some(a), &[b, a], &mut tasks, 100, Some(a)).next, Some(b));
        assert_eq!(
            schedule_pick(Some(a), &[a], &mut tasks, 100, Some(a)),
            GoodPick { next: Some(a), recalculated: false }
        );
        // b spent and a yielding: the best weight is 0, so every counter is recalculated.
        tasks[1].counter = 0;
        let picked = schedule_pick(Some(a), &[a, b], &mut tasks, 100, Some(a));
        assert_eq!(picked, GoodPick { next: Some(b), recalculated: true });
        assert_eq!((tasks[0].counter, tasks[1].counter), (9, 6));
        assert_eq!(schedule_pick(None, &[], &mut tasks, 100, None).next, None);
    }

    #[test]
    fn smp_schedule_favours_the_task_that_last_ran_on_this_cpu() {
        let (a, b) = (TaskId(0), TaskId(1));
        // a has 3 ticks left and last ran on CPU 0; b has 5 and last ran on CPU 1.
        let mut tasks = vec![GoodTask { nice: 0, counter: 3 }, GoodTask { nice: 0, counter: 5 }];
        let last_cpu = [0, 1];
        // On CPU 0: a 3 + 15 + 20 = 38 against b 5 + 20 = 25: a, though b has more left.
        let on_0 = schedule_pick_smp(0, None, &[b, a], &last_cpu, &mut tasks, 100, None);
        assert_eq!(on_0.next, Some(a));
        assert_eq!(tasks[0].goodness_smp(false, true), 38);
        // On CPU 1: b 5 + 15 + 20 = 40 against a's 23.
        assert_eq!(schedule_pick_smp(1, None, &[a, b], &last_cpu, &mut tasks, 100, None).next, Some(b));
        // A spent counter weighs 0 even on its own CPU: with only a spent candidate, a new epoch.
        tasks[0].counter = 0;
        assert_eq!(tasks[0].goodness_smp(true, true), 0);
        let spent = schedule_pick_smp(0, Some(a), &[a], &last_cpu, &mut tasks, 100, None);
        assert_eq!(spent, GoodPick { next: Some(a), recalculated: true });
        assert_eq!((tasks[0].counter, tasks[1].counter), (6, 8), "every task, b (running elsewhere) too");
    }

    #[test]
    fn pick_scans_in_list_order_and_reports_an_empty_epoch() {
        let a = GoodTask { nice: 0, counter: 3 };
        let b = GoodTask { nice: 0, counter: 4 };
        // The previous task's +1 makes 24 against 24: the first in the list wins the tie.
        assert_eq!(pick(Some(TaskId(0)), &[(TaskId(0), &a), (TaskId(1), &b)]), Some(TaskId(0)));
        assert_eq!(pick(Some(TaskId(0)), &[(TaskId(1), &b), (TaskId(0), &a)]), Some(TaskId(1)));
        let c = GoodTask { nice: 0, counter: 5 };
        assert_eq!(pick(Some(TaskId(0)), &[(TaskId(0), &a), (TaskId(1), &c)]), Some(TaskId(1)));
        let spent = GoodTask { nice: 0, counter: 0 };
        assert_eq!(pick(Some(TaskId(0)), &[(TaskId(0), &spent), (TaskId(1), &spent)]), None);
        assert_eq!(pick(None, &[(TaskId(1), &b), (TaskId(2), &b)]), Some(TaskId(1)), "first in list order");
    }
}
