//! Case-specific structures a run carries for its stage in the UI (the parts
//! that are not tasks, locks or counters): static for the whole run, so the
//! position-dependent parts (current address, descent path) come from the ops.

use crate::maple::MapleTree;
use serde::Serialize;

#[derive(Clone, Debug, Default, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Extras {
    #[default]
    None,
    AddressSpace(AddressSpace),
    Fifo(FifoCase),
}

/// The FIFO case's static data: every write the program measured, the bursts,
/// and the scheduler constants the stage draws against.
#[derive(Clone, Debug, Serialize)]
pub struct FifoCase {
    pub kernel: &'static str,
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
    pub slow_ns: u64,
    /// The reporter's printed slow writes, for comparison.
    pub reported_dt_ms: &'static [&'static str],
}

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

/// The sparse core dump's address space, tree and page-table shape.
#[derive(Clone, Debug, Serialize)]
pub struct AddressSpace {
    pub vmas: Vec<VmaInfo>,
    pub tree: MapleTree,
    pub page_bytes: u64,
    pub machine: &'static str,
    /// Page-table level names, top first.
    pub levels: &'static [&'static str],
    /// The seed's profile: (cost key, share in percent), to compare with the run's costs.
    pub profile: &'static [(&'static str, f64)],
    /// Pseudocode functions to compare: the loop as reported, and this variant's.
    pub loop_as_reported: u16,
    pub loop_of_variant: u16,
}

#[derive(Clone, Debug, Serialize)]
pub struct VmaInfo {
    pub start: u64,
    pub end: u64,
    pub name: String,
    pub dump_bytes: u64,
    pub big: bool,
    /// Populated page ranges `[start, end)`.
    pub present: Vec<(u64, u64)>,
}
