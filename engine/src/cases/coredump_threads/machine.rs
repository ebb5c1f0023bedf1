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

use super::text::{self, at, T};
use super::{Config, Variant, COSTS};
use crate::kernel::sched::o1::{wakeup_preempts, Activated, Array, O1Task, RunQueue, TickOutcome, O1};
use crate::run::builder::{text as txt, OpSpec, TraceBuilder};
use crate::run::lock::{LockKind, LockMode};
use crate::run::narration::{Arg, CodeLoc};
use crate::run::trace::OpKind;
use crate::run::world::{ChannelId, CounterId, Effect, Layout, LockId, TaskId, TaskState};
use std::collections::BTreeSet;

/// Repeat blocks × tasks beyond which the trace stops: each repeat carries a world
/// delta of every task; this bounds the deltas' memory at large N. (The run's
/// storage budget, `run::budget`, bounds ops, blocks and checkpoint copies; the
/// machine still runs to the end, so every metric covers the whole run.)
pub const MAX_CHECKPOINT_TASKS: u64 = 1_000_000;

/// Simulated-time cap: every valid setting ends far earlier (N = 4,096 in the
/// stall takes about an hour of simulated time); a safety net, reported as StepLimit.
pub const MAX_SIM_NS: u64 = 400 * 3_600 * 1_000_000_000;

pub const MAIN: usize = 0;

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
    MainSignal,
    DumpLock,
    DumpSetExit,
    DumpWait,
    Zap,
    DumpResume,
    KillExit,
    Exiting,
    Gone,
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
    pub siglock_contended: u64,
    pub group_stop_loops: u64,
    pub slices_before_swap: u64,
    pub requeued_active: u64,
    pub context_switches: u64,
    pub truncated: bool,
    pub completed: bool,
    /// Turns of the machine's event loop (the run's simulation steps).
    pub steps: u64,
    /// Where the work budget (`run::budget`) stopped the machine, if it did.
    pub work_limited_at_ns: Option<u64>,
}

pub struct Machine<'c> {
    cfg: &'c Config,
    o1: O1,
    rq: RunQueue,
    tasks: Vec<Task>,
    now: u64,
    next_tick: u64,
    tick_ns: u64,
    current: Option<usize>,
    need_resched: bool,
    timers: BTreeSet<(u64, usize)>,
    exact_wake: Option<(u64, usize)>,
    signal_sent: bool,
    group_stop_count: u64,
    group_exit: bool,
    group_exit_task: Option<usize>,
    shared_pending: bool,
    core_waiters: u64,
    alive: usize,
    seq: u64,
    slices_counting: bool,
    pub out: Outcome,
    pub b: TraceBuilder,
    recording: bool,
    repeats: u64,
    siglock: LockId,
    mmap_sem: LockId,
    ch_usleep: ChannelId,
    ch_pause: ChannelId,
    ch_system: ChannelId,
    ch_startup: ChannelId,
    ch_core: ChannelId,
    c_stop: CounterId,
    c_exit: CounterId,
    c_loops: CounterId,
    c_swaps: CounterId,
    c_waiters: CounterId,
    c_pending: CounterId,
}

fn id(task: usize) -> TaskId {
    TaskId(task as u32)
}

impl<'c> Machine<'c> {
    pub fn new(cfg: &'c Config) -> Machine<'c> {
        let mut layout = Layout::new(1);
        let group = layout.add_group("thread_share_RLIMIT_CPU");
        layout.add_task("main", group);
        for k in 0..cfg.threads {
            layout.add_task(format!("T{k}"), group);
        }
        let siglock = layout.add_lock("sighand->siglock", LockKind::Spinlock);
        let mmap_sem = layout.add_lock("mm->mmap_sem", LockKind::RwSem);
        for name in ["sleep_avg", "prio", "array", "seq", "TIF_SIGPENDING", "time_slice", "doing"] {
            layout.add_gauge(name);
        }
        let ch_usleep = layout.add_channel("usleep(20000)");
        let ch_pause = layout.add_channel("pause()");
        let ch_system = layout.add_channel("system(\"uname -a; date\")");
        let ch_startup = layout.add_channel("wait_for_completion(startup_done)");
        let ch_core = layout.add_channel("wait_for_completion(core_done)");
        let c_stop = layout.add_counter("group_stop_count");
        let c_exit = layout.add_counter("SIGNAL_GROUP_EXIT");
        let c_loops = layout.add_counter("group_stop_loops");
        let c_swaps = layout.add_counter("array_swaps");
        let c_waiters = layout.add_counter("core_waiters");
        let c_pending = layout.add_counter("shared_pending");
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
            })
            .collect();
        let b = TraceBuilder::new(layout, text::TEMPLATES, text::CODE);
        Machine {
            cfg,
            o1,
            rq: RunQueue::new(),
            tasks,
            now: 0,
            next_tick: o1.tick_ns(),
            tick_ns: o1.tick_ns(),
            current: None,
            need_resched: false,
            timers: BTreeSet::new(),
            exact_wake: None,
            signal_sent: false,
            group_stop_count: 0,
            group_exit: false,
            group_exit_task: None,
            shared_pending: false,
            core_waiters: 0,
            alive: 1,
            seq: 0,
            slices_counting: false,
            out: Outcome::default(),
            b,
            recording: true,
            repeats: 0,
            siglock,
            mmap_sem,
            ch_usleep,
            ch_pause,
            ch_system,
            ch_startup,
            ch_core,
            c_stop,
            c_exit,
            c_loops,
            c_swaps,
            c_waiters,
            c_pending,
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

    /// The effect that shows `task` in `state`, unless it already is.
    fn state(&self, task: usize, state: TaskState) -> Option<Effect> {
        let shown = self.b.world().tasks[task].state;
        (self.recording && shown != state).then_some(Effect::SetState { task: id(task), state })
    }

    /// Gauges that show a task's scheduler state now.
    fn gauges(&self, task: usize, doing: Doing) -> Vec<Effect> {
        let t = &self.tasks[task];
        let (array, _) = match self.rq.find(id(task)) {
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
        ]
    }

    fn doing(&self, task: usize) -> Doing {
        let t = &self.tasks[task];
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
            | Act::MainSignal => Doing::Dumper,
            _ if t.sleeping => Doing::Asleep,
            Act::SigEntry if self.group_exit && self.group_stop_count > 0 => Doing::SignalLoop,
            _ => Doing::User,
        }
    }

    fn enqueue(&mut self, task: usize, array: Array) {
        self.seq += 1;
        self.tasks[task].seq = self.seq;
        let prio = self.tasks[task].o1.prio;
        self.rq.enqueue(array, id(task), prio);
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
        self.need_resched = true;
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
            self.out.steps += 1;
            if !self.signal_sent && self.now >= self.cfg.signal_at_ns {
                self.send_signal();
            }
            if let Some((when, task)) = self.exact_wake {
                if self.now >= when {
                    self.exact_wake = None;
                    self.wake(task, when, false);
                }
            }
            while self.now >= self.next_tick {
                let tick = self.next_tick;
                self.tick(tick);
                self.next_tick += self.tick_ns;
            }
            if self.need_resched || self.current.is_none() {
                self.schedule();
            }
            match self.current {
                None => self.idle(),
                Some(task) => self.run_task(task),
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
        self.op(self.now, None, OpKind::Sleep, at(text::SCHEDULE, 3), T::IDLE, &[Arg::Ns(next)], &[]);
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

    /// Spins in the user loop from now to `end`.
    fn spin(&mut self, task: usize, end: u64) {
        let (lp, tm) = (COSTS.loop_ns, COSTS.times_ns);
        let period = lp + tm;
        let user_before = |x: u64| (x / period) * lp + (x % period).min(lp);
        let p = self.tasks[task].pos_ns;
        let d = end - self.now;
        let user = user_before(p + d) - user_before(p);
        self.tasks[task].user_ns += user;
        self.tasks[task].sys_ns += d - user;
        self.tasks[task].pos_ns = (p + d) % period;
        if self.rec_on() {
            let start = self.now;
            let user_state = TaskState::RunningUser { cpu: 0 };
            let kernel_state = TaskState::RunningKernel { cpu: 0 };
            self.b.iteration(txt(T::ITER_SPIN.id(), &[Arg::Task(id(task))]));
            let first = if p < lp { user_state } else { kernel_state };
            let e: Vec<Effect> = self.state(task, first).into_iter().collect();
            let line = if p < lp { 3 } else { 4 };
            self.op(
                start,
                Some(task),
                OpKind::Compute,
                at(text::TFUNC, line),
                T::SPIN,
                &[Arg::Task(id(task)), Arg::Ns(lp), Arg::Ns(tm)],
                &e,
            );
            let boundary = start + (period - p);
            if p < lp && start + (lp - p) < end {
                let e: Vec<Effect> = vec![Effect::SetState { task: id(task), state: kernel_state }];
                self.op(
                    start + (lp - p),
                    Some(task),
                    OpKind::Syscall,
                    at(text::TFUNC, 4),
                    T::SPIN_TIMES,
                    &[],
                    &e,
                );
            }
            if boundary < end {
                let k = (end - boundary) / period;
                if k >= 1 {
                    self.b.advance_to(boundary);
                    let e_user = [Effect::SetState { task: id(task), state: user_state }];
                    let e_kernel = [Effect::SetState { task: id(task), state: kernel_state }];
                    let template = [
                        OpSpec {
                            at_ns: 0,
                            actor: Some(id(task)),
                            kind: OpKind::Compute,
                            code: at(text::TFUNC, 3),
                            text: txt(T::SPIN_USER.id(), &[]),
                            effects: &e_user,
                        },
                        OpSpec {
                            at_ns: lp,
                            actor: Some(id(task)),
                            kind: OpKind::Syscall,
                            code: at(text::TFUNC, 4),
                            text: txt(T::SPIN_TIMES.id(), &[]),
                            effects: &e_kernel,
                        },
                    ];
                    self.repeats += 1;
                    self.b.repeat(k, period, txt(T::ITER_SPIN.id(), &[Arg::Task(id(task))]), &template);
                }
                let c = boundary + k * period;
                if c < end && self.rec_on() {
                    self.b.iteration(txt(T::ITER_SPIN.id(), &[Arg::Task(id(task))]));
                    let e = [Effect::SetState { task: id(task), state: user_state }];
                    self.op(c, Some(task), OpKind::Compute, at(text::TFUNC, 3), T::SPIN_USER, &[], &e);
                    if c + lp < end {
                        let e = [Effect::SetState { task: id(task), state: kernel_state }];
                        self.op(
                            c + lp,
                            Some(task),
                            OpKind::Syscall,
                            at(text::TFUNC, 4),
                            T::SPIN_TIMES,
                            &[],
                            &e,
                        );
                    }
                }
            }
            self.b.advance_to(end);
        }
        self.now = end;
    }

    /// Loops in get_signal_to_deliver from now until the first turn boundary at or after `horizon`.
    fn signal_loop(&mut self, task: usize, horizon: u64) {
        let turn = COSTS.turn_ns;
        let turns = (horizon - self.now).div_ceil(turn).max(1);
        let end = self.now + turns * turn;
        self.tasks[task].sys_ns += turns * turn;
        self.out.group_stop_loops += turns;
        self.out.siglock_acquisitions += turns;
        if self.rec_on() {
            let start = self.now;
            self.b.iteration(txt(T::ITER_LOOP.id(), &[Arg::Task(id(task))]));
            let e: Vec<Effect> = self.state(task, TaskState::RunningKernel { cpu: 0 }).into_iter().collect();
            self.op(
                start,
                Some(task),
                OpKind::Compute,
                at(text::GSTD, 3),
                T::LOOP,
                &[Arg::Task(id(task)), Arg::Count(self.group_stop_count), Arg::Ns(turn)],
                &e,
            );
            let tid = id(task);
            let acquire =
                [Effect::Acquire { lock: self.siglock, task: tid, mode: LockMode::Write, waited_ns: 0 }];
            let release = [Effect::Release { lock: self.siglock, task: tid }];
            let count = [Effect::Count { counter: self.c_loops, delta: 1 }];
            let template = [
                OpSpec {
                    at_ns: 0,
                    actor: Some(tid),
                    kind: OpKind::LockFast,
                    code: at(text::GSTD, 1),
                    text: txt(T::LOOP_LOCK.id(), &[]),
                    effects: &acquire,
                },
                OpSpec {
                    at_ns: turn / 5,
                    actor: Some(tid),
                    kind: OpKind::Compute,
                    code: at(text::HGS, 4),
                    text: txt(T::LOOP_PUNT.id(), &[]),
                    effects: &[],
                },
                OpSpec {
                    at_ns: 2 * turn / 5,
                    actor: Some(tid),
                    kind: OpKind::Compute,
                    code: at(text::GSTD, 6),
                    text: txt(T::LOOP_NOTHING.id(), &[]),
                    effects: &[],
                },
                OpSpec {
                    at_ns: 3 * turn / 5,
                    actor: Some(tid),
                    kind: OpKind::LockRelease,
                    code: at(text::GSTD, 10),
                    text: txt(T::LOOP_UNLOCK.id(), &[]),
                    effects: &release,
                },
                OpSpec {
                    at_ns: 4 * turn / 5,
                    actor: Some(tid),
                    kind: OpKind::Compute,
                    code: at(text::ENTRY, 6),
                    text: txt(T::LOOP_RECHECK.id(), &[]),
                    effects: &count,
                },
            ];
            self.repeats += 1;
            self.b.repeat(turns, turn, txt(T::ITER_LOOP.id(), &[Arg::Task(id(task))]), &template);
            self.b.advance_to(end);
        }
        self.now = end;
    }

    /// A discrete step of `task`: costs time, then takes effect.
    fn step(&mut self, task: usize, act: Act) {
        let tid = id(task);
        let now = self.now;
        match act {
            Act::MainSetup => {
                let cost = COSTS.main_setup_ns;
                self.tasks[task].sys_ns += cost;
                self.iter(T::ITER_MAIN, &[]);
                let mut e: Vec<Effect> =
                    self.state(task, TaskState::RunningKernel { cpu: 0 }).into_iter().collect();
                e.extend(self.gauges(task, Doing::User));
                let o = &self.tasks[task].o1;
                let args = [
                    Arg::Task(tid),
                    Arg::Ns(o.sleep_avg_ns),
                    Arg::Signed(i64::from(o.prio)),
                    Arg::Ns(COSTS.system_ns),
                ];
                self.op(now, Some(task), OpKind::Compute, at(text::MAIN, 0), T::MAIN_START, &args, &e);
                self.now += cost;
                self.tasks[task].act = Act::MainCreate(0);
                self.exact_wake = Some((self.now + COSTS.system_ns, task));
                self.sleep(task, self.ch_system);
            }
            Act::MainCreate(k) => {
                let cost = COSTS.clone_ns;
                self.tasks[task].sys_ns += cost;
                self.now += cost;
                let child = k as usize + 1;
                // sched_fork / wake_up_new_task (2.6.14): CHILD_PENALTY of the parent's
                // bonus, half the parent's remaining slice, parent keeps whole bonus steps.
                let parent_bonus = self.o1.current_bonus(self.tasks[MAIN].o1.sleep_avg_ns);
                let mut c = O1Task::forked(&self.o1, self.cfg.nice, self.now, parent_bonus);
                c.prio = self.o1.effective_prio(c.static_prio, c.sleep_avg_ns);
                let parent_slice = self.tasks[MAIN].o1.time_slice;
                c.time_slice = (parent_slice + 1) >> 1;
                self.tasks[MAIN].o1.time_slice = parent_slice >> 1;
                self.tasks[MAIN].o1.sleep_avg_ns =
                    parent_bonus as u64 * self.o1.max_sleep_avg() / 10 * self.o1.tick_ns();
                self.tasks[child].o1 = c;
                self.tasks[child].sleeping = false;
                self.tasks[child].created = true;
                self.alive += 1;
                self.enqueue(child, Array::Active);
                if self.rec_on() {
                    self.b.iteration(txt(T::ITER_CREATE.id(), &[Arg::Count(u64::from(k) + 1)]));
                    let mut e: Vec<Effect> = self.state(child, TaskState::Runnable).into_iter().collect();
                    e.extend(self.gauges(child, Doing::NotStarted));
                    e.extend(self.gauges(MAIN, Doing::User));
                    let ct = &self.tasks[child].o1;
                    let args = [
                        Arg::Task(tid),
                        Arg::Task(id(child)),
                        Arg::Ns(ct.sleep_avg_ns),
                        Arg::Count(ct.time_slice),
                        Arg::Signed(i64::from(ct.prio)),
                    ];
                    self.op(now, Some(task), OpKind::Syscall, at(text::MAIN, 3), T::CREATE, &args, &e);
                }
                if self.tasks[MAIN].o1.time_slice == 0 {
                    // sched_fork: "current->time_slice = 1; scheduler_tick()".
                    self.tasks[MAIN].o1.time_slice = 1;
                    let at_ns = self.now;
                    let out = self.rq.tick(&self.o1, tid, &mut self.tasks[MAIN].o1, at_ns, 1);
                    debug_assert!(matches!(
                        out,
                        TickOutcome::ExpiredToActive | TickOutcome::ExpiredToExpired { .. }
                    ));
                    self.need_resched = true;
                    let e = self.gauges(MAIN, Doing::User);
                    self.op(
                        at_ns,
                        Some(task),
                        OpKind::Compute,
                        at(text::TICK, 0),
                        T::CREATE_EXPIRE,
                        &[Arg::Task(tid)],
                        &e,
                    );
                }
                self.tasks[task].act =
                    if k + 1 < self.cfg.threads { Act::MainCreate(k + 1) } else { Act::MainPause };
            }
            Act::MainPause => {
                self.now += COSTS.step_ns;
                self.tasks[task].sys_ns += COSTS.step_ns;
                self.iter(T::ITER_MAIN, &[]);
                self.op(
                    self.now,
                    Some(task),
                    OpKind::Sleep,
                    at(text::MAIN, 4),
                    T::MAIN_PAUSE,
                    &[Arg::Task(tid)],
                    &[],
                );
                self.tasks[task].act = Act::MainSignal;
                self.sleep(task, self.ch_pause);
            }
            Act::ThreadStart => {
                self.now += COSTS.thread_start_ns;
                self.tasks[task].sys_ns += COSTS.thread_start_ns;
                // sys_nanosleep: timespec_to_jiffies rounds 20 ms up, plus one jiffy.
                let jiffies = (20_000_000u64).div_ceil(self.tick_ns) + 1;
                let wake = (self.now / self.tick_ns + jiffies) * self.tick_ns;
                self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
                let e: Vec<Effect> =
                    self.state(task, TaskState::RunningKernel { cpu: 0 }).into_iter().collect();
                self.op(
                    self.now,
                    Some(task),
                    OpKind::Sleep,
                    at(text::TFUNC, 0),
                    T::THREAD_START,
                    &[Arg::Task(tid), Arg::Count(jiffies)],
                    &e,
                );
                self.timers.insert((wake, task));
                self.tasks[task].timer = Some(wake);
                self.tasks[task].act = if self.cfg.spin { Act::Spin } else { Act::PauseCall };
                self.sleep(task, self.ch_usleep);
                if task as u32 == self.cfg.threads && !self.signal_sent {
                    // The last thread is asleep in usleep(): from here on, the threads spin.
                    self.phase(T::PHASE_SPIN, &[]);
                }
            }
            Act::PauseCall => {
                self.now += COSTS.step_ns;
                self.tasks[task].sys_ns += COSTS.step_ns;
                self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
                let e: Vec<Effect> =
                    self.state(task, TaskState::RunningKernel { cpu: 0 }).into_iter().collect();
                self.op(
                    self.now,
                    Some(task),
                    OpKind::Sleep,
                    at(text::TFUNC, 1),
                    T::THREAD_PAUSE,
                    &[Arg::Task(tid)],
                    &e,
                );
                self.tasks[task].act = Act::PauseCall;
                self.sleep(task, self.ch_pause);
            }
            Act::SigEntry => self.sig_entry(task),
            Act::MainSignal => {
                self.now += COSTS.step_ns;
                self.tasks[task].sys_ns += COSTS.step_ns;
                self.out.siglock_acquisitions += 1;
                if self.tasks[task].sigkill {
                    // A plain fatal signal (or not dumpable): SIGKILL is pending.
                    self.tasks[task].act = Act::KillExit;
                    return;
                }
                self.group_exit_task = None;
                self.shared_pending = false;
                self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
                let mut e = vec![
                    Effect::Acquire { lock: self.siglock, task: tid, mode: LockMode::Write, waited_ns: 0 },
                    Effect::Release { lock: self.siglock, task: tid },
                    Effect::Decrease { counter: self.c_pending, delta: 1 },
                ];
                e.extend(self.state(task, TaskState::RunningKernel { cpu: 0 }));
                e.extend(self.gauges(task, Doing::Dumper));
                self.op(
                    now,
                    Some(task),
                    OpKind::Signal,
                    at(text::HGS, 1),
                    T::DEQUEUE_MAIN,
                    &[Arg::Task(tid), Arg::Word(self.cfg.signal)],
                    &e,
                );
                self.tasks[task].act = Act::DumpLock;
            }
            Act::DumpLock => {
                self.now += COSTS.step_ns;
                self.tasks[task].sys_ns += COSTS.step_ns;
                self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
                let e =
                    [Effect::Acquire { lock: self.mmap_sem, task: tid, mode: LockMode::Write, waited_ns: 0 }];
                self.op(
                    now,
                    Some(task),
                    OpKind::LockFast,
                    at(text::COREDUMP, 0),
                    T::COREDUMP_LOCK,
                    &[Arg::Task(tid)],
                    &e,
                );
                if !self.cfg.dumpable {
                    let mut e = vec![
                        Effect::Release { lock: self.mmap_sem, task: tid },
                        Effect::Count { counter: self.c_exit, delta: 1 },
                    ];
                    if self.group_stop_count > 0 {
                        e.push(Effect::Decrease { counter: self.c_stop, delta: self.group_stop_count });
                    }
                    self.op(
                        self.now,
                        Some(task),
                        OpKind::Signal,
                        at(text::COREDUMP, 1),
                        T::NOT_DUMPABLE,
                        &[],
                        &e,
                    );
                    self.zap_others(task, true);
                    self.tasks[task].act = Act::KillExit;
                    self.tasks[task].sigkill = true;
                } else {
                    self.tasks[task].act = Act::DumpSetExit;
                }
            }
            Act::DumpSetExit => {
                self.now += COSTS.step_ns;
                self.tasks[task].sys_ns += COSTS.step_ns;
                self.out.siglock_acquisitions += 1;
                self.group_exit = true;
                self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
                let mut e = vec![
                    Effect::Acquire { lock: self.siglock, task: tid, mode: LockMode::Write, waited_ns: 0 },
                    Effect::Count { counter: self.c_exit, delta: 1 },
                ];
                let template = match self.cfg.variant {
                    Variant::V2_6_18 => T::SET_GROUP_EXIT_ZAP,
                    Variant::ResetGroupStop | Variant::ResetOnly => T::SET_GROUP_EXIT_RESET,
                    _ => T::SET_GROUP_EXIT,
                };
                if self.cfg.variant.resets() && self.group_stop_count > 0 {
                    e.push(Effect::Decrease { counter: self.c_stop, delta: self.group_stop_count });
                    self.group_stop_count = 0;
                }
                e.push(Effect::Release { lock: self.siglock, task: tid });
                self.op(
                    now,
                    Some(task),
                    OpKind::Compute,
                    at(text::COREDUMP, 3),
                    template,
                    &[Arg::Count(self.group_stop_count)],
                    &e,
                );
                if self.cfg.variant == Variant::V2_6_18 {
                    self.zap_others(task, false);
                }
                self.tasks[task].act = Act::DumpWait;
            }
            Act::DumpWait => {
                self.now += COSTS.step_ns;
                self.tasks[task].sys_ns += COSTS.step_ns;
                self.core_waiters = 1;
                self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
                if self.cfg.variant.yields() {
                    self.rq.sched_yield(tid);
                    self.seq += 1;
                    self.tasks[task].seq = self.seq;
                    self.out.yield_ns = Some(now);
                    self.slices_counting = true;
                    let ahead = self.rq.arrays().0.len() as u64;
                    let mut e = vec![Effect::Count { counter: self.c_waiters, delta: 1 }];
                    e.extend(self.gauges(task, Doing::Dumper));
                    let args =
                        [Arg::Task(tid), Arg::Signed(i64::from(self.tasks[task].o1.prio)), Arg::Count(ahead)];
                    self.op(now, Some(task), OpKind::Milestone, at(text::CDWAIT, 1), T::YIELD, &args, &e);
                    self.phase(T::PHASE_STALL, &[]);
                    self.need_resched = true;
                } else {
                    let e = [Effect::Count { counter: self.c_waiters, delta: 1 }];
                    self.op(now, Some(task), OpKind::Compute, at(text::CDWAIT, 0), T::NO_YIELD, &[], &e);
                }
                self.tasks[task].act = Act::Zap;
            }
            Act::Zap => {
                self.phase(T::PHASE_ZAP, &[]);
                self.out.zap_ns = Some(now);
                let others = (1..self.tasks.len()).filter(|&t| self.live(t)).count() as u64;
                if self.cfg.variant != Variant::V2_6_18 {
                    self.zap_others(task, false);
                }
                self.core_waiters += others;
                let cost = COSTS.zap_per_thread_ns * others.max(1);
                self.now += cost;
                self.tasks[task].sys_ns += cost;
                self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
                // --core_waiters: main's own count.
                self.core_waiters -= 1;
                let mut e = vec![Effect::Count { counter: self.c_waiters, delta: others }];
                e.push(Effect::Decrease { counter: self.c_waiters, delta: 1 });
                e.push(Effect::Release { lock: self.mmap_sem, task: tid });
                let template = if self.cfg.variant == Variant::V2_6_18 { T::ZAP_18 } else { T::ZAP };
                self.op(
                    self.now,
                    Some(task),
                    OpKind::Signal,
                    at(text::CDWAIT, 2),
                    template,
                    &[Arg::Task(tid), Arg::Count(others), Arg::Count(self.core_waiters + 1)],
                    &e,
                );
                self.tasks[task].act = Act::DumpResume;
                if self.core_waiters > 0 {
                    self.sleep(task, self.ch_startup);
                }
            }
            Act::DumpResume => {
                self.now += COSTS.step_ns;
                self.tasks[task].sys_ns += COSTS.step_ns;
                self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
                let mut e = Vec::new();
                if self.group_stop_count > 0 {
                    e.push(Effect::Decrease { counter: self.c_stop, delta: self.group_stop_count });
                    self.group_stop_count = 0;
                }
                let limit = if self.cfg.core_unlimited { "unlimited" } else { "0" };
                self.op(
                    now,
                    Some(task),
                    OpKind::Compute,
                    at(text::COREDUMP, 7),
                    T::DUMPER_RESUMES,
                    &[Arg::Task(tid), Arg::Word(limit)],
                    &e,
                );
                if self.cfg.core_unlimited {
                    let pages =
                        COSTS.core_pages_base + COSTS.core_pages_per_thread * u64::from(self.cfg.threads);
                    let cost = pages * COSTS.core_page_ns;
                    self.tasks[task].sys_ns += cost;
                    self.now += cost;
                    self.op(
                        self.now,
                        Some(task),
                        OpKind::Compute,
                        at(text::COREDUMP, 8),
                        T::CORE_WRITE,
                        &[Arg::Task(tid), Arg::Count(pages), Arg::Ns(cost)],
                        &[],
                    );
                } else {
                    self.op(
                        self.now,
                        Some(task),
                        OpKind::Compute,
                        at(text::COREDUMP, 9),
                        T::CORE_SKIP,
                        &[],
                        &[],
                    );
                }
                // complete_all(core_done)
                let waiting: Vec<usize> = (1..self.tasks.len())
                    .filter(|&t| self.tasks[t].sleeping && self.tasks[t].act == Act::Exiting)
                    .collect();
                for t in waiting {
                    self.wake(t, self.now, false);
                }
                self.tasks[task].act = Act::Exiting;
            }
            Act::KillExit => {
                self.now += COSTS.step_ns;
                self.tasks[task].sys_ns += COSTS.step_ns;
                self.out.siglock_acquisitions += 1;
                self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
                let mut e = vec![
                    Effect::Acquire { lock: self.siglock, task: tid, mode: LockMode::Write, waited_ns: 0 },
                    Effect::Release { lock: self.siglock, task: tid },
                ];
                e.extend(self.state(task, TaskState::RunningKernel { cpu: 0 }));
                self.tasks[task].act = Act::Exiting;
                e.extend(self.gauges(task, Doing::Exiting));
                self.op(
                    now,
                    Some(task),
                    OpKind::Signal,
                    at(text::GSTD, 8),
                    T::KILL_DEQUEUE,
                    &[Arg::Task(tid)],
                    &e,
                );
                if task != MAIN && self.core_waiters > 0 {
                    self.core_waiters -= 1;
                    let e = [Effect::Decrease { counter: self.c_waiters, delta: 1 }];
                    if self.core_waiters == 0 {
                        self.op(
                            self.now,
                            Some(task),
                            OpKind::Wake,
                            at(text::EXIT_MM, 1),
                            T::EXIT_MM_LAST,
                            &[Arg::Task(tid)],
                            &e,
                        );
                        self.wake(MAIN, self.now, false);
                    } else {
                        self.op(
                            self.now,
                            Some(task),
                            OpKind::Sleep,
                            at(text::EXIT_MM, 2),
                            T::EXIT_MM_WAIT,
                            &[Arg::Task(tid), Arg::Count(self.core_waiters)],
                            &e,
                        );
                    }
                    self.sleep(task, self.ch_core);
                }
            }
            Act::Exiting => {
                self.now += COSTS.exit_ns;
                self.tasks[task].sys_ns += COSTS.exit_ns;
                self.alive -= 1;
                self.tasks[task].act = Act::Gone;
                self.rq.remove(tid);
                self.current = None;
                self.need_resched = true;
                self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
                let mut e: Vec<Effect> = Vec::new();
                if self.b.world().locks[self.siglock.0 as usize].holds(tid) {
                    e.push(Effect::Release { lock: self.siglock, task: tid });
                }
                e.extend(self.gauges(task, Doing::Dead));
                e.extend(self.state(task, TaskState::Dead));
                if self.alive == 0 {
                    self.out.last_exit_ns = self.now;
                    let after = self.now.saturating_sub(self.out.signal_ns);
                    self.op(
                        self.now,
                        Some(task),
                        OpKind::Milestone,
                        at(text::EXIT_MM, 4),
                        T::LAST_EXIT,
                        &[Arg::Task(tid), Arg::Ns(after), Arg::Ns(self.now)],
                        &e,
                    );
                } else {
                    self.op(
                        self.now,
                        Some(task),
                        OpKind::Exit,
                        at(text::EXIT_MM, 4),
                        T::EXIT,
                        &[Arg::Task(tid)],
                        &e,
                    );
                }
            }
            Act::Spin | Act::Loop | Act::Gone => unreachable!("handled by run_task"),
        }
    }

    /// do_notify_resume → get_signal_to_deliver, the first turn after TIF_SIGPENDING.
    fn sig_entry(&mut self, task: usize) {
        let tid = id(task);
        if self.tasks[task].sigkill {
            self.tasks[task].act = Act::KillExit;
            return;
        }
        if self.group_stop_count > 0 && !self.group_exit {
            // handle_group_stop: a real group stop.
            self.now += COSTS.step_ns;
            self.tasks[task].sys_ns += COSTS.step_ns;
            self.out.siglock_acquisitions += 1;
            self.group_stop_count -= 1;
            self.tasks[task].stopped = true;
            self.tasks[task].act = Act::SigEntry;
            self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
            let e = [Effect::Decrease { counter: self.c_stop, delta: 1 }];
            self.op(
                self.now,
                Some(task),
                OpKind::Sleep,
                at(text::HGS, 6),
                T::STOP,
                &[Arg::Task(tid), Arg::Count(self.group_stop_count)],
                &e,
            );
            self.rq.remove(tid);
            self.tasks[task].sleeping = true;
            self.tasks[task].o1.charge(&self.o1, self.now);
            let e: Vec<Effect> = self
                .state(task, TaskState::Stopped)
                .into_iter()
                .chain(self.gauges(task, Doing::Stopped))
                .collect();
            self.op(self.now, Some(task), OpKind::Schedule, at(text::SCHEDULE, 1), T::ITER_SCHEDULE, &[], &e);
            self.current = None;
            self.need_resched = true;
            return;
        }
        if self.group_stop_count > 0 {
            // SIGNAL_GROUP_EXIT is set: punt, nothing to dequeue, TIF_SIGPENDING stays.
            self.tasks[task].act = Act::Loop;
            return;
        }
        // Nothing pending and no group stop: recalc_sigpending clears the flag.
        self.now += COSTS.turn_ns;
        self.tasks[task].sys_ns += COSTS.turn_ns;
        self.out.siglock_acquisitions += 1;
        self.tasks[task].tif_sigpending = false;
        let back = if self.cfg.spin { Act::Spin } else { Act::PauseCall };
        self.tasks[task].act = back;
        self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
        let e = self.gauges(task, Doing::User);
        let to = if self.cfg.spin { "its user-mode loop" } else { "pause() (the system call restarts)" };
        self.op(
            self.now,
            Some(task),
            OpKind::Compute,
            at(text::GSTD, 6),
            T::CLEARED,
            &[Arg::Task(tid), Arg::Word(to)],
            &e,
        );
    }

    /// SIGKILL to every live thread but `killer` (zap_threads, zap_other_threads, zap_process).
    fn zap_others(&mut self, killer: usize, reset: bool) {
        if reset {
            self.group_exit = true;
            self.group_stop_count = 0;
        }
        for t in 0..self.tasks.len() {
            if t == killer || !self.live(t) {
                continue;
            }
            self.out.siglock_acquisitions += 1;
            self.tasks[t].sigkill = true;
            self.tasks[t].tif_sigpending = true;
            if self.tasks[t].sleeping && !matches!(self.tasks[t].act, Act::Exiting) {
                self.tasks[t].stopped = false;
                self.tasks[t].act = Act::SigEntry;
                self.wake(t, self.now, false);
            } else if self.tasks[t].act == Act::Loop || self.tasks[t].act == Act::Spin {
                self.tasks[t].act = Act::SigEntry;
            }
        }
    }

    fn send_signal(&mut self) {
        self.signal_sent = true;
        let now = self.cfg.signal_at_ns.max(self.now);
        self.out.signal_ns = now;
        self.phase(T::PHASE_SIGNAL, &[Arg::Word(self.cfg.signal)]);
        self.iter(T::ITER_SIGNAL, &[]);
        self.out.siglock_acquisitions += 1;
        let mut e = vec![
            Effect::Acquire { lock: self.siglock, task: id(MAIN), mode: LockMode::Write, waited_ns: 0 },
            Effect::Release { lock: self.siglock, task: id(MAIN) },
        ];
        let target = MAIN;
        if self.cfg.coredump_sig {
            self.shared_pending = true;
            e.push(Effect::Count { counter: self.c_pending, delta: 1 });
        }
        self.op(
            now,
            None,
            OpKind::Signal,
            at(text::COMPLETE, 0),
            T::SIGNAL_SENT,
            &[Arg::Word(self.cfg.signal), Arg::Task(id(target))],
            &e,
        );
        if self.cfg.coredump_sig {
            let live = (0..self.tasks.len()).filter(|&t| self.live(t)).count() as u64;
            self.group_stop_count = live;
            self.group_exit_task = Some(target);
            let e = [Effect::Count { counter: self.c_stop, delta: live }];
            self.op(
                now,
                None,
                OpKind::Signal,
                at(text::COMPLETE, 8),
                T::GROUP_STOP,
                &[Arg::Word(self.cfg.signal), Arg::Count(live), Arg::Task(id(target))],
                &e,
            );
            // signal_wake_up on every thread from p = main (the leader) on, in
            // thread-list order; then wake_up_process(group_exit_task), a no-op
            // here since main was woken first.
            // If main is still creating threads, it meets the signal on its way
            // out of the current clone(): the rest are never created.
            self.tasks[target].act = Act::MainSignal;
            self.tasks[target].tif_sigpending = true;
            self.wake(target, now, false);
            for t in 0..self.tasks.len() {
                if t == target || !self.live(t) {
                    continue;
                }
                self.tasks[t].tif_sigpending = true;
                let sleeping = self.tasks[t].sleeping;
                if matches!(self.tasks[t].act, Act::Spin | Act::PauseCall) || sleeping {
                    self.tasks[t].act = Act::SigEntry;
                }
                if sleeping {
                    self.wake(t, now, false);
                } else if self.recording {
                    let e = self.gauges(t, self.doing(t));
                    self.op(now, None, OpKind::Compute, at(text::COMPLETE, 8), T::ITER_SIGNAL, &[], &e);
                }
            }
        } else {
            self.group_exit = true;
            let e = [Effect::Count { counter: self.c_exit, delta: 1 }];
            self.op(
                now,
                None,
                OpKind::Signal,
                at(text::COMPLETE, 3),
                T::GROUP_EXIT,
                &[Arg::Word(self.cfg.signal)],
                &e,
            );
            self.zap_others(usize::MAX, false);
        }
    }

    /// Created and not yet gone.
    fn live(&self, task: usize) -> bool {
        self.tasks[task].created && self.tasks[task].act != Act::Gone
    }

    fn sleep(&mut self, task: usize, channel: ChannelId) {
        self.tasks[task].sleeping = true;
        self.rq.remove(id(task));
        self.tasks[task].o1.charge(&self.o1, self.now);
        let doing = self.doing(task);
        let mut e: Vec<Effect> = self.state(task, TaskState::Sleeping { channel }).into_iter().collect();
        e.extend(self.gauges(task, doing));
        self.op(self.now, Some(task), OpKind::Schedule, at(text::SCHEDULE, 1), T::ITER_SCHEDULE, &[], &e);
        if self.current == Some(task) {
            self.current = None;
        }
        self.need_resched = true;
    }

    /// try_to_wake_up: recalc (activate_task), queue in the active array, preemption check.
    fn wake(&mut self, task: usize, at_ns: u64, from_interrupt: bool) {
        if !self.tasks[task].sleeping {
            return;
        }
        self.tasks[task].sleeping = false;
        self.tasks[task].stopped = false;
        if let Some(when) = self.tasks[task].timer.take() {
            self.timers.remove(&(when, task));
        }
        let slept = at_ns.saturating_sub(self.tasks[task].o1.timestamp_ns);
        if from_interrupt {
            self.tasks[task].o1.wake_from_interrupt(&self.o1, at_ns);
        } else {
            self.tasks[task].o1.wake(&self.o1, at_ns);
        }
        self.enqueue(task, Array::Active);
        let prio = self.tasks[task].o1.prio;
        if self.rec_on() {
            self.b.iteration(txt(T::ITER_SIGNAL.id(), &[]));
            let doing = self.doing(task);
            let mut e: Vec<Effect> = self.state(task, TaskState::Runnable).into_iter().collect();
            e.extend(self.gauges(task, doing));
            let o = &self.tasks[task].o1;
            let (t, code) = if from_interrupt {
                (T::TIMER_WAKE, at(text::TFUNC, 0))
            } else {
                (T::WAKE_SIGNAL, at(text::COMPLETE, 8))
            };
            let args = [
                Arg::Task(id(task)),
                Arg::Ns(slept),
                Arg::Ns(o.sleep_avg_ns),
                Arg::Signed(i64::from(o.prio)),
            ];
            self.op(at_ns.max(self.b.now_ns()), None, OpKind::Wake, code, t, &args, &e);
        }
        match self.current {
            None => self.need_resched = true,
            Some(c) => {
                let cp = self.tasks[c].o1.prio;
                let args = [
                    Arg::Task(id(task)),
                    Arg::Signed(i64::from(prio)),
                    Arg::Task(id(c)),
                    Arg::Signed(i64::from(cp)),
                ];
                let at_op = at_ns.max(self.b.now_ns());
                if wakeup_preempts(prio, cp) {
                    self.need_resched = true;
                    self.op(at_op, None, OpKind::Preempt, at(text::SCHEDULE, 3), T::PREEMPT, &args, &[]);
                } else if task == MAIN && self.signal_sent {
                    self.op(at_op, None, OpKind::Compute, at(text::SCHEDULE, 3), T::NO_PREEMPT, &args, &[]);
                }
            }
        }
    }

    fn tick(&mut self, tick_at: u64) {
        let now = self.now;
        if let Some(c) = self.current {
            let out = self.rq.tick(&self.o1, id(c), &mut self.tasks[c].o1, tick_at, 1);
            let o = self.tasks[c].o1.clone();
            let bonus = self.o1.current_bonus(o.sleep_avg_ns);
            let args_basic = [
                Arg::Task(id(c)),
                Arg::Ns(o.sleep_avg_ns),
                Arg::Signed(bonus),
                Arg::Ns(o.time_slice * self.tick_ns),
            ];
            let doing = self.doing(c);
            match out {
                TickOutcome::Continue | TickOutcome::NotYetOff => {}
                TickOutcome::Requeued => {
                    self.need_resched = true;
                    self.seq += 1;
                    self.tasks[c].seq = self.seq;
                    if self.rec_on() {
                        self.b.iteration(txt(T::ITER_TICK.id(), &[]));
                        let g = self.o1.granularity(o.sleep_avg_ns, 1) * self.tick_ns;
                        let e = self.gauges(c, doing);
                        self.op(
                            now,
                            Some(c),
                            OpKind::Compute,
                            at(text::TICK, 7),
                            T::TICK_REQUEUE,
                            &[Arg::Task(id(c)), Arg::Ns(g), Arg::Signed(bonus)],
                            &e,
                        );
                    }
                }
                TickOutcome::ExpiredToActive => {
                    self.need_resched = true;
                    self.seq += 1;
                    self.tasks[c].seq = self.seq;
                    if self.slices_counting {
                        self.out.slices_before_swap += 1;
                        self.out.requeued_active += 1;
                    }
                    if self.rec_on() {
                        self.b.iteration(txt(T::ITER_TICK.id(), &[]));
                        let e = self.gauges(c, doing);
                        let kind = if self.slices_counting { OpKind::Milestone } else { OpKind::Compute };
                        self.op(now, Some(c), kind, at(text::TICK, 5), T::TICK_ACTIVE, &args_basic, &e);
                    }
                }
                TickOutcome::ExpiredToExpired { starving } => {
                    self.need_resched = true;
                    self.seq += 1;
                    self.tasks[c].seq = self.seq;
                    if self.slices_counting {
                        self.out.slices_before_swap += 1;
                    }
                    if self.rec_on() {
                        self.b.iteration(txt(T::ITER_TICK.id(), &[]));
                        let e = self.gauges(c, doing);
                        let left = self.rq.arrays().0.len() as u64;
                        if starving {
                            self.op(
                                now,
                                Some(c),
                                OpKind::Compute,
                                at(text::TICK, 3),
                                T::TICK_STARVING,
                                &[Arg::Task(id(c))],
                                &e,
                            );
                        } else {
                            let args = [
                                Arg::Task(id(c)),
                                Arg::Ns(o.sleep_avg_ns),
                                Arg::Signed(bonus),
                                Arg::Count(left),
                            ];
                            self.op(
                                now,
                                Some(c),
                                OpKind::Compute,
                                at(text::TICK, 4),
                                T::TICK_EXPIRED,
                                &args,
                                &e,
                            );
                        }
                    }
                }
            }
        }
        // The timer softirq after the tick: expired usleep() timers.
        while let Some(&(when, task)) = self.timers.iter().next() {
            if when > tick_at {
                break;
            }
            self.timers.remove(&(when, task));
            self.wake(task, now.max(when), true);
        }
    }

    fn schedule(&mut self) {
        let now = self.now;
        self.need_resched = false;
        let prev = self.current;
        let mut charge_args = None;
        if let Some(p) = prev {
            if !self.tasks[p].sleeping && self.tasks[p].act != Act::Gone {
                let bonus = self.o1.current_bonus(self.tasks[p].o1.sleep_avg_ns).max(1);
                let ran = now.saturating_sub(self.tasks[p].o1.timestamp_ns);
                self.tasks[p].o1.charge(&self.o1, now);
                charge_args = Some((p, ran, bonus));
            }
        }
        let swaps = self.rq.swaps;
        let next = self.rq.pick().map(|t| t.0 as usize);
        let swapped = self.rq.swaps != swaps;
        if swapped {
            self.out.swap_ns.push(now);
            if self.slices_counting {
                self.slices_counting = false;
            }
        }
        let mut credit = None;
        if let Some(n) = next {
            if self.tasks[n].o1.activated != Activated::No {
                let how = if self.tasks[n].o1.activated == Activated::Interrupt { 2 } else { 1 };
                let waited = now.saturating_sub(self.tasks[n].o1.timestamp_ns);
                self.tasks[n].o1.credit_runqueue_wait(&self.o1, now);
                let (array, _) = self.rq.find(id(n)).expect("picked task is queued");
                self.rq.remove(id(n));
                self.enqueue(n, array);
                credit = Some((n, waited, how));
            }
        }
        if next != prev {
            self.out.context_switches += 1;
            if let Some(n) = next {
                self.tasks[n].o1.timestamp_ns = now;
            }
        }
        self.current = next;
        if let Some(n) = next {
            if self.tasks[n].tif_sigpending && matches!(self.tasks[n].act, Act::Spin | Act::Loop) {
                self.tasks[n].act = Act::SigEntry;
            }
        }
        if !self.rec_on() {
            return;
        }
        self.b.iteration(txt(T::ITER_SCHEDULE.id(), &[]));
        if let Some((p, ran, bonus)) = charge_args {
            let mut e: Vec<Effect> = Vec::new();
            if next != Some(p) {
                e.extend(self.state(p, TaskState::Runnable));
            }
            let doing = self.doing(p);
            e.extend(self.gauges(p, doing));
            let args =
                [Arg::Task(id(p)), Arg::Ns(ran), Arg::Signed(bonus), Arg::Ns(self.tasks[p].o1.sleep_avg_ns)];
            self.op(now, Some(p), OpKind::Schedule, at(text::SCHEDULE, 1), T::CHARGE, &args, &e);
        }
        if swapped {
            let e = [Effect::Count { counter: self.c_swaps, delta: 1 }];
            self.op(now, None, OpKind::Milestone, at(text::SCHEDULE, 2), T::SWAP, &[], &e);
            let all: Vec<usize> = (0..self.tasks.len()).filter(|&t| self.rq.find(id(t)).is_some()).collect();
            if all.len() <= 64 {
                let mut e = Vec::new();
                for t in all {
                    e.extend(self.gauges(t, self.doing(t)));
                }
                self.op(now, None, OpKind::Compute, at(text::SCHEDULE, 2), T::ITER_SCHEDULE, &[], &e);
            }
        }
        if let Some((n, waited, how)) = credit {
            let o = &self.tasks[n].o1;
            let args = [
                Arg::Task(id(n)),
                Arg::Ns(waited),
                Arg::Count(how),
                Arg::Ns(o.sleep_avg_ns),
                Arg::Signed(i64::from(o.prio)),
            ];
            self.op(now, Some(n), OpKind::Compute, at(text::SCHEDULE, 4), T::PICK_CREDIT, &args, &[]);
        }
        if let Some(n) = next {
            let doing = self.doing(n);
            let mut e: Vec<Effect> = self.state(n, TaskState::RunningKernel { cpu: 0 }).into_iter().collect();
            e.extend(self.gauges(n, doing));
            let o = &self.tasks[n].o1;
            let (t, args) = if next == prev {
                (T::SWITCH_SAME, vec![Arg::Task(id(n))])
            } else {
                (
                    T::SWITCH,
                    vec![
                        Arg::Task(id(n)),
                        Arg::Signed(i64::from(o.prio)),
                        Arg::Ns(o.sleep_avg_ns),
                        Arg::Count(o.time_slice),
                    ],
                )
            };
            let kind = OpKind::Schedule;
            self.op(now, Some(n), kind, at(text::SCHEDULE, 3), t, &args, &e);
        }
    }
}
