//! The simulation side of the case, built with the `coredump-threads` feature: the
//! metadata beside it (`mod.rs`) is built in every build.

use super::*;
use crate::case::Case;
use crate::kernel::sched::o1::{static_prio, O1};
use crate::run::params::ParamValues;
use crate::run::trace::{Metric, Outcome, Run};

pub use extras::CoredumpCase;
use machine::Machine;
use std::collections::BTreeMap;

const US: u64 = 1_000;

pub struct CoredumpThreads;
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

impl Case for CoredumpThreads {
    fn meta(&self) -> &'static CaseMeta {
        &META
    }

    fn wire(&self) -> crate::run::wire::CaseWire {
        crate::run::wire::CaseWire::with_extras::<extras::CoredumpCase>(text::TEMPLATES, text::CODE)
    }

    #[cfg(feature = "stage-claims")]
    fn stage_claims(&self) -> &'static [crate::run::chapters::StageClaim] {
        claims::CLAIMS
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
