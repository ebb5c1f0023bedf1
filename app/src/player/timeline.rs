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
//! - **Level of detail** (`viewport.rs`): only visible rows are drawn; per row a
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

use super::viewport::{
    aggregate_track, format_short, group_digits, ticks, LockIndex, LockRaster, MaskRun, PixelRun, TickFormat,
    Window, HELD_READ, HELD_WRITE, REPEATED, WAITED,
};
use gloo::events::EventListener;
use slowpath_engine::lock::LockMode;
use slowpath_engine::timeline::{LockSpanKind, SpanState, Timeline as TimelineData};
use slowpath_engine::Run;
use std::fmt::Write as _;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    CanvasPattern, CanvasRenderingContext2d, Element, HtmlCanvasElement, PointerEvent, WheelEvent,
};
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

// Geometry, in CSS pixels.
const AXIS_H: f64 = 30.0;
const LOCK_ROW_H: f64 = 30.0;
/// Up to this many tasks rows are roomy (projector-friendly); beyond, dense.
const ROOMY_MAX_TASKS: usize = 48;
const ROW_H_ROOMY: f64 = 26.0;
const ROW_H_DENSE: f64 = 18.0;
/// Between the lock rows and the task rows.
const SECTION_GAP: f64 = 8.0;
const PAD_RIGHT: f64 = 14.0;
const PAD_BOTTOM: f64 = 4.0;
/// The canvas is at most this fraction of the window's height…
const MAX_HEIGHT_FRACTION: f64 = 0.6;
/// …but never below this.
const MIN_HEIGHT: f64 = 180.0;
const GUTTER_MIN: f64 = 72.0;
const GUTTER_MAX: f64 = 260.0;
/// Axis labels are at least this far apart.
const TICK_GAP: f64 = 100.0;
/// A press that moves less than this is a click.
const DRAG_SLOP: f64 = 4.0;
const BUTTON_ZOOM: f64 = 2.0;
/// Zoom factor per pixel of vertical wheel delta with Ctrl: e^(0.004 × 100) ≈ 1.5 per notch.
const WHEEL_ZOOM_PER_PX: f64 = 0.004;
/// A repeated lock span wider than this (device px / dpr) gets its "×N" label.
const REPEAT_LABEL_MIN_W: f64 = 44.0;

const STATES: usize = SpanState::ALL.len();

/// The CSS name of a state: the suffix of its `--tl-*` colour and legend class.
pub fn state_css_name(state: SpanState) -> &'static str {
    match state {
        SpanState::New => "new",
        SpanState::User => "user",
        SpanState::Kernel => "kernel",
        SpanState::Spinning => "spinning",
        SpanState::Runnable => "runnable",
        SpanState::Sleeping => "sleeping",
        SpanState::Blocked => "blocked",
        SpanState::Stopped => "stopped",
        SpanState::Exiting => "exiting",
        SpanState::Dead => "dead",
    }
}

/// Fallbacks for when timeline.css did not load (light theme).
fn fallback_colour(state: SpanState) -> &'static str {
    match state {
        SpanState::New => "#b9bcc4",
        SpanState::User => "#008a65",
        SpanState::Kernel => "#0067a5",
        SpanState::Spinning => "#e69f00",
        SpanState::Runnable => "#e8c81c",
        SpanState::Sleeping => "#a9bdd6",
        SpanState::Blocked => "#c4500a",
        SpanState::Stopped => "#cc79a7",
        SpanState::Exiting => "#474d5c",
        SpanState::Dead => "#6b7280",
    }
}

/// States drawn as a thin bar: the task does not exist (yet, or any more).
fn is_thin(state: SpanState) -> bool {
    matches!(state, SpanState::New | SpanState::Dead)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Hatch {
    /// `/` stripes: busy waiting.
    Stripes,
    /// `×` cross-hatch: blocked, waiting for a lock.
    Cross,
    /// `|` bars: many repeated iterations summarised.
    Bars,
}

fn hatch_of(state: SpanState) -> Option<Hatch> {
    match state {
        SpanState::Spinning => Some(Hatch::Stripes),
        SpanState::Blocked => Some(Hatch::Cross),
        _ => None,
    }
}

/// Colours and fonts, read from CSS once (and on a colour-scheme change).
struct Palette {
    states: [String; STATES],
    bg: String,
    text: String,
    muted: String,
    grid: String,
    row_alt: String,
    rule: String,
    playhead: String,
    halo: String,
    read: String,
    write: String,
    wait: String,
    hatch: String,
    font_family: String,
    /// Built for `patterns_dpr`.
    stripes: Option<CanvasPattern>,
    cross: Option<CanvasPattern>,
    bars: Option<CanvasPattern>,
    patterns_dpr: f64,
}

impl Palette {
    fn read(element: &Element) -> Palette {
        let style = web_sys::window().and_then(|window| window.get_computed_style(element).ok().flatten());
        let get = |name: &str, fallback: &str| -> String {
            style
                .as_ref()
                .and_then(|style| style.get_property_value(name).ok())
                .map(|value| value.trim().to_string())
                .filter(|value| !value.is_empty())
                .unwrap_or_else(|| fallback.to_string())
        };
        Palette {
            states: SpanState::ALL
                .map(|state| get(&format!("--tl-{}", state_css_name(state)), fallback_colour(state))),
            bg: get("--tl-bg", "#ffffff"),
            text: get("--tl-text", "#111318"),
            muted: get("--tl-muted", "#3f4654"),
            grid: get("--tl-grid", "rgba(17, 19, 24, 0.12)"),
            row_alt: get("--tl-row-alt", "rgba(17, 19, 24, 0.04)"),
            rule: get("--tl-rule", "#5b6170"),
            playhead: get("--tl-playhead", "#111318"),
            halo: get("--tl-halo", "#ffffff"),
            read: get("--tl-read", "#9e86d6"),
            write: get("--tl-write", "#5b2a99"),
            wait: get("--tl-wait", "#c4500a"),
            hatch: get("--tl-hatch", "rgba(17, 19, 24, 0.55)"),
            font_family: get("font-family", "system-ui, sans-serif"),
            stripes: None,
            cross: None,
            bars: None,
            patterns_dpr: 0.0,
        }
    }

    fn ensure_patterns(&mut self, context: &CanvasRenderingContext2d, dpr: f64) {
        if self.patterns_dpr == dpr {
            return;
        }
        self.stripes = make_pattern(context, Hatch::Stripes, &self.hatch, dpr);
        self.cross = make_pattern(context, Hatch::Cross, &self.hatch, dpr);
        self.bars = make_pattern(context, Hatch::Bars, &self.hatch, dpr);
        self.patterns_dpr = dpr;
    }

    fn pattern(&self, hatch: Hatch) -> Option<&CanvasPattern> {
        match hatch {
            Hatch::Stripes => self.stripes.as_ref(),
            Hatch::Cross => self.cross.as_ref(),
            Hatch::Bars => self.bars.as_ref(),
        }
    }
}

/// A small tile with hatch lines, repeated as a fill over a solid colour.
fn make_pattern(
    context: &CanvasRenderingContext2d,
    hatch: Hatch,
    colour: &str,
    dpr: f64,
) -> Option<CanvasPattern> {
    let tile: HtmlCanvasElement = gloo::utils::document().create_element("canvas").ok()?.dyn_into().ok()?;
    let size = (if hatch == Hatch::Bars { 6.0 } else { 7.0 } * dpr).round().max(4.0);
    tile.set_width(size as u32);
    tile.set_height(size as u32);
    let pen: CanvasRenderingContext2d = tile.get_context("2d").ok()??.dyn_into().ok()?;
    pen.set_stroke_style_str(colour);
    pen.set_line_width((1.4 * dpr).max(1.0));
    pen.begin_path();
    match hatch {
        Hatch::Stripes | Hatch::Cross => {
            for k in [-1.0, 0.0, 1.0] {
                pen.move_to(k * size, size);
                pen.line_to(k * size + size, 0.0);
                if hatch == Hatch::Cross {
                    pen.move_to(k * size, 0.0);
                    pen.line_to(k * size + size, size);
                }
            }
        }
        Hatch::Bars => {
            pen.move_to(size / 2.0, 0.0);
            pen.line_to(size / 2.0, size);
        }
    }
    pen.stroke();
    context.create_pattern_with_html_canvas_element(&tile, "repeat").ok().flatten()
}

/// What the run looks like, computed once per timeline.
struct RunCache {
    timeline: Rc<TimelineData>,
    /// Which states occur anywhere (the legend lists only those).
    present: [bool; STATES],
    any_read: bool,
    any_write: bool,
    any_wait: bool,
    any_repeat: bool,
    locks: LockIndex,
    /// The longest task or lock name by characters (measured once a canvas exists).
    longest_name: String,
    /// Its width in CSS px, once measured.
    label_w: Option<f64>,
}

impl RunCache {
    fn new(run: &Run, timeline: Rc<TimelineData>) -> RunCache {
        let mut present = [false; STATES];
        for track in &timeline.tracks {
            for &state in &track.states {
                present[state as usize] = true;
            }
            if present.iter().all(|&seen| seen) {
                break;
            }
        }
        let kinds = |wanted: &dyn Fn(&slowpath_engine::timeline::LockSpan) -> bool| {
            timeline.lock_spans.iter().any(wanted)
        };
        let any_read = kinds(&|span| span.kind == LockSpanKind::Hold(LockMode::Read));
        let any_write = kinds(&|span| span.kind == LockSpanKind::Hold(LockMode::Write));
        let any_wait = kinds(&|span| span.kind == LockSpanKind::Wait);
        let any_repeat = kinds(&|span| span.repeats > 1);
        let longest_name = run
            .layout
            .tasks
            .iter()
            .map(|task| task.name.as_str())
            .chain(run.layout.locks.iter().map(|lock| lock.name.as_str()))
            .max_by_key(|name| name.chars().count())
            .unwrap_or("")
            .to_string();
        RunCache {
            locks: LockIndex::new(&timeline, run.layout.locks.len()),
            timeline,
            present,
            any_read,
            any_write,
            any_wait,
            any_repeat,
            longest_name,
            label_w: None,
        }
    }
}

/// Vertical layout in CSS px.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Geometry {
    width: f64,
    gutter: f64,
    plot_w: f64,
    row_h: f64,
    header_h: f64,
    content_h: f64,
    view_h: f64,
}

impl Geometry {
    fn max_scroll(&self) -> f64 {
        (self.content_h - self.view_h).max(0.0)
    }

    /// The task rows at least partly visible at `scroll_top`.
    fn visible_rows(&self, scroll_top: f64, tasks: usize) -> std::ops::Range<usize> {
        let area = (self.view_h - self.header_h).max(0.0);
        let first = ((scroll_top / self.row_h).floor().max(0.0) as usize).min(tasks);
        let last = (((scroll_top + area) / self.row_h).ceil().max(0.0) as usize).min(tasks);
        first..last.max(first)
    }
}

/// A tooltip: the text and where (CSS px from the canvas's corner).
struct Tip {
    text: String,
    x: f64,
    y: f64,
}

struct Drag {
    pointer: i32,
    start_x: f64,
    last_x: f64,
    moved: bool,
}

/// Reused every frame.
#[derive(Default)]
struct Scratch {
    runs: Vec<PixelRun>,
    masks: Vec<MaskRun>,
    raster: LockRaster,
    /// Rectangles (device px) per task state, filled in one path each.
    rects: [Vec<[f64; 4]>; STATES],
    /// Lock rectangles: read, write, wait, repeated.
    lock_rects: [Vec<[f64; 4]>; 4],
    text: String,
}

pub enum Msg {
    Measure,
    /// Render again (after the first measurement).
    Refresh,
    Theme,
    Scroll,
    Wheel {
        dx: f64,
        dy: f64,
        zoom: bool,
        x: f64,
    },
    Down {
        pointer: i32,
        x: f64,
        y: f64,
    },
    Move {
        pointer: i32,
        x: f64,
        y: f64,
        /// A mouse moving with no button down: show what is under it.
        hover: bool,
    },
    Up {
        pointer: i32,
        x: f64,
    },
    Cancel {
        pointer: i32,
    },
    Leave,
    ZoomIn,
    ZoomOut,
    Fit,
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

fn now_ms() -> f64 {
    web_sys::window().and_then(|window| window.performance()).map_or(0.0, |performance| performance.now())
}

fn plural(count: usize, one: &str, many: &str) -> String {
    if count == 1 {
        format!("1 {one}")
    } else {
        format!("{} {many}", group_digits(count as u64))
    }
}

impl Timeline {
    fn geometry(&self, run: &Run) -> Geometry {
        let tasks = run.layout.tasks.len();
        let locks = run.layout.locks.len();
        let row_h = if tasks <= ROOMY_MAX_TASKS { ROW_H_ROOMY } else { ROW_H_DENSE };
        let header_h = AXIS_H + locks as f64 * LOCK_ROW_H + if locks > 0 { SECTION_GAP } else { 0.0 };
        let content_h = header_h + tasks as f64 * row_h + PAD_BOTTOM;
        let view_h = content_h.min(self.max_height.max(header_h + 3.0 * row_h));
        let width = self.width.max(1.0);
        let label_w = self.cache.label_w.unwrap_or(GUTTER_MIN);
        // At most a third of the width (half on narrow screens), at least GUTTER_MIN when it fits.
        let widest = GUTTER_MAX.min(width * 0.35).max(GUTTER_MIN.min(width * 0.5));
        let gutter = (label_w + 22.0).clamp(GUTTER_MIN.min(widest), widest);
        let plot_w = (width - gutter - PAD_RIGHT).max(1.0);
        Geometry { width, gutter, plot_w, row_h, header_h, content_h, view_h }
    }

    /// Reads sizes from the DOM; true when any changed.
    fn measure(&mut self) -> bool {
        let Some(window) = web_sys::window() else { return false };
        let width =
            self.scroller.cast::<Element>().map_or(0.0, |scroller| f64::from(scroller.client_width()));
        let inner_height = window.inner_height().ok().and_then(|value| value.as_f64()).unwrap_or(800.0);
        let max_height = (inner_height * MAX_HEIGHT_FRACTION).floor().max(MIN_HEIGHT);
        let dpr = window.device_pixel_ratio().clamp(1.0, 4.0);
        let changed = width != self.width || max_height != self.max_height || dpr != self.dpr;
        self.width = width;
        self.max_height = max_height;
        self.dpr = dpr;
        changed
    }

    fn set_window(&mut self, window: Window) -> bool {
        if window == self.window {
            return false;
        }
        self.window = window;
        true
    }

    /// The anchor for button zooms: the playhead when visible, else the middle.
    fn button_anchor(&self, props: &TimelineProps, geometry: &Geometry) -> f64 {
        let x = self.window.x_of(props.now_ns as f64, geometry.plot_w);
        if (0.0..=geometry.plot_w).contains(&x) {
            x
        } else {
            geometry.plot_w / 2.0
        }
    }

    fn pinch_state(&self) -> Option<(f64, f64)> {
        let [(_, x1, y1), (_, x2, y2)] = [*self.pointers.first()?, *self.pointers.get(1)?];
        Some((((x1 - x2).powi(2) + (y1 - y2).powi(2)).sqrt(), (x1 + x2) / 2.0))
    }

    /// What is under (x, y) (CSS px from the canvas's corner), in words.
    fn hit_text(&self, props: &TimelineProps, geometry: &Geometry, x: f64, y: f64) -> Option<String> {
        if x < geometry.gutter || x > geometry.gutter + geometry.plot_w {
            return None;
        }
        let layout = &props.run.layout;
        let timeline = &props.timeline;
        let t = self.window.t_at(x - geometry.gutter, geometry.plot_w).max(0.0);
        let at = format_short(t.round() as u64);
        if y < AXIS_H {
            return Some(format!("{at}: click to jump here"));
        }
        let locks_bottom = AXIS_H + layout.locks.len() as f64 * LOCK_ROW_H;
        if y < locks_bottom {
            let lock = ((y - AXIS_H) / LOCK_ROW_H) as usize;
            let info = layout.locks.get(lock)?;
            // Within two pixels, so a one-pixel hold can be pointed at.
            let slack = 2.0 * self.window.ns_per_px(geometry.plot_w);
            let mut parts: [Vec<&str>; 3] = [Vec::new(), Vec::new(), Vec::new()];
            let mut repeats = 1;
            for span in self.cache.locks.spans_in(timeline, lock, t - slack, t + slack) {
                if (span.start_ns as f64) > t + slack || (span.end_ns as f64) < t - slack {
                    continue;
                }
                let name = layout.tasks.get(span.task.0 as usize).map_or("?", |task| task.name.as_str());
                let slot = match span.kind {
                    LockSpanKind::Hold(LockMode::Write) => 0,
                    LockSpanKind::Hold(LockMode::Read) => 1,
                    LockSpanKind::Wait => 2,
                };
                if !parts[slot].contains(&name) {
                    parts[slot].push(name);
                }
                repeats = repeats.max(span.repeats);
            }
            let names = |list: &[&str]| -> String {
                let shown = list.iter().take(4).copied().collect::<Vec<_>>().join(", ");
                match list.len() {
                    0..=4 => shown,
                    more => format!("{shown} and {} more", more - 4),
                }
            };
            let mut text = format!("{} at {at}: ", info.name);
            let mut said = Vec::new();
            if !parts[0].is_empty() {
                said.push(format!("held for write by {}", names(&parts[0])));
            }
            if !parts[1].is_empty() {
                said.push(format!("held for read by {}", names(&parts[1])));
            }
            if said.is_empty() {
                said.push("free".to_string());
            }
            if !parts[2].is_empty() {
                said.push(format!("waiting: {}", names(&parts[2])));
            }
            text.push_str(&said.join("; "));
            if repeats > 1 {
                text.push_str(&format!(" (one span for {} repeated holds)", group_digits(repeats)));
            }
            return Some(text);
        }
        if y < geometry.header_h {
            return None;
        }
        let row = ((y - geometry.header_h + self.scroll_top) / geometry.row_h).floor();
        let row = if row >= 0.0 { row as usize } else { return None };
        let (task, track) = (layout.tasks.get(row)?, timeline.tracks.get(row)?);
        let t_ns = t.round() as u64;
        let index = track.spans_in(t_ns, t_ns.saturating_add(1)).start;
        let state = *track.states.get(index)?;
        let start = track.starts_ns[index];
        let end = track.span_end(index, timeline.end_ns);
        Some(format!(
            "{} at {at}: {} (from {} to {}, {})",
            task.name,
            state.label(),
            format_short(start),
            format_short(end),
            format_short(end - start)
        ))
    }

    fn aria_label(&self, props: &TimelineProps, geometry: &Geometry) -> String {
        let layout = &props.run.layout;
        let end = props.timeline.end_ns;
        let mut label = format!("Timeline of {}", plural(layout.tasks.len(), "task", "tasks"));
        if !layout.locks.is_empty() {
            label.push_str(&format!(" and {}", plural(layout.locks.len(), "lock", "locks")));
        }
        label.push_str(&format!(" over {}", format_short(end)));
        if !self.window.is_full(end) {
            label.push_str(&format!(
                "; showing {} to {}",
                format_short(self.window.start.round() as u64),
                format_short(self.window.end().round() as u64)
            ));
        }
        let rows = geometry.visible_rows(self.scroll_top, layout.tasks.len());
        if rows.len() < layout.tasks.len() && !rows.is_empty() {
            label.push_str(&format!(
                "; tasks {} to {} in view",
                group_digits(rows.start as u64 + 1),
                group_digits(rows.end as u64)
            ));
        }
        label.push_str(&format!("; playhead at {}.", format_short(props.now_ns)));
        label
    }

    fn draw(&mut self, props: &TimelineProps) {
        let began = now_ms();
        let Some(canvas) = self.canvas.cast::<HtmlCanvasElement>() else { return };
        if self.context.is_none() {
            let options = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&options, &JsValue::from_str("alpha"), &JsValue::FALSE);
            self.context = canvas
                .get_context_with_context_options("2d", &options)
                .ok()
                .flatten()
                .and_then(|context| context.dyn_into::<CanvasRenderingContext2d>().ok());
        }
        let Some(context) = self.context.clone() else { return };
        if self.palette.is_none() {
            if let Some(root) = self.root.cast::<Element>() {
                self.palette = Some(Palette::read(&root));
            }
        }
        let dpr = self.dpr;
        let Some(palette) = self.palette.as_mut() else { return };
        palette.ensure_patterns(&context, dpr);
        if self.cache.label_w.is_none() {
            context.set_font(&format!("700 13px {}", palette.font_family));
            let measured =
                context.measure_text(&self.cache.longest_name).map_or(GUTTER_MIN, |metrics| metrics.width());
            self.cache.label_w = Some(measured);
        }
        let geometry = self.geometry(&props.run);
        let device_w = (geometry.width * dpr).round().max(1.0) as u32;
        let device_h = (geometry.view_h * dpr).round().max(1.0) as u32;
        if canvas.width() != device_w {
            canvas.set_width(device_w);
        }
        if canvas.height() != device_h {
            canvas.set_height(device_h);
        }
        let palette = self.palette.as_ref().expect("read above");
        let scene = Scene {
            context: &context,
            palette,
            dpr,
            w: f64::from(device_w),
            h: f64::from(device_h),
            plot_x0: (geometry.gutter * dpr).round(),
            columns: ((geometry.plot_w * dpr).round().max(1.0)) as u32,
            window: self.window,
            geometry,
        };
        scene.background();
        scene.axis(&mut self.scratch.text);
        scene.locks(props, &self.cache, &mut self.scratch);
        scene.tasks(props, self.scroll_top, &mut self.scratch);
        scene.playhead(props.now_ns);
        let elapsed = now_ms() - began;
        if let Some(window) = web_sys::window() {
            let _ = js_sys::Reflect::set(
                &window,
                &JsValue::from_str("__slowpathTimelineDrawMs"),
                &elapsed.into(),
            );
        }
    }
}

/// One frame's drawing context; everything in device pixels.
struct Scene<'a> {
    context: &'a CanvasRenderingContext2d,
    palette: &'a Palette,
    dpr: f64,
    w: f64,
    h: f64,
    plot_x0: f64,
    columns: u32,
    window: Window,
    geometry: Geometry,
}

impl Scene<'_> {
    fn px(&self, css: f64) -> f64 {
        (css * self.dpr).round()
    }

    fn font(&self, weight: u32, size_css: f64) {
        self.context.set_font(&format!(
            "{weight} {}px {}",
            (size_css * self.dpr).round(),
            self.palette.font_family
        ));
    }

    fn fill_rects(&self, rects: &[[f64; 4]], colour: &str, hatch: Option<Hatch>) {
        if rects.is_empty() {
            return;
        }
        let context = self.context;
        context.begin_path();
        for &[x, y, w, h] in rects {
            context.rect(x, y, w, h);
        }
        context.set_fill_style_str(colour);
        context.fill();
        if let Some(pattern) = hatch.and_then(|hatch| self.palette.pattern(hatch)) {
            context.set_fill_style_canvas_pattern(pattern);
            context.fill();
        }
    }

    fn background(&self) {
        let context = self.context;
        context.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0).ok();
        context.set_fill_style_str(&self.palette.bg);
        context.fill_rect(0.0, 0.0, self.w, self.h);
        // The gutter's edge.
        context.set_fill_style_str(&self.palette.rule);
        context.fill_rect(self.plot_x0 - self.px(1.0).max(1.0), 0.0, self.px(1.0).max(1.0), self.h);
    }

    fn axis(&self, text: &mut String) {
        let context = self.context;
        let axis_h = self.px(AXIS_H);
        let width = f64::from(self.columns);
        let (first, step) = ticks(self.window, width, TICK_GAP * self.dpr);
        let format = TickFormat::new(step, self.window.end().max(0.0) as u64);
        let line = self.px(1.0).max(1.0);
        // Grid lines through every row, and ticks on the axis.
        context.begin_path();
        let mut t = first;
        while (t as f64) <= self.window.end() {
            let x = self.plot_x0 + self.window.x_of(t as f64, width).round();
            context.rect(x, axis_h, line, self.h - axis_h);
            match t.checked_add(step) {
                Some(next) => t = next,
                None => break,
            }
        }
        context.set_fill_style_str(&self.palette.grid);
        context.fill();
        context.set_fill_style_str(&self.palette.rule);
        context.fill_rect(self.plot_x0, axis_h - line, width, line);
        self.font(500, 13.0);
        context.set_text_baseline("middle");
        context.set_text_align("left");
        let mut t = first;
        while (t as f64) <= self.window.end() {
            let x = self.plot_x0 + self.window.x_of(t as f64, width).round();
            context.set_fill_style_str(&self.palette.rule);
            context.fill_rect(x, axis_h - self.px(7.0), line, self.px(7.0));
            text.clear();
            format.write(text, t);
            let fits = x < self.w - self.px(120.0)
                || context
                    .measure_text(text)
                    .is_ok_and(|metrics| x + self.px(4.0) + metrics.width() <= self.w);
            if fits {
                context.set_fill_style_str(&self.palette.muted);
                let _ = context.fill_text(text, x + self.px(4.0), axis_h / 2.0 - self.px(2.0));
            }
            match t.checked_add(step) {
                Some(next) => t = next,
                None => break,
            }
        }
        // The axis's own label, in the gutter.
        context.set_fill_style_str(&self.palette.muted);
        let _ = context.fill_text("time", self.px(8.0), axis_h / 2.0 - self.px(2.0));
    }

    fn locks(&self, props: &TimelineProps, cache: &RunCache, scratch: &mut Scratch) {
        let locks = &props.run.layout.locks;
        if locks.is_empty() {
            return;
        }
        let context = self.context;
        let timeline = &props.timeline;
        let row_h = self.px(LOCK_ROW_H);
        let inset = self.px(3.0);
        let hold_h = ((row_h - 2.0 * inset) * 0.58).round();
        let wait_gap = self.px(2.0);
        let wait_h = row_h - 2.0 * inset - hold_h - wait_gap;
        let width = f64::from(self.columns);
        for rects in &mut scratch.lock_rects {
            rects.clear();
        }
        let (from, to) = (self.window.start, self.window.end());
        for (lock, _) in locks.iter().enumerate() {
            let y = self.px(AXIS_H) + lock as f64 * row_h;
            let spans = cache.locks.spans_in(timeline, lock, from, to);
            scratch.raster.rasterize(spans, self.window, self.columns, &mut scratch.masks);
            for run in &scratch.masks {
                let x = self.plot_x0 + f64::from(run.x0);
                let w = f64::from(run.x1 - run.x0);
                let hold = [x, y + inset, w, hold_h];
                if run.mask & HELD_WRITE != 0 {
                    scratch.lock_rects[1].push(hold);
                } else if run.mask & HELD_READ != 0 {
                    scratch.lock_rects[0].push(hold);
                }
                if run.mask & REPEATED != 0 {
                    scratch.lock_rects[3].push(hold);
                }
                if run.mask & WAITED != 0 {
                    scratch.lock_rects[2].push([x, y + inset + hold_h + wait_gap, w, wait_h]);
                }
            }
        }
        self.fill_rects(&scratch.lock_rects[0], &self.palette.read, None);
        self.fill_rects(&scratch.lock_rects[1], &self.palette.write, None);
        self.fill_rects(&scratch.lock_rects[2], &self.palette.wait, Some(Hatch::Cross));
        if let Some(pattern) = self.palette.pattern(Hatch::Bars) {
            if !scratch.lock_rects[3].is_empty() {
                context.begin_path();
                for &[x, y, w, h] in &scratch.lock_rects[3] {
                    context.rect(x, y, w, h);
                }
                context.set_fill_style_canvas_pattern(pattern);
                context.fill();
            }
        }
        // "×N" on repeated spans wide enough to hold it, and the lock names.
        self.font(700, 12.0);
        context.set_text_baseline("middle");
        context.set_text_align("center");
        let min_w = REPEAT_LABEL_MIN_W * self.dpr;
        for (lock, _) in locks.iter().enumerate() {
            let y = self.px(AXIS_H) + lock as f64 * row_h;
            for span in cache.locks.spans_in(timeline, lock, from, to).filter(|span| span.repeats > 1) {
                let x0 = self.window.x_of(span.start_ns as f64, width).max(0.0);
                let x1 = self.window.x_of(span.end_ns as f64, width).min(width);
                if x1 - x0 < min_w {
                    continue;
                }
                scratch.text.clear();
                let _ = write!(scratch.text, "×{}", span.repeats);
                let text_w = context.measure_text(&scratch.text).map_or(0.0, |metrics| metrics.width());
                if text_w + self.px(8.0) > x1 - x0 {
                    continue;
                }
                let centre = self.plot_x0 + (x0 + x1) / 2.0;
                context.set_fill_style_str(&self.palette.bg);
                context.fill_rect(
                    (centre - text_w / 2.0 - self.px(3.0)).round(),
                    y + inset,
                    (text_w + self.px(6.0)).round(),
                    hold_h,
                );
                context.set_fill_style_str(&self.palette.text);
                let _ = context.fill_text(&scratch.text, centre, y + inset + hold_h / 2.0);
            }
        }
        context.set_text_align("left");
        self.font(700, 13.0);
        context.set_fill_style_str(&self.palette.text);
        context.save();
        context.begin_path();
        context.rect(0.0, 0.0, self.plot_x0 - self.px(6.0), self.h);
        context.clip();
        for (lock, info) in locks.iter().enumerate() {
            let y = self.px(AXIS_H) + lock as f64 * row_h;
            let _ = context.fill_text(&info.name, self.px(8.0), y + row_h / 2.0);
        }
        context.restore();
        // The rule between locks and tasks.
        let y = self.px(AXIS_H) + locks.len() as f64 * row_h + self.px(SECTION_GAP / 2.0);
        context.set_fill_style_str(&self.palette.rule);
        context.fill_rect(0.0, y, self.w, self.px(1.0).max(1.0));
    }

    fn tasks(&self, props: &TimelineProps, scroll_top: f64, scratch: &mut Scratch) {
        let context = self.context;
        let tasks = &props.run.layout.tasks;
        let timeline = &props.timeline;
        let geometry = self.geometry;
        let top = self.px(geometry.header_h);
        let row_h = geometry.row_h * self.dpr;
        let dense = geometry.row_h < ROW_H_ROOMY;
        let inset = self.px(if dense { 2.0 } else { 3.0 }).max(1.0);
        let bar_h = (row_h - 2.0 * inset).round().max(1.0);
        let thin_h = (bar_h / 4.0).round().max(self.px(2.0));
        let rows = geometry.visible_rows(scroll_top, tasks.len());
        let row_y = |row: usize| (top + (row as f64 * geometry.row_h - scroll_top) * self.dpr).round();
        context.save();
        context.begin_path();
        context.rect(0.0, top, self.w, self.h - top);
        context.clip();
        // Alternate rows are shaded a little, so a row is easy to follow across.
        context.begin_path();
        for row in rows.clone().filter(|row| row % 2 == 1) {
            context.rect(0.0, row_y(row), self.w, row_y(row + 1) - row_y(row));
        }
        context.set_fill_style_str(&self.palette.row_alt);
        context.fill();
        for rects in &mut scratch.rects {
            rects.clear();
        }
        for row in rows.clone() {
            let Some(track) = timeline.tracks.get(row) else { continue };
            let y = row_y(row) + inset;
            aggregate_track(track, timeline.end_ns, self.window, self.columns, &mut scratch.runs);
            for run in &scratch.runs {
                let x = self.plot_x0 + f64::from(run.x0);
                let w = f64::from(run.x1 - run.x0);
                let rect = if is_thin(run.state) {
                    [x, y + ((bar_h - thin_h) / 2.0).round(), w, thin_h]
                } else {
                    [x, y, w, bar_h]
                };
                scratch.rects[run.state as usize].push(rect);
            }
        }
        for state in SpanState::ALL {
            self.fill_rects(
                &scratch.rects[state as usize],
                &self.palette.states[state as usize],
                hatch_of(state),
            );
        }
        // Names in the gutter.
        context.begin_path();
        context.rect(0.0, top, self.plot_x0 - self.px(6.0), self.h - top);
        context.clip();
        self.font(500, if dense { 11.0 } else { 13.0 });
        context.set_text_baseline("middle");
        context.set_text_align("left");
        context.set_fill_style_str(&self.palette.text);
        for row in rows {
            if let Some(task) = tasks.get(row) {
                let _ = context.fill_text(&task.name, self.px(8.0), row_y(row) + row_h / 2.0);
            }
        }
        context.restore();
    }

    fn playhead(&self, now_ns: u64) {
        let context = self.context;
        let width = f64::from(self.columns);
        let x = self.window.x_of(now_ns as f64, width);
        if !(-1.0..=width + 1.0).contains(&x) {
            return;
        }
        let x = self.plot_x0 + x.round();
        let line = self.px(2.0).max(2.0);
        let halo = self.px(1.0).max(1.0);
        context.set_fill_style_str(&self.palette.halo);
        context.fill_rect(x - line / 2.0 - halo, 0.0, line + 2.0 * halo, self.h);
        context.set_fill_style_str(&self.palette.playhead);
        context.fill_rect(x - line / 2.0, 0.0, line, self.h);
        // A marker on the axis.
        let size = self.px(6.0);
        context.begin_path();
        context.move_to(x - size, 0.0);
        context.line_to(x + size, 0.0);
        context.line_to(x, size * 1.4);
        context.close_path();
        context.fill();
    }
}

/// Below and right of the pointer, flipped left or up near the far edges.
fn tip_style(tip: &Tip, geometry: &Geometry) -> String {
    // The canvas sits 1px inside the frame (the scroll container's border).
    let (x, y) = (tip.x + 1.0, tip.y + 1.0);
    let flip_x = x > geometry.width * 0.6;
    let flip_y = y > geometry.view_h - 48.0;
    let left = if flip_x { x - 12.0 } else { x + 14.0 };
    let top = if flip_y { y - 10.0 } else { y + 18.0 };
    let shift_x = if flip_x { "-100%" } else { "0" };
    let shift_y = if flip_y { "-100%" } else { "0" };
    format!("left: {left}px; top: {top}px; transform: translate({shift_x}, {shift_y})")
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
        let props = ctx.props();
        let end = props.timeline.end_ns;
        let geometry = self.geometry(&props.run);
        match msg {
            Msg::Measure => self.measure(),
            Msg::Refresh => true,
            Msg::Theme => {
                self.palette = None;
                true
            }
            Msg::Scroll => {
                let top =
                    self.scroller.cast::<Element>().map_or(0.0, |scroller| f64::from(scroller.scroll_top()));
                let top = top.clamp(0.0, geometry.max_scroll());
                let changed = top != self.scroll_top;
                self.scroll_top = top;
                self.tip = None;
                changed
            }
            Msg::Wheel { dx, dy, zoom, x } => {
                self.tip = None;
                let window = if zoom {
                    let factor = (-dy * WHEEL_ZOOM_PER_PX).exp().clamp(0.25, 4.0);
                    self.window.zoom_at(factor, x - geometry.gutter, geometry.plot_w, end)
                } else {
                    let delta = if dx.abs() >= dy.abs() { dx } else { dy };
                    self.window.pan_by(delta, geometry.plot_w, end)
                };
                self.set_window(window)
            }
            Msg::Down { pointer, x, y } => {
                self.tip = None;
                self.pointers.retain(|&(id, _, _)| id != pointer);
                self.pointers.push((pointer, x, y));
                match self.pointers.len() {
                    1 => self.drag = Some(Drag { pointer, start_x: x, last_x: x, moved: false }),
                    _ => {
                        // A second finger: a pinch, never a click.
                        if let Some(drag) = self.drag.as_mut() {
                            drag.moved = true;
                        }
                        self.pinch = self.pinch_state();
                    }
                }
                true
            }
            Msg::Move { pointer, x, y, hover } => {
                let Some(slot) = self.pointers.iter_mut().find(|(id, _, _)| *id == pointer) else {
                    if !hover {
                        return false;
                    }
                    let had_tip = self.tip.is_some();
                    self.tip = self.hit_text(props, &geometry, x, y).map(|text| Tip { text, x, y });
                    return had_tip || self.tip.is_some();
                };
                *slot = (pointer, x, y);
                if self.pointers.len() >= 2 {
                    let (Some((before_dist, before_mid)), Some((dist, mid))) =
                        (self.pinch, self.pinch_state())
                    else {
                        return false;
                    };
                    self.pinch = Some((dist, mid));
                    if before_dist < 1.0 || dist < 1.0 {
                        return false;
                    }
                    let zoomed =
                        self.window.zoom_at(dist / before_dist, mid - geometry.gutter, geometry.plot_w, end);
                    let window = zoomed.pan_by(before_mid - mid, geometry.plot_w, end);
                    return self.set_window(window);
                }
                let Some(drag) = self.drag.as_mut().filter(|drag| drag.pointer == pointer) else {
                    return false;
                };
                if !drag.moved && (x - drag.start_x).abs() > DRAG_SLOP {
                    drag.moved = true;
                }
                if !drag.moved {
                    return false;
                }
                let dx = x - drag.last_x;
                drag.last_x = x;
                let window = self.window.pan_by(-dx, geometry.plot_w, end);
                self.set_window(window);
                // Re-render even without a change: the cursor shows the drag.
                true
            }
            Msg::Up { pointer, x } => {
                self.pointers.retain(|&(id, _, _)| id != pointer);
                if self.pointers.len() < 2 {
                    self.pinch = None;
                }
                let click = self.drag.as_ref().is_some_and(|drag| drag.pointer == pointer && !drag.moved);
                if self.pointers.is_empty() {
                    self.drag = None;
                }
                if click && x >= geometry.gutter {
                    props.on_seek_time.emit(self.window.seek_target(
                        x - geometry.gutter,
                        geometry.plot_w,
                        end,
                    ));
                }
                true
            }
            Msg::Leave => self.tip.take().is_some(),
            Msg::Cancel { pointer } => {
                self.pointers.retain(|&(id, _, _)| id != pointer);
                self.pinch = None;
                self.drag = None;
                true
            }
            Msg::ZoomIn | Msg::ZoomOut => {
                let factor = if matches!(msg, Msg::ZoomIn) { BUTTON_ZOOM } else { 1.0 / BUTTON_ZOOM };
                let anchor = self.button_anchor(props, &geometry);
                let window = self.window.zoom_at(factor, anchor, geometry.plot_w, end);
                self.set_window(window)
            }
            Msg::Fit => self.set_window(Window::full(end)),
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let props = ctx.props();
        let link = ctx.link();
        let end = props.timeline.end_ns;
        let geometry = self.geometry(&props.run);
        let full = self.window.is_full(end);
        let at_max = self.window.at_max_zoom(end);
        let spacer = geometry.content_h - geometry.view_h;
        let on_wheel = link.batch_callback(|event: WheelEvent| {
            let zoom = event.ctrl_key() || event.meta_key();
            let scale = match event.delta_mode() {
                WheelEvent::DOM_DELTA_LINE => 16.0,
                WheelEvent::DOM_DELTA_PAGE => 400.0,
                _ => 1.0,
            };
            let (mut dx, mut dy) = (event.delta_x() * scale, event.delta_y() * scale);
            if event.shift_key() && !zoom && dx == 0.0 {
                // Shift + wheel pans (some browsers already turn it into a horizontal delta).
                (dx, dy) = (dy, 0.0);
            }
            let horizontal = dx.abs() > dy.abs();
            if !(zoom || horizontal) {
                // A plain vertical wheel scrolls the rows (then the page): the browser's job.
                return None;
            }
            event.prevent_default();
            Some(Msg::Wheel {
                dx,
                dy: if horizontal { 0.0 } else { dy },
                zoom,
                x: f64::from(event.offset_x()),
            })
        });
        let on_down = link.batch_callback(|event: PointerEvent| {
            if event.pointer_type() == "mouse" && event.button() != 0 {
                return None;
            }
            if let Some(target) = event.target().and_then(|target| target.dyn_into::<Element>().ok()) {
                let _ = target.set_pointer_capture(event.pointer_id());
            }
            Some(Msg::Down {
                pointer: event.pointer_id(),
                x: f64::from(event.offset_x()),
                y: f64::from(event.offset_y()),
            })
        });
        let on_move = link.callback(|event: PointerEvent| Msg::Move {
            pointer: event.pointer_id(),
            x: f64::from(event.offset_x()),
            y: f64::from(event.offset_y()),
            hover: event.pointer_type() == "mouse" && event.buttons() == 0,
        });
        let on_leave = link.callback(|_: PointerEvent| Msg::Leave);
        let on_up = link.callback(|event: PointerEvent| Msg::Up {
            pointer: event.pointer_id(),
            x: f64::from(event.offset_x()),
        });
        let on_cancel = link.callback(|event: PointerEvent| Msg::Cancel { pointer: event.pointer_id() });
        let on_scroll = link.callback(|_: Event| Msg::Scroll);
        let dragging = self.drag.as_ref().is_some_and(|drag| drag.moved);
        // Whole CSS pixels, as measured: a fractional width would resample the bitmap (blur).
        let canvas_style = if self.width > 0.0 {
            format!("width: {}px; height: {}px", geometry.width, geometry.view_h)
        } else {
            format!("height: {}px", geometry.view_h)
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
                <div class="timeline-scroll" ref={self.scroller.clone()} onscroll={on_scroll}
                    style={format!("height: {}px", geometry.view_h)}>
                    <canvas ref={self.canvas.clone()} data-testid="timeline" role="img"
                        class={classes!("timeline-canvas", dragging.then_some("timeline-dragging"))}
                        style={canvas_style}
                        aria-label={self.aria_label(props, &geometry)}
                        onwheel={on_wheel} onpointerdown={on_down} onpointermove={on_move}
                        onpointerup={on_up} onpointercancel={on_cancel} onpointerleave={on_leave}>
                    </canvas>
                    if spacer > 0.5 {
                        <div class="timeline-spacer" aria-hidden="true" style={format!("height: {spacer}px")}></div>
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
