//! The scrub bar: the whole run as a slider, its notable-event ticks and its chapter
//! marks, scaled by micro-ops (the default: every step has its width) or by simulated
//! time (a toggle beside it). A run whose steps crowd into a few instants (a long
//! stall that is one repeat, a burst of work at its end) piles its chapter marks at
//! the bar's ends when it counts steps; by time they spread out as the clock does.

use super::model::Action;
use crate::player::Clamped;
use slowpath_engine::run::format;
use slowpath_engine::Run;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The time-scaled slider's stops: fine enough for any bar a screen can draw, and an
/// arrow key moves by one of them.
const TIME_STOPS: u64 = 10_000;

/// The least distance between two chapter marks on the scrub bar, in % of its width.
const CHAPTER_MARK_GAP_PERCENT: f64 = 3.2;

/// Where a position sits along the bar, 0 to 1: by micro-ops or by simulated time.
fn fraction(run: &Run, position: u64, by_time: bool) -> f64 {
    if by_time {
        run.time_at(position) as f64 / run.end_ns.max(1) as f64
    } else {
        position as f64 / run.total_ops().max(1) as f64
    }
}

#[derive(Properties, Clone)]
pub struct ScrubProps {
    pub run: Rc<Run>,
    pub position: u64,
    pub on_action: Callback<Action>,
    /// Scaled by simulated time (else by micro-ops).
    pub by_time: bool,
}

impl PartialEq for ScrubProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.run, &other.run)
            && self.position == other.position
            && self.on_action == other.on_action
            && self.by_time == other.by_time
    }
}

/// The scrub bar over the whole run, its notable-event markers and its chapter marks,
/// by steps or by simulated time ([`scale_toggle`] switches).
#[function_component(ScrubBar)]
pub fn scrub_bar(props: &ScrubProps) -> Html {
    let (run, by_time) = (&props.run, props.by_time);
    html! {
        <div class="scrub" data-scale={if by_time { "time" } else { "steps" }}>
            { slider(run, props.position, by_time, &props.on_action) }
            <ScrubMarkers run={run.clone()} {by_time} />
            { chapter_marks(run, by_time) }
        </div>
    }
}

/// The checkbox that scales the scrub bar by simulated time (kept on this page, not
/// in the link).
pub fn scale_toggle(by_time: &UseStateHandle<bool>) -> Html {
    let on_toggle = {
        let by_time = by_time.clone();
        Callback::from(move |_: Event| by_time.set(!*by_time))
    };
    html! {
        <label class="transport-field scrub-scale" title="Place the scrub bar's marks by simulated time instead of by step">
            <input type="checkbox" data-testid="scrub-time-scale" checked={**by_time} onchange={on_toggle} />
            <span>{ "Bar by time" }</span>
        </label>
    }
}

/// The range input: a micro-op per stop, or a ten-thousandth of the run's time.
fn slider(run: &Rc<Run>, position: u64, by_time: bool, on_action: &Callback<Action>) -> Html {
    let on_scrub = {
        let (on_action, run) = (on_action.clone(), run.clone());
        Callback::from(move |event: InputEvent| {
            let value = event
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                .map(|i| i.value());
            let Some(value) = value.and_then(|text| slowpath_engine::run::format::parse_decimal(&text))
            else {
                return;
            };
            let position = if by_time {
                let at_ns = value.clamped(0.0, TIME_STOPS as f64) / TIME_STOPS as f64 * run.end_ns as f64;
                run.position_at_time(at_ns.round() as u64)
            } else {
                value.max(0.0) as u64
            };
            on_action.emit(Action::Seek(position));
        })
    };
    if by_time {
        let stop = (fraction(run, position, true) * TIME_STOPS as f64).round() as u64;
        let said = format!("{} of {}", format::duration(run.time_at(position)), format::duration(run.end_ns));
        html! {
            <input type="range" data-testid="scrub" aria-label="Position in the run, by simulated time"
                aria-valuetext={said} min="0" max={TIME_STOPS.to_string()} step="1" value={stop.to_string()}
                oninput={on_scrub} />
        }
    } else {
        html! {
            <input type="range" data-testid="scrub" aria-label="Position in the run" min="0"
                max={run.total_ops().to_string()} step="1" value={position.to_string()} oninput={on_scrub} />
        }
    }
}

/// The chapters as labelled marks at their place in the run, each at least
/// [`CHAPTER_MARK_GAP_PERCENT`] from the next (a badge is ~3 % wide).
fn chapter_marks(run: &Run, by_time: bool) -> Html {
    let places: Vec<f64> = run.chapters.iter().map(|c| fraction(run, c.position, by_time) * 100.0).collect();
    html! {
        { for run.chapters.iter().zip(spread(&places, CHAPTER_MARK_GAP_PERCENT)).enumerate().map(|(index, (chapter, left))| {
            html! {
                <span class="chapter-mark" style={format!("left: {}%", slowpath_engine::run::format::Fixed(left, 3))} aria-hidden="true"
                    title={format!("{}. {}", index + 1, chapter.title)}>{ index + 1 }</span>
            }
        }) }
    }
}

/// Places in 0–100 moved apart by at least `gap`, each as near its own as it can be:
/// a mark that would sit on the one before moves right of it, and marks pushed past
/// the end (moments that share the run's last instant) move back left, so that none
/// is drawn on another at either end.
fn spread(places: &[f64], gap: f64) -> Vec<f64> {
    let mut shown: Vec<f64> = Vec::with_capacity(places.len());
    for &place in places {
        let after = shown.last().map_or(f64::NEG_INFINITY, |last| last + gap);
        shown.push(place.max(after));
    }
    let mut limit = 100.0f64;
    for place in shown.iter_mut().rev() {
        *place = place.min(limit).max(0.0);
        limit = *place - gap;
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::spread;

    #[test]
    fn marks_at_one_instant_spread_back_from_the_end() {
        let shown = spread(&[0.0, 0.0, 31.0, 98.5, 100.0, 100.0, 100.0], 3.2);
        for pair in shown.windows(2) {
            assert!(pair[1] - pair[0] >= 3.2 - 1e-9, "{shown:?}");
        }
        assert_eq!(shown[0], 0.0);
        assert_eq!(shown[2], 31.0);
        assert_eq!(shown[6], 100.0);
    }
}

#[derive(Properties, Clone)]
struct MarkersProps {
    run: Rc<Run>,
    by_time: bool,
}

impl PartialEq for MarkersProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.run, &other.run) && self.by_time == other.by_time
    }
}

/// Notable events as ticks under the scrub bar, on a canvas (there can be thousands).
#[function_component(ScrubMarkers)]
fn scrub_markers(props: &MarkersProps) -> Html {
    let canvas = use_node_ref();
    {
        let canvas = canvas.clone();
        let run = props.run.clone();
        let by_time = props.by_time;
        // The run's address identifies it: a new run is a new allocation.
        // Drawn at the next frame, when layout runs anyway: reading the canvas's width
        // during the first render's effects would force a layout of the whole page
        // inside that task (the longest part of opening a case).
        use_effect_with((Rc::as_ptr(&props.run) as usize, by_time), move |_| {
            let frame = gloo::render::request_animation_frame(move |_| draw_markers(&canvas, &run, by_time));
            move || drop(frame)
        });
    }
    let count = props.run.notable_ops().len();
    html! {
        <canvas ref={canvas} class="scrub-markers" data-testid="scrub-markers" height="10"
            role="img" aria-label={format!("{count} notable events along the run")}></canvas>
    }
}

fn draw_markers(canvas: &NodeRef, run: &Run, by_time: bool) {
    let Some(canvas) = canvas.cast::<web_sys::HtmlCanvasElement>() else { return };
    let width = canvas.client_width().max(1) as u32;
    canvas.set_width(width);
    let Ok(Some(context)) = canvas.get_context("2d") else { return };
    let Ok(context) = context.dyn_into::<web_sys::CanvasRenderingContext2d>() else { return };
    let color = super::canvas::css_var(&canvas, "--marker", "#c2410c");
    context.set_fill_style_str(&color);
    let mut last_x = -1.0;
    for &op in run.notable_ops() {
        let x = (fraction(run, op + 1, by_time) * f64::from(width)).floor();
        if x != last_x {
            context.fill_rect(x, 0.0, 1.5, 10.0);
            last_x = x;
        }
    }
}
