//! `gvisor-threadgroups`: gVisor's sentry scans every task to find thread
//! groups, 100 times a second, while 16,384 benchmark threads sleep (seed 003,
//! commit 4968dd13 "Cache ThreadGroups in PIDNamespace"); and, in the same diff,
//! `SendContainerSignal`'s `defer Unlock()` inside a loop.

mod tour;
// The simulation: built only with the case's feature (see `registry`).
#[cfg(all(feature = "gvisor-threadgroups", feature = "stage-claims"))]
mod claims;
#[cfg(feature = "gvisor-threadgroups")]
mod extras;
#[cfg(feature = "gvisor-threadgroups")]
mod model;
#[cfg(feature = "gvisor-threadgroups")]
mod sim;
#[cfg(feature = "gvisor-threadgroups")]
mod text;
#[cfg(feature = "gvisor-threadgroups")]
pub use model::*;

use crate::case::{CaseMeta, Golden, ReportedFigure, Source, VariantGroup, VariantSpec};
use crate::run::params::{ParamKind, ParamSpec};

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

/// Calibrated on seed 003: 17,210 ms of CPU in ThreadGroupsAppend over 2 min at
/// 100 Hz (12,000 scans) of 16,384 threads ≈ 87.5 ns per task visited (the 8,192-thread
/// point gives ≈ 185 ns; the 1,024-thread points 1–743 ns, so we do not fit single points).
const VISIT_NS_DEFAULT: u64 = 88;

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
        kind: ParamKind::Duration { min_ns: 1, max_ns: 10_000, default_ns: VISIT_NS_DEFAULT },
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

pub static META: CaseMeta = CaseMeta {
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
    tour: &tour::TOUR,
    today: None,
    golden: Some(Golden { variant: "before", seed: 1, trace_hash: "eda2a70aa7019807" }),
};
