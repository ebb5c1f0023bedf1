//! The Lab's figures below the stage, as the textbook tables them: per task
//! (response, turnaround, waiting, CPU, switches, lock wait) with the averages, per
//! lock and per CPU. Every figure is the engine's (`run.metrics`), at the run's end.

use super::StageContext;
use crate::player::panels::metric_text;
use slowpath_engine::run::trace::Metric;
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
    ("lock_wait_ns", "lock wait"),
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

/// A table's heading row: what its rows are, then each column's heading.
fn head_row(rows_are: &str, columns: &[(&str, &str)]) -> Html {
    html! {
        <thead><tr>
            <th scope="col">{ rows_are.to_string() }</th>
            { for columns.iter().map(|(_, heading)| html! { <th scope="col">{ *heading }</th> }) }
        </tr></thead>
    }
}

/// A row per named object (a task, a lock): its name, then its figure in each column.
fn body_rows(rows: &BTreeMap<String, Metric>, columns: &[(&str, &str)]) -> Html {
    html! {
        <tbody>
            { for rows.iter().map(|(name, figures)| match figures {
                Metric::Object(fields) => html! {
                    <tr key={name.clone()}>
                        <th scope="row">{ name }</th>
                        { for columns.iter().map(|(key, _)| cell(fields, key)) }
                    </tr>
                },
                _ => Html::default(),
            }) }
        </tbody>
    }
}

/// The wide slot: the tables, under one heading.
pub fn figures(context: &StageContext) -> Html {
    let metrics = &context.run.metrics;
    let Some(tasks) = object(metrics, "tasks") else { return Html::default() };
    html! {
        <section class="panel lab-figures" data-testid="lab-figures" aria-labelledby="lab-figures-title">
            <h2 id="lab-figures-title">{ "Per task, at the run's end" }</h2>
            <div class="table-scroll" role="region" aria-label="Figures per task" tabindex="0">
                <table class="lab-table" data-testid="lab-task-table">
                    { head_row("task", TASK_COLUMNS) }
                    { body_rows(tasks, TASK_COLUMNS) }
                    <tfoot><tr>
                        <th scope="row">{ "average" }</th>
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
                        { head_row("lock", LOCK_COLUMNS) }
                        { body_rows(locks, LOCK_COLUMNS) }
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
