//! The Lab's pipes on the stage: each pipe's page slots (how many are in use of how
//! many it may use), the bytes in it, and who sleeps on it (readers on `rd_wait`,
//! writers on `wr_wait`), from the engine's counters `pipe_<name>_bytes` and
//! `pipe_<name>_slots`, its channels `<name>` and `<name> (full)`, and its `slots`
//! metric (fixed for the run).

use slowpath_engine::run::narration::group_digits;
use slowpath_engine::run::trace::Metric;
use slowpath_engine::run::view::View;
use slowpath_engine::run::world::{Layout, TaskState};
use slowpath_engine::Run;
use yew::prelude::*;

/// Slot cells drawn one by one up to this many; a bigger pipe is drawn as a bar.
const CELLS_MAX: u64 = 64;

struct PipeShown {
    name: String,
    bytes: u64,
    in_use: u64,
    slots: u64,
    readers: Vec<String>,
    writers: Vec<String>,
}

fn counter(view: &View, name: &str) -> u64 {
    view.counters.iter().find(|(counter, _)| counter == name).map_or(0, |(_, value)| *value)
}

/// The pipe's `slots` figure (its `max_usage`), from the run's metrics.
fn slots_of(run: &Run, pipe: &str) -> u64 {
    let Some(Metric::Object(pipes)) = run.metrics.get("pipes") else { return 0 };
    match pipes.get(pipe) {
        Some(Metric::Object(figures)) => match figures.get("slots") {
            Some(Metric::Count(slots)) => *slots,
            _ => 0,
        },
        _ => 0,
    }
}

/// The tasks asleep on the channel named `channel`, in task order.
fn asleep_on(view: &View, layout: &Layout, channel: &str) -> Vec<String> {
    view.tasks
        .iter()
        .filter(|task| match task.state {
            TaskState::Sleeping { channel: id } => {
                layout.channels.get(usize::from(id.0)).is_some_and(|name| name == channel)
            }
            _ => false,
        })
        .map(|task| task.name.clone())
        .collect()
}

fn pipes_shown(run: &Run, view: &View) -> Vec<PipeShown> {
    let layout = &run.layout;
    layout
        .counters
        .iter()
        .filter_map(|counter| counter.strip_prefix("pipe_")?.strip_suffix("_slots"))
        .map(|name| PipeShown {
            name: name.to_string(),
            bytes: counter(view, &format!("pipe_{name}_bytes")),
            in_use: counter(view, &format!("pipe_{name}_slots")),
            slots: slots_of(run, name),
            readers: asleep_on(view, layout, name),
            writers: asleep_on(view, layout, &format!("{name} (full)")),
        })
        .collect()
}

fn sleepers(heading: &str, names: &[String]) -> Html {
    let list = if names.is_empty() { "none".to_string() } else { names.join(", ") };
    html! { <p class="lab-pipe-sleepers">{ format!("{heading}: {list}") }</p> }
}

fn pipe(shown: &PipeShown) -> Html {
    let words = format!(
        "{}: {} of {} page slots in use, {} bytes",
        shown.name,
        group_digits(shown.in_use),
        group_digits(shown.slots),
        group_digits(shown.bytes)
    );
    let cells = if shown.slots <= CELLS_MAX {
        html! {
            <ol class="lab-slots" aria-hidden="true">
                { for (0..shown.slots).map(|slot| html! {
                    <li class={classes!("lab-slot", (slot < shown.in_use).then_some("in-use"))} key={slot}></li>
                }) }
            </ol>
        }
    } else {
        let percent = shown.in_use * 100 / shown.slots.max(1);
        html! { <div class="lab-slot-bar" aria-hidden="true" style={format!("--used: {percent}%")}></div> }
    };
    html! {
        <div class="lab-pipe" key={shown.name.clone()} data-testid="lab-pipe">
            <h3>{ words }</h3>
            { cells }
            { sleepers("Readers asleep (rd_wait)", &shown.readers) }
            { sleepers("Writers asleep (wr_wait)", &shown.writers) }
        </div>
    }
}

/// The pipes panel, or nothing for a workload without a pipe.
pub fn pipes_panel(run: &Run, view: &View) -> Html {
    let shown = pipes_shown(run, view);
    if shown.is_empty() {
        return Html::default();
    }
    html! {
        <section class="panel lab-pipes" aria-label="Pipes">
            <h2>{ "Pipes: page slots in use" }</h2>
            { for shown.iter().map(pipe) }
        </section>
    }
}
