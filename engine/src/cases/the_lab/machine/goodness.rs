//! `kernel goodness`: Linux 2.4's scheduler, `kernel::sched::goodness` (v2.4.24), on
//! one CPU at HZ 100. Every rule is the library's (`GoodTask::forked`, `tick`,
//! `wakeup_preempts`, `schedule_pick` with its epoch recalculation); this file calls
//! them where `do_fork`, `reschedule_idle`, the timer tick, `schedule()` and
//! `sys_sched_yield` do, and narrates their numbers: counter, nice, goodness.
//!
//! As in 2.4, the running task stays on the run queue (one list, in order);
//! sleeping, blocking or exiting takes it off.

use super::{Sim, Why};
use crate::cases::the_lab::text::{self, at, T};
use crate::kernel::sched::goodness::{self, GoodTask};
use crate::run::narration::Arg;
use crate::run::trace::OpKind;
use crate::run::world::{TaskId, TaskState};

/// The tick rate the Lab runs 2.4 at unless `hz=` says otherwise (i386's HZ).
pub(super) const HZ: u64 = 100;

pub(super) struct GoodSched {
    /// Each task's counter and nice, indexed by task number.
    pub tasks: Vec<GoodTask>,
    /// The run queue in list order (new and woken tasks at the tail).
    pub queue: Vec<TaskId>,
    /// The task that ran last: goodness gives +1 to a task sharing its mm.
    pub last_ran: Option<TaskId>,
    /// A task that called sched_yield since the last pick (SCHED_YIELD).
    pub yielded: Option<TaskId>,
    pub need_resched: bool,
    pub hz: u64,
}

impl GoodSched {
    pub fn new(tasks: usize, hz: u64) -> GoodSched {
        GoodSched {
            hz,
            tasks: vec![GoodTask::new(0, hz); tasks],
            queue: Vec::new(),
            last_ran: None,
            yielded: None,
            need_resched: false,
        }
    }

    pub fn tick_ns(&self) -> u64 {
        1_000_000_000 / self.hz
    }

    /// The next tick after `now`.
    pub fn next_tick_ns(&self, now: u64) -> u64 {
        (now / self.tick_ns() + 1) * self.tick_ns()
    }

    /// The goodness `schedule()` would give `task` now.
    fn weight(&self, task: TaskId) -> i64 {
        goodness::weight(self.last_ran, self.yielded, task, &self.tasks[task.0 as usize])
    }
}

impl Sim<'_> {
    fn good(&mut self) -> &mut GoodSched {
        self.good.as_mut().expect("2.4's scheduler runs this workload")
    }

    /// `do_fork` or `wake_up_process`: to the tail of the run queue, then `reschedule_idle`.
    pub(super) fn good_enqueue(&mut self, task: TaskId, why: Why, now: u64) {
        let index = task.0 as usize;
        if why == Why::Yield {
            self.good_yield(task, now);
            return;
        }
        let nice = self.program.tasks[index].nice as i32;
        let sched = self.good();
        let hz = sched.hz;
        if why == Why::Arrive {
            sched.tasks[index] = GoodTask::forked(nice, hz);
        }
        sched.queue.push(task);
        let counter = Arg::Count(sched.tasks[index].counter as u64);
        if why == Why::Arrive {
            let full = Arg::Count(goodness::nice_to_ticks(nice, hz) as u64);
            let args = [Arg::Task(task), counter, full, Arg::Signed(i64::from(nice))];
            self.op(now, Some(task), OpKind::Note, at(text::GOOD_WAKE_FN, 1), T::GOOD_FORK, &args, &[]);
        } else {
            let args = [Arg::Task(task), counter, Arg::Signed(sched.tasks[index].goodness(false))];
            self.op(now, Some(task), OpKind::Note, at(text::GOOD_WAKE_FN, 0), T::GOOD_WAKE, &args, &[]);
        }
        self.good_preempt_check(task, now);
    }

    /// `reschedule_idle` on one CPU: preempt the running task if strictly worse.
    fn good_preempt_check(&mut self, woken: TaskId, now: u64) {
        let Some(current) = self.cpus[0].task.filter(|&current| current != woken) else { return };
        let sched = self.good();
        let (w, c) = (&sched.tasks[woken.0 as usize], &sched.tasks[current.0 as usize]);
        if !goodness::wakeup_preempts(w, c) {
            return;
        }
        let args = [
            Arg::Task(woken),
            Arg::Signed(w.goodness(false)),
            Arg::Task(current),
            Arg::Signed(c.goodness(true)),
        ];
        sched.need_resched = true;
        // The CPU looks at the flag at once (the next instant), as on a return to user space.
        self.cpus[0].slice_end_ns = now;
        self.op(now, Some(woken), OpKind::Preempt, at(text::GOOD_WAKE_FN, 3), T::GOOD_PREEMPT, &args, &[]);
    }

    /// `sys_sched_yield`: SCHED_YIELD for the next pick, and to the tail of the list.
    fn good_yield(&mut self, task: TaskId, now: u64) {
        let sched = self.good();
        sched.queue.retain(|&queued| queued != task);
        sched.queue.push(task);
        sched.yielded = Some(task);
        let code = at(text::GOOD_YIELD_FN, 1);
        self.op(now, Some(task), OpKind::Note, code, T::GOOD_YIELD, &[Arg::Task(task)], &[]);
    }

    /// A task that sleeps, blocks or exits leaves the run queue (`del_from_runqueue`).
    pub(super) fn good_dequeue(&mut self, task: TaskId) {
        self.good().queue.retain(|&queued| queued != task);
    }

    /// `schedule()`'s pick on the idle CPU: the best goodness in list order, after a
    /// recalculation of every counter if every runnable one is spent.
    pub(super) fn good_pick(&mut self, cpu: u16, now: u64) -> Option<(TaskId, Vec<Arg>)> {
        let sched = self.good();
        let (prev, yielded) = (sched.last_ran, sched.yielded);
        let queue = sched.queue.clone();
        let hz = sched.hz;
        let picked = goodness::schedule_pick(prev, &queue, &mut sched.tasks, hz, yielded);
        let next = picked.next?;
        let weight = sched.weight(next);
        let task = sched.tasks[next.0 as usize].clone();
        sched.last_ran = Some(next);
        sched.yielded = None;
        sched.need_resched = false;
        if picked.recalculated {
            let args = [Arg::Count(goodness::nice_to_ticks(0, hz) as u64)];
            self.op(now, None, OpKind::Schedule, at(text::GOOD_SCHEDULE_FN, 3), T::GOOD_RECALC, &args, &[]);
        }
        let args = vec![
            Arg::Task(next),
            Arg::Count(u64::from(cpu)),
            Arg::Signed(weight),
            Arg::Count(task.counter as u64),
            Arg::Signed(i64::from(task.nice)),
            Arg::Count(queue.len() as u64),
        ];
        Some((next, args))
    }

    /// The timer tick on the CPU running `task`: its counter goes down; at 0, need_resched.
    /// A task in a system call or on a spinlock keeps its CPU: 2.4 has no kernel
    /// preemption (the flag is honoured when the call returns, `good_syscall_return`).
    pub(super) fn good_tick(&mut self, cpu: u16, task: TaskId, now: u64) {
        let spinlock = self.holds_or_spins_on_a_spinlock(task);
        let in_kernel = matches!(self.state(task), TaskState::RunningKernel { .. });
        if now % self.good().tick_ns() == 0 && self.good().tasks[task.0 as usize].tick() {
            self.good().need_resched = true;
            let code = at(text::GOOD_TICK_FN, 1);
            self.op(now, Some(task), OpKind::Preempt, code, T::GOOD_TICK_OUT, &[Arg::Task(task)], &[]);
        }
        let next_tick = self.good().next_tick_ns(now);
        if !self.good().need_resched {
            self.cpus[usize::from(cpu)].slice_end_ns = next_tick;
            return;
        }
        if spinlock || in_kernel {
            self.cpus[usize::from(cpu)].slice_end_ns = next_tick;
            let code = at(text::GOOD_TICK_FN, 0);
            let template = if spinlock { T::RESCHED_ATOMIC } else { T::GOOD_IN_KERNEL };
            self.op(now, Some(task), OpKind::Note, code, template, &[Arg::Task(task)], &[]);
            return;
        }
        self.resched_leave(cpu, task, now);
    }

    /// The end of `task`'s system call (a `sys` burst) on `cpu`: with need_resched set
    /// and no spinlock held, 2.4 schedules on the way back to user space.
    pub(super) fn good_syscall_return(&mut self, cpu: u16, task: TaskId, now: u64) {
        if self.cpus[usize::from(cpu)].task != Some(task)
            || !self.good().need_resched
            || self.holds_or_spins_on_a_spinlock(task)
        {
            return;
        }
        let code = at(text::GOOD_TICK_FN, 0);
        self.op(now, Some(task), OpKind::Note, code, T::GOOD_SYSCALL_RETURN, &[Arg::Task(task)], &[]);
        self.resched_leave(cpu, task, now);
    }
}
