//! Pointer, wheel and touch interaction: the messages, and how they zoom, pan, pinch, hover and seek.

use super::describe::Tip;
use super::layout::Geometry;
use super::{Timeline, TimelineProps};
use crate::player::viewport::Window;
use crate::player::Clamped;
use wasm_bindgen::JsCast;
use web_sys::{Element, PointerEvent, WheelEvent};

/// A press that moves less than this is a click.
const DRAG_SLOP: f64 = 4.0;
const BUTTON_ZOOM: f64 = 2.0;
/// Zoom factor per pixel of vertical wheel delta with Ctrl: e^(0.004 × 100) ≈ 1.5 per notch.
const WHEEL_ZOOM_PER_PX: f64 = 0.004;

pub(super) struct Drag {
    pointer: i32,
    start_x: f64,
    last_x: f64,
    pub(super) moved: bool,
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

impl Timeline {
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

    /// Applies one message; true when the component should render again.
    pub(super) fn apply(&mut self, props: &TimelineProps, msg: Msg) -> bool {
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
                let top = top.clamped(0.0, geometry.max_scroll());
                let changed = top != self.scroll_top;
                self.scroll_top = top;
                self.tip = None;
                changed
            }
            Msg::Wheel { dx, dy, zoom, x } => self.wheel(&geometry, end, (dx, dy), zoom, x),
            Msg::Down { pointer, x, y } => self.pointer_down(pointer, x, y),
            Msg::Move { pointer, x, y, hover } => {
                self.pointer_moved(props, &geometry, pointer, (x, y), hover)
            }
            Msg::Up { pointer, x } => self.pointer_up(props, &geometry, pointer, x),
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

    /// A wheel: zoom about the pointer with Ctrl, else pan by the larger delta.
    fn wheel(&mut self, geometry: &Geometry, end: u64, (dx, dy): (f64, f64), zoom: bool, x: f64) -> bool {
        self.tip = None;
        let window = if zoom {
            let factor = (-dy * WHEEL_ZOOM_PER_PX).exp().clamped(0.25, 4.0);
            self.window.zoom_at(factor, x - geometry.gutter, geometry.plot_w, end)
        } else {
            let delta = if dx.abs() >= dy.abs() { dx } else { dy };
            self.window.pan_by(delta, geometry.plot_w, end)
        };
        self.set_window(window)
    }

    /// A press: the first pointer may start a drag; a second finger makes it a pinch.
    fn pointer_down(&mut self, pointer: i32, x: f64, y: f64) -> bool {
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

    /// A move: a hover shows what is under the mouse; with two pointers down it
    /// pinches, with one it drags.
    fn pointer_moved(
        &mut self,
        props: &TimelineProps,
        geometry: &Geometry,
        pointer: i32,
        (x, y): (f64, f64),
        hover: bool,
    ) -> bool {
        let end = props.timeline.end_ns;
        let Some(slot) = self.pointers.iter_mut().find(|(id, _, _)| *id == pointer) else {
            if !hover {
                return false;
            }
            let had_tip = self.tip.is_some();
            self.tip = self.hit_text(props, geometry, x, y).map(|text| Tip { text, x, y });
            return had_tip || self.tip.is_some();
        };
        *slot = (pointer, x, y);
        if self.pointers.len() >= 2 {
            return self.pinch_moved(geometry, end);
        }
        self.drag_moved(geometry, end, pointer, x)
    }

    /// Two fingers moved: zoom by the change in their distance, pan by the move of
    /// their middle.
    fn pinch_moved(&mut self, geometry: &Geometry, end: u64) -> bool {
        let (Some((before_dist, before_mid)), Some((dist, mid))) = (self.pinch, self.pinch_state()) else {
            return false;
        };
        self.pinch = Some((dist, mid));
        if before_dist < 1.0 || dist < 1.0 {
            return false;
        }
        let zoomed = self.window.zoom_at(dist / before_dist, mid - geometry.gutter, geometry.plot_w, end);
        let window = zoomed.pan_by(before_mid - mid, geometry.plot_w, end);
        self.set_window(window)
    }

    /// The dragging pointer moved: past the slop it is a drag and pans the window.
    fn drag_moved(&mut self, geometry: &Geometry, end: u64, pointer: i32, x: f64) -> bool {
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

    /// A release: a press that did not move is a click, which seeks to its time.
    fn pointer_up(&mut self, props: &TimelineProps, geometry: &Geometry, pointer: i32, x: f64) -> bool {
        let end = props.timeline.end_ns;
        self.pointers.retain(|&(id, _, _)| id != pointer);
        if self.pointers.len() < 2 {
            self.pinch = None;
        }
        let click = self.drag.as_ref().is_some_and(|drag| drag.pointer == pointer && !drag.moved);
        if self.pointers.is_empty() {
            self.drag = None;
        }
        if click && x >= geometry.gutter {
            props.on_seek_time.emit(self.window.seek_target(x - geometry.gutter, geometry.plot_w, end));
        }
        true
    }
}

/// A wheel over the canvas: zoom (Ctrl/⌘) or pan (horizontal, or Shift); a plain
/// vertical wheel is left to the browser.
pub(super) fn wheel_msg(event: WheelEvent) -> Option<Msg> {
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
    Some(Msg::Wheel { dx, dy: if horizontal { 0.0 } else { dy }, zoom, x: f64::from(event.offset_x()) })
}

/// A press: a mouse's main button, a finger or a pen; captures the pointer.
pub(super) fn down_msg(event: PointerEvent) -> Option<Msg> {
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
}

pub(super) fn move_msg(event: PointerEvent) -> Msg {
    Msg::Move {
        pointer: event.pointer_id(),
        x: f64::from(event.offset_x()),
        y: f64::from(event.offset_y()),
        hover: event.pointer_type() == "mouse" && event.buttons() == 0,
    }
}

pub(super) fn up_msg(event: PointerEvent) -> Msg {
    Msg::Up { pointer: event.pointer_id(), x: f64::from(event.offset_x()) }
}

pub(super) fn cancel_msg(event: PointerEvent) -> Msg {
    Msg::Cancel { pointer: event.pointer_id() }
}
