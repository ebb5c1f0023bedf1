//! After the sleep: `runsc ps`, then the senders: `runsc kill --all` (Kernel.Pause,
//! `SendContainerSignal`, Kernel.Unpause) or, in the job-control variant,
//! `ProcessGroup.SendSignal` from task goroutines; the defer pile, its LIFO release,
//! and the deadlocks it allows.

use super::*;

mod pause;

/// What a sender does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    /// Kernel.Pause: `k.extMu`, then `TaskSet.mu` for writing.
    Pause,
    PauseWalk,
    PauseDone,
    /// Entering the signal call (`k.extMu` and `TaskSet.mu` for reading, or only the latter).
    Enter,
    Walk,
    /// The k-th matching group in this sender's order.
    Visit(usize),
    Lock(usize),
    Signal(usize),
    Unlock(usize),
    Return,
    /// Kernel.Unpause: `k.extMu`, then `TaskSet.mu` for writing again.
    Unpause,
    UnpauseWalk,
    UnpauseDone,
    Done,
}

/// A sender that finds a mutex held queues for it and sleeps.
fn queue_on(lock: LockId, task: TaskId) -> [Effect; 2] {
    [
        Effect::Enqueue { lock, task, mode: LockMode::Write },
        Effect::SetState { task, state: TaskState::BlockedOnLock { lock } },
    ]
}

pub(super) struct Sender {
    task: TaskId,
    next_at: Option<u64>,
    action: Action,
    held: Vec<LockId>,
    held_max: u64,
    /// The matching groups (sidecar indices) in the order this sender's range meets them.
    order: Vec<u64>,
    /// It has just let go of `k.extMu` and takes it straight back (Pause, then the
    /// call; the call, then Unpause): Go's `sync.Mutex` in its normal mode lets a
    /// running goroutine in before a waiter it has woken (a model choice: the woken
    /// waiter needs microseconds to run, the next `Lock()` comes nanoseconds later).
    barges: bool,
}

impl Sender {
    /// Asleep on a lock until a `hand_off` wakes it.
    fn block(&mut self) {
        self.next_at = None;
    }

    fn then(&mut self, action: Action, at_ns: u64) {
        self.action = action;
        self.next_at = Some(at_ns);
    }

    fn group(&self, k: usize) -> u64 {
        self.order[k]
    }
}

impl Sim<'_> {
    /// The matching groups in the order each sender meets them: sidecar order for
    /// `SendContainerSignal` (serialised by `k.extMu`, so the order changes nothing); a
    /// seeded shuffle per sender for job control, where Go's random map order decides
    /// whether two senders take the locks in different orders.
    fn orders(&self) -> Vec<Vec<u64>> {
        let cfg = self.cfg;
        let mut rng = crate::run::rng::Rng::new(cfg.seed);
        (0..cfg.senders)
            .map(|_| {
                let mut order: Vec<u64> = (0..cfg.sidecars).collect();
                if cfg.job_control {
                    for i in (1..order.len()).rev() {
                        let j = rng.below(i as u64 + 1) as usize;
                        order.swap(i, j);
                    }
                }
                order
            })
            .collect()
    }

    /// The signal's senders, in time order. Returns the run's outcome.
    pub(super) fn signal(&mut self) -> Outcome {
        let cfg = self.cfg;
        if cfg.senders == 0 {
            return Outcome::Completed;
        }
        let start = self.builder.now_ns();
        self.builder.phase(say(T::PHASE_SIGNAL.id(), &[Arg::Count(cfg.senders)]));
        let first = if cfg.pauses() { Action::Pause } else { Action::Enter };
        let mut senders: Vec<Sender> = self
            .senders
            .iter()
            .zip(self.orders())
            .enumerate()
            .map(|(k, (&task, order))| Sender {
                task,
                next_at: Some(start + k as u64 * SENDER_GAP_NS),
                action: first,
                held: Vec::new(),
                held_max: 0,
                order,
                barges: false,
            })
            .collect();
        // Bounded: every action moves a sender forward or blocks it; at most
        // senders × (4 × sidecars + 10) actions, plus the handoffs.
        while let Some(index) = (0..senders.len())
            .filter(|&k| senders[k].next_at.is_some())
            .min_by_key(|&k| (senders[k].next_at, k))
        {
            let now = senders[index].next_at.expect("runnable");
            self.step(index, now, &mut senders);
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

    fn cpu_of(index: usize) -> u16 {
        u16::try_from(2 + index).expect("few senders")
    }

    /// Sender `index` does its next action at `now`.
    fn step(&mut self, index: usize, now: u64, senders: &mut [Sender]) {
        let cfg = self.cfg;
        let task = senders[index].task;
        let name = Arg::Task(task);
        match senders[index].action {
            Action::Pause | Action::Unpause | Action::Enter => self.knock(index, now, senders),
            Action::PauseWalk | Action::UnpauseWalk => self.walk_every_task(index, now, senders),
            Action::PauseDone | Action::UnpauseDone => self.end_pause(index, now, senders),
            Action::Walk => self.walk(index, now, senders),
            Action::Visit(k) => {
                let g = senders[index].group(k);
                let i = cfg.leader(cfg.processes + g);
                self.builder
                    .iteration(say(T::ITER_SENDER.id(), &[name, Arg::Word("a matching thread group")]));
                let (function, line) = self.signal_line(Line::Match);
                self.emit(&Owned {
                    at_ns: now,
                    actor: Some(task),
                    kind: OpKind::Compute,
                    code: at(function, line),
                    template: if cfg.job_control { T::JC_VISIT } else { T::SEND_VISIT },
                    args: vec![
                        name,
                        Arg::Count(g + 1),
                        Arg::Count(cfg.processes + g + 1),
                        Arg::Count(Config::tid(i)),
                    ],
                    effects: vec![],
                });
                senders[index].then(Action::Lock(k), now + cfg.visit_cost(i));
            }
            Action::Lock(k) => self.lock_handlers(index, k, now, senders),
            Action::Signal(k) => {
                let (function, line) = self.signal_line(Line::Signal);
                self.emit(&Owned {
                    at_ns: now,
                    actor: Some(task),
                    kind: OpKind::Signal,
                    code: at(function, line),
                    template: T::SEND_SIGNAL,
                    args: vec![name],
                    effects: vec![Effect::Count { counter: self.c_signals, delta: 1 }],
                });
                let next =
                    if cfg.variant == Variant::Before { self.after_group(k) } else { Action::Unlock(k) };
                senders[index].then(next, now + SIGNAL_NS);
            }
            Action::Unlock(k) => {
                let lock = self.sighand[senders[index].group(k) as usize];
                senders[index].held.retain(|&l| l != lock);
                self.emit(&Owned {
                    at_ns: now,
                    actor: Some(task),
                    kind: OpKind::LockRelease,
                    code: at(self.send_fn(), text::send_line::UNLOCK_AFTER),
                    template: T::SEND_UNLOCK,
                    args: vec![name, Arg::Lock(lock)],
                    effects: vec![
                        Effect::Release { lock, task },
                        Effect::Decrease { counter: self.c_held, delta: 1 },
                    ],
                });
                self.hand_off(lock, now, senders);
                senders[index].then(self.after_group(k), now + MUTEX_NS);
            }
            Action::Return => self.return_from(index, now, senders),
            Action::Done => senders[index].next_at = None,
        }
    }

    /// Pause, the signal call or Unpause begins: at `k.extMu` (if any) it gets in or queues.
    fn knock(&mut self, index: usize, now: u64, senders: &mut [Sender]) {
        let cfg = self.cfg;
        let task = senders[index].task;
        let name = Arg::Task(task);
        let running = Effect::SetState { task, state: TaskState::RunningKernel { cpu: Self::cpu_of(index) } };
        let (label, blocked) = match senders[index].action {
            Action::Pause => ("Kernel.Pause", T::PAUSE_BLOCKED),
            Action::Unpause => ("Kernel.Unpause", T::UNPAUSE_BLOCKED),
            _ if cfg.job_control => ("ProcessGroup.SendSignal", T::SEND_BLOCKED),
            _ => ("SendContainerSignal", T::SEND_BLOCKED),
        };
        self.builder.iteration(say(T::ITER_SENDER.id(), &[name, Arg::Word(label)]));
        if let Some(ext_mu) = self.ext_mu {
            let door = self.builder.world().lock(ext_mu).clone();
            let barges = std::mem::take(&mut senders[index].barges);
            let free = if barges { door.holders.is_empty() } else { gosync::lock_now(&door) };
            if !free {
                // k.extMu admits one caller at a time: this one waits at the door
                // until the caller inside lets go of it (`hand_off`).
                let holder = door.holders.first().map_or(task, |h| h.task);
                let (function, line) = self.door_line(senders[index].action);
                self.emit(&Owned {
                    at_ns: now,
                    actor: Some(task),
                    kind: OpKind::LockContended,
                    code: at(function, line),
                    template: blocked,
                    args: vec![name, Arg::Lock(ext_mu), Arg::Task(holder)],
                    effects: [running].into_iter().chain(queue_on(ext_mu, task)).collect(),
                });
                senders[index].block();
                return;
            }
        }
        let action = senders[index].action;
        self.admit(index, action, now, 0, senders, true);
    }

    /// After the k-th matching group: the next one, or the return.
    fn after_group(&self, k: usize) -> Action {
        if (k as u64) + 1 < self.cfg.sidecars {
            Action::Visit(k + 1)
        } else {
            Action::Return
        }
    }

    /// Where a sender waiting at `k.extMu` for `action` stands in the pseudocode.
    fn door_line(&self, action: Action) -> (u16, u16) {
        match action {
            Action::Pause => (text::PAUSE, 1),
            Action::Unpause => (text::UNPAUSE, 1),
            _ => (self.send_fn(), text::send_line::EXT_MU),
        }
    }

    /// Sender `index` gets in, at once (`fresh`) or admitted at `k.extMu` after
    /// `waited_ns`: into Kernel.Pause or Unpause (`TaskSet.mu` for writing, which is
    /// free: only a holder of `k.extMu` takes it so), or into the signal call
    /// (`TaskSet.mu` for reading).
    fn admit(
        &mut self,
        index: usize,
        action: Action,
        now: u64,
        waited_ns: u64,
        senders: &mut [Sender],
        fresh: bool,
    ) {
        let task = senders[index].task;
        let name = Arg::Task(task);
        let taskset = self.taskset;
        let mut effects =
            vec![Effect::SetState { task, state: TaskState::RunningKernel { cpu: Self::cpu_of(index) } }];
        if let Some(ext_mu) = self.ext_mu {
            effects.push(Effect::Acquire { lock: ext_mu, task, mode: LockMode::Write, waited_ns });
        }
        let ext_mu = self.ext_mu.map_or(Arg::Word("k.extMu"), Arg::Lock);
        let (template, function, line, args, next, mode) = match action {
            Action::Pause | Action::Unpause => {
                debug_assert!(gosync::lock_now(self.builder.world().lock(taskset)));
                let pause = action == Action::Pause;
                let template = match (pause, fresh) {
                    (true, true) => T::PAUSE_BEGIN,
                    (true, false) => T::PAUSE_ADMITTED,
                    (false, true) => T::UNPAUSE_BEGIN,
                    (false, false) => T::UNPAUSE_ADMITTED,
                };
                let args = if fresh {
                    vec![name, ext_mu, Arg::Lock(taskset)]
                } else {
                    vec![name, ext_mu, Arg::Ns(waited_ns), Arg::Lock(taskset)]
                };
                let function = if pause { text::PAUSE } else { text::UNPAUSE };
                let next = if pause { Action::PauseWalk } else { Action::UnpauseWalk };
                (template, function, 6, args, next, LockMode::Write)
            }
            _ => {
                // No writer waits for TaskSet.mu here: runsc paused the kernel, or (job
                // control) the run has no writer during the signal.
                debug_assert!(gosync::rlock_now(self.builder.world().lock(taskset)));
                let (template, line, args) = match (self.cfg.job_control, fresh) {
                    (true, _) => (T::JC_ENTER, text::job_line::RLOCK, vec![name, Arg::Lock(taskset)]),
                    (false, true) => {
                        (T::SEND_RLOCK, text::send_line::EXT_MU, vec![name, Arg::Lock(taskset), ext_mu])
                    }
                    (false, false) => (
                        T::SEND_ADMITTED,
                        text::send_line::EXT_MU,
                        vec![name, ext_mu, Arg::Ns(waited_ns), Arg::Lock(taskset)],
                    ),
                };
                let function = if self.cfg.job_control { text::JOB_CONTROL } else { self.send_fn() };
                (template, function, line, args, Action::Walk, LockMode::Read)
            }
        };
        effects.push(Effect::Acquire { lock: taskset, task, mode, waited_ns: 0 });
        self.emit(&Owned {
            at_ns: now,
            actor: Some(task),
            kind: if fresh { OpKind::LockFast } else { OpKind::LockGranted },
            code: at(function, line),
            template,
            args,
            effects,
        });
        senders[index].then(next, now + RLOCK_NS);
    }

    /// The entries that do not match: every task before the fix, one per process after.
    fn walk(&mut self, index: usize, now: u64, senders: &mut [Sender]) {
        let cfg = self.cfg;
        let task = senders[index].task;
        let (what, entries, cost): (&'static str, u64, u64) = if cfg.variant == Variant::Before {
            let cost = (0..cfg.bench_tasks()).map(|i| cfg.visit_cost(i)).sum();
            ("tids (every task)", cfg.bench_tasks(), cost)
        } else {
            let cost = (0..cfg.processes).map(|g| cfg.visit_cost(cfg.leader(g))).sum();
            ("tgids (thread groups)", cfg.processes, cost)
        };
        let (function, line) = self.signal_line(Line::Range);
        self.emit(&Owned {
            at_ns: now,
            actor: Some(task),
            kind: OpKind::Compute,
            code: at(function, line),
            template: if cfg.job_control { T::JC_WALK } else { T::SEND_WALK },
            args: vec![Arg::Task(task), Arg::Word(what), Arg::Count(entries), Arg::Ns(cost)],
            effects: vec![],
        });
        let next = if cfg.sidecars > 0 { Action::Visit(0) } else { Action::Return };
        senders[index].then(next, now + cost.max(1));
    }

    /// `Lock()` on the k-th matching group's `SignalHandlers.mu`: taken, or queued
    /// (on another sender, or on itself when two groups share the handlers).
    fn lock_handlers(&mut self, index: usize, k: usize, now: u64, senders: &mut [Sender]) {
        let before = self.cfg.variant == Variant::Before;
        let task = senders[index].task;
        let name = Arg::Task(task);
        let lock = self.sighand[senders[index].group(k) as usize];
        let state = self.builder.world().lock(lock).clone();
        let (function, line) = self.signal_line(Line::Lock);
        if gosync::lock_now(&state) {
            senders[index].held.push(lock);
            let held = senders[index].held.len() as u64;
            senders[index].held_max = senders[index].held_max.max(held);
            self.emit(&Owned {
                at_ns: now,
                actor: Some(task),
                kind: OpKind::LockFast,
                code: at(function, line),
                template: if before { T::SEND_LOCK_DEFER } else { T::SEND_LOCK },
                args: vec![name, Arg::Lock(lock), Arg::Count(held)],
                effects: vec![
                    Effect::Acquire { lock, task, mode: LockMode::Write, waited_ns: 0 },
                    Effect::Count { counter: self.c_held, delta: 1 },
                ],
            });
            senders[index].then(Action::Signal(k), now + MUTEX_NS);
        } else {
            let own = gosync::relocks_own(&state, task);
            let holder = state.holders.first().map_or(task, |h| h.task);
            self.emit(&Owned {
                at_ns: now,
                actor: Some(task),
                kind: OpKind::LockContended,
                code: at(function, line),
                template: if own { T::SEND_SELF } else { T::SEND_BLOCKED },
                args: vec![name, Arg::Lock(lock), Arg::Task(holder)],
                effects: queue_on(lock, task).to_vec(),
            });
            senders[index].block();
        }
    }

    /// The return: the deferred Unlocks, last locked first, then `TaskSet.mu` and
    /// (registered first, so run last) `k.extMu`; then Kernel.Unpause.
    fn return_from(&mut self, index: usize, now: u64, senders: &mut [Sender]) {
        let task = senders[index].task;
        let name = Arg::Task(task);
        self.builder.iteration(say(T::ITER_SENDER.id(), &[name, Arg::Word("return")]));
        let (function, line) = self.signal_line(Line::Return);
        let mut t = now;
        self.totals.locks_held_at_return.push(senders[index].held.len() as u64);
        while let Some(lock) = senders[index].held.pop() {
            let still = senders[index].held.len() as u64;
            self.emit(&Owned {
                at_ns: t,
                actor: Some(task),
                kind: OpKind::LockRelease,
                code: at(function, line),
                template: T::SEND_DEFER_UNLOCK,
                args: vec![name, Arg::Lock(lock), Arg::Count(still)],
                effects: vec![
                    Effect::Release { lock, task },
                    Effect::Decrease { counter: self.c_held, delta: 1 },
                ],
            });
            self.hand_off(lock, t, senders);
            t += MUTEX_NS;
        }
        let held_max = senders[index].held_max;
        self.totals.locks_held_max = self.totals.locks_held_max.max(held_max);
        let mut effects = vec![Effect::Release { lock: self.taskset, task }];
        effects.extend(self.ext_mu.map(|lock| Effect::Release { lock, task }));
        if !self.cfg.pauses() {
            effects.push(Effect::SetState { task, state: TaskState::Sleeping { channel: self.ch_done } });
        }
        self.emit(&Owned {
            at_ns: t,
            actor: Some(task),
            kind: OpKind::LockRelease,
            code: at(function, self.signal_line(Line::Runlock).1),
            template: T::SEND_RUNLOCK,
            args: vec![name, Arg::Lock(self.taskset), Arg::Count(held_max)],
            effects,
        });
        if self.cfg.pauses() {
            // The deferred k.extMu.Unlock, registered first, ran last; runsc's Unpause
            // takes it straight back.
            senders[index].then(Action::Unpause, t + MUTEX_NS);
            senders[index].barges = true;
        } else {
            senders[index].action = Action::Done;
            senders[index].next_at = None;
        }
    }

    /// The pseudocode function and line of a step of the signal call.
    fn signal_line(&self, line: Line) -> (u16, u16) {
        use text::{job_line as jc, send_line as sc};
        if self.cfg.job_control {
            let n = match line {
                Line::Range => jc::RANGE,
                Line::Match => jc::MATCH,
                Line::Lock => jc::LOCK,
                Line::Signal => jc::SIGNAL,
                Line::Return | Line::Runlock => jc::RETURN,
            };
            return (text::JOB_CONTROL, n);
        }
        let before = self.cfg.variant == Variant::Before;
        let n = match line {
            Line::Range => sc::RANGE,
            Line::Match => sc::MATCH,
            Line::Lock => sc::LOCK,
            Line::Signal if before => sc::SIGNAL_BEFORE,
            Line::Signal => sc::SIGNAL_AFTER,
            Line::Return => sc::RETURN,
            Line::Runlock => sc::RUNLOCK,
        };
        (self.send_fn(), n)
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
            let action = senders[k].action;
            self.admit(k, action, now, waited, senders, false);
            return;
        }
        senders[k].held.push(lock);
        let held = senders[k].held.len() as u64;
        senders[k].held_max = senders[k].held_max.max(held);
        let (function, line) = self.signal_line(Line::Lock);
        self.emit(&Owned {
            at_ns: now,
            actor: Some(waiter.task),
            kind: OpKind::LockGranted,
            code: at(function, line),
            template: T::SEND_GRANTED,
            args: vec![Arg::Task(waiter.task), Arg::Lock(lock), Arg::Ns(waited)],
            effects: vec![
                Effect::Acquire { lock, task: waiter.task, mode: LockMode::Write, waited_ns: waited },
                Effect::Count { counter: self.c_held, delta: 1 },
                Effect::SetState {
                    task: waiter.task,
                    state: TaskState::RunningKernel { cpu: Self::cpu_of(k) },
                },
            ],
        });
        if let Action::Lock(g) = senders[k].action {
            senders[k].action = Action::Signal(g);
        }
        senders[k].next_at = Some(now + MUTEX_NS);
    }
}

/// A step of the signal call, for its pseudocode line.
#[derive(Clone, Copy)]
enum Line {
    Range,
    Match,
    Lock,
    Signal,
    Return,
    Runlock,
}
