//! The O(1) scheduler's events on this machine: sleeping, waking (with the wakeup
//! preemption test), the timer tick and `schedule()`.

use super::*;

/// Who wakes a sleeping task: the narration says it, and a timer's wakeup (interrupt
/// context) is credited differently by the O(1) scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Wake {
    /// The usleep() timer, from the timer softirq (`activated` = 2).
    Timer,
    /// signal_wake_up from a signal's sender.
    Signal,
    /// main's children from system() have exited: do_notify_parent wakes it in wait4().
    ChildExit,
    /// An rwsem's up_write hands the lock to a waiter.
    Lock,
    /// complete() or complete_all() on a completion it waits for.
    Completion,
}

impl Machine<'_> {
    /// Created and not yet gone.
    pub(super) fn live(&self, task: usize) -> bool {
        self.tasks[task].created && self.tasks[task].act != Act::Gone
    }

    pub(super) fn sleep(&mut self, task: usize, channel: ChannelId) {
        self.tasks[task].sleeping = true;
        self.rq_mut(task).remove(id(task));
        self.tasks[task].o1.charge(&self.o1, self.now);
        let doing = self.doing(task);
        let mut e: Vec<Effect> = self.state(task, TaskState::Sleeping { channel }).into_iter().collect();
        e.extend(self.gauges(task, doing));
        self.op(
            self.now,
            Some(task),
            OpKind::Schedule,
            at(text::SCHEDULE, 1),
            T::SCHEDULE_SLEEP,
            &[Arg::Task(id(task))],
            &e,
        );
        let cpu = self.cpu_of(task);
        if self.cpus[cpu].current == Some(task) {
            self.cpus[cpu].current = None;
        }
        self.cpus[cpu].need_resched = true;
    }

    /// try_to_wake_up: recalc (activate_task), queue in the active array, preemption check.
    pub(super) fn wake(&mut self, task: usize, at_ns: u64, why: Wake) {
        let from_interrupt = why == Wake::Timer;
        if !self.tasks[task].sleeping {
            return;
        }
        self.tasks[task].sleeping = false;
        self.tasks[task].stopped = false;
        if let Some(when) = self.tasks[task].timer.take() {
            self.timers.remove(&(when, task));
        }
        let slept = at_ns.saturating_sub(self.tasks[task].o1.timestamp_ns);
        if from_interrupt {
            self.tasks[task].o1.wake_from_interrupt(&self.o1, at_ns);
        } else {
            self.tasks[task].o1.wake(&self.o1, at_ns);
        }
        self.enqueue(task, Array::Active);
        let prio = self.tasks[task].o1.prio;
        if self.rec_on() {
            self.b.iteration(txt(T::ITER_SIGNAL.id(), &[]));
            let doing = self.doing(task);
            let mut effects: Vec<Effect> = self.state(task, TaskState::Runnable).into_iter().collect();
            effects.extend(self.gauges(task, doing));
            let o1 = &self.tasks[task].o1;
            let (template, code) = match why {
                Wake::Timer => (T::TIMER_WAKE, at(text::TFUNC, 0)),
                Wake::Signal => (T::WAKE_SIGNAL, at(text::COMPLETE, 8)),
                Wake::ChildExit => (T::WAKE_CHILD, at(text::MAIN, 0)),
                Wake::Lock => (T::WAKE_LOCK, at(text::CDWAIT, 4)),
                Wake::Completion => (T::WAKE_COMPLETION, at(text::EXIT_MM, 1)),
            };
            let args = [
                Arg::Task(id(task)),
                Arg::Ns(slept),
                Arg::Ns(o1.sleep_avg_ns),
                Arg::Signed(i64::from(o1.prio)),
            ];
            self.op(at_ns.max(self.b.now_ns()), None, OpKind::Wake, code, template, &args, &effects);
        }
        // try_to_wake_up on its own CPU: 2.6.14's SD_CPU_INIT has SD_WAKE_AFFINE but the
        // wakers here (a timer on the sleeper's CPU, the signal sender) are not modelled
        // as pulling it elsewhere (model choice).
        let cpu = self.cpu_of(task);
        match self.cpus[cpu].current {
            None => self.cpus[cpu].need_resched = true,
            Some(current) => {
                let current_prio = self.tasks[current].o1.prio;
                let args = [
                    Arg::Task(id(task)),
                    Arg::Signed(i64::from(prio)),
                    Arg::Task(id(current)),
                    Arg::Signed(i64::from(current_prio)),
                ];
                let at_op = at_ns.max(self.b.now_ns());
                if wakeup_preempts(prio, current_prio) {
                    self.cpus[cpu].need_resched = true;
                    self.op(at_op, None, OpKind::Preempt, at(text::SCHEDULE, 3), T::PREEMPT, &args, &[]);
                } else if task == self.dumper && !self.out.first_signal.is_empty() {
                    self.op(at_op, None, OpKind::Compute, at(text::SCHEDULE, 3), T::NO_PREEMPT, &args, &[]);
                }
            }
        }
    }

    /// `scheduler_tick` on `cpu`. TIMESLICE_GRANULARITY is multiplied by the number of
    /// CPUs on an SMP kernel (2.6.14 `#ifdef CONFIG_SMP`); the reporter's was SMP, with
    /// one CPU online.
    pub(super) fn tick(&mut self, cpu: usize, tick_at: u64) {
        let cpus = self.cpus.len() as u64;
        let Some(current) = self.cpus[cpu].current else { return };
        let outcome =
            self.cpus[cpu].rq.tick(&self.o1, id(current), &mut self.tasks[current].o1, tick_at, cpus);
        let o1 = self.tasks[current].o1.clone();
        let seen = TickSeen { bonus: self.o1.current_bonus(o1.sleep_avg_ns), o1, doing: self.doing(current) };
        match outcome {
            TickOutcome::Continue | TickOutcome::NotYetOff => {}
            TickOutcome::Requeued => self.tick_requeued(cpu, current, &seen),
            TickOutcome::ExpiredToActive => self.tick_expired_to_active(cpu, current, &seen),
            TickOutcome::ExpiredToExpired { starving } => {
                self.tick_expired_to_expired(cpu, current, starving, &seen)
            }
        }
    }

    /// The tick that ends a slice asks for a reschedule and puts the task last in
    /// its round.
    fn end_slice(&mut self, cpu: usize, current: usize) {
        self.cpus[cpu].need_resched = true;
        self.seq += 1;
        self.tasks[current].seq = self.seq;
    }

    /// An interactive task's slice is cut at the granularity and it goes to the back
    /// of its priority's list.
    fn tick_requeued(&mut self, cpu: usize, current: usize, seen: &TickSeen) {
        self.end_slice(cpu, current);
        if self.rec_on() {
            self.b.iteration(txt(T::ITER_TICK.id(), &[]));
            let granularity =
                self.o1.granularity(seen.o1.sleep_avg_ns, self.cpus.len() as u64) * self.tick_ns;
            let effects = self.gauges(current, seen.doing);
            self.op(
                self.now,
                Some(current),
                OpKind::Compute,
                at(text::TICK, 7),
                T::TICK_REQUEUE,
                &[Arg::Task(id(current)), Arg::Ns(granularity), Arg::Signed(seen.bonus)],
                &effects,
            );
        }
    }

    /// An interactive task's slice is over and it goes back on the active array,
    /// which, during the stall, keeps the dumper waiting another slice.
    fn tick_expired_to_active(&mut self, cpu: usize, current: usize, seen: &TickSeen) {
        let now = self.now;
        self.end_slice(cpu, current);
        let stalling = self.slices_counting && cpu == self.cpu_of(self.dumper);
        if stalling {
            self.out.slices_before_swap += 1;
            self.out.requeued_active += 1;
        }
        if self.rec_on() {
            self.b.iteration(txt(T::ITER_TICK.id(), &[]));
            let mut effects = self.gauges(current, seen.doing);
            effects.extend(self.expired_clock_sync(cpu));
            let deadline = self.starvation_deadline(cpu).unwrap_or(now);
            let args = [
                Arg::Task(id(current)),
                Arg::Ns(seen.o1.sleep_avg_ns),
                Arg::Signed(seen.bonus),
                Arg::Ns(seen.o1.time_slice * self.tick_ns),
                Arg::Count(self.cpus[cpu].rq.nr_running() as u64),
                Arg::Ns(deadline),
                Arg::Ns(deadline.saturating_sub(now)),
            ];
            // During the stall each slice that keeps the dumper waiting is a stop.
            let (kind, template) = if stalling {
                (OpKind::Milestone, T::TICK_ACTIVE)
            } else {
                (OpKind::Compute, T::TICK_ACTIVE_PLAIN)
            };
            self.op(now, Some(current), kind, at(text::TICK, 5), template, &args, &effects);
        }
    }

    /// The task's slice is over and it goes to the expired array, because it is not
    /// interactive or because the expired ones are starving.
    fn tick_expired_to_expired(&mut self, cpu: usize, current: usize, starving: bool, seen: &TickSeen) {
        let now = self.now;
        self.end_slice(cpu, current);
        if self.slices_counting && cpu == self.cpu_of(self.dumper) {
            self.out.slices_before_swap += 1;
        }
        let first_starving = starving && self.slices_counting && self.out.starving_ns.is_none();
        if first_starving {
            self.out.starving_ns = Some(now);
        }
        if !self.rec_on() {
            return;
        }
        self.b.iteration(txt(T::ITER_TICK.id(), &[]));
        let mut effects = self.gauges(current, seen.doing);
        effects.extend(self.expired_clock_sync(cpu));
        let left = self.cpus[cpu].rq.nr_active() as u64;
        if starving {
            let rq = &self.cpus[cpu].rq;
            let since = rq.expired_since_ns().unwrap_or(now);
            let running = rq.nr_running() as u64;
            let args = [
                Arg::Task(id(current)),
                Arg::Ns(since),
                Arg::Ns(now - since),
                Arg::Count(running),
                Arg::Ns(self.o1.starvation_limit_ns() * running + self.o1.tick_ns()),
                Arg::Count(left),
            ];
            let template = if first_starving { T::TICK_STARVING_FIRST } else { T::TICK_STARVING };
            let kind = if self.slices_counting { OpKind::Milestone } else { OpKind::Compute };
            self.op(now, Some(current), kind, at(text::TICK, 3), template, &args, &effects);
        } else {
            let args = [
                Arg::Task(id(current)),
                Arg::Ns(seen.o1.sleep_avg_ns),
                Arg::Signed(seen.bonus),
                Arg::Count(left),
            ];
            self.op(now, Some(current), OpKind::Compute, at(text::TICK, 4), T::TICK_EXPIRED, &args, &effects);
        }
    }

    /// The timer softirq after the tick: expired usleep() timers.
    pub(super) fn fire_timers(&mut self, tick_at: u64) {
        let now = self.now;
        while let Some(&(when, task)) = self.timers.iter().next() {
            if when > tick_at {
                break;
            }
            self.timers.remove(&(when, task));
            self.wake(task, now.max(when), Wake::Timer);
        }
    }

    /// `schedule()` on `cpu`: the task leaving is charged, the next is picked (the
    /// arrays swapped when the active one is empty) and credited for its wait.
    pub(super) fn schedule(&mut self, cpu: usize) {
        let now = self.now;
        self.cpus[cpu].need_resched = false;
        let prev = self.cpus[cpu].current;
        let charged = prev.and_then(|prev| self.charge_prev(prev));
        if self.cpus[cpu].rq.nr_running() == 0 {
            // idle_balance (SD_BALANCE_NEWIDLE): about to idle, pull from the busiest CPU.
            self.balance(cpu);
        }
        let (next, swapped, stall_swap) = self.pick_next(cpu);
        let credit = next.and_then(|next| self.credit_wait(cpu, next));
        if next != prev {
            self.out.context_switches += 1;
            if let Some(next) = next {
                self.tasks[next].o1.timestamp_ns = now;
            }
        }
        self.cpus[cpu].current = next;
        if let Some(next) = next {
            if self.tasks[next].tif_sigpending && matches!(self.tasks[next].act, Act::Spin | Act::Loop) {
                self.tasks[next].act = Act::SigEntry;
            }
        }
        if !self.rec_on() {
            return;
        }
        self.b.iteration(txt(T::ITER_SCHEDULE.id(), &[]));
        if let Some((prev, ran, bonus)) = charged {
            self.say_charge(prev, ran, bonus, next);
        }
        if swapped {
            self.say_swap(cpu, stall_swap);
        }
        if let Some((next, waited, how)) = credit {
            let o1 = &self.tasks[next].o1;
            let args = [
                Arg::Task(id(next)),
                Arg::Ns(waited),
                Arg::Count(how),
                Arg::Ns(o1.sleep_avg_ns),
                Arg::Signed(i64::from(o1.prio)),
            ];
            self.op(now, Some(next), OpKind::Compute, at(text::SCHEDULE, 4), T::PICK_CREDIT, &args, &[]);
        }
        if let Some(next) = next {
            self.say_switch(next, prev);
        }
    }

    /// The task leaving, if it still runs, is charged for the time it ran: how long
    /// and at what bonus, for the narration.
    fn charge_prev(&mut self, prev: usize) -> Option<(usize, u64, i64)> {
        if self.tasks[prev].sleeping || self.tasks[prev].act == Act::Gone {
            return None;
        }
        let now = self.now;
        let bonus = self.o1.current_bonus(self.tasks[prev].o1.sleep_avg_ns).max(1);
        let ran = now.saturating_sub(self.tasks[prev].o1.timestamp_ns);
        self.tasks[prev].o1.charge(&self.o1, now);
        Some((prev, ran, bonus))
    }

    /// The pick from the run queue, whether it swapped the arrays, and whether that
    /// swap is the one that lets the yielded dumper run again and so ends the stall.
    fn pick_next(&mut self, cpu: usize) -> (Option<usize>, bool, bool) {
        let swaps = self.cpus[cpu].rq.swaps;
        let next = self.cpus[cpu].rq.pick().map(|task| task.0 as usize);
        let swapped = self.cpus[cpu].rq.swaps != swaps;
        let stall_swap = swapped && self.slices_counting && cpu == self.cpu_of(self.dumper);
        if swapped {
            self.out.swap_ns.push(self.now);
        }
        if stall_swap {
            self.slices_counting = false;
        }
        (next, swapped, stall_swap)
    }

    /// A task picked after a wakeup is credited for its wait on the queue (twice as
    /// much when a timer woke it) and requeued at its new priority.
    fn credit_wait(&mut self, cpu: usize, next: usize) -> Option<(usize, u64, u64)> {
        if self.tasks[next].o1.activated == Activated::No {
            return None;
        }
        let now = self.now;
        let how = if self.tasks[next].o1.activated == Activated::Interrupt { 2 } else { 1 };
        let waited = now.saturating_sub(self.tasks[next].o1.timestamp_ns);
        self.tasks[next].o1.credit_runqueue_wait(&self.o1, now);
        self.seq += 1;
        self.tasks[next].seq = self.seq;
        self.cpus[cpu].rq.requeue(id(next), self.tasks[next].o1.prio);
        Some((next, waited, how))
    }

    fn say_charge(&mut self, prev: usize, ran: u64, bonus: i64, next: Option<usize>) {
        let mut effects: Vec<Effect> = Vec::new();
        if next != Some(prev) {
            effects.extend(self.state(prev, TaskState::Runnable));
        }
        let doing = self.doing(prev);
        effects.extend(self.gauges(prev, doing));
        let args = [
            Arg::Task(id(prev)),
            Arg::Ns(ran),
            Arg::Signed(bonus),
            Arg::Ns(self.tasks[prev].o1.sleep_avg_ns),
        ];
        self.op(self.now, Some(prev), OpKind::Schedule, at(text::SCHEDULE, 1), T::CHARGE, &args, &effects);
    }

    /// The arrays swap in the picture in the same step as the words say it.
    fn say_swap(&mut self, cpu: usize, stall_swap: bool) {
        let mut effects = vec![Effect::Count { counter: self.shape.c_swaps, delta: 1 }];
        effects.extend(self.expired_clock_sync(cpu));
        let (active, expired) = if self.cpus[cpu].rq.nr_running() <= 64 {
            self.cpus[cpu].rq.arrays()
        } else {
            (Vec::new(), Vec::new())
        };
        let mut all: Vec<usize> = active.iter().chain(&expired).map(|&(_, task)| task.0 as usize).collect();
        all.sort_unstable();
        for task in all {
            effects.extend(self.gauges(task, self.doing(task)));
        }
        let template = if stall_swap { T::SWAP } else { T::SWAP_PLAIN };
        self.op(self.now, None, OpKind::Milestone, at(text::SCHEDULE, 2), template, &[], &effects);
    }

    fn say_switch(&mut self, next: usize, prev: Option<usize>) {
        let doing = self.doing(next);
        let mut effects: Vec<Effect> = self.state(next, self.kernel_state(next)).into_iter().collect();
        effects.extend(self.gauges(next, doing));
        let o1 = &self.tasks[next].o1;
        let (template, args) = if Some(next) == prev {
            (T::SWITCH_SAME, vec![Arg::Task(id(next))])
        } else {
            (
                T::SWITCH,
                vec![
                    Arg::Task(id(next)),
                    Arg::Signed(i64::from(o1.prio)),
                    Arg::Ns(o1.sleep_avg_ns),
                    Arg::Count(o1.time_slice),
                ],
            )
        };
        self.op(self.now, Some(next), OpKind::Schedule, at(text::SCHEDULE, 3), template, &args, &effects);
    }
}

/// The running task as the tick left it, for the narration of what the tick did.
struct TickSeen {
    o1: O1Task,
    bonus: i64,
    doing: Doing,
}
