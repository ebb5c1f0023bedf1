//! What the sparse dump's stage draws that is not tasks, locks or counters:
//! the VMAs, the maple tree and the page-table shape. Static for the whole run
//! (`Run::extras`); the current address and descent come from the ops.

use crate::kernel::mm::maple::MapleTree;
use serde::{Deserialize, Serialize};

/// The sparse core dump's address space, tree and page-table shape.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AddressSpace {
    pub vmas: Vec<VmaInfo>,
    pub tree: MapleTree,
    pub page_bytes: u64,
    #[serde(deserialize_with = "crate::run::wire::static_str")]
    pub machine: crate::run::wire::StaticStr,
    /// Page-table level names, top first.
    #[serde(deserialize_with = "crate::run::wire::static_strs")]
    pub levels: &'static [&'static str],
    /// The seed's profile: (cost key, share in percent), to compare with the run's costs.
    #[serde(deserialize_with = "crate::run::wire::static_named_values")]
    pub profile: &'static [(&'static str, f64)],
    /// Pseudocode functions to compare: the loop as reported, and this variant's.
    pub loop_as_reported: u16,
    pub loop_of_variant: u16,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct VmaInfo {
    pub start: u64,
    pub end: u64,
    pub name: String,
    pub dump_bytes: u64,
    pub big: bool,
    /// Populated page ranges `[start, end)`.
    pub present: Vec<(u64, u64)>,
}
