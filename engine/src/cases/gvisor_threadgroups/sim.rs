//! The sentry over one run: the task set, the CPU-clock ticker's scans (one
//! repeat block per stretch of identical scans), a clone that needs
//! `TaskSet.mu` for writing, and `SendContainerSignal` from concurrent senders.

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
/// Calibrated on seed 003: 17,210 ms of CPU in ThreadGroupsAppend over 2 min at
/// 100 Hz (12,000 scans) of 16,384 threads ≈ 87.5 ns per task visited (the 8,192-thread
/// point gives ≈ 185 ns; the 1,024-thread points 1–743 ns, so we do not fit single points).
pub(super) const VISIT_NS_DEFAULT: u64 = 88;
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
        counter_hash(self.seed, i) % 1_000_000 < self.cold_ppm()
    }
    pub fn visit_cost(&self, i: u64) -> u64 {
        if self.cold(i) {
            self.cold_ns()
        } else {
            self.hot_ns()
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
    taskset: LockId,
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
    let taskset = layout.add_lock("TaskSet.mu", LockKind::GoRwMutex);
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
        taskset,
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
        // A Go ticker drops ticks for a slow receiver: the next scan is at the first
        // tick after this one ends (a model choice for scans longer than a tick).
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
        for &sender in &self.senders {
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
                Arg::Word(if cfg.capped {
                    " The model caps the task set at 65,536 tasks: threads per process were reduced to fit."
                } else {
                    ""
                }),
            ],
            effects,
        });
    }

    /// One scan's ops from `start` (absolute), the ticker's RLock granted at
    /// `rlock_at` (≥ start + TICK_NS; later if a writer held or waited).
    fn scan_ops(&self, start: u64, tick: Arg, rlock_at: u64, relative: bool) -> Vec<Owned> {
        let base = if relative { 0 } else { start };
        let shift = |t: u64| t - start + base;
        let (ticker, lock) = (self.ticker, self.taskset);
        let mut ops = Vec::with_capacity(self.visit_ops.len() + 4);
        let waited = rlock_at - (start + TICK_NS);
        let wake_effects = vec![
            Effect::SetState { task: ticker, state: TaskState::RunningKernel { cpu: 0 } },
            Effect::Count { counter: self.c_scans, delta: 1 },
        ];
        ops.push(Owned {
            at_ns: shift(start),
            actor: Some(ticker),
            kind: OpKind::Wake,
            code: at(text::TICKER, 2),
            template: T::TICK,
            args: vec![tick, Arg::Ns(self.cfg.tick_ns)],
            effects: wake_effects,
        });
        if waited > 0 {
            ops.push(Owned {
                at_ns: shift(start + TICK_NS),
                actor: Some(ticker),
                kind: OpKind::LockContended,
                code: at(self.append_fn(), 1),
                template: T::RLOCK_WAIT,
                args: vec![Arg::Lock(lock)],
                effects: vec![
                    Effect::Enqueue { lock, task: ticker, mode: LockMode::Read },
                    Effect::SetState { task: ticker, state: TaskState::BlockedOnLock { lock } },
                ],
            });
            ops.push(Owned {
                at_ns: shift(rlock_at),
                actor: Some(ticker),
                kind: OpKind::LockGranted,
                code: at(self.append_fn(), 1),
                template: T::RLOCK_GRANTED,
                args: vec![Arg::Lock(lock), Arg::Ns(waited)],
                effects: vec![
                    Effect::Acquire { lock, task: ticker, mode: LockMode::Read, waited_ns: waited },
                    Effect::SetState { task: ticker, state: TaskState::RunningKernel { cpu: 0 } },
                ],
            });
        } else {
            ops.push(Owned {
                at_ns: shift(rlock_at),
                actor: Some(ticker),
                kind: OpKind::LockFast,
                code: at(self.append_fn(), 1),
                template: T::RLOCK,
                args: vec![Arg::Lock(lock)],
                effects: vec![Effect::Acquire { lock, task: ticker, mode: LockMode::Read, waited_ns: 0 }],
            });
        }
        let visits_from = rlock_at + RLOCK_NS;
        for op in &self.visit_ops {
            let mut op = op.clone();
            op.at_ns = shift(visits_from + op.at_ns);
            ops.push(op);
        }
        let n = self.visit_ops.len() as u64;
        let found = self.cfg.groups();
        ops.push(Owned {
            at_ns: shift(visits_from + self.visit_total_ns),
            actor: Some(ticker),
            kind: OpKind::LockRelease,
            code: at(self.append_fn(), 2),
            template: T::RUNLOCK,
            args: vec![Arg::Count(n), Arg::Count(found), Arg::Ns(self.totals.scan_ns), Arg::Lock(lock)],
            effects: vec![
                Effect::Release { lock, task: ticker },
                Effect::SetState { task: ticker, state: TaskState::Sleeping { channel: self.ch_tick } },
            ],
        });
        ops
    }

    fn count_scans(&mut self, scans: u64) {
        self.totals.scans += scans;
        self.totals.tasks_visited += scans * self.visit_ops.len() as u64;
        self.totals.scan_cpu_ns += scans * (RLOCK_NS + self.visit_total_ns + RUNLOCK_NS);
    }

    /// `count` undisturbed scans from `start` (a tick), tick numbers from `tick0`.
    fn repeat_scans(&mut self, start: u64, tick0: u64, count: u64) {
        if count == 0 {
            return;
        }
        let period = self.totals.scan_period_ns;
        let stride = period / self.cfg.tick_ns;
        let tick = Arg::AffineCount { base: tick0, stride };
        let ops = self.scan_ops(start, tick, start + TICK_NS, true);
        let specs: Vec<OpSpec<'_>> = ops
            .iter()
            .map(|op| OpSpec {
                at_ns: op.at_ns,
                actor: op.actor,
                kind: op.kind,
                code: op.code,
                text: say(op.template.id(), &op.args),
                effects: &op.effects,
            })
            .collect();
        self.builder.advance_to(start);
        self.builder.repeat(count, period, say(T::ITER_TICK.id(), &[tick]), &specs);
        self.count_scans(count);
    }

    fn sleep(&mut self) {
        let cfg = self.cfg;
        let p = cfg.tick_ns;
        let period = self.totals.scan_period_ns;
        let stride = period / p;
        self.builder
            .phase(say(T::PHASE_SLEEP.id(), &[Arg::Ns(cfg.duration_ns), Arg::Count(1_000_000_000 / p)]));
        let writer_at = Some(cfg.writer_at_ns).filter(|&w| w > 0 && w <= cfg.duration_ns);
        if cfg.idle_stop {
            self.builder.iteration(say(T::ITER_TICK.id(), &[Arg::Count(0)]));
            self.emit(&Owned {
                at_ns: 0,
                actor: Some(self.ticker),
                kind: OpKind::Note,
                code: at(text::TICKER, 4),
                template: T::TICKER_IDLE,
                args: vec![],
                effects: vec![],
            });
            if let Some(w) = writer_at {
                self.writer_window(w, None);
            }
            // A clone at the very end of the sleep finishes after it (found by the budget test).
            let end = self.builder.now_ns().max(cfg.duration_ns);
            self.builder.advance_to(end);
            self.totals.sleep_end_ns = end;
            return;
        }
        // Scans at ticks 1, 1 + stride, … while the tick is within the duration.
        let last_tick = cfg.duration_ns / p;
        let mut next_tick = 1;
        if let Some(w) = writer_at {
            let w_tick = w / p; // the tick at or before the writer
            if w_tick >= next_tick {
                // Scans whose whole period ends at or before the writer's tick window.
                let before = (w_tick - next_tick) / stride;
                self.repeat_scans(next_tick * p, next_tick, before);
                next_tick += before * stride;
            }
            next_tick = self.writer_window(w, Some((next_tick, last_tick)));
        }
        if next_tick <= last_tick {
            let count = (last_tick - next_tick) / stride + 1;
            self.repeat_scans(next_tick * p, next_tick, count);
        }
        let end = self.builder.now_ns().max(cfg.duration_ns);
        self.builder.advance_to(end);
        self.totals.sleep_end_ns = end;
    }

    /// The clone at `w`, with the ticker's scans around it (`ticks`: the next scan
    /// tick and the last one). Returns the next scan tick after the window.
    fn writer_window(&mut self, w: u64, ticks: Option<(u64, u64)>) -> u64 {
        let cfg = self.cfg;
        let p = cfg.tick_ns;
        let lock = self.taskset;
        let writer = self.writer;
        let mut ops: Vec<(u64, u8, Owned)> = Vec::new();
        // Scan A: the one at the writer's tick window, if the ticker runs one there.
        let scan_a = ticks.and_then(|(next, last)| {
            let start = next * p;
            (next <= last && start <= w + WRITER_HOLD_NS).then_some((next, start))
        });
        let (grant, release);
        let mut next_tick = ticks.map_or(0, |(next, _)| next);
        let mut window_tick = None;
        match scan_a {
            Some((tick_a, start_a)) => {
                let rlock_a = start_a + TICK_NS;
                let end_a = rlock_a + RLOCK_NS + self.visit_total_ns;
                if w < rlock_a {
                    // The clone gets in first; the scan's RLock waits for it.
                    grant = w;
                    release = w + WRITER_HOLD_NS;
                    let rlock = rlock_a.max(release);
                    let scan = self.scan_ops(start_a, Arg::Count(tick_a), rlock, false);
                    let end = rlock + RLOCK_NS + self.visit_total_ns + RUNLOCK_NS;
                    for op in scan {
                        ops.push((op.at_ns, 2, op));
                    }
                    self.count_scans(1);
                    next_tick = end.div_ceil(p).max(tick_a + 1);
                } else {
                    grant = if w < end_a { end_a } else { w };
                    release = grant + WRITER_HOLD_NS;
                    for op in self.scan_ops(start_a, Arg::Count(tick_a), rlock_a, false) {
                        // The scan's RUnlock goes before the writer's grant at the same instant.
                        ops.push((op.at_ns, 0, op));
                    }
                    self.count_scans(1);
                    next_tick = tick_a + self.totals.scan_period_ns / p;
                    // Scan B, if its RLock comes while the clone waits or holds.
                    if let Some((_, last)) = ticks {
                        let start_b = next_tick * p;
                        if next_tick <= last && start_b + TICK_NS < release {
                            let scan = self.scan_ops(start_b, Arg::Count(next_tick), release, false);
                            for op in scan {
                                ops.push((op.at_ns, 2, op));
                            }
                            self.count_scans(1);
                            let end = release + RLOCK_NS + self.visit_total_ns + RUNLOCK_NS;
                            next_tick = end.div_ceil(p).max(next_tick + 1);
                        }
                    }
                }
                window_tick = Some(tick_a);
                if grant > w {
                    self.totals.writer_scan = Some((start_a, tick_a));
                }
            }
            None => {
                grant = w;
                release = w + WRITER_HOLD_NS;
            }
        }
        let waited = grant - w;
        self.totals.writer_waits.push(waited);
        let mut arrive = vec![Effect::SetState { task: writer, state: TaskState::RunningKernel { cpu: 1 } }];
        if waited > 0 {
            arrive.push(Effect::Enqueue { lock, task: writer, mode: LockMode::Write });
            arrive.push(Effect::SetState { task: writer, state: TaskState::BlockedOnLock { lock } });
        }
        ops.push((
            w,
            1,
            Owned {
                at_ns: w,
                actor: Some(writer),
                kind: OpKind::Syscall,
                code: at(text::CLONE, 1),
                template: T::WRITER_ARRIVES,
                args: vec![Arg::Ns(w), Arg::Lock(lock)],
                effects: arrive,
            },
        ));
        if waited > 0 {
            ops.push((
                w,
                1,
                Owned {
                    at_ns: w,
                    actor: Some(writer),
                    kind: OpKind::LockContended,
                    code: at(text::CLONE, 1),
                    template: T::WRITER_WAITS,
                    args: vec![Arg::Lock(lock)],
                    effects: vec![],
                },
            ));
        }
        let mut granted =
            vec![Effect::Acquire { lock, task: writer, mode: LockMode::Write, waited_ns: waited }];
        if waited > 0 {
            granted.push(Effect::SetState { task: writer, state: TaskState::RunningKernel { cpu: 1 } });
        }
        ops.push((
            grant,
            1,
            Owned {
                at_ns: grant,
                actor: Some(writer),
                kind: if waited > 0 { OpKind::LockGranted } else { OpKind::LockFast },
                code: at(text::CLONE, 3),
                template: if waited > 0 { T::WRITER_GRANTED } else { T::WRITER_FREE },
                args: if waited > 0 { vec![Arg::Lock(lock), Arg::Ns(waited)] } else { vec![Arg::Lock(lock)] },
                effects: granted,
            },
        ));
        ops.push((
            release,
            0,
            Owned {
                at_ns: release,
                actor: Some(writer),
                kind: OpKind::LockRelease,
                code: at(text::CLONE, 2),
                template: T::WRITER_DONE,
                args: vec![Arg::Lock(lock)],
                effects: vec![
                    Effect::Release { lock, task: writer },
                    Effect::SetState { task: writer, state: TaskState::Sleeping { channel: self.ch_done } },
                ],
            },
        ));
        // Stable sort: by time, then releases before grants, then the order pushed.
        ops.sort_by_key(|(at_ns, order, _)| (*at_ns, *order));
        let label_args = [Arg::Count(window_tick.unwrap_or(0))];
        let label = match window_tick {
            Some(_) => say(T::ITER_TICK_WRITER.id(), &label_args),
            None => say(T::ITER_WRITER.id(), &[]),
        };
        self.builder.iteration(label);
        for (_, _, op) in &ops {
            self.emit(op);
        }
        let end = ops.last().map_or(w, |(at_ns, _, _)| *at_ns);
        // The window ends at the next scan tick (or just after its last op).
        let resume = (next_tick * p).max(end + 1);
        if ticks.is_some() {
            self.builder.advance_to(resume);
        }
        next_tick
    }
}

impl Sim<'_> {
    /// `runsc ps` after the sleep: `ThreadGroups()`, one more scan by another goroutine.
    fn runsc_ps(&mut self) {
        if !self.cfg.runsc_ps {
            return;
        }
        let (ps, lock) = (self.ps, self.taskset);
        let start = self.builder.now_ns();
        self.builder.phase(say(T::PHASE_PS.id(), &[]));
        self.builder.iteration(say(T::ITER_PS.id(), &[]));
        self.emit(&Owned {
            at_ns: start,
            actor: Some(ps),
            kind: OpKind::LockFast,
            code: at(self.append_fn(), 1),
            template: T::PS_RLOCK,
            args: vec![Arg::Lock(lock)],
            effects: vec![
                Effect::SetState { task: ps, state: TaskState::RunningKernel { cpu: 1 } },
                Effect::Acquire { lock, task: ps, mode: LockMode::Read, waited_ns: 0 },
            ],
        });
        let from = start + RLOCK_NS;
        for op in self.visit_ops.clone() {
            self.emit(&Owned { at_ns: from + op.at_ns, actor: Some(ps), ..op });
        }
        let end = from + self.visit_total_ns;
        let cpu = RLOCK_NS + self.visit_total_ns + RUNLOCK_NS;
        self.totals.ps_scan_ns = Some(cpu);
        self.emit(&Owned {
            at_ns: end,
            actor: Some(ps),
            kind: OpKind::LockRelease,
            code: at(self.append_fn(), 2),
            template: T::PS_DONE,
            args: vec![
                Arg::Count(self.visit_ops.len() as u64),
                Arg::Count(self.cfg.groups()),
                Arg::Ns(cpu),
                Arg::Lock(lock),
            ],
            effects: vec![
                Effect::Release { lock, task: ps },
                Effect::SetState { task: ps, state: TaskState::Sleeping { channel: self.ch_done } },
            ],
        });
        self.builder.advance_to(end + RUNLOCK_NS);
    }
}

/// What a sender does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    RLock,
    Walk,
    Visit(u64),
    Lock(u64),
    Signal(u64),
    Unlock(u64),
    Return,
    Done,
}

struct Sender {
    task: TaskId,
    next_at: Option<u64>,
    action: Action,
    held: Vec<LockId>,
    held_max: u64,
    blocked_since: u64,
}

impl Sim<'_> {
    /// `SendContainerSignal` from every sender. Returns the run's outcome.
    fn signal(&mut self) -> Outcome {
        let cfg = self.cfg;
        if cfg.senders == 0 {
            return Outcome::Completed;
        }
        let start = self.builder.now_ns();
        self.builder.phase(say(T::PHASE_SIGNAL.id(), &[Arg::Count(cfg.senders)]));
        let mut senders: Vec<Sender> = self
            .senders
            .iter()
            .enumerate()
            .map(|(k, &task)| Sender {
                task,
                next_at: Some(start + k as u64 * SENDER_GAP_NS),
                action: Action::RLock,
                held: Vec::new(),
                held_max: 0,
                blocked_since: 0,
            })
            .collect();
        let send = self.send_fn();
        let before = cfg.variant == Variant::Before;
        let (taskset, c_held, c_signals) = (self.taskset, self.c_held, self.c_signals);
        // Bounded: every action moves a sender forward or blocks it; at most
        // senders × (4 × sidecars + 4) actions, plus the handoffs.
        while let Some(index) = (0..senders.len())
            .filter(|&k| senders[k].next_at.is_some())
            .min_by_key(|&k| (senders[k].next_at, k))
        {
            let now = senders[index].next_at.expect("runnable");
            let task = senders[index].task;
            let name = Arg::Task(task);
            let cpu = u16::try_from(2 + index).expect("few senders");
            match senders[index].action {
                Action::RLock => {
                    debug_assert!(gosync::rlock_now(self.builder.world().lock(taskset)));
                    let label = [name, Arg::Word("SendContainerSignal")];
                    self.builder.iteration(say(T::ITER_SENDER.id(), &label));
                    self.emit(&Owned {
                        at_ns: now,
                        actor: Some(task),
                        kind: OpKind::LockFast,
                        code: at(send, 1),
                        template: T::SEND_RLOCK,
                        args: vec![name, Arg::Lock(taskset)],
                        effects: vec![
                            Effect::SetState { task, state: TaskState::RunningKernel { cpu } },
                            Effect::Acquire { lock: taskset, task, mode: LockMode::Read, waited_ns: 0 },
                        ],
                    });
                    senders[index].action = Action::Walk;
                    senders[index].next_at = Some(now + RLOCK_NS);
                }
                Action::Walk => {
                    // The benchmark's entries: every task before, one per process after.
                    let (what, entries, cost): (&'static str, u64, u64) = if before {
                        let cost = (0..cfg.bench_tasks()).map(|i| cfg.visit_cost(i)).sum();
                        ("tids (every task)", cfg.bench_tasks(), cost)
                    } else {
                        let cost = (0..cfg.processes).map(|g| cfg.visit_cost(cfg.leader(g))).sum();
                        ("tgids (thread groups)", cfg.processes, cost)
                    };
                    self.emit(&Owned {
                        at_ns: now,
                        actor: Some(task),
                        kind: OpKind::Compute,
                        code: at(send, 3),
                        template: T::SEND_WALK,
                        args: vec![name, Arg::Word(what), Arg::Count(entries), Arg::Ns(cost)],
                        effects: vec![],
                    });
                    senders[index].action = if cfg.sidecars > 0 { Action::Visit(0) } else { Action::Return };
                    senders[index].next_at = Some(now + cost.max(1));
                }
                Action::Visit(g) => {
                    let i = cfg.leader(cfg.processes + g);
                    let label = [name, Arg::Word("a matching thread group")];
                    self.builder.iteration(say(T::ITER_SENDER.id(), &label));
                    self.emit(&Owned {
                        at_ns: now,
                        actor: Some(task),
                        kind: OpKind::Compute,
                        code: at(send, 4),
                        template: T::SEND_VISIT,
                        args: vec![
                            name,
                            Arg::Count(g + 1),
                            Arg::Count(cfg.processes + g + 1),
                            Arg::Count(Config::tid(i)),
                        ],
                        effects: vec![],
                    });
                    senders[index].action = Action::Lock(g);
                    senders[index].next_at = Some(now + cfg.visit_cost(i));
                }
                Action::Lock(g) => {
                    let lock = self.sighand[g as usize];
                    let state = self.builder.world().lock(lock).clone();
                    if gosync::lock_now(&state) {
                        senders[index].held.push(lock);
                        let held = senders[index].held.len() as u64;
                        senders[index].held_max = senders[index].held_max.max(held);
                        self.emit(&Owned {
                            at_ns: now,
                            actor: Some(task),
                            kind: OpKind::LockFast,
                            code: at(send, 5),
                            template: if before { T::SEND_LOCK_DEFER } else { T::SEND_LOCK },
                            args: vec![name, Arg::Lock(lock), Arg::Count(held)],
                            effects: vec![
                                Effect::Acquire { lock, task, mode: LockMode::Write, waited_ns: 0 },
                                Effect::Count { counter: c_held, delta: 1 },
                            ],
                        });
                        senders[index].action = Action::Signal(g);
                        senders[index].next_at = Some(now + MUTEX_NS);
                    } else {
                        let own = gosync::relocks_own(&state, task);
                        let holder = state.holders.first().map_or(task, |h| h.task);
                        self.emit(&Owned {
                            at_ns: now,
                            actor: Some(task),
                            kind: OpKind::LockContended,
                            code: at(send, 5),
                            template: if own { T::SEND_SELF } else { T::SEND_BLOCKED },
                            args: vec![name, Arg::Lock(lock), Arg::Task(holder)],
                            effects: vec![
                                Effect::Enqueue { lock, task, mode: LockMode::Write },
                                Effect::SetState { task, state: TaskState::BlockedOnLock { lock } },
                            ],
                        });
                        senders[index].next_at = None;
                        senders[index].blocked_since = now;
                    }
                }
                Action::Signal(g) => {
                    self.emit(&Owned {
                        at_ns: now,
                        actor: Some(task),
                        kind: OpKind::Signal,
                        code: at(send, if before { 7 } else { 6 }),
                        template: T::SEND_SIGNAL,
                        args: vec![name],
                        effects: vec![Effect::Count { counter: c_signals, delta: 1 }],
                    });
                    senders[index].action = if before {
                        if g + 1 < cfg.sidecars {
                            Action::Visit(g + 1)
                        } else {
                            Action::Return
                        }
                    } else {
                        Action::Unlock(g)
                    };
                    senders[index].next_at = Some(now + SIGNAL_NS);
                }
                Action::Unlock(g) => {
                    let lock = self.sighand[g as usize];
                    senders[index].held.retain(|&l| l != lock);
                    let effects =
                        vec![Effect::Release { lock, task }, Effect::Decrease { counter: c_held, delta: 1 }];
                    self.emit(&Owned {
                        at_ns: now,
                        actor: Some(task),
                        kind: OpKind::LockRelease,
                        code: at(send, 7),
                        template: T::SEND_UNLOCK,
                        args: vec![name, Arg::Lock(lock)],
                        effects,
                    });
                    self.hand_off(lock, now, &mut senders);
                    senders[index].action =
                        if g + 1 < cfg.sidecars { Action::Visit(g + 1) } else { Action::Return };
                    senders[index].next_at = Some(now + MUTEX_NS);
                }
                Action::Return => {
                    self.builder.iteration(say(T::ITER_SENDER.id(), &[name, Arg::Word("return")]));
                    let mut t = now;
                    self.totals.locks_held_at_return.push(senders[index].held.len() as u64);
                    while let Some(lock) = senders[index].held.pop() {
                        let still = senders[index].held.len() as u64;
                        self.emit(&Owned {
                            at_ns: t,
                            actor: Some(task),
                            kind: OpKind::LockRelease,
                            code: at(send, 10),
                            template: T::SEND_DEFER_UNLOCK,
                            args: vec![name, Arg::Lock(lock), Arg::Count(still)],
                            effects: vec![
                                Effect::Release { lock, task },
                                Effect::Decrease { counter: c_held, delta: 1 },
                            ],
                        });
                        self.hand_off(lock, t, &mut senders);
                        t += MUTEX_NS;
                    }
                    let held_max = senders[index].held_max;
                    self.totals.locks_held_max = self.totals.locks_held_max.max(held_max);
                    self.emit(&Owned {
                        at_ns: t,
                        actor: Some(task),
                        kind: OpKind::LockRelease,
                        code: at(send, 2),
                        template: T::SEND_RUNLOCK,
                        args: vec![name, Arg::Lock(taskset), Arg::Count(held_max)],
                        effects: vec![
                            Effect::Release { lock: taskset, task },
                            Effect::SetState { task, state: TaskState::Sleeping { channel: self.ch_done } },
                        ],
                    });
                    senders[index].action = Action::Done;
                    senders[index].next_at = None;
                }
                Action::Done => senders[index].next_at = None,
            }
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
        senders[k].held.push(lock);
        let held = senders[k].held.len() as u64;
        senders[k].held_max = senders[k].held_max.max(held);
        let cpu = u16::try_from(2 + k).expect("few senders");
        self.emit(&Owned {
            at_ns: now,
            actor: Some(waiter.task),
            kind: OpKind::LockGranted,
            code: at(self.send_fn(), 5),
            template: T::SEND_GRANTED,
            args: vec![Arg::Task(waiter.task), Arg::Lock(lock), Arg::Ns(waited)],
            effects: vec![
                Effect::Acquire { lock, task: waiter.task, mode: LockMode::Write, waited_ns: waited },
                Effect::Count { counter: self.c_held, delta: 1 },
                Effect::SetState { task: waiter.task, state: TaskState::RunningKernel { cpu } },
            ],
        });
        if let Action::Lock(g) = senders[k].action {
            senders[k].action = Action::Signal(g);
        }
        senders[k].next_at = Some(now + MUTEX_NS);
    }

    /// Some sender never returns: a clone and the ticker queue behind it; the
    /// simulator's wait-for graph names the cycle.
    fn stall(&mut self) -> Outcome {
        let now = self.builder.now_ns();
        let (taskset, writer, ticker) = (self.taskset, self.writer, self.ticker);
        self.builder.phase(say(T::PHASE_STALL.id(), &[]));
        self.builder.iteration(say(T::ITER_STALL.id(), &[]));
        let found = find_deadlock(&self.builder.world().locks);
        if let Some(deadlock) = &found {
            let (task, lock) = deadlock.cycle[0];
            self.emit(&Owned {
                at_ns: now,
                actor: Some(task),
                kind: OpKind::Deadlock,
                code: at(self.send_fn(), 5),
                template: T::DEADLOCK,
                args: vec![Arg::Task(task), Arg::Lock(lock)],
                effects: vec![],
            });
            let layout = &self.builder.layout;
            let words: Vec<String> = deadlock
                .cycle
                .iter()
                .map(|(t, l)| format!("{} waits for {}", layout.task_name(*t), layout.lock_name(*l)))
                .collect();
            let text = if words.len() == 1 {
                format!("{}, which it holds itself", words[0])
            } else {
                format!("{}, each lock held by the next", words.join("; "))
            };
            self.totals.deadlock_text = Some(text);
        }
        // Our reading of the code: a clone 100 µs later waits behind the stuck reader…
        let w = now + 100_000;
        self.emit(&Owned {
            at_ns: w,
            actor: Some(writer),
            kind: OpKind::LockContended,
            code: at(text::CLONE, 1),
            template: T::STALL_WRITER,
            args: vec![Arg::Lock(taskset)],
            effects: vec![
                Effect::SetState { task: writer, state: TaskState::RunningKernel { cpu: 1 } },
                Effect::Enqueue { lock: taskset, task: writer, mode: LockMode::Write },
                Effect::SetState { task: writer, state: TaskState::BlockedOnLock { lock: taskset } },
            ],
        });
        // …and the ticker's next tick waits behind the waiting writer.
        let tick = (w / self.cfg.tick_ns + 1) * self.cfg.tick_ns;
        if !self.cfg.idle_stop {
            debug_assert!(!gosync::rlock_now(self.builder.world().lock(taskset)));
            self.emit(&Owned {
                at_ns: tick,
                actor: Some(ticker),
                kind: OpKind::LockContended,
                code: at(self.append_fn(), 1),
                template: T::STALL_TICKER,
                args: vec![Arg::Lock(taskset)],
                effects: vec![
                    Effect::SetState { task: ticker, state: TaskState::RunningKernel { cpu: 0 } },
                    Effect::Enqueue { lock: taskset, task: ticker, mode: LockMode::Read },
                    Effect::SetState { task: ticker, state: TaskState::BlockedOnLock { lock: taskset } },
                ],
            });
        }
        self.totals.deadlock = found.clone();
        match found {
            Some(deadlock) => Outcome::Deadlock(deadlock),
            None => Outcome::Completed,
        }
    }
}
