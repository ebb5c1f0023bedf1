//! Schedulers: the interface a discrete-event case drives (`Scheduler`, with
//! round-robin in `rr.rs`), and the rules of real kernels' schedulers as pure
//! functions: the 2.6 O(1) scheduler (`o1/`), 2.4's goodness (`goodness.rs`) and
//! today's EEVDF (`eevdf/`), and the textbook's policies (`textbook.rs`).

pub mod eevdf;
pub mod goodness;
pub mod o1;
pub mod rr;
pub mod textbook;

pub use rr::RoundRobin;

use crate::run::world::TaskId;

/// Why a task is being put on the run queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnqueueReason {
    /// It was asleep and has been woken.
    Wakeup,
    /// It was running and lost the CPU before its slice ended.
    Preempted,
    /// Its timeslice ran out.
    SliceExpired,
    /// It called `sched_yield`.
    Yield,
}

pub trait Scheduler {
    /// Makes `task` runnable.
    fn enqueue(&mut self, task: TaskId, reason: EnqueueReason, now_ns: u64);
    /// Takes the task that should run next on `cpu`, if any is runnable.
    fn pick_next(&mut self, cpu: u16, now_ns: u64) -> Option<TaskId>;
    /// The timeslice `task` gets when picked.
    fn timeslice_ns(&self, task: TaskId) -> u64;
    /// Whether waking `woken` should preempt `current` at once.
    fn should_preempt(&self, woken: TaskId, current: TaskId) -> bool;
    /// Runnable tasks in the order they would be picked (for the view).
    fn queued(&self) -> Vec<TaskId>;
}
