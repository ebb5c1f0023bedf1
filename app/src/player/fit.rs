//! The first screen fits the window: the stage (what animates) and the words
//! beside it end above the window's bottom edge at every step, so that a room
//! never loses the run queue or the current line below the fold.
//!
//! The words' column is bounded by CSS from `--room` (its boxes scroll inside);
//! the stage, which cannot scroll without hiding what animates, is scaled down
//! with CSS `zoom` when a step makes it taller than the room. While playing the
//! scale only shrinks, so that the stage does not pulse from frame to frame; a
//! paused step gets the scale it needs (up to full size). In the presenter view the
//! stage is also scaled *up* into the room the words leave, so that the back of the
//! room reads it: a paused step starts from the largest zoom and shrinks to fit.

use crate::player::Clamped;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Below this window width the page is one column and scrolls (player.css, 60rem).
const TWO_COLUMNS_MIN_WIDTH_PX: f64 = 960.0;
/// Room left under the first screen, so that a box's shadow is not cut.
const BOTTOM_MARGIN_PX: f64 = 8.0;
/// The stage is never drawn smaller than this: text stays readable on a projector.
const STAGE_ZOOM_MIN: f64 = 0.7;
/// The presenter view scales the stage up to this, room allowing (CSS `zoom` reflows
/// the stage into its column, so the width never overflows; the height decides).
const STAGE_ZOOM_MAX_PRESENTING: f64 = 2.0;
/// A smaller shrink of the stage's zoom is not made (no one-pixel jitter).
const ZOOM_SHRINK_MIN: f64 = 0.01;
/// Rounds of bisection for the presenter view's zoom: its range to within 1 %.
const BISECTION_ROUNDS: usize = 7;
/// Rounds of measure-and-shrink per fit (each is one layout).
const FIT_ROUNDS_MAX: usize = 4;

/// Fits the stage area (`area`, the `.player-stage-area`) to the window after
/// every render, on resize, and, paused, again on the next frame (a canvas sizes
/// itself then; while playing, the next render comes anyway).
#[hook]
pub fn use_fit_to_window(area: NodeRef, playing: bool) {
    // The stage's zoom in force.
    let zoom: Rc<Cell<f64>> = use_memo((), |_| Cell::new(1.0));
    {
        let (area, zoom) = (area.clone(), zoom.clone());
        use_effect(move || {
            fit(&area, &zoom, playing);
            let frame =
                (!playing).then(|| gloo::render::request_animation_frame(move |_| fit(&area, &zoom, false)));
            move || drop(frame)
        });
    }
    use_effect_with(area, move |area| {
        let area = area.clone();
        let listener = web_sys::window().map(|window| {
            gloo::events::EventListener::new(&window, "resize", move |_| fit(&area, &zoom, false))
        });
        move || drop(listener)
    });
}

/// Fits, then shows the stage: the layouts that fit render their area with
/// `data-fit="pending"`, which hides the stage (player.css) until its first fit, so
/// that a stage first drawn before its zoom is known is never seen moving into place
/// (the effects run after the first paint, and a zoom can reflow the stage's cards).
fn fit(area: &NodeRef, zoom: &Cell<f64>, playing: bool) {
    fit_zoom(area, zoom, playing);
    if let Some(area) = area.cast::<web_sys::HtmlElement>() {
        let has_stage = area.query_selector(":scope > .player-stage").ok().flatten().is_some();
        if has_stage && area.get_attribute("data-fit").as_deref() == Some("pending") {
            let _ = area.set_attribute("data-fit", "done");
        }
    }
}

fn fit_zoom(area: &NodeRef, zoom: &Cell<f64>, playing: bool) {
    let (Some(window), Some(area)) = (web_sys::window(), area.cast::<web_sys::HtmlElement>()) else { return };
    let width = window.inner_width().ok().and_then(|value| value.as_f64()).unwrap_or(0.0);
    let height = window.inner_height().ok().and_then(|value| value.as_f64()).unwrap_or(0.0);
    let style = area.style();
    let stage = area
        .query_selector(":scope > .player-stage")
        .ok()
        .flatten()
        .and_then(|stage| stage.dyn_into::<web_sys::HtmlElement>().ok());
    if width < TWO_COLUMNS_MIN_WIDTH_PX
        || area.class_name().split_whitespace().any(|class| class == "comparing")
    {
        let _ = style.remove_property("--room");
        if let Some(stage) = &stage {
            let _ = stage.style().remove_property("zoom");
        }
        zoom.set(1.0);
        return;
    }
    // Where the area starts in the page: the room is measured from the page's top,
    // as the first screen shows it, whatever the reader has scrolled to since.
    let top = area.get_bounding_client_rect().top() + window.scroll_y().unwrap_or(0.0);
    let room = (height - top - BOTTOM_MARGIN_PX).floor();
    if room <= 0.0 {
        return;
    }
    let room_px = format!("{}px", slowpath_engine::run::format::Shortest(room));
    if style.get_property_value("--room").ok().as_deref() != Some(room_px.as_str()) {
        let _ = style.set_property("--room", &room_px);
        // The code box got its size only now: its current line was centred in the old one.
        let code = area.query_selector(".player-words .pseudocode").ok().flatten();
        if let Some(code) = code.and_then(|code| code.dyn_into::<web_sys::HtmlElement>().ok()) {
            super::panels::center_current_line(&code);
        }
    }
    let Some(stage) = stage else { return };
    // Paused, the stage is measured at full size and shrunk as far as it needs; while
    // playing, it only shrinks from where it is. A smaller zoom widens the stage's
    // own layout (fewer lines wrap, more cards per row), so the height is measured
    // again after each change: a few rounds at most.
    let presenting = area.closest(".player-present").ok().flatten().is_some();
    if presenting && !playing {
        zoom.set(largest_fitting_zoom(&stage, room));
        return;
    }
    let largest = if presenting { STAGE_ZOOM_MAX_PRESENTING } else { 1.0 };
    let mut now = if playing { zoom.get().min(largest) } else { largest };
    set_zoom(&stage, now);
    for _ in 0..FIT_ROUNDS_MAX {
        // The rectangle is the drawn size, after zoom.
        let drawn = stage.get_bounding_client_rect().height();
        if drawn <= room || drawn <= 0.0 {
            break;
        }
        let wanted = (now * room / drawn).clamped(STAGE_ZOOM_MIN, largest);
        if wanted >= now - ZOOM_SHRINK_MIN / 2.0 {
            break;
        }
        // Overshoot the shrink a little, so that the next round rarely needs to.
        now = (wanted - ZOOM_SHRINK_MIN / 2.0).max(STAGE_ZOOM_MIN);
        set_zoom(&stage, now);
    }
    zoom.set(now);
}

/// The presenter view, paused: the largest zoom up to [`STAGE_ZOOM_MAX_PRESENTING`] at
/// which the stage fits `room`. A larger zoom reflows the stage into a narrower
/// layout (more rows of cards), so its height is not proportional: bisected, one
/// layout a round.
fn largest_fitting_zoom(stage: &web_sys::HtmlElement, room: f64) -> f64 {
    let fits = |zoom: f64| {
        set_zoom(stage, zoom);
        stage.get_bounding_client_rect().height() <= room
    };
    if fits(STAGE_ZOOM_MAX_PRESENTING) {
        return STAGE_ZOOM_MAX_PRESENTING;
    }
    let (mut low, mut high) = (STAGE_ZOOM_MIN, STAGE_ZOOM_MAX_PRESENTING);
    for _ in 0..BISECTION_ROUNDS {
        let middle = (low + high) / 2.0;
        if fits(middle) {
            low = middle;
        } else {
            high = middle;
        }
    }
    set_zoom(stage, low);
    low
}

fn set_zoom(stage: &web_sys::HtmlElement, zoom: f64) {
    let style = stage.style();
    if (zoom - 1.0).abs() < f64::EPSILON {
        let _ = style.remove_property("zoom");
    } else {
        let _ = style.set_property("zoom", &slowpath_engine::run::format::Fixed(zoom, 3).to_string());
    }
}
