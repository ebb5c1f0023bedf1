//! How each series is drawn on a chart (its line, band, ranges or dots) and how the
//! legend names it.

use super::frame::Frame;
use super::{escape, label, Chart, Mark, Series, FONT, HEIGHT, LEFT, RIGHT, WIDTH};
use crate::run::format::{Fixed, Shortest};
use std::fmt::Write;

/// One series as a group: its marks, each point titled with its values in words.
pub(super) fn write_series(out: &mut String, chart: &Chart, frame: &Frame, k: usize, series: &Series) {
    let class = [series.class, if series.emphasis { "emphasis" } else { "" }].join(" ");
    let _ = write!(out, "<g class=\"series s{k} {}\"><title>{}</title>", class.trim(), escape(&series.name));
    match series.mark {
        Mark::Line | Mark::Dashed => write_line(out, frame, k, series),
        Mark::Band => write_band(out, frame, series),
        Mark::Range => write_ranges(out, chart, frame, series),
        Mark::Dots | Mark::Ring => write_dots(out, chart, frame, series),
    }
    out.push_str("</g>\n");
}

fn stroke_width(series: &Series) -> u32 {
    if series.emphasis {
        4
    } else {
        2
    }
}

/// A polyline through the points; dashed lines on one path interleave, each
/// starting at its own phase.
fn write_line(out: &mut String, frame: &Frame, k: usize, series: &Series) {
    let dash = if series.mark == Mark::Dashed {
        format!(" stroke-dasharray=\"6 4\" stroke-dashoffset=\"{}\"", (k * 5) % 10)
    } else {
        String::new()
    };
    out.push_str("<polyline fill=\"none\" points=\"");
    for &(x, y) in &series.points {
        let _ = write!(out, "{},{} ", Fixed(frame.x(x), 1), Fixed(frame.y(y), 1));
    }
    let _ = write!(out, "\" stroke=\"{}\" stroke-width=\"{}\"{dash}/>", series.colour, stroke_width(series));
}

/// One polygon along the high ends and back along the low ends.
fn write_band(out: &mut String, frame: &Frame, series: &Series) {
    out.push_str("<polygon points=\"");
    for (x, _, y) in series.spans() {
        let _ = write!(out, "{},{} ", Fixed(frame.x(x), 1), Fixed(frame.y(y), 1));
    }
    let lows: Vec<(u64, u64, u64)> = series.spans().collect();
    for &(x, low, _) in lows.iter().rev() {
        let _ = write!(out, "{},{} ", Fixed(frame.x(x), 1), Fixed(frame.y(low), 1));
    }
    let _ = write!(out, "\" fill=\"{}\" fill-opacity=\"0.2\" stroke=\"none\"/>", series.colour);
}

/// A vertical bar per point with a ring at either end.
fn write_ranges(out: &mut String, chart: &Chart, frame: &Frame, series: &Series) {
    let colour = series.colour;
    for (x, low, y) in series.spans() {
        let (px, y_low, y_high) = (Fixed(frame.x(x), 1), Fixed(frame.y(low), 1), Fixed(frame.y(y), 1));
        let _ = write!(
            out,
            "<g><title>{}</title><path d=\"M{px} {y_low}V{y_high}\" stroke=\"{colour}\" stroke-width=\"1.5\"/>\
             <circle cx=\"{px}\" cy=\"{y_low}\" r=\"4\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\"/>\
             <circle cx=\"{px}\" cy=\"{y_high}\" r=\"4\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\"/></g>",
            point_title(chart, series, x, low, y)
        );
    }
}

/// A dot or ring per point, one mark per pixel: a dense series costs what its
/// picture shows.
fn write_dots(out: &mut String, chart: &Chart, frame: &Frame, series: &Series) {
    let colour = series.colour;
    let mut drawn = std::collections::BTreeSet::new();
    for &(x, y) in &series.points {
        let (px, py) = (frame.x(x).round() as i64, frame.y(y).round() as i64);
        if !drawn.insert((px, py)) {
            continue;
        }
        // The report's dots are the largest and a measurement's sit inside them,
        // so that both show where they coincide; the ring goes round both.
        let look = match (series.mark, series.class) {
            (Mark::Ring, _) => format!("r=\"9\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2.5\""),
            (_, "reported") => format!("r=\"6.5\" fill=\"{colour}\""),
            (_, "measured") => format!("r=\"3.5\" fill=\"{colour}\""),
            _ => format!("r=\"2.5\" fill=\"{colour}\""),
        };
        let _ = write!(
            out,
            "<circle cx=\"{px}\" cy=\"{py}\" {look}><title>{}</title></circle>",
            point_title(chart, series, x, y, y)
        );
    }
}

/// A point's values in words: the series, x, and y or its range.
fn point_title(chart: &Chart, series: &Series, x: u64, low: u64, y: u64) -> String {
    let y_text = if low < y {
        format!("{} – {}", label(chart.y_unit, low), label(chart.y_unit, y))
    } else {
        label(chart.y_unit, y)
    };
    escape(&format!("{}: {}, {y_text}", series.name, label(chart.x_unit, x)))
}

/// Where each legend item sits, in rows below the axis label with a new row when
/// one is full, and how many rows past the first that took (the picture grows by
/// a row for each).
pub(super) fn legend_places(chart: &Chart) -> (Vec<(f64, f64)>, u32) {
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
    (legend, legend_row)
}

/// The legend: each series' key and name at its place.
pub(super) fn write_legend(out: &mut String, chart: &Chart, places: &[(f64, f64)]) {
    for (series, &(x, legend_y)) in chart.series.iter().zip(places) {
        let _ = writeln!(
            out,
            "<g class=\"legend {}\">{}<text x=\"{}\" y=\"{}\">{}</text></g>",
            series.class,
            legend_key(series, x, legend_y - FONT / 3.0),
            Shortest(x + 22.0),
            Shortest(legend_y),
            escape(&series.name)
        );
    }
}

/// A small sample of the series' mark, drawn as the series is.
fn legend_key(series: &Series, x: f64, key_y: f64) -> String {
    let colour = series.colour;
    let (x8, key_y5) = (Shortest(x + 8.0), Shortest(key_y - 5.0));
    let (x, key_y) = (Shortest(x), Shortest(key_y));
    match series.mark {
        Mark::Line => format!("<path d=\"M{x} {key_y}h16\" stroke=\"{colour}\" stroke-width=\"3\"/>"),
        Mark::Dashed => format!(
            "<path d=\"M{x} {key_y}h16\" stroke=\"{colour}\" stroke-width=\"3\" stroke-dasharray=\"5 3\"/>"
        ),
        Mark::Band => format!(
            "<rect x=\"{x}\" y=\"{}\" width=\"16\" height=\"10\" fill=\"{colour}\" fill-opacity=\"0.3\"/>",
            key_y5
        ),
        Mark::Dots => format!("<circle cx=\"{}\" cy=\"{key_y}\" r=\"4\" fill=\"{colour}\"/>", x8),
        Mark::Range | Mark::Ring => format!(
            "<circle cx=\"{}\" cy=\"{key_y}\" r=\"5\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"/>",
            x8
        ),
    }
}
