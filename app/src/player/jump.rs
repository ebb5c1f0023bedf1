//! The jump buttons: every part of the case page below the first screen (figures,
//! the case's charts, the timeline, parameters, about) one click away.

use yew::prelude::*;

/// Buttons to the parts below the first screen (the ids are set by the player,
/// and `about` by the case page). Buttons, not `#id` links: the hash is the route.
/// `tour_hash`: the case's guided tour (every case ships one), when not already in it.
pub fn jump_nav(has_case_ui: bool, tour_hash: Option<String>) -> Html {
    let jump = show_below_and_jump;
    let mut parts = vec![("details-figures", "Figures")];
    if has_case_ui {
        parts.push(("details-case", "Charts"));
    }
    parts.extend([("details-timeline", "Timeline"), ("details-params", "Parameters"), ("about", "About")]);
    html! {
        <nav class="case-jump" aria-label="Below the player" data-testid="case-jump">
            <ul role="list">
                // One arrow for the row (one per button would not fit beside the tour link).
                <li class="case-jump-arrow" aria-hidden="true">{ "↓" }</li>
                { for parts.into_iter().map(|(id, label)| html! {
                    <li key={id}><button type="button" onclick={jump(id)}>{ label }</button></li>
                }) }
                if let Some(hash) = &tour_hash {
                    <li><a class="case-tour-link" href={hash.clone()} data-testid="tour-link" title="The guided tour of this case">{ "Tour →" }</a></li>
                }
            </ul>
        </nav>
    }
}

/// A click that asks for the parts below the first screen and jumps to `id` once
/// they are all mounted (a part mounted above the target would move it away).
pub fn show_below_and_jump(id: &'static str) -> Callback<MouseEvent> {
    Callback::from(move |_: MouseEvent| {
        crate::components::announce(crate::components::BELOW_EVENT);
        jump_when_mounted(id, JUMP_TRIES);
    })
}

/// How many times a jump looks for its target, `JUMP_RETRY_MS` apart: the parts
/// mount one per frame, a few seconds at most on a slow phone.
const JUMP_TRIES: u32 = 100;
const JUMP_RETRY_MS: u32 = 50;

/// Scrolls to and focuses `id` once it exists and nothing below the first screen is
/// still being mounted; gives up after `tries_left` more looks.
fn jump_when_mounted(id: &'static str, tries_left: u32) {
    let document = gloo::utils::document();
    let mounting = document.query_selector(".player-details[aria-busy=\"true\"]").ok().flatten().is_some();
    match document.get_element_by_id(id) {
        Some(target) if !mounting || tries_left == 0 => {
            target.scroll_into_view();
            if let Ok(target) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(target) {
                let _ = target.focus();
            }
        }
        _ if tries_left > 0 => {
            gloo::timers::callback::Timeout::new(JUMP_RETRY_MS, move || {
                jump_when_mounted(id, tries_left - 1)
            })
            .forget();
        }
        _ => {}
    }
}
