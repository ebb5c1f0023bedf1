//! The FIFO stage on today's kernel (the `today` variant, EEVDF as of 6.18): each
//! task's virtual runtime, deadline and lag, and the run queue as EEVDF sees it
//! (who is eligible, whose deadline is earliest), in place of 2.6.1's sleep_avg,
//! priorities and arrays. Everything comes from the run's gauges.

use slowpath_engine::cases::fifo_trigger::build::{G_ARRAY, G_DEADLINE, G_LAG, G_VRUNTIME};
use slowpath_engine::cases::fifo_trigger::FifoCase;
use slowpath_engine::run::format;
use slowpath_engine::run::view::{TaskView, View};
use slowpath_engine::Run;
use yew::prelude::*;

/// The kernel name the extras give today's runs.
pub(super) const TODAY_KERNEL: &str = "6.18";

fn gauge(task: &TaskView, index: u8) -> i64 {
    task.gauges.get(usize::from(index)).copied().unwrap_or(0)
}

/// A signed virtual time as a duration ("−1.2 ms").
fn signed(ns: i64) -> String {
    let magnitude = format::duration(ns.unsigned_abs());
    if ns < 0 {
        format!("−{magnitude}")
    } else {
        magnitude
    }
}

/// One task's EEVDF state: lag (what it is owed), and its deadline past its vruntime.
pub(super) fn gauges(case: &FifoCase, task: &TaskView, index: usize) -> Html {
    let nice = case.nice.get(index).copied().unwrap_or(0);
    let queued = gauge(task, G_ARRAY) != 0;
    let lag = gauge(task, G_LAG);
    let ahead = gauge(task, G_DEADLINE) - gauge(task, G_VRUNTIME);
    html! {
        <dl class="fifo-gauges">
            <dt title="V − vruntime: the CPU time it is owed (positive) or has had too much of (negative); kept while it sleeps">{ "lag" }</dt>
            <dd>
                <span class={classes!("fifo-value", (lag > 0).then_some("better"), (lag < 0).then_some("worse"))}>{ signed(lag) }</span>
                <span class="muted">{ if queued { " (V − vruntime)" } else { " (kept while asleep)" } }</span>
            </dd>
            <dt title="The virtual deadline less the vruntime: what is left of its slice, in virtual time">{ "to its deadline" }</dt>
            <dd><span class="fifo-value">{ signed(ahead) }</span>
                <span class="muted">{ format!(" of a {} slice", format::duration(case.slice_ns.get(index).copied().unwrap_or(0))) }</span></dd>
            <dt>{ "nice" }</dt>
            <dd><span class="fifo-value">{ nice }</span><span class="muted">{ " (its weight scales virtual time)" }</span></dd>
        </dl>
    }
}

/// The run queue on EEVDF: each queued task's lag and deadline; pick_eevdf takes the
/// eligible task (lag ≥ 0) with the earliest deadline.
pub(super) fn runqueue(run: &Run, view: &View) -> Html {
    let queued: Vec<&TaskView> = view.tasks.iter().filter(|t| gauge(t, G_ARRAY) != 0).collect();
    let earliest =
        queued.iter().filter(|t| gauge(t, G_LAG) >= 0).min_by_key(|t| gauge(t, G_DEADLINE)).map(|t| t.id);
    html! {
        <figure class="fifo-runqueue" data-testid="fifo-runqueue">
            // One line on the stage, the rules one click away: the stage must fit the first screen.
            <figcaption>
                <details class="fifo-runqueue-rules">
                    <summary>{ "EEVDF's run queue (6.18): who is eligible, whose deadline is earliest" }</summary>
                    { "V is the weighted average vruntime. A task is eligible when its lag V − vruntime is not negative; pick_eevdf takes the eligible task with the earliest virtual deadline, but keeps the running one until its slice is used (RUN_TO_PARITY). The figures are as of each task's last scheduler event." }
                </details>
            </figcaption>
            <table class="fifo-good">
                <thead><tr>
                    <th scope="col">{ "task" }</th><th scope="col">{ "on the run queue" }</th>
                    <th scope="col">{ "lag" }</th><th scope="col">{ "eligible" }</th><th scope="col">{ "next pick" }</th>
                </tr></thead>
                <tbody>
                    { for view.tasks.iter().map(|t| {
                        let on = gauge(t, G_ARRAY) != 0;
                        let lag = gauge(t, G_LAG);
                        html! {
                            <tr>
                                <th scope="row">{ run.layout.task_name(t.id) }</th>
                                <td>{ if on { "yes" } else { "no" } }</td>
                                <td>{ signed(lag) }</td>
                                <td>{ if !on { "–" } else if lag >= 0 { "yes" } else { "no" } }</td>
                                <td>{ if earliest == Some(t.id) { "earliest deadline" } else { "" } }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
        </figure>
    }
}
