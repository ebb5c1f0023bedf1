//! The sparse core dump's stage (the address strip, maple descent, page walk,
//! lock churn); below it, the cost bar, the scaling plot and the fix's diff.

mod picture;
#[cfg(feature = "sparse-dump")]
mod scaling;
#[cfg(feature = "sparse-dump")]
mod stage;

use super::CaseCard;
#[cfg(feature = "sparse-dump")]
use super::{CaseUi, StageContext};
#[cfg(feature = "sparse-dump")]
use crate::player::model::Pace;
#[cfg(feature = "sparse-dump")]
use yew::prelude::*;

/// The whole 29 s dump in ten seconds: SIGKILL at a third of a second, the end at ten.
#[cfg(feature = "sparse-dump")]
pub const UI: CaseUi = CaseUi::stage("sparse-dump", main, wide, Pace::WholeRunIn(10));

/// Its landing card's picture, and why the model's headline figure is not the report's.
pub const CARD: CaseCard = CaseCard {
    id: "sparse-dump",
    picture: picture::picture,
    why_figures_differ: Some("the default run sends SIGKILL, which makes later pages cheaper; without it the model matches the report"),
};

#[cfg(feature = "sparse-dump")]
fn main(context: &StageContext) -> Html {
    html! { <stage::AddressSpaceStage run={context.run.clone()} view={context.view.clone()} /> }
}

#[cfg(feature = "sparse-dump")]
fn wide(context: &StageContext) -> Html {
    html! {
        <>
            { stage::cost_breakdown(&context.run) }
            { scaling::fix_diff(&context.run) }
            <scaling::ScalingPlot run={context.run.clone()} meta={context.meta} />
        </>
    }
}
