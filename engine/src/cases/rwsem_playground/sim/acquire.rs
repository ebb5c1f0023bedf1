//! Taking the lock: `down_read`, `down_write`, optimistic spinning, retries.

use super::text::{self, at, T};
use super::{Prog, Role, Sim, FAST_LOCK_NS, SLOW_LOCK_NS};
use crate::kernel::locks::rwsem::{self, ReadDecision, RetryDecision, WriteDecision};
use crate::run::lock::LockMode;
use crate::run::narration::Arg;
use crate::run::trace::OpKind;
use crate::run::world::{Effect, TaskId, TaskState};

impl Sim<'_> {
    pub(super) fn stop_spinner_owner_off(&mut self, now: u64) {
        let Some(spinner) = self.spinner() else { return };
        let cpu = self.state(spinner).cpu().expect("a spinner is on a CPU");
        let position = self.queue_position() + 1;
        let args = [Arg::Task(spinner), Arg::Lock(self.lock), Arg::Count(position)];
        self.spin_to_sleep(cpu, spinner, now, T::WRITE_SPIN_OWNER_OFF, &args);
    }

    /// A spinning writer gives up: it joins the wait queue and sleeps; its CPU reschedules.
    pub(super) fn spin_to_sleep(&mut self, cpu: u16, task: TaskId, now: u64, template: T, args: &[Arg]) {
        self.task(task).prog = Prog::WaitLock;
        self.cpus[usize::from(cpu)].task = None;
        let lock = self.lock;
        self.op(
            now,
            Some(task),
            OpKind::LockContended,
            at(text::DOWN_WRITE_SLOW, 3),
            template,
            args,
            &[
                Effect::Enqueue { lock, task, mode: LockMode::Write },
                Effect::SetState { task, state: TaskState::BlockedOnLock { lock } },
            ],
        );
        self.schedule(cpu, now);
    }

    // ---- acquiring -------------------------------------------------------------

    pub(super) fn want_lock(&mut self, cpu: u16, task: TaskId, now: u64) {
        match self.tasks[task.0 as usize].role {
            Role::Reader => self.down_read(cpu, task, now),
            Role::Writer => self.down_write(cpu, task, now),
        }
    }

    pub(super) fn start_hold(&mut self, cpu: u16, task: TaskId, now: u64, lock_cost_ns: u64) {
        let hold = self.hold_ns(task);
        self.task(task).prog = Prog::Hold;
        self.task(task).burst_end_ns = now + lock_cost_ns + hold;
        let code = at(self.loop_fn(task), 3);
        let args = [Arg::Task(task), Arg::Lock(self.lock), Arg::Ns(hold)];
        let state = TaskState::RunningKernel { cpu };
        self.op(now, Some(task), OpKind::Compute, code, T::HOLD, &args, &[Effect::SetState { task, state }]);
    }

    pub(super) fn down_read(&mut self, cpu: u16, task: TaskId, now: u64) {
        let lock = self.lock;
        let (l, t) = (Arg::Lock(lock), Arg::Task(task));
        let acquire = Effect::Acquire { lock, task, mode: LockMode::Read, waited_ns: 0 };
        let decision = rwsem::down_read(self.builder.world().lock(lock), self.extra);
        match decision {
            ReadDecision::Fast => {
                self.op(
                    now,
                    Some(task),
                    OpKind::LockFast,
                    at(text::DOWN_READ, 3),
                    T::READ_FAST,
                    &[t, l],
                    &[acquire],
                );
                self.extra.reader_owned_hint = true;
                self.start_hold(cpu, task, now, FAST_LOCK_NS);
            }
            ReadDecision::Steal { wake_readers } => {
                let steal = Effect::Count { counter: self.counters.steals, delta: 1 };
                let head_is_reader =
                    self.builder.world().lock(lock).waiters.front().is_some_and(|w| w.mode == LockMode::Read);
                let wake_readers = wake_readers && head_is_reader;
                let template = if wake_readers { T::READ_STEAL_WAKE } else { T::READ_STEAL };
                self.op(
                    now,
                    Some(task),
                    OpKind::LockSlow,
                    at(text::DOWN_READ_SLOW, 5),
                    template,
                    &[t, l],
                    &[acquire, steal],
                );
                self.extra.reader_owned_hint = true;
                if wake_readers {
                    self.wake(task, now, false);
                }
                self.start_hold(cpu, task, now, SLOW_LOCK_NS);
            }
            ReadDecision::QueueBehindWriter | ReadDecision::QueueFair | ReadDecision::QueueHandoff => {
                let position = Arg::Count(self.queue_position() + 1);
                let (template, args) = match decision {
                    ReadDecision::QueueBehindWriter => {
                        let writer = self.builder.world().lock(lock).writer().expect("writer holds");
                        (T::READ_QUEUE_WRITER, vec![t, l, Arg::Task(writer), position])
                    }
                    ReadDecision::QueueFair => {
                        let waiting_writer = self
                            .builder
                            .world()
                            .lock(lock)
                            .waiters
                            .iter()
                            .find(|waiter| waiter.mode == LockMode::Write)
                            .map_or(Arg::Word("a writer"), |waiter| Arg::Task(waiter.task));
                        (T::READ_QUEUE_FAIR, vec![t, l, waiting_writer, position])
                    }
                    _ => (T::READ_QUEUE_HANDOFF, vec![t, l, position]),
                };
                self.task(task).prog = Prog::WaitLock;
                self.cpus[usize::from(cpu)].task = None;
                self.op(
                    now,
                    Some(task),
                    OpKind::LockContended,
                    at(text::DOWN_READ_SLOW, 8),
                    template,
                    &args,
                    &[
                        Effect::Enqueue { lock, task, mode: LockMode::Read },
                        Effect::SetState { task, state: TaskState::BlockedOnLock { lock } },
                    ],
                );
                // This CPU picks its next task first, so that a woken task finds it busy.
                self.schedule(cpu, now);
                // rwsem_cond_wake_waiter: a free lock wakes the queue at once.
                if self.builder.world().lock(lock).is_free() {
                    self.wake(task, now, true);
                }
            }
        }
    }

    pub(super) fn down_write(&mut self, cpu: u16, task: TaskId, now: u64) {
        let lock = self.lock;
        let (l, t) = (Arg::Lock(lock), Arg::Task(task));
        let acquire = Effect::Acquire { lock, task, mode: LockMode::Write, waited_ns: 0 };
        let state = self.builder.world().lock(lock);
        let owner_running = state.writer().is_some_and(|owner| self.state(owner).cpu().is_some());
        let decision =
            rwsem::down_write(state, self.config.policy, self.extra, owner_running, self.spinner().is_some());
        match decision {
            WriteDecision::Fast => {
                self.op(
                    now,
                    Some(task),
                    OpKind::LockFast,
                    at(text::DOWN_WRITE, 2),
                    T::WRITE_FAST,
                    &[t, l],
                    &[acquire],
                );
                self.extra.reader_owned_hint = false;
                self.start_hold(cpu, task, now, FAST_LOCK_NS);
            }
            WriteDecision::Steal => {
                let waiters = Arg::Count(self.queue_position());
                let steal = Effect::Count { counter: self.counters.steals, delta: 1 };
                self.op(
                    now,
                    Some(task),
                    OpKind::LockSlow,
                    at(text::DOWN_WRITE_SLOW, 2),
                    T::WRITE_STEAL,
                    &[t, l, waiters],
                    &[acquire, steal],
                );
                self.extra.reader_owned_hint = false;
                self.start_hold(cpu, task, now, SLOW_LOCK_NS);
            }
            WriteDecision::SpinOnWriter | WriteDecision::SpinOnReaders { .. } => {
                let (template, args, deadline) = match decision {
                    WriteDecision::SpinOnWriter => {
                        let owner = self.builder.world().lock(lock).writer().expect("writer holds");
                        (T::WRITE_SPIN_WRITER, vec![t, l, Arg::Task(owner)], None)
                    }
                    WriteDecision::SpinOnReaders { limit_ns } => {
                        let readers = Arg::Count(self.builder.world().lock(lock).readers() as u64);
                        (T::WRITE_SPIN_READERS, vec![t, l, readers, Arg::Ns(limit_ns)], Some(now + limit_ns))
                    }
                    _ => unreachable!(),
                };
                self.task(task).prog = Prog::Spin { since_ns: now, deadline_ns: deadline };
                self.task(task).burst_end_ns = deadline.unwrap_or(u64::MAX);
                self.op(
                    now,
                    Some(task),
                    OpKind::LockSpin,
                    at(text::DOWN_WRITE_SLOW, 1),
                    template,
                    &args,
                    &[
                        Effect::SetState { task, state: TaskState::Spinning { cpu, lock } },
                        Effect::Count { counter: self.counters.spins, delta: 1 },
                    ],
                );
            }
            WriteDecision::Queue => {
                let holders = self.holders_word();
                let position = Arg::Count(self.queue_position() + 1);
                self.task(task).prog = Prog::WaitLock;
                let mut after = self.builder.world().lock(lock).clone();
                after.enqueue(task, LockMode::Write, now);
                if rwsem::try_write_lock(&after, self.config.policy, task, now) == RetryDecision::Acquire {
                    // Queued behind others, yet the lock is free and not handed off: the first
                    // rwsem_try_write_lock in the wait loop takes it at once.
                    let effects = [
                        Effect::Enqueue { lock, task, mode: LockMode::Write },
                        Effect::Acquire { lock, task, mode: LockMode::Write, waited_ns: 0 },
                    ];
                    self.op(
                        now,
                        Some(task),
                        OpKind::LockSlow,
                        at(text::DOWN_WRITE_SLOW, 5),
                        T::WRITE_QUEUE_GOT,
                        &[t, l],
                        &effects,
                    );
                    self.extra.reader_owned_hint = false;
                    self.start_hold(cpu, task, now, SLOW_LOCK_NS);
                    return;
                }
                self.cpus[usize::from(cpu)].task = None;
                self.op(
                    now,
                    Some(task),
                    OpKind::LockContended,
                    at(text::DOWN_WRITE_SLOW, 7),
                    T::WRITE_QUEUE,
                    &[t, l, holders, position],
                    &[
                        Effect::Enqueue { lock, task, mode: LockMode::Write },
                        Effect::SetState { task, state: TaskState::BlockedOnLock { lock } },
                    ],
                );
                self.schedule(cpu, now);
            }
        }
    }

    pub(super) fn holders_word(&self) -> Arg {
        let lock = self.builder.world().lock(self.lock);
        match lock.writer() {
            Some(_) => Arg::Word("by a writer"),
            None if lock.readers() > 0 => Arg::Word("by readers"),
            None if lock.handoff => Arg::Word("handed off to the first waiter"),
            None => Arg::Word("free, but others are queued first"),
        }
    }

    /// `rwsem_try_write_lock` for a queued writer that is on a CPU.
    pub(super) fn retry_write(&mut self, cpu: u16, task: TaskId, now: u64) {
        let lock = self.lock;
        let (l, t) = (Arg::Lock(lock), Arg::Task(task));
        let state = self.builder.world().lock(lock);
        let since = state.waiters.iter().find(|waiter| waiter.task == task).expect("queued").since_ns;
        let waited = now - since;
        match rwsem::try_write_lock(state, self.config.policy, task, now) {
            RetryDecision::Acquire => {
                let mut effects =
                    vec![Effect::Acquire { lock, task, mode: LockMode::Write, waited_ns: waited }];
                if state.handoff {
                    effects.push(Effect::SetHandoff { lock, on: false });
                }
                self.writer_wait_max_ns = self.writer_wait_max_ns.max(waited);
                self.op(
                    now,
                    Some(task),
                    OpKind::LockGranted,
                    at(text::DOWN_WRITE_SLOW, 5),
                    T::WRITE_RETRY_GOT,
                    &[t, l, Arg::Ns(waited)],
                    &effects,
                );
                self.extra.reader_owned_hint = false;
                self.start_hold(cpu, task, now, SLOW_LOCK_NS);
            }
            decision => {
                let mut effects = vec![Effect::SetState { task, state: TaskState::BlockedOnLock { lock } }];
                let (template, args, line) = if decision == RetryDecision::SetHandoffAndSleep {
                    effects.push(Effect::SetHandoff { lock, on: true });
                    effects.push(Effect::Count { counter: self.counters.handoffs, delta: 1 });
                    let timeout = Arg::Ns(rwsem::RWSEM_WAIT_TIMEOUT_NS);
                    (T::WRITE_SET_HANDOFF, vec![t, Arg::Ns(waited), timeout], 6)
                } else {
                    (T::WRITE_RETRY_FAIL, vec![t, l, self.holders_word(), Arg::Ns(waited)], 7)
                };
                self.cpus[usize::from(cpu)].task = None;
                self.op(
                    now,
                    Some(task),
                    OpKind::Sleep,
                    at(text::DOWN_WRITE_SLOW, line),
                    template,
                    &args,
                    &effects,
                );
                self.schedule(cpu, now);
            }
        }
    }
}
