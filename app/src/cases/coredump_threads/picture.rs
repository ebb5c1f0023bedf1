//! The landing card's sketch of the stage: twenty threads spinning (one of them the
//! dumper), and the run queue's two arrays with the dumper parked alone in the
//! expired one. Decorative and light: a few shapes, no figure.

use yew::prelude::*;

pub fn picture() -> Html {
    let threads = (0..20).map(|index: u16| {
        let (column, row) = (index % 10, index / 10);
        let class = if index == 0 { "p-accent" } else { "p-warm" };
        let x = (4 + column * 11).to_string();
        let y = (4 + row * 14).to_string();
        html! { <rect {class} {x} {y} width="8" height="10" rx="2" /> }
    });
    let active = (0..9).map(|index: u16| {
        html! { <rect class="p-warm" x={(8 + index * 7).to_string()} y="39" width="5" height="5" rx="1" /> }
    });
    html! {
        <svg class="stage-picture" viewBox="0 0 120 64" aria-hidden="true" focusable="false">
            { for threads }
            <rect class="p-frame" x="3" y="36" width="114" height="11" rx="2" />
            { for active }
            <rect class="p-frame" x="3" y="50" width="114" height="11" rx="2" />
            <rect class="p-accent" x="8" y="53" width="5" height="5" rx="1" />
        </svg>
    }
}
