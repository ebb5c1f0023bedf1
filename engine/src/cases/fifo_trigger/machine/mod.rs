//! The simulated machine of the FIFO case: one or two CPUs, the listener and the
//! writer as small state machines mirroring the seed's C code, the FIFO, and the
//! kernel's scheduler (2.6.1 O(1), 2.4.24 goodness or 6.18 EEVDF, in `fair.rs`),
//! driven by timer ticks.
//!
//! Nothing here is scripted: who runs next follows only from the scheduler's
//! rules, the pipe's rules and the programs. The machine reports what happens
//! as [`Ev`]s to a sink; the trace layer turns them into steps.
//!
//! Timing model: each program step (a system call, or the busy loop) takes a
//! fixed cost and takes effect when it completes; a timer tick takes no time. A
//! task in user mode is preempted at the tick or wakeup that asks for it; a task
//! in the kernel only when it leaves the system call (with CONFIG_PREEMPT, at
//! once). A writer spinning on a failing `open()` is summed up in closed form
//! until the next tick that can change anything.
//!
//! What each program step does (the seed's C code: its system calls' effects,
//! its busy loop, its spinning) is in `program.rs`; `schedule()` in `schedule.rs`.

use super::pipe::{Fifo, OpenFile, WriteResult};
use crate::kernel::sched::goodness::{self, GoodTask};
use crate::kernel::sched::o1::{self, Activated, Array, O1Task, RunQueue, TickOutcome, O1};

pub use super::events::*;

mod fair;
mod program;
mod schedule;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Run {
    Running(u16),
    Runnable,
    Sleeping,
}

#[derive(Clone, Debug)]
struct Task {
    step: Step,
    run: Run,
    home_cpu: u16,
    fd: Option<OpenFile>,
    /// The end of the step in progress (while running).
    step_end: u64,
    /// What is left of a step interrupted by preemption.
    remaining_ns: Option<u64>,
    /// A closed-form spin in progress: kind, start, cycle.
    spin: Option<(SpinKind, u64, u64)>,
    time1_ns: u64,
    /// The last step it completed (what a preemption at its end interrupts).
    last_done: Step,
    o1: O1Task,
    good: GoodTask,
    /// Sleeping in select() on the pipe's wait queue.
    waiting: bool,
}

#[derive(Clone, Debug, Default)]
struct Cpu {
    current: Option<usize>,
    need_resched: bool,
    why: Option<SwitchWhy>,
    rq: Option<RunQueue>,
    /// 2.4's run queue, in list order (new arrivals last).
    queue: Vec<usize>,
    last_ran: Option<usize>,
    /// When schedule() last ran here (2.4 SMP's `last_schedule(cpu)`).
    last_schedule_ns: u64,
    /// 6.18's EEVDF run queue.
    fair: Option<crate::kernel::sched::eevdf::RunQueue>,
    /// When the running task was last charged (update_curr's `exec_start`).
    exec_start_ns: u64,
}

pub struct Machine<'c> {
    config: &'c Config,
    o1: O1,
    now: u64,
    next_tick: u64,
    tasks: [Task; 2],
    cpus: Vec<Cpu>,
    pub fifo: Fifo,
    pub writes: Vec<WriteRecord>,
    pub preemptions_in_write: u64,
    /// Slices the listener spent spinning (select kept returning at once) to their end.
    pub listener_spin_slices: u64,
    pub switches: u64,
    /// Steps of the event loop so far (the pass's work).
    pub steps: u64,
    /// Where the work budget stopped the pass, and which budget ran out.
    pub stopped: Option<(u64, &'static str)>,
    listener_spun_this_slice: bool,
    writer_started: bool,
}

/// The shell's slice left at the first fork, and the first slices of the listener
/// and the writer, in jiffies (2.6). copy_process shares the shell's remaining
/// slice with each child: the listener first, then the writer from what the shell
/// kept (the shell only sleeps at its prompt in between, so its slice does not move).
pub fn forked_slices(config: &Config) -> [u64; 3] {
    let o1 = O1::new(config.hz);
    let shell = (config.shell_slice_ns / config.tick_ns()).clamp(1, o1.max_timeslice());
    let (listener, kept) = O1Task::fork_slice(shell);
    let (writer, _) = O1Task::fork_slice(kept);
    [shell, listener, writer]
}

impl<'c> Machine<'c> {
    pub fn new(config: &'c Config) -> Machine<'c> {
        assert!((1..=2).contains(&config.cpus), "one or two CPUs");
        let o1 = O1::new(config.hz);
        let [_, listener_slice, writer_slice] = forked_slices(config);
        let task = |step, nice, home_cpu, slice| Task {
            step,
            run: Run::Runnable,
            home_cpu,
            fd: None,
            step_end: 0,
            remaining_ns: None,
            spin: None,
            time1_ns: 0,
            last_done: step,
            // Both programs are forked by a shell: they inherit 95 % of its bonus and
            // share its slice (parameters: the shell's state is not in the report).
            o1: O1Task { time_slice: slice, ..O1Task::forked(&o1, nice, 0, config.parent_bonus) },
            good: GoodTask::forked(nice, config.hz),
            waiting: false,
        };
        let tasks = [
            task(Step::ListenerOpen, config.listener_nice, 0, listener_slice),
            task(Step::WriterOpen, config.writer_nice, config.cpus - 1, writer_slice),
        ];
        let cpus = (0..config.cpus)
            .map(|_| Cpu {
                rq: (config.kernel == Kernel::O1).then(RunQueue::new),
                fair: (config.kernel == Kernel::Eevdf).then(|| Self::fair_queue(config)),
                ..Cpu::default()
            })
            .collect();
        Machine {
            config,
            o1,
            now: 0,
            next_tick: config.tick_ns(),
            tasks,
            cpus,
            fifo: Fifo::with_capacity(config.pipe_capacity),
            writes: Vec::new(),
            preemptions_in_write: 0,
            listener_spin_slices: 0,
            switches: 0,
            steps: 0,
            stopped: None,
            listener_spun_this_slice: false,
            writer_started: false,
        }
    }

    pub fn now(&self) -> u64 {
        self.now
    }

    pub fn snap(&self, task: usize) -> SchedSnap {
        let t = &self.tasks[task];
        match self.config.kernel {
            Kernel::O1 => {
                let rq = self.cpus[usize::from(t.home_cpu)].rq.as_ref().expect("O(1) run queue");
                let array = match rq.find(crate::run::world::TaskId(task as u32)) {
                    None => 0,
                    Some((Array::Active, _)) => 1,
                    Some((Array::Expired, _)) => 2,
                };
                SchedSnap {
                    prio: t.o1.prio,
                    static_prio: t.o1.static_prio,
                    sleep_avg_ns: t.o1.sleep_avg_ns,
                    bonus: self.o1.current_bonus(t.o1.sleep_avg_ns),
                    interactive: t.o1.interactive(),
                    credit: t.o1.interactive_credit,
                    slice_left: t.o1.time_slice,
                    array,
                    fair: None,
                }
            }
            Kernel::Goodness => SchedSnap {
                prio: o1::static_prio(t.good.nice),
                static_prio: o1::static_prio(t.good.nice),
                sleep_avg_ns: 0,
                bonus: 0,
                interactive: false,
                credit: 0,
                slice_left: t.good.counter.max(0) as u64,
                array: u8::from(self.cpus[usize::from(t.home_cpu)].queue.contains(&task)),
                fair: None,
            },
            Kernel::Eevdf => self.fair_snap(task),
        }
    }

    fn snaps(&self) -> [SchedSnap; 2] {
        [self.snap(0), self.snap(1)]
    }

    fn id(task: usize) -> crate::run::world::TaskId {
        crate::run::world::TaskId(task as u32)
    }

    /// Runs to `duration_ns` (or to the work budget: see `stopped`), reporting
    /// every event to `sink`.
    pub fn run(&mut self, sink: &mut impl Sink) {
        // The listener starts first; the writer joins at writer_start_ns.
        self.tasks[WRITER].run = Run::Sleeping;
        let cpu = usize::from(self.tasks[LISTENER].home_cpu);
        match self.config.kernel {
            Kernel::O1 => {
                let prio = self.tasks[LISTENER].o1.prio;
                self.cpus[cpu].rq.as_mut().expect("rq").enqueue(Array::Active, Self::id(LISTENER), prio);
            }
            Kernel::Goodness => self.cpus[cpu].queue.push(LISTENER),
            Kernel::Eevdf => {
                self.fair_enqueue(cpu as u16, LISTENER, crate::kernel::sched::eevdf::Enqueue::Initial);
            }
        }
        for cpu in 0..self.cpus.len() {
            self.schedule(cpu as u16, SwitchWhy::Idle, sink);
        }
        // Bounded: every iteration advances time or completes a step, steps take time,
        // and the work budget caps the count whatever the parameters.
        loop {
            if self.steps >= self.config.steps_max || self.writes.len() >= self.config.writes_max {
                let budget =
                    if self.steps >= self.config.steps_max { "simulation steps" } else { "kept writes" };
                self.stopped = Some((self.now, budget));
                return;
            }
            self.steps += 1;
            let step_end = self
                .cpus
                .iter()
                .enumerate()
                .filter_map(|(cpu, c)| c.current.map(|task| (self.tasks[task].step_end, cpu)))
                .min();
            let tick = self.next_tick;
            if self.tasks[WRITER].run == Run::Sleeping && !self.writer_started {
                let start = self.config.writer_start_ns;
                if start <= tick && step_end.is_none_or(|(end, _)| start <= end) {
                    self.now = start;
                    self.writer_started = true;
                    self.start_writer(sink);
                    continue;
                }
            }
            match step_end {
                // A step ending on a tick completes first: a spin planned up to the tick
                // must not have its last cycle straddle the tick's event.
                Some((end, cpu)) if end <= tick => {
                    if end >= self.config.duration_ns {
                        break;
                    }
                    assert!(end >= self.now, "time went backwards");
                    self.now = end;
                    self.complete_step(cpu as u16, sink);
                }
                _ => {
                    if tick >= self.config.duration_ns {
                        break;
                    }
                    self.now = tick;
                    self.next_tick += self.config.tick_ns();
                    for cpu in 0..self.cpus.len() {
                        self.tick(cpu as u16, sink);
                    }
                }
            }
        }
        self.now = self.config.duration_ns;
    }

    /// The timer tick on `cpu`.
    fn tick(&mut self, cpu: u16, sink: &mut impl Sink) {
        let Some(task) = self.cpus[usize::from(cpu)].current else { return };
        let now = self.now;
        let resched = match self.config.kernel {
            Kernel::O1 => {
                let cpus = u64::from(self.config.cpus);
                let o1 = self.o1;
                let c = &mut self.cpus[usize::from(cpu)];
                let outcome =
                    c.rq.as_mut().expect("rq").tick(&o1, Self::id(task), &mut self.tasks[task].o1, now, cpus);
                match outcome {
                    TickOutcome::Continue => None,
                    TickOutcome::NotYetOff => Some(SwitchWhy::SliceEnd),
                    TickOutcome::Requeued => {
                        self.flush_spins(sink);
                        sink.event(Ev::Tick { at: now, cpu, task, outcome, snap: self.snap(task) });
                        Some(SwitchWhy::Requeue)
                    }
                    _ => {
                        self.flush_spins(sink);
                        sink.event(Ev::Tick { at: now, cpu, task, outcome, snap: self.snap(task) });
                        Some(SwitchWhy::SliceEnd)
                    }
                }
            }
            // Neither has arrays: a tick either ends the slice or does nothing visible.
            Kernel::Eevdf | Kernel::Goodness => {
                let slice_over = if self.config.kernel == Kernel::Eevdf {
                    self.fair_tick(cpu)
                } else {
                    self.tasks[task].good.tick()
                };
                if slice_over {
                    self.flush_spins(sink);
                    let outcome = TickOutcome::ExpiredToExpired { starving: false };
                    sink.event(Ev::Tick { at: now, cpu, task, outcome, snap: self.snap(task) });
                    Some(SwitchWhy::SliceEnd)
                } else {
                    None
                }
            }
        };
        if let Some(why) = resched {
            if task == LISTENER && matches!(why, SwitchWhy::SliceEnd) && self.listener_spun_this_slice {
                self.listener_spin_slices += 1;
            }
            self.request_resched(cpu, why, sink);
        }
    }

    /// The shell starts the writer (`wake_up_forked_process`): a new task, runnable at once.
    fn start_writer(&mut self, sink: &mut impl Sink) {
        let now = self.now;
        let cpu = self.tasks[WRITER].home_cpu;
        let c = usize::from(cpu);
        self.tasks[WRITER].run = Run::Runnable;
        self.tasks[WRITER].o1.timestamp_ns = now;
        match self.config.kernel {
            Kernel::O1 => {
                let prio = self.tasks[WRITER].o1.prio;
                self.cpus[c].rq.as_mut().expect("rq").enqueue(Array::Active, Self::id(WRITER), prio);
            }
            Kernel::Goodness => self.cpus[c].queue.push(WRITER),
            Kernel::Eevdf => {
                let preempts = self.fair_enqueue(cpu, WRITER, crate::kernel::sched::eevdf::Enqueue::Initial);
                if preempts && self.cpus[c].current.is_some() {
                    self.request_resched(cpu, SwitchWhy::Preempted, sink);
                }
            }
        }
        if self.cpus[c].current.is_none() {
            self.schedule(cpu, SwitchWhy::Idle, sink);
        }
    }

    fn emit_spin(
        &mut self,
        task: usize,
        kind: SpinKind,
        start: u64,
        count: u64,
        cycle: u64,
        sink: &mut impl Sink,
    ) {
        if kind == SpinKind::Again {
            // Every cycle opened and closed the write end once.
            let info = self.fifo.pipe.as_mut().expect("the listener holds the pipe");
            info.w_counter += count;
        }
        sink.event(Ev::Spin { at: start, task, kind, count, cycle_ns: cycle });
    }

    /// Reports the cycles of every spin in progress that completed before now, so
    /// that an event now comes after them; the spin goes on from the last boundary.
    fn flush_spins(&mut self, sink: &mut impl Sink) {
        self.flush_spins_except(None, sink);
    }

    /// As `flush_spins`, leaving `except`'s spin alone (it is completing now).
    fn flush_spins_except(&mut self, except: Option<u16>, sink: &mut impl Sink) {
        let now = self.now;
        for cpu in 0..self.cpus.len() {
            if except == Some(cpu as u16) {
                continue;
            }
            let Some(task) = self.cpus[cpu].current else { continue };
            let Some((kind, start, cycle)) = self.tasks[task].spin else { continue };
            let total = (self.tasks[task].step_end - start) / cycle;
            let done = ((now - start) / cycle).min(total - 1);
            if done >= 1 {
                self.emit_spin(task, kind, start, done, cycle, sink);
                self.tasks[task].spin = Some((kind, start + done * cycle, cycle));
            }
        }
    }

    /// Sets need_resched on `cpu` and preempts at once where the running task can be preempted.
    fn request_resched(&mut self, cpu: u16, why: SwitchWhy, sink: &mut impl Sink) {
        let c = &mut self.cpus[usize::from(cpu)];
        c.need_resched = true;
        if c.why.is_none() || why == SwitchWhy::Preempted {
            c.why = Some(why);
        }
        let Some(task) = c.current else { return };
        let now = self.now;
        let t = &mut self.tasks[task];
        if let Some((kind, start, cycle)) = t.spin {
            // A spinning writer leaves the kernel at the end of the open() in progress.
            let done = (now - start).div_ceil(cycle).max(1);
            t.step_end = start + done * cycle;
            let _ = kind;
            return;
        }
        if t.step.user_mode() || self.config.preempt {
            if t.step_end > now {
                t.remaining_ns = Some(t.step_end - now);
            }
            self.schedule(cpu, why, sink);
        }
    }

    /// Wakes `task` (sleeping in select) on behalf of `by`.
    fn wake(&mut self, task: usize, by: usize, why: WakeBy, sink: &mut impl Sink) {
        if !self.tasks[task].waiting {
            return;
        }
        self.tasks[task].waiting = false;
        assert_eq!(self.tasks[task].run, Run::Sleeping);
        self.tasks[task].run = Run::Runnable;
        let now = self.now;
        let cpu = self.tasks[task].home_cpu;
        let c = usize::from(cpu);
        let current = self.cpus[c].current;
        let (credit, preempts) = match self.config.kernel {
            Kernel::O1 => {
                let o1 = self.o1;
                let credit = self.tasks[task].o1.wake(&o1, now);
                let prio = self.tasks[task].o1.prio;
                self.cpus[c].rq.as_mut().expect("rq").enqueue(Array::Active, Self::id(task), prio);
                let preempts = current.is_none_or(|cur| o1::wakeup_preempts(prio, self.tasks[cur].o1.prio));
                (Some(credit), preempts)
            }
            Kernel::Eevdf => {
                (None, self.fair_enqueue(cpu, task, crate::kernel::sched::eevdf::Enqueue::Wakeup))
            }
            Kernel::Goodness if self.cpus.len() > 1 => {
                // SMP reschedule_idle: the task's last CPU, if idle, else the longest-idle
                // CPU, else preemption_goodness. Each program has its own CPU here, so its
                // CPU is idle whenever it sleeps and the first rule always decides.
                self.cpus[c].queue.push(task);
                let seen: Vec<goodness::CpuSeen<'_>> = self
                    .cpus
                    .iter()
                    .map(|cpu| goodness::CpuSeen {
                        current: cpu.current.map(|t| &self.tasks[t].good),
                        last_schedule_ns: cpu.last_schedule_ns,
                        allowed: true,
                    })
                    .collect();
                let decision = goodness::reschedule_idle_smp(&self.tasks[task].good, c, &seen);
                debug_assert_eq!(decision, goodness::SmpWake::Idle(c), "one program per CPU");
                let preempts =
                    matches!(decision, goodness::SmpWake::Idle(d) | goodness::SmpWake::Preempt(d) if d == c);
                (None, preempts)
            }
            Kernel::Goodness => {
                // add_to_runqueue is list_add_tail in 2.4.24.
                self.cpus[c].queue.push(task);
                let preempts = current.is_none_or(|cur| {
                    goodness::wakeup_preempts(&self.tasks[task].good, &self.tasks[cur].good)
                });
                (None, preempts)
            }
        };
        sink.event(Ev::Wake { at: now, task, by, why, credit, preempts, snap: self.snap(task) });
        if preempts {
            if current.is_none() {
                self.schedule(cpu, SwitchWhy::Idle, sink);
            } else if current != Some(by) {
                self.request_resched(cpu, SwitchWhy::Preempted, sink);
            } else {
                // The waker is the running task: it is preempted when it leaves the kernel.
                let c = &mut self.cpus[c];
                c.need_resched = true;
                c.why = Some(SwitchWhy::Preempted);
            }
        }
    }

    /// Completes the step of the task running on `cpu`, then continues or reschedules.
    fn complete_step(&mut self, cpu: u16, sink: &mut impl Sink) {
        let task = self.cpus[usize::from(cpu)].current.expect("a running task");
        let now = self.now;
        // Another CPU's spin may have cycles up to now: they come first.
        if self.cpus.len() > 1 {
            self.flush_spins_except(Some(cpu), sink);
        }
        if let Some((kind, start, cycle)) = self.tasks[task].spin.take() {
            let count = (now - start) / cycle;
            assert!(count >= 1 && start + count * cycle == now, "a spin ends on a cycle boundary");
            self.emit_spin(task, kind, start, count, cycle, sink);
            self.after_step(cpu, task, sink);
            return;
        }
        let step = self.tasks[task].step;
        let (outcome, next, wakes) = self.effect(task, step);
        self.tasks[task].step = next;
        self.tasks[task].last_done = step;
        sink.event(Ev::Step { at: now, task, step, outcome, next });
        // The step's wakeup is its last act: report it after the step.
        if let Some(why) = wakes {
            self.wake(LISTENER, task, why, sink);
        }
        if let Outcome::Select { readable: false, .. } = outcome {
            // Nothing to read and no hangup: sleep on the pipe's wait queue.
            self.tasks[task].waiting = true;
            self.tasks[task].run = Run::Sleeping;
            self.tasks[task].step = Step::ListenerSelect;
            sink.event(Ev::Sleep { at: now, task, snap: self.snap(task) });
            self.schedule(cpu, SwitchWhy::Sleep, sink);
            return;
        }
        self.after_step(cpu, task, sink);
    }

    fn after_step(&mut self, cpu: u16, task: usize, sink: &mut impl Sink) {
        let c = &self.cpus[usize::from(cpu)];
        if c.need_resched {
            let why = c.why.unwrap_or(SwitchWhy::Preempted);
            if why == SwitchWhy::Preempted && task == WRITER && self.tasks[task].step == Step::WriterTime2 {
                self.preemptions_in_write += 1;
            }
            self.schedule(cpu, why, sink);
        } else {
            self.begin_step(task);
        }
    }

    /// The first tick from now at which the scheduler would ask `task` to reschedule.
    fn next_resched_tick(&self, task: usize) -> u64 {
        let tick = self.config.tick_ns();
        let t = &self.tasks[task];
        let ticks = match self.config.kernel {
            Kernel::Eevdf => return self.fair_resched_tick(task),
            Kernel::Goodness => t.good.counter.max(1) as u64,
            Kernel::O1 => {
                let rq = self.cpus[usize::from(t.home_cpu)].rq.as_ref().expect("rq");
                if !matches!(rq.find(Self::id(task)), Some((Array::Active, _))) {
                    // Expired but still running: the very next tick reschedules.
                    return self.next_tick;
                }
                t.o1.ticks_until_resched(&self.o1, u64::from(self.config.cpus))
            }
        };
        self.next_tick + (ticks - 1) * tick
    }
}
