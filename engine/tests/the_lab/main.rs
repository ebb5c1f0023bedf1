//! The Lab: the textbook's exercises computed by hand, locks and deadlocks, errors
//! a person can act on, and property tests over random workloads and random bytes,
//! a file each (the kernels' rules in `kernels.rs`); the helpers they share are here.

use proptest::prelude::*;
use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::trace::{Metric, Outcome, Run};
use slowpath_engine::run::world::{Effect, TaskState, World};
use slowpath_engine::{run_checked, simulation, RunError};

const MS: u64 = 1_000_000;

fn params(workload: &str) -> ParamValues {
    let meta = simulation("the-lab").expect("the Lab is built").meta();
    ParamValues::from_pairs_exact(meta.params, [("workload", workload)]).expect("fits the parameter")
}

fn try_run(workload: &str, variant: &str) -> Result<Run, RunError> {
    run_checked(simulation("the-lab").expect("the Lab is built"), &params(workload), variant, 1)
}

fn run(workload: &str, variant: &str) -> Run {
    try_run(workload, variant).unwrap_or_else(|error| panic!("{error}"))
}

fn errors(workload: &str) -> String {
    match try_run(workload, "as-written") {
        Ok(_) => panic!("the workload ran:\n{workload}"),
        Err(error) => error.to_string(),
    }
}

fn ns(metric: Option<&Metric>) -> u64 {
    match metric {
        Some(Metric::Ns(value) | Metric::Count(value) | Metric::None(Some(value))) => *value,
        other => panic!("not a figure: {other:?}"),
    }
}

/// A task's figure, in ms (exact: these exercises are whole milliseconds).
fn task_ms(run: &Run, task: &str, key: &str) -> u64 {
    let Some(Metric::Object(tasks)) = run.metrics.get("tasks") else { panic!("no tasks") };
    let Some(Metric::Object(fields)) = tasks.get(task) else { panic!("no task {task}") };
    let value = ns(fields.get(key));
    assert_eq!(value % MS, 0, "{task}.{key} = {value} ns is not whole ms");
    value / MS
}

/// A task's figure, in ns.
fn task_ns(run: &Run, task: &str, key: &str) -> u64 {
    let Some(Metric::Object(tasks)) = run.metrics.get("tasks") else { panic!("no tasks") };
    let Some(Metric::Object(fields)) = tasks.get(task) else { panic!("no task {task}") };
    ns(fields.get(key))
}

/// (response, turnaround, waiting) in ms for each task.
fn figures(run: &Run, tasks: &[&str]) -> Vec<(u64, u64, u64)> {
    tasks
        .iter()
        .map(|task| {
            (
                task_ms(run, task, "response_ns"),
                task_ms(run, task, "turnaround_ns"),
                task_ms(run, task, "waiting_ns"),
            )
        })
        .collect()
}
mod errors;
mod kernels;
mod machine;
mod pipes;
mod properties;
mod rwsem;
mod textbook;

fn narration(run: &Run) -> String {
    run.trace_lines(100_000).collect::<Vec<_>>().join("\n")
}
