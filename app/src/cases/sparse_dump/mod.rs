//! The sparse core dump's stage (the address strip, maple descent, page walk,
//! lock churn); below it, the cost bar, the scaling plot and the fix's diff.

mod picture;
mod scaling;
mod stage;

use super::{CaseCard, CaseUi, StageContext};
use crate::player::model::Pace;
use yew::prelude::*;

/// The whole 29 s dump in ten seconds: SIGKILL at a third of a second, the end at ten.
pub const UI: CaseUi = CaseUi { id: "sparse-dump", main, wide, pace: Pace::WholeRunIn(10) };

/// Its landing card's picture, and why the model's headline figure is not the report's.
pub const CARD: CaseCard = CaseCard {
    id: "sparse-dump",
    picture: picture::picture,
    why_figures_differ: Some("the default run sends SIGKILL, which makes later pages cheaper; without it the model matches the report"),
};

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
