//! The core-dump-threads stage: the threads, siglock, the O(1) run queue with
//! the dumper parked in the expired array, the signal state and mmap_sem (the
//! stage); the `time` line, the scaling plot and the fixes' diff (below).

mod heat;
mod scaling;
mod stage;

use super::{CaseUi, StageContext};
use crate::player::model::Pace;
use yew::prelude::*;

/// The whole run in ten seconds: SIGQUIT and the dumper's yield under a second
/// after Play, the array swap and the deaths at the end.
pub const UI: CaseUi = CaseUi { id: "coredump-threads", main, wide, pace: Pace::WholeRunIn(10) };

fn main(context: &StageContext) -> Html {
    html! { <stage::ThreadsStage run={context.run.clone()} view={context.view.clone()} /> }
}

fn wide(context: &StageContext) -> Html {
    html! {
        <>
            { stage::time_and_notes(&context.run, &context.view) }
            { scaling::fix_diff() }
            <scaling::ScalingPlot run={context.run.clone()} meta={context.meta} />
        </>
    }
}
