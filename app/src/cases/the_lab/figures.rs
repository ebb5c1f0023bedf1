//! The Lab's figures below the stage, as the textbook tables them: per task
//! (response, turnaround, waiting, CPU, switches, lock wait) with the averages, per
//! lock and per CPU. Every figure is the engine's: the run's, at its end
//! (`run.metrics`), but for the first column, the task at the step shown (`View`).
//! Rows come in the workload's order, as the layout has them.

use super::StageContext;
use crate::player::panels::metric_text;
use slowpath_engine::run::format;
use slowpath_engine::run::timeline::SpanState;
use slowpath_engine::run::trace::Metric;
use slowpath_engine::run::view::View;
use std::collections::BTreeMap;
use yew::prelude::*;

/// The per-task columns: the engine's key and the heading.
const TASK_COLUMNS: &[(&str, &str)] = &[
    ("arrival_ns", "arrives"),
    ("response_ns", "response"),
    ("turnaround_ns", "turnaround"),
    ("waiting_ns", "waiting"),
    ("user_ns", "user CPU"),
    ("sys_ns", "sys CPU"),
    ("switches", "switches"),
    // Not the Figures panel's "blocked": from joining a queue to taking the lock, for
    // the locks taken (a wait still going on at the end is not in it).
    ("lock_wait_ns", "lock wait (queued → taken)"),
];

/// The averages row: the engine's key under the column it belongs to.
const AVERAGES: &[(&str, &str)] = &[
    ("response_ns", "response_avg_ns"),
    ("turnaround_ns", "turnaround_avg_ns"),
    ("waiting_ns", "waiting_avg_ns"),
];

const LOCK_COLUMNS: &[(&str, &str)] = &[
    ("acquisitions", "acquisitions"),
    ("contended", "contended"),
    ("wait_total_ns", "wait total"),
    ("wait_max_ns", "wait max"),
    ("hold_total_ns", "held"),
];

fn object<'a>(metrics: &'a BTreeMap<String, Metric>, key: &str) -> Option<&'a BTreeMap<String, Metric>> {
    match metrics.get(key) {
        Some(Metric::Object(fields)) => Some(fields),
        _ => None,
    }
}

/// A cell: the figure as a person writes it, "—" where the run has none (a task
/// that has not exited has no turnaround).
fn cell(fields: &BTreeMap<String, Metric>, key: &str) -> Html {
    let text = match fields.get(key) {
        Some(Metric::None(None)) | None => "—".to_string(),
        Some(metric) => metric_text(key, metric),
    };
    html! { <td class="num">{ text }</td> }
}

/// A table's heading row: what its rows are, the columns of the step shown (`now`),
/// then each figure's heading.
fn head_row(rows_are: &str, now: &[&str], columns: &[(&str, &str)]) -> Html {
    html! {
        <thead><tr>
            <th scope="col">{ rows_are.to_string() }</th>
            { for now.iter().map(|heading| html! { <th scope="col">{ *heading }</th> }) }
            { for columns.iter().map(|(_, heading)| html! { <th scope="col">{ *heading }</th> }) }
        </tr></thead>
    }
}

/// The rows of `rows` in the workload's order (`names`, the layout's), then any the
/// layout does not name: the metrics' own order is alphabetical, where t10 comes
/// before t2.
fn in_order<'a>(
    rows: &'a BTreeMap<String, Metric>,
    names: impl Iterator<Item = &'a str>,
) -> Vec<(&'a str, &'a BTreeMap<String, Metric>)> {
    let fields = |name: &'a str| match rows.get(name) {
        Some(Metric::Object(fields)) => Some((name, fields)),
        _ => None,
    };
    let mut ordered: Vec<_> = names.filter_map(fields).collect();
    let unnamed: Vec<_> = rows
        .keys()
        .filter(|name| !ordered.iter().any(|(shown, _)| shown == name))
        .filter_map(|name| fields(name))
        .collect();
    ordered.extend(unnamed);
    ordered
}

/// What the "now" column says of a task, by name, and whether it is on a CPU.
type NowOf<'a> = &'a dyn Fn(&str) -> (Html, bool);

/// A row per named object (a task, a lock): its name, what `now` says of it at the
/// step shown (for tasks), then its figure in each column.
fn body_rows(
    rows: &[(&str, &BTreeMap<String, Metric>)],
    columns: &[(&str, &str)],
    now: Option<NowOf<'_>>,
) -> Html {
    html! {
        <tbody>
            { for rows.iter().map(|&(name, fields)| {
                let (now_cell, running) = now.map_or((Html::default(), false), |now| now(name));
                html! {
                    <tr key={name.to_string()} class={classes!(running.then_some("lab-row-running"))}>
                        <th scope="row">{ name }</th>
                        { now_cell }
                        { for columns.iter().map(|(key, _)| cell(fields, key)) }
                    </tr>
                }
            }) }
        </tbody>
    }
}

/// The "now" cell of a task: its state at the step shown and its CPU time so far.
fn now_cell(view: &View, id: usize) -> (Html, bool) {
    let Some(task) = view.tasks.get(id) else { return (html! { <td /> }, false) };
    let span = SpanState::of(task.state);
    let running = view.cpus.iter().any(|cpu| cpu.is_some_and(|on| on.0 as usize == id));
    // The textbook's word for a task that is done, as the stage's groups say it.
    let state = if span == SpanState::Dead { "exited" } else { span.label() };
    let text = format!("{state} · {}", format::duration(task.user_ns + task.sys_ns));
    (html! { <td class="lab-now">{ text }</td> }, running)
}

/// The wide slot: the tables, under one heading.
pub fn figures(context: &StageContext) -> Html {
    let metrics = &context.run.metrics;
    let layout = &context.run.layout;
    let Some(tasks) = object(metrics, "tasks") else { return Html::default() };
    let task_rows = in_order(tasks, layout.tasks.iter().map(|task| task.name.as_str()));
    let view = &context.view;
    // A task's id is its place in the layout.
    let ids: BTreeMap<&str, usize> =
        layout.tasks.iter().enumerate().map(|(id, task)| (task.name.as_str(), id)).collect();
    let now = |name: &str| match ids.get(name) {
        Some(&id) => now_cell(view, id),
        None => (html! { <td /> }, false),
    };
    html! {
        <section class="panel lab-figures" data-testid="lab-figures" aria-labelledby="lab-figures-title">
            <h2 id="lab-figures-title">{ "Per task" }</h2>
            <p class="lab-figures-when">{ "Now: at the step shown. Every other column: the whole run, at its end." }</p>
            <div class="table-scroll" role="region" aria-label="Figures per task" tabindex="0">
                <table class="lab-table" data-testid="lab-task-table">
                    { head_row("task", &["now (CPU so far)"], TASK_COLUMNS) }
                    { body_rows(&task_rows, TASK_COLUMNS, Some(&now)) }
                    <tfoot><tr>
                        <th scope="row">{ "average" }</th>
                        <td />
                        { for TASK_COLUMNS.iter().map(|(column, _)| {
                            match AVERAGES.iter().find(|(under, _)| under == column) {
                                Some((_, key)) => cell(metrics, key),
                                None => html! { <td /> },
                            }
                        }) }
                    </tr></tfoot>
                </table>
            </div>
            if let Some(locks) = object(metrics, "locks").filter(|locks| !locks.is_empty()) {
                <h3>{ "Per lock" }</h3>
                <div class="table-scroll" role="region" aria-label="Figures per lock" tabindex="0">
                    <table class="lab-table" data-testid="lab-lock-table">
                        { head_row("lock", &[], LOCK_COLUMNS) }
                        { body_rows(&in_order(locks, layout.locks.iter().map(|lock| lock.name.as_str())), LOCK_COLUMNS, None) }
                    </table>
                </div>
            }
            if let Some(cpus) = object(metrics, "cpus") {
                <p class="lab-cpus">
                    { "CPU busy: " }
                    { for cpus.iter().enumerate().map(|(index, (name, figures))| {
                        let busy = match figures {
                            Metric::Object(fields) => fields.get("utilisation").map(percent).unwrap_or_default(),
                            _ => String::new(),
                        };
                        html! { <span key={name.clone()}>{ if index > 0 { " · " } else { "" } }{ format!("{name} {busy}") }</span> }
                    }) }
                </p>
            }
        </section>
    }
}

/// A utilisation (0 to 1) as a percentage with one decimal.
fn percent(metric: &Metric) -> String {
    match metric {
        Metric::Ratio(ratio) => format!("{}%", slowpath_engine::run::format::Fixed(ratio * 100.0, 1)),
        other => metric_text("utilisation", other),
    }
}
