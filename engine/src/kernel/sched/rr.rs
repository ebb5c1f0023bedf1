//! Round-robin: one global FIFO run queue and a fixed slice, for discrete-event
//! cases that need a scheduler but not a real kernel's rules.

use super::{EnqueueReason, Scheduler};
use crate::run::world::TaskId;
use std::collections::VecDeque;

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
