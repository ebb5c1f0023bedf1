//! A case's plot as an SVG chart for slides: axes with labelled ticks, each series as
//! a line or dots, a legend, every word as `<text>`. The points come from the run
//! (`Case::charts`), the same numbers as the page's canvas chart and the CSV.
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Line,
    Dashed,
    Dots,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub colour: &'static str,
    pub mark: Mark,
    pub points: Vec<(u64, u64)>,
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

/// The marks a scaling plot sets beside its curves: the report's points, and the
/// points measured on today's kernel when there are any, each a series of dots.
pub fn reported_and_measured(reported: Vec<(u64, u64)>, measured: &[(u64, u64)]) -> Vec<Series> {
    let mut series = vec![Series {
        name: "the report".to_string(),
        colour: "#c0392b",
        mark: Mark::Dots,
        points: reported,
    }];
    if !measured.is_empty() {
        series.push(Series {
            name: "measured today".to_string(),
            colour: "#111827",
            mark: Mark::Dots,
            points: measured.to_vec(),
        });
    }
    series
}

const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 520.0;
const LEFT: f64 = 90.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 110.0;
const TICKS: u64 = 5;

fn label(unit: Unit, value: u64) -> String {
    match unit {
        Unit::Count => group_digits(value),
        Unit::Ns => format::duration(value),
        Unit::Bytes => format::size(value),
    }
}

/// The chart as an SVG document.
pub fn chart_svg(chart: &Chart) -> String {
    let points = chart.series.iter().flat_map(|series| series.points.iter());
    let (mut x_max, mut y_max, mut x_min) = (1u64, 1u64, u64::MAX);
    for &(x, y) in points {
        x_max = x_max.max(x);
        y_max = y_max.max(y);
        x_min = x_min.min(x);
    }
    let x_min = if chart.log_x { x_min.clamp(1, x_max) } else { 0 };
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
    let y_min_positive =
        chart.series.iter().flat_map(|series| series.points.iter()).map(|&(_, y)| y).filter(|&y| y > 0).min();
    let decade_low = y_min_positive.map_or(0, |y| (y as f64).log10().floor() as u32).min(19);
    let decade_high = ((y_max.max(10) as f64).log10().ceil() as u32).clamp(decade_low + 1, 19);
    let scale_y = |y: u64| -> f64 {
        let fraction = if chart.log_y {
            ((y.max(1) as f64).log10() - f64::from(decade_low)) / f64::from(decade_high - decade_low)
        } else {
            y as f64 / y_max as f64
        };
        TOP + plot_h - fraction.max(0.0) * plot_h
    };
    let mut out = String::with_capacity(32 * 1024);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#ffffff\"/>\n\
         <text x=\"{LEFT}\" y=\"22\" font-weight=\"bold\" font-size=\"14\">{}</text>\n",
        escape(&chart.title)
    );
    // Axes, with ticks at even fractions of the range (powers of two on a log axis).
    let bottom = TOP + plot_h;
    let _ = writeln!(
        out,
        "<path d=\"M{LEFT} {TOP}V{bottom}H{}\" fill=\"none\" stroke=\"#374151\"/>",
        LEFT + plot_w
    );
    let y_ticks: Vec<u64> = if chart.log_y {
        (decade_low..=decade_high).map(|decade| 10u64.pow(decade)).collect()
    } else {
        (0..=TICKS).map(|step| y_max / TICKS * step).collect()
    };
    for y_value in y_ticks {
        let y = scale_y(y_value);
        let _ = writeln!(
            out,
            "<line x1=\"{}\" y1=\"{y:.1}\" x2=\"{}\" y2=\"{y:.1}\" stroke=\"#e5e7eb\"/>\
             <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            LEFT,
            LEFT + plot_w,
            LEFT - 6.0,
            y + 4.0,
            escape(&label(chart.y_unit, y_value))
        );
    }
    let x_ticks: Vec<u64> = if chart.log_x {
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
        (0..=TICKS).map(|step| x_max / TICKS * step).collect()
    };
    for x_value in x_ticks {
        let x = scale_x(x_value);
        let _ = writeln!(
            out,
            "<line x1=\"{x:.1}\" y1=\"{bottom}\" x2=\"{x:.1}\" y2=\"{}\" stroke=\"#374151\"/>\
             <text x=\"{x:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            bottom + 5.0,
            bottom + 18.0,
            escape(&label(chart.x_unit, x_value))
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}{}</text>\
         <text transform=\"translate(16 {}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
        LEFT + plot_w / 2.0,
        bottom + 38.0,
        escape(chart.x_label),
        if chart.log_x { " (log scale)" } else { "" },
        TOP + plot_h / 2.0,
        escape(&format!("{}{}", chart.y_label, if chart.log_y { " (log scale)" } else { "" }))
    );
    for series in &chart.series {
        let _ = write!(out, "<g><title>{}</title>", escape(&series.name));
        match series.mark {
            Mark::Line | Mark::Dashed => {
                let dash = if series.mark == Mark::Dashed { " stroke-dasharray=\"6 4\"" } else { "" };
                out.push_str("<polyline fill=\"none\" stroke-width=\"2\" points=\"");
                for &(x, y) in &series.points {
                    let _ = write!(out, "{:.1},{:.1} ", scale_x(x), scale_y(y));
                }
                let _ = write!(out, "\" stroke=\"{}\"{dash}/>", series.colour);
            }
            Mark::Dots => {
                let drawn: std::collections::BTreeSet<(i64, i64)> = series
                    .points
                    .iter()
                    .map(|&(x, y)| (scale_x(x).round() as i64, scale_y(y).round() as i64))
                    .collect();
                for (x, y) in drawn {
                    let _ =
                        write!(out, "<circle cx=\"{x}\" cy=\"{y}\" r=\"2.5\" fill=\"{}\"/>", series.colour);
                }
            }
        }
        out.push_str("</g>\n");
    }
    // The legend in rows below the axis label, a new row when one is full.
    let mut x = LEFT;
    let mut legend_y = HEIGHT - 46.0;
    for series in &chart.series {
        let item_w = 18.0 + series.name.chars().count() as f64 * 7.0 + 16.0;
        if x > LEFT && x + item_w > WIDTH - RIGHT {
            x = LEFT;
            legend_y += 18.0;
        }
        let _ = writeln!(
            out,
            "<rect x=\"{x}\" y=\"{}\" width=\"14\" height=\"4\" fill=\"{}\"/><text x=\"{}\" y=\"{legend_y}\">{}</text>",
            legend_y - 6.0,
            series.colour,
            x + 18.0,
            escape(&series.name)
        );
        x += item_w;
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
