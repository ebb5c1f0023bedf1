//! Where a chart's values land on its picture: the axes' ranges fitted to the
//! points, the scale from a value to a pixel, and the ticks each axis is labelled at.

use super::{escape, label, Chart, Unit, BOTTOM, HEIGHT, LEFT, RIGHT, TICKS, TOP, WIDTH};
use crate::run::format::{Fixed, Shortest};
use std::fmt::Write;

/// The plot area's ranges once fitted to the chart's points.
pub(super) struct Frame {
    log_x: bool,
    log_y: bool,
    x_min: u64,
    x_max: u64,
    y_max: u64,
    x_step: u64,
    y_step: u64,
    /// On a log y axis, from the smallest value's decade to the largest's.
    decade_low: u32,
    decade_high: u32,
}

impl Frame {
    /// The ranges that hold every point; a linear axis ends at a round tick at or
    /// above its largest value.
    pub(super) fn fit(chart: &Chart) -> Frame {
        let points = chart.series.iter().flat_map(|series| series.spans());
        let (mut x_max, mut y_max, mut x_min) = (1u64, 1u64, u64::MAX);
        let mut y_min_positive = u64::MAX;
        for (x, low, y) in points {
            x_max = x_max.max(x);
            y_max = y_max.max(y);
            x_min = x_min.min(x);
            for value in [low, y] {
                if value > 0 {
                    y_min_positive = y_min_positive.min(value);
                }
            }
        }
        let x_min = if chart.log_x { x_min.clamp(1, x_max) } else { 0 };
        let (x_step, y_step) = (round_step(x_max), round_step(y_max));
        if !chart.log_x {
            x_max = x_max.div_ceil(x_step).saturating_mul(x_step);
        }
        if !chart.log_y {
            y_max = y_max.div_ceil(y_step).saturating_mul(y_step);
        }
        let decade_low = if y_min_positive == u64::MAX {
            0
        } else {
            ((y_min_positive as f64).log10().floor() as u32).min(19)
        };
        let decade_high = ((y_max.max(10) as f64).log10().ceil() as u32).clamp(decade_low + 1, 19);
        Frame {
            log_x: chart.log_x,
            log_y: chart.log_y,
            x_min,
            x_max,
            y_max,
            x_step,
            y_step,
            decade_low,
            decade_high,
        }
    }

    pub(super) fn plot_w() -> f64 {
        WIDTH - LEFT - RIGHT
    }

    pub(super) fn plot_h() -> f64 {
        HEIGHT - TOP - BOTTOM
    }

    /// The pixel column of an x value.
    pub(super) fn x(&self, x: u64) -> f64 {
        let fraction = if self.log_x {
            let span = (self.x_max as f64).log2() - (self.x_min as f64).log2();
            if span > 0.0 {
                ((x.max(1) as f64).log2() - (self.x_min as f64).log2()) / span
            } else {
                0.5
            }
        } else {
            x as f64 / self.x_max as f64
        };
        LEFT + fraction * Frame::plot_w()
    }

    /// The pixel row of a y value.
    pub(super) fn y(&self, y: u64) -> f64 {
        let fraction = if self.log_y {
            ((y.max(1) as f64).log10() - f64::from(self.decade_low))
                / f64::from(self.decade_high - self.decade_low)
        } else {
            y as f64 / self.y_max as f64
        };
        TOP + Frame::plot_h() - fraction.max(0.0) * Frame::plot_h()
    }

    /// A decade per gridline on a log axis, a round step on a linear one.
    fn y_ticks(&self) -> Vec<u64> {
        if self.log_y {
            (self.decade_low..=self.decade_high).map(|decade| 10u64.pow(decade)).collect()
        } else {
            (0..=self.y_max / self.y_step).map(|k| k * self.y_step).collect()
        }
    }

    /// Sizes tick at powers of two (KiB, MiB, …); counts and times at 1, 2, 5.
    fn x_ticks(&self, unit: Unit) -> Vec<u64> {
        let decimal = if self.log_x && unit != Unit::Bytes {
            decimal_log_ticks(self.x_min, self.x_max)
        } else {
            Vec::new()
        };
        if !decimal.is_empty() {
            decimal
        } else if self.log_x {
            self.power_of_two_ticks()
        } else {
            (0..=self.x_max / self.x_step).map(|k| k * self.x_step).collect()
        }
    }

    /// Powers of two from the smallest x, striding so that there are about `TICKS`.
    fn power_of_two_ticks(&self) -> Vec<u64> {
        let mut ticks = Vec::new();
        let mut value = self.x_min.next_power_of_two();
        let stride =
            (((self.x_max as f64).log2() - (self.x_min as f64).log2()) / TICKS as f64).ceil().max(1.0) as u32;
        while value <= self.x_max {
            ticks.push(value);
            value = value.saturating_mul(1u64 << stride.min(63));
            if value == u64::MAX {
                break;
            }
        }
        ticks
    }

    /// Both axes with their gridlines, labelled ticks and names.
    pub(super) fn write_axes(&self, out: &mut String, chart: &Chart) {
        let (plot_w, plot_h) = (Frame::plot_w(), Frame::plot_h());
        let bottom = TOP + plot_h;
        let _ = writeln!(
            out,
            "<path class=\"axis\" d=\"M{} {}V{}H{}\" fill=\"none\" stroke=\"#374151\"/>",
            Shortest(LEFT),
            Shortest(TOP),
            Shortest(bottom),
            Shortest(LEFT + plot_w)
        );
        for y_value in self.y_ticks() {
            let y = self.y(y_value);
            let (y, label_y) = (Fixed(y, 1), Fixed(y + 4.0, 1));
            let _ = writeln!(
                out,
                "<line class=\"grid\" x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#e5e7eb\"/>\
                 <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                Shortest(LEFT),
                Shortest(LEFT + plot_w),
                Shortest(LEFT - 6.0),
                label_y,
                escape(&label(chart.y_unit, y_value))
            );
        }
        for x_value in self.x_ticks(chart.x_unit) {
            let x = Fixed(self.x(x_value), 1);
            let _ = writeln!(
                out,
                "<line class=\"axis\" x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"#374151\"/>\
                 <text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                Shortest(bottom),
                Shortest(bottom + 5.0),
                Shortest(bottom + 20.0),
                escape(&label(chart.x_unit, x_value))
            );
        }
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}{}</text>\
             <text transform=\"translate(18 {}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
            Shortest(LEFT + plot_w / 2.0),
            Shortest(bottom + 42.0),
            escape(chart.x_label),
            if chart.log_x { " (log scale)" } else { "" },
            Shortest(TOP + plot_h / 2.0),
            escape(&format!("{}{}", chart.y_label, if chart.log_y { " (log scale)" } else { "" }))
        );
    }
}

/// A round step for a linear axis up to `max`: 1, 2 or 5 times a power of ten, about
/// `TICKS` steps in all, so that the ticks read as a person writes them.
fn round_step(max: u64) -> u64 {
    let rough = (max / TICKS).max(1);
    let mut power = 1u64;
    while power <= rough / 10 {
        power *= 10;
    }
    [1, 2, 5, 10].into_iter().map(|k| k * power).find(|&step| step >= rough).unwrap_or(10 * power)
}

/// Ticks for a log axis of counts or times, as a person writes them: 1, 2, 5 times
/// each power of ten, or the powers of ten alone when that would be more than eight.
fn decimal_log_ticks(min: u64, max: u64) -> Vec<u64> {
    let mut nice = Vec::new();
    let mut decades = Vec::new();
    let mut power = 1u64;
    loop {
        for k in [1, 2, 5] {
            let value = power.saturating_mul(k);
            if (min..=max).contains(&value) {
                nice.push(value);
                if k == 1 {
                    decades.push(value);
                }
            }
        }
        match power.checked_mul(10) {
            Some(next) if next <= max => power = next,
            _ => break,
        }
    }
    if nice.len() <= 8 {
        nice
    } else {
        decades
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_linear_axis_steps_by_one_two_or_five_times_a_power_of_ten() {
        assert_eq!(round_step(100), 20);
        assert_eq!(round_step(7), 1);
        assert_eq!(round_step(26_000_000_000), 10_000_000_000);
        assert_eq!(round_step(14_000_000_000), 5_000_000_000);
        assert_eq!(round_step(0), 1);
        assert_eq!(round_step(u64::MAX), 5_000_000_000_000_000_000);
    }

    #[test]
    fn a_log_axis_of_counts_ticks_at_one_two_five_or_at_decades() {
        assert_eq!(decimal_log_ticks(5, 1_000), [5, 10, 20, 50, 100, 200, 500, 1_000]);
        assert_eq!(decimal_log_ticks(1, 16_384), [1, 10, 100, 1_000, 10_000]);
        assert_eq!(decimal_log_ticks(3, 4), Vec::<u64>::new());
        assert_eq!(decimal_log_ticks(1, u64::MAX).len(), 20);
    }
}
