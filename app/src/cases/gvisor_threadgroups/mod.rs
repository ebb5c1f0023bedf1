//! gVisor's thread-group scan: the task grid with the scan's cursor, the
//! ticker's CPU meter, the clone waiting on TaskSet.mu, the defer demo's lock
//! piles (main column); the scaling plot beside the seed's points (full width).

#[cfg(feature = "gvisor-threadgroups")]
mod defer;
#[cfg(feature = "gvisor-threadgroups")]
mod grid;
mod picture;
#[cfg(feature = "gvisor-threadgroups")]
mod scaling;

use super::CaseCard;
#[cfg(feature = "gvisor-threadgroups")]
use super::{CaseUi, StageContext};
#[cfg(feature = "gvisor-threadgroups")]
use crate::player::model::Pace;
#[cfg(feature = "gvisor-threadgroups")]
use yew::prelude::*;

/// The two-minute sleep in ten seconds: the clone that waits on TaskSet.mu, half-way
/// through, comes five seconds after Play.
#[cfg(feature = "gvisor-threadgroups")]
pub const UI: CaseUi = CaseUi::stage("gvisor-threadgroups", main, wide, Pace::WholeRunIn(10));

/// Its landing card's picture, and why the model's headline figure is not the report's.
pub const CARD: CaseCard = CaseCard {
    id: "gvisor-threadgroups",
    picture: picture::picture,
    why_figures_differ: Some(
        "a visit's cost is calibrated on the report; this seed draws fewer cache-cold visits",
    ),
};

#[cfg(feature = "gvisor-threadgroups")]
fn main(context: &StageContext) -> Html {
    html! {
        <>
            <grid::SentryStage run={context.run.clone()} view={context.view.clone()} />
            <defer::DeferStage run={context.run.clone()} view={context.view.clone()} />
        </>
    }
}

#[cfg(feature = "gvisor-threadgroups")]
fn wide(context: &StageContext) -> Html {
    html! { <scaling::ScalingPlot run={context.run.clone()} /> }
}
