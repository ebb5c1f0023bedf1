//! The Lab's machine: runs a checked [`Program`] on CPUs, event by event. Every
//! decision is taken by the kernel library (`kernel::sched::textbook` for who
//! runs, `kernel::locks` for who gets a lock) and recorded as a step naming the
//! rule and its numbers.
//!
//! One iteration is one instant at which something happens (an arrival, a burst
//! ending, a quantum ending); its micro-ops are the decisions that follow. A phase
//! begins each time a task exits.

mod fair;
mod goodness;
mod locks;
mod metrics;
mod o1;
mod pipes;

use super::lang::ast::{KernelChoice, ResourceKind};
use super::lang::{Instr, Program};
use super::text::{self, at, T, TEMPLATES};
use crate::kernel::locks::rwsem::RwsemExtra;
use crate::kernel::sched::textbook::{Policy, Waiting};
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
    /// Bytes a `send` still has to write after sleeping on a full pipe.
    pipe_left: Option<u64>,
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
    /// A lock's release woke it or granted it the lock.
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
    let pipes = program
        .pipes
        .iter()
        .map(|(name, capacity)| pipes::PipeRt::new(&mut layout, name, *capacity))
        .collect();
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
        steps: 0,
        stopped: None,
        iteration_due: None,
        resume: Vec::new(),
        locks,
        rwsem_extra: vec![RwsemExtra::default(); program.locks.len()],
        sleep_channel,
        counters,
        o1: (program.kernel == KernelChoice::O1).then(|| o1::O1Sched::new(program.tasks.len())),
        fair: (program.kernel == KernelChoice::Eevdf).then(|| fair::FairSched::new(program)),
        good: (program.kernel == KernelChoice::Goodness)
            .then(|| goodness::GoodSched::new(program.tasks.len())),
        pipes,
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
        self.builder.op(OpSpec { at_ns, actor, kind, code, text: say(template.id(), args), effects });
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
                self.rt(task).pc += 1;
                self.advance(task, cpu as u16, now);
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

    // ---- the run queue -------------------------------------------------------------

    /// A task joins the run queue: the kernel's (O(1) arrays, EEVDF, 2.4's list), or the textbook's queue.
    fn make_runnable(&mut self, task: TaskId, why: Why, now: u64) {
        if self.o1.is_some() {
            self.o1_enqueue(task, why, now);
        } else if self.fair.is_some() {
            self.fair_enqueue(task, why, now);
        } else if self.good.is_some() {
            self.good_enqueue(task, why, now);
        } else {
            self.enqueue(task);
        }
    }

    /// Whether a kernel's own scheduler runs the workload (not a textbook policy).
    fn kernel_sched(&self) -> bool {
        self.o1.is_some() || self.fair.is_some() || self.good.is_some()
    }

    /// The kernel's pick for the idle `cpu`, with its narration and pseudocode line.
    fn kernel_pick(&mut self, cpu: u16, now: u64) -> Option<(TaskId, Vec<Arg>, T, CodeLoc)> {
        if self.o1.is_some() {
            let (task, args) = self.o1_pick(cpu, now)?;
            Some((task, args, T::O1_PICK, at(text::O1_SCHEDULE_FN, 3)))
        } else if self.fair.is_some() {
            let (task, args) = self.fair_pick(cpu, now)?;
            Some((task, args, T::FAIR_PICK, at(text::FAIR_SCHEDULE_FN, 2)))
        } else {
            let (task, args) = self.good_pick(cpu, now)?;
            Some((task, args, T::GOOD_PICK, at(text::GOOD_SCHEDULE_FN, 2)))
        }
    }

    fn enqueue(&mut self, task: TaskId) {
        assert!(!self.queue.iter().any(|(queued, _)| *queued == task), "task {} queued twice", task.0);
        self.queue.push((task, self.next_seq));
        self.next_seq += 1;
    }

    /// Tasks ready and off every CPU (the O(1) scheduler keeps the running one queued too).
    fn waiting_count(&self) -> u64 {
        let running = self.cpus.iter().filter(|cpu| cpu.task.is_some()).count();
        let queued = if let Some(sched) = &self.o1 {
            sched.rq.nr_running()
        } else if let Some(sched) = &self.fair {
            sched.rq.nr_queued()
        } else if let Some(sched) = &self.good {
            sched.queue.len()
        } else {
            return self.queue.len() as u64;
        };
        queued.saturating_sub(running) as u64
    }

    fn allowed(&self, task: TaskId, cpu: u16) -> bool {
        self.program.tasks[task.0 as usize].cpu.is_none_or(|pinned| pinned == cpu)
    }

    fn remaining_ns(&self, task: TaskId) -> u64 {
        let demand = self.program.tasks[task.0 as usize].demand_ns;
        if demand == u64::MAX {
            return u64::MAX;
        }
        demand.saturating_sub(self.tasks[task.0 as usize].cpu_used_ns)
    }

    fn waiting(&self, task: TaskId, queued_seq: u64) -> Waiting {
        Waiting {
            task,
            queued_seq,
            remaining_ns: self.remaining_ns(task),
            length_ns: self.program.tasks[task.0 as usize].demand_ns,
        }
    }

    /// The queued tasks that may run on `cpu`, as the policy sees them.
    fn candidates(&self, cpu: u16) -> Vec<Waiting> {
        self.queue
            .iter()
            .filter(|(task, _)| self.allowed(*task, cpu))
            .map(|&(task, seq)| self.waiting(task, seq))
            .collect()
    }

    fn waiting_for(&self, cpu: u16) -> u64 {
        self.queue.iter().filter(|(task, _)| self.allowed(*task, cpu)).count() as u64
    }

    /// Gives every idle CPU a task while any waits, until nothing changes: a task
    /// dispatched may leave at once (it sleeps or blocks), and a spinner granted its
    /// lock continues.
    fn fill_idle_cpus(&mut self, now: u64) {
        loop {
            self.run_resumed(now);
            let dispatched = self.dispatch_to_idle_cpus(now);
            if (!dispatched && self.resume.is_empty()) || self.stopped.is_some() {
                return;
            }
        }
    }

    /// One pass over the CPUs; whether any got a task.
    fn dispatch_to_idle_cpus(&mut self, now: u64) -> bool {
        let mut dispatched = false;
        for cpu in 0..self.cpus.len() as u16 {
            if self.cpus[usize::from(cpu)].task.is_some() || self.stopped.is_some() {
                continue;
            }
            if self.kernel_sched() {
                if self.over_budget() {
                    return false;
                }
                let Some((task, args, template, code)) = self.kernel_pick(cpu, now) else { continue };
                dispatched = true;
                self.dispatch(cpu, task, now, template, code, &args, &[]);
                continue;
            }
            let candidates = self.candidates(cpu);
            let Some(index) = self.policy.pick(&candidates) else { continue };
            if self.over_budget() {
                return false;
            }
            dispatched = true;
            let chosen = candidates[index];
            self.queue.retain(|(task, _)| *task != chosen.task);
            let (template, code, key) = match self.policy {
                Policy::Fifo => (T::PICK_FIFO, at(text::PICK_FIFO_FN, 1), None),
                Policy::Sjf => (T::PICK_SJF, at(text::PICK_SJF_FN, 1), Some(chosen.length_ns)),
                Policy::Stcf => (T::PICK_STCF, at(text::PICK_STCF_FN, 1), Some(chosen.remaining_ns)),
                Policy::RoundRobin { quantum_ns } => (T::PICK_RR, at(text::TICK_RR_FN, 0), Some(quantum_ns)),
            };
            let count = Arg::Count(candidates.len() as u64);
            let args: Vec<Arg> = match key {
                None => vec![Arg::Task(chosen.task), Arg::Count(u64::from(cpu)), count],
                Some(ns) => vec![Arg::Task(chosen.task), Arg::Count(u64::from(cpu)), shown_ns(ns), count],
            };
            self.dispatch(cpu, chosen.task, now, template, code, &args, &[]);
        }
        dispatched
    }

    /// Puts `task` on `cpu` and carries on with its program.
    #[allow(clippy::too_many_arguments)]
    fn dispatch(
        &mut self,
        cpu: u16,
        task: TaskId,
        now: u64,
        template: T,
        code: CodeLoc,
        args: &[Arg],
        before: &[Effect],
    ) {
        let slice_end_ns = if let Some(sched) = &self.o1 {
            sched.next_tick_ns(now)
        } else if let Some(sched) = &self.fair {
            sched.next_tick_ns(now)
        } else if self.good.is_some() {
            goodness::GoodSched::next_tick_ns(now)
        } else {
            now.saturating_add(self.policy.quantum_ns().unwrap_or(u64::MAX))
        };
        let slot = usize::from(cpu);
        self.cpus[slot] = CpuRt { task: Some(task), charged_ns: now, slice_end_ns };
        let rt = self.rt(task);
        rt.switches += 1;
        rt.first_run_ns.get_or_insert(now);
        let state = match self.instr(task) {
            Instr::Run(_) if self.tasks[task.0 as usize].burst_left_ns > 0 => TaskState::RunningUser { cpu },
            _ => TaskState::RunningKernel { cpu },
        };
        let mut effects = before.to_vec();
        effects.push(Effect::SetState { task, state });
        effects.push(Effect::Count { counter: self.counters.switches, delta: 1 });
        self.op(now, Some(task), OpKind::Schedule, code, template, args, &effects);
        if self.tasks[task.0 as usize].burst_left_ns == 0 {
            self.advance(task, cpu, now);
        }
    }

    /// STCF: a queued task with less time left than a running one takes its CPU.
    fn preempt_for_arrivals(&mut self, now: u64) {
        if self.policy != Policy::Stcf {
            return;
        }
        for cpu in 0..self.cpus.len() {
            self.charge(cpu, now);
        }
        // The running task with the most time left is the first to lose its CPU.
        let mut order: Vec<u16> = (0..self.cpus.len() as u16).collect();
        crate::run::sort::sort_by_key(&mut order, |&cpu| {
            let left = self.cpus[usize::from(cpu)].task.map_or(0, |task| self.remaining_ns(task));
            (std::cmp::Reverse(left), cpu)
        });
        for cpu in order {
            let Some(running) = self.cpus[usize::from(cpu)].task else { continue };
            if self.holds_or_spins_on_a_spinlock(running) || self.stopped.is_some() {
                continue;
            }
            let candidates = self.candidates(cpu);
            let Some(index) = self.policy.pick(&candidates) else { continue };
            let chosen = candidates[index];
            self.charge(usize::from(cpu), now);
            let left = self.remaining_ns(running);
            if !self.policy.preempts(&chosen, left) || self.over_budget() {
                continue;
            }
            self.queue.retain(|(task, _)| *task != chosen.task);
            let args = [
                Arg::Task(chosen.task),
                Arg::Count(u64::from(cpu)),
                Arg::Task(running),
                shown_ns(chosen.remaining_ns),
                shown_ns(left),
            ];
            let before = [
                Effect::SetState { task: running, state: TaskState::Runnable },
                Effect::Count { counter: self.counters.preemptions, delta: 1 },
            ];
            self.cpus[usize::from(cpu)].task = None;
            self.enqueue(running);
            self.dispatch(cpu, chosen.task, now, T::STCF_PREEMPT, at(text::PICK_STCF_FN, 3), &args, &before);
        }
    }

    fn leave_cpu(&mut self, cpu: u16) {
        self.cpus[usize::from(cpu)] = CpuRt { task: None, charged_ns: 0, slice_end_ns: u64::MAX };
    }

    // ---- programs ------------------------------------------------------------------

    /// Runs `task`'s program from its current instruction until it takes time or leaves.
    fn advance(&mut self, task: TaskId, cpu: u16, now: u64) {
        loop {
            if self.over_budget() {
                return;
            }
            match self.step(task, cpu, now) {
                Next::Continue => self.rt(task).pc += 1,
                Next::OnCpu => return,
                Next::OffCpu => {
                    if self.cpus[usize::from(cpu)].task == Some(task) {
                        self.leave_cpu(cpu);
                    }
                    if self.state(task) != TaskState::Runnable {
                        self.kernel_dequeue(task, now);
                    }
                    return;
                }
            }
        }
    }

    /// A task asleep, blocked or dead leaves the kernel's run queue.
    fn kernel_dequeue(&mut self, task: TaskId, now: u64) {
        if self.o1.is_some() {
            self.o1_dequeue(task, now);
        } else if self.fair.is_some() {
            self.fair_dequeue(task, now);
        } else if self.good.is_some() {
            self.good_dequeue(task);
        }
    }

    /// Continues the spinners granted a spinlock during the last step.
    fn run_resumed(&mut self, now: u64) {
        while let Some(task) = self.resume.pop() {
            let Some(cpu) = self.state(task).cpu() else { continue };
            self.rt(task).pc += 1;
            self.advance(task, cpu, now);
        }
    }

    fn step(&mut self, task: TaskId, cpu: u16, now: u64) -> Next {
        let instr = self.instr(task);
        let body = |line| at(text::BODY, line);
        match instr {
            Instr::Run(ns) | Instr::Sys(ns) => {
                let user = matches!(instr, Instr::Run(_));
                self.rt(task).burst_left_ns = ns;
                self.cpus[usize::from(cpu)].charged_ns = now;
                let state =
                    if user { TaskState::RunningUser { cpu } } else { TaskState::RunningKernel { cpu } };
                let (template, line, kind) = if user {
                    (T::RUN, text::BODY_RUN, OpKind::Compute)
                } else {
                    (T::SYS, text::BODY_SYS, OpKind::Syscall)
                };
                self.op(
                    now,
                    Some(task),
                    kind,
                    body(line),
                    template,
                    &[Arg::Task(task), Arg::Ns(ns)],
                    &[Effect::SetState { task, state }],
                );
                Next::OnCpu
            }
            Instr::Sleep(ns) => {
                let rt = self.rt(task);
                rt.wake_at_ns = Some(now.saturating_add(ns));
                rt.slept_ns = ns;
                rt.pc += 1;
                let state = TaskState::Sleeping { channel: self.sleep_channel };
                let args = [Arg::Task(task), Arg::Ns(ns), Arg::Count(u64::from(cpu))];
                self.op(
                    now,
                    Some(task),
                    OpKind::Sleep,
                    body(text::BODY_SLEEP),
                    T::SLEEP,
                    &args,
                    &[Effect::SetState { task, state }],
                );
                Next::OffCpu
            }
            Instr::Yield => {
                self.rt(task).pc += 1;
                let effects = [Effect::SetState { task, state: TaskState::Runnable }];
                let (template, code) = if self.o1.is_some() {
                    (T::O1_YIELD, at(text::O1_YIELD_FN, 1))
                } else if self.kernel_sched() {
                    (T::YIELD_CALL, body(text::BODY_YIELD))
                } else {
                    (T::YIELD, body(text::BODY_YIELD))
                };
                self.op(now, Some(task), OpKind::Schedule, code, template, &[Arg::Task(task)], &effects);
                self.leave_cpu(cpu);
                self.make_runnable(task, Why::Yield, now);
                Next::OffCpu
            }
            Instr::Exit => {
                self.exit(task, now);
                Next::OffCpu
            }
            Instr::LoopStart { count, end } => {
                if count == 0 {
                    self.rt(task).pc = end;
                } else {
                    self.rt(task).loops.push(count);
                }
                Next::Continue
            }
            Instr::LoopEnd { start } => {
                let rt = self.rt(task);
                let left = rt.loops.last_mut().expect("a loop's end closes an open loop");
                *left -= 1;
                if *left > 0 {
                    rt.pc = start;
                } else {
                    rt.loops.pop();
                }
                Next::Continue
            }
            Instr::Take { lock, mode } => self.take(task, cpu, now, lock, mode),
            Instr::Give { lock } => {
                self.give(task, now, lock);
                Next::Continue
            }
            Instr::Send { pipe, bytes } => self.send(task, now, pipe, bytes),
            Instr::Recv { pipe, bytes } => self.recv(task, now, pipe, bytes),
        }
    }

    fn exit(&mut self, task: TaskId, now: u64) {
        let arrive = self.program.tasks[task.0 as usize].arrive_ns;
        let rt = self.rt(task);
        rt.exit_ns = Some(now);
        let response = rt.first_run_ns.unwrap_or(now) - arrive;
        let args = [Arg::Task(task), Arg::Ns(now), Arg::Ns(now - arrive), Arg::Ns(response)];
        let effects = [Effect::SetState { task, state: TaskState::Dead }];
        self.op(now, Some(task), OpKind::Exit, at(text::BODY, text::BODY_EXIT), T::EXIT, &args, &effects);
        if self.tasks.iter().any(|task| task.exit_ns.is_none()) {
            self.builder.phase(say(T::PHASE_AFTER_EXIT.id(), &[Arg::Task(task)]));
            self.iteration_due.get_or_insert(now);
        }
    }
}

/// A duration to narrate; an unbounded one (a `forever` task's demand) in words.
fn shown_ns(ns: u64) -> Arg {
    if ns == u64::MAX {
        Arg::Word("no end (it loops forever)")
    } else {
        Arg::Ns(ns)
    }
}
