//! The `Case` trait: what every case gives and what the generic layers (the run
//! machinery, the exports, the tours, the player) are handed when they work for
//! one. The list of cases is in [`crate::registry`], above them all.

use crate::run::params::{ParamError, ParamSpec, ParamValues};
use crate::run::trace::Run;
use std::fmt;

/// A link to the original report or to the real source at the modelled version.
#[derive(Clone, Copy, Debug)]
pub struct Source {
    pub label: &'static str,
    pub url: &'static str,
}

/// One kernel (or program) variant a case can run: "as reported", a fix, a what-if
/// or today's kernel.
#[derive(Clone, Copy, Debug)]
pub struct VariantSpec {
    /// The key used in links (`v=`) and on the command line.
    pub id: &'static str,
    pub label: &'static str,
    /// One sentence: what differs in this variant.
    pub description: &'static str,
    pub group: VariantGroup,
}

/// Where a variant stands beside the report: the variant picker shows them grouped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariantGroup {
    /// The reported system, or what the reporter compared it with.
    AsReported,
    /// A fix that was proposed or shipped, or a later kernel that has one.
    Fix,
    /// A hypothesis or a change never shipped: it answers "what if".
    WhatIf,
    /// Today's kernel, checked against a measurement on a real machine.
    Today,
}

impl VariantGroup {
    /// The order the groups are shown in.
    pub const ALL: [VariantGroup; 4] =
        [VariantGroup::AsReported, VariantGroup::Fix, VariantGroup::WhatIf, VariantGroup::Today];

    pub fn label(self) -> &'static str {
        match self {
            VariantGroup::AsReported => "as reported",
            VariantGroup::Fix => "fixes",
            VariantGroup::WhatIf => "what if",
            VariantGroup::Today => "today",
        }
    }
}

/// A figure from the original report, shown beside the simulated one.
#[derive(Clone, Copy, Debug)]
pub struct ReportedFigure {
    /// The metric key in the run's metrics that this figure compares with.
    pub metric: &'static str,
    pub label: &'static str,
    /// The figure as the report gives it, in words ("13.69 s real").
    pub reported: &'static str,
}

/// A recorded trace hash: the run of `variant` at `seed` with the default parameters,
/// which every build (native, and wasm under node) must reproduce. It changes only
/// with an intended change of the model, in the same commit, which says why.
#[derive(Clone, Copy, Debug)]
pub struct Golden {
    pub variant: &'static str,
    pub seed: u64,
    /// The trace hash as 16 hex digits.
    pub trace_hash: &'static str,
}

/// Everything static about a case: what the landing page, the About page, the
/// parameter panel, the tours and `slowpath-cli list` show. It is data, apart
/// from the simulation ([`Case`]), so that a build can carry every case's
/// metadata and the simulation of only some (one wasm module per case).
#[derive(Clone, Copy, Debug)]
pub struct CaseMeta {
    /// Stable identifier used in links: `#/case/<id>`.
    pub id: &'static str,
    pub title: &'static str,
    pub year: u16,
    /// The system modelled, with its version ("Linux 6.13").
    pub system: &'static str,
    /// One line: the symptom a user saw.
    pub summary: &'static str,
    pub sources: &'static [Source],
    pub params: &'static [ParamSpec],
    /// The first variant is the default ("as reported").
    pub variants: &'static [VariantSpec],
    pub reported: &'static [ReportedFigure],
    /// The metric shown as the headline figure on the landing page...
    pub headline_metric: &'static str,
    /// ...and what it counts, after the number ("contended acquisitions in 20 ms").
    pub headline_label: &'static str,
    /// The case's guided tour (its `tour.rs`). Required: a case ships its tour, and
    /// the registry test opens every stop.
    pub tour: &'static crate::tour::Tour,
    /// The figure measured on today's kernel that the page's "Today" panel sets
    /// beside the model's `today` run, for a case that has one.
    pub today: Option<&'static crate::run::measured::TodayCheck>,
    /// The default run's recorded hash (every registered case has one; the
    /// determinism tests iterate the registry).
    pub golden: Option<Golden>,
}

/// Why a run could not be produced. Never a panic: the UI shows this text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    UnknownVariant { given: String, known: Vec<&'static str> },
    Param(ParamError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::UnknownVariant { given, known } => {
                let given = crate::run::params::quote_input(given);
                write!(f, "unknown variant `{given}`; known: {}", known.join(", "))
            }
            RunError::Param(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for RunError {}

impl From<ParamError> for RunError {
    fn from(error: ParamError) -> Self {
        RunError::Param(error)
    }
}

/// A case's simulation: a model that turns parameters, a variant and a seed into a
/// [`Run`], with what its runs need to be narrated, sent and exported.
///
/// `run` must be deterministic: the same inputs give a byte-identical trace on
/// every platform.
pub trait Case: Sync {
    fn meta(&self) -> &'static CaseMeta;

    /// Runs the model. `params` must have passed [`ParamValues::check`];
    /// [`run_checked`] is the entry point that guarantees it.
    fn run_validated(&self, params: &ParamValues, variant: &'static str, seed: u64) -> Run;

    /// What its runs borrow from it (templates, pseudocode) and the type of their
    /// extras, so that a run can cross threads as bytes (`run::wire`).
    fn wire(&self) -> crate::run::wire::CaseWire;
    /// Why these (in-range) parameters cannot run, said before running: a workload
    /// that does not parse, or names what it never declared. Most cases take any.
    fn check_params(&self, params: &ParamValues, variant: &str) -> Result<(), ParamError> {
        let _ = (params, variant);
        Ok(())
    }

    /// The points of the plots a run of this case draws (per-write dt, scaling
    /// curves), one CSV table each, from the run's extras. Generic figures are in
    /// `export::csv::metrics_table`; a case without plots of its own has none.
    fn csv_tables(&self, run: &Run) -> Vec<crate::export::csv::Table> {
        let _ = run;
        Vec::new()
    }

    /// The same plots as SVG charts (`export::chart`), from the run's extras.
    fn charts(&self, run: &Run) -> Vec<crate::export::chart::Chart> {
        let _ = run;
        Vec::new()
    }

    /// What the words at its key moments say the stage shows, one claim per template
    /// that names a state (`run::chapters::StageClaim`), so that a test can hold the
    /// picture to the words at every chapter and notable event.
    fn stage_claims(&self) -> &'static [crate::run::chapters::StageClaim] {
        &[]
    }
}

impl CaseMeta {
    pub fn variant(&self, id: &str) -> Option<&'static VariantSpec> {
        self.variants.iter().find(|variant| variant.id == id)
    }

    pub fn default_variant(&self) -> &'static VariantSpec {
        // Every registered case has at least one variant (a registry test asserts it).
        &self.variants[0]
    }

    pub fn default_params(&self) -> ParamValues {
        ParamValues::defaults(self.params)
    }
}

/// Validates inputs, then runs the case. The only way the outside world runs one.
pub fn run_checked(case: &dyn Case, params: &ParamValues, variant: &str, seed: u64) -> Result<Run, RunError> {
    let meta = case.meta();
    let variant = meta.variant(variant).ok_or_else(|| RunError::UnknownVariant {
        given: variant.to_string(),
        known: meta.variants.iter().map(|v| v.id).collect(),
    })?;
    params.check(meta.params)?;
    case.check_params(params, variant.id)?;
    Ok(case.run_validated(params, variant.id, seed))
}
