//! `coredump-threads`: a 20-thread process takes 13.7 s to die on SIGQUIT
//! (Linux 2.6.14-rc2, seed 000). Group stop, `yield()` on the O(1) scheduler,
//! and a `siglock` taken over and over by threads looping in the kernel.
//!
//! One deterministic machine (`machine.rs`) runs the seed's program on one CPU
//! with 2.6.14's rules; it records the trace as it goes (up to a stored-op
//! budget) and counts every figure itself, so the metrics cover the whole run
//! even when the trace stops early.

mod extras;
pub mod machine;
mod text;
pub mod today;
mod tour;

use crate::case::{Case, CaseMeta, ReportedFigure, Source, VariantGroup, VariantSpec};
use crate::kernel::sched::o1::{static_prio, O1};
use crate::run::params::{ParamKind, ParamSpec, ParamValues};
use crate::run::trace::{Metric, Outcome, Run};
pub use extras::CoredumpCase;
use machine::Machine;
use std::collections::BTreeMap;

pub struct CoredumpThreads;

const US: u64 = 1_000;
const MS: u64 = 1_000_000;
const S: u64 = 1_000_000_000;

/// Per-operation costs, in ns. None of them decides how long the process takes
/// to die: that is timeslices and ticks, from the scheduler's rules. They set
/// the user/sys split before the signal and the counts of loop turns.
#[derive(Clone, Copy, Debug)]
pub struct Costs {
    /// One round of the seed's `for (j = 0; j < 100000; j++) continue;` at -O0:
    /// about four instructions per iteration, ≈ 2 cycles on a P6/K7-class i686;
    /// at an assumed 1 GHz that is 2 ns × 100,000 = 200 µs (model choice: the
    /// reporter's CPU is not given).
    pub loop_ns: u64,
    /// times(): a null system call, ≈ 0.4 µs on 2004–2005 x86 (LMbench lat_syscall null).
    pub times_ns: u64,
    /// One turn of the kernel loop: spin_lock_irq, handle_group_stop, an empty
    /// dequeue_signal, recalc_sigpending, unlock, entry.S's re-test. The kernel
    /// half of a null system call (≈ 0.3 µs) without the mode switch; a model choice.
    pub turn_ns: u64,
    /// pthread_create: mmap of the 8 MiB stack, mprotect of the guard page, clone:
    /// a few LMbench-era system calls plus the copy of the task, ≈ 20 µs (model choice).
    pub clone_ns: u64,
    /// A new thread's first steps up to nanosleep (model choice).
    pub thread_start_ns: u64,
    /// main before system(): exec'd program, libc start-up (model choice).
    pub main_setup_ns: u64,
    /// system("uname -a; date"): fork+exec of sh, uname and date, ≈ 3 × 3 ms on
    /// 2005 hardware (LMbench lat_proc "sh" ≈ 3 ms); main sleeps meanwhile (model choice).
    pub system_ns: u64,
    /// One short kernel step under a lock (a siglock section, down_write, dequeue).
    pub step_ns: u64,
    /// force_sig_specific(SIGKILL) for one thread in zap_threads.
    pub zap_per_thread_ns: u64,
    /// do_exit of one thread (no address space to tear down but for the last), ≈ 15 µs (model choice).
    pub exit_ns: u64,
    /// Core file (RLIMIT_CORE unlimited): pages written and the cost per page
    /// (a 4 KiB copy into the page cache at ≈ 1 GB/s plus overhead ≈ 5 µs).
    pub core_pages_base: u64,
    pub core_pages_per_thread: u64,
    pub core_page_ns: u64,
}

pub const COSTS: Costs = Costs {
    loop_ns: 200 * US,
    times_ns: 400,
    turn_ns: 300,
    clone_ns: 20 * US,
    thread_start_ns: 3 * US,
    main_setup_ns: 300 * US,
    system_ns: 10 * MS,
    step_ns: US,
    zap_per_thread_ns: 500,
    exit_ns: 15 * US,
    core_pages_base: 64,
    core_pages_per_thread: 3,
    core_page_ns: 5 * US,
};

/// The kernel variants, cumulative as in mainline (plus one hypothetical).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// 2.6.14-rc2 as reported: yield() in coredump_wait, group_stop_count left set.
    Rc2,
    /// Fix a: "coredump_wait() cleanup" (Oct 2005), the yield() removed.
    NoYield,
    /// Fixes a + b: also group_stop_count = 0 with SIGNAL_GROUP_EXIT (Nov 2005).
    ResetGroupStop,
    /// 2.6.18: SIGKILL queued for every thread in the same siglock section.
    V2_6_18,
    /// Fix b without a: hypothetical.
    ResetOnly,
    /// Linux 6.18 on the project's machine (`today.rs`).
    Today,
}

impl Variant {
    pub fn from_id(id: &str) -> Variant {
        match id {
            "no-yield" => Variant::NoYield,
            "reset-group-stop" => Variant::ResetGroupStop,
            "2.6.18" => Variant::V2_6_18,
            "reset-only" => Variant::ResetOnly,
            "today" => Variant::Today,
            _ => Variant::Rc2,
        }
    }

    pub fn yields(self) -> bool {
        matches!(self, Variant::Rc2 | Variant::ResetOnly)
    }

    pub fn resets(self) -> bool {
        matches!(self, Variant::ResetGroupStop | Variant::ResetOnly | Variant::V2_6_18)
    }
}

#[derive(Clone, Debug)]
pub struct Config {
    pub variant: Variant,
    pub threads: u32,
    pub spin: bool,
    pub signal: &'static str,
    pub coredump_sig: bool,
    pub signal_at_ns: u64,
    pub dumpable: bool,
    pub core_unlimited: bool,
    pub nice: i32,
    pub preempt: bool,
    pub hz: u64,
    /// CPUs online (1–4), each with its own O(1) run queue.
    pub cpus: u32,
    /// The soft RLIMIT_CPU the program sets, in whole seconds (`None`: no limit).
    pub rlimit_cpu_s: Option<u64>,
}

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

static META: CaseMeta = CaseMeta {
    id: "coredump-threads",
    title: "Twenty threads take 13.7 s to die on SIGQUIT",
    year: 2005,
    system: "Linux 2.6.14-rc2",
    summary: "A process with 20 spinning threads needs 13.69 s to die on ^\\ (11.98 s of it sys time), even with ulimit -c 0; SIGINT kills it at once.",
    sources: &[
        Source { label: "Michael Kerrisk's report (LKML, 22 September 2005)", url: text::REPORT_URL },
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
};

pub fn config(params: &ParamValues, variant: &str) -> Config {
    let signal = SIGNALS.iter().copied().find(|s| *s == params.word("signal")).unwrap_or("SIGQUIT");
    Config {
        variant: Variant::from_id(variant),
        threads: params.unsigned("threads") as u32,
        spin: params.word("mode") != "pause",
        signal,
        coredump_sig: matches!(signal, "SIGQUIT" | "SIGSEGV" | "SIGABRT"),
        signal_at_ns: params.unsigned("signal_at"),
        dumpable: params.switch("dumpable"),
        core_unlimited: params.word("core_limit") == "unlimited",
        nice: params.signed("nice") as i32,
        preempt: params.switch("preempt"),
        hz: params.word("hz").parse().unwrap_or(250),
        cpus: params.unsigned("cpus").clamp(1, machine::CPUS_MAX as u64) as u32,
        rlimit_cpu_s: params.word("rlimit_cpu").parse().ok(),
    }
}

/// Runs the machine and returns it finished (for the tests and the benches).
pub fn simulate(config: &Config) -> Machine<'_> {
    let mut machine = Machine::new(config);
    machine.run();
    machine
}

fn metrics(m: &Machine<'_>, cfg: &Config) -> BTreeMap<String, Metric> {
    let mut out = BTreeMap::new();
    let (mut user, mut sys) = (0, 0);
    // Keyed by the thread's name (as the stage and the CSV show it), the first 64.
    let mut per_thread = BTreeMap::new();
    for t in 0..m.tasks() {
        let (u, s) = m.user_sys(t);
        user += u;
        sys += s;
        if per_thread.len() < 64 {
            let mut o = BTreeMap::new();
            o.insert("user_ns".to_string(), Metric::Ns(u));
            o.insert("sys_ns".to_string(), Metric::Ns(s));
            let name = if t == machine::MAIN { "main".to_string() } else { format!("T{}", t - 1) };
            per_thread.insert(name, Metric::Object(o));
        }
    }
    let r = &m.out;
    out.insert("real_ns".into(), Metric::Ns(r.last_exit_ns));
    out.insert("user_ns".into(), Metric::Ns(user));
    out.insert("sys_ns".into(), Metric::Ns(sys));
    out.insert("exit_latency_ns".into(), Metric::Ns(r.last_exit_ns.saturating_sub(r.signal_ns)));
    out.insert("signal_ns".into(), Metric::Ns(r.signal_ns));
    out.insert("siglock_acquisitions".into(), Metric::Count(r.siglock_acquisitions));
    // One CPU: a spinlock holder cannot be preempted, so nobody ever waits for siglock;
    // with more, CPUs looping at once take turns on it (machine/smp.rs).
    out.insert("siglock_contended".into(), Metric::Count(r.siglock_contended));
    out.insert("siglock_wait_ns".into(), Metric::Ns(r.siglock_wait_ns));
    out.insert("siglock_wait_max_ns".into(), Metric::Ns(r.siglock_wait_max_ns));
    out.insert("migrations".into(), Metric::Count(r.migrations));
    out.insert("mixed_stretches".into(), Metric::Count(r.mixed_stretches));
    out.insert("cpus".into(), Metric::Count(u64::from(cfg.cpus)));
    out.insert("slices_before_swap".into(), Metric::Count(r.slices_before_swap));
    out.insert("requeued_to_active".into(), Metric::Count(r.requeued_active));
    out.insert("array_swaps".into(), Metric::Count(r.swap_ns.len() as u64));
    out.insert("group_stop_loops".into(), Metric::Count(r.group_stop_loops));
    out.insert("context_switches".into(), Metric::Count(r.context_switches));
    out.insert("yield_ns".into(), Metric::None(r.yield_ns));
    out.insert("stall_ns".into(), Metric::Ns(r.zap_ns.zip(r.yield_ns).map_or(0, |(z, y)| z - y)));
    out.insert("hz".into(), Metric::Count(cfg.hz));
    out.insert("sigxcpu_sent".into(), Metric::Count(r.sigxcpu_ns.len() as u64));
    out.insert("first_sigxcpu_ns".into(), Metric::None(r.sigxcpu_ns.first().copied()));
    out.insert("blocked_dumpers".into(), Metric::Count(r.blocked_dumpers));
    out.insert("starving_ns".into(), Metric::None(r.starving_ns));
    out.insert("per_thread".into(), Metric::Object(per_thread));
    out
}

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

impl Case for CoredumpThreads {
    fn meta(&self) -> &'static CaseMeta {
        &META
    }

    fn wire(&self) -> crate::run::wire::CaseWire {
        crate::run::wire::CaseWire::with_extras::<extras::CoredumpCase>(text::TEMPLATES, text::CODE)
    }

    fn today(&self) -> Option<&'static crate::run::measured::TodayCheck> {
        Some(&TODAY)
    }

    fn tour(&self) -> &'static crate::tour::Tour {
        &tour::TOUR
    }

    fn run_validated(&self, params: &ParamValues, variant: &'static str, seed: u64) -> Run {
        let cfg = config(params, variant);
        if cfg.variant == Variant::Today {
            return run_today(&cfg, params, variant, seed);
        }
        let mut m = Machine::new(&cfg);
        m.run();
        let metrics = metrics(&m, &cfg);
        let outcome = match (m.out.work_limited_at_ns, m.out.truncated) {
            (Some(at_ns), _) => Outcome::WorkLimit { at_ns, steps: m.out.steps, budget: "simulation steps" },
            (None, true) => Outcome::StepLimit { micro_ops: m.b.ops_recorded() },
            (None, false) => Outcome::Completed,
        };
        let out = m.out.clone();
        let (mut user, mut sys) = (0, 0);
        for t in 0..m.tasks() {
            let (u, s) = m.user_sys(t);
            user += u;
            sys += s;
        }
        let Machine { b, .. } = m;
        let mut run = b.finish(META.id, variant, seed, params.clone(), outcome, metrics);
        run.simulated_steps = out.steps;
        let o1 = O1::v2_6_14(cfg.hz);
        let sp = static_prio(cfg.nice);
        run.set_extras(CoredumpCase {
            o1: true,
            tick_ns: o1.tick_ns(),
            slice_ns: o1.task_timeslice(sp) * o1.tick_ns(),
            max_sleep_avg_ns: o1.max_sleep_avg_ns(),
            yield_ns: out.yield_ns,
            swap_ns: out.swap_ns.clone(),
            sigxcpu_ns: out.sigxcpu_ns.clone(),
            starving_ns: out.starving_ns,
            ..extras_of(
                &cfg,
                variant,
                &Ends {
                    signal_ns: out.signal_ns,
                    zap_ns: out.zap_ns,
                    last_exit_ns: out.last_exit_ns,
                    user_ns: user,
                    sys_ns: sys,
                    first_signal: out.first_signal,
                },
            )
        });
        use text::T;
        let first = |templates: &[T]| {
            run.first_op_with_template(&templates.iter().map(|t| t.id()).collect::<Vec<_>>())
        };
        let moments = [
            (first(&[T::SIGNAL_SENT, T::XCPU_FIRST]), "the signal is sent"),
            (first(&[T::YIELD, T::YIELD_NO_CLOCK]), "the dumper yields to the expired array"),
            (first(&[T::MMAP_BLOCK, T::MMAP_BLOCK_NO_CLOCK]), "a second dumper sleeps on mmap_sem"),
            (first(&[T::TICK_STARVING_FIRST]), "the starvation deadline fires"),
            (first(&[T::SWAP]), "the arrays swap: the dumper runs again"),
            (first(&[T::ZAP, T::ZAP_18]), "zap_threads: SIGKILL to every thread"),
            (first(&[T::LAST_EXIT]), "the last thread exits"),
        ];
        run.set_chapters(&moments);
        run
    }
}

/// How a run ended, as the stage's extras need it, whichever kernel ran it.
struct Ends {
    signal_ns: u64,
    zap_ns: Option<u64>,
    last_exit_ns: u64,
    user_ns: u64,
    sys_ns: u64,
    first_signal: &'static str,
}

/// The extras both kernels fill alike; the O(1) scheduler's own fields are left empty
/// (today's run has none) for the 2005 run to set.
fn extras_of(cfg: &Config, variant: &'static str, ends: &Ends) -> CoredumpCase {
    CoredumpCase {
        variant,
        threads: cfg.threads,
        spin: cfg.spin,
        signal: cfg.signal,
        hz: cfg.hz,
        cpus: cfg.cpus,
        o1: false,
        tick_ns: 0,
        slice_ns: 0,
        max_sleep_avg_ns: 0,
        static_prio: static_prio(cfg.nice),
        signal_ns: ends.signal_ns,
        yield_ns: None,
        swap_ns: Vec::new(),
        zap_ns: ends.zap_ns,
        last_exit_ns: ends.last_exit_ns,
        real_ns: ends.last_exit_ns,
        user_ns: ends.user_ns,
        sys_ns: ends.sys_ns,
        reported_real: REPORTED_TIME_LINE[0],
        reported_user: REPORTED_TIME_LINE[1],
        reported_sys: REPORTED_TIME_LINE[2],
        gauges: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        rlimit_cpu_s: cfg.rlimit_cpu_s,
        first_signal: ends.first_signal,
        sigxcpu_ns: Vec::new(),
        starving_ns: None,
    }
}

/// The `today` variant: Linux 6.18's path, `today.rs`.
fn run_today(cfg: &Config, params: &ParamValues, variant: &'static str, seed: u64) -> Run {
    let (builder, out) = today::run(cfg, seed);
    let mut metrics = BTreeMap::new();
    metrics.insert("real_ns".into(), Metric::Ns(out.last_exit_ns));
    metrics.insert("user_ns".into(), Metric::Ns(out.user_ns));
    metrics.insert("sys_ns".into(), Metric::Ns(out.sys_ns));
    metrics.insert("exit_latency_ns".into(), Metric::Ns(out.last_exit_ns - out.signal_ns));
    metrics.insert("signal_ns".into(), Metric::Ns(out.signal_ns));
    metrics.insert("wait_for_cpu_ns".into(), Metric::Ns(out.wait_for_cpu_ns));
    metrics.insert("spinners_ahead".into(), Metric::Count(out.spinners_ahead));
    metrics.insert("core_pages".into(), Metric::Count(out.core_pages));
    metrics.insert("siglock_acquisitions".into(), Metric::Count(out.siglock_acquisitions));
    metrics.insert("yield_ns".into(), Metric::None(None));
    metrics.insert("hz".into(), Metric::Count(cfg.hz));
    metrics.insert("cpus".into(), Metric::Count(u64::from(cfg.cpus)));
    let outcome = if out.truncated {
        Outcome::StepLimit { micro_ops: builder.ops_recorded() }
    } else {
        Outcome::Completed
    };
    let mut run = builder.finish(META.id, variant, seed, params.clone(), outcome, metrics);
    run.simulated_steps = out.steps.max(1);
    run.set_extras(CoredumpCase {
        o1: false,
        tick_ns: 1_000_000_000 / cfg.hz.max(1),
        slice_ns: today::slice_at_ticks_ns(cfg.cpus, cfg.hz),
        ..extras_of(
            cfg,
            variant,
            &Ends {
                signal_ns: out.signal_ns,
                zap_ns: out.zap_ns,
                last_exit_ns: out.last_exit_ns,
                user_ns: out.user_ns,
                sys_ns: out.sys_ns,
                first_signal: out.first_signal,
            },
        )
    });
    use text::T;
    let first =
        |templates: &[T]| run.first_op_with_template(&templates.iter().map(|t| t.id()).collect::<Vec<_>>());
    let moments = [
        (first(&[T::T_SIGNAL_CORE, T::T_SIGNAL_KILL, T::T_SIGNAL_XCPU]), "the signal is sent"),
        (first(&[T::T_ZAP, T::T_SIGNAL_KILL]), "zap_threads: SIGKILL to every thread"),
        (first(&[T::T_LAST]), "the last thread exits"),
    ];
    run.set_chapters(&moments);
    run
}
