//! `coredump-threads`: a 20-thread process takes 13.7 s to die on SIGQUIT
//! (Linux 2.6.14-rc2, seed 000). Group stop, `yield()` on the O(1) scheduler,
//! and a `siglock` taken over and over by threads looping in the kernel.
//!
//! One deterministic machine (`machine.rs`) runs the seed's program on one CPU
//! with 2.6.14's rules; it records the trace as it goes (up to a stored-op
//! budget) and counts every figure itself, so the metrics cover the whole run
//! even when the trace stops early.

mod tour;
// The simulation: built only with the case's feature (see `registry`).
#[cfg(all(feature = "coredump-threads", feature = "stage-claims"))]
mod claims;
#[cfg(feature = "coredump-threads")]
mod extras;
#[cfg(feature = "coredump-threads")]
pub mod machine;
#[cfg(feature = "coredump-threads")]
mod model;
#[cfg(feature = "coredump-threads")]
mod text;
#[cfg(feature = "coredump-threads")]
pub mod today;
#[cfg(feature = "coredump-threads")]
pub use model::*;

use crate::case::{CaseMeta, Golden, ReportedFigure, Source, VariantGroup, VariantSpec};
use crate::run::params::{ParamKind, ParamSpec};

const MS: u64 = 1_000_000;
const S: u64 = 1_000_000_000;

/// The soft CPU limits a run can set (setrlimit takes whole seconds); the seed's
/// command line `./thread_share_RLIMIT_CPU 5 20` sets 5.
const RLIMIT_CPU_OPTIONS: &[&str] =
    &["none", "1", "2", "3", "4", "5", "6", "7", "8", "10", "15", "20", "30", "60", "120", "300"];

const SIGNALS: &[&str] = &["SIGQUIT", "SIGSEGV", "SIGABRT", "SIGINT", "SIGTERM"];

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "threads",
        label: "Threads",
        kind: ParamKind::Count { min: 1, max: 4_096, default: 20 },
        description: "Threads main creates (the reporter: 20).",
    },
    ParamSpec {
        name: "mode",
        label: "Threads do",
        kind: ParamKind::Choice { options: &["spin", "pause"], default: "spin" },
        description: "spin: the seed's loop (user time, a times() call each round). pause: each thread sleeps in pause() instead (the reporter's other test).",
    },
    ParamSpec {
        name: "signal",
        label: "Signal",
        kind: ParamKind::Choice { options: SIGNALS, default: "SIGQUIT" },
        description: "SIGQUIT, SIGSEGV and SIGABRT dump core (a group stop first); SIGINT and SIGTERM are fatal without a core dump.",
    },
    ParamSpec {
        name: "signal_at",
        label: "Signal sent at",
        kind: ParamKind::Duration { min_ns: 500 * MS, max_ns: 60 * S, default_ns: 1_300 * MS },
        description: "When ^\\ is typed, from launch. The reporter's threads had printed \"cpu=1.26\": about 1.3 s.",
    },
    ParamSpec {
        name: "dumpable",
        label: "Dumpable",
        kind: ParamKind::Switch { default: true },
        description: "Off: a set-uid program (mm->dumpable = 0): do_coredump gives up before the group exit.",
    },
    ParamSpec {
        name: "core_limit",
        label: "RLIMIT_CORE",
        kind: ParamKind::Choice { options: &["0", "unlimited"], default: "0" },
        description: "ulimit -c. Checked only after coredump_wait: it cannot shorten the stall (the reporter had 0).",
    },
    ParamSpec {
        name: "nice",
        label: "Nice",
        kind: ParamKind::Signed { min: -20, max: 19, default: 0 },
        description: "Nice of the whole process: sets the timeslice (task_timeslice) and what counts as interactive.",
    },
    ParamSpec {
        name: "preempt",
        label: "CONFIG_PREEMPT",
        kind: ParamKind::Switch { default: true },
        description: "The reporter's kernel had it. It changes nothing here: every reschedule in this program happens on a return to user mode or in entry.S's work loop, which test need_resched with or without kernel preemption.",
    },
    ParamSpec {
        name: "hz",
        label: "HZ",
        kind: ParamKind::Choice { options: &["100", "250", "1000"], default: "250" },
        description: "Timer ticks per second. The reporter's is unknown; 250 was the i386 default from 2.6.13 on. Timeslices are counted in ticks.",
    },
    ParamSpec {
        name: "cpus",
        label: "CPUs",
        kind: ParamKind::Count { min: 1, max: 4, default: 1 },
        description: "CPUs online, each with its own run queue. The reporter's user + sys equals real: one CPU in effect. With two or more, the looping threads fight over siglock.",
    },
    ParamSpec {
        name: "rlimit_cpu",
        label: "RLIMIT_CPU (s)",
        kind: ParamKind::Choice { options: RLIMIT_CPU_OPTIONS, default: "5" },
        description: "The soft CPU limit main sets with setrlimit (the reporter ran `thread_share_RLIMIT_CPU 5 20`: 5 s). When the process's CPU time reaches it, the kernel sends SIGXCPU (a core-dump signal) and raises the limit by a second, so one more follows every CPU-second. none: no limit.",
    },
];

const VARIANTS: &[VariantSpec] = &[
    VariantSpec {
        id: "2.6.14-rc2",
        label: "Linux 2.6.14-rc2 (as reported)",
        description: "coredump_wait() calls yield(); group_stop_count stays set, so the other threads loop in get_signal_to_deliver.",
        group: VariantGroup::AsReported,
    },
    VariantSpec {
        id: "no-yield",
        label: "+ fix a: no yield()",
        description: "Oleg Nesterov's \"coredump_wait() cleanup\" (October 2005): zap_threads at once, no yield().",
        group: VariantGroup::Fix,
    },
    VariantSpec {
        id: "reset-group-stop",
        label: "+ fixes a and b",
        description: "Also \"do_coredump() should reset group_stop_count earlier\" (November 2005): group_stop_count = 0 with SIGNAL_GROUP_EXIT.",
        group: VariantGroup::Fix,
    },
    VariantSpec {
        id: "2.6.18",
        label: "Linux 2.6.18",
        description: "SIGNAL_GROUP_EXIT and SIGKILL to every other thread in one siglock section (April 2006 coredump rework).",
        group: VariantGroup::Fix,
    },
    VariantSpec {
        id: "reset-only",
        label: "fix b alone (hypothetical)",
        description: "group_stop_count reset but yield() kept: never shipped. Still slow, now in user time.",
        group: VariantGroup::WhatIf,
    },
    VariantSpec {
        id: "today",
        label: "Linux 6.18 today, on the project's machine",
        description: "core_state, zap_threads with SIGKILL queued under SIGNAL_GROUP_EXIT, no yield(); each thread waits in coredump_task_exit. Costs measured on a 2-vCPU AMD EPYC VM running 6.18.44 (tools/measure/coredump-threads).",
        group: VariantGroup::Today,
    },
];

/// Michael Kerrisk's report on LKML.
pub const REPORT_URL: &str = "https://lore.kernel.org/lkml/20206.1127391230@www22.gmx.net/";

pub static META: CaseMeta = CaseMeta {
    id: "coredump-threads",
    title: "Twenty threads take 13.7 s to die on SIGQUIT",
    year: 2005,
    system: "Linux 2.6.14-rc2",
    summary: "A process with 20 spinning threads needs 13.69 s to die on ^\\ (11.98 s of it sys time), even with ulimit -c 0; SIGINT kills it at once.",
    sources: &[
        Source { label: "Michael Kerrisk's report (LKML, 22 September 2005)", url: REPORT_URL },
        Source {
            label: "Oleg Nesterov's diagnosis (LKML, 12 October 2005)",
            url: "https://lore.kernel.org/lkml/434D48FA.FD0439AA@tv-sign.ru/",
        },
        Source { label: "kernel/signal.c at v2.6.14", url: "https://elixir.bootlin.com/linux/v2.6.14/source/kernel/signal.c" },
        Source { label: "fs/exec.c at v2.6.14", url: "https://elixir.bootlin.com/linux/v2.6.14/source/fs/exec.c" },
        Source { label: "kernel/sched.c at v2.6.14", url: "https://elixir.bootlin.com/linux/v2.6.14/source/kernel/sched.c" },
        Source { label: "fs/coredump.c at v6.18 (today)", url: "https://elixir.bootlin.com/linux/v6.18/source/fs/coredump.c" },
    ],
    params: PARAMS,
    variants: VARIANTS,
    reported: &[
        ReportedFigure { metric: "real_ns", label: "real (time)", reported: "13.69 s" },
        ReportedFigure { metric: "user_ns", label: "user", reported: "1.39 s" },
        ReportedFigure { metric: "sys_ns", label: "sys", reported: "11.98 s" },
        ReportedFigure {
            metric: "exit_latency_ns",
            label: "signal → death",
            reported: "about 12 s (13.69 s real, and the threads had spun about 1.3 s before ^\\)",
        },
    ],
    headline_metric: "exit_latency_ns",
    headline_label: "from SIGQUIT to the last thread gone (20 threads, 2.6.14-rc2)",
    tour: &tour::TOUR,
    today: Some(&TODAY),
    golden: Some(Golden { variant: "2.6.14-rc2", seed: 1, trace_hash: "9117a94dd8b91216" }),
};

/// The report's `time` line (real, user, sys) as the seed prints it.
pub const REPORTED_TIME_LINE: [&str; 3] = ["0m13.690s", "0m1.388s", "0m11.977s"];

/// The report's point on the scaling plot: (threads, signal to the last thread gone,
/// what it is). The seed's `time` line gives 13.69 s real for 20 threads with the
/// seed's 5 s CPU limit, of which the threads had spun about 1.3 s before ^\ (so
/// about 12.4 s after it) (`docs/cases/coredump-threads.md`, "What was reported").
pub const REPORTED_EXIT_POINTS: &[(u64, u64, &str)] =
    &[(20, 12_390_000_000, "the report: 20 threads, about 12.4 s after ^\\")];

/// The second point quoted later in the LKML thread: 100 threads on 2.6.14-rc4, about
/// 90 s, with the program's arguments (its CPU limit) and the signal's time not given.
pub const UNKNOWN_SETUP_EXIT_POINTS: &[(u64, u64, &str)] = &[(
    100,
    90_000_000_000,
    "later in the thread: 100 threads, about 90 s (2.6.14-rc4; CPU limit and signal time not given)",
)];

/// The seed's program measured on today's kernel, for the settings of a run: (threads,
/// median signal-to-reaped time) at each measured N ≥ 1, from the results file
/// (`tools/measure/coredump-threads/results.tsv`). Spinning threads: the sessions in
/// their own scheduler autogroup, on both vCPUs (`cpus` = 2) or pinned to one (`cpus`
/// = 1); threads in `pause()`: the unpinned session. Empty for settings that were not
/// measured (other signals or CPU counts).
pub fn measured_exit_points(
    results: &str,
    spin: bool,
    cpus: u32,
    signal: &str,
    core_limited: bool,
) -> Vec<(u64, u64)> {
    let session = match (spin, cpus) {
        (false, _) => "pause",
        (true, 1) => "spin@ag-10@cpu0",
        (true, 2) => "spin@ag-10",
        _ => return Vec::new(),
    };
    let mode = match (signal, core_limited) {
        ("SIGQUIT", true) => "quit_core0",
        ("SIGQUIT", false) => "quit_core",
        ("SIGINT", _) => "int",
        _ => return Vec::new(),
    };
    let mut by_n: std::collections::BTreeMap<u64, Vec<f64>> = std::collections::BTreeMap::new();
    crate::run::measured::each_row(results, |row| {
        if row.text("threads") == Some(session) && row.text("mode") == Some(mode) {
            if let (Some(n), Some(ms)) = (row.number("n"), row.number("signal_to_exit_ms")) {
                if n >= 1.0 && n.fract() == 0.0 {
                    by_n.entry(n as u64).or_default().push(ms);
                }
            }
        }
    });
    by_n.into_iter()
        .filter_map(|(n, values)| Some((n, (crate::run::measured::median(values)? * 1e6).round() as u64)))
        .collect()
}

/// The seed's program with 20 spinning threads on this project's machine (its own
/// scheduler autogroup, both vCPUs): SIGQUIT with `ulimit -c 0`, from the signal to
/// the process reaped, beside the `today` model on two CPUs (seed 1).
static TODAY: crate::run::measured::TodayCheck = crate::run::measured::TodayCheck {
    results_path: "tools/measure/coredump-threads/results.tsv",
    what: "The seed's program with 20 spinning threads, SIGQUIT with ulimit -c 0: from the signal to the process reaped",
    variant: "today",
    params: &[("threads", "20"), ("mode", "spin"), ("signal", "SIGQUIT"), ("core_limit", "0"), ("cpus", "2")],
    metric: "exit_latency_ns",
    select: |row| {
        let session = row.text("threads") == Some("spin@ag-10") && row.text("mode") == Some("quit_core0");
        (session && row.number("n") == Some(20.0)).then(|| row.number("signal_to_exit_ms")).flatten()
    },
    spread: Some(crate::run::measured::SpreadBy {
        what: "Spinning threads, SIGQUIT with ulimit -c 0, every session's runs (shared load or an autogroup of their own, pinned or not): from the signal to the process reaped",
        group: |row| {
            let spinning = row.text("threads").is_some_and(|session| session.starts_with("spin"));
            let n = row.number("n")?;
            (spinning && row.text("mode") == Some("quit_core0") && n >= 1.0)
                .then(|| Some((n as u64, row.number("signal_to_exit_ms")?)))
                .flatten()
        },
    }),
};
