//! The machine: one CPU running the seed's program on Linux 2.6.14's rules.
//!
//! `main` and N threads are step machines mirroring the seed's C; the O(1)
//! scheduler is `kernel::sched::o1` with the 2.6.8+ rules; the signal code
//! (group stop, `get_signal_to_deliver`, `do_coredump`, `coredump_wait`,
//! `zap_threads`, `exit_mm`) is modelled here, step by step. A thread that
//! spins in user mode or loops in the kernel between two timer ticks is one
//! closed-form chunk, recorded as a repeat block (one round of its loop per
//! iteration); everything that decides something (a tick, a wakeup, a
//! `schedule()`, the yield, an array swap, a kill, an exit) is an op of its own.

mod dump;
mod exit;
mod mmap;
mod program;
mod sched;
mod shape;
pub mod sig;
mod signals;
mod smp;
mod spin;
mod xcpu;

use sched::Wake;
pub(super) use shape::{Shape, ShapeNames, SHAPE_2005};

use super::text::{self, at, T};
use super::{Config, Variant, COSTS};
use crate::kernel::sched::o1::{wakeup_preempts, Activated, Array, O1Task, RunQueue, TickOutcome, O1};
use crate::run::builder::{text as txt, OpSpec, TraceBuilder};
use crate::run::lock::{LockKind, LockMode};
use crate::run::narration::{Arg, CodeLoc};
use crate::run::trace::OpKind;
use crate::run::world::{ChannelId, CounterId, Effect, Layout, LockId, TaskId, TaskState};
use std::collections::{BTreeSet, VecDeque};

/// Repeat blocks × tasks beyond which the trace stops: each repeat carries a world
/// delta of every task; this bounds the deltas' memory at large N. (The run's
/// storage budget, `run::budget`, bounds ops, blocks and checkpoint copies; the
/// machine still runs to the end, so every metric covers the whole run.)
pub const MAX_CHECKPOINT_TASKS: u64 = 1_000_000;

/// Simulated-time cap: every valid setting ends far earlier (N = 4,096 in the
/// stall takes about an hour of simulated time); a safety net, reported as StepLimit.
pub const MAX_SIM_NS: u64 = 400 * 3_600 * 1_000_000_000;

pub const MAIN: usize = 0;
/// The most CPUs a machine has (the `cpus` parameter's maximum).
pub const CPUS_MAX: usize = 4;

pub mod gauge {
    pub const SLEEP_AVG: u8 = 0;
    pub const PRIO: u8 = 1;
    /// 0 not queued, 1 active array, 2 expired array.
    pub const ARRAY: u8 = 2;
    /// Enqueue sequence number: orders tasks within one priority list.
    pub const SEQ: u8 = 3;
    pub const SIGPENDING: u8 = 4;
    pub const SLICE: u8 = 5;
    /// See [`super::Doing`] as a number.
    pub const DOING: u8 = 6;
    /// The CPU whose run queue holds the task.
    pub const CPU: u8 = 7;
    /// The signal number the task dequeued last (0: none): why a thread waits on mmap_sem.
    pub const DEQUEUED: u8 = 8;
}

/// What a task is doing, as the stage shows it (gauge `DOING`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Doing {
    NotStarted = 0,
    User = 1,
    SignalLoop = 2,
    Asleep = 3,
    Dumper = 4,
    Exiting = 5,
    Dead = 6,
    Stopped = 7,
    /// Asleep in `down_write(&mm->mmap_sem)` in `do_coredump`, behind the dumper.
    BlockedDumper = 8,
    /// Asleep in `down_read(&mm->mmap_sem)` in `exit_mm`, behind the dumper.
    BlockedExit = 9,
}

/// What a task does next when it has the CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Act {
    MainSetup,
    MainCreate(u32),
    MainPause,
    ThreadStart,
    PauseCall,
    Spin,
    Loop,
    /// Back from an interrupt or a wakeup with TIF_SIGPENDING: do_notify_resume.
    SigEntry,
    DumperDequeue,
    DumpLock,
    DumpSetExit,
    DumpWait,
    Zap,
    DumpResume,
    KillExit,
    /// Granted mmap_sem for writing after the dumper's up_write: do_coredump finds the
    /// mm no longer dumpable and gives up (a second dumper).
    DumpGiveUp,
    /// Granted mmap_sem for reading in exit_mm after the dumper's up_write.
    ExitMmResume,
    Exiting,
    Gone,
}

/// Why a thread sleeps on mmap_sem (TASK_UNINTERRUPTIBLE), and since when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MmapWait {
    /// `do_coredump`'s `down_write`, for the core-dump signal it dequeued.
    Dump { since_ns: u64 },
    /// `exit_mm`'s `down_read`, after a fatal signal without a core dump.
    Exit { since_ns: u64 },
}

#[derive(Clone, Debug)]
struct Task {
    o1: O1Task,
    act: Act,
    /// Position in the user loop's round (0..period): user first, then times().
    pos_ns: u64,
    tif_sigpending: bool,
    sigkill: bool,
    user_ns: u64,
    sys_ns: u64,
    sleeping: bool,
    stopped: bool,
    seq: u64,
    /// A pending usleep() timer: when it fires.
    timer: Option<u64>,
    /// pthread_create has run for it (main: always).
    created: bool,
    /// The CPU whose run queue holds it (`task_cpu(p)`).
    cpu: usize,
    /// Asleep on mmap_sem, and why.
    mmap_wait: Option<MmapWait>,
    /// The signal it dequeued last (0: none).
    dequeued: u32,
}

/// One CPU: its O(1) run queue, what runs on it, and its need_resched flag.
#[derive(Clone, Debug)]
struct Cpu {
    rq: RunQueue,
    current: Option<usize>,
    need_resched: bool,
}

/// Everything the stage and the tests read besides the trace.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub signal_ns: u64,
    pub yield_ns: Option<u64>,
    pub swap_ns: Vec<u64>,
    pub zap_ns: Option<u64>,
    pub last_exit_ns: u64,
    pub siglock_acquisitions: u64,
    pub group_stop_loops: u64,
    pub slices_before_swap: u64,
    pub requeued_active: u64,
    pub context_switches: u64,
    /// siglock acquisitions that spun first (two or more CPUs in the loop), and
    /// the time spent spinning: total and longest.
    pub siglock_contended: u64,
    pub siglock_wait_ns: u64,
    pub siglock_wait_max_ns: u64,
    /// Tasks pulled to another CPU by the load balancer.
    pub migrations: u64,
    /// Stretches where spinners and looping threads ran side by side on different
    /// CPUs (drawn without the spinners' times() calls; none in the shipped variants).
    pub mixed_stretches: u64,
    pub truncated: bool,
    pub completed: bool,
    /// Turns of the machine's event loop (the run's simulation steps).
    pub steps: u64,
    /// Where the work budget (`run::budget`) stopped the machine, if it did.
    pub work_limited_at_ns: Option<u64>,
    /// The signal that started the dump or the kill (SIGXCPU when the CPU limit came first).
    pub first_signal: &'static str,
    /// When each SIGXCPU was sent (check_process_timers at a tick).
    pub sigxcpu_ns: Vec<u64>,
    /// Threads that dequeued a core-dump signal during the stall and slept in
    /// do_coredump's down_write behind the dumper.
    pub blocked_dumpers: u64,
    /// The first tick after the dumper's yield at which EXPIRED_STARVING held.
    pub starving_ns: Option<u64>,
}

pub struct Machine<'c> {
    cfg: &'c Config,
    o1: O1,
    cpus: Vec<Cpu>,
    tasks: Vec<Task>,
    now: u64,
    next_tick: u64,
    tick_ns: u64,
    timers: BTreeSet<(u64, usize)>,
    exact_wake: Option<(u64, usize)>,
    signal_sent: bool,
    group_stop_count: u64,
    group_exit: bool,
    group_exit_task: Option<usize>,
    /// The shared pending set (`signal->shared_pending`): one bit per signal number.
    shared_pending: u32,
    /// The task that dumps core (the group_exit_task it was): main for a signal from
    /// the terminal, the thread on the CPU for a SIGXCPU that comes first.
    dumper: usize,
    /// `mm->dumpable`: cleared by the dumper in do_coredump before coredump_wait.
    dumpable: bool,
    /// Threads asleep on mmap_sem, in arrival order (the rwsem's FIFO of waiters).
    mmap_queue: VecDeque<usize>,
    /// Threads granted mmap_sem for reading after the dumper's up_write, not yet done with it.
    mmap_readers: u64,
    /// The process's CPU time (user + sys of every thread, the dead ones too), exact.
    cpu_total_ns: u64,
    /// `rlim[RLIMIT_CPU].rlim_cur` in seconds, raised by one at each SIGXCPU.
    rlimit_cur_s: Option<u64>,
    core_waiters: u64,
    alive: usize,
    seq: u64,
    slices_counting: bool,
    pub out: Outcome,
    pub b: TraceBuilder,
    recording: bool,
    repeats: u64,
    /// The ids of the process's locks, wait channels and counters in the layout.
    shape: Shape,
}

fn id(task: usize) -> TaskId {
    TaskId(task as u32)
}

impl<'c> Machine<'c> {
    pub fn new(cfg: &'c Config) -> Machine<'c> {
        assert!((1..=CPUS_MAX).contains(&(cfg.cpus as usize)), "1 to {CPUS_MAX} CPUs");
        let (layout, shape) = Shape::new(cfg, &SHAPE_2005);
        let o1 = O1::v2_6_14(cfg.hz);
        let tasks = (0..=cfg.threads as usize)
            .map(|k| Task {
                o1: O1Task::new(&o1, cfg.nice, 0),
                act: if k == MAIN { Act::MainSetup } else { Act::ThreadStart },
                pos_ns: 0,
                tif_sigpending: false,
                sigkill: false,
                user_ns: 0,
                sys_ns: 0,
                sleeping: true,
                stopped: false,
                seq: 0,
                timer: None,
                created: k == MAIN,
                cpu: 0,
                mmap_wait: None,
                dequeued: 0,
            })
            .collect();
        let b = TraceBuilder::new(layout, text::TEMPLATES, text::CODE);
        Machine {
            cfg,
            o1,
            cpus: vec![Cpu { rq: RunQueue::new(), current: None, need_resched: false }; cfg.cpus as usize],
            tasks,
            now: 0,
            next_tick: o1.tick_ns(),
            tick_ns: o1.tick_ns(),
            timers: BTreeSet::new(),
            exact_wake: None,
            signal_sent: false,
            group_stop_count: 0,
            group_exit: false,
            group_exit_task: None,
            shared_pending: 0,
            dumper: MAIN,
            dumpable: cfg.dumpable,
            mmap_queue: VecDeque::new(),
            mmap_readers: 0,
            cpu_total_ns: 0,
            rlimit_cur_s: None,
            core_waiters: 0,
            alive: 1,
            seq: 0,
            slices_counting: false,
            out: Outcome::default(),
            b,
            recording: true,
            repeats: 0,
            shape,
        }
    }

    pub fn user_sys(&self, task: usize) -> (u64, u64) {
        (self.tasks[task].user_ns, self.tasks[task].sys_ns)
    }

    pub fn tasks(&self) -> usize {
        self.tasks.len()
    }

    pub fn now(&self) -> u64 {
        self.now
    }

    // ----- recording -----

    fn rec_on(&mut self) -> bool {
        let copies = self.repeats * 2 * self.tasks.len() as u64;
        if self.recording && (self.b.storage_full() || copies >= MAX_CHECKPOINT_TASKS) {
            self.recording = false;
            self.out.truncated = true;
        }
        self.recording
    }

    fn phase(&mut self, t: T, args: &[Arg]) {
        if self.rec_on() {
            self.b.phase(txt(t.id(), args));
        }
    }

    fn iter(&mut self, t: T, args: &[Arg]) {
        if self.rec_on() {
            self.b.iteration(txt(t.id(), args));
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn op(
        &mut self,
        at_ns: u64,
        actor: Option<usize>,
        kind: OpKind,
        code: CodeLoc,
        t: T,
        args: &[Arg],
        effects: &[Effect],
    ) {
        if self.recording {
            self.b.op(OpSpec { at_ns, actor: actor.map(id), kind, code, text: txt(t.id(), args), effects });
        }
    }

    /// A kernel step of `task` costs `ns`: the clock moves on and the time is the task's
    /// sys time. The other CPUs stand still meanwhile, their tasks charged in the mode
    /// they are shown in (model choice, see `smp.rs`).
    fn charge_sys(&mut self, task: usize, ns: u64) {
        self.freeze_others(task, ns);
        self.now += ns;
        self.add_time(task, 0, ns);
    }

    /// Charges `task` user and sys time; the process's CPU clock (RLIMIT_CPU's) counts both.
    fn add_time(&mut self, task: usize, user_ns: u64, sys_ns: u64) {
        self.tasks[task].user_ns += user_ns;
        self.tasks[task].sys_ns += sys_ns;
        self.cpu_total_ns += user_ns + sys_ns;
    }

    /// The CPU `task` is queued on.
    fn cpu_of(&self, task: usize) -> usize {
        self.tasks[task].cpu
    }

    fn rq(&self, task: usize) -> &RunQueue {
        &self.cpus[self.tasks[task].cpu].rq
    }

    fn rq_mut(&mut self, task: usize) -> &mut RunQueue {
        let cpu = self.tasks[task].cpu;
        &mut self.cpus[cpu].rq
    }

    /// `set_tsk_need_resched` on the CPU of `task`.
    fn resched(&mut self, task: usize) {
        let cpu = self.tasks[task].cpu;
        self.cpus[cpu].need_resched = true;
    }

    /// The state of a task running in the kernel on its CPU.
    fn kernel_state(&self, task: usize) -> TaskState {
        TaskState::RunningKernel { cpu: self.tasks[task].cpu as u16 }
    }

    /// `spin_lock_irq(siglock)` … `spin_unlock_irq` by `task` with nobody waiting:
    /// the two effects of an uncontended siglock section.
    fn siglock_section(&self, task: TaskId) -> [Effect; 2] {
        [
            Effect::Acquire { lock: self.shape.siglock, task, mode: LockMode::Write, waited_ns: 0 },
            Effect::Release { lock: self.shape.siglock, task },
        ]
    }

    /// The effect that shows `task` in `state`, unless it already is.
    fn state(&self, task: usize, state: TaskState) -> Option<Effect> {
        let shown = self.b.world().tasks[task].state;
        (self.recording && shown != state).then_some(Effect::SetState { task: id(task), state })
    }

    /// Gauges that show a task's scheduler state now.
    fn gauges(&self, task: usize, doing: Doing) -> Vec<Effect> {
        let t = &self.tasks[task];
        let (array, _) = match self.rq(task).find(id(task)) {
            Some((Array::Active, p)) => (1, p),
            Some((Array::Expired, p)) => (2, p),
            None => (0, 0),
        };
        let tid = id(task);
        vec![
            Effect::Gauge { task: tid, gauge: gauge::SLEEP_AVG, value: t.o1.sleep_avg_ns as i64 },
            Effect::Gauge { task: tid, gauge: gauge::PRIO, value: i64::from(t.o1.prio) },
            Effect::Gauge { task: tid, gauge: gauge::ARRAY, value: array },
            Effect::Gauge { task: tid, gauge: gauge::SEQ, value: t.seq as i64 },
            Effect::Gauge { task: tid, gauge: gauge::SIGPENDING, value: i64::from(t.tif_sigpending) },
            Effect::Gauge { task: tid, gauge: gauge::SLICE, value: t.o1.time_slice as i64 },
            Effect::Gauge { task: tid, gauge: gauge::DOING, value: doing as i64 },
            Effect::Gauge { task: tid, gauge: gauge::CPU, value: t.cpu as i64 },
            Effect::Gauge { task: tid, gauge: gauge::DEQUEUED, value: i64::from(t.dequeued) },
        ]
    }

    fn doing(&self, task: usize) -> Doing {
        let t = &self.tasks[task];
        match t.mmap_wait {
            Some(MmapWait::Dump { .. }) => return Doing::BlockedDumper,
            Some(MmapWait::Exit { .. }) => return Doing::BlockedExit,
            None => {}
        }
        match t.act {
            Act::Gone => Doing::Dead,
            Act::Exiting | Act::KillExit => Doing::Exiting,
            _ if t.stopped => Doing::Stopped,
            _ if t.sleeping && task != MAIN && matches!(t.act, Act::ThreadStart) => Doing::NotStarted,
            Act::Loop => Doing::SignalLoop,
            Act::DumpLock
            | Act::DumpSetExit
            | Act::DumpWait
            | Act::Zap
            | Act::DumpResume
            | Act::DumperDequeue => Doing::Dumper,
            _ if t.sleeping => Doing::Asleep,
            Act::SigEntry if self.group_exit && self.group_stop_count > 0 => Doing::SignalLoop,
            _ => Doing::User,
        }
    }

    fn enqueue(&mut self, task: usize, array: Array) {
        self.seq += 1;
        self.tasks[task].seq = self.seq;
        let prio = self.tasks[task].o1.prio;
        self.rq_mut(task).enqueue(array, id(task), prio);
    }

    // ----- the run -----

    pub fn run(&mut self) {
        self.phase(T::PHASE_START, &[Arg::Count(u64::from(self.cfg.threads))]);
        // main: a child of a shell that had just woken from a long sleep (just
        // interactive: 900 ms, bonus 9): CHILD_PENALTY gives it 9 × 95 / 100 = 8
        // whole bonus steps, 800 ms, and half of the shell's slice (model choice).
        let bonus = 9;
        let mut main = O1Task::forked(&self.o1, self.cfg.nice, 0, bonus);
        main.prio = self.o1.effective_prio(main.static_prio, main.sleep_avg_ns);
        self.tasks[MAIN].o1 = main;
        self.tasks[MAIN].sleeping = false;
        self.enqueue(MAIN, Array::Active);
        self.cpus[0].need_resched = true;
        loop {
            if self.alive == 0 {
                self.out.completed = true;
                break;
            }
            if self.now > MAX_SIM_NS {
                self.out.truncated = true;
                break;
            }
            if self.out.steps >= crate::run::budget::SIMULATED_STEPS_MAX {
                self.out.work_limited_at_ns = Some(self.now);
                break;
            }
            // A step visits every CPU (its tick, its schedule): the work budget counts
            // each, so that four CPUs cannot do four times the budget's work.
            self.out.steps += self.cpus.len() as u64;
            if !self.signal_sent && self.now >= self.cfg.signal_at_ns {
                self.send_signal();
            }
            if let Some((when, task)) = self.exact_wake {
                if self.now >= when {
                    self.exact_wake = None;
                    self.wake(task, when, Wake::ChildExit);
                }
            }
            while self.now >= self.next_tick {
                let tick = self.next_tick;
                for cpu in 0..self.cpus.len() {
                    self.tick(cpu, tick);
                    self.check_process_timers(cpu);
                }
                self.fire_timers(tick);
                self.rebalance_idle();
                self.next_tick += self.tick_ns;
            }
            for cpu in 0..self.cpus.len() {
                if self.cpus[cpu].need_resched || self.cpus[cpu].current.is_none() {
                    self.schedule(cpu);
                }
            }
            // Kernel steps run one at a time, lowest CPU first; then every CPU
            // that spins or loops runs on to the next event together.
            // On the stack: this runs once per step, millions of times in a long run.
            let mut on_cpus = [0usize; CPUS_MAX];
            let mut n_running = 0;
            for task in self.cpus.iter().filter_map(|c| c.current) {
                on_cpus[n_running] = task;
                n_running += 1;
            }
            let running = &on_cpus[..n_running];
            if let Some(&task) =
                running.iter().find(|&&t| !matches!(self.tasks[t].act, Act::Spin | Act::Loop))
            {
                let act = self.tasks[task].act;
                self.step(task, act);
            } else {
                match running {
                    [] => self.idle(),
                    [task] => self.run_task(*task),
                    _ => self.stretch(running),
                }
            }
        }
    }

    fn idle(&mut self) {
        let timer = self.timers.iter().next().map(|&(t, _)| t);
        let exact = self.exact_wake.map(|(t, _)| t);
        let signal = (!self.signal_sent).then_some(self.cfg.signal_at_ns);
        let Some(next) = [timer, exact, signal].into_iter().flatten().min() else {
            // Nothing can ever wake anybody: cannot happen in this program; stop safely.
            self.out.truncated = true;
            self.alive = 0;
            return;
        };
        self.iter(T::ITER_IDLE, &[]);
        let e: Vec<Effect> = (0..self.cpus.len()).filter_map(|cpu| self.expired_clock_sync(cpu)).collect();
        self.op(self.now, None, OpKind::Sleep, at(text::SCHEDULE, 3), T::IDLE, &[Arg::Ns(next)], &e);
        self.now = next.max(self.now);
        // The next tick to process is the first one at or after now.
        self.next_tick = self.now.div_ceil(self.tick_ns).max(1) * self.tick_ns;
    }

    fn horizon(&self) -> u64 {
        let mut h = self.next_tick;
        if !self.signal_sent {
            h = h.min(self.cfg.signal_at_ns);
        }
        if let Some((w, _)) = self.exact_wake {
            h = h.min(w);
        }
        h.max(self.now)
    }

    fn run_task(&mut self, task: usize) {
        let act = self.tasks[task].act;
        match act {
            Act::Spin => {
                let end = self.horizon();
                if end > self.now {
                    self.spin(task, end);
                } else {
                    self.now += 1;
                }
            }
            Act::Loop => {
                let end = self.horizon();
                self.signal_loop(task, end.max(self.now + 1));
            }
            _ => self.step(task, act),
        }
    }
}
