//! Mounting what nobody sees yet a little later, one part per frame.
//!
//! Mounting a whole page in one go was the longest main-thread task of opening a
//! case (issue 14): the first screen is drawn first, and what sits below it is
//! mounted part by part. Each part waits for the frame after the previous one, so
//! that the browser lays out one part per task instead of all of them at once.
//! What is below a case's first screen waits further, until the reader goes there
//! (`use_parts_shown_on_approach`): a phone that only watches the stage never
//! builds it (issue 32).

use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// How many of a component's `parts` later parts are mounted: 0 until `go`, then
/// one more per frame until all of them are.
#[hook]
fn use_parts_shown_after(parts: u8, go: bool) -> u8 {
    let shown = use_state(|| 0u8);
    {
        let shown = shown.clone();
        use_effect_with((*shown, go), move |&(now, go)| {
            let next: Rc<RefCell<Option<gloo::timers::callback::Timeout>>> = Rc::new(RefCell::new(None));
            // After the next frame is drawn (a task of its own), not inside it.
            let frame = (go && now < parts).then(|| {
                let next = next.clone();
                gloo::render::request_animation_frame(move |_| {
                    *next.borrow_mut() =
                        Some(gloo::timers::callback::Timeout::new(0, move || shown.set(now + 1)));
                })
            });
            move || {
                drop(frame);
                drop(next.take());
            }
        });
    }
    *shown
}

/// The event the jump buttons send: the reader is going below the first screen.
pub const BELOW_EVENT: &str = "slowpath-below";

/// The event the player sends once every part below its first screen is mounted.
pub const DETAILS_SHOWN_EVENT: &str = "slowpath-details-shown";

/// What a reader does to go below the first screen: scroll, or a jump button.
pub const GOING_BELOW: [&str; 2] = ["scroll", BELOW_EVENT];

/// How many of `parts` are mounted, one per frame, starting only once the reader goes
/// below the first screen: one of `events` on the window, or `node` showing in
/// the window once the first screen is laid out (a tall screen). On a phone the
/// parts below were most of a case page's main-thread work, for nobody yet.
#[hook]
pub fn use_parts_shown_on_approach(parts: u8, events: &'static [&'static str], node: Option<NodeRef>) -> u8 {
    // `_eq`: a later scroll or jump sets it again, which must not re-render the player.
    let wanted = use_state_eq(|| false);
    {
        let wanted = wanted.clone();
        use_effect_with((), move |_| {
            let target: web_sys::EventTarget = gloo::utils::window().into();
            let listeners: Vec<gloo::events::EventListener> = events
                .iter()
                .map(|&name| {
                    let wanted = wanted.clone();
                    gloo::events::EventListener::once(&target, name, move |_| wanted.set(true))
                })
                .collect();
            // Once the first screen is laid out (after its fit), not before.
            let check = node.map(|node| {
                gloo::render::request_animation_frame(move |_| {
                    if node_in_window(&node) {
                        wanted.set(true);
                    }
                })
            });
            move || drop((listeners, check))
        });
    }
    use_parts_shown_after(parts, *wanted)
}

/// Whether `node` is laid out (not hidden) with its top inside the window.
fn node_in_window(node: &NodeRef) -> bool {
    let Some(element) = node.cast::<web_sys::HtmlElement>() else { return false };
    let height = gloo::utils::window().inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
    element.offset_parent().is_some() && element.get_bounding_client_rect().top() < height
}

/// Tells the window `event` (one of this module's).
pub fn announce(event: &str) {
    if let Ok(event) = web_sys::Event::new(event) {
        let _ = gloo::utils::window().dispatch_event(&event);
    }
}
