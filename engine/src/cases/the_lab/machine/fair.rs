//! `kernel eevdf`: today's fair class, `kernel::sched::eevdf` (fair.c as of v6.18),
//! on 1 to 4 CPUs at HZ 250, a cfs_rq per CPU. Every rule is the library's
//! (`RunQueue::wake`, `schedule`, `update_curr`, `dequeue_sleep`, `yield_curr`; on
//! several CPUs `select_idle_sibling`, `migration_candidate`, `dequeue_migrate`,
//! `adopt`, and O(1)'s `balance_plan` for the busiest queue); this file calls them
//! where `try_to_wake_up`, the tick, `schedule()`, `sched_balance_newidle` and
//! `sched_yield` do, and narrates their numbers: vruntime, V, lag, eligibility and
//! the virtual deadline.
//!
//! As in the kernel, the running task stays on the run queue (as `curr`): a tick or
//! a preemption keeps it there; sleeping, blocking or exiting takes it off.
//! Simplifications on several CPUs, each said in the narration: a waking (or new)
//! task goes to its previous CPU (CPU 0 or its `cpu=` for a new one) if idle, else
//! the next idle CPU, else its previous CPU (select_idle_sibling without wake_affine,
//! cache domains or SMT); a CPU that finds its queue empty pulls one waiting task,
//! the least recently run, from the queue with the most tasks if it has two or more
//! (sched_balance_newidle without load weights, cache-hotness, the rd->overloaded
//! and avg_idle gate, or the periodic balancing of busy CPUs; one task, as
//! detach_tasks takes on a newly idle CPU in a CONFIG_PREEMPTION kernel).

use super::{Sim, Why};
use crate::cases::the_lab::lang::Program;
use crate::cases::the_lab::text::{self, at, T};
use crate::kernel::sched::eevdf::{self, Enqueue, RunQueue};
use crate::kernel::sched::o1::balance_plan;
use crate::run::narration::Arg;
use crate::run::trace::OpKind;
use crate::run::world::{Effect, TaskId, TaskState};

/// The tick rate the Lab runs EEVDF at unless `hz=` says otherwise (the
/// distributions' CONFIG_HZ, as fifo-trigger's).
pub(super) const HZ: u64 = 250;

pub(super) struct FairSched {
    /// Each CPU's cfs_rq (its entities indexed by task number; a task's own is on
    /// the queue of `cpu_of`).
    pub rqs: Vec<RunQueue>,
    /// When each CPU's current task was last charged (update_curr's `exec_start`).
    pub exec_start_ns: Vec<u64>,
    /// `TIF_NEED_RESCHED` of each CPU's current task.
    pub need_resched: Vec<bool>,
    /// The CPU whose queue a task is on, or was on last (`task_cpu`).
    pub cpu_of: Vec<usize>,
}

impl FairSched {
    pub fn new(program: &Program) -> FairSched {
        let hz = program.hz.unwrap_or(HZ);
        let cpus = usize::from(program.cpus).max(1);
        // sysctl_sched_base_slice grows with the CPUs (update_sysctl, at boot).
        let mut rq = RunQueue::new(program.tasks.len(), 0, cpus as u32, hz, eevdf::DEFAULT_FEATURES);
        for (entity, task) in rq.entities.iter_mut().zip(&program.tasks) {
            entity.weight = eevdf::weight_of_nice(task.nice as i32);
        }
        FairSched {
            rqs: vec![rq; cpus],
            exec_start_ns: vec![0; cpus],
            need_resched: vec![false; cpus],
            cpu_of: vec![0; program.tasks.len()],
        }
    }

    /// Tasks on every queue, the running ones included.
    pub fn nr_queued(&self) -> usize {
        self.rqs.iter().map(RunQueue::nr_queued).sum()
    }

    /// A task's weight (the same on every queue).
    pub fn weight(&self, task: usize) -> u64 {
        self.rqs[0].entities[task].weight
    }

    /// The next tick after `now`.
    pub fn next_tick_ns(&self, now: u64) -> u64 {
        let tick = self.rqs[0].tick_ns;
        (now / tick + 1) * tick
    }
}

/// A virtual time as two arguments: its sign (a word) and its size.
fn virt(ns: i64) -> [Arg; 2] {
    [Arg::Word(if ns < 0 { "−" } else { "" }), Arg::Ns(ns.unsigned_abs())]
}

/// A virtual time compared in the same sentence with `other` (V with a vruntime, two
/// deadlines): written finely enough that the reader's subtraction or comparison of
/// the two comes out as the rules' did (`V 31.33 ms less its vruntime 30 ms`, not
/// 31.3 ms against a lag of 1.33 ms).
fn virt_beside(ns: i64, other: i64) -> [Arg; 2] {
    let diff_ns = (i128::from(ns) - i128::from(other)).unsigned_abs();
    let diff_ns = u64::try_from(diff_ns).unwrap_or(u64::MAX);
    [Arg::Word(if ns < 0 { "−" } else { "" }), Arg::NsBeside { ns: ns.unsigned_abs(), diff_ns }]
}

impl Sim<'_> {
    fn fair(&mut self) -> &mut FairSched {
        self.fair.as_mut().expect("EEVDF runs this workload")
    }

    /// update_curr's delta on `cpu`: its current task's run since it was last charged.
    fn fair_ran(&mut self, cpu: usize, now: u64) -> u64 {
        let sched = self.fair();
        let ran = if sched.rqs[cpu].curr.is_some() { now - sched.exec_start_ns[cpu] } else { 0 };
        sched.exec_start_ns[cpu] = now;
        ran
    }

    /// select_task_rq_fair, simplified (`eevdf::select_idle_sibling`): the CPU whose
    /// queue `task` joins as it arrives or wakes; a move brings its entity and lag.
    fn fair_select(&mut self, task: TaskId, why: Why, now: u64) -> usize {
        let index = task.0 as usize;
        let prev = if why == Why::Arrive {
            usize::from(self.program.tasks[index].cpu.unwrap_or(0))
        } else {
            self.fair().cpu_of[index]
        };
        let cpus = self.cpus.len();
        if cpus == 1 {
            return 0;
        }
        let idle: Vec<bool> = (0..cpus)
            .map(|cpu| {
                self.cpus[cpu].task.is_none()
                    && self.fair().rqs[cpu].nr_queued() == 0
                    && self.allowed(task, cpu as u16)
            })
            .collect();
        let target = eevdf::select_idle_sibling(prev, &idle);
        let sched = self.fair();
        if target != sched.cpu_of[index] {
            let entity = sched.rqs[sched.cpu_of[index]].entities[index];
            sched.rqs[target].adopt(index, &entity);
        }
        sched.cpu_of[index] = target;
        let why_here = if target == prev && idle[prev] {
            "its previous CPU, idle"
        } else if target == prev {
            "its previous CPU: none it may use is idle"
        } else {
            "the first idle CPU after its previous one"
        };
        let args = [Arg::Task(task), Arg::Count(target as u64), Arg::Word(why_here), Arg::Count(prev as u64)];
        self.op(now, Some(task), OpKind::Note, at(text::FAIR_WAKE_FN, 4), T::FAIR_SELECT, &args, &[]);
        target
    }

    /// `wake_up_new_task` or `try_to_wake_up`: place_entity and the wakeup preemption test.
    pub(super) fn fair_enqueue(&mut self, task: TaskId, why: Why, now: u64) {
        if why == Why::Yield {
            self.fair_yield(task, now);
            return;
        }
        let index = task.0 as usize;
        let cpu = self.fair_select(task, why, now);
        let how = if why == Why::Arrive { Enqueue::Initial } else { Enqueue::Wakeup };
        let ran = self.fair_ran(cpu, now);
        let vlag = self.fair().rqs[cpu].entities[index].vlag;
        let resched = self.fair().rqs[cpu].wake(index, how, ran);
        let rq = &self.fair().rqs[cpu];
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
            args.extend(virt_beside(e.vruntime, v));
            args.extend(virt_beside(v, e.vruntime));
            args.extend(virt(e.deadline));
            self.op(now, Some(task), OpKind::Note, at(text::FAIR_WAKE_FN, 2), T::FAIR_WAKE, &args, &[]);
        }
        if resched {
            self.fair_preempt(task, cpu, now);
        }
    }

    /// check_preempt_wakeup_fair said yes: the task running on `cpu` is rescheduled at once.
    fn fair_preempt(&mut self, woken: TaskId, cpu: usize, now: u64) {
        let Some(current) = self.cpus[cpu].task.filter(|&current| current != woken) else { return };
        let sched = self.fair();
        sched.need_resched[cpu] = true;
        let rq = &sched.rqs[cpu];
        let (w, c) = (rq.entities[woken.0 as usize], rq.entities[current.0 as usize]);
        let preempts = rq.wakeup_preempts(woken.0 as usize);
        // The CPU looks at the flag at once (the next instant), as on a return to user space.
        self.cpus[cpu].slice_end_ns = now;
        let mut args = vec![Arg::Task(woken)];
        args.extend(virt_beside(w.deadline, c.deadline));
        args.push(Arg::Task(current));
        args.extend(virt(c.vruntime));
        args.extend(virt_beside(c.deadline, w.deadline));
        let template = if preempts { T::FAIR_PREEMPT } else { T::FAIR_WAKE_SLICE };
        self.op(now, Some(woken), OpKind::Preempt, at(text::FAIR_WAKE_FN, 3), template, &args, &[]);
    }

    /// yield_task_fair: an eligible task gives up the rest of its request.
    fn fair_yield(&mut self, task: TaskId, now: u64) {
        let cpu = self.fair().cpu_of[task.0 as usize];
        let ran = self.fair_ran(cpu, now);
        let moved = self.fair().rqs[cpu].yield_curr(ran);
        let e = self.fair().rqs[cpu].entities[task.0 as usize];
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
        let cpu = self.fair().cpu_of[index];
        if !self.fair().rqs[cpu].entities[index].on_rq {
            return;
        }
        let ran = self.fair_ran(cpu, now);
        let rq = &mut self.fair().rqs[cpu];
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
        args.extend(virt_beside(v, vruntime));
        args.extend(virt_beside(vruntime, v));
        let template = match (eligible, vlag == v - vruntime) {
            (false, _) => T::FAIR_DEQUEUE_AHEAD,
            (true, true) => T::FAIR_DEQUEUE,
            (true, false) => T::FAIR_DEQUEUE_CLAMPED,
        };
        self.op(now, Some(task), OpKind::Note, at(text::FAIR_SCHEDULE_FN, 1), template, &args, &[]);
    }

    /// sched_balance_newidle, simplified: `this` CPU found its queue empty; the queue
    /// with the most tasks, if it has two or more (`o1::balance_plan`), gives up one
    /// waiting task it may run here, the least recently run (`migration_candidate`),
    /// with its lag (`dequeue_migrate`, `adopt`, then place_entity here).
    fn fair_newidle_balance(&mut self, this: usize, now: u64) {
        let loads: Vec<usize> = self.fair().rqs.iter().map(RunQueue::nr_queued).collect();
        let Some((busiest, _)) = balance_plan(&loads, this) else { return };
        let allowed: Vec<bool> =
            (0..self.tasks.len()).map(|t| self.allowed(TaskId(t as u32), this as u16)).collect();
        let Some(task) = self.fair().rqs[busiest].migration_candidate(|t| allowed[t]) else { return };
        // detach_task's dequeue charges the busiest queue's current task first (update_curr).
        // A slice it used up is left to that CPU's next tick, whose update_curr finds it
        // past its protected vruntime while others wait (the kernel's lazy reschedule
        // would also wait for the tick; alone, it would be picked again).
        let ran = self.fair_ran(busiest, now);
        let sched = self.fair();
        sched.rqs[busiest].update_curr(ran);
        let left = sched.rqs[busiest].dequeue_migrate(task);
        sched.rqs[this].adopt(task, &left);
        sched.rqs[this].enqueue(task, Enqueue::Wakeup);
        sched.cpu_of[task] = this;
        let placed = sched.rqs[this].entities[task];
        let mut args = vec![
            Arg::Count(this as u64),
            Arg::Task(TaskId(task as u32)),
            Arg::Count(busiest as u64),
            Arg::Count(loads[busiest] as u64),
        ];
        args.extend(virt(left.vlag));
        args.extend(virt(placed.vruntime));
        args.extend(virt(placed.deadline));
        let code = at(text::FAIR_SCHEDULE_FN, 4);
        self.op(now, Some(TaskId(task as u32)), OpKind::Note, code, T::FAIR_MIGRATE, &args, &[]);
    }

    /// `schedule()`'s pick on the idle CPU: pick_eevdf and set_next_entity.
    pub(super) fn fair_pick(&mut self, cpu: u16, now: u64) -> Option<(TaskId, Vec<Arg>)> {
        let this = usize::from(cpu);
        if self.cpus.len() > 1 && self.fair().rqs[this].nr_queued() == 0 {
            self.fair_newidle_balance(this, now);
        }
        let sched = self.fair();
        let next = sched.rqs[this].schedule(None, 0, false)?;
        sched.exec_start_ns[this] = now;
        sched.need_resched[this] = false;
        let rq = &sched.rqs[this];
        let e = rq.entities[next];
        let balance = rq.balance();
        let eligible = rq.entities.iter().filter(|e| e.on_rq && balance.eligible(e.vruntime)).count();
        let mut args = vec![Arg::Task(TaskId(next as u32)), Arg::Count(u64::from(cpu))];
        let v = rq.avg_vruntime();
        args.extend(virt_beside(e.vruntime, v));
        args.extend(virt_beside(v, e.vruntime));
        args.extend(virt(e.deadline));
        args.extend([Arg::Count(eligible as u64), Arg::Count(rq.nr_queued() as u64)]);
        Some((TaskId(next as u32), args))
    }

    /// A tick (or a pending reschedule) on the CPU running `task`: update_curr, and
    /// a reschedule when its slice is used up with others waiting.
    pub(super) fn fair_tick(&mut self, cpu: u16, task: TaskId, now: u64) {
        let atomic = self.holds_or_spins_on_a_spinlock(task);
        let index = task.0 as usize;
        let this = usize::from(cpu);
        if now % self.fair().rqs[this].tick_ns == 0 {
            let ran = self.fair_ran(this, now);
            let before = self.fair().rqs[this].entities[index];
            if self.fair().rqs[this].update_curr(ran) {
                self.fair().need_resched[this] = true;
                let rq = &self.fair().rqs[this];
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
        if !self.fair().need_resched[this] {
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
