//! One module per case. Each exposes a unit struct implementing `Case`.

pub mod coredump_threads;
pub mod fifo_trigger;
pub mod gvisor_threadgroups;
pub mod rwsem_playground;
pub mod sparse_dump;
