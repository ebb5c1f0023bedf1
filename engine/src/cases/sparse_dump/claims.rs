//! What the words at each key moment say the stage shows (mmap_lock's holder, the
//! pending SIGKILL, the pages skipped and written), held against the view
//! (`run::chapters::StageClaim`).

use super::text::T;
use crate::run::chapters::{count_slot, counter, drawn_holding, expect, lock_slot, ns_slot, StageClaim};
use crate::run::lock::LockMode;
use crate::run::trace::OpView;
use crate::run::view::View;

/// The dumping thread holds {0} for reading.
fn dump_reads(op: &OpView, view: &View) -> Result<(), String> {
    let task = op.actor.ok_or("the op has no actor")?;
    drawn_holding(view, lock_slot(op, 0)?, task, Some(LockMode::Read))
}

fn kill_pending(_: &OpView, view: &View) -> Result<(), String> {
    expect(counter(view, "sigkill_pending") > 0, || "no SIGKILL is drawn pending".to_string())
}

/// The end at {0}: {1} pages skipped, {2} written.
fn ended(op: &OpView, view: &View) -> Result<(), String> {
    let at = ns_slot(op, 0)?;
    expect(view.now_ns == at, || format!("the clock is drawn at {} ns, the words say {at}", view.now_ns))?;
    let said = (count_slot(op, 1)?, count_slot(op, 2)?);
    let drawn = (counter(view, "pages_skipped"), counter(view, "pages_emitted"));
    expect(drawn == said, || {
        format!("pages skipped and written are drawn as {drawn:?}, the words say {said:?}")
    })
}

pub(super) static CLAIMS: &[StageClaim] = &[
    StageClaim {
        templates: &[T::LOCK as u16, T::LOCK_TAKE_615 as u16],
        says: "the dump holds mmap_lock for reading",
        holds: dump_reads,
    },
    StageClaim {
        templates: &[T::SIGNAL as u16, T::SIGNAL_IN_HOLE as u16],
        says: "SIGKILL is pending",
        holds: kill_pending,
    },
    StageClaim {
        templates: &[T::END as u16],
        says: "the dump's end, its pages skipped and written",
        holds: ended,
    },
];
