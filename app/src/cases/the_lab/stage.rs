//! The Lab's stage: who is on each CPU; the run-queue structure of the kernel (O(1)'s
//! arrays, EEVDF's queue by virtual deadline, 2.4's run list by goodness) or the
//! textbook policy's queue in the order the policy takes it, from the machine's queue
//! gauges; then every other task grouped by what it waits for (a lock, a timer or a
//! pipe, its arrival) or whether it has exited, then the locks with their holders and
//! queues, and the pipes with their page slots (`pipes.rs`). Chips keep up to the Lab's 64 tasks on the first screen, where one card a
//! task would not fit.

use super::StageContext;
use crate::player::panels::LockPanel;
use slowpath_engine::run::format;
use slowpath_engine::run::timeline::SpanState;
use slowpath_engine::run::view::TaskView;
use slowpath_engine::run::view::View;
use slowpath_engine::run::world::{Layout, TaskState};
use yew::prelude::*;

/// The engine's queue gauges (`the_lab/machine/shown.rs`): where, key, mark, CPU.
const PLACE: usize = 0;
const KEY: usize = 1;
const MARK: usize = 2;
const CPU: usize = 3;

/// Which kernel's run-queue structure the run recorded, by its first gauge's name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Structure {
    O1,
    Eevdf,
    Goodness,
    /// A textbook policy's one queue, ranked in the order the policy takes it.
    Textbook(Policy),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Policy {
    Fifo,
    Sjf,
    Stcf,
    RoundRobin,
}

fn structure_of(layout: &Layout) -> Option<Structure> {
    match layout.gauges.first().map(String::as_str) {
        Some("o1_array") => Some(Structure::O1),
        Some("eevdf_queued") => Some(Structure::Eevdf),
        Some("good_queued") => Some(Structure::Goodness),
        Some("fifo_queued") => Some(Structure::Textbook(Policy::Fifo)),
        Some("sjf_queued") => Some(Structure::Textbook(Policy::Sjf)),
        Some("stcf_queued") => Some(Structure::Textbook(Policy::Stcf)),
        Some("rr_queued") => Some(Structure::Textbook(Policy::RoundRobin)),
        _ => None,
    }
}

/// A duration a policy orders by; a task without an end has no length.
fn policy_duration(ns: i64) -> String {
    if ns == i64::MAX {
        "no end".to_string()
    } else {
        format::duration(ns.unsigned_abs())
    }
}

/// The textbook queue's heading, and what the policy orders it by (FIFO and round
/// robin take it in order).
fn textbook_title(policy: Policy) -> (&'static str, Option<&'static str>) {
    match policy {
        Policy::Fifo => ("queue, first in first out: next first", None),
        Policy::RoundRobin => {
            ("queue, round robin: the head is next, a used-up quantum goes to the tail", None)
        }
        Policy::Sjf => ("queue, shortest job first: next first", Some("length")),
        Policy::Stcf => ("queue, least time left first: next first", Some("left")),
    }
}

/// A task in the textbook queue: its place (1 is next) and what the policy orders by.
fn textbook_chip(by: Option<&str>, task: &TaskView) -> Html {
    let rank = gauge(task, KEY);
    match by {
        None => queued_chip(task, format!("#{rank}"), format!("place {rank} in the queue")),
        Some(word) => {
            let key = policy_duration(gauge(task, MARK));
            queued_chip(task, format!("#{rank} · {key}"), format!("place {rank} in the queue, {word} {key}"))
        }
    }
}

fn gauge(task: &TaskView, slot: usize) -> i64 {
    task.gauges.get(slot).copied().unwrap_or(0)
}

fn on_cpu(task: &TaskView) -> bool {
    matches!(
        task.state,
        TaskState::RunningUser { .. }
            | TaskState::RunningKernel { .. }
            | TaskState::Spinning { .. }
            | TaskState::Exiting { .. }
    )
}

/// A task in its kernel's structure: its name and what orders it there; the one on
/// a CPU ringed.
fn queued_chip(task: &TaskView, figure: String, words: String) -> Html {
    let span = SpanState::of(task.state);
    let state_class = format!("s-{span:?}").to_ascii_lowercase();
    let label = format!("{}: {words}; {}", task.name, span.label());
    html! {
        <li class={classes!("world-task", "lab-chip", state_class, on_cpu(task).then_some("lab-running"))}
            key={task.id.0} title={label.clone()} aria-label={label}>
            <span class="world-task-name">{ &task.name }</span>
            <span class="lab-key">{ figure }</span>
        </li>
    }
}

/// A virtual time relative to V, signed, as a person writes a duration.
fn after_v(ns: i64) -> String {
    let magnitude = format::duration(ns.unsigned_abs());
    if ns < 0 {
        format!("V − {magnitude}")
    } else {
        format!("V + {magnitude}")
    }
}

/// The kernel's own run-queue structure at the cursor: O(1)'s active and expired
/// arrays by priority on each CPU, EEVDF's queue of each CPU by virtual deadline
/// with eligibility, 2.4's one run list by goodness, a textbook policy's queue in the
/// order it takes it. The task on a CPU is ringed.
fn kernel_structure(structure: Structure, view: &View) -> Html {
    let cpus = view.cpus.len();
    let queued: Vec<&TaskView> = view.tasks.iter().filter(|task| gauge(task, PLACE) != 0).collect();
    let row = |title: String,
               mut members: Vec<&TaskView>,
               order: fn(&TaskView) -> i64,
               chip: &dyn Fn(&TaskView) -> Html| {
        slowpath_engine::run::sort::sort_by_key(&mut members, |task| (order(task), task.id.0));
        html! {
            <div class={classes!("lab-group", members.is_empty().then_some("empty"))} key={title.clone()}>
                <h3>{ format!("{title}: {}", members.len()) }</h3>
                if !members.is_empty() {
                    <ol class="world-task-list lab-chips">{ for members.into_iter().map(chip) }</ol>
                }
            </div>
        }
    };
    let on = |cpu: usize| -> Vec<&TaskView> {
        queued.iter().copied().filter(|task| gauge(task, CPU) == cpu as i64).collect()
    };
    let prefix = |cpu: usize| if cpus > 1 { format!("CPU {cpu}: ") } else { String::new() };
    let rows: Html = match structure {
        Structure::O1 => (0..cpus)
            .flat_map(|cpu| {
                let tasks = on(cpu);
                let o1_chip = |task: &TaskView| {
                    queued_chip(task, gauge(task, KEY).to_string(), format!("priority {}", gauge(task, KEY)))
                };
                [(1, "active array"), (2, "expired array")].map(|(array, name)| {
                    let members = tasks.iter().copied().filter(|task| gauge(task, PLACE) == array).collect();
                    row(
                        format!("{}{name}, by priority", prefix(cpu)),
                        members,
                        |task| gauge(task, KEY),
                        &o1_chip,
                    )
                })
            })
            .collect(),
        Structure::Eevdf => (0..cpus)
            .map(|cpu| {
                let eevdf_chip = |task: &TaskView| {
                    let eligible = gauge(task, MARK) == 1;
                    let deadline = after_v(gauge(task, KEY));
                    let mark = if eligible { "✓" } else { "✗" };
                    queued_chip(
                        task,
                        format!("{mark} {deadline}"),
                        format!(
                            "{}, virtual deadline {deadline}",
                            if eligible { "eligible" } else { "not eligible (ahead of V)" }
                        ),
                    )
                };
                row(
                    format!("{}queue, by virtual deadline (✓ eligible)", prefix(cpu)),
                    on(cpu),
                    |task| gauge(task, KEY),
                    &eevdf_chip,
                )
            })
            .collect(),
        Structure::Textbook(policy) => {
            let (title, by) = textbook_title(policy);
            let chip = |task: &TaskView| textbook_chip(by, task);
            row(title.to_string(), queued.clone(), |task| gauge(task, KEY), &chip)
        }
        Structure::Goodness => {
            let good_chip = |task: &TaskView| {
                queued_chip(
                    task,
                    gauge(task, KEY).to_string(),
                    format!("goodness {} (counter {})", gauge(task, KEY), gauge(task, MARK)),
                )
            };
            row(
                "run list, best goodness first".to_string(),
                queued.clone(),
                |task| -gauge(task, KEY),
                &good_chip,
            )
        }
    };
    html! {
        <section class="panel lab-structure" data-testid="lab-structure">
            <h2>{ if matches!(structure, Structure::Textbook(_)) { "The policy's run queue" } else { "The kernel's run queue" } }</h2>
            { rows }
        </section>
    }
}

/// The groups, in the order a reader scans them: what is waiting to run first.
const GROUPS: &[(Group, &str)] = &[
    (Group::Ready, "Waiting for a CPU"),
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
    // A kernel's own structure replaces the plain "waiting for a CPU" set.
    let structure = structure_of(layout);
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
            if let Some(structure) = structure {
                { kernel_structure(structure, view) }
            }
            <section class="panel lab-groups">
                <h2>{ format!("Tasks ({})", view.tasks.len()) }</h2>
                { for GROUPS.iter().filter_map(|&(group, heading)| {
                    let mut members: Vec<&TaskView> = view.tasks.iter().filter(|task| group_of(task.state) == group).collect();
                    // With a run queue drawn, a ready task is in it, but for the step that
                    // wakes it and the next, which queues it: it is shown between the two.
                    if structure.is_some() && group == Group::Ready {
                        members.retain(|task| gauge(task, PLACE) == 0);
                        if members.is_empty() {
                            return None;
                        }
                        return Some((group, "Woken, joining the run queue", members));
                    }
                    Some((group, heading, members))
                }).map(|(_, heading, members)| {
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
            { super::pipes::pipes_panel(&context.run, view) }
        </div>
    }
}
