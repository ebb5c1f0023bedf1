//! The scheduler interface, and a simple round-robin scheduler on 1..N CPUs.
//! (The 2.6 O(1) and 2.4 goodness schedulers come with the FIFO case.)

use crate::world::TaskId;
use std::collections::VecDeque;

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

/// One global FIFO run queue, a fixed slice, no wakeup preemption.
pub struct RoundRobin {
    queue: VecDeque<TaskId>,
    slice_ns: u64,
}

impl RoundRobin {
    pub fn new(slice_ns: u64) -> RoundRobin {
        assert!(slice_ns > 0, "a timeslice takes time");
        RoundRobin { queue: VecDeque::new(), slice_ns }
    }
}

impl Scheduler for RoundRobin {
    fn enqueue(&mut self, task: TaskId, _reason: EnqueueReason, _now_ns: u64) {
        assert!(!self.queue.contains(&task), "task {} enqueued twice", task.0);
        self.queue.push_back(task);
    }

    fn pick_next(&mut self, _cpu: u16, _now_ns: u64) -> Option<TaskId> {
        self.queue.pop_front()
    }

    fn timeslice_ns(&self, _task: TaskId) -> u64 {
        self.slice_ns
    }

    fn should_preempt(&self, _woken: TaskId, _current: TaskId) -> bool {
        false
    }

    fn queued(&self) -> Vec<TaskId> {
        self.queue.iter().copied().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_is_first_in_first_out_and_never_preempts_on_wakeup() {
        let mut rr = RoundRobin::new(4_000_000);
        rr.enqueue(TaskId(2), EnqueueReason::Wakeup, 0);
        rr.enqueue(TaskId(0), EnqueueReason::SliceExpired, 0);
        assert_eq!(rr.queued(), vec![TaskId(2), TaskId(0)]);
        assert_eq!(rr.pick_next(0, 0), Some(TaskId(2)));
        assert!(!rr.should_preempt(TaskId(0), TaskId(1)));
        assert_eq!(rr.pick_next(1, 0), Some(TaskId(0)));
        assert_eq!(rr.pick_next(1, 0), None);
    }
}
