//! After the sleep: `runsc ps`, and `SendContainerSignal` from concurrent
//! senders (the defer pile, its LIFO release, a self-deadlock on shared handlers).

use super::*;

impl Sim<'_> {
    /// `runsc ps` after the sleep: `ThreadGroups()`, one more scan by another goroutine.
    pub(super) fn runsc_ps(&mut self) {
        if !self.cfg.runsc_ps {
            return;
        }
        let (ps, lock) = (self.ps, self.taskset);
        let start = self.builder.now_ns();
        self.builder.phase(say(T::PHASE_PS.id(), &[]));
        self.builder.iteration(say(T::ITER_PS.id(), &[]));
        self.emit(&Owned {
            at_ns: start,
            actor: Some(ps),
            kind: OpKind::LockFast,
            code: at(self.append_fn(), 1),
            template: T::PS_RLOCK,
            args: vec![Arg::Lock(lock)],
            effects: vec![
                Effect::SetState { task: ps, state: TaskState::RunningKernel { cpu: 1 } },
                Effect::Acquire { lock, task: ps, mode: LockMode::Read, waited_ns: 0 },
            ],
        });
        let from = start + RLOCK_NS;
        for op in self.visit_ops.clone() {
            self.emit(&Owned { at_ns: from + op.at_ns, actor: Some(ps), ..op });
        }
        let end = from + self.visit_total_ns;
        let cpu = RLOCK_NS + self.visit_total_ns + RUNLOCK_NS;
        self.totals.ps_scan_ns = Some(cpu);
        self.emit(&Owned {
            at_ns: end,
            actor: Some(ps),
            kind: OpKind::LockRelease,
            code: at(self.append_fn(), 2),
            template: T::PS_DONE,
            args: vec![
                Arg::Count(self.visit_ops.len() as u64),
                Arg::Count(self.cfg.groups()),
                Arg::Ns(cpu),
                Arg::Lock(lock),
            ],
            effects: vec![
                Effect::Release { lock, task: ps },
                Effect::SetState { task: ps, state: TaskState::Sleeping { channel: self.ch_done } },
            ],
        });
        self.builder.advance_to(end + RUNLOCK_NS);
    }
}

/// What a sender does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    RLock,
    Walk,
    Visit(u64),
    Lock(u64),
    Signal(u64),
    Unlock(u64),
    Return,
    Done,
}

/// A sender that finds a mutex held queues for it and sleeps.
fn queue_on(lock: LockId, task: TaskId) -> [Effect; 2] {
    [
        Effect::Enqueue { lock, task, mode: LockMode::Write },
        Effect::SetState { task, state: TaskState::BlockedOnLock { lock } },
    ]
}

struct Sender {
    task: TaskId,
    next_at: Option<u64>,
    action: Action,
    held: Vec<LockId>,
    held_max: u64,
    blocked_since: u64,
}

impl Sender {
    /// Asleep on a lock from `now` until a `hand_off` wakes it.
    fn block(&mut self, now: u64) {
        self.next_at = None;
        self.blocked_since = now;
    }
}

impl Sim<'_> {
    /// `SendContainerSignal` from every sender. Returns the run's outcome.
    pub(super) fn signal(&mut self) -> Outcome {
        let cfg = self.cfg;
        if cfg.senders == 0 {
            return Outcome::Completed;
        }
        let start = self.builder.now_ns();
        self.builder.phase(say(T::PHASE_SIGNAL.id(), &[Arg::Count(cfg.senders)]));
        let mut senders: Vec<Sender> = self
            .senders
            .iter()
            .enumerate()
            .map(|(k, &task)| Sender {
                task,
                next_at: Some(start + k as u64 * SENDER_GAP_NS),
                action: Action::RLock,
                held: Vec::new(),
                held_max: 0,
                blocked_since: 0,
            })
            .collect();
        let send = self.send_fn();
        let before = cfg.variant == Variant::Before;
        let (taskset, c_held, c_signals) = (self.taskset, self.c_held, self.c_signals);
        // Added with the senders (`sim::build`); none means no sender to run.
        let Some(ext_mu) = self.ext_mu else { return Outcome::Completed };
        // Bounded: every action moves a sender forward or blocks it; at most
        // senders × (4 × sidecars + 4) actions, plus the handoffs.
        while let Some(index) = (0..senders.len())
            .filter(|&k| senders[k].next_at.is_some())
            .min_by_key(|&k| (senders[k].next_at, k))
        {
            let now = senders[index].next_at.expect("runnable");
            let task = senders[index].task;
            let name = Arg::Task(task);
            let cpu = u16::try_from(2 + index).expect("few senders");
            match senders[index].action {
                Action::RLock => {
                    let label = [name, Arg::Word("SendContainerSignal")];
                    self.builder.iteration(say(T::ITER_SENDER.id(), &label));
                    let door = self.builder.world().lock(ext_mu).clone();
                    if !gosync::lock_now(&door) {
                        // k.extMu admits one caller at a time: this one waits at the door
                        // until the caller inside returns (`hand_off`).
                        let holder = door.holders.first().map_or(task, |h| h.task);
                        self.emit(&Owned {
                            at_ns: now,
                            actor: Some(task),
                            kind: OpKind::LockContended,
                            code: at(send, 1),
                            template: T::SEND_BLOCKED,
                            args: vec![name, Arg::Lock(ext_mu), Arg::Task(holder)],
                            effects: [Effect::SetState { task, state: TaskState::RunningKernel { cpu } }]
                                .into_iter()
                                .chain(queue_on(ext_mu, task))
                                .collect(),
                        });
                        senders[index].block(now);
                        continue;
                    }
                    self.emit(&Owned {
                        at_ns: now,
                        actor: Some(task),
                        kind: OpKind::LockFast,
                        code: at(send, 1),
                        template: T::SEND_RLOCK,
                        args: vec![name, Arg::Lock(taskset), Arg::Lock(ext_mu)],
                        effects: [Effect::SetState { task, state: TaskState::RunningKernel { cpu } }]
                            .into_iter()
                            .chain(self.enter(ext_mu, task, 0))
                            .collect(),
                    });
                    senders[index].action = Action::Walk;
                    senders[index].next_at = Some(now + RLOCK_NS);
                }
                Action::Walk => {
                    // The benchmark's entries: every task before, one per process after.
                    let (what, entries, cost): (&'static str, u64, u64) = if before {
                        let cost = (0..cfg.bench_tasks()).map(|i| cfg.visit_cost(i)).sum();
                        ("tids (every task)", cfg.bench_tasks(), cost)
                    } else {
                        let cost = (0..cfg.processes).map(|g| cfg.visit_cost(cfg.leader(g))).sum();
                        ("tgids (thread groups)", cfg.processes, cost)
                    };
                    self.emit(&Owned {
                        at_ns: now,
                        actor: Some(task),
                        kind: OpKind::Compute,
                        code: at(send, 3),
                        template: T::SEND_WALK,
                        args: vec![name, Arg::Word(what), Arg::Count(entries), Arg::Ns(cost)],
                        effects: vec![],
                    });
                    senders[index].action = if cfg.sidecars > 0 { Action::Visit(0) } else { Action::Return };
                    senders[index].next_at = Some(now + cost.max(1));
                }
                Action::Visit(g) => {
                    let i = cfg.leader(cfg.processes + g);
                    let label = [name, Arg::Word("a matching thread group")];
                    self.builder.iteration(say(T::ITER_SENDER.id(), &label));
                    self.emit(&Owned {
                        at_ns: now,
                        actor: Some(task),
                        kind: OpKind::Compute,
                        code: at(send, 4),
                        template: T::SEND_VISIT,
                        args: vec![
                            name,
                            Arg::Count(g + 1),
                            Arg::Count(cfg.processes + g + 1),
                            Arg::Count(Config::tid(i)),
                        ],
                        effects: vec![],
                    });
                    senders[index].action = Action::Lock(g);
                    senders[index].next_at = Some(now + cfg.visit_cost(i));
                }
                Action::Lock(g) => {
                    let lock = self.sighand[g as usize];
                    let state = self.builder.world().lock(lock).clone();
                    if gosync::lock_now(&state) {
                        senders[index].held.push(lock);
                        let held = senders[index].held.len() as u64;
                        senders[index].held_max = senders[index].held_max.max(held);
                        self.emit(&Owned {
                            at_ns: now,
                            actor: Some(task),
                            kind: OpKind::LockFast,
                            code: at(send, 5),
                            template: if before { T::SEND_LOCK_DEFER } else { T::SEND_LOCK },
                            args: vec![name, Arg::Lock(lock), Arg::Count(held)],
                            effects: vec![
                                Effect::Acquire { lock, task, mode: LockMode::Write, waited_ns: 0 },
                                Effect::Count { counter: c_held, delta: 1 },
                            ],
                        });
                        senders[index].action = Action::Signal(g);
                        senders[index].next_at = Some(now + MUTEX_NS);
                    } else {
                        let own = gosync::relocks_own(&state, task);
                        let holder = state.holders.first().map_or(task, |h| h.task);
                        self.emit(&Owned {
                            at_ns: now,
                            actor: Some(task),
                            kind: OpKind::LockContended,
                            code: at(send, 5),
                            template: if own { T::SEND_SELF } else { T::SEND_BLOCKED },
                            args: vec![name, Arg::Lock(lock), Arg::Task(holder)],
                            effects: queue_on(lock, task).to_vec(),
                        });
                        senders[index].block(now);
                    }
                }
                Action::Signal(g) => {
                    self.emit(&Owned {
                        at_ns: now,
                        actor: Some(task),
                        kind: OpKind::Signal,
                        code: at(send, if before { 7 } else { 6 }),
                        template: T::SEND_SIGNAL,
                        args: vec![name],
                        effects: vec![Effect::Count { counter: c_signals, delta: 1 }],
                    });
                    senders[index].action = if before {
                        if g + 1 < cfg.sidecars {
                            Action::Visit(g + 1)
                        } else {
                            Action::Return
                        }
                    } else {
                        Action::Unlock(g)
                    };
                    senders[index].next_at = Some(now + SIGNAL_NS);
                }
                Action::Unlock(g) => {
                    let lock = self.sighand[g as usize];
                    senders[index].held.retain(|&l| l != lock);
                    let effects =
                        vec![Effect::Release { lock, task }, Effect::Decrease { counter: c_held, delta: 1 }];
                    self.emit(&Owned {
                        at_ns: now,
                        actor: Some(task),
                        kind: OpKind::LockRelease,
                        code: at(send, 7),
                        template: T::SEND_UNLOCK,
                        args: vec![name, Arg::Lock(lock)],
                        effects,
                    });
                    self.hand_off(lock, now, &mut senders);
                    senders[index].action =
                        if g + 1 < cfg.sidecars { Action::Visit(g + 1) } else { Action::Return };
                    senders[index].next_at = Some(now + MUTEX_NS);
                }
                Action::Return => {
                    self.builder.iteration(say(T::ITER_SENDER.id(), &[name, Arg::Word("return")]));
                    let mut t = now;
                    self.totals.locks_held_at_return.push(senders[index].held.len() as u64);
                    while let Some(lock) = senders[index].held.pop() {
                        let still = senders[index].held.len() as u64;
                        self.emit(&Owned {
                            at_ns: t,
                            actor: Some(task),
                            kind: OpKind::LockRelease,
                            code: at(send, 10),
                            template: T::SEND_DEFER_UNLOCK,
                            args: vec![name, Arg::Lock(lock), Arg::Count(still)],
                            effects: vec![
                                Effect::Release { lock, task },
                                Effect::Decrease { counter: c_held, delta: 1 },
                            ],
                        });
                        self.hand_off(lock, t, &mut senders);
                        t += MUTEX_NS;
                    }
                    let held_max = senders[index].held_max;
                    self.totals.locks_held_max = self.totals.locks_held_max.max(held_max);
                    self.emit(&Owned {
                        at_ns: t,
                        actor: Some(task),
                        kind: OpKind::LockRelease,
                        code: at(send, 2),
                        template: T::SEND_RUNLOCK,
                        args: vec![name, Arg::Lock(taskset), Arg::Count(held_max)],
                        effects: vec![
                            Effect::Release { lock: taskset, task },
                            Effect::Release { lock: ext_mu, task },
                            Effect::SetState { task, state: TaskState::Sleeping { channel: self.ch_done } },
                        ],
                    });
                    senders[index].action = Action::Done;
                    senders[index].next_at = None;
                    // The deferred k.extMu.Unlock, registered first, runs last: the next caller enters.
                    self.hand_off(ext_mu, t, &mut senders);
                }
                Action::Done => senders[index].next_at = None,
            }
        }
        let stuck = senders.iter().any(|s| s.action != Action::Done);
        for sender in &senders {
            self.totals.locks_held_max = self.totals.locks_held_max.max(sender.held_max);
        }
        if !stuck {
            return Outcome::Completed;
        }
        self.stall()
    }

    /// Entering `SendContainerSignal`: `ext_mu` (after `waited_ns` at the door), then
    /// `TaskSet.mu` for reading, which no writer can be waiting for: runsc paused
    /// the kernel, so no task clones or exits.
    fn enter(&self, ext_mu: LockId, task: TaskId, waited_ns: u64) -> [Effect; 2] {
        debug_assert!(gosync::rlock_now(self.builder.world().lock(self.taskset)));
        [
            Effect::Acquire { lock: ext_mu, task, mode: LockMode::Write, waited_ns },
            Effect::Acquire { lock: self.taskset, task, mode: LockMode::Read, waited_ns: 0 },
        ]
    }

    /// `lock` was just released at `now`: the first waiter gets it (FIFO, a model choice).
    fn hand_off(&mut self, lock: LockId, now: u64, senders: &mut [Sender]) {
        let state = self.builder.world().lock(lock).clone();
        let Some(waiter) = state.waiters.front().copied() else { return };
        if !state.holders.is_empty() {
            return;
        }
        let Some(k) = senders.iter().position(|s| s.task == waiter.task) else { return };
        let waited = now - waiter.since_ns;
        self.totals.sender_waits.push(waited);
        if Some(lock) == self.ext_mu {
            // Admitted at the door: the call goes on as it would have at once.
            let cpu = u16::try_from(2 + k).expect("few senders");
            self.emit(&Owned {
                at_ns: now,
                actor: Some(waiter.task),
                kind: OpKind::LockGranted,
                code: at(self.send_fn(), 1),
                template: T::SEND_ADMITTED,
                args: vec![Arg::Task(waiter.task), Arg::Lock(lock), Arg::Ns(waited), Arg::Lock(self.taskset)],
                effects: self
                    .enter(lock, waiter.task, waited)
                    .into_iter()
                    .chain([Effect::SetState { task: waiter.task, state: TaskState::RunningKernel { cpu } }])
                    .collect(),
            });
            senders[k].action = Action::Walk;
            senders[k].next_at = Some(now + RLOCK_NS);
            return;
        }
        senders[k].held.push(lock);
        let held = senders[k].held.len() as u64;
        senders[k].held_max = senders[k].held_max.max(held);
        let cpu = u16::try_from(2 + k).expect("few senders");
        self.emit(&Owned {
            at_ns: now,
            actor: Some(waiter.task),
            kind: OpKind::LockGranted,
            code: at(self.send_fn(), 5),
            template: T::SEND_GRANTED,
            args: vec![Arg::Task(waiter.task), Arg::Lock(lock), Arg::Ns(waited)],
            effects: vec![
                Effect::Acquire { lock, task: waiter.task, mode: LockMode::Write, waited_ns: waited },
                Effect::Count { counter: self.c_held, delta: 1 },
                Effect::SetState { task: waiter.task, state: TaskState::RunningKernel { cpu } },
            ],
        });
        if let Action::Lock(g) = senders[k].action {
            senders[k].action = Action::Signal(g);
        }
        senders[k].next_at = Some(now + MUTEX_NS);
    }

    /// Some sender never returns: the simulator's wait-for graph names the cycle,
    /// and the paused sandbox stays paused.
    pub(super) fn stall(&mut self) -> Outcome {
        let now = self.builder.now_ns();
        let taskset = self.taskset;
        self.builder.phase(say(T::PHASE_STALL.id(), &[]));
        self.builder.iteration(say(T::ITER_STALL.id(), &[]));
        let found = find_deadlock(&self.builder.world().locks);
        if let Some(deadlock) = &found {
            let (task, lock) = deadlock.cycle[0];
            self.emit(&Owned {
                at_ns: now,
                actor: Some(task),
                kind: OpKind::Deadlock,
                code: at(self.send_fn(), 5),
                template: T::DEADLOCK,
                args: vec![Arg::Task(task), Arg::Lock(lock)],
                effects: vec![],
            });
            let layout = &self.builder.layout;
            let words: Vec<String> = deadlock
                .cycle
                .iter()
                .map(|(t, l)| format!("{} waits for {}", layout.task_name(*t), layout.lock_name(*l)))
                .collect();
            let text = if words.len() == 1 {
                format!("{}, which it holds itself", words[0])
            } else {
                format!("{}, each lock held by the next", words.join("; "))
            };
            self.totals.deadlock_text = Some(text);
        }
        // runsc paused the kernel before the call: no task runs, so no clone comes; the
        // stuck caller keeps k.extMu, and with it every later runsc command.
        if let (Some(&(stuck, _)), Some(ext_mu)) = (found.as_ref().and_then(|d| d.cycle.first()), self.ext_mu)
        {
            self.emit(&Owned {
                at_ns: now,
                actor: Some(stuck),
                kind: OpKind::Compute,
                code: at(self.send_fn(), 2),
                template: T::STALL_PAUSED,
                args: vec![Arg::Task(stuck), Arg::Lock(taskset), Arg::Lock(ext_mu)],
                effects: vec![],
            });
        }
        self.totals.deadlock = found.clone();
        match found {
            Some(deadlock) => Outcome::Deadlock(deadlock),
            None => Outcome::Completed,
        }
    }
}
