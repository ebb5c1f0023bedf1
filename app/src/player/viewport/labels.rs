//! Axis ticks and how numbers read: round tick steps, aligned tick labels, short durations, digit groups.

use super::Window;
use std::fmt::Write as _;

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
    let text = slowpath_engine::run::format::fixed(value, decimals);
    let text = if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.') } else { &text };
    format!("{text} {unit}")
}

/// `16384` → `16,384`: counts in prose (the engine's formatter, shared by CLI and UI).
pub use slowpath_engine::run::narration::group_digits;
