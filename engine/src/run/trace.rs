//! A run as a tree of steps: phases contain iterations, which contain micro-ops.
//!
//! Iterations are stored in *blocks*. A single block is one iteration whose
//! micro-ops are stored. A repeat block is `count` identical iterations: one
//! template of micro-ops (times relative to the iteration's start), an exact
//! period, and the exact per-iteration change of the world ([`WorldDelta`]).
//! Iteration k of a repeat is produced on demand; nothing is materialised.
//!
//! Positions are counts of executed micro-ops: position 0 is the initial state,
//! position `total` the final one. The state at any position is a checkpoint
//! plus a bounded replay (see [`Run::state_at`]).

pub use crate::run::cursor::Cursor;
use crate::run::narration::{render, Arg, CodeLoc, Function, Segment};
use crate::run::params::ParamValues;
use crate::run::world::{Effect, Layout, TaskId, World, WorldDelta};

pub use crate::run::outcome::{Metric, Outcome};
use crate::run::wire::codec::{wire_enum, wire_struct};
use std::collections::BTreeMap;

/// Step granularities, coarsest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Granularity {
    Phase,
    Iteration,
    Micro,
}

impl Granularity {
    pub const ALL: [Granularity; 3] = [Granularity::Phase, Granularity::Iteration, Granularity::Micro];

    pub fn key(self) -> &'static str {
        match self {
            Granularity::Phase => "phase",
            Granularity::Iteration => "iter",
            Granularity::Micro => "micro",
        }
    }

    pub fn from_key(key: &str) -> Option<Granularity> {
        Granularity::ALL.into_iter().find(|g| g.key() == key)
    }

    /// The next coarser granularity (Shift+arrow in the player).
    pub fn coarser(self) -> Granularity {
        match self {
            Granularity::Micro => Granularity::Iteration,
            _ => Granularity::Phase,
        }
    }
}

/// What an op does, for colouring, filtering and "jump to next notable event".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum OpKind {
    Compute,
    Syscall,
    LockFast,
    LockSlow,
    LockContended,
    LockSpin,
    LockGranted,
    LockRelease,
    Wake,
    Sleep,
    Schedule,
    Preempt,
    Signal,
    TreeVisit,
    PageWalk,
    Emit,
    Skip,
    Exit,
    Deadlock,
    Note,
    /// A turning point of a case worth a stop of its own (a slice that does not end a
    /// turn, a slow write measured): notable like a preemption.
    Milestone,
}
wire_enum!(OpKind {
    0 => Compute, 1 => Syscall, 2 => LockFast, 3 => LockSlow, 4 => LockContended, 5 => LockSpin,
    6 => LockGranted, 7 => LockRelease, 8 => Wake, 9 => Sleep, 10 => Schedule, 11 => Preempt, 12 => Signal,
    13 => TreeVisit, 14 => PageWalk, 15 => Emit, 16 => Skip, 17 => Exit, 18 => Deadlock, 19 => Note,
    20 => Milestone,
});

impl OpKind {
    /// Events worth a marker on the scrub bar and a stop for "next notable".
    pub fn is_notable(self) -> bool {
        matches!(
            self,
            OpKind::LockContended | OpKind::Preempt | OpKind::Signal | OpKind::Deadlock | OpKind::Milestone
        )
    }

    pub fn key(self) -> &'static str {
        match self {
            OpKind::Compute => "compute",
            OpKind::Syscall => "syscall",
            OpKind::LockFast => "lock.fast",
            OpKind::LockSlow => "lock.slow",
            OpKind::LockContended => "lock.contended",
            OpKind::LockSpin => "lock.spin",
            OpKind::LockGranted => "lock.granted",
            OpKind::LockRelease => "lock.release",
            OpKind::Wake => "wake",
            OpKind::Sleep => "sleep",
            OpKind::Schedule => "schedule",
            OpKind::Preempt => "preempt",
            OpKind::Signal => "signal",
            OpKind::TreeVisit => "tree.visit",
            OpKind::PageWalk => "page.walk",
            OpKind::Emit => "emit",
            OpKind::Skip => "skip",
            OpKind::Exit => "exit",
            OpKind::Deadlock => "deadlock",
            OpKind::Note => "note",
            OpKind::Milestone => "milestone",
        }
    }
}

/// A narration reference: template id and a slice of the argument pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub(crate) struct TextRef {
    pub template: u16,
    pub args_start: u32,
    pub args_len: u16,
}
wire_struct!(TextRef { template, args_start, args_len });

/// One stored micro-op. `at_ns` is absolute in single blocks and relative to
/// the iteration's start in repeat templates.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub(crate) struct Op {
    pub at_ns: u64,
    pub actor: Option<TaskId>,
    pub kind: OpKind,
    pub code: CodeLoc,
    pub text: TextRef,
    pub effects_start: u32,
    pub effects_len: u16,
}
wire_struct!(Op { at_ns, actor, kind, code, text, effects_start, effects_len });

#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub(crate) struct Block {
    pub phase: u32,
    pub start_ns: u64,
    /// Iterations in this block: 1 for a single block.
    pub count: u64,
    /// Duration of one iteration of a repeat (0 for single blocks).
    pub period_ns: u64,
    pub ops_start: u32,
    pub ops_len: u32,
    pub first_iteration: u64,
    pub first_op: u64,
    pub label: TextRef,
    /// Index into `deltas` for repeats.
    pub delta: Option<u32>,
}
wire_struct!(Block {
    phase,
    start_ns,
    count,
    period_ns,
    ops_start,
    ops_len,
    first_iteration,
    first_op,
    label,
    delta
});

impl Block {
    pub fn is_repeat(&self) -> bool {
        self.delta.is_some()
    }
}

#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub(crate) struct Phase {
    pub title: TextRef,
    pub first_block: u32,
}
wire_struct!(Phase { title, first_block });

#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub(crate) struct Checkpoint {
    pub block: u32,
    pub world: World,
}
wire_struct!(Checkpoint { block, world });

/// Step counts per granularity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct StepCounts {
    pub phases: u64,
    pub iterations: u64,
    pub micro_ops: u64,
}
wire_struct!(StepCounts { phases, iterations, micro_ops });

/// A complete, immutable run: everything the player, the CLI and tests read.
pub struct Run {
    pub case: &'static str,
    pub variant: &'static str,
    pub seed: u64,
    pub params: ParamValues,
    pub layout: Layout,
    pub templates: &'static [&'static str],
    pub code: &'static [Function],
    pub(crate) phases: Vec<Phase>,
    pub(crate) blocks: Vec<Block>,
    pub(crate) ops: Vec<Op>,
    pub(crate) args: Vec<Arg>,
    pub(crate) effects: Vec<Effect>,
    pub(crate) checkpoints: Vec<Checkpoint>,
    pub(crate) deltas: Vec<WorldDelta>,
    pub(crate) notable: Vec<u64>,
    pub counts: StepCounts,
    pub end_ns: u64,
    pub trace_hash: u64,
    pub outcome: Outcome,
    pub metrics: BTreeMap<String, Metric>,
    /// The simulation steps the case took to make this run, over all its passes
    /// (bounded by `run::budget::SIMULATED_STEPS_MAX`; set by the case).
    pub simulated_steps: u64,
    /// The case's key moments in this run, in order (`Case` sets them; a lecture's
    /// table of contents: `n` and `p` visit them before other notable events).
    pub chapters: Vec<Chapter>,
    /// The case's own structures for its stage in the UI (its `extras.rs`);
    /// opaque here, so that the run machinery knows no case. Read with [`Run::extras`].
    pub(crate) extras: Option<Box<dyn std::any::Any + Send + Sync>>,
}

/// A key moment of a run: the position just after the op that makes it, and its
/// title in a few words ("the dumper yields").
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Chapter {
    pub position: u64,
    pub title: crate::run::wire::StaticStr,
}
wire_struct!(Chapter { position, title });

/// A micro-op resolved for display: absolute time, concrete arguments.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct OpView {
    pub index: u64,
    pub at_ns: u64,
    pub actor: Option<TaskId>,
    pub kind: OpKind,
    pub code: CodeLoc,
    pub template: u16,
    pub args: Vec<Arg>,
    pub effects: Vec<Effect>,
}

/// Where a position sits in the tree, 0-based, for the op last executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TreePosition {
    pub phase: u64,
    pub iteration: u64,
    pub micro: u64,
}

impl Run {
    /// The case's own stage data, if this run carries a `T`.
    pub fn extras<T: std::any::Any>(&self) -> Option<&T> {
        self.extras.as_deref()?.downcast_ref()
    }

    /// Attaches the case's stage data (once, by the case that built the run).
    // Unused in a build that carries only cases without extras (see `registry`).
    #[allow(dead_code)]
    pub(crate) fn set_extras<T: std::any::Any + Send + Sync>(&mut self, extras: T) {
        assert!(self.extras.is_none(), "a run's extras are set once");
        self.extras = Some(Box::new(extras));
    }

    pub fn total_ops(&self) -> u64 {
        self.counts.micro_ops
    }

    /// The block holding global op `index`.
    pub(crate) fn block_of_op(&self, index: u64) -> usize {
        debug_assert!(index < self.total_ops());
        self.blocks.partition_point(|block| block.first_op <= index) - 1
    }

    fn block_of_iteration(&self, iteration: u64) -> usize {
        self.blocks.partition_point(|block| block.first_iteration <= iteration) - 1
    }

    /// The op at global `index`, resolved: absolute time, concrete arguments.
    pub fn op(&self, index: u64) -> Option<OpView> {
        if index >= self.total_ops() {
            return None;
        }
        let block = &self.blocks[self.block_of_op(index)];
        let offset = index - block.first_op;
        let ops_len = u64::from(block.ops_len);
        let (k, j) = (offset / ops_len, offset % ops_len);
        let op = &self.ops[block.ops_start as usize + j as usize];
        let at_ns =
            if block.is_repeat() { block.start_ns + k * block.period_ns + op.at_ns } else { op.at_ns };
        Some(OpView {
            index,
            at_ns,
            actor: op.actor,
            kind: op.kind,
            code: op.code,
            template: op.text.template,
            args: self.text_args(op.text).iter().map(|arg| arg.at_iteration(k)).collect(),
            effects: self.op_effects(op).to_vec(),
        })
    }

    fn text_args(&self, text: TextRef) -> &[Arg] {
        let start = text.args_start as usize;
        &self.args[start..start + usize::from(text.args_len)]
    }

    pub(crate) fn op_effects(&self, op: &Op) -> &[Effect] {
        let start = op.effects_start as usize;
        &self.effects[start..start + usize::from(op.effects_len)]
    }

    /// Renders an op's narration.
    pub fn narrate(&self, op: &OpView) -> Vec<Segment> {
        let template = self.templates.get(usize::from(op.template)).copied().unwrap_or("{0}");
        render(template, &op.args, &self.layout)
    }

    /// The label of the iteration holding op `index` ("page 0x7f…000").
    pub fn iteration_label(&self, iteration: u64) -> Vec<Segment> {
        let block = &self.blocks[self.block_of_iteration(iteration)];
        let k = iteration - block.first_iteration;
        let args: Vec<Arg> = self.text_args(block.label).iter().map(|arg| arg.at_iteration(k)).collect();
        let template = self.templates.get(usize::from(block.label.template)).copied().unwrap_or("");
        render(template, &args, &self.layout)
    }

    pub fn phase_title(&self, phase: u64) -> Vec<Segment> {
        let Some(phase) = self.phases.get(phase as usize) else { return Vec::new() };
        let template = self.templates.get(usize::from(phase.title.template)).copied().unwrap_or("");
        render(template, self.text_args(phase.title), &self.layout)
    }

    /// Tree coordinates of op `index`.
    pub fn tree_position(&self, index: u64) -> TreePosition {
        let block = &self.blocks[self.block_of_op(index)];
        let offset = index - block.first_op;
        TreePosition {
            phase: u64::from(block.phase),
            iteration: block.first_iteration + offset / u64::from(block.ops_len),
            micro: index,
        }
    }

    /// The unit index at `granularity` that op `index` belongs to.
    pub fn unit_of(&self, index: u64, granularity: Granularity) -> u64 {
        let tree = self.tree_position(index);
        match granularity {
            Granularity::Phase => tree.phase,
            Granularity::Iteration => tree.iteration,
            Granularity::Micro => tree.micro,
        }
    }

    pub fn unit_count(&self, granularity: Granularity) -> u64 {
        match granularity {
            Granularity::Phase => self.counts.phases,
            Granularity::Iteration => self.counts.iterations,
            Granularity::Micro => self.counts.micro_ops,
        }
    }

    /// Global op range `[first, end)` of a unit.
    pub fn unit_ops(&self, granularity: Granularity, unit: u64) -> Option<(u64, u64)> {
        if unit >= self.unit_count(granularity) {
            return None;
        }
        Some(match granularity {
            Granularity::Micro => (unit, unit + 1),
            Granularity::Iteration => {
                let block = &self.blocks[self.block_of_iteration(unit)];
                let first = block.first_op + (unit - block.first_iteration) * u64::from(block.ops_len);
                (first, first + u64::from(block.ops_len))
            }
            Granularity::Phase => {
                let phase = &self.phases[unit as usize];
                let first = self.blocks[phase.first_block as usize].first_op;
                let end = match self.phases.get(unit as usize + 1) {
                    Some(next) => self.blocks[next.first_block as usize].first_op,
                    None => self.total_ops(),
                };
                (first, end)
            }
        })
    }

    /// The position (ops executed) after a whole unit: where "step to unit N" lands.
    pub fn position_after(&self, granularity: Granularity, unit: u64) -> Option<u64> {
        self.unit_ops(granularity, unit).map(|(_, end)| end)
    }

    /// The next position at `granularity` after `position`: the end of the unit
    /// holding op `position` (the next op to execute).
    pub fn step_forward(&self, position: u64, granularity: Granularity) -> u64 {
        if position >= self.total_ops() {
            return self.total_ops();
        }
        let unit = self.unit_of(position, granularity);
        self.position_after(granularity, unit).expect("unit exists")
    }

    /// The previous position at `granularity`: the end of the unit before the
    /// one holding the last executed op (or 0).
    pub fn step_back(&self, position: u64, granularity: Granularity) -> u64 {
        if position == 0 {
            return 0;
        }
        let unit = self.unit_of(position - 1, granularity);
        // If we are mid-unit, go back to the start of this unit; else to the previous unit's end.
        let (first, end) = self.unit_ops(granularity, unit).expect("unit exists");
        if position < end {
            first
        } else if unit == 0 {
            0
        } else {
            self.position_after(granularity, unit - 1).expect("unit exists")
        }
    }

    /// Simulated time at a position: when its last executed op happened (0 at the start).
    pub fn time_at(&self, position: u64) -> u64 {
        position.checked_sub(1).and_then(|index| self.op(index)).map_or(0, |op| op.at_ns)
    }

    /// The last position whose last op happened at or before `at_ns`.
    pub fn position_at_time(&self, at_ns: u64) -> u64 {
        // Ops are time-ordered, so binary search over op indices with on-demand times.
        let (mut low, mut high) = (0u64, self.total_ops());
        while low < high {
            let mid = low + (high - low) / 2;
            if self.op(mid).expect("in range").at_ns <= at_ns {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        low
    }

    /// Notable ops after position `position` (exclusive) and before it.
    pub fn next_notable(&self, position: u64) -> Option<u64> {
        let index = self.notable.partition_point(|&op| op < position);
        self.notable.get(index).map(|op| op + 1)
    }

    pub fn previous_notable(&self, position: u64) -> Option<u64> {
        let index = self.notable.partition_point(|&op| op + 1 < position);
        index.checked_sub(1).map(|i| self.notable[i] + 1)
    }

    /// Ops kept in memory (repeats store one iteration's ops), blocks and checkpoints:
    /// what a run costs to hold, whatever its length in simulated time.
    pub fn stored(&self) -> (usize, usize, usize) {
        (self.ops.len(), self.blocks.len(), self.checkpoints.len())
    }

    pub fn notable_ops(&self) -> &[u64] {
        &self.notable
    }

    /// The world after `position` ops: the nearest checkpoint at or before the
    /// block, then a bounded replay (a repeat's iterations in closed form).
    pub fn state_at(&self, position: u64) -> World {
        let position = position.min(self.total_ops());
        if position == 0 {
            return self.checkpoints[0].world.clone();
        }
        let last = position - 1;
        let block_index = self.block_of_op(last);
        let checkpoint_index = self.checkpoints.partition_point(|cp| cp.block as usize <= block_index) - 1;
        let checkpoint = &self.checkpoints[checkpoint_index];
        let mut world = checkpoint.world.clone();
        for index in checkpoint.block as usize..block_index {
            let block = &self.blocks[index];
            match block.delta {
                // As the builder did: normalise at the repeat's start, then every iteration at once.
                Some(delta) => {
                    world.normalize();
                    self.deltas[delta as usize].apply(&mut world, block.count);
                }
                None => self.replay_ops(&mut world, block, 0, block.ops_len, 0),
            }
        }
        let block = &self.blocks[block_index];
        let offset = last - block.first_op;
        let ops_len = u64::from(block.ops_len);
        let (k, j) = (offset / ops_len, offset % ops_len);
        assert!(k < block.count, "iteration {k} inside a block of {}", block.count);
        if let Some(delta) = block.delta {
            world.normalize();
            self.deltas[delta as usize].apply(&mut world, k);
            self.replay_ops(&mut world, block, 0, j as u32 + 1, block.start_ns + k * block.period_ns);
        } else {
            self.replay_ops(&mut world, block, 0, j as u32 + 1, 0);
        }
        world
    }

    fn replay_ops(&self, world: &mut World, block: &Block, from: u32, to: u32, base_ns: u64) {
        for op in &self.ops[(block.ops_start + from) as usize..(block.ops_start + to) as usize] {
            world.advance_to(base_ns + op.at_ns);
            for effect in self.op_effects(op) {
                world.apply(effect);
            }
        }
    }

    /// Applies op `position` (the next one) to `world`, which must be the state at `position`.
    /// Used to step forward one micro-op without a seek.
    pub fn apply_next(&self, world: &mut World, position: u64) {
        if position >= self.total_ops() {
            return;
        }
        // The hot path of playback: no allocation, one binary search over blocks.
        self.apply_op(world, self.block_of_op(position), position);
    }

    /// Applies global op `position`, which lies in block `block_index`, to `world`.
    pub(crate) fn apply_op(&self, world: &mut World, block_index: usize, position: u64) {
        let block = &self.blocks[block_index];
        let offset = position - block.first_op;
        let ops_len = u64::from(block.ops_len);
        let (k, j) = (offset / ops_len, offset % ops_len);
        let op = &self.ops[block.ops_start as usize + j as usize];
        let base_ns = if block.is_repeat() { block.start_ns + k * block.period_ns } else { 0 };
        world.advance_to(base_ns + op.at_ns);
        for effect in self.op_effects(op) {
            world.apply(effect);
        }
    }

    /// Deterministic text of every micro-op, one line each (TigerBeetle style):
    /// time, actor, op, object, narration. Expands repeats: for short runs and tests.
    pub fn trace_lines(&self, limit: u64) -> impl Iterator<Item = String> + '_ {
        (0..self.total_ops().min(limit)).map(move |index| {
            let op = self.op(index).expect("in range");
            let actor = op.actor.map_or("-", |task| self.layout.task_name(task));
            let object = op
                .effects
                .iter()
                .find_map(|effect| match effect {
                    Effect::Acquire { lock, .. }
                    | Effect::Enqueue { lock, .. }
                    | Effect::Release { lock, .. }
                    | Effect::SetHandoff { lock, .. } => Some(self.layout.lock_name(*lock).to_string()),
                    _ => None,
                })
                .unwrap_or_else(|| "-".to_string());
            format!(
                "{:>12} {:<6} {:<15} {:<10} {}",
                op.at_ns,
                actor,
                op.kind.key(),
                object,
                crate::run::narration::plain(&self.narrate(&op))
            )
        })
    }
}
