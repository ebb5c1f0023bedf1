//! The view model: a plain-data snapshot of everything the UI draws at one
//! position. Cheap to produce (a seek plus a copy), `Clone`, `PartialEq`,
//! serialisable, so the app can diff it and tests can compare it.

use crate::run::lock::{LockKind, LockMode, LockStats, Waiter};
use crate::run::narration::{CodeLoc, Segment};
use crate::run::trace::{Granularity, OpKind, Run, TreePosition};
use crate::run::world::{Bucket, TaskId, TaskState, World};

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct View {
    /// Ops executed (0 = initial state).
    pub position: u64,
    pub now_ns: u64,
    pub tree: Option<TreePosition>,
    /// The op last executed, with its narration and code location.
    pub step: Option<StepView>,
    pub tasks: Vec<TaskView>,
    pub locks: Vec<LockView>,
    pub counters: Vec<(String, u64)>,
    pub cpus: Vec<Option<TaskId>>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct StepView {
    pub index: u64,
    pub at_ns: u64,
    pub actor: Option<String>,
    pub kind: OpKind,
    pub code: CodeLoc,
    pub narration: Vec<Segment>,
    pub iteration_label: Vec<Segment>,
    pub phase_title: Vec<Segment>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TaskView {
    pub id: TaskId,
    pub name: String,
    pub state: TaskState,
    pub user_ns: u64,
    pub sys_ns: u64,
    pub runnable_ns: u64,
    pub blocked_ns: u64,
    pub sleep_ns: u64,
    pub gauges: Vec<i64>,
}

/// A holder as the UI sees it: who, how, since when (not the lazy accounting mark).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct HolderView {
    pub task: TaskId,
    pub mode: LockMode,
    pub since_ns: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LockView {
    pub name: String,
    pub kind: LockKind,
    pub holders: Vec<HolderView>,
    pub waiters: Vec<Waiter>,
    pub handoff: bool,
    pub stats: LockStats,
}

impl Run {
    /// The view at `position` (clamped to the run).
    pub fn view(&self, position: u64) -> View {
        let position = position.min(self.total_ops());
        let world = self.state_at(position);
        self.view_of(&world, position)
    }

    /// The view of a world already at `position` (after a step without seek).
    pub fn view_of(&self, world: &World, position: u64) -> View {
        let step = position.checked_sub(1).and_then(|index| self.op(index)).map(|op| {
            let tree = self.tree_position(op.index);
            StepView {
                index: op.index,
                at_ns: op.at_ns,
                actor: op.actor.map(|task| self.layout.task_name(task).to_string()),
                kind: op.kind,
                code: op.code,
                narration: self.narrate(&op),
                iteration_label: self.iteration_label(tree.iteration),
                phase_title: self.phase_title(tree.phase),
            }
        });
        View {
            position,
            now_ns: world.now_ns,
            tree: position.checked_sub(1).map(|index| self.tree_position(index)),
            step,
            tasks: (0..world.tasks.len())
                .map(|index| {
                    let id = TaskId(index as u32);
                    let times = world.task_times(id);
                    TaskView {
                        id,
                        name: self.layout.task_name(id).to_string(),
                        state: world.tasks[index].state,
                        user_ns: times[Bucket::User as usize],
                        sys_ns: times[Bucket::Sys as usize],
                        runnable_ns: times[Bucket::Runnable as usize],
                        blocked_ns: times[Bucket::Blocked as usize],
                        sleep_ns: times[Bucket::Sleep as usize],
                        gauges: world.tasks[index].gauges.clone(),
                    }
                })
                .collect(),
            locks: world
                .locks
                .iter()
                .zip(&self.layout.locks)
                .map(|(lock, info)| LockView {
                    name: info.name.clone(),
                    kind: lock.kind,
                    holders: lock
                        .holders
                        .iter()
                        .map(|h| HolderView { task: h.task, mode: h.mode, since_ns: h.since_ns })
                        .collect(),
                    waiters: lock.waiters.iter().copied().collect(),
                    handoff: lock.handoff,
                    stats: lock.stats_at(world.now_ns),
                })
                .collect(),
            counters: self.layout.counters.iter().cloned().zip(world.counters.iter().copied()).collect(),
            cpus: world.cpu_task.clone(),
        }
    }

    /// The index shown at `granularity` for a position: the unit of the last executed op.
    pub fn index_at(&self, position: u64, granularity: Granularity) -> Option<u64> {
        position
            .checked_sub(1)
            .filter(|&i| i < self.total_ops())
            .map(|index| self.unit_of(index, granularity))
    }
}
