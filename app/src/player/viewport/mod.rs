//! The timeline's geometry and level of detail, as pure functions tested on the
//! host: the visible time window and its time ↔ x mapping, zoom around a point
//! and pan (both clamped to the run), axis ticks and their labels, and the
//! aggregation of a track's spans (or a lock's spans) into device-pixel runs, so
//! that a million spans cost one rectangle per pixel column at most.
//!
//! Times are nanoseconds as `f64` (exact up to 2^53 ns, about 104 days);
//! x is in whatever unit the caller passes the width in (CSS or device pixels).
//!
//! This file holds `Window`; `labels` the ticks and number formats, `tracks` the task-row
//! aggregation, `locks` the lock-row rasters and index, `tests` the host tests.
use crate::player::Clamped;

mod labels;
mod locks;
mod tracks;

#[cfg(test)]
mod tests;

pub use labels::{format_short, group_digits, nice_step, ticks, TickFormat};
pub use locks::{LockIndex, LockRaster, MaskRun, HELD_READ, HELD_WRITE, REPEATED, WAITED};
pub use tracks::{aggregate_track, PixelRun};

/// The narrowest window a zoom can reach, in ns.
pub const MIN_SPAN_NS: f64 = 20.0;

/// The visible time window `[start, start + span)`, in ns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    pub start: f64,
    pub span: f64,
}

/// The whole run as a window: never empty, even for a run of length 0.
fn full_span(end_ns: u64) -> f64 {
    (end_ns as f64).max(1.0)
}

impl Window {
    /// The default window: the whole run (deterministic, so a link shows the same).
    pub fn full(end_ns: u64) -> Window {
        Window { start: 0.0, span: full_span(end_ns) }
    }

    pub fn end(&self) -> f64 {
        self.start + self.span
    }

    /// The same window moved and shrunk to fit `[0, end_ns]`, and no narrower
    /// than `MIN_SPAN_NS` (unless the run itself is shorter).
    pub fn clamped(self, end_ns: u64) -> Window {
        let full = full_span(end_ns);
        let span = if self.span.is_finite() { self.span.clamped(MIN_SPAN_NS.min(full), full) } else { full };
        let start = if self.start.is_finite() { self.start.clamped(0.0, full - span) } else { 0.0 };
        Window { start, span }
    }

    pub fn is_full(&self, end_ns: u64) -> bool {
        self.start <= 0.0 && self.span >= full_span(end_ns)
    }

    /// True when zooming in further would not change anything.
    pub fn at_max_zoom(&self, end_ns: u64) -> bool {
        self.span <= MIN_SPAN_NS.min(full_span(end_ns)) * (1.0 + 1e-9)
    }

    /// Nanoseconds per unit of x for a plot `width` wide.
    pub fn ns_per_px(&self, width: f64) -> f64 {
        self.span / width.max(1.0)
    }

    /// The x of time `t_ns` in a plot `width` wide (0 is the window's start).
    pub fn x_of(&self, t_ns: f64, width: f64) -> f64 {
        (t_ns - self.start) / self.ns_per_px(width)
    }

    /// The time at `x` in a plot `width` wide.
    pub fn t_at(&self, x: f64, width: f64) -> f64 {
        self.start + x * self.ns_per_px(width)
    }

    /// The run time under `x`, as a seek target: rounded and clamped to `[0, end_ns]`.
    pub fn seek_target(&self, x: f64, width: f64, end_ns: u64) -> u64 {
        let t = self.t_at(x.clamped(0.0, width), width).round();
        if t.is_finite() && t > 0.0 {
            (t as u64).min(end_ns)
        } else {
            0
        }
    }

    /// Zooms by `factor` (> 1 zooms in) keeping the time under `anchor_x` under
    /// it, then clamps to the run.
    pub fn zoom_at(self, factor: f64, anchor_x: f64, width: f64, end_ns: u64) -> Window {
        if !(factor.is_finite() && factor > 0.0) {
            return self.clamped(end_ns);
        }
        let width = width.max(1.0);
        let anchor_x = anchor_x.clamped(0.0, width);
        let anchor_t = self.t_at(anchor_x, width);
        let full = full_span(end_ns);
        let span = (self.span / factor).clamped(MIN_SPAN_NS.min(full), full);
        Window { start: anchor_t - anchor_x / width * span, span }.clamped(end_ns)
    }

    /// Moves the window by `dx` (positive: later times), clamped to the run.
    pub fn pan_by(self, dx: f64, width: f64, end_ns: u64) -> Window {
        Window { start: self.start + dx * self.ns_per_px(width), span: self.span }.clamped(end_ns)
    }

    /// Keeps a moving playhead in view: when `now_ns` has left the window (and
    /// the window is zoomed in), pages so it sits near the edge it entered from.
    /// Returns `None` when no change is needed.
    pub fn follow(self, now_ns: u64, end_ns: u64) -> Option<Window> {
        let now = now_ns as f64;
        if self.is_full(end_ns) || (now >= self.start && now <= self.end()) {
            return None;
        }
        let start = if now > self.end() { now - 0.1 * self.span } else { now - 0.9 * self.span };
        Some(Window { start, span: self.span }.clamped(end_ns))
    }
}
