//! `kernel eevdf`: today's fair class, `kernel::sched::eevdf` (fair.c as of v6.18),
//! on one CPU at HZ 250. Every rule is the library's (`RunQueue::wake`, `schedule`,
//! `update_curr`, `dequeue_sleep`, `yield_curr`); this file calls them where
//! `try_to_wake_up`, the tick, `schedule()` and `sched_yield` do, and narrates
//! their numbers: vruntime, V, lag, eligibility and the virtual deadline.
//!
//! As in the kernel, the running task stays on the run queue (as `curr`): a tick or
//! a preemption keeps it there; sleeping, blocking or exiting takes it off.

use super::{Sim, Why};
use crate::cases::the_lab::lang::Program;
use crate::cases::the_lab::text::{self, at, T};
use crate::kernel::sched::eevdf::{self, Enqueue, RunQueue};
use crate::run::narration::Arg;
use crate::run::trace::OpKind;
use crate::run::world::{Effect, TaskId, TaskState};

/// The tick rate the Lab runs EEVDF at unless `hz=` says otherwise (the
/// distributions' CONFIG_HZ, as fifo-trigger's).
pub(super) const HZ: u64 = 250;

pub(super) struct FairSched {
    pub rq: RunQueue,
    /// When the current task was last charged (update_curr's `exec_start`).
    pub exec_start_ns: u64,
    /// `TIF_NEED_RESCHED` of the CPU's current task.
    pub need_resched: bool,
}

impl FairSched {
    pub fn new(program: &Program) -> FairSched {
        let hz = program.hz.unwrap_or(HZ);
        let mut rq = RunQueue::new(program.tasks.len(), 0, 1, hz, eevdf::DEFAULT_FEATURES);
        for (entity, task) in rq.entities.iter_mut().zip(&program.tasks) {
            entity.weight = eevdf::weight_of_nice(task.nice as i32);
        }
        FairSched { rq, exec_start_ns: 0, need_resched: false }
    }

    /// The next tick after `now`.
    pub fn next_tick_ns(&self, now: u64) -> u64 {
        (now / self.rq.tick_ns + 1) * self.rq.tick_ns
    }
}

/// A virtual time as two arguments: its sign (a word) and its size.
fn virt(ns: i64) -> [Arg; 2] {
    [Arg::Word(if ns < 0 { "−" } else { "" }), Arg::Ns(ns.unsigned_abs())]
}

impl Sim<'_> {
    fn fair(&mut self) -> &mut FairSched {
        self.fair.as_mut().expect("EEVDF runs this workload")
    }

    /// update_curr's delta: the current task's run since it was last charged.
    fn fair_ran(&mut self, now: u64) -> u64 {
        let sched = self.fair();
        let ran = if sched.rq.curr.is_some() { now - sched.exec_start_ns } else { 0 };
        sched.exec_start_ns = now;
        ran
    }

    /// `wake_up_new_task` or `try_to_wake_up`: place_entity and the wakeup preemption test.
    pub(super) fn fair_enqueue(&mut self, task: TaskId, why: Why, now: u64) {
        if why == Why::Yield {
            self.fair_yield(task, now);
            return;
        }
        let index = task.0 as usize;
        let how = if why == Why::Arrive { Enqueue::Initial } else { Enqueue::Wakeup };
        let ran = self.fair_ran(now);
        let vlag = self.fair().rq.entities[index].vlag;
        let resched = self.fair().rq.wake(task.0 as usize, how, ran);
        let rq = &self.fair().rq;
        let e = rq.entities[index];
        let (v, slice) = (rq.avg_vruntime(), rq.base_slice_ns);
        let t = Arg::Task(task);
        let mut args = vec![t];
        if how == Enqueue::Initial {
            args.extend([Arg::Signed(self.program.tasks[index].nice), Arg::Count(e.weight)]);
            args.extend(virt(e.vruntime));
            args.extend(virt(e.deadline));
            args.push(Arg::Ns(slice));
            self.op(now, Some(task), OpKind::Note, at(text::FAIR_WAKE_FN, 1), T::FAIR_NEW, &args, &[]);
        } else {
            args.extend(virt(if rq.features.place_lag { vlag } else { 0 }));
            args.extend(virt(e.vruntime));
            args.extend(virt(v));
            args.extend(virt(e.deadline));
            self.op(now, Some(task), OpKind::Note, at(text::FAIR_WAKE_FN, 2), T::FAIR_WAKE, &args, &[]);
        }
        if resched {
            self.fair_preempt(task, now);
        }
    }

    /// check_preempt_wakeup_fair said yes: the running task is rescheduled at once.
    fn fair_preempt(&mut self, woken: TaskId, now: u64) {
        let Some(current) = self.cpus[0].task.filter(|&current| current != woken) else { return };
        let sched = self.fair();
        sched.need_resched = true;
        let (w, c) = (sched.rq.entities[woken.0 as usize], sched.rq.entities[current.0 as usize]);
        let preempts = sched.rq.wakeup_preempts(woken.0 as usize);
        // The CPU looks at the flag at once (the next instant), as on a return to user space.
        self.cpus[0].slice_end_ns = now;
        let mut args = vec![Arg::Task(woken)];
        args.extend(virt(w.deadline));
        args.push(Arg::Task(current));
        args.extend(virt(c.vruntime));
        args.extend(virt(c.deadline));
        let template = if preempts { T::FAIR_PREEMPT } else { T::FAIR_WAKE_SLICE };
        self.op(now, Some(woken), OpKind::Preempt, at(text::FAIR_WAKE_FN, 3), template, &args, &[]);
    }

    /// yield_task_fair: an eligible task gives up the rest of its request.
    fn fair_yield(&mut self, task: TaskId, now: u64) {
        let ran = self.fair_ran(now);
        let moved = self.fair().rq.yield_curr(ran);
        let e = self.fair().rq.entities[task.0 as usize];
        let mut args = vec![Arg::Task(task)];
        args.extend(virt(e.vruntime));
        args.extend(virt(e.deadline));
        let (template, line) = if moved { (T::FAIR_YIELD, 2) } else { (T::FAIR_YIELD_NOTHING, 1) };
        self.op(now, Some(task), OpKind::Note, at(text::FAIR_YIELD_FN, line), template, &args, &[]);
    }

    /// A task that left its CPU asleep, blocked or dead leaves the run queue, charged;
    /// its lag is kept for its wakeup.
    pub(super) fn fair_dequeue(&mut self, task: TaskId, now: u64) {
        let index = task.0 as usize;
        if !self.fair().rq.entities[index].on_rq {
            return;
        }
        let ran = self.fair_ran(now);
        let rq = &mut self.fair().rq;
        if rq.curr == Some(index) {
            rq.update_curr(ran);
        }
        let (v, vruntime, eligible) = (rq.avg_vruntime(), rq.entities[index].vruntime, rq.eligible(index));
        rq.dequeue_sleep(index);
        let vlag = rq.entities[index].vlag;
        if self.state(task) == TaskState::Dead {
            return;
        }
        let mut args = vec![Arg::Task(task)];
        args.extend(virt(vlag));
        args.extend(virt(v));
        args.extend(virt(vruntime));
        let template = if eligible { T::FAIR_DEQUEUE } else { T::FAIR_DEQUEUE_AHEAD };
        self.op(now, Some(task), OpKind::Note, at(text::FAIR_SCHEDULE_FN, 1), template, &args, &[]);
    }

    /// `schedule()`'s pick on the idle CPU: pick_eevdf and set_next_entity.
    pub(super) fn fair_pick(&mut self, cpu: u16, now: u64) -> Option<(TaskId, Vec<Arg>)> {
        let sched = self.fair();
        let next = sched.rq.schedule(None, 0, false)?;
        sched.exec_start_ns = now;
        sched.need_resched = false;
        let rq = &sched.rq;
        let e = rq.entities[next];
        let eligible = (0..rq.entities.len()).filter(|&t| rq.entities[t].on_rq && rq.eligible(t)).count();
        let mut args = vec![Arg::Task(TaskId(next as u32)), Arg::Count(u64::from(cpu))];
        args.extend(virt(e.vruntime));
        args.extend(virt(rq.avg_vruntime()));
        args.extend(virt(e.deadline));
        args.extend([Arg::Count(eligible as u64), Arg::Count(rq.nr_queued() as u64)]);
        Some((TaskId(next as u32), args))
    }

    /// A tick (or a pending reschedule) on the CPU running `task`: update_curr, and
    /// a reschedule when its slice is used up with others waiting.
    pub(super) fn fair_tick(&mut self, cpu: u16, task: TaskId, now: u64) {
        let atomic = self.holds_or_spins_on_a_spinlock(task);
        let index = task.0 as usize;
        if now % self.fair().rq.tick_ns == 0 {
            let ran = self.fair_ran(now);
            let before = self.fair().rq.entities[index];
            if self.fair().rq.update_curr(ran) {
                self.fair().need_resched = true;
                let rq = &self.fair().rq;
                let after = rq.entities[index];
                let mut args = vec![Arg::Task(task)];
                args.extend(virt(after.vruntime));
                let template = if after.deadline != before.deadline {
                    args.extend(virt(before.deadline));
                    args.extend(virt(after.deadline));
                    T::FAIR_TICK_DEADLINE
                } else {
                    args.extend(virt(before.vprot));
                    T::FAIR_TICK_PROTECT
                };
                let line = if template == T::FAIR_TICK_DEADLINE { 2 } else { 3 };
                args.push(Arg::Count(rq.nr_queued() as u64 - 1));
                self.op(now, Some(task), OpKind::Preempt, at(text::FAIR_TICK_FN, line), template, &args, &[]);
            }
        }
        let next_tick = self.fair().next_tick_ns(now);
        if !self.fair().need_resched {
            self.cpus[usize::from(cpu)].slice_end_ns = next_tick;
            return;
        }
        if atomic {
            self.cpus[usize::from(cpu)].slice_end_ns = next_tick;
            let code = at(text::FAIR_TICK_FN, 0);
            self.op(now, Some(task), OpKind::Note, code, T::RESCHED_ATOMIC, &[Arg::Task(task)], &[]);
            return;
        }
        self.resched_leave(cpu, task, now);
    }

    /// schedule() from a tick or a wakeup: the task leaves its CPU but stays queued.
    pub(super) fn resched_leave(&mut self, cpu: u16, task: TaskId, now: u64) {
        let effects = [
            Effect::SetState { task, state: TaskState::Runnable },
            Effect::Count { counter: self.counters.preemptions, delta: 1 },
        ];
        let code = at(text::BODY, text::BODY_YIELD);
        self.op(now, Some(task), OpKind::Schedule, code, T::RESCHED, &[Arg::Task(task)], &effects);
        self.leave_cpu(cpu);
    }
}
