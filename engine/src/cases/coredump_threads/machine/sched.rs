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
        self.op(self.now, Some(task), OpKind::Schedule, at(text::SCHEDULE, 1), T::ITER_SCHEDULE, &[], &e);
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
            let mut e: Vec<Effect> = self.state(task, TaskState::Runnable).into_iter().collect();
            e.extend(self.gauges(task, doing));
            let o = &self.tasks[task].o1;
            let (t, code) = match why {
                Wake::Timer => (T::TIMER_WAKE, at(text::TFUNC, 0)),
                Wake::Signal => (T::WAKE_SIGNAL, at(text::COMPLETE, 8)),
                Wake::ChildExit => (T::WAKE_CHILD, at(text::MAIN, 0)),
                Wake::Lock => (T::WAKE_LOCK, at(text::CDWAIT, 4)),
                Wake::Completion => (T::WAKE_COMPLETION, at(text::EXIT_MM, 1)),
            };
            let args = [
                Arg::Task(id(task)),
                Arg::Ns(slept),
                Arg::Ns(o.sleep_avg_ns),
                Arg::Signed(i64::from(o.prio)),
            ];
            self.op(at_ns.max(self.b.now_ns()), None, OpKind::Wake, code, t, &args, &e);
        }
        // try_to_wake_up on its own CPU: 2.6.14's SD_CPU_INIT has SD_WAKE_AFFINE but the
        // wakers here (a timer on the sleeper's CPU, the signal sender) are not modelled
        // as pulling it elsewhere (model choice).
        let cpu = self.cpu_of(task);
        match self.cpus[cpu].current {
            None => self.cpus[cpu].need_resched = true,
            Some(c) => {
                let cp = self.tasks[c].o1.prio;
                let args = [
                    Arg::Task(id(task)),
                    Arg::Signed(i64::from(prio)),
                    Arg::Task(id(c)),
                    Arg::Signed(i64::from(cp)),
                ];
                let at_op = at_ns.max(self.b.now_ns());
                if wakeup_preempts(prio, cp) {
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
        let now = self.now;
        let cpus = self.cpus.len() as u64;
        if let Some(c) = self.cpus[cpu].current {
            let out = self.cpus[cpu].rq.tick(&self.o1, id(c), &mut self.tasks[c].o1, tick_at, cpus);
            let o = self.tasks[c].o1.clone();
            let bonus = self.o1.current_bonus(o.sleep_avg_ns);
            let args_basic = [
                Arg::Task(id(c)),
                Arg::Ns(o.sleep_avg_ns),
                Arg::Signed(bonus),
                Arg::Ns(o.time_slice * self.tick_ns),
            ];
            let doing = self.doing(c);
            match out {
                TickOutcome::Continue | TickOutcome::NotYetOff => {}
                TickOutcome::Requeued => {
                    self.cpus[cpu].need_resched = true;
                    self.seq += 1;
                    self.tasks[c].seq = self.seq;
                    if self.rec_on() {
                        self.b.iteration(txt(T::ITER_TICK.id(), &[]));
                        let g = self.o1.granularity(o.sleep_avg_ns, cpus) * self.tick_ns;
                        let e = self.gauges(c, doing);
                        self.op(
                            now,
                            Some(c),
                            OpKind::Compute,
                            at(text::TICK, 7),
                            T::TICK_REQUEUE,
                            &[Arg::Task(id(c)), Arg::Ns(g), Arg::Signed(bonus)],
                            &e,
                        );
                    }
                }
                TickOutcome::ExpiredToActive => {
                    self.cpus[cpu].need_resched = true;
                    self.seq += 1;
                    self.tasks[c].seq = self.seq;
                    let stalling = self.slices_counting && cpu == self.cpu_of(self.dumper);
                    if stalling {
                        self.out.slices_before_swap += 1;
                        self.out.requeued_active += 1;
                    }
                    if self.rec_on() {
                        self.b.iteration(txt(T::ITER_TICK.id(), &[]));
                        let mut e = self.gauges(c, doing);
                        e.extend(self.expired_clock_sync(cpu));
                        let mut args = args_basic.to_vec();
                        let deadline = self.starvation_deadline(cpu).unwrap_or(now);
                        args.extend([
                            Arg::Count(self.cpus[cpu].rq.nr_running() as u64),
                            Arg::Ns(deadline),
                            Arg::Ns(deadline.saturating_sub(now)),
                        ]);
                        // During the stall each slice that keeps the dumper waiting is a stop.
                        let (kind, template) = if stalling {
                            (OpKind::Milestone, T::TICK_ACTIVE)
                        } else {
                            (OpKind::Compute, T::TICK_ACTIVE_PLAIN)
                        };
                        self.op(now, Some(c), kind, at(text::TICK, 5), template, &args, &e);
                    }
                }
                TickOutcome::ExpiredToExpired { starving } => {
                    self.cpus[cpu].need_resched = true;
                    self.seq += 1;
                    self.tasks[c].seq = self.seq;
                    if self.slices_counting && cpu == self.cpu_of(self.dumper) {
                        self.out.slices_before_swap += 1;
                    }
                    let first_starving = starving && self.slices_counting && self.out.starving_ns.is_none();
                    if first_starving {
                        self.out.starving_ns = Some(now);
                    }
                    if self.rec_on() {
                        self.b.iteration(txt(T::ITER_TICK.id(), &[]));
                        let mut e = self.gauges(c, doing);
                        e.extend(self.expired_clock_sync(cpu));
                        let left = self.cpus[cpu].rq.nr_active() as u64;
                        if starving {
                            let rq = &self.cpus[cpu].rq;
                            let since = rq.expired_since_ns().unwrap_or(now);
                            let nr = rq.nr_running() as u64;
                            let args = [
                                Arg::Task(id(c)),
                                Arg::Ns(since),
                                Arg::Ns(now - since),
                                Arg::Count(nr),
                                Arg::Ns(self.o1.starvation_limit_ns() * nr + self.o1.tick_ns()),
                                Arg::Count(left),
                            ];
                            let template =
                                if first_starving { T::TICK_STARVING_FIRST } else { T::TICK_STARVING };
                            let kind = if self.slices_counting { OpKind::Milestone } else { OpKind::Compute };
                            self.op(now, Some(c), kind, at(text::TICK, 3), template, &args, &e);
                        } else {
                            let args = [
                                Arg::Task(id(c)),
                                Arg::Ns(o.sleep_avg_ns),
                                Arg::Signed(bonus),
                                Arg::Count(left),
                            ];
                            self.op(
                                now,
                                Some(c),
                                OpKind::Compute,
                                at(text::TICK, 4),
                                T::TICK_EXPIRED,
                                &args,
                                &e,
                            );
                        }
                    }
                }
            }
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

    pub(super) fn schedule(&mut self, cpu: usize) {
        let now = self.now;
        self.cpus[cpu].need_resched = false;
        let prev = self.cpus[cpu].current;
        let mut charge_args = None;
        if let Some(p) = prev {
            if !self.tasks[p].sleeping && self.tasks[p].act != Act::Gone {
                let bonus = self.o1.current_bonus(self.tasks[p].o1.sleep_avg_ns).max(1);
                let ran = now.saturating_sub(self.tasks[p].o1.timestamp_ns);
                self.tasks[p].o1.charge(&self.o1, now);
                charge_args = Some((p, ran, bonus));
            }
        }
        if self.cpus[cpu].rq.nr_running() == 0 {
            // idle_balance (SD_BALANCE_NEWIDLE): about to idle, pull from the busiest CPU.
            self.balance(cpu);
        }
        let swaps = self.cpus[cpu].rq.swaps;
        let next = self.cpus[cpu].rq.pick().map(|t| t.0 as usize);
        let swapped = self.cpus[cpu].rq.swaps != swaps;
        // The swap that lets the yielded dumper run again ends the stall.
        let stall_swap = swapped && self.slices_counting && cpu == self.cpu_of(self.dumper);
        if swapped {
            self.out.swap_ns.push(now);
        }
        if stall_swap {
            self.slices_counting = false;
        }
        let mut credit = None;
        if let Some(n) = next {
            if self.tasks[n].o1.activated != Activated::No {
                let how = if self.tasks[n].o1.activated == Activated::Interrupt { 2 } else { 1 };
                let waited = now.saturating_sub(self.tasks[n].o1.timestamp_ns);
                self.tasks[n].o1.credit_runqueue_wait(&self.o1, now);
                let (array, _) = self.cpus[cpu].rq.find(id(n)).expect("picked task is queued");
                self.cpus[cpu].rq.remove(id(n));
                self.enqueue(n, array);
                credit = Some((n, waited, how));
            }
        }
        if next != prev {
            self.out.context_switches += 1;
            if let Some(n) = next {
                self.tasks[n].o1.timestamp_ns = now;
            }
        }
        self.cpus[cpu].current = next;
        if let Some(n) = next {
            if self.tasks[n].tif_sigpending && matches!(self.tasks[n].act, Act::Spin | Act::Loop) {
                self.tasks[n].act = Act::SigEntry;
            }
        }
        if !self.rec_on() {
            return;
        }
        self.b.iteration(txt(T::ITER_SCHEDULE.id(), &[]));
        if let Some((p, ran, bonus)) = charge_args {
            let mut e: Vec<Effect> = Vec::new();
            if next != Some(p) {
                e.extend(self.state(p, TaskState::Runnable));
            }
            let doing = self.doing(p);
            e.extend(self.gauges(p, doing));
            let args =
                [Arg::Task(id(p)), Arg::Ns(ran), Arg::Signed(bonus), Arg::Ns(self.tasks[p].o1.sleep_avg_ns)];
            self.op(now, Some(p), OpKind::Schedule, at(text::SCHEDULE, 1), T::CHARGE, &args, &e);
        }
        if swapped {
            let mut e = vec![Effect::Count { counter: self.shape.c_swaps, delta: 1 }];
            e.extend(self.expired_clock_sync(cpu));
            // Swap the arrays in the picture in the same step as the words say it.
            let (active, expired) = if self.cpus[cpu].rq.nr_running() <= 64 {
                self.cpus[cpu].rq.arrays()
            } else {
                (Vec::new(), Vec::new())
            };
            let mut all: Vec<usize> = active.iter().chain(&expired).map(|&(_, t)| t.0 as usize).collect();
            all.sort_unstable();
            for t in all {
                e.extend(self.gauges(t, self.doing(t)));
            }
            let template = if stall_swap { T::SWAP } else { T::SWAP_PLAIN };
            self.op(now, None, OpKind::Milestone, at(text::SCHEDULE, 2), template, &[], &e);
        }
        if let Some((n, waited, how)) = credit {
            let o = &self.tasks[n].o1;
            let args = [
                Arg::Task(id(n)),
                Arg::Ns(waited),
                Arg::Count(how),
                Arg::Ns(o.sleep_avg_ns),
                Arg::Signed(i64::from(o.prio)),
            ];
            self.op(now, Some(n), OpKind::Compute, at(text::SCHEDULE, 4), T::PICK_CREDIT, &args, &[]);
        }
        if let Some(n) = next {
            let doing = self.doing(n);
            let mut e: Vec<Effect> = self.state(n, self.kernel_state(n)).into_iter().collect();
            e.extend(self.gauges(n, doing));
            let o = &self.tasks[n].o1;
            let (t, args) = if next == prev {
                (T::SWITCH_SAME, vec![Arg::Task(id(n))])
            } else {
                (
                    T::SWITCH,
                    vec![
                        Arg::Task(id(n)),
                        Arg::Signed(i64::from(o.prio)),
                        Arg::Ns(o.sleep_avg_ns),
                        Arg::Count(o.time_slice),
                    ],
                )
            };
            let kind = OpKind::Schedule;
            self.op(now, Some(n), kind, at(text::SCHEDULE, 3), t, &args, &e);
        }
    }
}
