//! The playground's discrete-event simulation: tasks on CPUs under a
//! round-robin scheduler, one rwsem, every decision taken by `crate::kernel::locks::rwsem`.
//!
//! One iteration is everything that happens at one event (a burst ending, a
//! timeslice ending); its micro-ops are the lock operations, wakeups and
//! context switches that follow. A phase is a stretch in which the lock stays
//! in one mode (free, read-held, write-held).

mod acquire;
mod release;
mod schedule;

use super::text::{self, at, T, TEMPLATES};
use crate::kernel::locks::rwsem::{RwsemExtra, RwsemPolicy};
use crate::kernel::sched::RoundRobin;
use crate::run::builder::{text as say, OpSpec, TraceBuilder};
use crate::run::lock::LockKind;
use crate::run::narration::{Arg, CodeLoc};
use crate::run::params::ParamValues;
use crate::run::rng::Rng;
use crate::run::trace::{Metric, OpKind, Outcome, Run};
use crate::run::world::{CounterId, Effect, GroupId, Layout, LockId, TaskId, TaskState};
use std::collections::BTreeMap;

/// Uncontended `down_read_killable` ≈ 15.13 % and `up_read` ≈ 13.84 % of the
/// ≈112 ns per iteration measured in seed 001 (Mateusz Guzik's profile of the
/// sparse core dump, 30 s / 268,435,456 iterations): ≈17 ns and ≈16 ns.
pub const FAST_LOCK_NS: u64 = 17;
/// Model choice (inference, not measured): the slow path takes the wait_lock,
/// links a waiter and sets a flag: a few cache-line transfers, ≈150 ns.
pub const SLOW_LOCK_NS: u64 = 150;

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
    /// Events taken from the event loop (the run's simulation steps).
    steps: u64,
}

pub(super) struct Finished {
    builder: TraceBuilder,
    outcome: Outcome,
    metrics: BTreeMap<String, Metric>,
    steps: u64,
}

impl Finished {
    pub fn finish(self, id: &'static str, variant: &'static str, seed: u64, params: ParamValues) -> Run {
        let mut run = self.builder.finish(id, variant, seed, params, self.outcome, self.metrics);
        run.simulated_steps = self.steps;
        run
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
        steps: 0,
    };
    let outcome = sim.simulate();
    let metrics = sim.metrics();
    Finished { builder: sim.builder, outcome, metrics, steps: sim.steps }
}

impl Sim<'_> {
    fn simulate(&mut self) -> Outcome {
        // Setting the tasks up is the first step.
        self.steps = 1;
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
        // Bounded: every event advances time or ends a burst, and the budget caps the total.
        loop {
            // Every op is stored here: the storage budget is what stops a huge parameter set.
            if self.builder.storage_full() || self.steps >= crate::run::budget::SIMULATED_STEPS_MAX {
                return Outcome::WorkLimit {
                    at_ns: self.builder.now_ns(),
                    steps: self.steps,
                    budget: "stored steps",
                };
            }
            self.steps += 1;
            let Some((now, cpu)) = self.next_event() else {
                // No CPU has work: everyone sleeps on the lock. One lock cannot form a cycle,
                // so this would be a model bug; report it rather than hang.
                let locks = &self.builder.world().locks;
                return match crate::run::lock::find_deadlock(locks) {
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
