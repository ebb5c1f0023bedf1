//! Synthetic runs for load tests and benchmarks, not cases: many tasks changing
//! state often, to measure how the timeline and the player cope at scale
//! (gVisor's case has 16,384 threads).

use crate::run::builder::{text, OpSpec, TraceBuilder};
use crate::run::narration::{Arg, CodeLoc, Function};
use crate::run::params::ParamValues;
use crate::run::rng::Rng;
use crate::run::trace::{OpKind, Outcome, Run};
use crate::run::world::{Effect, Layout, TaskId, TaskState};
use std::collections::BTreeMap;

static TEMPLATES: &[&str] = &["synthetic load", "tick {0}", "{0} changes state"];
static CODE: &[Function] = &[Function {
    name: "synthetic load (no kernel code)",
    source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/sched/core.c",
    lines: &["for each tick: some tasks change state"],
}];

/// `tasks` tasks over `cpus` CPUs for `ticks` ticks of 1 ms; at each tick a
/// seeded random tenth of the tasks change state (running, runnable, sleeping,
/// stopped), so the run has about `tasks × ticks / 10` state changes.
pub fn many_tasks(tasks: u32, cpus: u16, ticks: u32, seed: u64) -> Run {
    let mut layout = Layout::new(cpus);
    let group = layout.add_group("load");
    let ids: Vec<TaskId> = (0..tasks).map(|index| layout.add_task(format!("t{index}"), group)).collect();
    let sleep = layout.add_channel("nanosleep");
    let mut builder = TraceBuilder::new(layout, TEMPLATES, CODE);
    let mut rng = Rng::new(seed);
    let mut on_cpu: Vec<Option<TaskId>> = vec![None; usize::from(cpus)];
    let mut state = vec![TaskState::New; ids.len()];
    builder.phase(text(0, &[]));
    for tick in 0..ticks {
        let at_ns = u64::from(tick) * 1_000_000;
        builder.iteration(text(1, &[Arg::Count(u64::from(tick))]));
        let changes = (tasks / 10).max(1);
        for _ in 0..changes {
            let task = ids[rng.below(u64::from(tasks)) as usize];
            let index = task.0 as usize;
            if let Some(cpu) = state[index].cpu() {
                on_cpu[usize::from(cpu)] = None;
            }
            let next = match rng.below(4) {
                0 => match on_cpu.iter().position(Option::is_none) {
                    Some(cpu) => {
                        on_cpu[cpu] = Some(task);
                        TaskState::RunningUser { cpu: cpu as u16 }
                    }
                    None => TaskState::Runnable,
                },
                1 => TaskState::Runnable,
                2 => TaskState::Sleeping { channel: sleep },
                _ => TaskState::Stopped,
            };
            if next == state[index] {
                continue;
            }
            state[index] = next;
            builder.op(OpSpec {
                at_ns,
                actor: Some(task),
                kind: OpKind::Schedule,
                code: CodeLoc { function: 0, line: 0 },
                text: text(2, &[Arg::Task(task)]),
                effects: &[Effect::SetState { task, state: next }],
            });
        }
    }
    builder.advance_to(u64::from(ticks) * 1_000_000);
    builder.finish(
        "synthetic-load",
        "synthetic",
        seed,
        ParamValues::default(),
        Outcome::Completed,
        BTreeMap::new(),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn sixteen_thousand_tasks_build_a_timeline() {
        let run = super::many_tasks(16_384, 64, 20, 1);
        let timeline = run.timeline();
        assert_eq!(timeline.tracks.len(), 16_384);
        assert!(run.total_ops() > 16_384);
    }
}
