//! What the words at each key moment say the stage shows (who has the CPU, the
//! write and slow-write counters), held against the view
//! (`run::chapters::StageClaim`).

use super::build::{C_SLOW, C_WRITES};
use super::text::T;
use crate::run::chapters::{count_slot, drawn_on_cpu, expect, ns_slot, task_slot, StageClaim};
use crate::run::trace::OpView;
use crate::run::view::View;
use crate::run::world::{CounterId, TaskState};

fn counter(view: &View, id: CounterId) -> u64 {
    view.counters.get(usize::from(id.0)).map_or(0, |(_, value)| *value)
}

/// {0} is preempted and stays runnable; {3} runs.
fn preempted(op: &OpView, view: &View) -> Result<(), String> {
    let (out, next) = (task_slot(op, 0)?, task_slot(op, 3)?);
    drawn_on_cpu(view, out, false)?;
    let runnable = view.tasks.get(out.0 as usize).is_some_and(|t| t.state == TaskState::Runnable);
    expect(runnable, || "the preempted task is not drawn runnable".to_string())?;
    drawn_on_cpu(view, next, true)
}

/// {0} keeps the CPU (a new turn straight away) or runs to read its clock.
fn still_running(op: &OpView, view: &View) -> Result<(), String> {
    drawn_on_cpu(view, task_slot(op, 0)?, true)
}

fn slow_write(op: &OpView, view: &View) -> Result<(), String> {
    still_running(op, view)?;
    let slow = counter(view, C_SLOW);
    expect(slow > 0, || "no slow write is counted on the stage".to_string())
}

/// The end: its time, the writes and the slow ones as the counters draw them.
fn ended(op: &OpView, view: &View) -> Result<(), String> {
    let (at, writes, slow) = (ns_slot(op, 0)?, count_slot(op, 1)?, count_slot(op, 2)?);
    expect(view.now_ns == at, || format!("the clock is drawn at {} ns, the words say {at}", view.now_ns))?;
    let drawn = (counter(view, C_WRITES), counter(view, C_SLOW));
    expect(drawn == (writes, slow), || {
        format!("writes and slow ones are drawn as {drawn:?}, the words say {writes}, {slow}")
    })
}

pub(super) static CLAIMS: &[StageClaim] = &[
    StageClaim {
        templates: &[T::SWITCH_PREEMPT as u16, T::SWITCH_PREEMPT_MID as u16, T::SWITCH_PREEMPT_24 as u16],
        says: "the writer is preempted and runnable; the other runs",
        holds: preempted,
    },
    StageClaim {
        templates: &[T::TICK_ACTIVE as u16],
        says: "the task keeps the CPU with a new turn",
        holds: still_running,
    },
    StageClaim {
        templates: &[T::W_TIME2_SLOW as u16, T::W_TIME2_SLOW_TODAY as u16],
        says: "the writer runs and reads its clock; a slow write is counted",
        holds: slow_write,
    },
    StageClaim {
        templates: &[T::END as u16],
        says: "the run's end, its writes and its slow writes",
        holds: ended,
    },
];
