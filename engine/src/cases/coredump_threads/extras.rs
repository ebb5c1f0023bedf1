//! What the core-dump-threads stage draws that is not tasks, locks, counters
//! or gauges: the scheduler constants, the run's turning points, and the
//! reporter's figures. Static for the whole run (`Run::extras`).

use crate::run::wire::codec::wire_struct;

#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CoredumpCase {
    pub variant: crate::run::wire::StaticStr,
    pub threads: u32,
    pub spin: bool,
    pub signal: crate::run::wire::StaticStr,
    pub hz: u64,
    /// CPUs online, each with its own run queue.
    pub cpus: u32,
    /// The run's scheduler is 2.6's O(1), whose arrays and priorities the stage draws;
    /// false for today's run, whose scheduler is not simulated tick by tick.
    pub o1: bool,
    pub tick_ns: u64,
    /// A full timeslice at the process's nice (task_timeslice).
    pub slice_ns: u64,
    pub max_sleep_avg_ns: u64,
    /// Static priority of every thread (nice + 120).
    pub static_prio: i32,
    pub signal_ns: u64,
    pub yield_ns: Option<u64>,
    pub swap_ns: Vec<u64>,
    pub zap_ns: Option<u64>,
    pub last_exit_ns: u64,
    /// Totals over every thread: real, user, sys.
    pub real_ns: u64,
    pub user_ns: u64,
    pub sys_ns: u64,
    /// The reporter's `time` line.
    pub reported_real: crate::run::wire::StaticStr,
    pub reported_user: crate::run::wire::StaticStr,
    pub reported_sys: crate::run::wire::StaticStr,
    /// Ids of the gauges, in `View` order: sleep_avg, prio, array, seq, TIF_SIGPENDING, time_slice, doing, cpu, dequeued.
    pub gauges: [u8; 9],
    /// The soft RLIMIT_CPU main sets, in seconds (none: no limit).
    pub rlimit_cpu_s: Option<u64>,
    /// The signal that started the dump or the kill: the one typed, or SIGXCPU when the
    /// CPU limit came first.
    pub first_signal: crate::run::wire::StaticStr,
    /// When each SIGXCPU was sent.
    pub sigxcpu_ns: Vec<u64>,
    /// When EXPIRED_STARVING first held after the dumper's yield.
    pub starving_ns: Option<u64>,
}
wire_struct!(CoredumpCase {
    variant,
    threads,
    spin,
    signal,
    hz,
    cpus,
    o1,
    tick_ns,
    slice_ns,
    max_sleep_avg_ns,
    static_prio,
    signal_ns,
    yield_ns,
    swap_ns,
    zap_ns,
    last_exit_ns,
    real_ns,
    user_ns,
    sys_ns,
    reported_real,
    reported_user,
    reported_sys,
    gauges,
    rlimit_cpu_s,
    first_signal,
    sigxcpu_ns,
    starving_ns,
});
