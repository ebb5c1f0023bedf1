//! The player's effects, one hook per idea (as Yew's function_todomvc keeps `App`
//! small): the state written to the address bar, the presenter view's idle
//! pointer, the keyboard shortcuts, and playback frame by frame.

use super::model::{Action, Pace, Player, SPEEDS};
use crate::player::Clamped;
use crate::route::Route;
use gloo::events::{EventListener, EventListenerOptions};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// At "max" speed a frame advances this fraction of the run's units (at least one).
const MAX_SPEED_FRAMES_PER_RUN: u64 = 600;
/// Playback never does more engine steps than this in one frame.
const UNITS_PER_FRAME_MAX: u64 = 5_000;
/// A frame later than this (a hidden tab, a slow machine) counts as this long,
/// so that playing by time never jumps far.
const FRAME_MS_MAX: f64 = 100.0;
/// The presenter view hides the pointer after this long without a move.
const POINTER_IDLE_MS: u32 = 2_500;
/// While playing, the address bar is rewritten at most this often.
const URL_WRITE_INTERVAL_MS: f64 = 250.0;

pub(super) fn now_ms() -> f64 {
    web_sys::window().and_then(|window| window.performance()).map_or(0.0, |performance| performance.now())
}

/// Writes the hash without adding a history entry or firing `hashchange`, unless
/// the address bar already shows another page: someone navigated away and the
/// router has not heard yet, and writing would take them back.
fn replace_hash(hash: &str) {
    let Some(window) = web_sys::window() else { return };
    let Ok(shown) = window.location().hash() else { return };
    if shown == hash || !Route::parse(&shown).same_page(&Route::parse(hash)) {
        return;
    }
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(hash));
    }
}

/// The state in the URL after every change, throttled while playing; `on_position`
/// told the position. A synthetic run (the perf page) has no link to write; a page
/// that owns its link (a tour stop) keeps `address` there instead.
#[hook]
pub fn use_state_in_url(
    player: &Player,
    synthetic: bool,
    address: Option<AttrValue>,
    on_position: Option<Callback<u64>>,
) {
    let last_write = use_mut_ref(|| f64::NEG_INFINITY);
    use_effect_with((player.clone(), synthetic), move |(player, synthetic)| {
        on_position.inspect(|on_position| on_position.emit(player.position));
        let now = now_ms();
        if !*synthetic && (!player.playing || now - *last_write.borrow() >= URL_WRITE_INTERVAL_MS) {
            let route =
                Route::Case { id: player.meta.id.to_string(), query: player.query.to_query(player.meta) };
            replace_hash(address.as_deref().unwrap_or(&route.to_hash()));
            *last_write.borrow_mut() = now;
        }
    });
}

/// Whether the presenter view hides the pointer: after a moment without a move (a
/// projector shows it large); any move brings it back. Always false elsewhere.
#[hook]
pub fn use_pointer_idle(present: bool) -> bool {
    let pointer_idle = use_state(|| false);
    {
        let pointer_idle = pointer_idle.clone();
        use_effect_with(present, move |present| {
            let mut listener = None;
            if *present {
                let timer: Rc<RefCell<Option<gloo::timers::callback::Timeout>>> = Rc::new(RefCell::new(None));
                let arm = {
                    let pointer_idle = pointer_idle.clone();
                    move || {
                        let pointer_idle = pointer_idle.clone();
                        gloo::timers::callback::Timeout::new(POINTER_IDLE_MS, move || pointer_idle.set(true))
                    }
                };
                *timer.borrow_mut() = Some(arm());
                listener = Some(EventListener::new(&gloo::utils::document(), "mousemove", move |_| {
                    pointer_idle.set(false);
                    *timer.borrow_mut() = Some(arm());
                }));
            }
            move || drop(listener)
        });
    }
    *pointer_idle
}

/// Keyboard shortcuts, on the document, ignored while typing in a field.
#[hook]
pub fn use_shortcuts(dispatcher: UseReducerDispatcher<Player>) {
    use_effect_with((), move |_| {
        let document = gloo::utils::document();
        let options = EventListenerOptions::enable_prevent_default();
        let listener = EventListener::new_with_options(&document, "keydown", options, move |event| {
            let Some(event) = event.dyn_ref::<web_sys::KeyboardEvent>() else { return };
            if event.ctrl_key() || event.meta_key() || event.alt_key() || typing_in_a_field(event) {
                return;
            }
            // Keys that act on the page rather than the player's state.
            match event.key().as_str() {
                "v" => {
                    event.prevent_default();
                    toggle_presenter_view();
                    return;
                }
                "f" => {
                    event.prevent_default();
                    toggle_fullscreen();
                    return;
                }
                _ => {}
            }
            if let Some(action) = super::shortcut(&event.key(), event.shift_key()) {
                event.prevent_default();
                dispatcher.dispatch(action);
            }
        });
        move || drop(listener)
    });
}

fn typing_in_a_field(event: &web_sys::KeyboardEvent) -> bool {
    event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|element| matches!(element.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"))
}

/// `v`: into or out of the presenter view, by navigating to the same moment with
/// or without `present` (the shell drops its header and footer for it).
fn toggle_presenter_view() {
    let location = gloo::utils::window().location();
    let route = Route::parse(&location.hash().unwrap_or_default());
    if matches!(route, Route::Case { .. } | Route::Tour { .. }) {
        let _ = location.set_hash(&route.with_flag_toggled("present").to_hash());
    }
}

/// `f`: the whole page fullscreen, or back.
fn toggle_fullscreen() {
    let document = gloo::utils::document();
    if document.fullscreen_element().is_some() {
        document.exit_fullscreen();
    } else if let Some(root) = document.document_element() {
        let _ = root.request_fullscreen();
    }
}

/// Playback while `player.playing`: on every animation frame, a bounded number of
/// units or of simulated time, by the speed's pace.
#[hook]
pub fn use_playback(player: &Player, dispatcher: UseReducerDispatcher<Player>) {
    let units_total = player.run.unit_count(player.query.granularity);
    let end_ns = player.run.end_ns;
    let pace = SPEEDS[player.speed].1;
    use_effect_with((player.playing, player.speed, units_total), move |(playing, _, _)| {
        let running = Rc::new(RefCell::new(*playing));
        if *playing {
            let handle: Rc<RefCell<Option<gloo::render::AnimationFrame>>> = Rc::new(RefCell::new(None));
            // (when play began, units done since, the previous frame's time)
            let start = Rc::new(RefCell::new((now_ms(), 0.0f64, now_ms())));
            schedule_frame(handle.clone(), running.clone(), move |_| {
                let now = now_ms();
                let (began, done, previous) = *start.borrow();
                start.borrow_mut().2 = now;
                let frame_ms = (now - previous).clamped(0.0, FRAME_MS_MAX);
                if let Some(sim_per_ms) = simulated_ns_per_real_ms(pace, end_ns) {
                    let sim_ns = (frame_ms * sim_per_ms).round() as u64;
                    if sim_ns > 0 {
                        dispatcher.dispatch(Action::AdvanceTime(sim_ns));
                    }
                    return;
                }
                let units = match pace {
                    Pace::Steps(per_second) => {
                        let due = (now - began) / 1000.0 * f64::from(per_second);
                        let units = (due - done).floor().max(0.0);
                        start.borrow_mut().1 += units;
                        units as u64
                    }
                    _ => (units_total / MAX_SPEED_FRAMES_PER_RUN).max(1),
                };
                if units > 0 {
                    dispatcher.dispatch(Action::Advance(units.min(UNITS_PER_FRAME_MAX)));
                }
            });
            let running = running.clone();
            return Box::new(move || {
                *running.borrow_mut() = false;
                handle.borrow_mut().take();
            }) as Box<dyn FnOnce()>;
        }
        Box::new(|| ()) as Box<dyn FnOnce()>
    });
}

/// How fast a time pace plays; None for the paces counted in units.
fn simulated_ns_per_real_ms(pace: Pace, end_ns: u64) -> Option<f64> {
    match pace {
        Pace::Scale { sim, real } => Some(1e6 * sim as f64 / real as f64),
        Pace::WholeRunIn(seconds) => Some(end_ns as f64 / (f64::from(seconds) * 1000.0)),
        Pace::Steps(_) | Pace::Max => None,
    }
}

/// Runs `frame` on every animation frame while `running` holds.
fn schedule_frame(
    handle: Rc<RefCell<Option<gloo::render::AnimationFrame>>>,
    running: Rc<RefCell<bool>>,
    frame: impl Fn(f64) + 'static,
) {
    let frame = Rc::new(frame);
    fn next(
        handle: Rc<RefCell<Option<gloo::render::AnimationFrame>>>,
        running: Rc<RefCell<bool>>,
        frame: Rc<dyn Fn(f64)>,
    ) {
        let handle_for_next = handle.clone();
        let animation = gloo::render::request_animation_frame(move |timestamp| {
            if !*running.borrow() {
                return;
            }
            frame(timestamp);
            next(handle_for_next, running, frame);
        });
        *handle.borrow_mut() = Some(animation);
    }
    next(handle, running, frame);
}
