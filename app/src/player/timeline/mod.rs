//! The timeline: one canvas row per task coloured by state, lock rows above
//! them (holds for read or write, waits, repeats), a time axis and the
//! playhead, with a DOM toolbar (zoom in, zoom out, fit), hint and legend.
//!
//! - **Zoom**: Ctrl/⌘ + wheel (a trackpad pinch sends the same) around the
//!   pointer, two-finger pinch on touch screens, and the toolbar buttons.
//!   **Pan**: drag, or a horizontal wheel (Shift + wheel, trackpad swipe).
//!   **Seek**: a click (or tap) without dragging emits the time under it.
//!   A plain vertical wheel is left to the browser: it scrolls the task rows
//!   (then the page), as everywhere else.
//! - **Scroll**: the canvas is `position: sticky` inside a scroll container
//!   whose spacer is as tall as all the rows; the scroll offset picks the task
//!   rows to draw. The axis and lock rows stay on top.
//! - **Level of detail** (`player/viewport/`): only visible rows are drawn; per row a
//!   binary search finds the spans in the window, and spans narrower than a
//!   device pixel merge into one column showing the state that dominates it.
//!   Rectangles are batched per state into one path (one `fill` per colour).
//! - Colours are CSS custom properties (`--tl-*`, static/timeline.css) read once,
//!   and again when the colour scheme changes. Blocked and spinning also carry
//!   a hatch, and "not started" / "dead" are thin bars, so no state relies on
//!   hue alone.
//! - Every prop change redraws synchronously (the playhead moves every frame
//!   while playing); buffers are reused, so a redraw allocates next to nothing.
//!   The last redraw's duration is exposed as `window.__slowpathTimelineDrawMs`.
//! - Keys are not handled here: the player owns the keyboard.
//!
//! This file holds the component; `draw` paints the canvas, `interact` turns events into
//! zooms, pans and seeks, `layout` sizes rows, `theme` holds colours, `describe` the
//! tooltip and aria label, `cache` what is computed once per run.

mod cache;
mod describe;
mod draw;
mod interact;
mod layout;
mod theme;

pub use interact::Msg;
pub use theme::state_css_name;

use super::viewport::Window;
use cache::RunCache;
use describe::{tip_style, Tip};
use draw::Scratch;
use gloo::events::EventListener;
use interact::{cancel_msg, down_msg, move_msg, up_msg, wheel_msg, Drag};
use layout::MIN_HEIGHT;
use slowpath_engine::run::timeline::{SpanState, Timeline as TimelineData};
use slowpath_engine::Run;
use std::rc::Rc;
use theme::Palette;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, Element};
use yew::prelude::*;

#[derive(Properties, Clone)]
pub struct TimelineProps {
    pub run: Rc<Run>,
    pub timeline: Rc<TimelineData>,
    /// The playhead: simulated time of the current position.
    pub now_ns: u64,
    /// Click to seek: the simulated time under the pointer.
    pub on_seek_time: Callback<u64>,
}

impl PartialEq for TimelineProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.run, &other.run)
            && Rc::ptr_eq(&self.timeline, &other.timeline)
            && self.now_ns == other.now_ns
    }
}

pub struct Timeline {
    root: NodeRef,
    scroller: NodeRef,
    canvas: NodeRef,
    context: Option<CanvasRenderingContext2d>,
    palette: Option<Palette>,
    cache: RunCache,
    window: Window,
    scroll_top: f64,
    /// The scroll container's inner width, the window's height and the pixel ratio.
    width: f64,
    max_height: f64,
    dpr: f64,
    /// Pointers down on the canvas (id, x, y in CSS px from the canvas's corner).
    pointers: Vec<(i32, f64, f64)>,
    drag: Option<Drag>,
    /// Distance and midpoint of a two-finger pinch.
    pinch: Option<(f64, f64)>,
    /// What the mouse is over.
    tip: Option<Tip>,
    scratch: Scratch,
    observer: Option<(web_sys::ResizeObserver, Closure<dyn FnMut()>)>,
    listeners: Vec<EventListener>,
}

impl Component for Timeline {
    type Message = Msg;
    type Properties = TimelineProps;

    fn create(ctx: &Context<Self>) -> Self {
        let props = ctx.props();
        Timeline {
            root: NodeRef::default(),
            scroller: NodeRef::default(),
            canvas: NodeRef::default(),
            context: None,
            palette: None,
            cache: RunCache::new(&props.run, props.timeline.clone()),
            window: Window::full(props.timeline.end_ns),
            scroll_top: 0.0,
            width: 0.0,
            max_height: MIN_HEIGHT,
            dpr: 1.0,
            pointers: Vec::new(),
            drag: None,
            pinch: None,
            tip: None,
            scratch: Scratch::default(),
            observer: None,
            listeners: Vec::new(),
        }
    }

    fn changed(&mut self, ctx: &Context<Self>, old: &Self::Properties) -> bool {
        let props = ctx.props();
        let end = props.timeline.end_ns;
        if !Rc::ptr_eq(&props.timeline, &self.cache.timeline) || !Rc::ptr_eq(&props.run, &old.run) {
            // Another run: back to the whole of it, at the top.
            self.cache = RunCache::new(&props.run, props.timeline.clone());
            self.window = Window::full(end);
            self.scroll_top = 0.0;
            if let Some(scroller) = self.scroller.cast::<Element>() {
                scroller.set_scroll_top(0);
            }
        } else if props.now_ns != old.now_ns {
            // Follow a playhead that walks out of a zoomed window (not one the user panned away from).
            let was_visible = (self.window.start..=self.window.end()).contains(&(old.now_ns as f64));
            if was_visible {
                if let Some(window) = self.window.follow(props.now_ns, end) {
                    self.window = window;
                }
            }
        }
        true
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Self::Message) -> bool {
        self.apply(ctx.props(), msg)
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let props = ctx.props();
        let link = ctx.link();
        let end = props.timeline.end_ns;
        let geometry = self.geometry(&props.run);
        let full = self.window.is_full(end);
        let at_max = self.window.at_max_zoom(end);
        let spacer = geometry.content_h - geometry.view_h;
        let on_wheel = link.batch_callback(wheel_msg);
        let on_down = link.batch_callback(down_msg);
        let on_move = link.callback(move_msg);
        let on_leave = link.callback(|_: PointerEvent| Msg::Leave);
        let on_up = link.callback(up_msg);
        let on_cancel = link.callback(cancel_msg);
        let on_scroll = link.callback(|_: Event| Msg::Scroll);
        let dragging = self.drag.as_ref().is_some_and(|drag| drag.moved);
        // Whole CSS pixels, as measured: a fractional width would resample the bitmap (blur).
        let canvas_style = if self.width > 0.0 {
            format!(
                "width: {}px; height: {}px",
                slowpath_engine::run::format::Shortest(geometry.width),
                slowpath_engine::run::format::Shortest(geometry.view_h)
            )
        } else {
            format!("height: {}px", slowpath_engine::run::format::Shortest(geometry.view_h))
        };
        let button = |label: &'static str,
                      title: &'static str,
                      text: &'static str,
                      disabled: bool,
                      msg: fn() -> Msg| {
            html! {
                <button type="button" class="timeline-button" aria-label={label} title={title}
                    aria-disabled={if disabled { "true" } else { "false" }}
                    onclick={link.batch_callback(move |_: MouseEvent| (!disabled).then(msg))}>
                    { text }
                </button>
            }
        };
        let cache = &self.cache;
        let legend_states = SpanState::ALL.into_iter().filter(|state| cache.present[*state as usize]);
        let has_locks = !props.run.layout.locks.is_empty();
        html! {
            <section class="panel timeline" ref={self.root.clone()} aria-labelledby="timeline-title">
                <div class="timeline-head">
                    <h2 id="timeline-title">{ "Timeline" }</h2>
                    <div class="timeline-tools" role="group" aria-label="Timeline zoom">
                        { button("Zoom in", "Zoom in (Ctrl + wheel)", "+", at_max, || Msg::ZoomIn) }
                        { button("Zoom out", "Zoom out (Ctrl + wheel)", "−", full, || Msg::ZoomOut) }
                        { button("Fit the whole run", "Show the whole run", "Fit", full, || Msg::Fit) }
                    </div>
                    <p class="timeline-hint">
                        <kbd>{ "Ctrl" }</kbd>{ " + wheel or pinch: zoom · drag or " }<kbd>{ "Shift" }</kbd>
                        { " + wheel: pan · wheel: scroll tasks · click: jump there" }
                    </p>
                </div>
                <div class="timeline-frame">
                // Focusable: a keyboard reaches every track when the tracks scroll.
                <div class="timeline-scroll" ref={self.scroller.clone()} onscroll={on_scroll} tabindex="0" role="region"
                    aria-label="Timeline tracks, scrollable" style={format!("height: {}px", slowpath_engine::run::format::Shortest(geometry.view_h))}>
                    <canvas ref={self.canvas.clone()} data-testid="timeline" role="img"
                        class={classes!("timeline-canvas", dragging.then_some("timeline-dragging"))}
                        style={canvas_style}
                        aria-label={self.aria_label(props, &geometry)}
                        onwheel={on_wheel} onpointerdown={on_down} onpointermove={on_move}
                        onpointerup={on_up} onpointercancel={on_cancel} onpointerleave={on_leave}>
                    </canvas>
                    if spacer > 0.5 {
                        <div class="timeline-spacer" aria-hidden="true" style={format!("height: {}px", slowpath_engine::run::format::Shortest(spacer))}></div>
                    }
                </div>
                if let Some(tip) = &self.tip {
                    <div class="timeline-tip" aria-hidden="true" style={tip_style(tip, &geometry)}>{ &tip.text }</div>
                }
                </div>
                <ul class="timeline-legend" aria-label="Legend">
                    { for legend_states.map(|state| html! {
                        <li><span class={classes!("tl-swatch", format!("tl-swatch-{}", state_css_name(state)))} aria-hidden="true"></span>{ state.label() }</li>
                    }) }
                    if has_locks && cache.any_write {
                        <li><span class="tl-swatch tl-swatch-write" aria-hidden="true"></span>{ "lock held for write" }</li>
                    }
                    if has_locks && cache.any_read {
                        <li><span class="tl-swatch tl-swatch-read" aria-hidden="true"></span>{ "lock held for read" }</li>
                    }
                    if has_locks && cache.any_wait {
                        <li><span class="tl-swatch tl-swatch-wait" aria-hidden="true"></span>{ "waiting for the lock" }</li>
                    }
                    if has_locks && cache.any_repeat {
                        <li><span class="tl-swatch tl-swatch-repeat" aria-hidden="true"></span>{ "repeated holds (×N)" }</li>
                    }
                    <li><span class="tl-swatch tl-swatch-playhead" aria-hidden="true"></span>{ "now (playhead)" }</li>
                </ul>
            </section>
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        if first_render {
            let link = ctx.link().clone();
            let on_resize = Closure::<dyn FnMut()>::new(move || link.send_message(Msg::Measure));
            if let (Ok(observer), Some(scroller)) = (
                web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()),
                self.scroller.cast::<Element>(),
            ) {
                observer.observe(&scroller);
                self.observer = Some((observer, on_resize));
            }
            if let Some(window) = web_sys::window() {
                // The height cap follows the window; a browser zoom changes the pixel ratio.
                let link = ctx.link().clone();
                self.listeners
                    .push(EventListener::new(&window, "resize", move |_| link.send_message(Msg::Measure)));
                if let Ok(Some(query)) = window.match_media("(prefers-color-scheme: dark)") {
                    let link = ctx.link().clone();
                    self.listeners
                        .push(EventListener::new(&query, "change", move |_| link.send_message(Msg::Theme)));
                }
            }
            // The measured size changes the layout (heights, spacer): render again, then draw.
            self.measure();
            ctx.link().send_message(Msg::Refresh);
        }
        self.draw(ctx.props());
    }

    fn destroy(&mut self, _ctx: &Context<Self>) {
        if let Some((observer, _)) = self.observer.take() {
            observer.disconnect();
        }
        self.listeners.clear();
    }
}
