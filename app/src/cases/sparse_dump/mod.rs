//! The sparse core dump's stage (the address strip, maple descent, page walk,
//! lock churn and cost bar), its scaling plot and the fix's diff.

mod scaling;
mod stage;

use super::{CaseUi, StageContext};
use yew::prelude::*;

pub const UI: CaseUi = CaseUi { id: "sparse-dump", main, wide };

fn main(context: &StageContext) -> Html {
    html! { <stage::AddressSpaceStage run={context.run.clone()} view={context.view.clone()} /> }
}

fn wide(context: &StageContext) -> Html {
    html! {
        <>
            <scaling::FixDiff run={context.run.clone()} meta={context.meta} />
            <scaling::ScalingPlot run={context.run.clone()} meta={context.meta} />
        </>
    }
}
