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

mod frame;
mod marks;

use crate::run::format::{self, Shortest};
use crate::run::narration::group_digits;
use frame::Frame;
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

/// The chart as an SVG document: its heading, the axes, each series in drawing
/// order, then the legend below.
pub fn chart_svg(chart: &Chart) -> String {
    let frame = Frame::fit(chart);
    let (legend, extra_rows) = marks::legend_places(chart);
    let height = Shortest(HEIGHT + f64::from(extra_rows) * (FONT + 6.0));
    let mut out = String::with_capacity(32 * 1024);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\" font-size=\"{FONT}\" role=\"img\" aria-label=\"{title}\">\n\
         <rect class=\"bg\" width=\"{WIDTH}\" height=\"{height}\" fill=\"#ffffff\"/>\n\
         <text class=\"title\" x=\"{LEFT}\" y=\"24\" font-weight=\"bold\" font-size=\"{TITLE_FONT}\">{title}</text>\n",
        title = escape(&chart.title),
        WIDTH = Shortest(WIDTH),
        FONT = Shortest(FONT),
        LEFT = Shortest(LEFT),
        TITLE_FONT = Shortest(TITLE_FONT),
    );
    frame.write_axes(&mut out, chart);
    for (k, series) in chart.series.iter().enumerate() {
        marks::write_series(&mut out, chart, &frame, k, series);
    }
    marks::write_legend(&mut out, chart, &legend);
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
