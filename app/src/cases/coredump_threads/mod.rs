//! The core-dump-threads stage: the threads, siglock, the O(1) run queue with
//! the dumper parked in the expired array, the signal state and mmap_sem (the
//! stage); the `time` line, the scaling plot and the fixes' diff (below).

#[cfg(feature = "coredump-threads")]
mod heat;
mod picture;
#[cfg(feature = "coredump-threads")]
mod scaling;
#[cfg(feature = "coredump-threads")]
mod stage;

use super::CaseCard;
#[cfg(feature = "coredump-threads")]
use super::{CaseUi, StageContext};
#[cfg(feature = "coredump-threads")]
use crate::player::model::Pace;
#[cfg(feature = "coredump-threads")]
use yew::prelude::*;

/// The whole run in ten seconds: SIGQUIT and the dumper's yield under a second
/// after Play, the array swap and the deaths at the end.
#[cfg(feature = "coredump-threads")]
pub const UI: CaseUi = CaseUi::stage("coredump-threads", main, wide, Pace::WholeRunIn(10));

/// Its landing card's picture, and why the model's headline figure is not the report's.
pub const CARD: CaseCard = CaseCard {
    id: "coredump-threads",
    picture: picture::picture,
    why_figures_differ: Some(
        "the title's time includes the spinning before the signal; the model is not fitted to the report",
    ),
};

#[cfg(feature = "coredump-threads")]
fn main(context: &StageContext) -> Html {
    html! { <stage::ThreadsStage run={context.run.clone()} view={context.view.clone()} /> }
}

#[cfg(feature = "coredump-threads")]
fn wide(context: &StageContext) -> Html {
    html! {
        <>
            { stage::time_and_notes(&context.run, &context.view) }
            { scaling::fix_diff() }
            <scaling::ScalingPlot run={context.run.clone()} meta={context.meta} />
        </>
    }
}
