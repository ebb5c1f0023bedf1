//! What the words at each key moment say the stage shows (the lock's holders and
//! its queue), held against the view (`run::chapters::StageClaim`).

use super::text::T;
use crate::run::chapters::{
    count_slot, drawn_holding, drawn_queued, expect, lock_slot, ns_slot, task_slot, StageClaim,
};
use crate::run::lock::LockMode;
use crate::run::trace::OpView;
use crate::run::view::View;

/// {0} waits in {1}'s queue at position {3}, {2} (when a task) holding it.
fn queued(op: &OpView, view: &View) -> Result<(), String> {
    drawn_queued(view, lock_slot(op, 1)?, task_slot(op, 0)?, Some(count_slot(op, 3)?))
}

fn queued_behind_writer(op: &OpView, view: &View) -> Result<(), String> {
    queued(op, view)?;
    drawn_holding(view, lock_slot(op, 1)?, task_slot(op, 2)?, Some(LockMode::Write))
}

fn spinning_on_readers(op: &OpView, view: &View) -> Result<(), String> {
    let lock = view.locks.get(lock_slot(op, 1)?.0 as usize).ok_or("no such lock is drawn")?;
    let readers = lock.holders.iter().filter(|h| h.mode == LockMode::Read).count() as u64;
    let said = count_slot(op, 2)?;
    expect(readers == said, || {
        format!("{} is drawn with {readers} reader(s), the words say {said}", lock.name)
    })
}

fn gave_up_spinning(op: &OpView, view: &View) -> Result<(), String> {
    drawn_queued(view, lock_slot(op, 2)?, task_slot(op, 0)?, Some(count_slot(op, 3)?))
}

fn readers_woken(op: &OpView, view: &View) -> Result<(), String> {
    let lock = view.locks.get(lock_slot(op, 1)?.0 as usize).ok_or("no such lock is drawn")?;
    let readers = lock.holders.iter().filter(|h| h.mode == LockMode::Read).count() as u64;
    let said = count_slot(op, 2)?;
    expect(readers >= said, || {
        format!("{} is drawn with {readers} reader(s), the words hand it to {said}", lock.name)
    })
}

fn ended(op: &OpView, view: &View) -> Result<(), String> {
    let at = ns_slot(op, 0)?;
    expect(view.now_ns == at, || format!("the clock is drawn at {} ns, the words say {at}", view.now_ns))
}

pub(super) static CLAIMS: &[StageClaim] = &[
    StageClaim {
        templates: &[T::READ_QUEUE_WRITER as u16],
        says: "the reader waits in the queue, the writer holds the lock",
        holds: queued_behind_writer,
    },
    StageClaim {
        templates: &[T::READ_QUEUE_FAIR as u16],
        says: "the reader waits in the queue at its position",
        holds: queued,
    },
    StageClaim {
        templates: &[T::WRITE_SPIN_READERS as u16],
        says: "the lock is held by so many readers",
        holds: spinning_on_readers,
    },
    StageClaim {
        templates: &[T::WRITE_SPIN_GIVE_UP as u16],
        says: "the writer waits in the queue at its position",
        holds: gave_up_spinning,
    },
    StageClaim {
        templates: &[T::WAKE_READERS as u16],
        says: "the woken readers hold the lock",
        holds: readers_woken,
    },
    StageClaim { templates: &[T::END as u16], says: "the run is over", holds: ended },
];
