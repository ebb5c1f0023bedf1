//! What the words at each key moment say the stage shows, held against the view the
//! stage draws from (`run::chapters::StageClaim`): the run queue's arrays read from
//! the `ARRAY` and `CPU` gauges, mmap_sem's holder and queue, the signal counters.
//! The stage (`app/src/cases/coredump_threads/stage.rs`) draws these same fields.

use super::machine::{gauge, Doing};
use super::text::T;
use crate::run::chapters::{
    count_slot, counter, expect, signed_slot, task_name, task_slot, word_slot, StageClaim,
};
use crate::run::trace::OpView;
use crate::run::view::{TaskView, View};
use crate::run::world::{TaskId, TaskState};

fn gauge_of(view: &View, task: TaskId, id: u8) -> i64 {
    view.tasks.get(task.0 as usize).and_then(|t| t.gauges.get(usize::from(id))).copied().unwrap_or(-1)
}

/// The tasks in one array (1 active, 2 expired) of one CPU's run queue, as the stage
/// lists them.
fn in_array(view: &View, cpu: i64, array: i64) -> Vec<&TaskView> {
    let gauge = |t: &TaskView, id: u8| t.gauges.get(usize::from(id)).copied().unwrap_or(-1);
    view.tasks.iter().filter(|t| gauge(t, gauge::ARRAY) == array && gauge(t, gauge::CPU) == cpu).collect()
}

fn array_word(array: i64) -> &'static str {
    match array {
        1 => "the active array",
        2 => "the expired array",
        _ => "no array",
    }
}

fn in_array_is(view: &View, task: TaskId, array: i64) -> Result<(), String> {
    let shown = gauge_of(view, task, gauge::ARRAY);
    expect(shown == array, || format!("{} is drawn in {}", task_name(view, task), array_word(shown)))
}

fn dumper(view: &View) -> Option<&TaskView> {
    view.tasks.iter().find(|t| t.gauges.get(usize::from(gauge::DOING)) == Some(&(Doing::Dumper as i64)))
}

/// The active array of `task`'s CPU holds `left` tasks.
fn active_left(view: &View, task: TaskId, left: u64) -> Result<(), String> {
    let active = in_array(view, gauge_of(view, task, gauge::CPU), 1).len() as u64;
    expect(active == left, || {
        format!("the active array is drawn with {active} task(s), the words say {left}")
    })
}

fn slice_back_to_active(op: &OpView, view: &View) -> Result<(), String> {
    in_array_is(view, task_slot(op, 0)?, 1)
}

fn dumper_still_expired(_: &OpView, view: &View) -> Result<(), String> {
    let dumper = dumper(view).ok_or("no dumper is drawn")?;
    in_array_is(view, dumper.id, 2)
}

fn slice_to_expired(op: &OpView, view: &View) -> Result<(), String> {
    let task = task_slot(op, 0)?;
    in_array_is(view, task, 2)?;
    active_left(view, task, count_slot(op, 5)?)
}

fn slice_expired_not_interactive(op: &OpView, view: &View) -> Result<(), String> {
    let task = task_slot(op, 0)?;
    in_array_is(view, task, 2)?;
    active_left(view, task, count_slot(op, 3)?)
}

fn swapped_dumper_active(_: &OpView, view: &View) -> Result<(), String> {
    let dumper = dumper(view).ok_or("no dumper is drawn")?;
    in_array_is(view, dumper.id, 1)?;
    let expired = in_array(view, gauge_of(view, dumper.id, gauge::CPU), 2).len();
    expect(expired == 0, || format!("the expired array is drawn with {expired} task(s) after the swap"))
}

fn swapped(_: &OpView, view: &View) -> Result<(), String> {
    let cpus = view.cpus.len().max(1) as i64;
    let swapped =
        (0..cpus).any(|cpu| in_array(view, cpu, 2).is_empty() && !in_array(view, cpu, 1).is_empty());
    expect(swapped, || "no CPU is drawn with its expired array empty and its active one full".to_string())
}

/// The shared pending set's counter for a signal (SIGXCPU has its own).
fn pending_counter(signal: &str) -> &'static str {
    if signal == "SIGXCPU" {
        "shared_pending_SIGXCPU"
    } else {
        "shared_pending"
    }
}

fn signal_pending(op: &OpView, view: &View) -> Result<(), String> {
    let signal = word_slot(op, 0)?;
    expect(counter(view, pending_counter(signal)) > 0, || {
        format!("{signal} is not drawn in the shared pending set")
    })
}

fn xcpu_first_pending(_: &OpView, view: &View) -> Result<(), String> {
    expect(counter(view, "shared_pending_SIGXCPU") > 0, || {
        "SIGXCPU is not drawn in the shared pending set".into()
    })
}

fn group_stop(op: &OpView, view: &View) -> Result<(), String> {
    let (said, shown) = (count_slot(op, 1)?, counter(view, "group_stop_count"));
    expect(said == shown, || format!("group_stop_count is drawn as {shown}, the words say {said}"))
}

fn preempt_priorities(op: &OpView, view: &View) -> Result<(), String> {
    for (task, prio) in [(0, 1), (2, 3)] {
        let (task, said) = (task_slot(op, task)?, signed_slot(op, prio)?);
        let shown = gauge_of(view, task, gauge::PRIO);
        expect(shown == said, || {
            format!("{} is drawn at priority {shown}, the words say {said}", task_name(view, task))
        })?;
    }
    Ok(())
}

fn signal_dequeued(slot: usize) -> impl Fn(&OpView, &View) -> Result<(), String> {
    move |op, view| {
        let signal = word_slot(op, slot)?;
        expect(counter(view, pending_counter(signal)) == 0, || {
            format!("{signal} is still drawn in the shared pending set")
        })
    }
}

fn main_dequeues(op: &OpView, view: &View) -> Result<(), String> {
    signal_dequeued(1)(op, view)
}

fn thread_dequeues(op: &OpView, view: &View) -> Result<(), String> {
    signal_dequeued(1)(op, view)
}

fn mmap_sem(view: &View) -> Option<&crate::run::view::LockView> {
    view.locks.iter().find(|l| l.name == "mm->mmap_sem" || l.name == "mm->mmap_lock")
}

fn yielded(op: &OpView, view: &View) -> Result<(), String> {
    let task = task_slot(op, 0)?;
    in_array_is(view, task, 2)?;
    active_left(view, task, count_slot(op, 2)?)?;
    let holder = mmap_sem(view).and_then(|l| l.holders.first()).map(|h| h.task);
    expect(holder == Some(task), || format!("mmap_sem is not drawn held by {}", task_name(view, task)))
}

fn zap(op: &OpView, view: &View) -> Result<(), String> {
    let task = task_slot(op, 0)?;
    let running = view.tasks.get(task.0 as usize).is_some_and(|t| t.state.cpu().is_some());
    expect(running, || format!("{} is not drawn on a CPU", task_name(view, task)))?;
    // What is left after the dumper's own --core_waiters: the others still to arrive.
    let (said, shown) = (count_slot(op, 1)?, counter(view, "core_waiters"));
    expect(said == shown, || format!("core_waiters is drawn as {shown}, the words say {said}"))
}

fn zap_18(op: &OpView, view: &View) -> Result<(), String> {
    let (said, shown) = (count_slot(op, 1)?, counter(view, "core_waiters"));
    expect(said == shown, || format!("core_waiters is drawn as {shown}, the words say {said}"))
}

fn kill_dequeued(op: &OpView, view: &View) -> Result<(), String> {
    let task = task_slot(op, 0)?;
    let exiting = gauge_of(view, task, gauge::DOING) == Doing::Exiting as i64;
    expect(exiting, || format!("{} is not drawn exiting", task_name(view, task)))
}

fn mmap_blocked(op: &OpView, view: &View) -> Result<(), String> {
    let task = task_slot(op, 0)?;
    let waiters = mmap_sem(view).map_or(&[][..], |l| &l.waiters[..]);
    expect(waiters.iter().any(|w| w.task == task), || {
        format!("{} is not drawn in mmap_sem's queue", task_name(view, task))
    })?;
    let queued = count_slot(op, 1)?;
    expect(waiters.len() as u64 == queued, || {
        format!("mmap_sem's queue is drawn with {}, the words say {queued}", waiters.len())
    })?;
    in_array_is(view, task, 0)?;
    let cpu = gauge_of(view, task, gauge::CPU);
    let running = (in_array(view, cpu, 1).len() + in_array(view, cpu, 2).len()) as u64;
    let said = count_slot(op, 3)?;
    expect(running == said, || {
        format!("the run queue is drawn with {running} task(s), the words say nr_running {said}")
    })
}

fn xcpu_sent(op: &OpView, view: &View) -> Result<(), String> {
    let (said, shown) = (count_slot(op, 2)?, counter(view, "SIGXCPU_sent"));
    expect(said == shown, || format!("SIGXCPU sent is drawn as {shown}, the words say #{said}"))?;
    let (said, shown) = (count_slot(op, 4)?, counter(view, "rlimit_cpu_cur_s"));
    expect(said == shown, || format!("RLIMIT_CPU is drawn as {shown} s, the words say {said} s"))
}

fn xcpu_pending(op: &OpView, view: &View) -> Result<(), String> {
    xcpu_sent(op, view)?;
    xcpu_first_pending(op, view)
}

fn all_gone(_: &OpView, view: &View) -> Result<(), String> {
    let alive = view.tasks.iter().filter(|t| t.state != TaskState::Dead).count();
    expect(alive == 0, || format!("{alive} thread(s) are drawn alive"))
}

pub(super) static CLAIMS: &[StageClaim] = &[
    StageClaim {
        templates: &[T::TICK_ACTIVE as u16, T::TICK_ACTIVE_PLAIN as u16],
        says: "the thread whose slice ended is back in the active array",
        holds: slice_back_to_active,
    },
    StageClaim {
        templates: &[T::TICK_ACTIVE as u16],
        says: "the dumper keeps waiting in the expired array",
        holds: dumper_still_expired,
    },
    StageClaim {
        templates: &[T::TICK_STARVING as u16, T::TICK_STARVING_FIRST as u16],
        says: "the thread goes to the expired array; so many left in the active one",
        holds: slice_to_expired,
    },
    StageClaim {
        templates: &[T::TICK_EXPIRED as u16],
        says: "the thread goes to the expired array; so many left in the active one",
        holds: slice_expired_not_interactive,
    },
    StageClaim {
        templates: &[T::SWAP as u16],
        says: "the arrays swap: the dumper is active again, the expired array empty",
        holds: swapped_dumper_active,
    },
    StageClaim {
        templates: &[T::SWAP_PLAIN as u16],
        says: "the arrays swap: a CPU's expired array is empty",
        holds: swapped,
    },
    StageClaim {
        templates: &[T::SIGNAL_SENT as u16],
        says: "the signal waits on the shared pending set",
        holds: signal_pending,
    },
    StageClaim {
        templates: &[T::XCPU_FIRST as u16],
        says: "SIGXCPU waits on the shared pending set",
        holds: xcpu_first_pending,
    },
    StageClaim { templates: &[T::GROUP_STOP as u16], says: "group_stop_count is set", holds: group_stop },
    StageClaim {
        templates: &[T::PREEMPT as u16, T::NO_PREEMPT as u16],
        says: "the two threads' priorities",
        holds: preempt_priorities,
    },
    StageClaim {
        templates: &[T::DEQUEUE_MAIN as u16],
        says: "the signal is off the shared pending set",
        holds: main_dequeues,
    },
    StageClaim {
        templates: &[T::DEQUEUE_DUMP as u16, T::DEQUEUE_EXIT as u16],
        says: "the signal is off the shared pending set",
        holds: thread_dequeues,
    },
    StageClaim {
        templates: &[T::YIELD as u16, T::YIELD_NO_CLOCK as u16],
        says: "the dumper waits in the expired array behind so many, holding mmap_sem",
        holds: yielded,
    },
    StageClaim {
        templates: &[T::ZAP as u16],
        says: "the dumper runs again; core_waiters once it has counted itself out",
        holds: zap,
    },
    StageClaim { templates: &[T::ZAP_18 as u16], says: "core_waiters", holds: zap_18 },
    StageClaim { templates: &[T::KILL_DEQUEUE as u16], says: "the thread is exiting", holds: kill_dequeued },
    StageClaim {
        templates: &[T::MMAP_BLOCK as u16, T::MMAP_BLOCK_NO_CLOCK as u16],
        says: "the thread sleeps in mmap_sem's queue, off the run queue",
        holds: mmap_blocked,
    },
    StageClaim {
        templates: &[T::XCPU_SENT as u16],
        says: "SIGXCPU #k is pending and the soft limit is raised",
        holds: xcpu_pending,
    },
    StageClaim {
        templates: &[T::XCPU_DROPPED as u16],
        says: "SIGXCPU #k is counted and the soft limit raised",
        holds: xcpu_sent,
    },
    StageClaim { templates: &[T::LAST_EXIT as u16], says: "every thread is gone", holds: all_gone },
];
