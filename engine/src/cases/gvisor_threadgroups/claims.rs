//! What the words at each key moment say the stage shows (TaskSet.mu's readers
//! and queue, the handlers' locks a sender holds, the pause's door), held against
//! the view (`run::chapters::StageClaim`).

use super::text::T;
use crate::run::chapters::{
    count_slot, counter, drawn_holding, drawn_queued, expect, lock_slot, task_slot, StageClaim,
};
use crate::run::lock::LockMode;
use crate::run::trace::OpView;
use crate::run::view::View;

fn actor(op: &OpView) -> Result<crate::run::world::TaskId, String> {
    op.actor.ok_or_else(|| "the op has no actor".to_string())
}

/// The scan holds {0} for reading.
fn scan_reads(op: &OpView, view: &View) -> Result<(), String> {
    drawn_holding(view, lock_slot(op, 0)?, actor(op)?, Some(LockMode::Read))
}

/// A writer waits on {0} while a reader holds it.
fn writer_waits(op: &OpView, view: &View) -> Result<(), String> {
    let lock = view.locks.get(lock_slot(op, 0)?.0 as usize).ok_or("no such lock is drawn")?;
    let writer_queued = lock.waiters.iter().any(|w| w.mode == LockMode::Write);
    expect(writer_queued, || format!("no writer is drawn in {}'s queue", lock.name))?;
    let read_held = lock.holders.iter().any(|h| h.mode == LockMode::Read);
    expect(read_held, || format!("{} is not drawn held for reading", lock.name))
}

/// {0} holds {1}; the locks held by this call number {2}.
fn sender_holds(op: &OpView, view: &View) -> Result<(), String> {
    drawn_holding(view, lock_slot(op, 1)?, task_slot(op, 0)?, None)?;
    let (said, shown) = (count_slot(op, 2)?, counter(view, "sighand_locks_held"));
    expect(said == shown, || format!("the locks held are drawn as {shown}, the words say {said}"))
}

fn signal_counted(_: &OpView, view: &View) -> Result<(), String> {
    expect(counter(view, "signals_sent") > 0, || "no signal is counted on the stage".to_string())
}

/// {0} queues on {1}, held by {2}.
fn pause_queued(op: &OpView, view: &View) -> Result<(), String> {
    let lock = lock_slot(op, 1)?;
    drawn_queued(view, lock, task_slot(op, 0)?, None)?;
    drawn_holding(view, lock, task_slot(op, 2)?, None)
}

/// The pauser walks with the door (k.extMu) held.
fn pause_walks(op: &OpView, view: &View) -> Result<(), String> {
    let door = view.locks.iter().position(|l| l.name == super::EXT_MU_LOCK).ok_or("no k.extMu is drawn")?;
    drawn_holding(view, crate::run::world::LockId(door as u32), actor(op)?, None)
}

pub(super) static CLAIMS: &[StageClaim] = &[
    StageClaim {
        templates: &[T::RLOCK as u16],
        says: "the scan holds the task lock for reading",
        holds: scan_reads,
    },
    StageClaim {
        templates: &[T::WRITER_WAITS as u16],
        says: "a writer waits while the scan reads",
        holds: writer_waits,
    },
    StageClaim {
        templates: &[T::SEND_LOCK_DEFER as u16],
        says: "the sender holds the group's lock; so many held",
        holds: sender_holds,
    },
    StageClaim { templates: &[T::SEND_SIGNAL as u16], says: "a signal is sent", holds: signal_counted },
    StageClaim {
        templates: &[T::PAUSE_BLOCKED as u16],
        says: "the pauser waits at the door, held by another",
        holds: pause_queued,
    },
    StageClaim {
        templates: &[T::PAUSE_WALK as u16],
        says: "the pauser walks every task with the door held",
        holds: pause_walks,
    },
];
