//! A task track's level of detail: the spans in a window as pixel-column runs of the dominant state.

use super::Window;
use slowpath_engine::run::timeline::{SpanState, Track};

/// Columns `[x0, x1)` of one plot row showing one state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PixelRun {
    pub x0: u32,
    pub x1: u32,
    pub state: SpanState,
}

pub(super) fn push_run(out: &mut Vec<PixelRun>, x0: u32, x1: u32, state: SpanState) {
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
pub(super) fn dominant(weights: &[f64; SpanState::ALL.len()]) -> Option<SpanState> {
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
