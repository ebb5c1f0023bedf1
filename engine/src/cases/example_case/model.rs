//! The example case's simulation: a count in closed form, then an exit.

use super::META;
use crate::case::{Case, CaseMeta};
use crate::run::builder::{text, OpSpec, TraceBuilder};
use crate::run::narration::{Arg, CodeLoc, Function};
use crate::run::params::ParamValues;
use crate::run::trace::{Metric, OpKind, Outcome, Run};
use crate::run::world::{Effect, Layout, TaskState};
use std::collections::BTreeMap;

pub struct Example;

/// A count step's cost: a model choice, round, for a case that models nothing real.
const STEP_NS: u64 = 10;
/// The `halved` variant's: half of `STEP_NS`, so that compare mode has a difference.
const HALVED_STEP_NS: u64 = STEP_NS / 2;

const TEMPLATES: &[&str] = &["counting", "step {0}", "{0} counts", "{0} exits", "{0} starts"];
const CODE: &[Function] = &[Function {
    name: "count",
    source_url: "https://example.invalid/",
    lines: &["for (i = 0; i < n; i++)", "exit()"],
}];

/// "{0} exits" (template 3): the task is drawn dead.
#[cfg(feature = "stage-claims")]
static CLAIMS: [crate::run::chapters::StageClaim; 1] = [crate::run::chapters::StageClaim {
    templates: &[3],
    says: "the task has exited",
    holds: |op, view| {
        let task = crate::run::chapters::task_slot(op, 0)?;
        let dead = view.tasks.get(task.0 as usize).is_some_and(|t| t.state == TaskState::Dead);
        crate::run::chapters::expect(dead, || "the task is not drawn dead".to_string())
    },
}];

impl Case for Example {
    fn meta(&self) -> &'static CaseMeta {
        &META
    }

    fn wire(&self) -> crate::run::wire::CaseWire {
        crate::run::wire::CaseWire::without_extras(TEMPLATES, CODE)
    }

    #[cfg(feature = "stage-claims")]
    fn stage_claims(&self) -> &'static [crate::run::chapters::StageClaim] {
        &CLAIMS
    }

    fn run_validated(&self, params: &ParamValues, variant: &'static str, seed: u64) -> Run {
        let count = params.unsigned("count");
        let mut layout = Layout::new(1);
        let group = layout.add_group("example");
        let task = layout.add_task("T", group);
        let counter = layout.add_counter("counted");
        let mut builder = TraceBuilder::new(layout, TEMPLATES, CODE);
        let at = |line| CodeLoc { function: 0, line };
        builder.phase(text(0, &[]));
        builder.iteration(text(4, &[Arg::Task(task)]));
        builder.op(OpSpec {
            at_ns: 0,
            actor: Some(task),
            kind: OpKind::Schedule,
            code: at(0),
            text: text(4, &[Arg::Task(task)]),
            effects: &[Effect::SetState { task, state: TaskState::RunningUser { cpu: 0 } }],
        });
        let count_effects = [Effect::Count { counter, delta: 1 }];
        let task_args = [Arg::Task(task)];
        let step = [OpSpec {
            at_ns: 0,
            actor: Some(task),
            kind: OpKind::Compute,
            code: at(0),
            text: text(2, &task_args),
            effects: &count_effects,
        }];
        let step_ns = if variant == "halved" { HALVED_STEP_NS } else { STEP_NS };
        builder.repeat(count, step_ns, text(1, &[Arg::AffineCount { base: 1, stride: 1 }]), &step);
        let end_ns = builder.now_ns();
        builder.iteration(text(3, &[Arg::Task(task)]));
        builder.op(OpSpec {
            at_ns: end_ns,
            actor: Some(task),
            kind: OpKind::Exit,
            code: at(1),
            text: text(3, &[Arg::Task(task)]),
            effects: &[Effect::SetState { task, state: TaskState::Dead }],
        });
        let mut metrics = BTreeMap::new();
        metrics.insert("counted".to_string(), Metric::Count(count));
        metrics.insert("end_ns".to_string(), Metric::Ns(end_ns));
        let mut run = builder.finish(META.id, variant, seed, params.clone(), Outcome::Completed, metrics);
        // The count is summarised in closed form: the work is the steps stored, not the count.
        run.simulated_steps = run.stored().1 as u64;
        let exit = run.first_op_with_template(&[3]);
        run.set_chapters(&[(exit, "the task exits")]);
        run
    }
}
