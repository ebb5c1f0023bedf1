//! The core-dump-threads stage: the threads, siglock, the O(1) run queue with
//! the dumper parked in the expired array, the signal state, mmap_sem and the
//! `time` line (main column); the scaling plot and the fixes' diff (full width).

mod scaling;
mod stage;

use super::{CaseUi, StageContext};
use yew::prelude::*;

pub const UI: CaseUi = CaseUi { id: "coredump-threads", main, wide };

fn main(context: &StageContext) -> Html {
    html! { <stage::ThreadsStage run={context.run.clone()} view={context.view.clone()} /> }
}

fn wide(context: &StageContext) -> Html {
    html! {
        <>
            <scaling::FixDiff />
            <scaling::ScalingPlot run={context.run.clone()} meta={context.meta} />
        </>
    }
}
