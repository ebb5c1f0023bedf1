//! The Lab's machine: runs a checked [`Program`] on CPUs, event by event. Every
//! decision is taken by the kernel library (`kernel::sched::*` for who runs,
//! `kernel::locks` for who gets a lock) and recorded as a step naming the rule and
//! its numbers. This file is the event loop: timers, bursts and quanta ending, the
//! end of the run; the run queue is in `dispatch.rs`, a task's program in
//! `program.rs`, each kernel's scheduler in its own file.
//!
//! One iteration is one instant at which something happens (an arrival, a burst
//! ending, a quantum ending); its micro-ops are the decisions that follow. A phase
//! begins each time a task exits.

mod dispatch;
mod fair;
mod goodness;
mod locks;
mod metrics;
mod o1;
mod pipes;
mod program;
mod shown;

use super::lang::ast::{KernelChoice, ResourceKind};
use super::lang::{Instr, Program};
use super::text::{self, at, T, TEMPLATES};
use crate::kernel::locks::rwsem::RwsemExtra;
use crate::kernel::sched::textbook::Policy;
use crate::run::builder::{text as say, OpSpec, TraceBuilder};
use crate::run::lock::LockKind;
use crate::run::narration::{Arg, CodeLoc};
use crate::run::trace::{Metric, OpKind, Outcome};
use crate::run::world::{ChannelId, CounterId, Effect, Layout, LockId, TaskId, TaskState};
use std::collections::BTreeMap;

/// A task's progress through its program, beside what the world records.
#[derive(Clone, Debug, Default)]
struct TaskRt {
    pc: usize,
    /// Iterations left of each open loop, innermost last.
    loops: Vec<u64>,
    /// What is left of the current `run` or `sys`.
    burst_left_ns: u64,
    cpu_used_ns: u64,
    first_run_ns: Option<u64>,
    exit_ns: Option<u64>,
    /// When it arrives or wakes from a sleep.
    wake_at_ns: Option<u64>,
    slept_ns: u64,
    /// A woken lock waiter that must retry its `Take` when it runs.
    retry: bool,
    switches: u64,
    lock_wait_ns: u64,
    /// A `send` or `recv` that sleeps on a pipe, to go on with when woken.
    pipe_call: Option<pipes::PipeCall>,
    /// The `lockcost` owed for the lock it has just taken itself.
    lock_cost_ns: u64,
}

#[derive(Clone, Copy, Debug)]
struct CpuRt {
    task: Option<TaskId>,
    /// When the running task's time was last charged.
    charged_ns: u64,
    slice_end_ns: u64,
}

/// What a step of a program left the task doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// Took no time: go on to the next instruction.
    Continue,
    /// Still on its CPU (a burst, or spinning).
    OnCpu,
    /// Off its CPU (asleep, blocked, queued, gone).
    OffCpu,
}

/// Why a task joins the run queue (the O(1) scheduler credits each differently).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Why {
    Arrive,
    /// A sleep's timer: a wakeup from interrupt context.
    Timer,
    /// A lock's release woke it or granted it the lock, or a pipe's reader or writer woke it.
    Lock,
    Yield,
    /// It lost its CPU (a quantum, a preemption).
    Preempted,
}

struct Counters {
    switches: CounterId,
    preemptions: CounterId,
}

pub(super) struct Sim<'p> {
    program: &'p Program,
    policy: Policy,
    pub(super) builder: TraceBuilder,
    tasks: Vec<TaskRt>,
    cpus: Vec<CpuRt>,
    /// The run queue: each task with the sequence number it joined with.
    queue: Vec<(TaskId, u64)>,
    next_seq: u64,
    /// Under a textbook policy, the tasks an op made runnable that have not joined the
    /// queue yet, in order: each joins right after its op (or after the CPUs it woke
    /// are given tasks), and the op already shows them there (`shown.rs`).
    joining: Vec<TaskId>,
    steps: u64,
    stopped: Option<Outcome>,
    /// The instant whose iteration opens with the next op.
    iteration_due: Option<u64>,
    /// Spinners granted their lock, to continue after the step that granted it.
    resume: Vec<TaskId>,
    locks: Vec<LockId>,
    rwsem_extra: Vec<RwsemExtra>,
    sleep_channel: ChannelId,
    counters: Counters,
    /// The O(1) scheduler's state, when the workload runs on it.
    o1: Option<o1::O1Sched>,
    /// EEVDF's run queue, when the workload runs on it.
    fair: Option<fair::FairSched>,
    /// 2.4's run queue and counters, when the workload runs on it.
    good: Option<goodness::GoodSched>,
    pipes: Vec<pipes::PipeRt>,
    /// Each task's place in its kernel's run-queue structure (or its policy's
    /// queue) as last recorded (`shown.rs`).
    shown: Vec<shown::Place>,
}

/// The policy a kernel choice runs (`check.rs` refuses the kernels not built yet).
pub(super) fn policy_of(program: &Program) -> Policy {
    match program.kernel {
        KernelChoice::Sjf => Policy::Sjf,
        KernelChoice::Stcf => Policy::Stcf,
        KernelChoice::Rr { .. } => Policy::RoundRobin { quantum_ns: program.quantum_ns() },
        KernelChoice::Fifo | KernelChoice::O1 | KernelChoice::Eevdf | KernelChoice::Goodness => Policy::Fifo,
    }
}

pub(super) struct Finished {
    pub builder: TraceBuilder,
    pub outcome: Outcome,
    pub metrics: BTreeMap<String, Metric>,
    pub steps: u64,
}

pub(super) fn run(program: &Program) -> Finished {
    let mut layout = Layout::new(program.cpus);
    shown::add(
        &mut layout,
        match program.kernel {
            KernelChoice::O1 => shown::O1_GAUGES,
            KernelChoice::Eevdf => shown::EEVDF_GAUGES,
            KernelChoice::Goodness => shown::GOOD_GAUGES,
            KernelChoice::Fifo => shown::FIFO_GAUGES,
            KernelChoice::Sjf => shown::SJF_GAUGES,
            KernelChoice::Stcf => shown::STCF_GAUGES,
            KernelChoice::Rr { .. } => shown::RR_GAUGES,
        },
    );
    let group = layout.add_group("workload");
    for task in &program.tasks {
        layout.add_task(task.name.clone(), group);
    }
    let locks = program
        .locks
        .iter()
        .map(|(name, kind)| {
            let kind = match kind {
                ResourceKind::Mutex => LockKind::Mutex,
                ResourceKind::Spinlock => LockKind::Spinlock,
                ResourceKind::Rwsem => LockKind::RwSem,
                ResourceKind::Pipe => unreachable!("check.rs keeps pipes out of the locks"),
            };
            layout.add_lock(name.clone(), kind)
        })
        .collect();
    let counters = Counters {
        switches: layout.add_counter("context_switches"),
        preemptions: layout.add_counter("preemptions"),
    };
    let sleep_channel = layout.add_channel("sleep");
    let pipes = (0..program.pipes.len()).map(|pipe| pipes::PipeRt::new(&mut layout, program, pipe)).collect();
    let mut sim = Sim {
        program,
        policy: policy_of(program),
        builder: TraceBuilder::new(layout, TEMPLATES, text::CODE),
        tasks: program
            .tasks
            .iter()
            .map(|task| TaskRt { wake_at_ns: Some(task.arrive_ns), ..TaskRt::default() })
            .collect(),
        cpus: vec![CpuRt { task: None, charged_ns: 0, slice_end_ns: u64::MAX }; usize::from(program.cpus)],
        queue: Vec::new(),
        next_seq: 0,
        joining: Vec::new(),
        steps: 0,
        stopped: None,
        iteration_due: None,
        resume: Vec::new(),
        locks,
        rwsem_extra: vec![RwsemExtra::default(); program.locks.len()],
        sleep_channel,
        counters,
        o1: (program.kernel == KernelChoice::O1).then(|| {
            o1::O1Sched::new(program.tasks.len(), program.hz.unwrap_or(o1::HZ), program.cpus.into())
        }),
        fair: (program.kernel == KernelChoice::Eevdf).then(|| fair::FairSched::new(program)),
        good: (program.kernel == KernelChoice::Goodness).then(|| {
            let hz = program.hz.unwrap_or(goodness::HZ);
            goodness::GoodSched::new(program.tasks.len(), hz, program.cpus.into())
        }),
        pipes,
        shown: vec![[0; 4]; program.tasks.len()],
    };
    let outcome = sim.simulate();
    let metrics = sim.metrics();
    Finished { builder: sim.builder, outcome, metrics, steps: sim.steps }
}

impl Sim<'_> {
    fn simulate(&mut self) -> Outcome {
        self.builder.phase(say(T::PHASE_START.id(), &[]));
        loop {
            if let Some(outcome) = self.stopped.take() {
                return outcome;
            }
            let Some(now) = self.next_event_ns() else { return self.nothing_left() };
            if now > self.program.until_ns {
                let end = self.program.until_ns;
                self.iteration_due = Some(end);
                self.name_stalls(end, false);
                self.op(end, None, OpKind::Note, at(text::BODY, 0), T::END_TIME, &[Arg::Ns(end)], &[]);
                return Outcome::TimeLimit;
            }
            self.iteration_due = Some(now);
            self.timers(now);
            self.cpu_events(now);
            self.preempt_for_arrivals(now);
            self.fill_idle_cpus(now);
        }
    }

    /// No event is left: every task has exited, or those left wait for what no
    /// task will do (a pipe nobody serves, a lock held by such a waiter): a stall.
    fn nothing_left(&mut self) -> Outcome {
        let now = self.builder.now_ns();
        let live = self.tasks.iter().filter(|task| task.exit_ns.is_none()).count() as u64;
        self.iteration_due = Some(now);
        if live == 0 {
            self.op(now, None, OpKind::Note, at(text::BODY, 5), T::END_DONE, &[Arg::Ns(now)], &[]);
            return Outcome::Completed;
        }
        let named = self.name_stalls(now, true);
        debug_assert_eq!(named, live, "every task left waits on a pipe or a lock");
        self.op(
            now,
            None,
            OpKind::Deadlock,
            at(text::DEADLOCK_FN, 1),
            T::END_STALL,
            &[Arg::Count(live)],
            &[],
        );
        Outcome::Stalled { at_ns: now, tasks: live }
    }

    /// Whether the run must stop storing and simulating (`run::budget`).
    fn over_budget(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        self.steps += 1;
        if self.builder.storage_full() || self.steps >= crate::run::budget::SIMULATED_STEPS_MAX {
            self.stopped = Some(Outcome::WorkLimit {
                at_ns: self.builder.now_ns(),
                steps: self.steps,
                budget: "stored steps",
            });
            return true;
        }
        false
    }

    // ---- recording ---------------------------------------------------------------

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
        if let Some(when) = self.iteration_due.take() {
            self.builder.iteration(say(T::ITER_AT.id(), &[Arg::Ns(when)]));
        }
        // The kernel's run-queue structure as this decision left it, for the stage.
        if !self.kernel_sched() {
            self.note_joining(effects);
        }
        let gauges = self.queue_gauges();
        let effects: std::borrow::Cow<'_, [Effect]> = if gauges.is_empty() {
            std::borrow::Cow::Borrowed(effects)
        } else {
            std::borrow::Cow::Owned(effects.iter().copied().chain(gauges).collect())
        };
        self.builder.op(OpSpec {
            at_ns,
            actor,
            kind,
            code,
            text: say(template.id(), args),
            effects: &effects,
        });
    }

    fn state(&self, task: TaskId) -> TaskState {
        self.builder.world().tasks[task.0 as usize].state
    }

    fn rt(&mut self, task: TaskId) -> &mut TaskRt {
        &mut self.tasks[task.0 as usize]
    }

    fn instr(&self, task: TaskId) -> Instr {
        let code = &self.program.tasks[task.0 as usize].code;
        code.get(self.tasks[task.0 as usize].pc).copied().unwrap_or(Instr::Exit)
    }

    // ---- events ------------------------------------------------------------------

    fn cpu_event_ns(&self, cpu: usize) -> Option<u64> {
        let state = self.cpus[cpu];
        let task = state.task?;
        let spinning = matches!(self.state(task), TaskState::Spinning { .. });
        let burst_end =
            if spinning { u64::MAX } else { state.charged_ns + self.tasks[task.0 as usize].burst_left_ns };
        let end = burst_end.min(state.slice_end_ns);
        (end != u64::MAX).then_some(end)
    }

    fn next_event_ns(&self) -> Option<u64> {
        let timers = self.tasks.iter().filter_map(|task| task.wake_at_ns);
        let cpus = (0..self.cpus.len()).filter_map(|cpu| self.cpu_event_ns(cpu));
        timers.chain(cpus).min()
    }

    /// Arrivals and wakeups due now, in task order: each joins the run queue.
    fn timers(&mut self, now: u64) {
        for index in 0..self.tasks.len() {
            let task = TaskId(index as u32);
            if self.tasks[index].wake_at_ns != Some(now) || self.over_budget() {
                continue;
            }
            self.tasks[index].wake_at_ns = None;
            let arriving = self.state(task) == TaskState::New;
            let waiting = self.waiting_count();
            let effects = [Effect::SetState { task, state: TaskState::Runnable }];
            if arriving {
                self.op(
                    now,
                    Some(task),
                    OpKind::Wake,
                    at(text::BODY, 0),
                    T::ARRIVE,
                    &[Arg::Task(task), Arg::Count(waiting)],
                    &effects,
                );
            } else {
                let slept = Arg::Ns(self.tasks[index].slept_ns);
                let args = [Arg::Task(task), slept, Arg::Count(waiting)];
                self.op(
                    now,
                    Some(task),
                    OpKind::Wake,
                    at(text::BODY, text::BODY_SLEEP),
                    T::WAKE,
                    &args,
                    &effects,
                );
            }
            self.make_runnable(task, if arriving { Why::Arrive } else { Why::Timer }, now);
        }
    }

    /// Bursts and quanta ending now, in CPU order.
    fn cpu_events(&mut self, now: u64) {
        for cpu in 0..self.cpus.len() {
            if self.cpu_event_ns(cpu) != Some(now) || self.stopped.is_some() {
                continue;
            }
            let task = self.cpus[cpu].task.expect("an event comes from a busy CPU");
            self.charge(cpu, now);
            if self.tasks[task.0 as usize].burst_left_ns == 0
                && !matches!(self.state(task), TaskState::Spinning { .. })
            {
                let syscall_ends = matches!(self.state(task), TaskState::RunningKernel { .. });
                self.rt(task).pc += 1;
                self.advance(task, cpu as u16, now);
                if syscall_ends && self.good.is_some() {
                    self.good_syscall_return(cpu as u16, task, now);
                }
            }
            if self.cpus[cpu].task == Some(task) && self.cpus[cpu].slice_end_ns <= now {
                self.quantum_end(cpu as u16, task, now);
            }
            // A spinner granted its lock goes on before its own CPU is looked at.
            self.run_resumed(now);
        }
    }

    /// Charges the running task's CPU time up to `now`.
    fn charge(&mut self, cpu: usize, now: u64) {
        let Some(task) = self.cpus[cpu].task else { return };
        let elapsed = now - self.cpus[cpu].charged_ns;
        self.cpus[cpu].charged_ns = now;
        let spinning = matches!(self.state(task), TaskState::Spinning { .. });
        let rt = self.rt(task);
        if !spinning {
            assert!(elapsed <= rt.burst_left_ns, "a burst runs past its end");
            rt.burst_left_ns -= elapsed;
            rt.cpu_used_ns += elapsed;
        }
    }

    fn holds_or_spins_on_a_spinlock(&self, task: TaskId) -> bool {
        let world = self.builder.world();
        matches!(self.state(task), TaskState::Spinning { .. })
            || world.locks.iter().any(|lock| lock.kind == LockKind::Spinlock && lock.holds(task))
    }

    fn quantum_end(&mut self, cpu: u16, task: TaskId, now: u64) {
        if self.over_budget() {
            return;
        }
        if self.o1.is_some() {
            self.o1_tick(cpu, task, now);
            return;
        }
        if self.fair.is_some() {
            self.fair_tick(cpu, task, now);
            return;
        }
        if self.good.is_some() {
            self.good_tick(cpu, task, now);
            return;
        }
        let quantum_ns = self.policy.quantum_ns().unwrap_or(u64::MAX);
        let loc = at(text::TICK_RR_FN, 2);
        let args = [Arg::Task(task), Arg::Ns(quantum_ns), Arg::Count(self.waiting_for(cpu))];
        if self.holds_or_spins_on_a_spinlock(task) {
            self.cpus[usize::from(cpu)].slice_end_ns = now.saturating_add(quantum_ns);
            self.op(now, Some(task), OpKind::Schedule, loc, T::QUANTUM_ATOMIC, &args, &[]);
        } else if self.policy.requeue_at_quantum_end(self.waiting_for(cpu) as usize) {
            let effects = [
                Effect::SetState { task, state: TaskState::Runnable },
                Effect::Count { counter: self.counters.preemptions, delta: 1 },
            ];
            self.op(now, Some(task), OpKind::Preempt, loc, T::QUANTUM_REQUEUE, &args, &effects);
            self.leave_cpu(cpu);
            self.make_runnable(task, Why::Preempted, now);
        } else {
            self.cpus[usize::from(cpu)].slice_end_ns = now.saturating_add(quantum_ns);
            self.op(
                now,
                Some(task),
                OpKind::Schedule,
                at(text::TICK_RR_FN, 3),
                T::QUANTUM_RENEW,
                &args[..2],
                &[],
            );
        }
    }
}
