//! `kernel goodness`: Linux 2.4's scheduler, `kernel::sched::goodness` (v2.4.24), on
//! 1 to 4 CPUs at HZ 100. Every rule is the library's (`GoodTask::forked`, `tick`,
//! `wakeup_preempts`, `schedule_pick` with its epoch recalculation; on several CPUs
//! `schedule_pick_smp` and `reschedule_idle_smp`); this file calls them where
//! `do_fork`, `reschedule_idle`, the timer tick, `schedule()`, `__schedule_tail` and
//! `sys_sched_yield` do, and narrates their numbers: counter, nice, goodness.
//!
//! As in 2.4, the running task stays on the run queue (one list, in order, for every
//! CPU); sleeping, blocking or exiting takes it off. One CPU is a UP kernel (no
//! `PROC_CHANGE_PENALTY`); two to four are an SMP kernel: a CPU's `schedule()` skips
//! the tasks running on other CPUs or pinned elsewhere, a wakeup goes to an idle CPU
//! (its last one first, else the one idle longest) or preempts the CPU whose task has
//! the lowest goodness, and an idle CPU runs `schedule()` only when its task leaves
//! it or `reschedule_idle` sends it a task. Each task is its own process: the +1 for
//! a shared mm goes to the task that ran last on that CPU (the Lab has no threads).

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
    /// The task that ran last on each CPU: goodness gives +1 to a task sharing its mm.
    pub last_ran: Vec<Option<TaskId>>,
    /// A task that called sched_yield, and its CPU, until that CPU's next pick (SCHED_YIELD).
    pub yielded: Option<(TaskId, usize)>,
    /// `need_resched` of each CPU's running task.
    pub need_resched: Vec<bool>,
    pub hz: u64,
    /// SMP: the CPU each task last ran on (`p->processor`), indexed by task number.
    pub processor: Vec<usize>,
    /// SMP: when each CPU last switched tasks (`last_schedule(cpu)`).
    pub last_schedule_ns: Vec<u64>,
    /// SMP: the CPUs due to run `schedule()` (their task left, or `reschedule_idle`
    /// sent them one); an idle CPU that is not due stays idle.
    pub schedule_due: Vec<bool>,
    /// SMP: the task that last left each CPU still runnable (`__schedule_tail`'s `prev`).
    pub prev: Vec<Option<TaskId>>,
}

impl GoodSched {
    pub fn new(tasks: usize, hz: u64, cpus: usize) -> GoodSched {
        GoodSched {
            hz,
            tasks: vec![GoodTask::new(0, hz); tasks],
            queue: Vec::new(),
            last_ran: vec![None; cpus],
            yielded: None,
            need_resched: vec![false; cpus],
            processor: vec![0; tasks],
            last_schedule_ns: vec![0; cpus],
            schedule_due: vec![false; cpus],
            prev: vec![None; cpus],
        }
    }

    /// Whether this is an SMP kernel (two CPUs or more).
    pub fn smp(&self) -> bool {
        self.need_resched.len() > 1
    }

    /// The task left `cpu` (it sleeps, blocks, exits, yields or is preempted): the CPU
    /// runs `schedule()`.
    pub fn left_cpu(&mut self, cpu: usize, task: Option<TaskId>) {
        if let Some(due) = self.schedule_due.get_mut(cpu) {
            *due = true;
        }
        if let Some(prev) = self.prev.get_mut(cpu) {
            *prev = task;
        }
    }

    pub fn tick_ns(&self) -> u64 {
        1_000_000_000 / self.hz
    }

    /// The next tick after `now`.
    pub fn next_tick_ns(&self, now: u64) -> u64 {
        (now / self.tick_ns() + 1) * self.tick_ns()
    }

    /// The goodness `schedule()` on `cpu` would give `task` now.
    fn weight(&self, task: TaskId, cpu: usize) -> i64 {
        let yielded = self.yielded.map(|(task, _)| task);
        let good = &self.tasks[task.0 as usize];
        if !self.smp() {
            return goodness::weight(self.last_ran[cpu], yielded, task, good);
        }
        if yielded == Some(task) {
            return -1;
        }
        good.goodness_smp(self.last_ran[cpu] == Some(task), self.processor[task.0 as usize] == cpu)
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
        // do_fork: the child starts on its parent's CPU (a shell on CPU 0), or its cpu=.
        let home = usize::from(self.program.tasks[index].cpu.unwrap_or(0));
        let sched = self.good();
        let hz = sched.hz;
        if why == Why::Arrive {
            sched.tasks[index] = GoodTask::forked(nice, hz);
            sched.processor[index] = home;
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
        if self.good().smp() {
            self.good_reschedule_idle_smp(task, None, now);
        } else {
            self.good_preempt_check(task, now);
        }
    }

    /// SMP `reschedule_idle(p)`: `p`'s last CPU if it is idle, else the CPU idle the
    /// longest, else the CPU whose task `p` beats by the most (`preemption_goodness`).
    /// `switching` is a CPU that is switching to a task (`__schedule_tail`): busy.
    fn good_reschedule_idle_smp(&mut self, task: TaskId, switching: Option<(usize, TaskId)>, now: u64) {
        let index = task.0 as usize;
        let currents: Vec<Option<TaskId>> = (0..self.cpus.len())
            .map(|cpu| match switching {
                Some((busy, next)) if busy == cpu => Some(next),
                _ => self.cpus[cpu].task,
            })
            .collect();
        let allowed: Vec<bool> = (0..self.cpus.len()).map(|cpu| self.allowed(task, cpu as u16)).collect();
        let sched = self.good.as_ref().expect("2.4's scheduler runs this workload");
        let last = sched.processor[index];
        let seen: Vec<goodness::CpuSeen<'_>> = currents
            .iter()
            .enumerate()
            .map(|(cpu, current)| goodness::CpuSeen {
                current: current.map(|t| &sched.tasks[t.0 as usize]),
                last_schedule_ns: sched.last_schedule_ns[cpu],
                allowed: allowed[cpu],
            })
            .collect();
        let woken = sched.tasks[index].clone();
        match goodness::reschedule_idle_smp(&woken, last, &seen) {
            goodness::SmpWake::Idle(cpu) => {
                self.good().schedule_due[cpu] = true;
                let why = if cpu == last { "the CPU it last ran on" } else { "idle the longest" };
                let args = [Arg::Task(task), Arg::Count(cpu as u64), Arg::Word(why)];
                self.op(
                    now,
                    Some(task),
                    OpKind::Note,
                    at(text::GOOD_WAKE_FN, 5),
                    T::GOOD_SMP_IDLE,
                    &args,
                    &[],
                );
            }
            goodness::SmpWake::Preempt(cpu) => {
                let Some(current) = currents[cpu] else { return };
                let sched = self.good();
                let theirs = woken.goodness_smp(false, cpu == last);
                let mine = sched.tasks[current.0 as usize].goodness_smp(true, true);
                sched.need_resched[cpu] = true;
                // The CPU looks at the flag at once (the next instant), as on a return to user space.
                self.cpus[cpu].slice_end_ns = self.cpus[cpu].slice_end_ns.min(now);
                let args = [
                    Arg::Task(task),
                    Arg::Count(cpu as u64),
                    Arg::Signed(theirs),
                    Arg::Task(current),
                    Arg::Signed(mine),
                ];
                let code = at(text::GOOD_WAKE_FN, 6);
                self.op(now, Some(task), OpKind::Preempt, code, T::GOOD_SMP_PREEMPT, &args, &[]);
            }
            goodness::SmpWake::Wait => {}
        }
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
        sched.need_resched[0] = true;
        // The CPU looks at the flag at once (the next instant), as on a return to user space.
        self.cpus[0].slice_end_ns = now;
        self.op(now, Some(woken), OpKind::Preempt, at(text::GOOD_WAKE_FN, 3), T::GOOD_PREEMPT, &args, &[]);
    }

    /// `sys_sched_yield`: SCHED_YIELD for the next pick, and to the tail of the list.
    fn good_yield(&mut self, task: TaskId, now: u64) {
        let sched = self.good();
        sched.queue.retain(|&queued| queued != task);
        sched.queue.push(task);
        let cpu = sched.processor[task.0 as usize];
        sched.yielded = Some((task, cpu));
        let code = at(text::GOOD_YIELD_FN, 1);
        self.op(now, Some(task), OpKind::Note, code, T::GOOD_YIELD, &[Arg::Task(task)], &[]);
    }

    /// A task that sleeps, blocks or exits leaves the run queue (`del_from_runqueue`).
    pub(super) fn good_dequeue(&mut self, task: TaskId) {
        self.good().queue.retain(|&queued| queued != task);
    }

    /// `schedule()`'s pick on the idle CPU: the best goodness in list order, after a
    /// recalculation of every counter if every runnable one is spent. On SMP, only a
    /// CPU due to schedule picks, among the tasks it may run; then `__schedule_tail`
    /// offers the task that left it, if still runnable, to `reschedule_idle`.
    pub(super) fn good_pick(&mut self, cpu: u16, now: u64) -> Option<(TaskId, Vec<Arg>)> {
        let this = usize::from(cpu);
        let smp = self.good().smp();
        if smp && !std::mem::take(&mut self.good().schedule_due[this]) {
            return None;
        }
        // can_schedule: on SMP, not running on another CPU and allowed here.
        let queue: Vec<TaskId> = if smp {
            let running: Vec<TaskId> = self.cpus.iter().filter_map(|c| c.task).collect();
            let queue = self.good().queue.clone();
            queue.into_iter().filter(|t| !running.contains(t) && self.allowed(*t, cpu)).collect()
        } else {
            self.good().queue.clone()
        };
        let sched = self.good();
        let (prev, yielded) = (sched.last_ran[this], sched.yielded.map(|(task, _)| task));
        let hz = sched.hz;
        let picked = if smp {
            let processor = sched.processor.clone();
            goodness::schedule_pick_smp(this, prev, &queue, &processor, &mut sched.tasks, hz, yielded)
        } else {
            goodness::schedule_pick(prev, &queue, &mut sched.tasks, hz, yielded)
        };
        let left = sched.prev.get_mut(this).and_then(Option::take);
        let Some(next) = picked.next else {
            // The CPU switches to its idle task.
            if smp && left.is_some() {
                sched.last_schedule_ns[this] = now;
            }
            return None;
        };
        let weight = sched.weight(next, this);
        let task = sched.tasks[next.0 as usize].clone();
        sched.last_ran[this] = Some(next);
        if sched.yielded.is_some_and(|(_, on)| on == this || !smp) {
            sched.yielded = None;
        }
        sched.need_resched[this] = false;
        sched.processor[next.0 as usize] = this;
        if smp {
            sched.last_schedule_ns[this] = now;
        }
        if picked.recalculated {
            let ticks = Arg::Count(goodness::nice_to_ticks(0, hz) as u64);
            let code = at(text::GOOD_SCHEDULE_FN, 3);
            if smp {
                let args = [ticks, Arg::Count(u64::from(cpu))];
                self.op(now, None, OpKind::Schedule, code, T::GOOD_RECALC_SMP, &args, &[]);
            } else {
                self.op(now, None, OpKind::Schedule, code, T::GOOD_RECALC, &[ticks], &[]);
            }
        }
        if smp {
            // __schedule_tail: a task preempted here (runnable, not yielding) looks for
            // another CPU; this one is busy with `next`.
            let preempted = left.filter(|&prev| {
                prev != next && self.state(prev) == TaskState::Runnable && yielded != Some(prev)
            });
            if let Some(prev) = preempted {
                self.good_reschedule_idle_smp(prev, Some((this, next)), now);
            }
            let mut args = pick_args(next, cpu, weight, &task, queue.len());
            args.push(Arg::Count(goodness::PROC_CHANGE_PENALTY as u64));
            return Some((next, args));
        }
        Some((next, pick_args(next, cpu, weight, &task, queue.len())))
    }

    /// The timer tick on the CPU running `task`: its counter goes down; at 0, need_resched.
    /// A task in a system call or on a spinlock keeps its CPU: 2.4 has no kernel
    /// preemption (the flag is honoured when the call returns, `good_syscall_return`).
    pub(super) fn good_tick(&mut self, cpu: u16, task: TaskId, now: u64) {
        let spinlock = self.holds_or_spins_on_a_spinlock(task);
        let in_kernel = matches!(self.state(task), TaskState::RunningKernel { .. });
        let this = usize::from(cpu);
        if now % self.good().tick_ns() == 0 && self.good().tasks[task.0 as usize].tick() {
            self.good().need_resched[this] = true;
            let code = at(text::GOOD_TICK_FN, 1);
            self.op(now, Some(task), OpKind::Preempt, code, T::GOOD_TICK_OUT, &[Arg::Task(task)], &[]);
        }
        let next_tick = self.good().next_tick_ns(now);
        if !self.good().need_resched[this] {
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
            || !self.good().need_resched[usize::from(cpu)]
            || self.holds_or_spins_on_a_spinlock(task)
        {
            return;
        }
        let code = at(text::GOOD_TICK_FN, 0);
        self.op(now, Some(task), OpKind::Note, code, T::GOOD_SYSCALL_RETURN, &[Arg::Task(task)], &[]);
        self.resched_leave(cpu, task, now);
    }
}

/// The words of a pick: the task, the CPU, its goodness, counter and nice, and how
/// many were queued.
fn pick_args(next: TaskId, cpu: u16, weight: i64, task: &GoodTask, queued: usize) -> Vec<Arg> {
    vec![
        Arg::Task(next),
        Arg::Count(u64::from(cpu)),
        Arg::Signed(weight),
        Arg::Count(task.counter as u64),
        Arg::Signed(i64::from(task.nice)),
        Arg::Count(queued as u64),
    ]
}
