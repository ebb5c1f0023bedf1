//! Folding a stream of iterations into the trace: runs of identical
//! iterations (the writer's fast writes, the listener spinning, the writer
//! spinning on ENXIO) become one repeat block each, everything else is stored
//! op by op. What "identical" means is `Iteration::same_shape`.

use crate::run::builder::{text as say, OpSpec, TraceBuilder};
use crate::run::narration::{Arg, CodeLoc};
use crate::run::trace::OpKind;
use crate::run::world::{Effect, TaskId};

/// Fewer identical iterations than this are stored one by one.
const REPEAT_MIN: u64 = 8;

#[derive(Clone, Debug, PartialEq)]
pub(super) struct OwnedOp {
    pub rel_ns: u64,
    pub actor: Option<TaskId>,
    pub kind: OpKind,
    pub code: CodeLoc,
    pub template: u16,
    pub args: Vec<Arg>,
    pub effects: Vec<Effect>,
}

#[derive(Clone, Debug)]
pub(super) struct Iteration {
    pub start_ns: u64,
    pub label: u16,
    /// The write number this iteration measures, if any (labels count writes).
    pub write: Option<u64>,
    pub label_args: Vec<Arg>,
    pub ops: Vec<OwnedOp>,
    /// Set when the next iteration starts.
    pub period_ns: u64,
}

impl Iteration {
    fn same_shape(&self, other: &Iteration) -> bool {
        self.label == other.label
            && self.period_ns == other.period_ns
            && self.ops == other.ops
            && (self.write.is_some() == other.write.is_some())
            && (self.write.is_some() || self.label_args == other.label_args)
    }
}

pub struct Folder {
    pub builder: TraceBuilder,
    /// The first iteration of a run of identical ones, and how many followed it.
    head: Option<Iteration>,
    followers: u64,
}

impl Folder {
    pub fn new(builder: TraceBuilder) -> Folder {
        Folder { builder, head: None, followers: 0 }
    }

    /// Takes a finished iteration (its period set): it extends the pending run,
    /// starts a new one, or is stored as it is.
    pub(super) fn close(&mut self, iteration: Iteration) {
        let notable = iteration.ops.iter().any(|op| op.kind.is_notable());
        let repeatable = !notable
            && iteration.period_ns > 0
            && iteration.ops.iter().all(|op| op.rel_ns < iteration.period_ns);
        match &self.head {
            Some(head) if repeatable && head.same_shape(&iteration) => self.followers += 1,
            _ => {
                self.flush();
                if repeatable {
                    self.head = Some(iteration);
                } else {
                    self.emit_single(&iteration);
                }
            }
        }
    }

    /// Counts `count` more iterations identical to the pending run's head, if there is one.
    pub(super) fn extend(&mut self, count: u64) -> bool {
        if self.head.is_some() {
            self.followers += count;
            true
        } else {
            false
        }
    }

    fn emit_single(&mut self, iteration: &Iteration) {
        let mut label_args = iteration.label_args.clone();
        if let Some(write) = iteration.write {
            label_args = vec![Arg::Count(write)];
        }
        self.builder.iteration(say(iteration.label, &label_args));
        for op in &iteration.ops {
            self.builder.op(OpSpec {
                at_ns: iteration.start_ns + op.rel_ns,
                actor: op.actor,
                kind: op.kind,
                code: op.code,
                text: say(op.template, &op.args),
                effects: &op.effects,
            });
        }
    }

    /// Emits the pending run: its head on its own (so the repeat starts from the
    /// state one iteration leaves behind), then the followers as one repeat.
    pub fn flush(&mut self) {
        let Some(head) = self.head.take() else { return };
        let followers = std::mem::take(&mut self.followers);
        self.emit_single(&head);
        match followers {
            // A short run costs more as a repeat (a block and a world delta) than spelled out.
            0..REPEAT_MIN => {
                let mut next = head.clone();
                for _ in 0..followers {
                    next.start_ns += head.period_ns;
                    next.write = next.write.map(|w| w + 1);
                    self.emit_single(&next);
                }
            }
            count => {
                let label_args = match head.write {
                    Some(write) => vec![Arg::AffineCount { base: write + 1, stride: 1 }],
                    None => head.label_args.clone(),
                };
                // The repeat starts where one iteration of the head ends.
                self.builder.advance_to(head.start_ns + head.period_ns);
                let template: Vec<OpSpec<'_>> = head
                    .ops
                    .iter()
                    .map(|op| OpSpec {
                        at_ns: op.rel_ns,
                        actor: op.actor,
                        kind: op.kind,
                        code: op.code,
                        text: say(op.template, &op.args),
                        effects: &op.effects,
                    })
                    .collect();
                self.builder.repeat(count, head.period_ns, say(head.label, &label_args), &template);
            }
        }
    }
}
