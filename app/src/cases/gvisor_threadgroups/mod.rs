//! gVisor's thread-group scan: the task grid with the scan's cursor, the
//! ticker's CPU meter, the clone waiting on TaskSet.mu, the defer demo's lock
//! piles (main column); the scaling plot beside the seed's points (full width).

mod defer;
mod grid;
mod picture;
mod scaling;

use super::{CaseCard, CaseUi, StageContext};
use crate::player::model::Pace;
use yew::prelude::*;

/// The two-minute sleep in ten seconds: the clone that waits on TaskSet.mu, half-way
/// through, comes five seconds after Play.
pub const UI: CaseUi = CaseUi { id: "gvisor-threadgroups", main, wide, pace: Pace::WholeRunIn(10) };

/// Its landing card's picture, and why the model's headline figure is not the report's.
pub const CARD: CaseCard = CaseCard {
    id: "gvisor-threadgroups",
    picture: picture::picture,
    why_figures_differ: Some(
        "a visit's cost is calibrated on the report; this seed draws fewer cache-cold visits",
    ),
};

fn main(context: &StageContext) -> Html {
    html! {
        <>
            <grid::SentryStage run={context.run.clone()} view={context.view.clone()} />
            <defer::DeferStage run={context.run.clone()} view={context.view.clone()} />
        </>
    }
}

fn wide(context: &StageContext) -> Html {
    html! { <scaling::ScalingPlot run={context.run.clone()} /> }
}
