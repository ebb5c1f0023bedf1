//! Mounting what nobody sees yet a little later, one part per frame.
//!
//! Mounting a whole page in one go was the longest main-thread task of opening a
//! case (issue 14): the first screen is drawn first, and what sits below it is
//! mounted part by part. Each part waits for the frame after the previous one, so
//! that the browser lays out one part per task instead of all of them at once.

use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// How many of a component's `parts` later parts are mounted: 0 on the first
/// render, then one more per frame until all of them are.
#[hook]
pub fn use_parts_shown(parts: u8) -> u8 {
    let shown = use_state(|| 0u8);
    {
        let shown = shown.clone();
        use_effect_with(*shown, move |&now| {
            let next: Rc<RefCell<Option<gloo::timers::callback::Timeout>>> = Rc::new(RefCell::new(None));
            // After the next frame is drawn (a task of its own), not inside it.
            let frame = (now < parts).then(|| {
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
