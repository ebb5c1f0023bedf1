//! The simulated process as the stage reads it: its tasks, locks, gauges, wait
//! channels and counters, in one order for every variant.

use super::*;

/// The names a kernel gives the parts of the process the stage draws.
pub(in crate::cases::coredump_threads) struct ShapeNames {
    pub mmap_lock: &'static str,
    pub startup: &'static str,
    pub core: &'static str,
}

pub(in crate::cases::coredump_threads) const SHAPE_2005: ShapeNames = ShapeNames {
    mmap_lock: "mm->mmap_sem",
    startup: "wait_for_completion(startup_done)",
    core: "wait_for_completion(core_done)",
};

/// The simulated process: its tasks, locks, gauges, wait channels and counters, in
/// one order for every variant (2005's machine and today's), so that the stage reads
/// them all alike. `Shape::new` returns the layout and the ids in it.
#[derive(Clone, Copy)]
pub(in crate::cases::coredump_threads) struct Shape {
    pub siglock: LockId,
    pub mmap_sem: LockId,
    pub ch_usleep: ChannelId,
    pub ch_pause: ChannelId,
    pub ch_system: ChannelId,
    pub ch_startup: ChannelId,
    pub ch_core: ChannelId,
    pub c_stop: CounterId,
    pub c_exit: CounterId,
    pub c_loops: CounterId,
    pub c_swaps: CounterId,
    pub c_waiters: CounterId,
    pub c_pending: CounterId,
    /// SIGXCPU on the shared pending set (0 or 1: a second one is dropped while one waits).
    pub c_xcpu_pending: CounterId,
    pub c_xcpu_sent: CounterId,
    /// The soft RLIMIT_CPU now, in seconds (0: no limit).
    pub c_rlimit: CounterId,
    /// CPU 0's `rq->expired_timestamp` in ns (0: none since the last swap); the other
    /// CPUs' follow it (`expired_ts`).
    pub c_expired_ts_cpu0: CounterId,
}

impl Shape {
    /// The counter that shows `cpu`'s `rq->expired_timestamp`.
    pub fn expired_ts(&self, cpu: usize) -> CounterId {
        CounterId(self.c_expired_ts_cpu0.0 + cpu as u16)
    }
}

impl Shape {
    pub fn new(cfg: &Config, names: &ShapeNames) -> (Layout, Shape) {
        let mut layout = Layout::new(cfg.cpus as u16);
        let group = layout.add_group("thread_share_RLIMIT_CPU");
        layout.add_task("main", group);
        for k in 0..cfg.threads {
            layout.add_task(format!("T{k}"), group);
        }
        let siglock = layout.add_lock("sighand->siglock", LockKind::Spinlock);
        let mmap_sem = layout.add_lock(names.mmap_lock, LockKind::RwSem);
        for name in
            ["sleep_avg", "prio", "array", "seq", "TIF_SIGPENDING", "time_slice", "doing", "cpu", "dequeued"]
        {
            layout.add_gauge(name);
        }
        let shape = Shape {
            siglock,
            mmap_sem,
            ch_usleep: layout.add_channel("usleep(20000)"),
            ch_pause: layout.add_channel("pause()"),
            ch_system: layout.add_channel("system(\"uname -a; date\")"),
            ch_startup: layout.add_channel(names.startup),
            ch_core: layout.add_channel(names.core),
            c_stop: layout.add_counter("group_stop_count"),
            c_exit: layout.add_counter("SIGNAL_GROUP_EXIT"),
            c_loops: layout.add_counter("group_stop_loops"),
            c_swaps: layout.add_counter("array_swaps"),
            c_waiters: layout.add_counter("core_waiters"),
            c_pending: layout.add_counter("shared_pending"),
            c_xcpu_pending: layout.add_counter("shared_pending_SIGXCPU"),
            c_xcpu_sent: layout.add_counter("SIGXCPU_sent"),
            c_rlimit: layout.add_counter("rlimit_cpu_cur_s"),
            c_expired_ts_cpu0: layout.add_counter("cpu0_expired_timestamp_ns"),
        };
        // The other CPUs' clocks follow the first, so that `expired_ts` finds them by number.
        for cpu in 1..cfg.cpus {
            let id = layout.add_counter(format!("cpu{cpu}_expired_timestamp_ns"));
            assert_eq!(id, shape.expired_ts(cpu as usize), "the CPUs' clocks are consecutive counters");
        }
        (layout, shape)
    }
}
