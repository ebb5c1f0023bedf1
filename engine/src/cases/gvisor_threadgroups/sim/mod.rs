//! The sentry over one run: the task set, the CPU-clock ticker's scans (one
//! repeat block per stretch of identical scans), a clone that needs
//! `TaskSet.mu` for writing, and `SendContainerSignal` from concurrent senders.

mod freeze;
mod scan;
mod signal;

use super::text::{self, at, T, TEMPLATES};
use crate::kernel::locks::gosync;
use crate::run::builder::{text as say, OpSpec, TraceBuilder};
use crate::run::lock::{find_deadlock, Deadlock, LockKind, LockMode};
use crate::run::narration::{Arg, CodeLoc};
use crate::run::rng::counter_hash;
use crate::run::trace::{OpKind, Outcome};
use crate::run::world::{ChannelId, CounterId, Effect, Layout, LockId, TaskId, TaskState};

// Costs. The per-visit cost is the one figure calibrated on the seed; the rest
// are model choices, small next to it, named as such.
/// Model choice: `RLock`/`RUnlock` uncontended are one atomic add each (≈ 15 ns).
pub(super) const RLOCK_NS: u64 = 15;
pub(super) const RUNLOCK_NS: u64 = 15;
/// Model choice: the ticker goroutine's wake-up and Notify's own work, ≈ 1 µs per tick.
pub(super) const TICK_NS: u64 = 1_000;
/// Model choice: a clone's work under `TaskSet.mu` for writing (assignTIDsLocked), ≈ 5 µs.
pub(super) const WRITER_HOLD_NS: u64 = 5_000;
/// Model choice: `sync.Mutex` Lock/Unlock uncontended ≈ 20 ns; group-directed
/// `sendSignalLocked` ≈ 2 µs; senders start 1 µs apart.
pub(super) const MUTEX_NS: u64 = 20;
pub(super) const SIGNAL_NS: u64 = 2_000;
pub(super) const SENDER_GAP_NS: u64 = 1_000;
/// Model choice: what `BeginExternalStop` does per task besides walking the map
/// (task_stop.go at the parent): a `sync.Mutex` Lock and Unlock (`MUTEX_NS` each), an
/// atomic add (≈ 10 ns) and `Task.interrupt`, a non-blocking channel send plus the
/// platform's interrupt (≈ 50 ns): ≈ 100 ns. The woken sleeper's own work is not counted.
pub(super) const STOP_TASK_NS: u64 = 2 * MUTEX_NS + 10 + 50;
/// Model choice: `EndExternalStop` per task: Lock, an atomic add, Unlock, and a
/// `sync.Cond` signal when the count reaches zero (≈ 10 ns): ≈ 60 ns.
pub(super) const RESUME_TASK_NS: u64 = 2 * MUTEX_NS + 10 + 10;
/// Model choice: after the job-control freeze, the next clone() or exit() reaches the
/// sentry 1 ms later (the benchmark's threads wake from their sleep and exit).
pub(super) const FREEZE_WRITER_AFTER_NS: u64 = 1_000_000;
/// `watchdog.DefaultTimeout`, which runsc passes (watchdog.go and runsc/boot/loader.go at
/// the parent): 3 minutes; a turn every timeout / 4.
pub(super) const WATCHDOG_TIMEOUT_NS: u64 = 180 * 1_000_000_000;
pub(super) const WATCHDOG_PERIOD_NS: u64 = WATCHDOG_TIMEOUT_NS / 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Variant {
    Before,
    Tgids,
}

#[derive(Clone, Debug)]
pub(super) struct Config {
    pub variant: Variant,
    pub threads_per_process: u64,
    pub processes: u64,
    pub sidecars: u64,
    pub duration_ns: u64,
    pub tick_ns: u64,
    pub visit_ns: u64,
    pub spread_pct: u64,
    pub idle_stop: bool,
    pub writer_at_ns: u64,
    pub senders: u64,
    pub runsc_ps: bool,
    pub shared_sighand: bool,
    /// The job-control variant: the senders call `ProcessGroup.SendSignal` from task
    /// goroutines (no `k.extMu`, no pause) instead of `SendContainerSignal`.
    pub job_control: bool,
    pub seed: u64,
    /// Threads per process were reduced to fit the task cap.
    pub capped: bool,
}

impl Config {
    pub fn bench_tasks(&self) -> u64 {
        self.threads_per_process * self.processes
    }
    pub fn total_tasks(&self) -> u64 {
        self.bench_tasks() + self.sidecars
    }
    pub fn groups(&self) -> u64 {
        self.processes + self.sidecars
    }
    /// The share of visits that miss the cache in this run, per million: the
    /// run's cache regime, drawn from the seed.
    pub fn cold_ppm(&self) -> u64 {
        counter_hash(self.seed, u64::MAX) % 1_000_001
    }
    pub fn hot_ns(&self) -> u64 {
        (self.visit_ns * (100 - self.spread_pct) / 100).max(1)
    }
    pub fn cold_ns(&self) -> u64 {
        self.visit_ns * (100 + self.spread_pct) / 100
    }
    /// Whether visiting task index `i` misses the cache: the same for every scan
    /// (nothing else runs to change which task structs stay cached), drawn by a
    /// counter-based hash so that any visit expands without the others.
    pub fn cold(&self, i: u64) -> bool {
        Self::cold_at(self.seed, self.cold_ppm(), i)
    }
    fn cold_at(seed: u64, cold_ppm: u64, i: u64) -> bool {
        counter_hash(seed, i) % 1_000_000 < cold_ppm
    }
    pub fn visit_cost(&self, i: u64) -> u64 {
        if self.cold(i) {
            self.cold_ns()
        } else {
            self.hot_ns()
        }
    }
    /// Σ `visit_cost` over one scan's visits, with the run's cold share and the two
    /// costs read once (the scaling plot sums 16,384 visits per point).
    pub fn scan_visits_ns(&self) -> u64 {
        let (seed, cold_ppm, hot_ns, cold_ns) = (self.seed, self.cold_ppm(), self.hot_ns(), self.cold_ns());
        self.visits().map(|i| if Self::cold_at(seed, cold_ppm, i) { cold_ns } else { hot_ns }).sum()
    }
    /// Σ `visit_cost` over every task (what a walk of `tids` costs, fix or not).
    pub fn all_tasks_visits_ns(&self) -> u64 {
        let (seed, cold_ppm, hot_ns, cold_ns) = (self.seed, self.cold_ppm(), self.hot_ns(), self.cold_ns());
        (0..self.total_tasks()).map(|i| if Self::cold_at(seed, cold_ppm, i) { cold_ns } else { hot_ns }).sum()
    }
    /// This run's mean cost of visiting one task (the cold share is the seed's).
    pub fn mean_visit_ns(&self) -> u64 {
        self.all_tasks_visits_ns() / self.total_tasks().max(1)
    }
    /// `BeginExternalStop`'s walk (Kernel.Pause): every task, before and after the fix.
    pub fn pause_walk_ns(&self) -> u64 {
        self.all_tasks_visits_ns() + self.total_tasks() * STOP_TASK_NS
    }
    /// `EndExternalStop`'s walk (Kernel.Unpause): every task again.
    pub fn unpause_walk_ns(&self) -> u64 {
        self.all_tasks_visits_ns() + self.total_tasks() * RESUME_TASK_NS
    }
    /// Whether the senders stop the kernel around their call (runsc kill --all).
    pub fn pauses(&self) -> bool {
        !self.job_control
    }
    /// How many visits one scan makes (as many as `visits()` yields).
    pub fn visits_per_scan(&self) -> u64 {
        match self.variant {
            Variant::Before => self.total_tasks(),
            Variant::Tgids => self.groups(),
        }
    }
    /// Task index → tid: tids from 1 in creation order.
    pub fn tid(i: u64) -> u64 {
        i + 1
    }
    /// Task index of thread group `g`'s leader.
    pub fn leader(&self, g: u64) -> u64 {
        if g < self.processes {
            g * self.threads_per_process
        } else {
            self.bench_tasks() + (g - self.processes)
        }
    }
    pub fn is_leader(&self, i: u64) -> bool {
        i >= self.bench_tasks() || i % self.threads_per_process == 0
    }
    /// The task indices one scan visits, in order.
    pub fn visits(&self) -> Box<dyn Iterator<Item = u64> + '_> {
        match self.variant {
            Variant::Before => Box::new(0..self.total_tasks()),
            Variant::Tgids => Box::new((0..self.groups()).map(|g| self.leader(g))),
        }
    }
}

/// An op with owned args and effects, at an absolute (single) or relative (repeat) time.
#[derive(Clone, Debug)]
struct Owned {
    at_ns: u64,
    actor: Option<TaskId>,
    kind: OpKind,
    code: CodeLoc,
    template: T,
    args: Vec<Arg>,
    effects: Vec<Effect>,
}

pub(super) struct Totals {
    pub scans: u64,
    pub tasks_visited: u64,
    pub scan_cpu_ns: u64,
    pub scan_ns: u64,
    pub scan_period_ns: u64,
    pub writer_waits: Vec<u64>,
    pub sender_waits: Vec<u64>,
    pub locks_held_max: u64,
    pub locks_held_at_return: Vec<u64>,
    pub deadlock: Option<Deadlock>,
    pub deadlock_text: Option<String>,
    /// One Kernel.Pause walk and one Kernel.Unpause walk, and their sum over the run.
    pub pause_walk_ns: u64,
    pub unpause_walk_ns: u64,
    pub pause_cpu_ns: u64,
    /// The job-control freeze: when the deadlock was found, the tick whose Notify
    /// blocked (the CPU clock's last tick), and when the watchdog reported.
    pub freeze_at_ns: Option<u64>,
    pub clock_stopped_tick: Option<u64>,
    pub watchdog_report_ns: Option<u64>,
    /// (time, tick number) of the scan where the clone waited, for the stage.
    pub writer_scan: Option<(u64, u64)>,
    pub sleep_end_ns: u64,
    /// The `runsc ps` listing's time in ThreadGroupsAppend, if it ran.
    pub ps_scan_ns: Option<u64>,
}

pub(super) struct Finished {
    pub builder: TraceBuilder,
    pub outcome: Outcome,
    pub totals: Totals,
}

pub(super) struct Sim<'a> {
    cfg: &'a Config,
    builder: TraceBuilder,
    ticker: TaskId,
    bench: TaskId,
    writer: TaskId,
    senders: Vec<TaskId>,
    ps: TaskId,
    /// The sentry's watchdog goroutine (job-control variant only).
    watchdog: Option<TaskId>,
    taskset: LockId,
    /// `Kernel.extMu`, which `SendContainerSignal` takes first: one caller at a time
    /// (only when there are senders).
    ext_mu: Option<LockId>,
    /// The SignalHandlers.mu lock of each sidecar thread group.
    sighand: Vec<LockId>,
    ch_tick: ChannelId,
    ch_sleep: ChannelId,
    ch_done: ChannelId,
    c_scans: CounterId,
    c_visited: CounterId,
    c_leaders: CounterId,
    c_held: CounterId,
    c_signals: CounterId,
    /// One scan's visit ops and cost (relative to its RLock), computed once.
    visit_ops: Vec<Owned>,
    visit_total_ns: u64,
    totals: Totals,
}

pub(super) fn run(cfg: &Config) -> Finished {
    let mut layout = Layout::new(u16::try_from(2 + cfg.senders).expect("few senders"));
    let sentry = layout.add_group("sentry");
    let bench_group = layout.add_group("benchmark");
    let ticker = layout.add_task("cpu-clock ticker", sentry);
    let bench = layout.add_task(format!("benchmark ({} threads)", cfg.bench_tasks()), bench_group);
    let writer = layout.add_task("clone (writer)", sentry);
    let senders = (0..cfg.senders).map(|k| layout.add_task(format!("sender {}", k + 1), sentry)).collect();
    let ps = layout.add_task("runsc ps", sentry);
    let watchdog = cfg.job_control.then(|| layout.add_task("watchdog", sentry));
    let taskset = layout.add_lock("TaskSet.mu", LockKind::GoRwMutex);
    let ext_mu =
        (cfg.senders > 0 && cfg.pauses()).then(|| layout.add_lock(super::EXT_MU_LOCK, LockKind::GoMutex));
    let distinct = if cfg.shared_sighand && cfg.sidecars >= 2 { cfg.sidecars - 1 } else { cfg.sidecars };
    let locks: Vec<LockId> = (0..distinct)
        .map(|k| {
            let name = if cfg.shared_sighand && k == 0 && cfg.sidecars >= 2 {
                "SignalHandlers.mu (sidecars 1+2)".to_string()
            } else {
                let group = if cfg.shared_sighand && cfg.sidecars >= 2 { k + 2 } else { k + 1 };
                format!("SignalHandlers.mu (sidecar {group})")
            };
            layout.add_lock(name, LockKind::GoMutex)
        })
        .collect();
    let sighand = (0..cfg.sidecars)
        .map(|g| {
            let index = if cfg.shared_sighand && cfg.sidecars >= 2 { g.saturating_sub(1) } else { g };
            locks[index as usize]
        })
        .collect();
    let ch_tick = layout.add_channel("ticker: next tick");
    let ch_sleep = layout.add_channel("nanosleep (every thread)");
    let ch_done = layout.add_channel("done");
    let c_scans = layout.add_counter("scans");
    let c_visited = layout.add_counter("tasks_visited");
    let c_leaders = layout.add_counter("thread_groups_found");
    let c_held = layout.add_counter("sighand_locks_held");
    let c_signals = layout.add_counter("signals_sent");
    let mut sim = Sim {
        cfg,
        builder: TraceBuilder::new(layout, TEMPLATES, text::CODE),
        ticker,
        bench,
        writer,
        senders,
        ps,
        watchdog,
        taskset,
        ext_mu,
        sighand,
        ch_tick,
        ch_sleep,
        ch_done,
        c_scans,
        c_visited,
        c_leaders,
        c_held,
        c_signals,
        visit_ops: Vec::new(),
        visit_total_ns: 0,
        totals: Totals {
            scans: 0,
            tasks_visited: 0,
            scan_cpu_ns: 0,
            scan_ns: 0,
            scan_period_ns: 0,
            writer_waits: Vec::new(),
            sender_waits: Vec::new(),
            locks_held_max: 0,
            locks_held_at_return: Vec::new(),
            deadlock: None,
            deadlock_text: None,
            pause_walk_ns: cfg.pause_walk_ns(),
            unpause_walk_ns: cfg.unpause_walk_ns(),
            pause_cpu_ns: 0,
            freeze_at_ns: None,
            clock_stopped_tick: None,
            watchdog_report_ns: None,
            writer_scan: None,
            sleep_end_ns: 0,
            ps_scan_ns: None,
        },
    };
    sim.prepare_visits();
    sim.setup();
    sim.sleep();
    sim.runsc_ps();
    let outcome = sim.signal();
    Finished { builder: sim.builder, outcome, totals: sim.totals }
}

impl Sim<'_> {
    fn append_fn(&self) -> u16 {
        match self.cfg.variant {
            Variant::Before => text::APPEND_BEFORE,
            Variant::Tgids => text::APPEND_AFTER,
        }
    }

    fn send_fn(&self) -> u16 {
        match self.cfg.variant {
            Variant::Before => text::SEND_BEFORE,
            Variant::Tgids => text::SEND_AFTER,
        }
    }

    /// The visit ops of one scan, relative to the end of its RLock.
    fn prepare_visits(&mut self) {
        let cfg = self.cfg;
        let n = match cfg.variant {
            Variant::Before => cfg.total_tasks(),
            Variant::Tgids => cfg.groups(),
        };
        let mut offset = 0;
        let mut ops = Vec::with_capacity(n as usize);
        for (ordinal, i) in cfg.visits().enumerate() {
            let cost = cfg.visit_cost(i);
            let leader = cfg.is_leader(i);
            let (template, line) = match (cfg.variant, leader) {
                (Variant::Tgids, _) => (T::VISIT_TGID, 4),
                (Variant::Before, true) => (T::VISIT_LEADER, 5),
                (Variant::Before, false) => (T::VISIT_SKIP, 4),
            };
            let mut effects = vec![Effect::Count { counter: self.c_visited, delta: 1 }];
            if leader {
                effects.push(Effect::Count { counter: self.c_leaders, delta: 1 });
            }
            ops.push(Owned {
                at_ns: offset,
                actor: Some(self.ticker),
                kind: OpKind::TreeVisit,
                code: at(self.append_fn(), line),
                template,
                args: vec![
                    Arg::Count(Config::tid(i)),
                    Arg::Word(if cfg.cold(i) { "cache-cold" } else { "cache-hot" }),
                    Arg::Ns(cost),
                    Arg::Count(ordinal as u64 + 1),
                    Arg::Count(n),
                ],
                effects,
            });
            offset += cost;
        }
        self.visit_ops = ops;
        self.visit_total_ns = offset;
        // One scan, wake to sleep: what the ticker spends per tick.
        self.totals.scan_ns = TICK_NS + RLOCK_NS + offset + RUNLOCK_NS;
        // The ticker is a ktime.Timer: expirations missed while Notify ran are counted
        // and Notify runs once, so the next scan is at the first tick after this one ends.
        self.totals.scan_period_ns = (self.totals.scan_ns / self.cfg.tick_ns + 1) * self.cfg.tick_ns;
    }

    fn emit(&mut self, op: &Owned) {
        self.builder.op(OpSpec {
            at_ns: op.at_ns,
            actor: op.actor,
            kind: op.kind,
            code: op.code,
            text: say(op.template.id(), &op.args),
            effects: &op.effects,
        });
    }

    fn setup(&mut self) {
        let cfg = self.cfg;
        self.builder.phase(say(
            T::PHASE_START.id(),
            &[Arg::Count(cfg.bench_tasks()), Arg::Count(cfg.processes), Arg::Count(cfg.sidecars)],
        ));
        self.builder.iteration(say(T::ITER_SETUP.id(), &[]));
        let clause = if cfg.variant == Variant::Tgids {
            "; with the fix also tgids (thread group → leader tid), one entry per thread group"
        } else {
            ""
        };
        let (bench, ticker) = (self.bench, self.ticker);
        let mut effects = vec![
            Effect::SetState { task: bench, state: TaskState::Sleeping { channel: self.ch_sleep } },
            Effect::SetState { task: ticker, state: TaskState::Sleeping { channel: self.ch_tick } },
            Effect::SetState { task: self.writer, state: TaskState::Sleeping { channel: self.ch_done } },
        ];
        effects
            .push(Effect::SetState { task: self.ps, state: TaskState::Sleeping { channel: self.ch_done } });
        for &sender in self.senders.iter().chain(self.watchdog.iter()) {
            effects.push(Effect::SetState {
                task: sender,
                state: TaskState::Sleeping { channel: self.ch_done },
            });
        }
        self.emit(&Owned {
            at_ns: 0,
            actor: Some(bench),
            kind: OpKind::Sleep,
            code: at(text::BENCH, 1),
            template: T::SETUP,
            args: vec![
                Arg::Count(cfg.total_tasks()),
                Arg::Word(clause),
                Arg::Ns(cfg.duration_ns),
                Arg::Count(cfg.sidecars),
                Arg::Ns(cfg.visit_ns),
                Arg::Ns(cfg.hot_ns()),
                Arg::Ns(cfg.cold_ns()),
                Arg::Count(cfg.cold_ppm() / 10_000),
                Arg::Ns(cfg.mean_visit_ns()),
            ],
            effects,
        });
        if cfg.capped {
            self.emit(&Owned {
                at_ns: 0,
                actor: Some(bench),
                kind: OpKind::Note,
                code: at(text::BENCH, 0),
                template: T::CAPPED,
                args: vec![Arg::Count(super::MAX_TASKS)],
                effects: vec![],
            });
        }
    }
}
