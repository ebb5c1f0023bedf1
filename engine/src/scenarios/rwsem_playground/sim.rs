//! The playground's discrete-event simulation: tasks on CPUs under a
//! round-robin scheduler, one rwsem, every decision taken by `crate::rwsem`.
//!
//! One iteration is everything that happens at one event (a burst ending, a
//! timeslice ending); its micro-ops are the lock operations, wakeups and
//! context switches that follow. A phase is a stretch in which the lock stays
//! in one mode (free, read-held, write-held).

use super::text::{self, at, T, TEMPLATES};
use crate::builder::{text as say, OpSpec, TraceBuilder};
use crate::lock::{LockKind, LockMode};
use crate::narration::{Arg, CodeLoc};
use crate::params::ParamValues;
use crate::rng::Rng;
use crate::rwsem::{self, ReadDecision, RetryDecision, RwsemExtra, RwsemPolicy, Wake, WriteDecision};
use crate::sched::{EnqueueReason, RoundRobin, Scheduler};
use crate::trace::{Metric, OpKind, Outcome, Run};
use crate::world::{CounterId, Effect, GroupId, Layout, LockId, TaskId, TaskState};
use std::collections::BTreeMap;

/// Uncontended `down_read_killable` ≈ 15.13 % and `up_read` ≈ 13.84 % of the
/// ≈112 ns per iteration measured in seed 001 (Mateusz Guzik's profile of the
/// sparse core dump, 30 s / 268,435,456 iterations): ≈17 ns and ≈16 ns.
const FAST_LOCK_NS: u64 = 17;
/// Model choice (inference, not measured): the slow path takes the wait_lock,
/// links a waiter and sets a flag: a few cache-line transfers, ≈150 ns.
const SLOW_LOCK_NS: u64 = 150;
/// The engine stops a run at this many micro-ops so that a huge parameter set
/// cannot exhaust a browser tab; the outcome says so.
const MAX_OPS: u64 = 400_000;

pub(super) struct Config {
    pub readers: usize,
    pub writers: usize,
    pub cpus: u16,
    pub read_hold_ns: u64,
    pub write_hold_ns: u64,
    pub read_think_ns: u64,
    pub write_think_ns: u64,
    pub jitter_percent: u64,
    pub duration_ns: u64,
    pub timeslice_ns: u64,
    pub policy: RwsemPolicy,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Reader,
    Writer,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prog {
    Start,
    Think,
    Hold,
    /// Spinning for the lock since `since_ns`, until `deadline_ns` if spinning on readers.
    Spin {
        since_ns: u64,
        deadline_ns: Option<u64>,
    },
    /// Queued on the lock (asleep, or woken and waiting to retry).
    WaitLock,
}

struct Task {
    role: Role,
    prog: Prog,
    /// What is left of the current burst while the task is off a CPU.
    remaining_ns: u64,
    /// When the current burst ends while the task is on a CPU.
    burst_end_ns: u64,
    runnable_since_ns: u64,
    /// How long a reader waited before it was granted the lock while asleep.
    granted_wait_ns: u64,
}

#[derive(Clone, Copy)]
struct Cpu {
    task: Option<TaskId>,
    slice_end_ns: u64,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Free,
    Read,
    Write(TaskId),
}

struct Counters {
    steals: CounterId,
    handoffs: CounterId,
    reader_batches: CounterId,
    batched_readers: CounterId,
    spins: CounterId,
    spin_acquisitions: CounterId,
    preemptions: CounterId,
}

pub(super) struct Sim<'c> {
    config: &'c Config,
    builder: TraceBuilder,
    rng: Rng,
    rr: RoundRobin,
    tasks: Vec<Task>,
    cpus: Vec<Cpu>,
    lock: LockId,
    extra: RwsemExtra,
    counters: Counters,
    phase_mode: Option<Mode>,
    writer_wait_max_ns: u64,
}

pub(super) struct Finished {
    builder: TraceBuilder,
    outcome: Outcome,
    metrics: BTreeMap<String, Metric>,
}

impl Finished {
    pub fn finish(self, id: &'static str, variant: &'static str, seed: u64, params: ParamValues) -> Run {
        self.builder.finish(id, variant, seed, params, self.outcome, self.metrics)
    }
}

pub(super) fn run(config: &Config, seed: u64) -> Finished {
    let mut layout = Layout::new(config.cpus);
    let group: GroupId = layout.add_group("playground");
    let mut roles = Vec::new();
    for index in 0..config.readers {
        layout.add_task(format!("R{index}"), group);
        roles.push(Role::Reader);
    }
    for index in 0..config.writers {
        layout.add_task(format!("W{index}"), group);
        roles.push(Role::Writer);
    }
    let lock = layout.add_lock("mmap_lock", LockKind::RwSem);
    let counters = Counters {
        steals: layout.add_counter("steals"),
        handoffs: layout.add_counter("handoffs"),
        reader_batches: layout.add_counter("reader_batches"),
        batched_readers: layout.add_counter("batched_readers"),
        spins: layout.add_counter("spins"),
        spin_acquisitions: layout.add_counter("spin_acquisitions"),
        preemptions: layout.add_counter("preemptions"),
    };
    let mut sim = Sim {
        config,
        builder: TraceBuilder::new(layout, TEMPLATES, text::CODE),
        rng: Rng::new(seed),
        rr: RoundRobin::new(config.timeslice_ns),
        tasks: roles
            .into_iter()
            .map(|role| Task {
                role,
                prog: Prog::Start,
                remaining_ns: 0,
                burst_end_ns: 0,
                runnable_since_ns: 0,
                granted_wait_ns: 0,
            })
            .collect(),
        cpus: vec![Cpu { task: None, slice_end_ns: 0 }; usize::from(config.cpus)],
        lock,
        extra: RwsemExtra::default(),
        counters,
        phase_mode: None,
        writer_wait_max_ns: 0,
    };
    let outcome = sim.simulate();
    let metrics = sim.metrics();
    Finished { builder: sim.builder, outcome, metrics }
}

impl Sim<'_> {
    fn simulate(&mut self) -> Outcome {
        self.enter_phase_if_changed();
        if self.tasks.is_empty() {
            self.builder.iteration(say(T::ITER_START.id(), &[Arg::Lock(self.lock)]));
            self.op(0, None, OpKind::Note, at(text::SCHEDULE, 0), T::EMPTY, &[Arg::Lock(self.lock)], &[]);
            return Outcome::Completed;
        }
        for index in 0..self.tasks.len() {
            let task = TaskId(index as u32);
            self.builder.iteration(say(T::ITER_START.id(), &[Arg::Task(task)]));
            self.make_runnable(task, 0);
        }
        // Bounded: every event advances time or ends a burst, and MAX_OPS caps the total.
        loop {
            if self.builder.ops_recorded() >= MAX_OPS {
                return Outcome::StepLimit { micro_ops: self.builder.ops_recorded() };
            }
            let Some((now, cpu)) = self.next_event() else {
                // No CPU has work: everyone sleeps on the lock. One lock cannot form a cycle,
                // so this would be a model bug; report it rather than hang.
                let locks = &self.builder.world().locks;
                return match crate::lock::find_deadlock(locks) {
                    Some(deadlock) => Outcome::Deadlock(deadlock),
                    None => panic!("rwsem playground stalled with no deadlock"),
                };
            };
            if now > self.config.duration_ns {
                // A last step at the end time, so that the final position shows the final totals.
                let end = self.config.duration_ns;
                self.builder.iteration(say(T::ITER_END.id(), &[Arg::Ns(end)]));
                self.op(end, None, OpKind::Note, at(text::SCHEDULE, 0), T::END, &[Arg::Ns(end)], &[]);
                return Outcome::TimeLimit;
            }
            self.enter_phase_if_changed();
            self.handle(cpu, now);
        }
    }

    // ---- recording -------------------------------------------------------------

    #[allow(clippy::too_many_arguments)]
    fn op(
        &mut self,
        at_ns: u64,
        actor: Option<TaskId>,
        kind: OpKind,
        code: CodeLoc,
        template: T,
        args: &[Arg],
        effects: &[Effect],
    ) {
        self.builder.op(OpSpec { at_ns, actor, kind, code, text: say(template.id(), args), effects });
    }

    fn mode(&self) -> Mode {
        let lock = self.builder.world().lock(self.lock);
        match lock.writer() {
            Some(writer) => Mode::Write(writer),
            None if lock.readers() > 0 => Mode::Read,
            None => Mode::Free,
        }
    }

    fn enter_phase_if_changed(&mut self) {
        let mode = self.mode();
        if self.phase_mode == Some(mode) {
            return;
        }
        self.phase_mode = Some(mode);
        let lock = Arg::Lock(self.lock);
        match mode {
            Mode::Free => self.builder.phase(say(T::PHASE_FREE.id(), &[lock])),
            Mode::Read => self.builder.phase(say(T::PHASE_READ.id(), &[lock])),
            Mode::Write(owner) => self.builder.phase(say(T::PHASE_WRITE.id(), &[Arg::Task(owner), lock])),
        }
    }

    fn state(&self, task: TaskId) -> TaskState {
        self.builder.world().tasks[task.0 as usize].state
    }

    fn task(&mut self, task: TaskId) -> &mut Task {
        &mut self.tasks[task.0 as usize]
    }

    fn loop_fn(&self, task: TaskId) -> u16 {
        match self.tasks[task.0 as usize].role {
            Role::Reader => text::READER_LOOP,
            Role::Writer => text::WRITER_LOOP,
        }
    }

    fn hold_ns(&mut self, task: TaskId) -> u64 {
        let base = match self.tasks[task.0 as usize].role {
            Role::Reader => self.config.read_hold_ns,
            Role::Writer => self.config.write_hold_ns,
        };
        self.rng.jitter(base, self.config.jitter_percent)
    }

    fn think_ns(&mut self, task: TaskId) -> u64 {
        let base = match self.tasks[task.0 as usize].role {
            Role::Reader => self.config.read_think_ns,
            Role::Writer => self.config.write_think_ns,
        };
        self.rng.jitter(base, self.config.jitter_percent)
    }

    fn queue_position(&self) -> u64 {
        self.builder.world().lock(self.lock).waiters.len() as u64
    }

    fn spinner(&self) -> Option<TaskId> {
        (0..self.tasks.len())
            .map(|index| TaskId(index as u32))
            .find(|&task| matches!(self.tasks[task.0 as usize].prog, Prog::Spin { .. }))
    }

    // ---- events ----------------------------------------------------------------

    /// The earliest event on any CPU: a burst or a timeslice ending. Ties go to the lowest CPU.
    fn next_event(&self) -> Option<(u64, u16)> {
        self.cpus
            .iter()
            .enumerate()
            .filter_map(|(cpu, state)| {
                let task = state.task?;
                let burst_end = self.tasks[task.0 as usize].burst_end_ns;
                Some((burst_end.min(state.slice_end_ns), cpu as u16))
            })
            .min()
    }

    fn handle(&mut self, cpu: u16, now: u64) {
        let slot = usize::from(cpu);
        let task = self.cpus[slot].task.expect("an event comes from a busy CPU");
        let burst_end = self.tasks[task.0 as usize].burst_end_ns;
        if burst_end <= self.cpus[slot].slice_end_ns {
            match self.tasks[task.0 as usize].prog {
                Prog::Think => {
                    self.builder.iteration(say(T::ITER_WANT.id(), &[Arg::Task(task), Arg::Lock(self.lock)]));
                    self.want_lock(cpu, task, now);
                }
                Prog::Hold => {
                    self.builder
                        .iteration(say(T::ITER_HOLD_DONE.id(), &[Arg::Task(task), Arg::Lock(self.lock)]));
                    self.release(cpu, task, now);
                }
                Prog::Spin { since_ns, .. } => {
                    self.builder.iteration(say(T::ITER_SPIN_LIMIT.id(), &[Arg::Task(task)]));
                    let position = self.queue_position() + 1;
                    let args = [
                        Arg::Task(task),
                        Arg::Ns(now - since_ns),
                        Arg::Lock(self.lock),
                        Arg::Count(position),
                    ];
                    // rwsem_optimistic_spin marks the reader-owned lock RWSEM_NONSPINNABLE.
                    self.extra.nonspinnable = true;
                    self.spin_to_sleep(cpu, task, now, T::WRITE_SPIN_GIVE_UP, &args);
                }
                Prog::Start | Prog::WaitLock => unreachable!("no burst in this state"),
            }
        } else {
            self.builder.iteration(say(T::ITER_SLICE.id(), &[Arg::Task(task)]));
            self.slice_end(cpu, task, now);
        }
    }

    fn slice_end(&mut self, cpu: u16, task: TaskId, now: u64) {
        let slot = usize::from(cpu);
        let slice = Arg::Ns(self.config.timeslice_ns);
        let Some(&next) = self.rr.queued().first() else {
            self.cpus[slot].slice_end_ns = now + self.config.timeslice_ns;
            self.op(
                now,
                Some(task),
                OpKind::Schedule,
                at(text::SCHEDULE, 5),
                T::SLICE_RENEW,
                &[Arg::Task(task), slice],
                &[],
            );
            return;
        };
        if let Prog::Spin { .. } = self.tasks[task.0 as usize].prog {
            // need_resched() ends optimistic spinning; the writer queues and sleeps.
            let position = self.queue_position() + 1;
            let args = [Arg::Task(task), Arg::Lock(self.lock), Arg::Count(position)];
            self.spin_to_sleep(cpu, task, now, T::SPIN_NEED_RESCHED, &args);
            return;
        }
        let remaining = self.tasks[task.0 as usize].burst_end_ns - now;
        self.task(task).remaining_ns = remaining;
        self.task(task).runnable_since_ns = now;
        self.cpus[slot].task = None;
        self.op(
            now,
            Some(task),
            OpKind::Preempt,
            at(text::SCHEDULE, 5),
            T::SLICE_PREEMPT,
            &[Arg::Task(task), slice, Arg::Task(next)],
            &[
                Effect::SetState { task, state: TaskState::Runnable },
                Effect::Count { counter: self.counters.preemptions, delta: 1 },
            ],
        );
        self.rr.enqueue(task, EnqueueReason::SliceExpired, now);
        // A writer spinning on this task stops: its owner is no longer running.
        if self.builder.world().lock(self.lock).writer() == Some(task) {
            self.stop_spinner_owner_off(now);
        }
        self.schedule(cpu, now);
    }

    fn stop_spinner_owner_off(&mut self, now: u64) {
        let Some(spinner) = self.spinner() else { return };
        let cpu = self.state(spinner).cpu().expect("a spinner is on a CPU");
        let position = self.queue_position() + 1;
        let args = [Arg::Task(spinner), Arg::Lock(self.lock), Arg::Count(position)];
        self.spin_to_sleep(cpu, spinner, now, T::WRITE_SPIN_OWNER_OFF, &args);
    }

    /// A spinning writer gives up: it joins the wait queue and sleeps; its CPU reschedules.
    fn spin_to_sleep(&mut self, cpu: u16, task: TaskId, now: u64, template: T, args: &[Arg]) {
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

    fn want_lock(&mut self, cpu: u16, task: TaskId, now: u64) {
        match self.tasks[task.0 as usize].role {
            Role::Reader => self.down_read(cpu, task, now),
            Role::Writer => self.down_write(cpu, task, now),
        }
    }

    fn start_hold(&mut self, cpu: u16, task: TaskId, now: u64, lock_cost_ns: u64) {
        let hold = self.hold_ns(task);
        self.task(task).prog = Prog::Hold;
        self.task(task).burst_end_ns = now + lock_cost_ns + hold;
        let code = at(self.loop_fn(task), 3);
        let args = [Arg::Task(task), Arg::Lock(self.lock), Arg::Ns(hold)];
        let state = TaskState::RunningKernel { cpu };
        self.op(now, Some(task), OpKind::Compute, code, T::HOLD, &args, &[Effect::SetState { task, state }]);
    }

    fn down_read(&mut self, cpu: u16, task: TaskId, now: u64) {
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

    fn down_write(&mut self, cpu: u16, task: TaskId, now: u64) {
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

    fn holders_word(&self) -> Arg {
        let lock = self.builder.world().lock(self.lock);
        match lock.writer() {
            Some(_) => Arg::Word("by a writer"),
            None if lock.readers() > 0 => Arg::Word("by readers"),
            None if lock.handoff => Arg::Word("handed off to the first waiter"),
            None => Arg::Word("free, but others are queued first"),
        }
    }

    /// `rwsem_try_write_lock` for a queued writer that is on a CPU.
    fn retry_write(&mut self, cpu: u16, task: TaskId, now: u64) {
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

    // ---- releasing -------------------------------------------------------------

    fn release(&mut self, cpu: u16, task: TaskId, now: u64) {
        let lock = self.lock;
        let (l, t) = (Arg::Lock(lock), Arg::Task(task));
        let effects = [
            Effect::Release { lock, task },
            Effect::SetState { task, state: TaskState::RunningUser { cpu } },
        ];
        let mut after = self.builder.world().lock(lock).clone();
        after.release(task, now);
        let reader = self.tasks[task.0 as usize].role == Role::Reader;
        if reader && after.readers() == 0 {
            // The last reader out clears RWSEM_NONSPINNABLE.
            self.extra.nonspinnable = false;
        }
        let wakes = if reader { rwsem::up_read_wakes(&after) } else { rwsem::up_write_wakes(&after) };
        let function = if reader { text::UP_READ } else { text::UP_WRITE };
        if wakes {
            let template = if reader { T::UP_READ_WAKE } else { T::UP_WRITE_WAKE };
            self.op(now, Some(task), OpKind::LockRelease, at(function, 3), template, &[t, l], &effects);
            // A spinner on another CPU sees the count drop before any woken task runs.
            self.spinner_check(now);
            self.wake(task, now, true);
        } else if reader {
            let left = Arg::Count(after.readers() as u64);
            self.op(
                now,
                Some(task),
                OpKind::LockRelease,
                at(function, 1),
                T::UP_READ,
                &[t, l, left],
                &effects,
            );
        } else {
            self.op(now, Some(task), OpKind::LockRelease, at(function, 1), T::UP_WRITE, &[t, l], &effects);
        }
        self.spinner_check(now);
        self.start_think(cpu, task, now);
    }

    fn start_think(&mut self, cpu: u16, task: TaskId, now: u64) {
        let think = self.think_ns(task);
        self.task(task).prog = Prog::Think;
        self.task(task).burst_end_ns = now + think;
        let args = [Arg::Task(task), Arg::Ns(think), Arg::Lock(self.lock)];
        let code = at(self.loop_fn(task), 1);
        self.op(
            now,
            Some(task),
            OpKind::Compute,
            code,
            T::THINK,
            &args,
            &[Effect::SetState { task, state: TaskState::RunningUser { cpu } }],
        );
    }

    /// After a release: a spinning writer takes a free lock at once (unless handed
    /// off), or switches to spinning on the readers now holding it.
    fn spinner_check(&mut self, now: u64) {
        let Some(spinner) = self.spinner() else { return };
        let Prog::Spin { since_ns, deadline_ns } = self.tasks[spinner.0 as usize].prog else { return };
        let cpu = self.state(spinner).cpu().expect("a spinner is on a CPU");
        let lock = self.lock;
        let state = self.builder.world().lock(lock);
        if state.is_free() && !state.handoff {
            let waited = now - since_ns;
            self.writer_wait_max_ns = self.writer_wait_max_ns.max(waited);
            let effects = [
                Effect::Acquire { lock, task: spinner, mode: LockMode::Write, waited_ns: waited },
                Effect::Count { counter: self.counters.spin_acquisitions, delta: 1 },
            ];
            let args = [Arg::Task(spinner), Arg::Lock(lock), Arg::Ns(waited)];
            self.op(
                now,
                Some(spinner),
                OpKind::LockGranted,
                at(text::DOWN_WRITE_SLOW, 2),
                T::WRITE_SPIN_GOT,
                &args,
                &effects,
            );
            self.extra.reader_owned_hint = false;
            self.start_hold(cpu, spinner, now, FAST_LOCK_NS);
        } else if let Some(owner) = state.writer() {
            // Another writer got it first: keep spinning while it runs, with no reader deadline.
            if self.state(owner).cpu().is_some() {
                self.task(spinner).prog = Prog::Spin { since_ns, deadline_ns: None };
                self.task(spinner).burst_end_ns = u64::MAX;
            } else {
                self.stop_spinner_owner_off(now);
            }
        } else if state.readers() > 0 && deadline_ns.is_none() {
            let limit = rwsem::reader_spin_threshold_ns(state.readers());
            self.task(spinner).prog = Prog::Spin { since_ns, deadline_ns: Some(now + limit) };
            self.task(spinner).burst_end_ns = now + limit;
        } else if state.handoff {
            let position = self.queue_position() + 1;
            let args = [Arg::Task(spinner), Arg::Lock(lock), Arg::Count(position)];
            self.spin_to_sleep(cpu, spinner, now, T::READ_QUEUE_HANDOFF, &args[..]);
        }
    }

    /// `rwsem_wake` → `rwsem_mark_wake(any)` on behalf of `waker`.
    fn wake(&mut self, waker: TaskId, now: u64, any: bool) {
        let lock = self.lock;
        let state = self.builder.world().lock(lock);
        match rwsem::mark_wake(state, any) {
            Wake::Nobody => {}
            Wake::Writer(writer) => {
                let args = [Arg::Task(waker), Arg::Task(writer)];
                if matches!(self.state(writer), TaskState::BlockedOnLock { .. }) {
                    self.op(
                        now,
                        Some(waker),
                        OpKind::Wake,
                        at(text::MARK_WAKE, 3),
                        T::WAKE_WRITER,
                        &args,
                        &[],
                    );
                    self.make_runnable(writer, now);
                } else {
                    self.op(
                        now,
                        Some(waker),
                        OpKind::Wake,
                        at(text::MARK_WAKE, 3),
                        T::WAKE_WRITER_AGAIN,
                        &args,
                        &[],
                    );
                }
            }
            Wake::Readers(readers) => {
                let mut effects: Vec<Effect> = readers
                    .iter()
                    .map(|&reader| {
                        let since = state.waiters.iter().find(|w| w.task == reader).expect("queued").since_ns;
                        Effect::Acquire { lock, task: reader, mode: LockMode::Read, waited_ns: now - since }
                    })
                    .collect();
                let waits: Vec<(TaskId, u64)> = effects
                    .iter()
                    .map(|effect| match effect {
                        Effect::Acquire { task, waited_ns, .. } => (*task, *waited_ns),
                        _ => unreachable!(),
                    })
                    .collect();
                if state.handoff {
                    effects.push(Effect::SetHandoff { lock, on: false });
                }
                effects.push(Effect::Count { counter: self.counters.reader_batches, delta: 1 });
                effects.push(Effect::Count {
                    counter: self.counters.batched_readers,
                    delta: readers.len() as u64,
                });
                let args = [Arg::Task(waker), Arg::Lock(lock), Arg::Count(readers.len() as u64)];
                self.op(
                    now,
                    Some(waker),
                    OpKind::Wake,
                    at(text::MARK_WAKE, 7),
                    T::WAKE_READERS,
                    &args,
                    &effects,
                );
                self.extra.reader_owned_hint = true;
                for (reader, waited) in waits {
                    let hold = self.hold_ns(reader);
                    let entry = self.task(reader);
                    entry.prog = Prog::Hold;
                    entry.remaining_ns = hold;
                    entry.granted_wait_ns = waited;
                    self.make_runnable(reader, now);
                }
            }
        }
    }

    // ---- scheduling ------------------------------------------------------------

    /// A woken or new task: straight onto an idle CPU, else onto the run queue.
    fn make_runnable(&mut self, task: TaskId, now: u64) {
        self.task(task).runnable_since_ns = now;
        if let Some(cpu) = self.cpus.iter().position(|cpu| cpu.task.is_none()) {
            self.switch_in(cpu as u16, task, now);
            return;
        }
        let template =
            if self.tasks[task.0 as usize].prog == Prog::Start { T::START_WAIT } else { T::WOKEN_RUNNABLE };
        self.op(
            now,
            Some(task),
            OpKind::Schedule,
            at(text::SCHEDULE, 1),
            template,
            &[Arg::Task(task)],
            &[Effect::SetState { task, state: TaskState::Runnable }],
        );
        self.rr.enqueue(task, EnqueueReason::Wakeup, now);
    }

    /// A CPU became free: run the head of the run queue, if any.
    fn schedule(&mut self, cpu: u16, now: u64) {
        assert!(self.cpus[usize::from(cpu)].task.is_none(), "schedule() on a busy CPU");
        if let Some(next) = self.rr.pick_next(cpu, now) {
            self.switch_in(cpu, next, now);
        }
    }

    fn switch_in(&mut self, cpu: u16, task: TaskId, now: u64) {
        let slot = usize::from(cpu);
        self.cpus[slot] = Cpu { task: Some(task), slice_end_ns: now + self.rr.timeslice_ns(task) };
        let was_runnable = self.state(task) == TaskState::Runnable;
        let queued_for = now - self.tasks[task.0 as usize].runnable_since_ns;
        let switch_args = [Arg::Task(task), Arg::Count(u64::from(cpu)), Arg::Ns(queued_for)];
        let switch_text = if queued_for == 0 { T::SWITCH_IN_IDLE } else { T::SWITCH_IN };
        match self.tasks[task.0 as usize].prog {
            Prog::Start => {
                self.start_op(cpu, task, now);
            }
            Prog::Think => {
                let remaining = self.tasks[task.0 as usize].remaining_ns;
                self.task(task).burst_end_ns = now + remaining;
                let state = TaskState::RunningUser { cpu };
                self.op(
                    now,
                    Some(task),
                    OpKind::Schedule,
                    at(text::SCHEDULE, 3),
                    switch_text,
                    &switch_args,
                    &[Effect::SetState { task, state }],
                );
            }
            Prog::Hold => {
                let remaining = self.tasks[task.0 as usize].remaining_ns;
                self.task(task).burst_end_ns = now + remaining;
                let state = TaskState::RunningKernel { cpu };
                let granted = self.tasks[task.0 as usize].granted_wait_ns;
                if granted > 0 || !was_runnable {
                    // A reader granted the lock while asleep runs its hold.
                    self.task(task).granted_wait_ns = 0;
                    let args = [Arg::Task(task), Arg::Lock(self.lock), Arg::Ns(granted)];
                    let code = at(self.loop_fn(task), 3);
                    self.op(
                        now,
                        Some(task),
                        OpKind::Schedule,
                        code,
                        T::GRANTED_RUN,
                        &args,
                        &[Effect::SetState { task, state }],
                    );
                } else {
                    self.op(
                        now,
                        Some(task),
                        OpKind::Schedule,
                        at(text::SCHEDULE, 3),
                        switch_text,
                        &switch_args,
                        &[Effect::SetState { task, state }],
                    );
                }
            }
            Prog::WaitLock => {
                // A woken writer runs and retries its lock.
                let state = TaskState::RunningKernel { cpu };
                self.op(
                    now,
                    Some(task),
                    OpKind::Schedule,
                    at(text::SCHEDULE, 3),
                    switch_text,
                    &switch_args,
                    &[Effect::SetState { task, state }],
                );
                self.retry_write(cpu, task, now);
            }
            Prog::Spin { .. } => unreachable!("a spinner never leaves its CPU without queueing"),
        }
    }

    fn start_op(&mut self, cpu: u16, task: TaskId, now: u64) {
        let args = [Arg::Task(task), Arg::Count(u64::from(cpu))];
        let state = TaskState::RunningUser { cpu };
        self.op(
            now,
            Some(task),
            OpKind::Schedule,
            at(self.loop_fn(task), 0),
            T::START,
            &args,
            &[Effect::SetState { task, state }],
        );
        self.start_think(cpu, task, now);
    }

    // ---- results ---------------------------------------------------------------

    fn metrics(&self) -> BTreeMap<String, Metric> {
        let world = self.builder.world();
        let layout = &self.builder.layout;
        let lock = world.lock(self.lock);
        let mut metrics = BTreeMap::new();
        let mut locks = BTreeMap::new();
        let stats = lock.stats;
        let lock_metrics: BTreeMap<String, Metric> = [
            ("acquisitions", Metric::Count(stats.acquisitions)),
            ("contended", Metric::Count(stats.contended)),
            ("wait_total_ns", Metric::Ns(stats.wait_total_ns)),
            ("wait_max_ns", Metric::Ns(stats.wait_max_ns)),
            ("hold_total_ns", Metric::Ns(stats.hold_total_ns)),
        ]
        .into_iter()
        .map(|(key, value)| (key.to_string(), value))
        .collect();
        locks.insert(layout.lock_name(self.lock).to_string(), Metric::Object(lock_metrics));
        metrics.insert("locks".to_string(), Metric::Object(locks));
        metrics.insert("contended".to_string(), Metric::Count(stats.contended));
        metrics.insert("writer_wait_max_ns".to_string(), Metric::Ns(self.writer_wait_max_ns));
        for (name, value) in layout.counters.iter().zip(&world.counters) {
            metrics.insert(name.clone(), Metric::Count(*value));
        }
        let mut tasks = BTreeMap::new();
        for index in 0..world.tasks.len() {
            let id = TaskId(index as u32);
            let times = world.task_times(id);
            let entry: BTreeMap<String, Metric> = [
                ("user_ns", times[0]),
                ("sys_ns", times[1]),
                ("wait_ns", times[2] + times[3]),
                ("runnable_ns", times[2]),
                ("blocked_ns", times[3]),
                ("sleep_ns", times[4]),
            ]
            .into_iter()
            .map(|(key, value)| (key.to_string(), Metric::Ns(value)))
            .collect();
            tasks.insert(layout.task_name(id).to_string(), Metric::Object(entry));
        }
        metrics.insert("tasks".to_string(), Metric::Object(tasks));
        metrics
    }
}
