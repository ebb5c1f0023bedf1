//! The run's timeline as an SVG picture for slides: one row per task coloured by
//! state, the chapters as numbered markers with their titles listed below, a time
//! axis and a legend, every word as `<text>` (selectable, scalable).
//!
//! Bound: at most [`ROWS_MAX`] task rows and one rectangle per pixel column per row
//! (each column shows the state at its middle instant, as the canvas does when zoomed
//! out), so the file stays under a few MB whatever the run.

use crate::run::format::{self, Fixed};
use crate::run::timeline::{SpanState, Timeline, Track};
use crate::run::trace::Run;
use std::fmt::Write;

/// Task rows drawn; further tasks are counted in a line below the rows.
pub const ROWS_MAX: usize = 64;
const LABEL_W: u64 = 180;
const PLOT_W: u64 = 1000;
const ROW_H: u64 = 18;
const TOP: u64 = 74;

/// The fill of each state: the page's light theme, one list for both drawings. The
/// app's canvas falls back to it when `timeline.css` did not load, and a browser test
/// holds `timeline.css`'s light `--tl-*` colours and a saved SVG to it, so that a slide
/// made from the file looks like the page it came from. Hues from the Okabe–Ito
/// colour-blind-safe palette; states that could be confused also differ in lightness.
pub fn state_colour(state: SpanState) -> &'static str {
    match state {
        SpanState::New => "#aeb2bb",
        SpanState::User => "#008a65",
        SpanState::Kernel => "#0067a5",
        SpanState::Spinning => "#e69f00",
        SpanState::Runnable => "#e8c81c",
        SpanState::Sleeping => "#a9bdd6",
        SpanState::Blocked => "#c4500a",
        SpanState::Stopped => "#cc79a7",
        SpanState::Exiting => "#474d5c",
        SpanState::Dead => "#6b7280",
    }
}

/// The page's light text, rules and playhead (`--text`, `--border-strong`), for the
/// axis, the chapter markers and the moment's line.
const TEXT: &str = "#111318";
const RULE: &str = "#5b6170";

/// Where the picture's parts go: the task rows, the chapters' list and the legend
/// below them, and the scale from a time to a pixel column.
struct Page {
    end_ns: u64,
    rows: usize,
    hidden: usize,
    rows_bottom: u64,
    chapters_top: u64,
    legend_top: u64,
}

impl Page {
    fn of(run: &Run, timeline: &Timeline) -> Page {
        let rows = timeline.tracks.len().min(ROWS_MAX);
        let hidden = timeline.tracks.len() - rows;
        let rows_bottom = TOP + rows as u64 * ROW_H;
        let chapters_top = rows_bottom + if hidden > 0 { 40 } else { 24 };
        let legend_top = chapters_top + run.chapters.len() as u64 * 16 + 12;
        Page { end_ns: timeline.end_ns.max(1), rows, hidden, rows_bottom, chapters_top, legend_top }
    }

    fn x_of(&self, at_ns: u64) -> f64 {
        LABEL_W as f64 + (at_ns as f64 / self.end_ns as f64) * PLOT_W as f64
    }
}

/// The timeline of the whole run as an SVG document; `moment` (a position, as links
/// give it) is marked with a line of its own, so that "this run at this moment" is
/// what the picture shows.
pub fn timeline_svg(run: &Run, moment: Option<u64>) -> String {
    let timeline = run.timeline();
    let page = Page::of(run, &timeline);
    let height = page.legend_top + 30;
    let width = LABEL_W + PLOT_W + 20;
    let mut out = String::with_capacity(64 * 1024);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         font-family=\"sans-serif\" font-size=\"12\" fill=\"{TEXT}\">\n<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>\n"
    );
    let title = format!(
        "{} ({}), seed {}: {} simulated",
        run.case,
        run.variant,
        run.seed,
        format::duration(run.end_ns)
    );
    let _ = writeln!(out, "<text x=\"10\" y=\"18\" font-weight=\"bold\">{}</text>", escape(&title));
    for (index, track) in timeline.tracks.iter().take(page.rows).enumerate() {
        write_task_row(
            &mut out,
            &run.layout.tasks[index].name,
            track,
            TOP + index as u64 * ROW_H,
            page.end_ns,
        );
    }
    if page.hidden > 0 {
        let _ = writeln!(
            out,
            "<text x=\"{LABEL_W}\" y=\"{}\">… and {} more tasks (the first {ROWS_MAX} are drawn)</text>",
            page.rows_bottom + 16,
            page.hidden
        );
    }
    write_time_axis(&mut out, &page, timeline.end_ns);
    write_chapters(&mut out, &page, run);
    if let Some(position) = moment {
        write_moment(&mut out, &page, run.time_at(position.min(run.total_ops())));
    }
    write_legend(&mut out, page.legend_top);
    out.push_str("</svg>\n");
    out
}

/// One task's row at height `y`: its name, then one sample per pixel column,
/// merged into one rectangle while the state stays the same. As on the page, a task
/// that does not exist (yet, or any more) is a thin bar, not a full one.
fn write_task_row(out: &mut String, name: &str, track: &Track, y: u64, end_ns: u64) {
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
        LABEL_W - 6,
        y + ROW_H - 5,
        escape(&cut(name, 28))
    );
    let mut run_start = 0u64;
    let mut current: Option<SpanState> = None;
    for column in 0..=PLOT_W {
        let state = (column < PLOT_W).then(|| {
            let middle = ((2 * column + 1) as u128 * end_ns as u128 / (2 * PLOT_W) as u128) as u64;
            let span = track.starts_ns.partition_point(|&start| start <= middle).saturating_sub(1);
            track.states.get(span).copied().unwrap_or(SpanState::New)
        });
        if state != current {
            if let Some(previous) = current {
                let (top, height) = if matches!(previous, SpanState::New | SpanState::Dead) {
                    (y + ROW_H / 2 - 1, 2)
                } else {
                    (y + 2, ROW_H - 4)
                };
                let _ = writeln!(
                    out,
                    "<rect x=\"{}\" y=\"{top}\" width=\"{}\" height=\"{height}\" fill=\"{}\"><title>{}</title></rect>",
                    LABEL_W + run_start,
                    column - run_start,
                    state_colour(previous),
                    previous.label()
                );
            }
            current = state;
            run_start = column;
        }
    }
}

/// The time axis: the run's start and end, and its midpoint.
fn write_time_axis(out: &mut String, page: &Page, end_ns: u64) {
    for at_ns in [0, end_ns / 2, end_ns] {
        let x = Fixed(page.x_of(at_ns), 1);
        let _ = writeln!(
            out,
            "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"{RULE}\"/>\
             <text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            TOP - 20,
            page.rows_bottom,
            TOP - 24,
            escape(&format::duration(at_ns))
        );
    }
}

/// The chapters listed below the rows, and a numbered marker for each over them;
/// chapters closer than a few pixels share one marker, labelled "1,2".
fn write_chapters(out: &mut String, page: &Page, run: &Run) {
    let mut markers: Vec<(f64, String)> = Vec::new();
    for (number, chapter) in run.chapters.iter().enumerate() {
        let at_ns = run.time_at(chapter.position);
        let x = page.x_of(at_ns);
        match markers.last_mut() {
            Some((last_x, label)) if x - *last_x < 12.0 => {
                let _ = write!(label, ",{}", number + 1);
            }
            _ => markers.push((x, (number + 1).to_string())),
        }
        let _ = writeln!(
            out,
            "<text x=\"{LABEL_W}\" y=\"{}\">{}. {} (at {})</text>",
            page.chapters_top + number as u64 * 16,
            number + 1,
            escape(chapter.title),
            escape(&format::duration(at_ns))
        );
    }
    for (x, label) in markers {
        let x = Fixed(x, 1);
        let _ = writeln!(
            out,
            "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"{TEXT}\" stroke-dasharray=\"3 2\"/>\
             <text x=\"{x}\" y=\"{}\" text-anchor=\"middle\" font-weight=\"bold\">{label}</text>",
            TOP - 4,
            page.rows_bottom,
            TOP - 6,
        );
    }
}

/// The line that marks the moment a link points at.
fn write_moment(out: &mut String, page: &Page, at_ns: u64) {
    let x = Fixed(page.x_of(at_ns), 1);
    let _ = writeln!(
        out,
        "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"{TEXT}\" stroke-width=\"2\"/>\
         <text x=\"{x}\" y=\"{}\" text-anchor=\"middle\" fill=\"{TEXT}\" font-weight=\"bold\">this moment: {}</text>",
        TOP - 36,
        page.rows_bottom,
        TOP - 38,
        escape(&format::duration(at_ns))
    );
}

/// A swatch and the name of each state a row can show.
fn write_legend(out: &mut String, legend_top: u64) {
    let mut x = 10;
    for state in SpanState::ALL.into_iter().filter(|&state| state != SpanState::Dead) {
        let _ = writeln!(
            out,
            "<rect x=\"{x}\" y=\"{legend_top}\" width=\"12\" height=\"12\" fill=\"{}\" stroke=\"{RULE}\"/>\
             <text x=\"{}\" y=\"{}\">{}</text>",
            state_colour(state),
            x + 16,
            legend_top + 11,
            state.label()
        );
        x += 16 + state.label().len() as u64 * 7 + 14;
    }
}

fn cut(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        text.to_string()
    } else {
        text.chars().take(chars - 1).chain(std::iter::once('…')).collect()
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's light timeline colours (`static/timeline.css`, the first `--tl-*`
    /// block) are the SVG's: a slide made from the saved file looks like the page.
    #[test]
    fn the_pages_light_timeline_colours_are_the_svgs() {
        let css = include_str!("../../../static/timeline.css");
        let light = &css[..css.find("@media").unwrap_or(css.len())];
        let value = |name: &str| -> Option<String> {
            let key = format!("--tl-{name}:");
            let at = light.find(&key)? + key.len();
            Some(light[at..].split(';').next()?.trim().to_string())
        };
        // In `SpanState::ALL` order, as the app's theme.rs names them.
        let names = [
            "new", "user", "kernel", "spinning", "runnable", "sleeping", "blocked", "stopped", "exiting",
            "dead",
        ];
        for (state, name) in SpanState::ALL.into_iter().zip(names) {
            assert_eq!(value(name).as_deref(), Some(state_colour(state)), "--tl-{name}");
        }
    }
}
