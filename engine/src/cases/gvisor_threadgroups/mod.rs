//! `gvisor-threadgroups`: gVisor's sentry scans every task to find thread
//! groups, 100 times a second, while 16,384 benchmark threads sleep (seed 003,
//! commit 4968dd13 "Cache ThreadGroups in PIDNamespace"); and, in the same diff,
//! `SendContainerSignal`'s `defer Unlock()` inside a loop.

mod extras;
mod sim;
mod text;
mod tour;

use crate::case::{Case, CaseMeta, ReportedFigure, Source, VariantGroup, VariantSpec};
use crate::run::params::{ParamKind, ParamSpec, ParamValues};
use crate::run::trace::{Metric, Run};
use crate::run::world::{Bucket, TaskId};
pub use extras::{ScalingPoint, SentryShape, REPORTED_AFTER, REPORTED_BEFORE};
use std::collections::BTreeMap;

pub struct GvisorThreadgroups;

const MS: u64 = 1_000_000;
const SECOND: u64 = 1_000_000_000;
/// The model stores one scan's visits op by op (so that any visit expands), once per
/// stretch of identical scans and once per scan around the clone: up to five scans'
/// worth, which must fit the run's stored-ops budget (`run::budget`). So the task set
/// is capped at a fifth of it, 24,000 (the seed's largest was 16,384); the property
/// test found 245,804 stored ops at the earlier cap of 65,536.
pub const MAX_TASKS: u64 = crate::run::budget::STORED_OPS_MAX as u64 / 5;
/// The name of `Kernel.extMu` in a run's locks (the stage keeps it out of the
/// SignalHandlers pile, and its deferred Unlock last).
pub const EXT_MU_LOCK: &str = "k.extMu";

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "threads_per_process",
        label: "Threads per process",
        kind: ParamKind::Count { min: 1, max: 16_384, default: 16_384 },
        description: "Threads the benchmark creates in each process; all of them sleep. The whole task set is capped at 24,000 tasks (threads are reduced to fit, and the run says so).",
    },
    ParamSpec {
        name: "processes",
        label: "Processes",
        kind: ParamKind::Count { min: 1, max: 4_096, default: 1 },
        description: "Benchmark processes (thread groups). The seed's benchmark is one process.",
    },
    ParamSpec {
        name: "duration",
        label: "Sleep",
        kind: ParamKind::Duration { min_ns: 10 * MS, max_ns: 600 * SECOND, default_ns: 120 * SECOND },
        description: "How long every benchmark thread sleeps (the seed: two minutes).",
    },
    ParamSpec {
        name: "tick_hz",
        label: "Ticker rate",
        kind: ParamKind::Count { min: 1, max: 1_000, default: 100 },
        description: "CPU-clock ticker rate: linux.ClockTick is 1 s / CLOCKS_PER_SEC (100) = 10 ms.",
    },
    ParamSpec {
        name: "visit_ns",
        label: "Cost per visit",
        kind: ParamKind::Duration { min_ns: 1, max_ns: 10_000, default_ns: sim::VISIT_NS_DEFAULT },
        description: "Mean cost of visiting one map entry (two dependent loads, map walking); calibrated on the seed at 16,384 threads (≈ 88 ns).",
    },
    ParamSpec {
        name: "visit_spread",
        label: "Hot/cold spread",
        kind: ParamKind::Count { min: 0, max: 100, default: 50 },
        description: "A cache-hot visit costs visit_ns × (1 − spread %), a cold one × (1 + spread %); the seed picks the share of cold visits for the run.",
    },
    ParamSpec {
        name: "ticker_idle_stop",
        label: "Ticker stops when idle",
        kind: ParamKind::Switch { default: false },
        description: "dd69b49 (October 2019): stop the CPU-clock ticker while no task runs. On in the variant tgids+idle-stop.",
    },
    ParamSpec {
        name: "writer_at",
        label: "A clone at",
        kind: ParamKind::Duration { min_ns: 0, max_ns: 600 * SECOND, default_ns: 60 * SECOND + 10 * MS + 500_000 },
        description: "When a clone() (a writer of TaskSet.mu) reaches the sentry during the sleep; 0 or beyond the sleep: none.",
    },
    ParamSpec {
        name: "senders",
        label: "Signal senders",
        kind: ParamKind::Count { min: 0, max: 4, default: 2 },
        description: "Goroutines calling SendContainerSignal (runsc kill --all, which pauses the kernel around it) at the end of the sleep, 1 µs apart; in the job-control variant, task goroutines calling ProcessGroup.SendSignal; 0: none.",
    },
    ParamSpec {
        name: "runsc_ps",
        label: "runsc ps after the sleep",
        kind: ParamKind::Switch { default: true },
        description: "A process listing (runsc ps; /proc listings, kill(-1) and kill(-pgid) go the same way) calls ThreadGroups(): one more scan, by another goroutine.",
    },
    ParamSpec {
        name: "matching_groups",
        label: "Matching thread groups",
        kind: ParamKind::Count { min: 0, max: 16, default: 4 },
        description: "Single-threaded sidecar processes in the container the signal targets (they live through the whole run).",
    },
    ParamSpec {
        name: "shared_sighand",
        label: "Shared SignalHandlers",
        kind: ParamKind::Switch { default: false },
        description: "Sidecar 2 was cloned from sidecar 1 with CLONE_VM|CLONE_SIGHAND and without CLONE_THREAD (gVisor refuses shared handlers without a shared address space), so it inherited the container ID and the process group, and neither has called exec since (exec gives a group its own copy): two thread groups, one SignalHandlers.",
    },
];

const VARIANTS: &[VariantSpec] = &[
    VariantSpec {
        id: "before",
        label: "Before (as reported, 82529bec)",
        description: "ThreadGroupsAppend ranges over every task; SendContainerSignal defers each Unlock to its return.",
        group: VariantGroup::AsReported,
    },
    VariantSpec {
        id: "tgids",
        label: "tgids (the fix, 4968dd13)",
        description: "A tgids map per PID namespace: scans range over thread groups; the signal loop unlocks at the end of each iteration.",
        group: VariantGroup::Fix,
    },
    VariantSpec {
        id: "tgids+idle-stop",
        label: "tgids + idle ticker stop (dd69b49)",
        description: "The fix, and the later commit that stops the CPU-clock ticker while no task runs.",
        group: VariantGroup::Fix,
    },
    VariantSpec {
        id: "job-control",
        label: "Job control (ProcessGroup.SendSignal, 82529bec)",
        description: "The same defer in a loop on the TTY's job-control path: task goroutines inside the sandbox, no k.extMu, no pause. Two senders may take the locks in different map orders.",
        group: VariantGroup::AsReported,
    },
];

static META: CaseMeta = CaseMeta {
    id: "gvisor-threadgroups",
    title: "17 seconds of CPU for 16,384 sleeping threads",
    year: 2019,
    system: "gVisor sentry (Go), 2019",
    summary: "A benchmark's threads all sleep for two minutes, and gVisor spends 17\u{a0}s of CPU scanning them 100 times a second.",
    sources: &[
        Source {
            label: "gVisor commit 4968dd13 \"Cache ThreadGroups in PIDNamespace\" (the seed)",
            url: "https://github.com/google/gvisor/commit/4968dd1341a04e93557bdd9f4b4b83eb508e026d",
        },
        Source {
            label: "threads.go at the parent (ThreadGroupsAppend, TaskSet.mu)",
            url: "https://github.com/google/gvisor/blob/82529becaee6f5050cb3ebb4aaa7a798357c1cf1/pkg/sentry/kernel/threads.go#L250",
        },
        Source {
            label: "task_sched.go at the parent (the CPU-clock ticker)",
            url: "https://github.com/google/gvisor/blob/82529becaee6f5050cb3ebb4aaa7a798357c1cf1/pkg/sentry/kernel/task_sched.go#L343",
        },
        Source {
            label: "kernel.go at the parent (SendContainerSignal's defer)",
            url: "https://github.com/google/gvisor/blob/82529becaee6f5050cb3ebb4aaa7a798357c1cf1/pkg/sentry/kernel/kernel.go#L872",
        },
        Source {
            label: "task_stop.go at the parent (Kernel.Pause's BeginExternalStop walks every task)",
            url: "https://github.com/google/gvisor/blob/82529becaee6f5050cb3ebb4aaa7a798357c1cf1/pkg/sentry/kernel/task_stop.go#L190",
        },
        Source {
            label: "loader.go at the parent (runsc kill --all: Pause, SendContainerSignal, Unpause)",
            url: "https://github.com/google/gvisor/blob/82529becaee6f5050cb3ebb4aaa7a798357c1cf1/runsc/boot/loader.go#L907",
        },
        Source {
            label: "sessions.go at the parent (ProcessGroup.SendSignal's defer)",
            url: "https://github.com/google/gvisor/blob/82529becaee6f5050cb3ebb4aaa7a798357c1cf1/pkg/sentry/kernel/sessions.go#L237",
        },
        Source {
            label: "watchdog.go at the parent (runTurn, DefaultTimeout)",
            url: "https://github.com/google/gvisor/blob/82529becaee6f5050cb3ebb4aaa7a798357c1cf1/pkg/sentry/watchdog/watchdog.go#L192",
        },
        Source {
            label: "threads.go at the fix (tgids)",
            url: "https://github.com/google/gvisor/blob/4968dd1341a04e93557bdd9f4b4b83eb508e026d/pkg/sentry/kernel/threads.go#L151",
        },
        Source {
            label: "gVisor commit dd69b49e \"Disable cpuClockTicker when app is idle\"",
            url: "https://github.com/google/gvisor/commit/dd69b49ed1103bab82a6b2ac95221b89b46f3376",
        },
    ],
    params: PARAMS,
    variants: VARIANTS,
    reported: &[
        ReportedFigure {
            metric: "scan_cpu_ns",
            label: "CPU in ThreadGroupsAppend",
            reported: "17,210 ms at 16,384 threads over 2 min (before); 0 ms after",
        },
        ReportedFigure { metric: "deadlock", label: "defer in a loop", reported: "not mentioned by the commit" },
    ],
    headline_metric: "scan_cpu_ns",
    headline_label: "of CPU scanning 16,384 sleeping threads in 2 minutes",
};

fn config(params: &ParamValues, variant: &str, seed: u64) -> (sim::Config, bool) {
    let processes = params.unsigned("processes");
    let sidecars = params.unsigned("matching_groups");
    let wanted = params.unsigned("threads_per_process");
    // The cap: processes ≤ 4,096 and sidecars ≤ 16, so at least 5 threads each fit.
    let fit = (MAX_TASKS - sidecars) / processes;
    let threads = wanted.min(fit).max(1);
    let cfg = sim::Config {
        variant: if variant == "before" || variant == "job-control" {
            sim::Variant::Before
        } else {
            sim::Variant::Tgids
        },
        threads_per_process: threads,
        processes,
        sidecars,
        duration_ns: params.unsigned("duration"),
        tick_ns: SECOND / params.unsigned("tick_hz"),
        visit_ns: params.unsigned("visit_ns"),
        spread_pct: params.unsigned("visit_spread"),
        idle_stop: params.switch("ticker_idle_stop") || variant == "tgids+idle-stop",
        writer_at_ns: params.unsigned("writer_at"),
        senders: params.unsigned("senders"),
        runsc_ps: params.switch("runsc_ps"),
        shared_sighand: params.switch("shared_sighand"),
        job_control: variant == "job-control",
        seed,
        capped: threads < wanted,
    };
    (cfg, threads < wanted)
}

/// CPU time in ThreadGroupsAppend for `threads` in one process (the report's
/// benchmark, no sidecars) over the run's duration, in closed form: scans × (RLock +
/// Σ visits + RUnlock); and one runsc kill's pause and unpause at that size.
fn scaling_point(cfg: &sim::Config, threads: u64) -> ScalingPoint {
    let mut at = cfg.clone();
    at.threads_per_process = threads;
    at.processes = 1;
    // The report's benchmark: one process of N threads and nothing else in the sandbox.
    at.sidecars = 0;
    let scans = |c: &sim::Config, scan_cpu: u64| {
        if c.idle_stop {
            return 0;
        }
        let scan_ns = sim::TICK_NS + scan_cpu;
        let period = (scan_ns / c.tick_ns + 1) * c.tick_ns;
        let last_tick = c.duration_ns / c.tick_ns;
        if last_tick == 0 {
            0
        } else {
            (last_tick - 1) / (period / c.tick_ns) + 1
        }
    };
    let cpu = |c: &sim::Config, visits_ns: u64| {
        let scan_cpu = sim::RLOCK_NS + visits_ns + sim::RUNLOCK_NS;
        scans(c, scan_cpu) * scan_cpu
    };
    let mut before = at.clone();
    before.variant = sim::Variant::Before;
    let mut after = at.clone();
    after.variant = sim::Variant::Tgids;
    let (hot, cold) = (at.hot_ns(), at.cold_ns());
    ScalingPoint {
        threads,
        before_ns: cpu(&before, before.scan_visits_ns()),
        tgids_ns: cpu(&after, after.scan_visits_ns()),
        before_hot_ns: cpu(&before, before.visits_per_scan() * hot),
        before_cold_ns: cpu(&before, before.visits_per_scan() * cold),
        pause_ns: at.pause_walk_ns() + at.unpause_walk_ns(),
    }
}

pub(crate) const SCALING_THREADS: &[u64] = &[1, 1_024, 2_048, 4_096, 8_192, 12_288, 16_384];

impl Case for GvisorThreadgroups {
    fn meta(&self) -> &'static CaseMeta {
        &META
    }

    fn wire(&self) -> crate::run::wire::CaseWire {
        crate::run::wire::CaseWire::with_extras::<extras::SentryShape>(text::TEMPLATES, text::CODE)
    }

    fn tour(&self) -> &'static crate::tour::Tour {
        &tour::TOUR
    }

    fn csv_tables(&self, run: &Run) -> Vec<crate::export::csv::Table> {
        run.extras::<extras::SentryShape>().map(extras::SentryShape::csv_tables).unwrap_or_default()
    }

    fn charts(&self, run: &Run) -> Vec<crate::export::chart::Chart> {
        run.extras::<extras::SentryShape>().map(|shape| vec![shape.scaling_chart()]).unwrap_or_default()
    }

    fn run_validated(&self, params: &ParamValues, variant: &'static str, seed: u64) -> Run {
        let (cfg, capped) = config(params, variant, seed);
        let finished = sim::run(&cfg);
        let totals = &finished.totals;
        let world = finished.builder.world();
        let ticker_sys = world.task_times(TaskId(0))[Bucket::Sys as usize];
        let mut metrics = BTreeMap::new();
        let mut put = |key: &str, value: Metric| {
            metrics.insert(key.to_string(), value);
        };
        put("threads", Metric::Count(cfg.bench_tasks()));
        put("thread_groups", Metric::Count(cfg.groups()));
        put("tasks", Metric::Count(cfg.total_tasks()));
        put("task_cap_applied", Metric::Count(u64::from(capped)));
        put("scans", Metric::Count(totals.scans));
        put("tasks_visited", Metric::Count(totals.tasks_visited));
        put("visits_per_scan", Metric::Count(cfg.visits_per_scan()));
        put("scan_ns", Metric::Ns(totals.scan_ns));
        put("scan_cpu_ns", Metric::Ns(totals.scan_cpu_ns));
        put("ticker_cpu_ns", Metric::Ns(ticker_sys));
        put("cpu_share", Metric::Ratio(ticker_sys as f64 / totals.sleep_end_ns.max(1) as f64));
        let wait_max = totals.writer_waits.iter().copied().max().unwrap_or(0);
        let wait_total: u64 = totals.writer_waits.iter().sum();
        put("writer_wait_max_ns", Metric::Ns(wait_max));
        put("writer_wait_total_ns", Metric::Ns(wait_total));
        put(
            "writer_wait_ns",
            Metric::Object(BTreeMap::from([
                ("max".to_string(), Metric::Ns(wait_max)),
                ("total".to_string(), Metric::Ns(wait_total)),
            ])),
        );
        put("ps_scan_ns", Metric::None(totals.ps_scan_ns));
        put("sender_wait_max_ns", Metric::Ns(totals.sender_waits.iter().copied().max().unwrap_or(0)));
        put("locks_held_max", Metric::Count(totals.locks_held_max));
        put("pause_walk_ns", Metric::Ns(totals.pause_walk_ns));
        put("unpause_walk_ns", Metric::Ns(totals.unpause_walk_ns));
        put("pause_cpu_ns", Metric::Ns(totals.pause_cpu_ns));
        put("freeze_at_ns", Metric::None(totals.freeze_at_ns));
        put("clock_stopped_tick", Metric::None(totals.clock_stopped_tick));
        put("watchdog_report_ns", Metric::None(totals.watchdog_report_ns));
        put(
            "locks_held_at_return",
            Metric::List(totals.locks_held_at_return.iter().map(|&n| Metric::Count(n)).collect()),
        );
        put(
            "deadlock",
            match &totals.deadlock_text {
                Some(text) => Metric::Text(text.clone()),
                None => Metric::None(None),
            },
        );
        let scaling = SCALING_THREADS.iter().map(|&n| scaling_point(&cfg, n)).collect();
        let shape = SentryShape {
            tgids: cfg.variant == sim::Variant::Tgids,
            idle_stop: cfg.idle_stop,
            threads_per_process: cfg.threads_per_process,
            processes: cfg.processes,
            sidecars: cfg.sidecars,
            total_tasks: cfg.total_tasks(),
            visits_per_scan: cfg.visits_per_scan(),
            tick_ns: cfg.tick_ns,
            duration_ns: cfg.duration_ns,
            seed,
            visit_ns: cfg.visit_ns,
            hot_ns: cfg.hot_ns(),
            cold_ns: cfg.cold_ns(),
            cold_ppm: cfg.cold_ppm(),
            scan_ns: totals.scan_ns,
            scan_period_ns: totals.scan_period_ns,
            scans: totals.scans,
            shared_sighand: cfg.shared_sighand && cfg.sidecars >= 2,
            senders: cfg.senders,
            writer_scan: totals.writer_scan,
            writer_wait_ns: totals.writer_waits.first().copied(),
            scaling,
            reported_before: REPORTED_BEFORE,
            reported_after: REPORTED_AFTER,
            append_fn: if cfg.variant == sim::Variant::Before {
                text::APPEND_BEFORE
            } else {
                text::APPEND_AFTER
            },
            send_fn: match (cfg.job_control, cfg.variant) {
                (true, _) => text::JOB_CONTROL,
                (false, sim::Variant::Before) => text::SEND_BEFORE,
                (false, sim::Variant::Tgids) => text::SEND_AFTER,
            },
            job_control: cfg.job_control,
            pause_walk_ns: totals.pause_walk_ns,
            unpause_walk_ns: totals.unpause_walk_ns,
            watchdog_report_ns: totals.watchdog_report_ns,
            ticker_fn: text::TICKER,
            clone_fn: text::CLONE,
            deadlock: totals.deadlock_text.clone(),
        };
        let mut run =
            finished.builder.finish(META.id, variant, seed, params.clone(), finished.outcome, metrics);
        // The simulation's work is one step per block it emits (identical scans are one
        // repeat block, any visit expanded on demand).
        run.simulated_steps = run.stored().1 as u64;
        run.set_extras(shape);
        use text::T;
        let first = |templates: &[T]| {
            run.first_op_with_template(&templates.iter().map(|t| t.id()).collect::<Vec<_>>())
        };
        let moments = [
            (first(&[T::RLOCK]), "the ticker scans every task"),
            (first(&[T::WRITER_WAITS]), "a clone waits for TaskSet.mu"),
            (first(&[T::PAUSE_WALK]), "the pause stops every task"),
            (first(&[T::SEND_LOCK_DEFER]), "a defer inside the loop: locks pile up"),
            (first(&[T::DEADLOCK, T::DEADLOCK_PAIR, T::DEADLOCK_RING]), "deadlock"),
            (first(&[T::FREEZE_TICK]), "the ticker queues: the CPU clock stops"),
            (first(&[T::WATCHDOG_STUCK]), "the watchdog reports"),
        ];
        run.set_chapters(&moments);
        run
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scaling plot sums a scan's visits in closed form; it must equal the sum
    /// the run's own scan expands visit by visit.
    #[test]
    fn a_scans_closed_form_sum_is_the_sum_of_its_visits() {
        for (variant, seed) in [("before", 1), ("before", 7), ("tgids", 3)] {
            let (cfg, _) = config(&META.default_params(), variant, seed);
            let expanded_ns: u64 = cfg.visits().map(|i| cfg.visit_cost(i)).sum();
            assert_eq!(cfg.scan_visits_ns(), expanded_ns, "{variant} seed {seed}");
            assert_eq!(cfg.visits_per_scan(), cfg.visits().count() as u64);
        }
    }
}
