//! The stage of a case that has none of its own (the rwsem playground, the tests'
//! example case, the next case before its stage is drawn): the simulated machine as
//! the engine's `View` has it, with no case knowledge — who is on each CPU, every
//! task's state, and the locks with their holders and queues. A new case is on the
//! first screen with something that moves from its first registry line.

use super::panels::LockPanel;
use super::stage::StageContext;
use slowpath_engine::run::format;
use slowpath_engine::run::narration::group_digits;
use slowpath_engine::run::timeline::SpanState;
use slowpath_engine::run::world::TaskState;
use yew::prelude::*;

/// Shows at most this many task cards: a 16,384-task run shows the first ones and
/// says how many more there are (the timeline below has every task).
const TASK_CARDS_MAX: usize = 24;

/// The generic stage: the CPUs, the tasks and the locks at the cursor.
pub fn world_stage(context: &StageContext) -> Html {
    let view = &context.view;
    let layout = &context.run.layout;
    let shown = view.tasks.len().min(TASK_CARDS_MAX);
    html! {
        <div class="world-stage" data-testid="world-stage">
            // Sections without an accessible name: in compare mode both sides have them,
            // and a landmark's name must be unique on the page.
            <section class="panel world-cpus">
                <h2>{ "CPUs" }</h2>
                <ol class="world-cpu-list">
                    { for view.cpus.iter().enumerate().map(|(cpu, running)| html! {
                        <li class={classes!("world-cpu", running.is_none().then_some("idle"))} key={cpu}>
                            <span class="world-cpu-name">{ format!("CPU {cpu}") }</span>
                            <span class="world-cpu-task">
                                { running.map_or_else(|| "idle".to_string(), |task| layout.task_name(task).to_string()) }
                            </span>
                        </li>
                    }) }
                </ol>
            </section>
            <section class="panel world-tasks">
                <h2>{ format!("Tasks ({})", group_digits(view.tasks.len() as u64)) }</h2>
                <ul class="world-task-list">
                    { for view.tasks.iter().take(shown).map(|task| {
                        let span = SpanState::of(task.state);
                        let state_class = format!("s-{span:?}").to_ascii_lowercase();
                        html! {
                            <li class={classes!("world-task", state_class)} key={task.id.0}
                                title={format!("CPU time so far: {}", format::duration(task.user_ns + task.sys_ns))}>
                                <span class="world-task-name">{ &task.name }</span>
                                <span class="world-task-state">{ state_words(task.state) }</span>
                            </li>
                        }
                    }) }
                </ul>
                if view.tasks.len() > shown {
                    <p class="muted">
                        { format!("and {} more (every task is in the timeline below)",
                            group_digits((view.tasks.len() - shown) as u64)) }
                    </p>
                }
            </section>
            <LockPanel view={view.clone()} run={context.run.clone()} />
        </div>
    }
}

/// A task's state in words, with the CPU it is on when it is on one.
fn state_words(state: TaskState) -> String {
    let label = SpanState::of(state).label();
    match state {
        TaskState::RunningUser { cpu }
        | TaskState::RunningKernel { cpu }
        | TaskState::Spinning { cpu, .. }
        | TaskState::Exiting { cpu } => format!("{label} on CPU {cpu}"),
        _ => label.to_string(),
    }
}
