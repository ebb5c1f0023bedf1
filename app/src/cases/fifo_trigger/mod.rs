//! The FIFO trigger's stage (the two programs, the FIFO inode, the CPU and run
//! queue) on the first screen; the writes (output, dt chart, comparison) and
//! the sweep below it.

#[cfg(feature = "fifo-trigger")]
mod chart;
#[cfg(feature = "fifo-trigger")]
mod colours;
#[cfg(feature = "fifo-trigger")]
mod eevdf;
#[cfg(feature = "fifo-trigger")]
mod output;
mod picture;
#[cfg(feature = "fifo-trigger")]
mod stage;
#[cfg(feature = "fifo-trigger")]
mod sweep;
#[cfg(feature = "fifo-trigger")]
mod writes;

use super::CaseCard;
#[cfg(feature = "fifo-trigger")]
use super::{CaseUi, StageContext};
#[cfg(feature = "fifo-trigger")]
use crate::player::model::Pace;
#[cfg(feature = "fifo-trigger")]
use yew::prelude::*;

/// Real time: the first burst opens about two seconds in, and each 100 ms slice is
/// seen as long as it is.
#[cfg(feature = "fifo-trigger")]
pub const UI: CaseUi = CaseUi::stage("fifo-trigger", main, wide, Pace::Scale { sim: 1, real: 1 });

/// Its landing card's picture, and why the model's headline figure is not the report's.
pub const CARD: CaseCard = CaseCard {
    id: "fifo-trigger",
    picture: picture::picture,
    why_figures_differ: Some(
        "the model's time slices are whole ticks, the listener's first one inferred from this very figure",
    ),
};

#[cfg(feature = "fifo-trigger")]
fn main(context: &StageContext) -> Html {
    html! { <stage::FifoStage run={context.run.clone()} view={context.view.clone()} /> }
}

#[cfg(feature = "fifo-trigger")]
fn wide(context: &StageContext) -> Html {
    html! {
        <>
            <writes::FifoWrites run={context.run.clone()} view={context.view.clone()} on_seek_time={context.on_seek_time.clone()} />
            // The sweep explains 2.6.1's fast runs (timeslices, a one-page buffer, the
            // calibrated print cost that today's run does not use): not offered on today's kernel.
            if context.run.variant != "today" {
                <sweep::FifoSweep run={context.run.clone()} meta={context.meta} />
            }
        </>
    }
}
