//! Compare mode's rules, pure and host-tested: where the second run stands when
//! the transport moves the first (`aligned`), and how a figure of one side
//! reads against the other's, in words (`difference`).

use super::url::Align;
use slowpath_engine::run::format;
use slowpath_engine::run::narration::group_digits;
use slowpath_engine::run::trace::{Granularity, Metric};
use slowpath_engine::Run;

/// Where the second side stands: its position, and whether it has ended before
/// the first side's moment (its last step is earlier than `clock_ns`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aligned {
    pub position: u64,
    pub ended: bool,
}

/// The second run's position for the first run at `position` (its playback
/// clock at `clock_ns`): by time, the last step at or before the same simulated
/// time; by unit, the end of the same unit index at `granularity`; both clamped
/// to the second run's end. The start maps to the start.
pub fn aligned(
    first: &Run,
    position: u64,
    clock_ns: u64,
    second: &Run,
    align: Align,
    granularity: Granularity,
) -> Aligned {
    if position == 0 {
        return Aligned { position: 0, ended: false };
    }
    match align {
        Align::Time => {
            let at = second.position_at_time(clock_ns);
            Aligned { position: at, ended: at >= second.total_ops() && second.end_ns < clock_ns }
        }
        Align::Unit => {
            let unit = first.index_at(position, granularity).unwrap_or(0);
            match second.position_after(granularity, unit) {
                Some(at) => Aligned { position: at, ended: false },
                None => Aligned { position: second.total_ops(), ended: true },
            }
        }
    }
}

/// A figure both runs have, as a number with its unit, for the difference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Figure {
    Ns(u64),
    Count(u64),
}

impl Figure {
    /// A metric that reads as one number (durations and counts; not text or lists).
    pub fn of(metric: &Metric) -> Option<Figure> {
        match metric {
            Metric::Ns(ns) => Some(Figure::Ns(*ns)),
            Metric::Count(count) => Some(Figure::Count(*count)),
            _ => None,
        }
    }

    fn value(self) -> u64 {
        match self {
            Figure::Ns(value) | Figure::Count(value) => value,
        }
    }

    pub fn text(self) -> String {
        match self {
            Figure::Ns(ns) => format::duration(ns),
            Figure::Count(count) => group_digits(count),
        }
    }
}

/// The second side's figure against the first's, in words: "v6.15: 21.74 s,
/// 27.7 % less" (the percentage of the first side's value, one decimal).
pub fn difference(label: &str, first: Figure, second: Figure) -> String {
    let (a, b) = (first.value(), second.value());
    let how = if a == b {
        "the same".to_string()
    } else if a == 0 {
        "where the other has none".to_string()
    } else {
        // Tenths of a percent in integers, rounded half up: no float drift in the words.
        let tenths = (u128::from(a.abs_diff(b)) * 1000 + u128::from(a) / 2) / u128::from(a);
        let percent = format!("{}.{}", group_digits((tenths / 10) as u64), tenths % 10);
        let direction = if b < a { "less" } else { "more" };
        if tenths == 0 {
            format!("under 0.1 % {direction}")
        } else if tenths == 1000 && b != 0 && b < a {
            // Rounding must not say "100 % less" of something that is still there.
            "over 99.9 % less".to_string()
        } else {
            format!("{percent} % {direction}")
        }
    };
    format!("{label}: {}, {how}", second.text())
}

/// The figures the comparison table shows: the run's length, then every metric
/// both runs have as one number, in the case's reported order first.
pub fn rows(reported: &[&'static str], first: &Run, second: &Run) -> Vec<(String, Figure, Figure)> {
    let mut rows = vec![("simulated time".to_string(), Figure::Ns(first.end_ns), Figure::Ns(second.end_ns))];
    let keys = reported
        .iter()
        .map(|key| key.to_string())
        .chain(first.metrics.keys().filter(|key| !reported.contains(&key.as_str())).cloned());
    for key in keys {
        let pair =
            first.metrics.get(&key).and_then(Figure::of).zip(second.metrics.get(&key).and_then(Figure::of));
        if let Some((a, b)) = pair {
            rows.push((key, a, b));
        }
    }
    rows
}
