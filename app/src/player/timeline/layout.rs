//! The vertical layout in CSS px: row heights, gutter, plot width, visible rows, and measuring the DOM.

use super::Timeline;
use crate::player::Clamped;
use slowpath_engine::Run;
use web_sys::Element;

// Geometry, in CSS pixels.
pub(super) const AXIS_H: f64 = 30.0;
pub(super) const LOCK_ROW_H: f64 = 30.0;
/// Up to this many tasks rows are roomy (projector-friendly); beyond, dense.
const ROOMY_MAX_TASKS: usize = 48;
pub(super) const ROW_H_ROOMY: f64 = 26.0;
const ROW_H_DENSE: f64 = 18.0;
/// Between the lock rows and the task rows.
pub(super) const SECTION_GAP: f64 = 8.0;
const PAD_RIGHT: f64 = 14.0;
const PAD_BOTTOM: f64 = 4.0;
/// The canvas is at most this fraction of the window's height…
const MAX_HEIGHT_FRACTION: f64 = 0.6;
/// …but never below this.
pub(super) const MIN_HEIGHT: f64 = 180.0;
pub(super) const GUTTER_MIN: f64 = 72.0;
const GUTTER_MAX: f64 = 260.0;

/// Vertical layout in CSS px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Geometry {
    pub(super) width: f64,
    pub(super) gutter: f64,
    pub(super) plot_w: f64,
    pub(super) row_h: f64,
    pub(super) header_h: f64,
    pub(super) content_h: f64,
    pub(super) view_h: f64,
}

impl Geometry {
    pub(super) fn max_scroll(&self) -> f64 {
        (self.content_h - self.view_h).max(0.0)
    }

    /// The task rows at least partly visible at `scroll_top`.
    pub(super) fn visible_rows(&self, scroll_top: f64, tasks: usize) -> std::ops::Range<usize> {
        let area = (self.view_h - self.header_h).max(0.0);
        let first = ((scroll_top / self.row_h).floor().max(0.0) as usize).min(tasks);
        let last = (((scroll_top + area) / self.row_h).ceil().max(0.0) as usize).min(tasks);
        first..last.max(first)
    }
}

impl Timeline {
    pub(super) fn geometry(&self, run: &Run) -> Geometry {
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
        let gutter = (label_w + 22.0).clamped(GUTTER_MIN.min(widest), widest);
        let plot_w = (width - gutter - PAD_RIGHT).max(1.0);
        Geometry { width, gutter, plot_w, row_h, header_h, content_h, view_h }
    }

    /// Reads sizes from the DOM; true when any changed.
    pub(super) fn measure(&mut self) -> bool {
        let Some(window) = web_sys::window() else { return false };
        let width =
            self.scroller.cast::<Element>().map_or(0.0, |scroller| f64::from(scroller.client_width()));
        let inner_height = window.inner_height().ok().and_then(|value| value.as_f64()).unwrap_or(800.0);
        let max_height = (inner_height * MAX_HEIGHT_FRACTION).floor().max(MIN_HEIGHT);
        let dpr = window.device_pixel_ratio().clamped(1.0, 4.0);
        let changed = width != self.width || max_height != self.max_height || dpr != self.dpr;
        self.width = width;
        self.max_height = max_height;
        self.dpr = dpr;
        changed
    }
}
