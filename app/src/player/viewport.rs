//! The timeline's geometry and level of detail, as pure functions tested on the
//! host: the visible time window and its time ↔ x mapping, zoom around a point
//! and pan (both clamped to the run), axis ticks and their labels, and the
//! aggregation of a track's spans (or a lock's spans) into device-pixel runs, so
//! that a million spans cost one rectangle per pixel column at most.
//!
//! Times are nanoseconds as `f64` (exact up to 2^53 ns, about 104 days);
//! x is in whatever unit the caller passes the width in (CSS or device pixels).

use slowpath_engine::lock::LockMode;
use slowpath_engine::timeline::{LockSpan, LockSpanKind, SpanState, Timeline, Track};
use std::fmt::Write as _;

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
        let span = if self.span.is_finite() { self.span.clamp(MIN_SPAN_NS.min(full), full) } else { full };
        let start = if self.start.is_finite() { self.start.clamp(0.0, full - span) } else { 0.0 };
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
        let t = self.t_at(x.clamp(0.0, width), width).round();
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
        let anchor_x = anchor_x.clamp(0.0, width);
        let anchor_t = self.t_at(anchor_x, width);
        let full = full_span(end_ns);
        let span = (self.span / factor).clamp(MIN_SPAN_NS.min(full), full);
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

/// The smallest 1, 2 or 5 × 10^k ns (at least 1 ns) not below `raw_ns`.
pub fn nice_step(raw_ns: f64) -> u64 {
    let mut power: u64 = 1;
    loop {
        for mantissa in [1u64, 2, 5] {
            let step = mantissa.saturating_mul(power);
            if step as f64 >= raw_ns || step == u64::MAX {
                return step;
            }
        }
        power = power.saturating_mul(10);
    }
}

/// Axis ticks: the first tick at or after the window's start, and the step.
pub fn ticks(window: Window, width: f64, min_gap: f64) -> (u64, u64) {
    let step = nice_step(window.ns_per_px(width) * min_gap);
    let first = (window.start.max(0.0) / step as f64).ceil() as u64 * step;
    (first, step)
}

/// How tick labels read for one axis: one unit and a fixed number of decimals,
/// so labels line up (`0.5 s`, `1.0 s`, `1.5 s`; `12.345601 s` when zoomed deep).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TickFormat {
    unit_ns: u64,
    unit: &'static str,
    decimals: u32,
}

const UNITS: [(u64, &str); 4] = [(1_000_000_000, "s"), (1_000_000, "ms"), (1_000, "µs"), (1, "ns")];

impl TickFormat {
    /// For ticks `step_ns` apart up to `max_ns`: the largest unit not above the
    /// largest value, with enough decimals to tell neighbours apart.
    pub fn new(step_ns: u64, max_ns: u64) -> TickFormat {
        let step_ns = step_ns.max(1);
        let top = max_ns.max(step_ns);
        let (unit_ns, unit) = UNITS.iter().copied().find(|&(unit_ns, _)| top >= unit_ns).unwrap_or((1, "ns"));
        let mut decimals = 0;
        let mut resolution = unit_ns;
        while resolution > 1 && step_ns % resolution != 0 {
            resolution /= 10;
            decimals += 1;
        }
        TickFormat { unit_ns, unit, decimals }
    }

    /// Appends the label of `t_ns` (a multiple of the step) to `out`.
    pub fn write(&self, out: &mut String, t_ns: u64) {
        let whole = t_ns / self.unit_ns;
        let _ = write!(out, "{whole}");
        if self.decimals > 0 {
            let scale = 10u64.pow(self.decimals);
            let fraction = (t_ns % self.unit_ns) / (self.unit_ns / scale);
            let _ = write!(out, ".{fraction:0width$}", width = self.decimals as usize);
        }
        out.push(' ');
        out.push_str(self.unit);
    }
}

/// A duration or instant for prose (aria labels): three significant digits,
/// `0`, `950 ns`, `3.21 ms`, `20 ms`, `1.5 s`.
pub fn format_short(ns: u64) -> String {
    if ns == 0 {
        return "0".to_string();
    }
    let (unit_ns, unit) = UNITS.iter().copied().find(|&(unit_ns, _)| ns >= unit_ns).unwrap_or((1, "ns"));
    let value = ns as f64 / unit_ns as f64;
    let decimals = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    let text = format!("{value:.decimals$}");
    let text = if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.') } else { &text };
    format!("{text} {unit}")
}

/// `16384` → `16,384`: counts in prose.
pub fn group_digits(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Columns `[x0, x1)` of one plot row showing one state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PixelRun {
    pub x0: u32,
    pub x1: u32,
    pub state: SpanState,
}

fn push_run(out: &mut Vec<PixelRun>, x0: u32, x1: u32, state: SpanState) {
    if x1 <= x0 {
        return;
    }
    if let Some(last) = out.last_mut() {
        if last.x1 == x0 && last.state == state {
            last.x1 = x1;
            return;
        }
    }
    out.push(PixelRun { x0, x1, state });
}

/// The state that covers most of a column; a tie goes to the earlier state in
/// `SpanState::ALL`, so the result never depends on span order.
fn dominant(weights: &[f64; SpanState::ALL.len()]) -> Option<SpanState> {
    let mut best: Option<(usize, f64)> = None;
    for (index, &weight) in weights.iter().enumerate() {
        if weight > 0.0 && best.is_none_or(|(_, top)| weight > top) {
            best = Some((index, weight));
        }
    }
    best.map(|(index, _)| SpanState::ALL[index])
}

/// Aggregates the spans of `track` that overlap `window` into runs over
/// `columns` pixel columns (column `c` covers `window.start + [c, c + 1) ×
/// span / columns`). A span that covers whole columns becomes a run of its
/// own; a column that several spans share shows the state that dominates it
/// (most time; ties to the earlier state). Adjacent equal runs are merged.
/// Cost: one binary search plus the spans in the window; no allocation once
/// `out` has grown.
pub fn aggregate_track(track: &Track, end_ns: u64, window: Window, columns: u32, out: &mut Vec<PixelRun>) {
    out.clear();
    if columns == 0 || track.starts_ns.is_empty() {
        return;
    }
    let npp = window.ns_per_px(f64::from(columns));
    let from = window.start.max(0.0);
    let to = window.end().min(end_ns as f64);
    if to <= from {
        return;
    }
    // Where column `c` ends, in ns.
    let column_end = |c: u32| window.start + f64::from(c + 1) * npp;
    let column_of = |t: f64| (((t - window.start) / npp).floor().max(0.0) as u32).min(columns);
    // The open column and the time (ns) each state has in it so far. Spans are
    // contiguous, so every span starts in the open column: the common case of
    // many spans per column is one comparison and one addition per span.
    let mut column = column_of(from).min(columns - 1);
    let mut boundary = column_end(column);
    let mut weights = [0f64; SpanState::ALL.len()];
    let starts = &track.starts_ns;
    for index in track.spans_in(from.floor() as u64, to.ceil() as u64) {
        let start = (starts[index] as f64).max(from);
        let end = (track.span_end(index, end_ns) as f64).min(to);
        if end <= start {
            continue;
        }
        let state = track.states[index];
        if end <= boundary {
            weights[state as usize] += end - start;
            continue;
        }
        // Crosses the end of the open column: finish it, fill whole columns, open the last.
        weights[state as usize] += (boundary - start).max(0.0);
        if let Some(best) = dominant(&weights) {
            push_run(out, column, column + 1, best);
        }
        weights = [0.0; SpanState::ALL.len()];
        let last = column_of(end).max(column + 1);
        push_run(out, column + 1, last, state);
        if last >= columns {
            return;
        }
        column = last;
        boundary = column_end(column);
        weights[state as usize] += (end - (boundary - npp)).max(0.0);
    }
    if let Some(best) = dominant(&weights) {
        push_run(out, column, column + 1, best);
    }
}

/// Bits of a lock row's pixel column (see `rasterize_lock`).
pub const HELD_READ: u8 = 1;
pub const HELD_WRITE: u8 = 2;
pub const WAITED: u8 = 4;
pub const REPEATED: u8 = 8;

/// Columns `[x0, x1)` of a lock row with the same mask of `HELD_READ` … `REPEATED`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaskRun {
    pub x0: u32,
    pub x1: u32,
    pub mask: u8,
}

/// Reusable buffers for `rasterize_lock` (one difference array per bit).
#[derive(Default)]
pub struct LockRaster {
    diff: [Vec<i32>; 4],
}

impl LockRaster {
    /// Rasterises lock spans over `columns` columns: a column gets a bit when
    /// any span of that kind touches it, so a 1 ns hold still shows as one
    /// column. Writes the runs of equal non-zero masks to `out`. Cost: the
    /// spans plus the columns, whatever the overlap.
    pub fn rasterize<'a>(
        &mut self,
        spans: impl Iterator<Item = &'a LockSpan>,
        window: Window,
        columns: u32,
        out: &mut Vec<MaskRun>,
    ) {
        out.clear();
        if columns == 0 {
            return;
        }
        let size = columns as usize + 1;
        for diff in &mut self.diff {
            diff.clear();
            diff.resize(size, 0);
        }
        let width = f64::from(columns);
        let npp = window.ns_per_px(width);
        for span in spans {
            let xs = ((span.start_ns as f64 - window.start) / npp).clamp(0.0, width);
            let xe = ((span.end_ns as f64 - window.start) / npp).clamp(0.0, width);
            let c0 = (xs.floor() as u32).min(columns - 1);
            let c1 = (xe.ceil() as u32).clamp(c0 + 1, columns);
            let mut bump = |bit: usize| {
                self.diff[bit][c0 as usize] += 1;
                self.diff[bit][c1 as usize] -= 1;
            };
            match span.kind {
                LockSpanKind::Hold(LockMode::Read) => bump(0),
                LockSpanKind::Hold(LockMode::Write) => bump(1),
                LockSpanKind::Wait => bump(2),
            }
            if span.repeats > 1 {
                bump(3);
            }
        }
        let mut counts = [0i32; 4];
        let mut run: Option<MaskRun> = None;
        for column in 0..columns {
            let mut mask = 0u8;
            for (bit, count) in counts.iter_mut().enumerate() {
                *count += self.diff[bit][column as usize];
                if *count > 0 {
                    mask |= 1 << bit;
                }
            }
            match &mut run {
                Some(current) if current.mask == mask => current.x1 = column + 1,
                _ => {
                    if let Some(done) = run.take() {
                        if done.mask != 0 {
                            out.push(done);
                        }
                    }
                    run = Some(MaskRun { x0: column, x1: column + 1, mask });
                }
            }
        }
        if let Some(done) = run {
            if done.mask != 0 {
                out.push(done);
            }
        }
    }
}

/// Per-lock lookup of `Timeline::lock_spans` (sorted by start): the spans of
/// one lock in start order, and the running maximum of their ends, so the
/// first span that can overlap a window is a binary search away.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LockIndex {
    rows: Vec<LockRow>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct LockRow {
    spans: Vec<u32>,
    max_end: Vec<u64>,
}

impl LockIndex {
    pub fn new(timeline: &Timeline, locks: usize) -> LockIndex {
        let mut rows = vec![LockRow::default(); locks];
        for (index, span) in timeline.lock_spans.iter().enumerate() {
            if let Some(row) = rows.get_mut(span.lock.0 as usize) {
                let max_end = row.max_end.last().copied().unwrap_or(0).max(span.end_ns);
                row.spans.push(index as u32);
                row.max_end.push(max_end);
            }
        }
        LockIndex { rows }
    }

    /// The spans of `lock` that overlap `[from_ns, to_ns)` (an instant span at
    /// `from_ns` counts), in start order.
    pub fn spans_in<'a>(
        &'a self,
        timeline: &'a Timeline,
        lock: usize,
        from_ns: f64,
        to_ns: f64,
    ) -> impl Iterator<Item = &'a LockSpan> + 'a {
        let (spans, first): (&[u32], usize) = match self.rows.get(lock) {
            Some(row) => (&row.spans, row.max_end.partition_point(|&end| (end as f64) < from_ns)),
            None => (&[], 0),
        };
        spans[first..]
            .iter()
            .map(move |&index| &timeline.lock_spans[index as usize])
            .take_while(move |span| (span.start_ns as f64) < to_ns)
            .filter(move |span| span.end_ns as f64 >= from_ns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slowpath_engine::world::{LockId, TaskId};

    fn track(spans: &[(u64, SpanState)]) -> Track {
        Track { starts_ns: spans.iter().map(|s| s.0).collect(), states: spans.iter().map(|s| s.1).collect() }
    }

    fn runs(track: &Track, end_ns: u64, window: Window, columns: u32) -> Vec<(u32, u32, SpanState)> {
        let mut out = Vec::new();
        aggregate_track(track, end_ns, window, columns, &mut out);
        // Runs tile the covered columns in order.
        for pair in out.windows(2) {
            assert!(pair[0].x1 <= pair[1].x0, "{out:?}");
            assert!(pair[0].x1 < pair[1].x0 || pair[0].state != pair[1].state, "unmerged {out:?}");
        }
        out.iter().map(|r| (r.x0, r.x1, r.state)).collect()
    }

    #[test]
    fn time_and_x_map_both_ways() {
        let window = Window { start: 1_000.0, span: 2_000.0 };
        assert_eq!(window.ns_per_px(100.0), 20.0);
        assert_eq!(window.x_of(1_000.0, 100.0), 0.0);
        assert_eq!(window.x_of(3_000.0, 100.0), 100.0);
        assert_eq!(window.t_at(50.0, 100.0), 2_000.0);
        for x in [0.0, 12.5, 77.0, 100.0] {
            assert!((window.x_of(window.t_at(x, 100.0), 100.0) - x).abs() < 1e-9);
        }
        assert_eq!(window.seek_target(50.0, 100.0, 10_000), 2_000);
        assert_eq!(window.seek_target(-5.0, 100.0, 10_000), 1_000, "clamped to the plot");
        assert_eq!(Window::full(10_000).seek_target(100.0, 100.0, 10_000), 10_000);
    }

    #[test]
    fn the_default_window_is_the_whole_run() {
        let window = Window::full(20_000_000);
        assert_eq!(window, Window { start: 0.0, span: 20_000_000.0 });
        assert!(window.is_full(20_000_000));
        assert_eq!(Window::full(0).span, 1.0, "an empty run still maps");
    }

    #[test]
    fn zoom_keeps_the_time_under_the_pointer() {
        let end = 1_000_000;
        let window = Window::full(end);
        let zoomed = window.zoom_at(4.0, 250.0, 1_000.0, end);
        assert_eq!(zoomed.span, 250_000.0);
        assert!((zoomed.t_at(250.0, 1_000.0) - window.t_at(250.0, 1_000.0)).abs() < 1e-6);
        assert!(!zoomed.is_full(end));
        // Zooming back out returns to the whole run.
        assert_eq!(zoomed.zoom_at(0.25, 250.0, 1_000.0, end), window);
    }

    #[test]
    fn zoom_is_clamped_to_the_run_and_the_minimum_span() {
        let end = 1_000_000;
        // Zooming out past the whole run stops at the whole run.
        let out = Window { start: 900_000.0, span: 100_000.0 }.zoom_at(0.01, 1_000.0, 1_000.0, end);
        assert_eq!(out, Window::full(end));
        // Zooming in near the end keeps the window inside the run.
        let near_end = Window::full(end).zoom_at(10.0, 999.0, 1_000.0, end);
        assert!(near_end.end() <= end as f64 && near_end.start >= 0.0);
        // And never below the minimum span.
        let deep = Window::full(end).zoom_at(1e12, 500.0, 1_000.0, end);
        assert_eq!(deep.span, MIN_SPAN_NS);
        assert!(deep.at_max_zoom(end));
        // A run shorter than the minimum span cannot be zoomed at all.
        let tiny = Window::full(5).zoom_at(2.0, 0.0, 100.0, 5);
        assert_eq!(tiny, Window::full(5));
        assert!(tiny.at_max_zoom(5));
        // Nonsense factors leave the window alone.
        assert_eq!(Window::full(end).zoom_at(f64::NAN, 0.0, 100.0, end), Window::full(end));
        assert_eq!(Window::full(end).zoom_at(0.0, 0.0, 100.0, end), Window::full(end));
    }

    #[test]
    fn pan_is_clamped_to_the_run() {
        let end = 1_000;
        let window = Window { start: 100.0, span: 200.0 };
        assert_eq!(window.pan_by(50.0, 100.0, end), Window { start: 200.0, span: 200.0 });
        assert_eq!(window.pan_by(-500.0, 100.0, end), Window { start: 0.0, span: 200.0 });
        assert_eq!(window.pan_by(5_000.0, 100.0, end), Window { start: 800.0, span: 200.0 });
        // The whole run cannot move.
        assert_eq!(Window::full(end).pan_by(30.0, 100.0, end), Window::full(end));
    }

    #[test]
    fn follow_pages_only_when_the_playhead_leaves_a_zoomed_window() {
        let end = 10_000;
        let window = Window { start: 1_000.0, span: 1_000.0 };
        assert_eq!(window.follow(1_500, end), None);
        assert_eq!(window.follow(2_500, end), Some(Window { start: 2_400.0, span: 1_000.0 }));
        assert_eq!(window.follow(500, end), Some(Window { start: 0.0, span: 1_000.0 }));
        assert_eq!(window.follow(9_990, end), Some(Window { start: 9_000.0, span: 1_000.0 }));
        assert_eq!(Window::full(end).follow(5_000, end), None);
    }

    #[test]
    fn ticks_are_round_numbers() {
        assert_eq!(nice_step(0.3), 1);
        assert_eq!(nice_step(1.0), 1);
        assert_eq!(nice_step(1.5), 2);
        assert_eq!(nice_step(3.0), 5);
        assert_eq!(nice_step(7.0), 10);
        assert_eq!(nice_step(1_234_567.0), 2_000_000);
        let (first, step) = ticks(Window { start: 1_500_000.0, span: 20_000_000.0 }, 1_000.0, 90.0);
        assert_eq!(step, 2_000_000);
        assert_eq!(first, 2_000_000);
    }

    fn label(step: u64, max: u64, t: u64) -> String {
        let mut out = String::new();
        TickFormat::new(step, max).write(&mut out, t);
        out
    }

    #[test]
    fn tick_labels_pick_a_unit_and_enough_decimals() {
        assert_eq!(label(2_000_000, 20_000_000, 4_000_000), "4 ms");
        assert_eq!(label(2_000_000, 20_000_000, 0), "0 ms");
        assert_eq!(label(200_000_000, 1_200_000_000, 1_000_000_000), "1.0 s");
        assert_eq!(label(200_000_000, 1_200_000_000, 200_000_000), "0.2 s");
        assert_eq!(label(20_000, 200_000, 40_000), "40 µs");
        assert_eq!(label(5_000, 2_000_000, 1_005_000), "1.005 ms");
        assert_eq!(label(1_000, 12_345_700_000, 12_345_601_000), "12.345601 s");
        assert_eq!(label(50, 900, 850), "850 ns");
        assert_eq!(label(1, 3, 2), "2 ns");
    }

    #[test]
    fn short_durations_have_three_significant_digits() {
        assert_eq!(format_short(0), "0");
        assert_eq!(format_short(950), "950 ns");
        assert_eq!(format_short(3_210_000), "3.21 ms");
        assert_eq!(format_short(3_200_000), "3.2 ms");
        assert_eq!(format_short(20_000_000), "20 ms");
        assert_eq!(format_short(1_500_000_000), "1.5 s");
        assert_eq!(format_short(16_384), "16.4 µs");
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1_000), "1,000");
        assert_eq!(group_digits(16_384), "16,384");
        assert_eq!(group_digits(1_234_567), "1,234,567");
    }

    #[test]
    fn wide_spans_map_to_their_columns() {
        use SpanState::*;
        let t = track(&[(0, New), (100, User), (600, Blocked)]);
        // 10 columns of 100 ns.
        assert_eq!(
            runs(&t, 1_000, Window::full(1_000), 10),
            vec![(0, 1, New), (1, 6, User), (6, 10, Blocked)]
        );
        // Zoomed into [500, 700): 10 columns of 20 ns.
        let window = Window { start: 500.0, span: 200.0 };
        assert_eq!(runs(&t, 1_000, window, 10), vec![(0, 5, User), (5, 10, Blocked)]);
    }

    #[test]
    fn narrow_spans_merge_into_the_dominant_state() {
        use SpanState::*;
        // Column 0 ([0, 100)): 70 ns user, 30 ns kernel → user.
        // Column 1 ([100, 200)): 10 ns kernel, 50 runnable, 40 blocked → runnable.
        let t = track(&[(0, User), (70, Kernel), (110, Runnable), (160, Blocked), (200, Sleeping)]);
        assert_eq!(
            runs(&t, 400, Window::full(400), 4),
            vec![(0, 1, User), (1, 2, Runnable), (2, 4, Sleeping)]
        );
        // A tie goes to the earlier state in SpanState::ALL.
        let tie = track(&[(0, Blocked), (50, User), (100, Sleeping)]);
        assert_eq!(runs(&tie, 200, Window::full(200), 2), vec![(0, 1, User), (1, 2, Sleeping)]);
    }

    #[test]
    fn a_span_ending_mid_column_shares_it_with_the_next() {
        use SpanState::*;
        // Columns of 100 ns; user covers [0, 250), kernel [250, 400).
        let t = track(&[(0, User), (250, Kernel)]);
        // Column 2 is half user, half kernel: a tie → user (earlier in ALL).
        assert_eq!(runs(&t, 400, Window::full(400), 4), vec![(0, 3, User), (3, 4, Kernel)]);
        let t = track(&[(0, User), (240, Kernel)]);
        assert_eq!(runs(&t, 400, Window::full(400), 4), vec![(0, 2, User), (2, 4, Kernel)]);
    }

    #[test]
    fn many_tiny_spans_cost_one_run_per_column_at_most() {
        use SpanState::*;
        // 100,000 alternating 1 ns spans of user (odd) and kernel (even) plus a
        // 3 ns kernel span every 10 ns, over 100 columns.
        let mut starts = Vec::new();
        let mut states = Vec::new();
        let mut at = 0u64;
        while at < 100_000 {
            starts.push(at);
            states.push(User);
            starts.push(at + 2);
            states.push(Kernel);
            at += 10;
        }
        let t = Track { starts_ns: starts, states };
        // Per 10 ns: 2 ns user, 8 ns kernel → kernel everywhere, one run.
        assert_eq!(runs(&t, 100_000, Window::full(100_000), 100), vec![(0, 100, Kernel)]);
        let mut out = Vec::new();
        aggregate_track(&t, 100_000, Window { start: 0.0, span: 100.0 }, 100, &mut out);
        // Zoomed to 1 ns per column: every span shows.
        assert_eq!(out.len(), 20);
    }

    /// The definition, column by column: the state with the most time in it.
    fn brute_force(track: &Track, end_ns: u64, window: Window, columns: u32) -> Vec<(u32, u32, SpanState)> {
        let npp = window.ns_per_px(f64::from(columns));
        let mut out: Vec<PixelRun> = Vec::new();
        for column in 0..columns {
            let lo = (window.start + f64::from(column) * npp).max(0.0);
            let hi = (window.start + f64::from(column + 1) * npp).min(end_ns as f64);
            let mut weights = [0f64; SpanState::ALL.len()];
            for index in 0..track.starts_ns.len() {
                let start = (track.starts_ns[index] as f64).max(lo);
                let end = (track.span_end(index, end_ns) as f64).min(hi);
                if end > start {
                    weights[track.states[index] as usize] += end - start;
                }
            }
            if let Some(state) = dominant(&weights) {
                push_run(&mut out, column, column + 1, state);
            }
        }
        out.iter().map(|r| (r.x0, r.x1, r.state)).collect()
    }

    #[test]
    fn aggregation_matches_the_column_by_column_definition() {
        // A small deterministic generator: exact binary fractions, so both sides round alike.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |below: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % below
        };
        for _ in 0..300 {
            let mut track = Track::default();
            let mut at = 0;
            for _ in 0..1 + next(60) {
                track.starts_ns.push(at);
                let state = SpanState::ALL[next(10) as usize];
                if track.states.last() == Some(&state) {
                    track.starts_ns.pop();
                } else {
                    track.states.push(state);
                }
                let longest = if next(2) == 0 { 4 } else { 300 };
                at += 1 + next(longest);
            }
            let end = at;
            let columns = 1 << next(7);
            let span = (1u64 << next(12)).min(end.next_power_of_two()) as f64;
            let start = (next(end) as f64).min((end as f64 - span).max(0.0)).floor();
            let window = Window { start, span }.clamped(end);
            assert_eq!(
                runs(&track, end, window, columns),
                brute_force(&track, end, window, columns),
                "{track:?} {window:?} {columns}"
            );
        }
    }

    #[test]
    fn aggregation_covers_exactly_the_window() {
        use SpanState::*;
        let t = track(&[(0, User), (1_000, Kernel), (2_000, Sleeping)]);
        let window = Window { start: 950.0, span: 100.0 };
        // 1 column = 1 ns; [950, 1000) user, [1000, 1050) kernel.
        assert_eq!(runs(&t, 3_000, window, 100), vec![(0, 50, User), (50, 100, Kernel)]);
        // Fractional window start.
        let window = Window { start: 999.5, span: 2.0 };
        assert_eq!(runs(&t, 3_000, window, 4), vec![(0, 1, User), (1, 4, Kernel)]);
        // An empty track draws nothing; zero columns draw nothing.
        assert!(runs(&Track::default(), 3_000, Window::full(3_000), 10).is_empty());
        assert!(runs(&t, 3_000, Window::full(3_000), 0).is_empty());
    }

    fn span(lock: u32, task: u32, start_ns: u64, end_ns: u64, kind: LockSpanKind, repeats: u64) -> LockSpan {
        LockSpan { lock: LockId(lock), task: TaskId(task), start_ns, end_ns, kind, repeats }
    }

    #[test]
    fn lock_spans_rasterise_to_masks() {
        let read = LockSpanKind::Hold(LockMode::Read);
        let write = LockSpanKind::Hold(LockMode::Write);
        let spans = [
            span(0, 0, 0, 300, read, 1),
            span(0, 1, 100, 200, read, 1),
            span(0, 2, 150, 400, LockSpanKind::Wait, 1),
            span(0, 2, 400, 401, write, 1),
            span(0, 3, 600, 1_000, write, 50),
        ];
        let mut raster = LockRaster::default();
        let mut out = Vec::new();
        // Columns of 100 ns.
        raster.rasterize(spans.iter(), Window::full(1_000), 10, &mut out);
        assert_eq!(
            out,
            vec![
                MaskRun { x0: 0, x1: 1, mask: HELD_READ },
                MaskRun { x0: 1, x1: 3, mask: HELD_READ | WAITED },
                MaskRun { x0: 3, x1: 4, mask: WAITED },
                // A 1 ns hold still takes a column.
                MaskRun { x0: 4, x1: 5, mask: HELD_WRITE },
                MaskRun { x0: 6, x1: 10, mask: HELD_WRITE | REPEATED },
            ]
        );
    }

    #[test]
    fn the_lock_index_finds_overlapping_spans_only() {
        let read = LockSpanKind::Hold(LockMode::Read);
        let timeline = Timeline {
            end_ns: 1_000,
            tracks: Vec::new(),
            lock_spans: vec![
                span(0, 0, 0, 900, read, 1),
                span(1, 0, 10, 20, read, 1),
                span(0, 1, 100, 150, read, 1),
                span(0, 2, 500, 600, LockSpanKind::Wait, 1),
                span(7, 2, 500, 600, LockSpanKind::Wait, 1),
            ],
        };
        let index = LockIndex::new(&timeline, 2);
        let starts = |lock, from, to| -> Vec<u64> {
            index.spans_in(&timeline, lock, from, to).map(|span| span.start_ns).collect()
        };
        // The long first hold overlaps everything up to 900.
        assert_eq!(starts(0, 200.0, 400.0), vec![0]);
        assert_eq!(starts(0, 120.0, 550.0), vec![0, 100, 500]);
        assert_eq!(starts(0, 950.0, 1_000.0), Vec::<u64>::new());
        assert_eq!(starts(1, 0.0, 1_000.0), vec![10]);
        assert_eq!(starts(1, 30.0, 1_000.0), Vec::<u64>::new());
        // Locks outside the layout are ignored.
        assert_eq!(starts(5, 0.0, 1_000.0), Vec::<u64>::new());
    }
}
