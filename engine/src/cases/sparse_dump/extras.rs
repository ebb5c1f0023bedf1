//! What the sparse dump's stage draws that is not tasks, locks or counters:
//! the VMAs, the maple tree and the page-table shape. Static for the whole run
//! (`Run::extras`); the current address and descent come from the ops.

use crate::kernel::mm::maple::MapleTree;
use crate::run::wire::codec::wire_struct;

/// The sparse core dump's address space, tree and page-table shape.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AddressSpace {
    pub vmas: Vec<VmaInfo>,
    pub tree: MapleTree,
    pub page_bytes: u64,
    pub machine: crate::run::wire::StaticStr,
    /// Page-table level names, top first.
    pub levels: &'static [&'static str],
    /// The seed's profile: (cost key, share in percent), to compare with the run's costs.
    pub profile: &'static [(&'static str, f64)],
    /// Pseudocode functions to compare: the loop as reported, and this variant's.
    pub loop_as_reported: u16,
    pub loop_of_variant: u16,
}
wire_struct!(AddressSpace {
    vmas,
    tree,
    page_bytes,
    machine,
    levels,
    profile,
    loop_as_reported,
    loop_of_variant
});

#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct VmaInfo {
    pub start: u64,
    pub end: u64,
    pub name: &'static str,
    pub dump_bytes: u64,
    pub big: bool,
    /// Populated page ranges `[start, end)`.
    pub present: Vec<(u64, u64)>,
}
wire_struct!(VmaInfo { start, end, name, dump_bytes, big, present });
