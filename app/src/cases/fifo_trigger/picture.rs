//! The landing card's sketch of the stage: the writer and the listener joined by the
//! FIFO, a byte in it, and the writes' times as bars, most flat and a few tall (the
//! bursts of slow writes). Decorative and light: no figure.

use yew::prelude::*;

/// The bars' heights: flat writes, and the slow ones of two bursts.
const BARS: [u16; 36] = [
    2, 2, 2, 2, 2, 30, 11, 11, 2, 2, 2, 2, 2, 2, 2, 2, 2, 11, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 11, 2, 2, 2, 2,
    2, 2, 2,
];

pub fn picture() -> Html {
    let bars = BARS.iter().enumerate().map(|(index, &height)| {
        let class = if height > 2 { "p-warm" } else { "p-muted" };
        let x = (4 + index as u16 * 3 + index as u16 / 6).to_string();
        html! { <rect {class} {x} y={(61 - height).to_string()} width="2" height={height.to_string()} /> }
    });
    html! {
        <svg class="stage-picture" viewBox="0 0 120 64" aria-hidden="true" focusable="false">
            <rect class="p-frame p-frame-accent" x="3" y="3" width="28" height="18" rx="3" />
            <rect class="p-frame p-frame-read" x="89" y="3" width="28" height="18" rx="3" />
            <line class="p-line" x1="31" y1="9" x2="89" y2="9" />
            <line class="p-line" x1="31" y1="15" x2="89" y2="15" />
            <circle class="p-warm" cx="60" cy="12" r="2.5" />
            { for bars }
        </svg>
    }
}
