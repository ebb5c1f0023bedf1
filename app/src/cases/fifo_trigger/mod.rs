//! The FIFO trigger's stage (the two programs, the FIFO inode, the CPU and run
//! queue, the writer's output and the dt chart) and its sweep. It has two
//! programs side by side, so it takes the full width.

mod chart;
mod output;
mod stage;
mod sweep;

use super::{nothing, CaseUi, StageContext};
use crate::player::model::Pace;
use yew::prelude::*;

/// Real time: the first burst opens about two seconds in, and each 100 ms slice is
/// seen as long as it is.
pub const UI: CaseUi =
    CaseUi { id: "fifo-trigger", main: nothing, wide, pace: Pace::Scale { sim: 1, real: 1 } };

fn wide(context: &StageContext) -> Html {
    html! {
        <>
            <stage::FifoStage run={context.run.clone()} view={context.view.clone()} on_seek_time={context.on_seek_time.clone()} />
            <sweep::FifoSweep run={context.run.clone()} meta={context.meta} />
        </>
    }
}
