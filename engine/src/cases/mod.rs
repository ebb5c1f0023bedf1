//! One module per case: its metadata (`META`, always built) and, behind the case's
//! feature, a unit struct implementing `Case`. `example_case` is the tests' own case.

pub mod coredump_threads;
pub mod example_case;
pub mod fifo_trigger;
pub mod gvisor_threadgroups;
pub mod rwsem_playground;
pub mod sparse_dump;
pub mod the_lab;
