//! The sparse core dump's stage (the address strip, maple descent, page walk,
//! lock churn); below it, the cost bar, the scaling plot and the fix's diff.

mod scaling;
mod stage;

use super::{CaseUi, StageContext};
use crate::player::model::Pace;
use yew::prelude::*;

/// The whole 29 s dump in ten seconds: SIGKILL at a third of a second, the end at ten.
pub const UI: CaseUi = CaseUi { id: "sparse-dump", main, wide, pace: Pace::WholeRunIn(10) };

fn main(context: &StageContext) -> Html {
    html! { <stage::AddressSpaceStage run={context.run.clone()} view={context.view.clone()} /> }
}

fn wide(context: &StageContext) -> Html {
    html! {
        <>
            { stage::cost_breakdown(&context.run) }
            { scaling::fix_diff(&context.run) }
            <scaling::ScalingPlot run={context.run.clone()} meta={context.meta} />
        </>
    }
}
