//! Host tests of the viewport maths: mapping, zoom and pan, ticks and labels, aggregation, lock rasters.

use super::tracks::{dominant, push_run};
use super::*;
use slowpath_engine::run::lock::LockMode;
use slowpath_engine::run::timeline::{LockSpan, LockSpanKind, SpanState, Timeline, Track};
use slowpath_engine::run::world::{LockId, TaskId};

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
    assert_eq!(runs(&t, 1_000, Window::full(1_000), 10), vec![(0, 1, New), (1, 6, User), (6, 10, Blocked)]);
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
    assert_eq!(runs(&t, 400, Window::full(400), 4), vec![(0, 1, User), (1, 2, Runnable), (2, 4, Sleeping)]);
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
