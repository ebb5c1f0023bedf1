//! What the words at each key moment say the stage shows (who runs, who holds
//! and who waits for each lock), held against the view (`run::chapters::StageClaim`).

use super::text::T;
use crate::run::chapters::{
    count_slot, drawn_holding, drawn_on_cpu, drawn_queued, expect, lock_slot, ns_slot, task_slot, StageClaim,
};
use crate::run::lock::LockMode;
use crate::run::trace::OpView;
use crate::run::view::View;

fn runs(op: &OpView, view: &View) -> Result<(), String> {
    drawn_on_cpu(view, task_slot(op, 0)?, true)
}

fn off_cpu(op: &OpView, view: &View) -> Result<(), String> {
    drawn_on_cpu(view, task_slot(op, 0)?, false)
}

fn holds(op: &OpView, view: &View) -> Result<(), String> {
    drawn_holding(view, lock_slot(op, 1)?, task_slot(op, 0)?, None)
}

/// {0} waits in {1}'s queue at position {3}, {2} holding it.
fn queued_behind_holder(op: &OpView, view: &View) -> Result<(), String> {
    drawn_queued(view, lock_slot(op, 1)?, task_slot(op, 0)?, Some(count_slot(op, 3)?))?;
    drawn_holding(view, lock_slot(op, 1)?, task_slot(op, 2)?, None)
}

/// {0} waits in {1}'s queue, {2} holding it.
fn still_queued(op: &OpView, view: &View) -> Result<(), String> {
    drawn_queued(view, lock_slot(op, 1)?, task_slot(op, 0)?, None)?;
    drawn_holding(view, lock_slot(op, 1)?, task_slot(op, 2)?, None)
}

fn queued_at_2(op: &OpView, view: &View) -> Result<(), String> {
    drawn_queued(view, lock_slot(op, 1)?, task_slot(op, 0)?, Some(count_slot(op, 2)?))
}

fn queued(op: &OpView, view: &View) -> Result<(), String> {
    drawn_queued(view, lock_slot(op, 1)?, task_slot(op, 0)?, None)
}

fn write_queued(op: &OpView, view: &View) -> Result<(), String> {
    drawn_queued(view, lock_slot(op, 1)?, task_slot(op, 0)?, Some(count_slot(op, 3)?))
}

fn spinning(op: &OpView, view: &View) -> Result<(), String> {
    drawn_queued(view, lock_slot(op, 1)?, task_slot(op, 0)?, Some(count_slot(op, 4)?))?;
    drawn_on_cpu(view, task_slot(op, 0)?, true)
}

/// {2} now holds {1}.
fn handed(op: &OpView, view: &View) -> Result<(), String> {
    drawn_holding(view, lock_slot(op, 1)?, task_slot(op, 2)?, None)
}

fn readers_woken(op: &OpView, view: &View) -> Result<(), String> {
    let lock = view.locks.get(lock_slot(op, 1)?.0 as usize).ok_or("no such lock is drawn")?;
    let readers = lock.holders.iter().filter(|h| h.mode == LockMode::Read).count() as u64;
    let said = count_slot(op, 2)?;
    expect(readers >= said, || {
        format!("{} is drawn with {readers} reader(s), the words say {said}", lock.name)
    })
}

/// {0} holds {1} and waits for {2}.
fn deadlock_edge(op: &OpView, view: &View) -> Result<(), String> {
    drawn_holding(view, lock_slot(op, 1)?, task_slot(op, 0)?, None)?;
    drawn_queued(view, lock_slot(op, 2)?, task_slot(op, 0)?, None)
}

fn ended(op: &OpView, view: &View) -> Result<(), String> {
    let at = ns_slot(op, 0)?;
    expect(view.now_ns == at, || format!("the clock is drawn at {} ns, the words say {at}", view.now_ns))
}

fn no_claim(_: &OpView, _: &View) -> Result<(), String> {
    Ok(())
}

pub(super) static CLAIMS: &[StageClaim] = &[
    StageClaim {
        templates: &[
            T::PICK_FIFO as u16,
            T::PICK_SJF as u16,
            T::PICK_STCF as u16,
            T::PICK_RR as u16,
            T::STCF_PREEMPT as u16,
            T::O1_PICK as u16,
            T::FAIR_PICK as u16,
            T::GOOD_PICK as u16,
            T::GOOD_PICK_SMP as u16,
        ],
        says: "the picked task runs on a CPU",
        holds: runs,
    },
    StageClaim {
        templates: &[
            T::QUANTUM_REQUEUE as u16,
            T::SLEEP as u16,
            T::YIELD as u16,
            T::EXIT as u16,
            T::SIGPIPE_EXIT as u16,
            T::YIELD_CPU as u16,
            T::RESCHED as u16,
            T::YIELD_CALL as u16,
            T::PIPE_WRITE_WAIT as u16,
            T::PIPE_WRITE_ATOMIC_WAIT as u16,
            T::PIPE_READ_WAIT as u16,
            T::PIPE_WRITE_FULL_WAIT as u16,
            T::PIPE_WRITE_STILL_FULL as u16,
            T::PIPE_WRITE_SLOT_TAKEN as u16,
            T::PIPE_WRITE_PAGES_WAIT as u16,
            T::PIPE_READ_STILL_EMPTY as u16,
        ],
        says: "the task is off its CPU",
        holds: off_cpu,
    },
    StageClaim {
        templates: &[
            T::QUANTUM_RENEW as u16,
            T::QUANTUM_ATOMIC as u16,
            T::RUN as u16,
            T::SYS as u16,
            T::LOCK_COST as u16,
            T::PIPE_WRITE as u16,
            T::PIPE_READ as u16,
            T::PIPE_WRITE_MERGE as u16,
            T::PIPE_WRITE_BOTH as u16,
            T::PIPE_EOF as u16,
        ],
        says: "the task keeps its CPU",
        holds: runs,
    },
    StageClaim {
        templates: &[
            T::MUTEX_FAST as u16,
            T::MUTEX_RETRY_GOT as u16,
            T::SPIN_GOT as u16,
            T::READ_FAST as u16,
            T::READ_STEAL as u16,
            T::WRITE_FAST as u16,
            T::WRITE_STEAL as u16,
            T::WRITE_RETRY_GOT as u16,
        ],
        says: "the task holds the lock",
        holds,
    },
    StageClaim {
        templates: &[T::MUTEX_QUEUE as u16, T::READ_QUEUE_WRITER as u16],
        says: "the task waits in the queue at its position, behind the holder",
        holds: queued_behind_holder,
    },
    StageClaim {
        templates: &[T::MUTEX_RETRY_FAIL as u16, T::MUTEX_SET_HANDOFF as u16],
        says: "the task is still in the queue, the other holds the lock",
        holds: still_queued,
    },
    StageClaim {
        templates: &[T::READ_QUEUE_FAIR as u16, T::READ_QUEUE_HANDOFF as u16],
        says: "the reader waits in the queue at its position",
        holds: queued_at_2,
    },
    StageClaim {
        templates: &[T::MUTEX_QUEUE_HANDOFF as u16, T::WRITE_RETRY_FAIL as u16, T::WRITE_SET_HANDOFF as u16],
        says: "the task waits in the queue",
        holds: queued,
    },
    StageClaim {
        templates: &[T::WRITE_QUEUE as u16],
        says: "the writer waits at its position",
        holds: write_queued,
    },
    StageClaim {
        templates: &[T::SPIN_WAIT as u16],
        says: "the spinner waits in line on its CPU",
        holds: spinning,
    },
    StageClaim {
        templates: &[T::MUTEX_UNLOCK_HAND as u16, T::UNSPIN_NEXT as u16],
        says: "the next task holds the lock",
        holds: handed,
    },
    StageClaim {
        templates: &[T::WAKE_READERS as u16],
        says: "the woken readers hold the lock",
        holds: readers_woken,
    },
    StageClaim {
        templates: &[T::DEADLOCK_EDGE as u16],
        says: "the task holds one lock and waits for the other",
        holds: deadlock_edge,
    },
    StageClaim {
        templates: &[T::END_TIME as u16, T::END_DONE as u16],
        says: "the run is over",
        holds: ended,
    },
    StageClaim {
        templates: &[
            T::ARRIVE as u16,
            T::WAKE as u16,
            T::MUTEX_UNLOCK as u16,
            T::MUTEX_UNLOCK_WAKE as u16,
            T::UNSPIN as u16,
            T::UP_READ as u16,
            T::UP_WRITE as u16,
            T::WAKE_WRITER as u16,
            T::DEADLOCK as u16,
            T::REFUSED as u16,
            T::O1_FORK as u16,
            T::O1_ACTIVATE as u16,
            T::O1_PREEMPT as u16,
            T::O1_SWAP as u16,
            T::O1_CREDIT as u16,
            T::O1_TICK_REQUEUE as u16,
            T::O1_TICK_ACTIVE as u16,
            T::O1_TICK_EXPIRED as u16,
            T::O1_TICK_STARVING as u16,
            T::O1_YIELD as u16,
            T::O1_ATOMIC as u16,
            T::RESCHED_ATOMIC as u16,
            T::GOOD_IN_KERNEL as u16,
            T::GOOD_SYSCALL_RETURN as u16,
            T::O1_MIGRATE as u16,
            T::O1_REBALANCE as u16,
            T::O1_REBALANCE_PINNED as u16,
            T::FAIR_NEW as u16,
            T::FAIR_SELECT as u16,
            T::FAIR_MIGRATE as u16,
            T::FAIR_WAKE as u16,
            T::FAIR_PREEMPT as u16,
            T::FAIR_WAKE_SLICE as u16,
            T::FAIR_YIELD as u16,
            T::FAIR_YIELD_NOTHING as u16,
            T::FAIR_DEQUEUE as u16,
            T::FAIR_DEQUEUE_AHEAD as u16,
            T::FAIR_DEQUEUE_CLAMPED as u16,
            T::FAIR_TICK_DEADLINE as u16,
            T::FAIR_TICK_PROTECT as u16,
            T::GOOD_FORK as u16,
            T::GOOD_WAKE as u16,
            T::GOOD_PREEMPT as u16,
            T::GOOD_SMP_IDLE as u16,
            T::GOOD_SMP_PREEMPT as u16,
            T::GOOD_YIELD as u16,
            T::GOOD_RECALC as u16,
            T::GOOD_RECALC_SMP as u16,
            T::GOOD_TICK_OUT as u16,
            T::PIPE_WAKE_READER as u16,
            T::PIPE_WAKE_WRITER as u16,
            T::PIPE_WAKE_NEXT_READER as u16,
            T::PIPE_WAKE_NEXT_WRITER as u16,
            T::PIPE_RELEASE_READERS as u16,
            T::PIPE_RELEASE_WRITERS as u16,
            T::PIPE_SIGPIPE as u16,
            T::STALL_NO_WRITER as u16,
            T::STALL_NO_READER as u16,
            T::STALL_READ as u16,
            T::STALL_WRITE as u16,
            T::STALL_LOCK as u16,
            T::END_STALL as u16,
        ],
        says: "nothing the stage draws beyond the step itself",
        holds: no_claim,
    },
];
