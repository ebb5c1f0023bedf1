//! The Lab's page: the workload editor beside the stage (`editor.rs`), the stage
//! of CPUs, tasks grouped by what they wait for, locks and pipes (`stage.rs`, `pipes.rs`), and below it the run's figures as the textbook
//! tables them (`figures.rs`).

#[cfg(feature = "the-lab")]
mod editor;
#[cfg(feature = "the-lab")]
mod figures;
#[cfg(feature = "the-lab")]
mod pipes;
#[cfg(feature = "the-lab")]
mod stage;

use super::CaseCard;
#[cfg(feature = "the-lab")]
use super::{CaseUi, StageContext};
#[cfg(feature = "the-lab")]
use crate::player::model::Pace;
use yew::prelude::*;

/// A workload may run for a millisecond or a minute: Play takes the whole run in
/// ten seconds, whatever it is.
#[cfg(feature = "the-lab")]
pub const UI: CaseUi = CaseUi {
    input: Some(editor::input),
    // The stage draws them on the first screen.
    locks_below: false,
    variant_named: Some(variant_named),
    ..CaseUi::stage("the-lab", main, figures::figures, Pace::WholeRunIn(10))
};

/// "As written" with the kernel the workload's own line names ("As written: Linux
/// 6.18 EEVDF"), so that compare mode's caption says what runs on that side.
#[cfg(feature = "the-lab")]
pub fn variant_named(variant: &str, params: &slowpath_engine::ParamValues) -> Option<String> {
    use slowpath_engine::cases::the_lab::{written_variant, TEXT_BYTES_MAX};
    let Some(slowpath_engine::ParamValue::Word(text)) = params.0.get(editor::WORKLOAD) else { return None };
    if variant != AS_WRITTEN || text.len() > TEXT_BYTES_MAX {
        return None;
    }
    as_written_named(written_variant(text)?)
}

#[cfg(feature = "the-lab")]
const AS_WRITTEN: &str = "as-written";

/// "As written: <the label of `kernel`>", the variant a workload's own line names.
#[cfg(feature = "the-lab")]
pub fn as_written_named(kernel: &str) -> Option<String> {
    use slowpath_engine::cases::the_lab::META;
    Some(format!("{}: {}", META.variant(AS_WRITTEN)?.label, META.variant(kernel)?.label))
}

/// Its landing card's picture: a few lines of workload and the CPU they run on.
pub const CARD: CaseCard = CaseCard { id: "the-lab", picture, why_figures_differ: None };

/// The stage: the machine at the cursor (every CPU, every task by what it waits
/// for, every lock).
#[cfg(feature = "the-lab")]
fn main(context: &StageContext) -> Html {
    stage::stage(context)
}

/// Lines of text (the workload) beside a CPU's strip of turns. Decorative and
/// light: no figure.
fn picture() -> Html {
    html! {
        <svg class="stage-picture" viewBox="0 0 120 64" aria-hidden="true" focusable="false">
            <rect class="p-frame" x="6" y="8" width="46" height="48" rx="4" />
            <line class="p-line" x1="12" y1="18" x2="40" y2="18" />
            <line class="p-line" x1="16" y1="28" x2="44" y2="28" />
            <line class="p-line" x1="16" y1="38" x2="36" y2="38" />
            <line class="p-line" x1="12" y1="48" x2="30" y2="48" />
            <rect class="p-accent" x="62" y="24" width="14" height="16" rx="2" />
            <rect class="p-soft" x="78" y="24" width="10" height="16" rx="2" />
            <rect class="p-warm" x="90" y="24" width="8" height="16" rx="2" />
            <rect class="p-accent" x="100" y="24" width="14" height="16" rx="2" />
        </svg>
    }
}
