//! The Lab's stage: who is on each CPU, then every other task grouped by what it
//! waits for (a CPU, a lock, a timer or a pipe, its arrival) or whether it has
//! exited, then the locks with their holders and queues. Grouping keeps up to the
//! Lab's 64 tasks on the first screen, where one card a task would not fit.
//!
//! The groups are sets, not queues: the order inside "waiting for a CPU" is the
//! tasks' order in the workload, not the kernel's run-queue order, and the heading
//! says so.

use super::StageContext;
use crate::player::panels::LockPanel;
use slowpath_engine::run::format;
use slowpath_engine::run::timeline::SpanState;
use slowpath_engine::run::view::TaskView;
use slowpath_engine::run::world::TaskState;
use yew::prelude::*;

/// The groups, in the order a reader scans them: what is waiting to run first.
const GROUPS: &[(Group, &str)] = &[
    (Group::Ready, "Waiting for a CPU (in workload order)"),
    (Group::Lock, "Waiting for a lock"),
    (Group::Asleep, "Asleep (a timer or a pipe)"),
    (Group::NotYet, "Not arrived yet"),
    (Group::Gone, "Exited"),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    Running,
    Ready,
    Lock,
    Asleep,
    NotYet,
    Gone,
}

fn group_of(state: TaskState) -> Group {
    match state {
        TaskState::RunningUser { .. }
        | TaskState::RunningKernel { .. }
        | TaskState::Spinning { .. }
        | TaskState::Exiting { .. } => Group::Running,
        TaskState::Runnable => Group::Ready,
        TaskState::BlockedOnLock { .. } => Group::Lock,
        TaskState::Sleeping { .. } => Group::Asleep,
        TaskState::New => Group::NotYet,
        TaskState::Stopped | TaskState::Dead => Group::Gone,
    }
}

/// A task as a small chip: its name, coloured by its state; the state and its CPU
/// time in words for a pointer and a screen reader.
fn chip(task: &TaskView) -> Html {
    let span = SpanState::of(task.state);
    let state_class = format!("s-{span:?}").to_ascii_lowercase();
    let words = format!(
        "{}: {}, CPU time so far {}",
        task.name,
        span.label(),
        format::duration(task.user_ns + task.sys_ns)
    );
    html! {
        <li class={classes!("world-task", "lab-chip", state_class)} key={task.id.0} title={words.clone()} aria-label={words}>
            <span class="world-task-name">{ &task.name }</span>
        </li>
    }
}

pub fn stage(context: &StageContext) -> Html {
    let view = &context.view;
    let layout = &context.run.layout;
    html! {
        <div class="world-stage lab-stage" data-testid="world-stage">
            <section class="panel world-cpus">
                <h2>{ "CPUs" }</h2>
                <ol class="world-cpu-list">
                    { for view.cpus.iter().enumerate().map(|(cpu, running)| {
                        let state = running.and_then(|task| view.tasks.get(task.0 as usize)).map(|task| SpanState::of(task.state));
                        html! {
                            <li class={classes!("world-cpu", running.is_none().then_some("idle"))} key={cpu}>
                                <span class="world-cpu-name">{ format!("CPU {cpu}") }</span>
                                <span class="world-cpu-task">
                                    { running.map_or_else(|| "idle".to_string(), |task| layout.task_name(task).to_string()) }
                                </span>
                                if let Some(state) = state {
                                    <span class="lab-cpu-state">{ format!(" {}", state.label()) }</span>
                                }
                            </li>
                        }
                    }) }
                </ol>
            </section>
            <section class="panel lab-groups">
                <h2>{ format!("Tasks ({})", view.tasks.len()) }</h2>
                { for GROUPS.iter().map(|&(group, heading)| {
                    let members: Vec<&TaskView> = view.tasks.iter().filter(|task| group_of(task.state) == group).collect();
                    html! {
                        <div class={classes!("lab-group", members.is_empty().then_some("empty"))} key={heading}>
                            <h3>{ format!("{heading}: {}", members.len()) }</h3>
                            if !members.is_empty() {
                                <ul class="world-task-list lab-chips">{ for members.into_iter().map(chip) }</ul>
                            }
                        </div>
                    }
                }) }
            </section>
            <LockPanel view={view.clone()} run={context.run.clone()} />
        </div>
    }
}
