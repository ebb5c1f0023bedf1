//! The sweep's values, words and explanation, checked on the host.

use super::chart::{Axes, INSET, PAD_LEFT, PAD_RIGHT};
use super::*;

fn point(x: f64, fast: Option<u64>, slow: u64) -> Point {
    Point { x, fast, slow, failed: false }
}

#[test]
fn the_reported_number_is_read_from_the_words() {
    let meta = slowpath_engine::simulation("fifo-trigger").expect("the case").meta();
    let (text, number) = reported(meta).expect("a reported figure for the fast runs");
    assert_eq!(number, reported_number(text));
    assert!(number.is_some_and(|n| n > 1.0), "{text}");
    assert_eq!(reported_number("around 1,200 writes"), Some(1200.0));
    assert_eq!(reported_number("12.5 ms."), Some(12.5));
    assert_eq!(reported_number("a few"), None);
}

#[test]
fn every_swept_value_parses_in_range_without_a_notice() {
    let meta = slowpath_engine::simulation("fifo-trigger").expect("the case").meta();
    for swept in Swept::ALL {
        let spec = spec(meta, swept.name()).expect("the swept parameter is in the schema");
        let mut last = f64::NEG_INFINITY;
        for text in swept.values() {
            let (value, notice) = spec.parse_clamped(text);
            assert!(notice.is_none(), "{} = {text}: {notice:?}", swept.name());
            assert!(numeric(&value) > last, "values increase");
            last = numeric(&value);
        }
        let xs = xs_of(meta, swept);
        assert_eq!(xs.len(), swept.values().len());
        let axes = Axes::new(swept, &xs, &[], None, 600.0);
        assert!((axes.x(xs[0]) - (PAD_LEFT + INSET)).abs() < 1e-9, "{}", swept.name());
        assert!((axes.x(xs[xs.len() - 1]) - (600.0 - PAD_RIGHT - INSET)).abs() < 1e-9, "{}", swept.name());
    }
    assert!(spec(meta, "duration").is_some_and(|spec| spec.parse_clamped(SWEEP_DURATION).1.is_none()));
}

#[test]
fn the_summary_says_how_much_the_fast_runs_changed() {
    let points =
        [point(10_000.0, Some(4_096), 22), point(140_000.0, Some(704), 16), point(400_000.0, Some(252), 16)];
    assert_eq!(
        summary_sentence(Swept::PrintCost, &points),
        "From 10 µs to 400 µs per line, the fast runs between bursts go from 4,096 to 252 writes, and the writes over 1 ms go from 22 to 16."
    );
    let nice = [
        point(-5.0, Some(706), 33),
        point(-4.0, None, 34),
        point(0.0, Some(704), 16),
        point(4.0, Some(3_526), 7),
        point(5.0, Some(2_821), 5),
    ];
    let sentence = summary_sentence(Swept::ListenerNice, &nice);
    assert!(sentence.starts_with("From listener nice −5 to +5, the fast runs between bursts go from 706 to 2,821 writes, passing 704 to 3,526 on the way"), "{sentence}");
    assert!(sentence.ends_with("At −4 there are no repeated bursts."), "{sentence}");
    let none = [point(1.0, None, 0), point(2.0, None, 0)];
    assert!(summary_sentence(Swept::ListenerNice, &none)
        .starts_with("No value in this sweep gives repeated bursts"));
    let one = [point(-1.0, None, 3), point(0.0, Some(700), 16)];
    assert!(summary_sentence(Swept::ListenerNice, &one)
        .starts_with("Only at 0 do the bursts repeat, with 700 fast writes"));
}

/// The fixed explanation under the plot, against the engine at the defaults.
#[test]
fn the_explanation_holds_at_the_defaults() {
    let case = slowpath_engine::simulation("fifo-trigger").expect("the case");
    let meta = case.meta();
    let key = |swept| SweepKey {
        swept,
        params: ParamValues::defaults(meta.params),
        variant: meta.default_variant().id,
        seed: 1,
    };
    let at = |swept, text| {
        let (x, run) = point_key(meta, &key(swept), text);
        let made = slowpath_engine::run_checked(case, &run.params, run.variant, run.seed).ok();
        point_of(x, made.as_ref().map(|run| &run.metrics))
    };
    // Very cheap lines: the fast run ends when the FIFO's buffer is full.
    assert_eq!(at(Swept::PrintCost, "10us").fast, Some(PIPE_SIZE));
    // Dearer lines: fewer writes per timeslice.
    let (cheap, dear) =
        (at(Swept::PrintCost, "100us").fast.unwrap(), at(Swept::PrintCost, "400us").fast.unwrap());
    assert!(cheap > 3 * dear, "{cheap} vs {dear}");
    // A long busy loop hardly matters (within 5 %); a short one does.
    let (long, longer) =
        (at(Swept::LoopIters, "100000").fast.unwrap(), at(Swept::LoopIters, "10000000").fast.unwrap());
    assert!(long.abs_diff(longer) * 20 < long, "{long} vs {longer}");
    // 3,000 iterations: 7.5 µs at the calibrated 2.5 ns an iteration.
    let short = at(Swept::LoopIters, "3000").fast.unwrap();
    assert!(2 * short > 3 * long, "{short} vs {long}: a short loop lengthens the fast runs by half or more");
    // Some nice values give no repeated bursts.
    assert_eq!(at(Swept::ListenerNice, "-2").fast, None);
}

#[test]
fn ticks_and_values_read_naturally() {
    assert_eq!(Swept::LoopIters.tick(30_000.0), "3×10⁴");
    assert_eq!(Swept::LoopIters.tick(10_000_000.0), "10⁷");
    assert_eq!(Swept::PrintCost.show(140_000.0), "140 µs");
    assert_eq!(Swept::PrintCost.tick(140_000.0), "140µs");
    assert_eq!(Swept::ListenerNice.show(-3.0), "−3");
    assert_eq!(
        point_text(Swept::ListenerNice, &point(-2.0, None, 37)),
        "listener_nice = −2: no repeated bursts, 37 writes over 1 ms"
    );
}
