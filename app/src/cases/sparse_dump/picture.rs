//! The landing card's sketch of the stage: the mapping as one long strip with a single
//! written page, the dump's walk part-way along it, and the descent every page costs
//! (the maple tree, then the page tables). Decorative and light: no figure.

use yew::prelude::*;

pub fn picture() -> Html {
    let descent = [(8u16, 34u16), (32, 40), (56, 46), (80, 52)];
    let links = descent.windows(2).map(|pair| {
        let ((x1, y1), (x2, y2)) = (pair[0], pair[1]);
        html! {
            <line class="p-line" x1={(x1 + 18).to_string()} y1={(y1 + 4).to_string()}
                x2={x2.to_string()} y2={(y2 + 4).to_string()} />
        }
    });
    let levels = descent.iter().enumerate().map(|(level, &(x, y))| {
        let class = if level + 1 == descent.len() { "p-warm" } else { "p-soft" };
        html! { <rect {class} x={x.to_string()} y={y.to_string()} width="18" height="8" rx="2" /> }
    });
    html! {
        <svg class="stage-picture" viewBox="0 0 120 64" aria-hidden="true" focusable="false">
            <rect class="p-soft" x="4" y="8" width="70" height="14" />
            <rect class="p-frame" x="4" y="8" width="112" height="14" rx="2" />
            <rect class="p-accent" x="6" y="8" width="3" height="14" />
            <line class="p-cursor" x1="74" y1="3" x2="74" y2="27" />
            { for links }
            { for levels }
        </svg>
    }
}
