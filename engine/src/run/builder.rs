//! Building a [`Run`]: cases record ops here as their simulation decides them.
//!
//! The builder keeps a live [`World`] and applies every op as it is recorded, so
//! an impossible step (a writer sharing a lock, time going backwards) fails at
//! build time, in tests, rather than on a student's screen. It also hashes the
//! trace as it streams past and places checkpoints for seeking.

use crate::run::hash::StableHasher;
use crate::run::narration::{Arg, CodeLoc, Function};
use crate::run::params::ParamValues;
use crate::run::trace::{Block, Checkpoint, Metric, Op, OpKind, Outcome, Phase, Run, StepCounts, TextRef};
use crate::run::world::{Effect, Layout, RepeatStart, TaskId, World};
use std::collections::BTreeMap;

/// Ops between checkpoints in runs of single iterations: bounds the replay of a seek.
pub const CHECKPOINT_EVERY_OPS: u64 = 256;

/// A narration: template id and its values.
#[derive(Clone, Copy, Debug)]
pub struct Text<'a> {
    pub template: u16,
    pub args: &'a [Arg],
}

pub fn text(template: u16, args: &[Arg]) -> Text<'_> {
    Text { template, args }
}

/// One micro-op as a case describes it.
#[derive(Clone, Copy, Debug)]
pub struct OpSpec<'a> {
    pub at_ns: u64,
    pub actor: Option<TaskId>,
    pub kind: OpKind,
    pub code: CodeLoc,
    pub text: Text<'a>,
    pub effects: &'a [Effect],
}

pub struct TraceBuilder {
    pub layout: Layout,
    templates: &'static [&'static str],
    code: &'static [Function],
    world: World,
    phases: Vec<Phase>,
    blocks: Vec<Block>,
    ops: Vec<Op>,
    args: Vec<Arg>,
    effects: Vec<Effect>,
    checkpoints: Vec<Checkpoint>,
    deltas: Vec<crate::run::world::WorldDelta>,
    notable: Vec<u64>,
    hasher: StableHasher,
    total_ops: u64,
    total_iterations: u64,
    ops_since_checkpoint: u64,
    /// The open single iteration, if any: its block index.
    open_single: Option<usize>,
    checkpoint_due: bool,
    /// Task states copied into checkpoints so far (the weight of a many-task run).
    checkpoint_tasks: u64,
}

impl TraceBuilder {
    pub fn new(
        layout: Layout,
        templates: &'static [&'static str],
        code: &'static [Function],
    ) -> TraceBuilder {
        let world = World::new(&layout);
        TraceBuilder {
            layout,
            templates,
            code,
            world,
            phases: Vec::new(),
            blocks: Vec::new(),
            ops: Vec::new(),
            args: Vec::new(),
            effects: Vec::new(),
            checkpoints: Vec::new(),
            deltas: Vec::new(),
            notable: Vec::new(),
            hasher: StableHasher::default(),
            total_ops: 0,
            total_iterations: 0,
            ops_since_checkpoint: 0,
            open_single: None,
            checkpoint_due: true,
            checkpoint_tasks: 0,
        }
    }

    /// The live world: the state after every op recorded so far.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Micro-ops recorded so far, repeats counted in full.
    pub fn ops_recorded(&self) -> u64 {
        self.total_ops
    }

    /// Ops stored so far (a repeat stores one iteration's): what the run will weigh.
    pub fn stored_ops(&self) -> usize {
        self.ops.len()
    }

    /// Blocks stored so far (single iterations and repeats).
    pub fn stored_blocks(&self) -> usize {
        self.blocks.len()
    }

    /// Whether the run has stored as much as one run may (`run::budget`): a
    /// case stops storing here and says so in its outcome.
    pub fn storage_full(&self) -> bool {
        self.ops.len() > crate::run::budget::STORED_OPS_MAX
            || self.blocks.len() > crate::run::budget::STORED_BLOCKS_MAX
            || self.checkpoint_tasks > crate::run::budget::CHECKPOINT_TASKS_MAX
    }

    pub fn now_ns(&self) -> u64 {
        self.world.now_ns
    }

    fn push_text(&mut self, text: Text<'_>) -> TextRef {
        assert!(usize::from(text.template) < self.templates.len(), "unknown template {}", text.template);
        let args_start = u32::try_from(self.args.len()).expect("arg pool fits u32");
        self.args.extend_from_slice(text.args);
        self.hasher.u64(u64::from(text.template));
        for arg in text.args {
            self.hasher.arg(arg);
        }
        TextRef {
            template: text.template,
            args_start,
            args_len: u16::try_from(text.args.len()).expect("few args"),
        }
    }

    /// Starts a new phase; the next iteration belongs to it.
    pub fn phase(&mut self, title: Text<'_>) {
        self.close_single();
        // A phase with no iterations is dropped: replaced by the new one.
        if let Some(last) = self.phases.last() {
            if last.first_block as usize == self.blocks.len() {
                self.phases.pop();
            }
        }
        self.hasher.u64(0x50_4841_5345);
        let title = self.push_text(title);
        let first_block = u32::try_from(self.blocks.len()).expect("blocks fit u32");
        self.phases.push(Phase { title, first_block });
    }

    fn current_phase(&self) -> u32 {
        assert!(!self.phases.is_empty(), "an iteration needs a phase");
        u32::try_from(self.phases.len() - 1).expect("phases fit u32")
    }

    fn maybe_checkpoint(&mut self) {
        if self.checkpoint_due || self.ops_since_checkpoint >= CHECKPOINT_EVERY_OPS {
            let block = u32::try_from(self.blocks.len()).expect("blocks fit u32");
            self.world.check_invariants();
            self.checkpoint_tasks += self.world.tasks.len() as u64;
            self.checkpoints.push(Checkpoint { block, world: self.world.clone() });
            self.ops_since_checkpoint = 0;
            self.checkpoint_due = false;
        }
    }

    /// Starts a new single iteration (a block with stored ops).
    pub fn iteration(&mut self, label: Text<'_>) {
        self.close_single();
        self.maybe_checkpoint();
        self.hasher.u64(0x4954_4552);
        let label = self.push_text(label);
        let index = self.blocks.len();
        self.blocks.push(Block {
            phase: self.current_phase(),
            start_ns: self.world.now_ns,
            count: 1,
            period_ns: 0,
            ops_start: u32::try_from(self.ops.len()).expect("ops fit u32"),
            ops_len: 0,
            first_iteration: self.total_iterations,
            first_op: self.total_ops,
            label,
            delta: None,
        });
        self.total_iterations += 1;
        self.open_single = Some(index);
    }

    fn close_single(&mut self) {
        if let Some(index) = self.open_single.take() {
            if self.blocks[index].ops_len == 0 {
                // An iteration with no ops is not a step; drop it.
                self.blocks.pop();
                self.total_iterations -= 1;
            }
        }
    }

    fn store_op(&mut self, spec: &OpSpec<'_>) -> Op {
        let text = self.push_text(spec.text);
        let effects_start = u32::try_from(self.effects.len()).expect("effects fit u32");
        self.effects.extend_from_slice(spec.effects);
        self.hasher.u64(spec.at_ns);
        self.hasher.u64(spec.actor.map_or(u64::MAX, |task| u64::from(task.0)));
        self.hasher.u64(spec.kind as u64);
        self.hasher.u64(u64::from(spec.code.function) << 16 | u64::from(spec.code.line));
        for effect in spec.effects {
            self.hasher.effect(effect);
        }
        assert!((spec.code.function as usize) < self.code.len(), "unknown function {}", spec.code.function);
        assert!(
            (spec.code.line as usize) < self.code[spec.code.function as usize].lines.len(),
            "line {} out of range in {}",
            spec.code.line,
            self.code[spec.code.function as usize].name
        );
        let op = Op {
            at_ns: spec.at_ns,
            actor: spec.actor,
            kind: spec.kind,
            code: spec.code,
            text,
            effects_start,
            effects_len: u16::try_from(spec.effects.len()).expect("few effects per op"),
        };
        self.ops.push(op);
        op
    }

    /// Records a micro-op in the open iteration and applies it to the live world.
    pub fn op(&mut self, spec: OpSpec<'_>) {
        let index = self.open_single.expect("ops go inside an iteration");
        self.world.advance_to(spec.at_ns);
        for effect in spec.effects {
            self.world.apply(effect);
        }
        // The full check is O(tasks); every effect already asserts its own preconditions,
        // so the whole world is checked at each checkpoint (every 256 ops) and at the end.
        self.store_op(&spec);
        self.blocks[index].ops_len += 1;
        if spec.kind.is_notable() {
            self.notable.push(self.total_ops);
        }
        self.total_ops += 1;
        self.ops_since_checkpoint += 1;
        crate::run::progress::note(self.world.now_ns);
    }

    /// Records `count` identical iterations of `period_ns` each, starting now.
    ///
    /// `template` holds one iteration's ops with times relative to its start.
    /// The builder applies the template once to prove that it repeats (the
    /// world comes back to the same shape) and applies the rest in closed form.
    pub fn repeat(&mut self, count: u64, period_ns: u64, label: Text<'_>, template: &[OpSpec<'_>]) {
        assert!(count >= 1, "a repeat has iterations");
        assert!(!template.is_empty(), "an iteration has ops");
        assert!(period_ns > 0, "an iteration takes time");
        self.close_single();
        self.world.normalize();
        // No forced checkpoint: a seek replays a repeat in closed form (normalize,
        // then the delta times its count), so repeats count toward the replay bound
        // like ops do, and a run of many short repeats keeps few world copies.
        self.maybe_checkpoint();
        let start_ns = self.world.now_ns;
        self.hasher.u64(0x5245_5045_4154);
        self.hasher.u64(count);
        self.hasher.u64(period_ns);
        let label = self.push_text(label);
        let ops_start = u32::try_from(self.ops.len()).expect("ops fit u32");
        // One iteration is applied to the live world itself, then the other
        // `count - 1` in closed form: the same world as the delta times `count` from
        // the start, since one iteration adds exactly the delta.
        let start = RepeatStart::capture(&self.world, template.iter().flat_map(|spec| spec.effects));
        for spec in template {
            assert!(spec.at_ns < period_ns, "template op at {} outside period {}", spec.at_ns, period_ns);
            assert!(!spec.kind.is_notable(), "notable events break a repeat");
            self.world.advance_to(start_ns + spec.at_ns);
            for effect in spec.effects {
                self.world.apply(effect);
            }
            self.store_op(spec);
        }
        self.world.advance_to(start_ns + period_ns);
        self.world.normalize();
        let delta = start.delta_to(&self.world);
        delta.apply(&mut self.world, count - 1);
        if cfg!(debug_assertions) {
            self.world.check_invariants();
        }
        let ops_len = u32::try_from(template.len()).expect("template fits u32");
        self.deltas.push(delta);
        self.blocks.push(Block {
            phase: self.current_phase(),
            start_ns,
            count,
            period_ns,
            ops_start,
            ops_len,
            first_iteration: self.total_iterations,
            first_op: self.total_ops,
            label,
            delta: Some(u32::try_from(self.deltas.len() - 1).expect("deltas fit u32")),
        });
        self.total_iterations += count;
        self.total_ops += count * u64::from(ops_len);
        // Replaying this block costs its delta and, at most, one iteration's ops.
        self.ops_since_checkpoint += u64::from(ops_len) + 1;
        crate::run::progress::note(self.world.now_ns);
    }

    /// Moves the clock without an op (idle time at the end of a run).
    pub fn advance_to(&mut self, at_ns: u64) {
        self.world.advance_to(at_ns);
    }

    pub fn finish(
        mut self,
        case: &'static str,
        variant: &'static str,
        seed: u64,
        params: ParamValues,
        outcome: Outcome,
        metrics: BTreeMap<String, Metric>,
    ) -> Run {
        self.close_single();
        if let Some(last) = self.phases.last() {
            if last.first_block as usize == self.blocks.len() {
                self.phases.pop();
            }
        }
        assert!(!self.blocks.is_empty(), "a run has at least one step");
        self.world.check_invariants();
        if self.checkpoints.is_empty() {
            self.checkpoints.push(Checkpoint { block: 0, world: World::new(&self.layout) });
        }
        assert_eq!(self.checkpoints[0].block, 0, "the first checkpoint is the initial state");
        Run {
            case,
            variant,
            seed,
            params,
            templates: self.templates,
            code: self.code,
            counts: StepCounts {
                phases: self.phases.len() as u64,
                iterations: self.total_iterations,
                micro_ops: self.total_ops,
            },
            end_ns: self.world.now_ns,
            trace_hash: self.hasher.finish(),
            layout: self.layout,
            phases: self.phases,
            blocks: self.blocks,
            ops: self.ops,
            args: self.args,
            effects: self.effects,
            checkpoints: self.checkpoints,
            deltas: self.deltas,
            notable: self.notable,
            outcome,
            metrics,
            extras: None,
            simulated_steps: 0,
            chapters: Vec::new(),
        }
    }
}
