//! `kernel o1`: the 2.6.14 O(1) scheduler of `kernel::sched::o1` at HZ 1000, one
//! run queue per CPU. Every rule is the library's (`O1Task::wake`, `charge`,
//! `credit_runqueue_wait`, `RunQueue::tick`, `pick`, `sched_yield`,
//! `wakeup_preempts`, `balance_plan`, `pull_candidate`, `BalanceTimer`); this file
//! only calls them where `schedule()`, `scheduler_tick()`, `try_to_wake_up()`,
//! `idle_balance()` and `rebalance_tick()` do, and narrates their numbers.
//!
//! As in the kernel, the running task stays queued in its array: leaving the CPU
//! by a tick or a preemption keeps it there; sleeping, blocking or exiting takes
//! it out. A task arrives on CPU 0 (forked by a shell there) or its `cpu=`, and
//! wakes where it last ran; an idle CPU pulls from the busiest queue each time it
//! looks for work (coredump-threads' balancing), and a busy CPU when its
//! `rebalance_tick` is due.

use super::{Sim, Why};
use crate::cases::the_lab::text::{self, at, T};
use crate::kernel::sched::o1::{self, Array, BalanceTimer, O1Task, RunQueue, TickOutcome, O1};
use crate::run::narration::Arg;
use crate::run::trace::OpKind;
use crate::run::world::{Effect, TaskId, TaskState};

/// The tick rate the Lab runs the O(1) scheduler at unless `hz=` says otherwise.
pub(super) const HZ: u64 = 1000;

pub(super) struct O1Sched {
    pub o1: O1,
    /// Each CPU's run queue.
    pub rqs: Vec<RunQueue>,
    /// Each task's scheduling state, created when it arrives.
    pub tasks: Vec<O1Task>,
    /// The CPU whose run queue holds each task (`task_cpu`).
    pub cpu_of: Vec<usize>,
    /// `TIF_NEED_RESCHED` of each CPU's current task.
    pub need_resched: Vec<bool>,
    /// Each CPU's periodic balancing clock (rebalance_tick's sched domain).
    pub balance: Vec<BalanceTimer>,
}

impl O1Sched {
    pub fn new(tasks: usize, hz: u64, cpus: usize) -> O1Sched {
        let o1 = O1::v2_6_14(hz);
        O1Sched {
            o1,
            rqs: vec![RunQueue::new(); cpus],
            tasks: vec![O1Task::new(&o1, 0, 0); tasks],
            cpu_of: vec![0; tasks],
            need_resched: vec![false; cpus],
            balance: vec![BalanceTimer::default(); cpus],
        }
    }

    /// Tasks on every run queue (the running ones included).
    pub fn nr_running(&self) -> usize {
        self.rqs.iter().map(RunQueue::nr_running).sum()
    }

    /// The next tick after `now`.
    pub fn next_tick_ns(&self, now: u64) -> u64 {
        let tick = self.o1.tick_ns();
        (now / tick + 1) * tick
    }
}

impl Sim<'_> {
    fn sched(&mut self) -> &mut O1Sched {
        self.o1.as_mut().expect("the O(1) scheduler runs this workload")
    }

    /// `wake_up_new_task` or `try_to_wake_up`: into the active array, then the preemption test.
    pub(super) fn o1_enqueue(&mut self, task: TaskId, why: Why, now: u64) {
        let index = task.0 as usize;
        if why == Why::Yield {
            self.o1_yield(task, now);
            return;
        }
        let nice = self.program.tasks[index].nice as i32;
        let home = usize::from(self.program.tasks[index].cpu.unwrap_or(0));
        let sched = self.sched();
        let o1 = sched.o1;
        let t = Arg::Task(task);
        if why == Why::Arrive {
            sched.cpu_of[index] = home;
        }
        let rq = sched.cpu_of[index];
        if why == Why::Arrive {
            sched.tasks[index] = O1Task::new(&o1, nice, now);
            let fresh = sched.tasks[index].clone();
            sched.rqs[rq].enqueue(Array::Active, task, fresh.prio);
            let args = [
                t,
                Arg::Signed(i64::from(fresh.static_prio)),
                Arg::Signed(i64::from(nice)),
                Arg::Ns(fresh.time_slice * o1.tick_ns()),
            ];
            self.op(now, Some(task), OpKind::Note, at(text::O1_WAKE_FN, 2), T::O1_FORK, &args, &[]);
        } else {
            // A timer's wakeup runs in interrupt context; a lock's, in the waker's.
            if why == Why::Timer {
                sched.tasks[index].wake_from_interrupt(&o1, now);
            } else {
                sched.tasks[index].wake(&o1, now);
            }
            let woken = sched.tasks[index].clone();
            sched.rqs[rq].enqueue(Array::Active, task, woken.prio);
            let bonus = o1.current_bonus(woken.sleep_avg_ns);
            let args =
                [t, Arg::Ns(woken.sleep_avg_ns), Arg::Signed(bonus), Arg::Signed(i64::from(woken.prio))];
            self.op(now, Some(task), OpKind::Note, at(text::O1_WAKE_FN, 1), T::O1_ACTIVATE, &args, &[]);
        }
        self.o1_preempt_check(task, now);
    }

    fn o1_preempt_check(&mut self, woken: TaskId, now: u64) {
        let cpu = self.sched().cpu_of[woken.0 as usize];
        let Some(current) = self.cpus[cpu].task else { return };
        let sched = self.sched();
        let (woken_prio, current_prio) =
            (sched.tasks[woken.0 as usize].prio, sched.tasks[current.0 as usize].prio);
        if !o1::wakeup_preempts(woken_prio, current_prio) {
            return;
        }
        sched.need_resched[cpu] = true;
        // The CPU looks at the flag at once (the next instant), as on a return to user space.
        self.cpus[cpu].slice_end_ns = now;
        let args = [
            Arg::Task(woken),
            Arg::Signed(i64::from(woken_prio)),
            Arg::Task(current),
            Arg::Signed(i64::from(current_prio)),
        ];
        self.op(now, Some(woken), OpKind::Preempt, at(text::O1_WAKE_FN, 3), T::O1_PREEMPT, &args, &[]);
    }

    fn o1_yield(&mut self, task: TaskId, now: u64) {
        let sched = self.sched();
        let o1 = sched.o1;
        sched.tasks[task.0 as usize].charge(&o1, now);
        // The step that yielded said so; the move to the expired array is the library's.
        let rq = sched.cpu_of[task.0 as usize];
        sched.rqs[rq].sched_yield(task);
    }

    /// A task that left its CPU asleep, blocked or dead leaves the run queue, charged.
    pub(super) fn o1_dequeue(&mut self, task: TaskId, now: u64) {
        let dead = self.state(task) == TaskState::Dead;
        let sched = self.sched();
        let o1 = sched.o1;
        if !dead {
            sched.tasks[task.0 as usize].charge(&o1, now);
        }
        let rq = sched.cpu_of[task.0 as usize];
        if sched.rqs[rq].find(task).is_some() {
            sched.rqs[rq].remove(task);
        }
    }

    /// `schedule()`'s pick on the idle CPU: the arrays swapped if the active one is
    /// empty, the first of the best priority, credited for its wait if it was woken.
    pub(super) fn o1_pick(&mut self, cpu: u16, now: u64) -> Option<(TaskId, Vec<Arg>)> {
        if self.sched().rqs[usize::from(cpu)].nr_running() == 0 {
            self.o1_idle_balance(usize::from(cpu), now);
        }
        let sched = self.sched();
        let rq = &mut sched.rqs[usize::from(cpu)];
        let swaps = rq.swaps;
        let next = rq.pick()?;
        let swapped = rq.swaps != swaps;
        let o1 = sched.o1;
        let waited = now.saturating_sub(sched.tasks[next.0 as usize].timestamp_ns);
        let credited = sched.tasks[next.0 as usize].credit_runqueue_wait(&o1, now).is_some();
        if credited {
            sched.rqs[usize::from(cpu)].requeue(next, sched.tasks[next.0 as usize].prio);
        }
        sched.tasks[next.0 as usize].timestamp_ns = now;
        sched.need_resched[usize::from(cpu)] = false;
        let picked = sched.tasks[next.0 as usize].clone();
        let runnable = sched.rqs[usize::from(cpu)].nr_running() as u64;
        if swapped {
            self.op(now, None, OpKind::Schedule, at(text::O1_SCHEDULE_FN, 2), T::O1_SWAP, &[], &[]);
        }
        if credited && waited > 0 {
            let args = [
                Arg::Task(next),
                Arg::Ns(waited),
                Arg::Ns(picked.sleep_avg_ns),
                Arg::Signed(i64::from(picked.prio)),
            ];
            self.op(now, Some(next), OpKind::Note, at(text::O1_SCHEDULE_FN, 4), T::O1_CREDIT, &args, &[]);
        }
        let args = vec![
            Arg::Task(next),
            Arg::Count(u64::from(cpu)),
            Arg::Signed(i64::from(picked.prio)),
            Arg::Count(runnable),
        ];
        Some((next, args))
    }

    /// A tick (or a pending reschedule) on the CPU running `task`.
    pub(super) fn o1_tick(&mut self, cpu: u16, task: TaskId, now: u64) {
        let atomic = self.holds_or_spins_on_a_spinlock(task);
        let sched = self.sched();
        let o1 = sched.o1;
        let on_tick = now % o1.tick_ns() == 0;
        let cpus = sched.rqs.len() as u64;
        if on_tick {
            let rq = &mut sched.rqs[usize::from(cpu)];
            let outcome = rq.tick(&o1, task, &mut sched.tasks[task.0 as usize], now, cpus);
            let after = sched.tasks[task.0 as usize].clone();
            let args = [
                Arg::Task(task),
                Arg::Signed(i64::from(after.prio)),
                Arg::Ns(after.time_slice * o1.tick_ns()),
            ];
            let said = match outcome {
                TickOutcome::Continue | TickOutcome::NotYetOff => None,
                TickOutcome::Requeued => Some((T::O1_TICK_REQUEUE, 5)),
                TickOutcome::ExpiredToActive => Some((T::O1_TICK_ACTIVE, 3)),
                TickOutcome::ExpiredToExpired { starving: true } => Some((T::O1_TICK_STARVING, 4)),
                TickOutcome::ExpiredToExpired { starving: false } => Some((T::O1_TICK_EXPIRED, 4)),
            };
            if let Some((template, line)) = said {
                sched.need_resched[usize::from(cpu)] = true;
                self.op(now, Some(task), OpKind::Preempt, at(text::O1_TICK_FN, line), template, &args, &[]);
            }
            // scheduler_tick ends with rebalance_tick(NOT_IDLE) on a busy CPU.
            if cpus > 1 {
                self.o1_rebalance_tick(usize::from(cpu), now);
            }
        }
        let next_tick = self.sched().next_tick_ns(now);
        if !self.sched().need_resched[usize::from(cpu)] {
            self.cpus[usize::from(cpu)].slice_end_ns = next_tick;
            return;
        }
        if atomic {
            self.cpus[usize::from(cpu)].slice_end_ns = next_tick;
            self.op(
                now,
                Some(task),
                OpKind::Note,
                at(text::O1_TICK_FN, 0),
                T::O1_ATOMIC,
                &[Arg::Task(task)],
                &[],
            );
            return;
        }
        // schedule(): the task stays queued where the tick put it; charged for its run.
        self.sched().tasks[task.0 as usize].charge(&o1, now);
        let effects = [
            Effect::SetState { task, state: TaskState::Runnable },
            Effect::Count { counter: self.counters.preemptions, delta: 1 },
        ];
        self.op(
            now,
            Some(task),
            OpKind::Schedule,
            at(text::O1_SCHEDULE_FN, 1),
            T::YIELD_CPU,
            &[Arg::Task(task)],
            &effects,
        );
        self.leave_cpu(cpu);
    }

    /// pull_task: moves the task `pull_candidate` chooses (never the running one nor
    /// one pinned elsewhere) from `busiest`'s run queue to `this` one's, into the same
    /// array at the same priority; the array it came from and the task.
    fn o1_pull_task(&mut self, this: usize, busiest: usize) -> Option<(Array, TaskId)> {
        let running = self.cpus[busiest].task;
        let allowed = |t: TaskId| self.allowed(t, this as u16);
        let (from, task) = self.sched_ref().rqs[busiest].pull_candidate(running, allowed)?;
        let sched = self.sched();
        sched.rqs[busiest].remove(task);
        let prio = sched.tasks[task.0 as usize].prio;
        sched.rqs[this].enqueue(from, task, prio);
        sched.cpu_of[task.0 as usize] = this;
        Some((from, task))
    }

    /// `idle_balance`: the CPU about to idle pulls from the busiest run queue (half the
    /// difference, never a running task nor one pinned elsewhere).
    fn o1_idle_balance(&mut self, this: usize, now: u64) {
        let loads: Vec<usize> = self.sched().rqs.iter().map(RunQueue::nr_running).collect();
        let Some((busiest, count)) = o1::balance_plan(&loads, this) else { return };
        for _ in 0..count {
            let Some((from, task)) = self.o1_pull_task(this, busiest) else { return };
            let args = [
                Arg::Count(this as u64),
                Arg::Task(task),
                Arg::Count(busiest as u64),
                Arg::Count(loads[busiest] as u64),
                array_word(from),
            ];
            self.op(now, Some(task), OpKind::Note, at(text::O1_SCHEDULE_FN, 6), T::O1_MIGRATE, &args, &[]);
        }
    }

    /// rebalance_tick on a busy CPU (2.6.14): when its domain's interval (times
    /// busy_factor) has passed, load_balance pulls from the busiest run queue as
    /// idle_balance does (half the difference by tasks now, never a running task nor
    /// one pinned elsewhere); a pulled task that beats the running one preempts it.
    fn o1_rebalance_tick(&mut self, this: usize, now: u64) {
        let sched = self.sched();
        let hz = 1_000_000_000 / sched.o1.tick_ns();
        let jiffies = now / sched.o1.tick_ns();
        if !sched.balance[this].due(this as u64, jiffies, hz, false) {
            return;
        }
        let every = Arg::Ns(sched.balance[this].interval_jiffies(hz, false) * sched.o1.tick_ns());
        let loads: Vec<usize> = sched.rqs.iter().map(RunQueue::nr_running).collect();
        let Some((busiest, count)) = o1::balance_plan(&loads, this) else {
            self.sched().balance[this].balanced(o1::Balance::Balanced);
            return;
        };
        let allowed = |t: TaskId| self.allowed(t, this as u16);
        if self.sched_ref().rqs[busiest].all_pinned(allowed) {
            // move_tasks found every task pinned: out_balanced, backing off further than
            // max_interval, so a pinned imbalance is looked at ever more rarely.
            let sched = self.sched();
            sched.balance[this].balanced(o1::Balance::AllPinned);
            let next = Arg::Ns(sched.balance[this].interval_jiffies(hz, false) * sched.o1.tick_ns());
            let args = [
                Arg::Count(this as u64),
                Arg::Count(busiest as u64),
                Arg::Count(loads[busiest] as u64),
                Arg::Count(loads[this] as u64),
                every,
                next,
            ];
            self.op(now, None, OpKind::Note, at(text::O1_SCHEDULE_FN, 9), T::O1_REBALANCE_PINNED, &args, &[]);
            return;
        }
        // Tasks were looked at: the interval resets whether or not one could move (a
        // running task is not pulled, and active balancing is not modelled).
        self.sched().balance[this].balanced(o1::Balance::Tried);
        for _ in 0..count {
            let Some((from, task)) = self.o1_pull_task(this, busiest) else { return };
            let args = [
                Arg::Count(this as u64),
                Arg::Task(task),
                Arg::Count(busiest as u64),
                Arg::Count(loads[busiest] as u64),
                Arg::Count(loads[this] as u64),
                every,
                array_word(from),
            ];
            self.op(now, Some(task), OpKind::Note, at(text::O1_SCHEDULE_FN, 7), T::O1_REBALANCE, &args, &[]);
            // pull_task: TASK_PREEMPTS_CURR reschedules this CPU's task.
            if let Some(current) = self.cpus[this].task {
                let sched = self.sched();
                let (prio, current_prio) =
                    (sched.tasks[task.0 as usize].prio, sched.tasks[current.0 as usize].prio);
                if o1::wakeup_preempts(prio, current_prio) {
                    self.sched().need_resched[this] = true;
                }
            }
        }
    }

    fn sched_ref(&self) -> &O1Sched {
        self.o1.as_ref().expect("the O(1) scheduler runs this workload")
    }
}

/// Which array a pulled task came from, as the narration names it.
fn array_word(from: Array) -> Arg {
    Arg::Word(if from == Array::Active { "active" } else { "expired" })
}
