//! A case's plot as an SVG chart: axes with labelled ticks, each series as a line,
//! dots, a band or ranges, a legend, every word as `<text>`. The page draws its plots
//! made of few marks (the scaling plots) from this same SVG, so that a saved file is
//! what the page shows; its stylesheet recolours the frame for the theme through the
//! classes (`chart`, `bg`, `axis`, `grid`, `s<k>`, a series' own class). Dense plots
//! redrawn at every step (the FIFO's dt chart, the timeline) stay on canvas and save
//! their points here.
//!
//! Bound: dots that fall on the same pixel are drawn once, so a chart holds at most
//! one mark per pixel of its plot area whatever the number of points.

use crate::run::format;
use crate::run::narration::group_digits;
use std::fmt::Write;

/// How an axis's numbers read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Count,
    Ns,
    Bytes,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mark {
    #[default]
    Line,
    Dashed,
    Dots,
    /// The area between `low` and the points (a model's spread over cache regimes).
    Band,
    /// A vertical bar from `low` to each point, a dot at either end (a measured spread).
    Range,
    /// A ring around each point (where this run sits on a plot of many runs).
    Ring,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    pub name: String,
    pub colour: &'static str,
    pub mark: Mark,
    pub points: Vec<(u64, u64)>,
    /// For `Band` and `Range`: the low end at each point, in the points' order.
    pub low: Vec<u64>,
    /// A class for the page's stylesheet and tests (`reported`, `measured`).
    pub class: &'static str,
    /// Drawn thicker: the variant of the run on the page.
    pub emphasis: bool,
}

impl Series {
    pub fn new(name: impl Into<String>, colour: &'static str, mark: Mark, points: Vec<(u64, u64)>) -> Series {
        Series { name: name.into(), colour, mark, points, ..Series::default() }
    }

    /// Each point with its low end (the point itself when `low` is short).
    fn spans(&self) -> impl Iterator<Item = (u64, u64, u64)> + '_ {
        self.points
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| (x, self.low.get(i).copied().unwrap_or(y).min(y), y))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// Names the file (`<case>-<variant>-<position>-<name>.svg`).
    pub name: &'static str,
    pub title: String,
    pub x_label: &'static str,
    pub x_unit: Unit,
    /// A base-2 logarithmic x axis (thread counts, sizes).
    pub log_x: bool,
    /// A base-10 logarithmic y axis, a decade per gridline (seconds and milliseconds on one chart).
    pub log_y: bool,
    pub y_label: &'static str,
    pub y_unit: Unit,
    pub series: Vec<Series>,
}

/// What a scaling plot's points are beside its curves.
pub struct Marks<'a> {
    /// The report's points.
    pub reported: Vec<(u64, u64)>,
    /// The points measured on today's kernel, if any, and its release ("6.18.44-…").
    pub measured: &'a [(u64, u64)],
    pub measured_on: &'a str,
    /// This run's point on its variant's curve (empty when it is not on the plot).
    pub here: Vec<(u64, u64)>,
    /// How the ring around it is named ("this run's variant and N").
    pub here_name: &'a str,
}

/// Every series of a plot made of many runs, in drawing order: the variants' `lines`
/// (a line lying on another dashed), the report's dots, the measured ones inside
/// them, and a ring round this run's point.
pub fn scaling_series(mut lines: Vec<Series>, marks: Marks<'_>) -> Vec<Series> {
    mark_coincident(&mut lines);
    lines.extend(reported_and_measured(marks.reported, marks.measured, marks.measured_on));
    if !marks.here.is_empty() {
        lines.push(this_run(marks.here_name, marks.here));
    }
    lines
}

/// The report's points, and the points measured on today's kernel (named by its
/// release, `measured_on`) when there are any, each a series of dots.
fn reported_and_measured(
    reported: Vec<(u64, u64)>,
    measured: &[(u64, u64)],
    measured_on: &str,
) -> Vec<Series> {
    let mut series =
        vec![Series { class: "reported", ..Series::new("the report", "#c0392b", Mark::Dots, reported) }];
    if !measured.is_empty() {
        let name = if measured_on.is_empty() {
            "measured today".to_string()
        } else {
            format!("measured on {measured_on}")
        };
        series.push(Series {
            class: "measured",
            ..Series::new(name, "#111827", Mark::Dots, measured.to_vec())
        });
    }
    series
}

/// A line that lies exactly on one drawn before it (a fix that changes nothing at
/// these settings) is dashed, each at its own phase, and says whose line it is the
/// same as, so that the legend never names a line nobody can see.
fn mark_coincident(series: &mut [Series]) {
    for k in 1..series.len() {
        if series[k].mark != Mark::Line || series[k].points.is_empty() {
            continue;
        }
        let under = series[..k]
            .iter()
            .find(|earlier| {
                matches!(earlier.mark, Mark::Line | Mark::Dashed) && earlier.points == series[k].points
            })
            .map(|earlier| earlier.name.split(" (same as ").next().unwrap_or(&earlier.name).to_string());
        if let Some(under) = under {
            series[k].mark = Mark::Dashed;
            series[k].name = format!("{} (same as {under})", series[k].name);
        }
    }
}

/// Where this run sits on a plot of many runs: a ring around its point.
fn this_run(name: &str, points: Vec<(u64, u64)>) -> Series {
    Series { class: "here", ..Series::new(name, "#111827", Mark::Ring, points) }
}

const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 540.0;
const LEFT: f64 = 90.0;
const RIGHT: f64 = 44.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 110.0;
const TICKS: u64 = 5;
/// Large enough to read on a slide, and on the page where the chart is scaled to fit.
const FONT: f64 = 15.0;
const TITLE_FONT: f64 = 17.0;

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

fn label(unit: Unit, value: u64) -> String {
    if value == 0 {
        return "0".to_string();
    }
    match unit {
        Unit::Count => group_digits(value),
        Unit::Ns => format::duration(value),
        Unit::Bytes => format::size(value),
    }
}

/// The chart as an SVG document.
pub fn chart_svg(chart: &Chart) -> String {
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
    // A linear axis ends at a round tick at or above its largest value.
    let (x_step, y_step) = (round_step(x_max), round_step(y_max));
    if !chart.log_x {
        x_max = x_max.div_ceil(x_step).saturating_mul(x_step);
    }
    if !chart.log_y {
        y_max = y_max.div_ceil(y_step).saturating_mul(y_step);
    }
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let scale_x = |x: u64| -> f64 {
        let fraction = if chart.log_x {
            let span = (x_max as f64).log2() - (x_min as f64).log2();
            if span > 0.0 {
                ((x.max(1) as f64).log2() - (x_min as f64).log2()) / span
            } else {
                0.5
            }
        } else {
            x as f64 / x_max as f64
        };
        LEFT + fraction * plot_w
    };
    // On a log y axis, from the smallest value's decade to the largest's.
    let decade_low =
        if y_min_positive == u64::MAX { 0 } else { ((y_min_positive as f64).log10().floor() as u32).min(19) };
    let decade_high = ((y_max.max(10) as f64).log10().ceil() as u32).clamp(decade_low + 1, 19);
    let scale_y = |y: u64| -> f64 {
        let fraction = if chart.log_y {
            ((y.max(1) as f64).log10() - f64::from(decade_low)) / f64::from(decade_high - decade_low)
        } else {
            y as f64 / y_max as f64
        };
        TOP + plot_h - fraction.max(0.0) * plot_h
    };
    // The legend in rows below the axis label, a new row when one is full; the
    // picture grows by a row for each row past the first.
    let mut legend = Vec::with_capacity(chart.series.len());
    let (mut legend_x, mut legend_row) = (LEFT, 0u32);
    for series in &chart.series {
        let item_w = 22.0 + series.name.chars().count() as f64 * FONT * 0.55 + 18.0;
        if legend_x > LEFT && legend_x + item_w > WIDTH - RIGHT {
            legend_x = LEFT;
            legend_row += 1;
        }
        legend.push((legend_x, HEIGHT - 40.0 + f64::from(legend_row) * (FONT + 6.0)));
        legend_x += item_w;
    }
    let height = HEIGHT + f64::from(legend_row) * (FONT + 6.0);
    let mut out = String::with_capacity(32 * 1024);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\" font-size=\"{FONT}\" role=\"img\" aria-label=\"{title}\">\n\
         <rect class=\"bg\" width=\"{WIDTH}\" height=\"{height}\" fill=\"#ffffff\"/>\n\
         <text class=\"title\" x=\"{LEFT}\" y=\"24\" font-weight=\"bold\" font-size=\"{TITLE_FONT}\">{title}</text>\n",
        title = escape(&chart.title)
    );
    // Axes, with ticks at even fractions of the range (powers of two on a log axis).
    let bottom = TOP + plot_h;
    let _ = writeln!(
        out,
        "<path class=\"axis\" d=\"M{LEFT} {TOP}V{bottom}H{}\" fill=\"none\" stroke=\"#374151\"/>",
        LEFT + plot_w
    );
    let y_ticks: Vec<u64> = if chart.log_y {
        (decade_low..=decade_high).map(|decade| 10u64.pow(decade)).collect()
    } else {
        (0..=y_max / y_step).map(|k| k * y_step).collect()
    };
    for y_value in y_ticks {
        let y = scale_y(y_value);
        let _ = writeln!(
            out,
            "<line class=\"grid\" x1=\"{}\" y1=\"{y:.1}\" x2=\"{}\" y2=\"{y:.1}\" stroke=\"#e5e7eb\"/>\
             <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            LEFT,
            LEFT + plot_w,
            LEFT - 6.0,
            y + 4.0,
            escape(&label(chart.y_unit, y_value))
        );
    }
    // Sizes tick at powers of two (KiB, MiB, …); counts and times at 1, 2, 5.
    let decimal =
        if chart.log_x && chart.x_unit != Unit::Bytes { decimal_log_ticks(x_min, x_max) } else { Vec::new() };
    let x_ticks: Vec<u64> = if !decimal.is_empty() {
        decimal
    } else if chart.log_x {
        let mut ticks = Vec::new();
        let mut value = x_min.next_power_of_two();
        let stride = (((x_max as f64).log2() - (x_min as f64).log2()) / TICKS as f64).ceil().max(1.0) as u32;
        while value <= x_max {
            ticks.push(value);
            value = value.saturating_mul(1u64 << stride.min(63));
            if value == u64::MAX {
                break;
            }
        }
        ticks
    } else {
        (0..=x_max / x_step).map(|k| k * x_step).collect()
    };
    for x_value in x_ticks {
        let x = scale_x(x_value);
        let _ = writeln!(
            out,
            "<line class=\"axis\" x1=\"{x:.1}\" y1=\"{bottom}\" x2=\"{x:.1}\" y2=\"{}\" stroke=\"#374151\"/>\
             <text x=\"{x:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            bottom + 5.0,
            bottom + 20.0,
            escape(&label(chart.x_unit, x_value))
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}{}</text>\
         <text transform=\"translate(18 {}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
        LEFT + plot_w / 2.0,
        bottom + 42.0,
        escape(chart.x_label),
        if chart.log_x { " (log scale)" } else { "" },
        TOP + plot_h / 2.0,
        escape(&format!("{}{}", chart.y_label, if chart.log_y { " (log scale)" } else { "" }))
    );
    let point_title = |series: &Series, x: u64, low: u64, y: u64| {
        let y_text = if low < y {
            format!("{} – {}", label(chart.y_unit, low), label(chart.y_unit, y))
        } else {
            label(chart.y_unit, y)
        };
        escape(&format!("{}: {}, {y_text}", series.name, label(chart.x_unit, x)))
    };
    for (k, series) in chart.series.iter().enumerate() {
        let class = [series.class, if series.emphasis { "emphasis" } else { "" }].join(" ");
        let _ =
            write!(out, "<g class=\"series s{k} {}\"><title>{}</title>", class.trim(), escape(&series.name));
        let colour = series.colour;
        let width = if series.emphasis { 4 } else { 2 };
        match series.mark {
            Mark::Line | Mark::Dashed => {
                // Dashed lines on one path interleave: each starts at its own phase.
                let dash = if series.mark == Mark::Dashed {
                    format!(" stroke-dasharray=\"6 4\" stroke-dashoffset=\"{}\"", (k * 5) % 10)
                } else {
                    String::new()
                };
                out.push_str("<polyline fill=\"none\" points=\"");
                for &(x, y) in &series.points {
                    let _ = write!(out, "{:.1},{:.1} ", scale_x(x), scale_y(y));
                }
                let _ = write!(out, "\" stroke=\"{colour}\" stroke-width=\"{width}\"{dash}/>");
            }
            Mark::Band => {
                out.push_str("<polygon points=\"");
                for (x, _, y) in series.spans() {
                    let _ = write!(out, "{:.1},{:.1} ", scale_x(x), scale_y(y));
                }
                let lows: Vec<(u64, u64, u64)> = series.spans().collect();
                for &(x, low, _) in lows.iter().rev() {
                    let _ = write!(out, "{:.1},{:.1} ", scale_x(x), scale_y(low));
                }
                let _ = write!(out, "\" fill=\"{colour}\" fill-opacity=\"0.2\" stroke=\"none\"/>");
            }
            Mark::Range => {
                for (x, low, y) in series.spans() {
                    let (px, y_low, y_high) = (scale_x(x), scale_y(low), scale_y(y));
                    let _ = write!(
                        out,
                        "<g><title>{}</title><path d=\"M{px:.1} {y_low:.1}V{y_high:.1}\" stroke=\"{colour}\" stroke-width=\"1.5\"/>\
                         <circle cx=\"{px:.1}\" cy=\"{y_low:.1}\" r=\"4\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\"/>\
                         <circle cx=\"{px:.1}\" cy=\"{y_high:.1}\" r=\"4\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\"/></g>",
                        point_title(series, x, low, y)
                    );
                }
            }
            Mark::Dots | Mark::Ring => {
                // One mark per pixel: a dense series costs what its picture shows.
                let mut drawn = std::collections::BTreeSet::new();
                for &(x, y) in &series.points {
                    let (px, py) = (scale_x(x).round() as i64, scale_y(y).round() as i64);
                    if !drawn.insert((px, py)) {
                        continue;
                    }
                    // The report's dots are the largest and a measurement's sit inside them,
                    // so that both show where they coincide; the ring goes round both.
                    let look = match (series.mark, series.class) {
                        (Mark::Ring, _) => {
                            format!("r=\"9\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2.5\"")
                        }
                        (_, "reported") => format!("r=\"6.5\" fill=\"{colour}\""),
                        (_, "measured") => format!("r=\"3.5\" fill=\"{colour}\""),
                        _ => format!("r=\"2.5\" fill=\"{colour}\""),
                    };
                    let _ = write!(
                        out,
                        "<circle cx=\"{px}\" cy=\"{py}\" {look}><title>{}</title></circle>",
                        point_title(series, x, y, y)
                    );
                }
            }
        }
        out.push_str("</g>\n");
    }
    for (series, &(x, legend_y)) in chart.series.iter().zip(&legend) {
        let key_y = legend_y - FONT / 3.0;
        let colour = series.colour;
        let key = match series.mark {
            Mark::Line => format!("<path d=\"M{x} {key_y}h16\" stroke=\"{colour}\" stroke-width=\"3\"/>"),
            Mark::Dashed => format!(
                "<path d=\"M{x} {key_y}h16\" stroke=\"{colour}\" stroke-width=\"3\" stroke-dasharray=\"5 3\"/>"
            ),
            Mark::Band => format!(
                "<rect x=\"{x}\" y=\"{}\" width=\"16\" height=\"10\" fill=\"{colour}\" fill-opacity=\"0.3\"/>",
                key_y - 5.0
            ),
            Mark::Dots => format!("<circle cx=\"{}\" cy=\"{key_y}\" r=\"4\" fill=\"{colour}\"/>", x + 8.0),
            Mark::Range | Mark::Ring => format!(
                "<circle cx=\"{}\" cy=\"{key_y}\" r=\"5\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"/>",
                x + 8.0
            ),
        };
        let _ = writeln!(
            out,
            "<g class=\"legend {}\">{key}<text x=\"{}\" y=\"{legend_y}\">{}</text></g>",
            series.class,
            x + 22.0,
            escape(&series.name)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Every point of a chart as a CSV table, one row per point: the series, x and y with
/// their units (`count` or `ns`), so that a plot's numbers go to a spreadsheet as drawn.
pub fn series_table(chart: &Chart) -> crate::export::csv::Table {
    let unit = |unit: Unit| match unit {
        Unit::Count => "count",
        Unit::Ns => "ns",
        Unit::Bytes => "bytes",
    };
    let mut table = crate::export::csv::Table::new(chart.name, &["series", "x", "x_unit", "y", "y_unit"]);
    for series in &chart.series {
        for &(x, y) in &series.points {
            table.row(vec![
                series.name.clone(),
                x.to_string(),
                unit(chart.x_unit).to_string(),
                y.to_string(),
                unit(chart.y_unit).to_string(),
            ]);
        }
    }
    table
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
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

    #[test]
    fn a_line_on_top_of_another_is_dashed_and_says_whose() {
        let mut series = vec![
            Series::new("2.6.18", "#000", Mark::Line, vec![(5, 1), (10, 2)]),
            Series::new("fix a", "#111", Mark::Line, vec![(5, 1), (10, 2)]),
            Series::new("fix b", "#222", Mark::Line, vec![(5, 1), (10, 3)]),
            Series::new("fix a and b", "#333", Mark::Line, vec![(5, 1), (10, 2)]),
        ];
        mark_coincident(&mut series);
        assert_eq!(series[0].mark, Mark::Line);
        assert_eq!((series[1].mark, series[1].name.as_str()), (Mark::Dashed, "fix a (same as 2.6.18)"));
        assert_eq!(series[2].mark, Mark::Line);
        assert_eq!(series[3].name, "fix a and b (same as 2.6.18)");
    }

    #[test]
    fn a_band_a_range_and_a_ring_each_draw_their_own_shape_with_its_values_in_words() {
        let band = Series {
            low: vec![1_000, 2_000],
            ..Series::new("band", "#f59e0b", Mark::Band, vec![(1, 3_000), (2, 5_000)])
        };
        let range = Series {
            low: vec![4_000_000],
            class: "reported",
            ..Series::new("range", "#dc2626", Mark::Range, vec![(2, 9_000_000)])
        };
        let chart = Chart {
            name: "t",
            title: "t".into(),
            x_label: "x",
            x_unit: Unit::Count,
            log_x: false,
            log_y: false,
            y_label: "y",
            y_unit: Unit::Ns,
            series: vec![band, range, this_run("here", vec![(1, 3_000)])],
        };
        let svg = chart_svg(&chart);
        assert_eq!(svg.matches("<polygon").count(), 1, "the band is one polygon");
        assert!(svg.contains("<title>range: 2, 4 ms – 9 ms</title>"), "a range says both ends");
        assert!(svg.contains("class=\"series s1 reported\""));
        assert!(svg.contains("class=\"series s2 here\""));
        assert!(svg.contains("<title>here: 1, 3 µs</title>"));
        // The y axis ends at a round tick above 9 ms: 0, 2 ms, …, 10 ms.
        assert!(svg.contains(">10 ms<") && svg.contains(">0<") && !svg.contains(">9 ms<"));
    }
}
