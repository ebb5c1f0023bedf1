//! gVisor's thread-group scan: the task grid with the scan's cursor, the
//! ticker's CPU meter, the clone waiting on TaskSet.mu, the defer demo's lock
//! piles (main column); the scaling plot beside the seed's points (full width).

mod defer;
mod grid;
mod scaling;

use super::{CaseUi, StageContext};
use yew::prelude::*;

pub const UI: CaseUi = CaseUi { id: "gvisor-threadgroups", main, wide };

fn main(context: &StageContext) -> Html {
    html! {
        <>
            <grid::SentryStage run={context.run.clone()} view={context.view.clone()} />
            <defer::DeferStage run={context.run.clone()} view={context.view.clone()} />
        </>
    }
}

/// A duration as people write it: three significant digits and a unit (17.2 s, 88 ns).
pub(crate) fn human(ns: u64) -> String {
    let value = ns as f64;
    let (scaled, unit) = if ns >= 1_000_000_000 {
        (value / 1e9, "s")
    } else if ns >= 1_000_000 {
        (value / 1e6, "ms")
    } else if ns >= 1_000 {
        (value / 1e3, "µs")
    } else {
        return format!("{ns} ns");
    };
    let digits = if scaled >= 100.0 {
        0
    } else if scaled >= 10.0 {
        1
    } else {
        2
    };
    format!("{scaled:.digits$} {unit}")
}

fn wide(context: &StageContext) -> Html {
    html! { <scaling::ScalingPlot run={context.run.clone()} /> }
}

#[cfg(test)]
mod tests {
    #[test]
    fn durations_read_as_people_write_them() {
        assert_eq!(super::human(88), "88 ns");
        assert_eq!(super::human(17_210_000_000), "17.2 s");
        assert_eq!(super::human(736_183), "736 µs");
        assert_eq!(super::human(1_236_198), "1.24 ms");
    }
}
