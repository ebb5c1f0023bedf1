//! What the FIFO case's stage draws that is not tasks, locks or counters:
//! every write the program measured, the bursts, and the scheduler constants.
//! Static for the whole run (`Run::extras`).

use crate::run::wire::codec::wire_struct;
use serde::Serialize;

/// The FIFO case's static data: every write the program measured, the bursts,
/// and the scheduler constants the stage draws against.
#[derive(Clone, Debug, Serialize)]
pub struct FifoCase {
    pub kernel: crate::run::wire::StaticStr,
    pub cpus: u16,
    pub hz: u64,
    pub tick_ns: u64,
    pub drain: bool,
    /// Listener, writer.
    pub nice: [i32; 2],
    /// A full timeslice (2.6) or a refilled counter (2.4) of each, in ns.
    pub slice_ns: [u64; 2],
    pub max_sleep_avg_ns: u64,
    /// For write k (0-based): when the writer's first gettimeofday ran, and the dt it printed.
    pub write_time_ns: Vec<u64>,
    pub write_dt_ns: Vec<u64>,
    pub bursts: Vec<FifoBurst>,
    /// The first lines of the writer's output through the reporter's `grep -v '= 0'`.
    pub grep_lines: Vec<super::grep::GrepLine>,
    pub slow_ns: u64,
    /// The reporter's printed slow writes, for comparison.
    pub reported_dt_ms: &'static [&'static str],
}
wire_struct!(FifoCase {
    kernel,
    cpus,
    hz,
    tick_ns,
    drain,
    nice,
    slice_ns,
    max_sleep_avg_ns,
    write_time_ns,
    write_dt_ns,
    bursts,
    grep_lines,
    slow_ns,
    reported_dt_ms,
});

/// A maximal run of slow writes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FifoBurst {
    /// 1-based number of its first write.
    pub first_write: u64,
    pub start_ns: u64,
    pub first_dt_ns: u64,
    /// The dt of each following slow write.
    pub following: Vec<u64>,
    /// Fast writes since the previous burst.
    pub fast_before: u64,
}
wire_struct!(FifoBurst { first_write, start_ns, first_dt_ns, following, fast_before });
