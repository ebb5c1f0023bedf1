//! The scheduler's events in the trace: ticks, wakeups (with their credit and
//! any preemption) and context switches, as ops with narration and effects.

use super::*;

impl TraceSink<'_> {
    fn other(index: usize) -> usize {
        1 - index
    }

    fn goodness(&self, index: usize, snap: &SchedSnap, own_mm: bool) -> u64 {
        let nice = if index == LISTENER { self.config.listener_nice } else { self.config.writer_nice };
        if snap.slice_left == 0 {
            0
        } else {
            (snap.slice_left as i64 + 20 - i64::from(nice) + i64::from(own_mm)) as u64
        }
    }

    pub(super) fn tick(&mut self, at_ns: u64, index: usize, outcome: TickOutcome, snap: &SchedSnap) {
        self.begin(at_ns, T::ITER_TICK.id(), vec![], None);
        let mut effects = Vec::new();
        self.snap_gauges(index, snap, at_ns, true, &mut effects);
        let me = Arg::Task(task(index));
        let sleep_avg = Arg::Ns(snap.sleep_avg_ns);
        let (code, template, args) = match (self.kernel, outcome) {
            (Kernel::Goodness, _) => (at(text::TICK_WAKE_24, 1), T::TICK_24, vec![me]),
            (Kernel::Eevdf, _) => {
                let slice = crate::kernel::sched::eevdf::base_slice_ns(self.config.slice_cpus);
                (at(text::TICK_EEVDF, 5), T::TICK_EEVDF, vec![me, Arg::Ns(slice)])
            }
            (_, TickOutcome::ExpiredToActive) => (
                at(text::TICK_26, 6),
                T::TICK_ACTIVE,
                vec![
                    me,
                    sleep_avg,
                    Arg::Signed(snap.bonus),
                    Arg::Signed(i64::from(snap.prio)),
                    Arg::Ns(snap.slice_left * self.config.tick_ns()),
                ],
            ),
            (_, TickOutcome::ExpiredToExpired { starving: true }) => {
                (at(text::TICK_26, 5), T::TICK_STARVING, vec![me])
            }
            (_, TickOutcome::ExpiredToExpired { starving: false }) => (
                at(text::TICK_26, 5),
                T::TICK_EXPIRED,
                vec![me, sleep_avg, Arg::Signed(snap.bonus), Arg::Signed(i64::from(snap.prio))],
            ),
            (_, TickOutcome::Requeued) => {
                let granularity = crate::kernel::sched::o1::O1::new(self.config.hz)
                    .granularity(snap.sleep_avg_ns, u64::from(self.config.cpus));
                (
                    at(text::TICK_26, 9),
                    T::TICK_REQUEUE,
                    vec![me, Arg::Ns(granularity * self.config.tick_ns())],
                )
            }
            (_, TickOutcome::Continue | TickOutcome::NotYetOff) => {
                unreachable!("these ticks are not reported")
            }
        };
        // The slice that does not end the listener's turn is the heart of the 300 ms write.
        let kind = if template == T::TICK_ACTIVE { OpKind::Milestone } else { OpKind::Schedule };
        self.push(at_ns, Some(index), kind, code, template, args, effects);
    }

    pub(super) fn wake(
        &mut self,
        at_ns: u64,
        index: usize,
        why: WakeBy,
        credit: Option<crate::kernel::sched::o1::Credit>,
        preempts: bool,
        snap: &SchedSnap,
    ) {
        let slept_ns = credit.map(|credit| credit.slept_ns);
        let long_sleep = credit.is_some_and(|credit| credit.just_interactive);
        self.woken_at[index] = at_ns;
        let mut effects = vec![Effect::SetState { task: task(index), state: TaskState::Runnable }];
        self.snap_gauges(index, snap, at_ns, false, &mut effects);
        let other = Self::other(index);
        let world = &self.shadow;
        let other_prio = world.tasks[other].gauges[usize::from(G_PRIO)];
        let me = Arg::Task(task(index));
        let them = Arg::Task(task(other));
        let _ = why;
        let (code, template, args) = match self.kernel {
            Kernel::O1 => {
                let args = vec![
                    me,
                    Arg::Ns(slept_ns.unwrap_or(0)),
                    Arg::Ns(snap.sleep_avg_ns),
                    Arg::Signed(i64::from(snap.prio)),
                    them,
                    Arg::Signed(other_prio),
                ];
                let template = match (self.config.cpus > 1, preempts, long_sleep) {
                    (true, _, _) => T::WAKE_IDLE,
                    (false, true, true) => T::WAKE_PREEMPT_LONG,
                    (false, true, false) => T::WAKE_PREEMPT,
                    (false, false, true) => T::WAKE_NO_PREEMPT_LONG,
                    (false, false, false) => T::WAKE_NO_PREEMPT,
                };
                (at(text::WAKE_26, if preempts { 8 } else { 7 }), template, args)
            }
            Kernel::Eevdf => {
                let fair = snap.fair.expect("EEVDF state in the snapshot");
                let lag = Arg::Ns(fair.lag.max(0) as u64);
                let template = if preempts { T::WAKE_EEVDF_PREEMPT } else { T::WAKE_EEVDF_NO_PREEMPT };
                (at(text::WAKE_EEVDF, if preempts { 7 } else { 6 }), template, vec![me, lag, them])
            }
            Kernel::Goodness => {
                let other_counter = world.tasks[other].gauges[usize::from(G_SLICE)].max(0) as u64;
                let other_snap = SchedSnap { slice_left: other_counter, ..*snap };
                let args = vec![
                    me,
                    Arg::Count(self.goodness(index, snap, false)),
                    them,
                    Arg::Count(self.goodness(other, &other_snap, true)),
                ];
                let template = if self.config.cpus > 1 {
                    T::WAKE_24_SMP_IDLE
                } else if preempts {
                    T::WAKE_24_PREEMPT
                } else {
                    T::WAKE_24_NO_PREEMPT
                };
                if template == T::WAKE_24_SMP_IDLE {
                    // reschedule_idle on SMP: the woken task's own CPU idles, so it goes there.
                    let cpu = Arg::Count(if index == LISTENER { 0 } else { u64::from(self.config.cpus - 1) });
                    (at(text::RESCHEDULE_IDLE_24, 4), template, vec![me, cpu, them])
                } else {
                    (at(text::TICK_WAKE_24, 4), template, args)
                }
            }
        };
        // The waker is the running task: the wakeup is one of its ops.
        self.push(at_ns, Some(other), OpKind::Wake, code, template, args, effects);
    }

    /// A context switch: what `schedule()` did on the way (debit, array swap,
    /// recalculation, run-queue credit), then the switch itself.
    pub(super) fn switch(&mut self, ev: Switch) {
        self.begin(ev.at, T::ITER_SCHEDULE.id(), vec![Arg::Count(u64::from(ev.cpu))], None);
        let sched = match self.kernel {
            Kernel::O1 => text::SCHEDULE_26,
            Kernel::Goodness => text::SCHEDULE_24,
            Kernel::Eevdf => text::SCHEDULE_EEVDF,
        };
        self.before_switch(&ev, sched);
        let effects = self.switch_effects(&ev);
        let preempted_in_write = ev.why == SwitchWhy::Preempted
            && ev.prev == Some(WRITER)
            && ev.prev_step == Some(Step::WriterTime2);
        let kind = if preempted_in_write { OpKind::Preempt } else { OpKind::Schedule };
        let (template, args) = self.switch_words(&ev);
        self.push(
            ev.at,
            ev.prev.or(ev.next),
            kind,
            at(sched, if self.kernel == Kernel::Goodness { 6 } else { 7 }),
            template,
            args,
            effects,
        );
    }

    /// The ops `schedule()` runs before it picks: the O(1) scheduler's debit of the
    /// task leaving, its array swap, the 2.4 recalculation, the run-queue credit.
    fn before_switch(&mut self, ev: &Switch, sched: u16) {
        if let Some(prev) = ev.prev {
            if self.kernel == Kernel::O1 && ev.debit_ns > 0 {
                let snap = &ev.snaps[prev];
                let template = if snap.credit > crate::kernel::sched::o1::CREDIT_LIMIT {
                    T::DEBIT_HIGH
                } else {
                    T::DEBIT
                };
                let args = vec![
                    Arg::Task(task(prev)),
                    Arg::Ns(ev.debit_ns),
                    Arg::Ns(snap.sleep_avg_ns),
                    Arg::Signed(snap.bonus),
                ];
                let mut effects = Vec::new();
                self.snap_gauges(prev, snap, ev.at, false, &mut effects);
                self.push(ev.at, Some(prev), OpKind::Schedule, at(sched, 6), template, args, effects);
            }
        }
        if ev.swapped {
            self.push(ev.at, ev.prev, OpKind::Schedule, at(sched, 3), T::SWAP, vec![], vec![]);
        }
        if ev.recalculated {
            let args = vec![
                Arg::Count(0),
                Arg::Task(task(LISTENER)),
                Arg::Count(ev.snaps[LISTENER].slice_left),
                Arg::Task(task(WRITER)),
                Arg::Count(ev.snaps[WRITER].slice_left),
            ];
            self.push(ev.at, ev.prev, OpKind::Schedule, at(sched, 5), T::RECALC_24, args, vec![]);
        }
        if let (Some(next), true) = (ev.next, ev.runqueue_credit.is_some()) {
            let snap = &ev.snaps[next];
            let args = vec![
                Arg::Task(task(next)),
                Arg::Ns(ev.at - self.woken_at[next]),
                Arg::Ns(snap.sleep_avg_ns),
                Arg::Signed(i64::from(snap.prio)),
            ];
            self.push(ev.at, ev.prev, OpKind::Schedule, at(sched, 5), T::RQ_CREDIT, args, vec![]);
        }
    }

    /// What the switch changes: the task leaving is runnable unless it sleeps, the
    /// one picked runs, both tasks' scheduler gauges, and the counters.
    fn switch_effects(&self, ev: &Switch) -> Vec<Effect> {
        let mut effects = Vec::new();
        let sleeping = |index: usize| matches!(self.shadow.tasks[index].state, TaskState::Sleeping { .. });
        if let Some(prev) = ev.prev {
            if Some(prev) != ev.next && !sleeping(prev) {
                effects.push(Effect::SetState { task: task(prev), state: TaskState::Runnable });
            }
        }
        if let (Some(next), Some(step)) = (ev.next, ev.resumes) {
            effects.push(Effect::SetState { task: task(next), state: running(step, ev.cpu) });
        }
        for index in [LISTENER, WRITER] {
            self.snap_gauges(index, &ev.snaps[index], ev.at, true, &mut effects);
        }
        if ev.prev != ev.next {
            effects.push(Effect::Count { counter: C_SWITCHES, delta: 1 });
        }
        if ev.why == SwitchWhy::Preempted {
            effects.push(Effect::Count { counter: C_PREEMPTIONS, delta: 1 });
        }
        effects
    }

    /// How the switch is told: to or from idle, back to the same task, or from one
    /// task to the other because it was preempted, slept or used its slice.
    fn switch_words(&self, ev: &Switch) -> (T, Vec<Arg>) {
        let resumes_word = Arg::Word(ev.resumes.map_or("nothing", |step| step_word(step, self.kernel)));
        match (ev.prev, ev.next) {
            (_, None) => (T::SWITCH_IDLE, vec![Arg::Count(u64::from(ev.cpu))]),
            (None, Some(next)) => (
                T::SWITCH_FROM_IDLE,
                vec![Arg::Task(task(next)), Arg::Count(u64::from(ev.cpu)), resumes_word],
            ),
            (Some(prev), Some(next)) if prev == next => (T::SWITCH_SAME, vec![Arg::Task(task(prev))]),
            (Some(prev), Some(next)) => match ev.why {
                SwitchWhy::Preempted => self.preemption_words(ev, prev, next),
                SwitchWhy::Sleep => {
                    (T::SWITCH_SLEEP, vec![Arg::Task(task(prev)), Arg::Task(task(next)), resumes_word])
                }
                _ => (T::SWITCH_SLICE, vec![Arg::Task(task(prev)), Arg::Task(task(next)), resumes_word]),
            },
        }
    }

    /// A preemption told in each kernel's terms: where the task left off, and the
    /// priorities (O(1)) or goodness (2.4) that decided it.
    fn preemption_words(&self, ev: &Switch, prev: usize, next: usize) -> (T, Vec<Arg>) {
        let left = Arg::Word(match ev.prev_left {
            Some((step, _)) => step_word(step, self.kernel),
            None => step_word(left_in(ev.prev_step.unwrap_or(Step::WriterWrite)), self.kernel),
        });
        match self.kernel {
            Kernel::Eevdf => {
                (T::SWITCH_PREEMPT_EEVDF, vec![Arg::Task(task(prev)), left, Arg::Task(task(next))])
            }
            Kernel::O1 => {
                let args = vec![
                    Arg::Task(task(prev)),
                    left,
                    Arg::Signed(i64::from(ev.snaps[prev].prio)),
                    Arg::Task(task(next)),
                    Arg::Signed(i64::from(ev.snaps[next].prio)),
                ];
                let mid = matches!(ev.prev_left, Some((_, true)));
                (if mid { T::SWITCH_PREEMPT_MID } else { T::SWITCH_PREEMPT }, args)
            }
            Kernel::Goodness => {
                let args = vec![
                    Arg::Task(task(prev)),
                    left,
                    Arg::Count(0),
                    Arg::Task(task(next)),
                    Arg::Count(self.goodness(next, &ev.snaps[next], false)),
                ];
                (T::SWITCH_PREEMPT_24, args)
            }
        }
    }
}
