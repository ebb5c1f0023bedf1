//! The simulation side of the Lab, built with the `lab` feature: the metadata
//! beside it (`mod.rs`) is built in every build.

use super::lang::ast::KernelChoice;
use super::lang::{self, Diagnostic, Program};
use super::text::T;
use super::{machine, META};
use crate::case::{Case, CaseMeta};
use crate::export::csv::Table;
use crate::run::narration::counted;
use crate::run::params::{ParamError, ParamValues};
use crate::run::trace::{Metric, Outcome, Run};
use std::collections::BTreeMap;

pub struct Lab;

/// The workload's program with the variant's kernel in place of its own line.
pub fn program(text: &str, variant: &str) -> Result<Program, Vec<Diagnostic>> {
    let mut workload = lang::parse::parse(text)?;
    let written_quantum = match workload.kernel {
        KernelChoice::Rr { quantum_ns } => quantum_ns,
        _ => None,
    };
    workload.kernel = match variant {
        "fifo" => KernelChoice::Fifo,
        "sjf" => KernelChoice::Sjf,
        "stcf" => KernelChoice::Stcf,
        "rr" => KernelChoice::Rr { quantum_ns: written_quantum },
        "o1" => KernelChoice::O1,
        "eevdf" => KernelChoice::Eevdf,
        "goodness" => KernelChoice::Goodness,
        _ => workload.kernel,
    };
    lang::compile(&workload)
}

impl Case for Lab {
    fn meta(&self) -> &'static CaseMeta {
        &META
    }

    fn wire(&self) -> crate::run::wire::CaseWire {
        crate::run::wire::CaseWire::without_extras(super::text::TEMPLATES, super::text::CODE)
    }

    #[cfg(feature = "stage-claims")]
    fn stage_claims(&self) -> &'static [crate::run::chapters::StageClaim] {
        super::claims::CLAIMS
    }

    fn check_params(&self, params: &ParamValues, variant: &str) -> Result<(), ParamError> {
        program(params.word("workload"), variant).map(|_| ()).map_err(|errors| ParamError {
            param: "workload".to_string(),
            message: format!(
                "{}, one a line:\n{}",
                counted(errors.len() as u64, "error", "errors"),
                lang::report(&errors)
            ),
        })
    }

    fn run_validated(&self, params: &ParamValues, variant: &'static str, seed: u64) -> Run {
        let mut run = match program(params.word("workload"), variant) {
            Ok(program) => {
                let finished = machine::run(&program);
                let mut run = finished.builder.finish(
                    META.id,
                    variant,
                    seed,
                    params.clone(),
                    finished.outcome,
                    finished.metrics,
                );
                run.simulated_steps = finished.steps;
                run
            }
            // Unreachable through `run_checked`, which refuses the text first; a run that says so.
            Err(errors) => refused(params, variant, seed, &errors),
        };
        let first = |run: &Run, templates: &[T]| {
            run.first_op_with_template(&templates.iter().map(|t| t.id()).collect::<Vec<_>>())
        };
        let waits = [
            T::MUTEX_QUEUE,
            T::MUTEX_QUEUE_HANDOFF,
            T::SPIN_WAIT,
            T::READ_QUEUE_WRITER,
            T::READ_QUEUE_FAIR,
            T::READ_QUEUE_HANDOFF,
            T::WRITE_QUEUE,
        ];
        let picks =
            [T::PICK_FIFO, T::PICK_SJF, T::PICK_STCF, T::PICK_RR, T::O1_PICK, T::FAIR_PICK, T::GOOD_PICK];
        let moments = [
            (first(&run, &picks), "the first scheduling decision"),
            (first(&run, &waits), "a task waits for a lock"),
            (first(&run, &[T::DEADLOCK]), "a deadlock"),
            (first(&run, &[T::END_TIME, T::END_DONE, T::DEADLOCK, T::END_STALL]), "the run ends"),
        ];
        run.set_chapters(&moments);
        run
    }

    fn csv_tables(&self, run: &Run) -> Vec<Table> {
        let mut tasks = Table::new(
            "tasks",
            &[
                "task",
                "response_ns",
                "turnaround_ns",
                "waiting_ns",
                "user_ns",
                "sys_ns",
                "switches",
                "lock_wait_ns",
            ],
        );
        for (name, fields) in objects(run.metrics.get("tasks")) {
            let cells = [
                "response_ns",
                "turnaround_ns",
                "waiting_ns",
                "user_ns",
                "sys_ns",
                "switches",
                "lock_wait_ns",
            ];
            tasks.row(
                std::iter::once(name.clone()).chain(cells.iter().map(|key| cell(fields.get(*key)))).collect(),
            );
        }
        let mut locks = Table::new(
            "locks",
            &["lock", "acquisitions", "contended", "wait_total_ns", "wait_max_ns", "hold_total_ns"],
        );
        for (name, fields) in objects(run.metrics.get("locks")) {
            let cells = ["acquisitions", "contended", "wait_total_ns", "wait_max_ns", "hold_total_ns"];
            locks.row(
                std::iter::once(name.clone()).chain(cells.iter().map(|key| cell(fields.get(*key)))).collect(),
            );
        }
        vec![tasks, locks]
    }
}

/// The named objects inside a metric object, in name order.
fn objects(metric: Option<&Metric>) -> Vec<(&String, &BTreeMap<String, Metric>)> {
    let Some(Metric::Object(entries)) = metric else { return Vec::new() };
    entries
        .iter()
        .filter_map(|(name, value)| match value {
            Metric::Object(fields) => Some((name, fields)),
            _ => None,
        })
        .collect()
}

fn cell(metric: Option<&Metric>) -> String {
    match metric {
        Some(Metric::Ns(value) | Metric::Count(value) | Metric::None(Some(value))) => value.to_string(),
        _ => String::new(),
    }
}

/// A run of one step that says why the workload cannot run.
fn refused(params: &ParamValues, variant: &'static str, seed: u64, errors: &[Diagnostic]) -> Run {
    use crate::run::builder::{text, OpSpec, TraceBuilder};
    use crate::run::trace::OpKind;
    let layout = crate::run::world::Layout::new(1);
    let mut builder = TraceBuilder::new(layout, super::text::TEMPLATES, super::text::CODE);
    builder.phase(text(T::PHASE_START.id(), &[]));
    builder.iteration(text(T::ITER_AT.id(), &[crate::run::narration::Arg::Ns(0)]));
    let count = crate::run::narration::Arg::Count(errors.len() as u64);
    builder.op(OpSpec {
        at_ns: 0,
        actor: None,
        kind: OpKind::Note,
        code: super::text::at(super::text::BODY, 0),
        text: text(T::REFUSED.id(), &[count]),
        effects: &[],
    });
    let mut metrics = BTreeMap::new();
    metrics.insert("turnaround_avg_ns".to_string(), Metric::None(None));
    metrics.insert("errors".to_string(), Metric::Text(lang::report(errors)));
    builder.finish(META.id, variant, seed, params.clone(), Outcome::Completed, metrics)
}
