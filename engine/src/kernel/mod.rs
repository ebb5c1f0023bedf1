//! Kernel models that more than one case uses: pure rules (who runs next, who
//! gets a lock, where a lookup descends) over the run machinery's vocabulary.
//! Nothing here knows a case.

pub mod locks;
pub mod mm;
pub mod sched;
