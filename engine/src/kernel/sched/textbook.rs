//! The textbook's scheduling policies (OSTEP ch. 7, "Scheduling: Introduction"):
//! first in first out, shortest job first, shortest time-to-completion first and
//! round robin, as pure functions over the waiting tasks. They model no kernel;
//! they are the policies a course computes by hand before it meets a real one.

use crate::run::world::TaskId;

/// One of the textbook's policies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Run in arrival order, each to the end of its burst.
    Fifo,
    /// Run the shortest job next, never preempting.
    Sjf,
    /// Run the job with the least time left; an arrival with less preempts.
    Stcf,
    /// Arrival order, at most `quantum_ns` at a time.
    RoundRobin { quantum_ns: u64 },
}

/// A task waiting for a CPU, as a policy sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiting {
    pub task: TaskId,
    /// When it joined the queue, with a sequence number to order equal times.
    pub queued_seq: u64,
    /// The CPU time it still needs (`u64::MAX` when unbounded).
    pub remaining_ns: u64,
    /// Its whole CPU demand (the job's length for SJF).
    pub length_ns: u64,
}

impl Policy {
    /// The timeslice, if the policy has one.
    pub fn quantum_ns(self) -> Option<u64> {
        match self {
            Policy::RoundRobin { quantum_ns } => Some(quantum_ns),
            Policy::Fifo | Policy::Sjf | Policy::Stcf => None,
        }
    }

    /// What the policy orders by, before arrival order breaks ties.
    pub fn key_ns(self, waiting: &Waiting) -> u64 {
        match self {
            Policy::Fifo | Policy::RoundRobin { .. } => 0,
            Policy::Sjf => waiting.length_ns,
            Policy::Stcf => waiting.remaining_ns,
        }
    }

    /// The queue's order under this policy, least first: its key, then the earliest
    /// queued (then the task, which two entries never share).
    pub fn order(self, waiting: &Waiting) -> (u64, u64, TaskId) {
        (self.key_ns(waiting), waiting.queued_seq, waiting.task)
    }

    /// Which of `waiting` runs next (its index): the first in the policy's `order`.
    pub fn pick(self, waiting: &[Waiting]) -> Option<usize> {
        waiting.iter().enumerate().min_by_key(|(_, candidate)| self.order(candidate)).map(|(index, _)| index)
    }

    /// Whether `arriving` takes the CPU from `running` at once (only STCF preempts).
    pub fn preempts(self, arriving: &Waiting, running_remaining_ns: u64) -> bool {
        self == Policy::Stcf && arriving.remaining_ns < running_remaining_ns
    }

    /// Whether a task whose quantum ran out goes back to the queue's tail: only
    /// when someone else waits; else it keeps the CPU for another quantum.
    pub fn requeue_at_quantum_end(self, others_waiting: usize) -> bool {
        matches!(self, Policy::RoundRobin { .. }) && others_waiting > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(task: u32, queued_seq: u64, remaining_ns: u64, length_ns: u64) -> Waiting {
        Waiting { task: TaskId(task), queued_seq, remaining_ns, length_ns }
    }

    #[test]
    fn fifo_takes_the_earliest_and_sjf_the_shortest() {
        let queue = [waiting(0, 0, 300, 300), waiting(1, 1, 100, 100), waiting(2, 2, 200, 200)];
        assert_eq!(Policy::Fifo.pick(&queue), Some(0));
        assert_eq!(Policy::RoundRobin { quantum_ns: 1 }.pick(&queue), Some(0));
        assert_eq!(Policy::Sjf.pick(&queue), Some(1));
        assert_eq!(Policy::Fifo.pick(&[]), None);
    }

    #[test]
    fn stcf_orders_by_time_left_and_preempts_only_for_less() {
        let queue = [waiting(0, 0, 90, 100), waiting(1, 1, 10, 100)];
        assert_eq!(Policy::Stcf.pick(&queue), Some(1));
        assert_eq!(Policy::Sjf.pick(&queue), Some(0), "equal lengths: the earlier");
        assert!(Policy::Stcf.preempts(&queue[1], 90));
        assert!(!Policy::Stcf.preempts(&queue[1], 10), "a tie does not preempt");
        assert!(!Policy::Sjf.preempts(&queue[1], 90));
    }

    #[test]
    fn round_robin_requeues_only_when_someone_waits() {
        let rr = Policy::RoundRobin { quantum_ns: 1_000_000 };
        assert_eq!(rr.quantum_ns(), Some(1_000_000));
        assert!(rr.requeue_at_quantum_end(1));
        assert!(!rr.requeue_at_quantum_end(0));
        assert!(!Policy::Fifo.requeue_at_quantum_end(3));
    }
}
