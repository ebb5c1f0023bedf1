//! The FIFO stage's chart of every write's dt on a log scale, one column per
//! write (or per pixel, showing its slowest write), bursts numbered, the
//! current write marked; a click or ← → seeks. A canvas, redrawn only when its
//! inputs, its width or the colour scheme change.

use super::colours::Colours;
use crate::player::canvas::{context_2d, css_var, use_redraw_triggers};
use crate::player::Clamped;
use slowpath_engine::cases::fifo_trigger::FifoCase;
use slowpath_engine::run::format;
use slowpath_engine::run::narration::group_digits;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, Clone)]
pub(super) struct ChartProps {
    pub case: Rc<FifoCase>,
    pub current: Option<usize>,
    pub seekable: bool,
    pub on_seek: Callback<u64>,
    pub testid: &'static str,
    /// The longest writes measured on today's kernel, drawn as a band (today's run only).
    #[prop_or_default]
    pub measured: Option<MeasuredBand>,
}

impl PartialEq for ChartProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.case, &other.case)
            && self.current == other.current
            && self.seekable == other.seekable
            && self.testid == other.testid
            && self.measured == other.measured
    }
}

/// The spread of a figure measured on a real kernel, one value per run (the
/// longest write of each run): from the shortest to the longest, in ns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct MeasuredBand {
    pub low_ns: u64,
    pub high_ns: u64,
}

/// The chart's geometry in CSS pixels.
const CHART_H: f64 = 190.0;
const PAD_LEFT: f64 = 58.0;
const PAD_RIGHT: f64 = 10.0;
const PAD_TOP: f64 = 18.0;
const PAD_BOTTOM: f64 = 22.0;
/// The y axis: decades from 100 ns to 2 s, as ns (a fast write's bar stays visible).
const Y_MIN_NS: f64 = 1e2;
const Y_MAX_NS: f64 = 2e9;

fn y_of(dt_ns: f64) -> f64 {
    let plot_h = CHART_H - PAD_TOP - PAD_BOTTOM;
    let t = (dt_ns.max(Y_MIN_NS).log10() - Y_MIN_NS.log10()) / (Y_MAX_NS.log10() - Y_MIN_NS.log10());
    PAD_TOP + plot_h * (1.0 - t.clamped(0.0, 1.0))
}

/// Columns of the plot: each write its own bar when they fit, else one pixel
/// column per group of writes (drawn at the group's slowest).
struct Columns {
    writes: usize,
    plot_w: f64,
    per_write: bool,
    cols: usize,
}

impl Columns {
    fn new(writes: usize, width: f64) -> Columns {
        let plot_w = (width - PAD_LEFT - PAD_RIGHT).max(1.0);
        let cols = plot_w.floor().max(1.0) as usize;
        Columns { writes, plot_w, per_write: writes <= cols, cols }
    }

    /// The writes drawn in column `col` (a range of write indices).
    fn writes_in(&self, col: usize) -> std::ops::Range<usize> {
        if self.per_write {
            return col..(col + 1).min(self.writes);
        }
        let (n, c) = (self.writes, self.cols);
        (col * n).div_ceil(c)..((col + 1) * n).div_ceil(c).min(n)
    }

    fn count(&self) -> usize {
        if self.per_write {
            self.writes
        } else {
            self.cols
        }
    }

    fn col_of(&self, write: usize) -> usize {
        if self.per_write {
            write
        } else {
            write * self.cols / self.writes.max(1)
        }
    }

    fn col_width(&self) -> f64 {
        self.plot_w / self.count().max(1) as f64
    }

    fn x_of_col(&self, col: usize) -> f64 {
        PAD_LEFT + col as f64 * self.col_width()
    }

    fn col_at(&self, x: f64) -> Option<usize> {
        let col = ((x - PAD_LEFT) / self.col_width()).floor();
        (col >= 0.0 && (col as usize) < self.count()).then_some(col as usize)
    }
}

/// The slowest write of the column under `x`.
fn write_at(case: &FifoCase, width: f64, x: f64) -> Option<usize> {
    let columns = Columns::new(case.write_dt_ns.len(), width);
    let col = columns.col_at(x)?;
    columns.writes_in(col).max_by_key(|&k| (case.write_dt_ns[k], std::cmp::Reverse(k)))
}

fn draw_chart(
    canvas: &web_sys::HtmlCanvasElement,
    case: &FifoCase,
    current: Option<usize>,
    measured: Option<MeasuredBand>,
) {
    let Some((pen, width)) = context_2d(canvas, CHART_H) else { return };
    let colours = Colours::of(canvas);
    let font = colours.font.clone();
    pen.clear_rect(0.0, 0.0, width, CHART_H);
    pen.set_font(&format!("12px {font}"));
    draw_decades_and_threshold(&pen, width, case.slow_ns, &colours);
    if let Some(band) = measured {
        draw_measured_band(&pen, width, band, &css_var(canvas, "--text", "#1b1f24"), &colours);
    }
    let n = case.write_dt_ns.len();
    if n == 0 {
        pen.set_text_align("center");
        pen.set_fill_style_str(&colours.muted);
        let _ = pen.fill_text("no write in this run", PAD_LEFT + (width - PAD_LEFT) / 2.0, CHART_H / 2.0);
        return;
    }
    let columns = Columns::new(n, width);
    let bar_w = (columns.col_width() * if columns.per_write { 0.8 } else { 1.0 }).max(1.0);
    draw_bars(&pen, case, &columns, bar_w, &colours);
    draw_burst_marks(&pen, width, case, &columns, bar_w, &colours);
    let current_x =
        current.filter(|&k| k < n).map(|k| (k, (columns.x_of_col(columns.col_of(k)) + bar_w / 2.0).round()));
    draw_write_numbers(&pen, width, n, current_x, &colours);
    if let Some((k, x)) = current_x {
        draw_current_write(&pen, width, x, case.write_dt_ns[k], k, &colours);
    }
}

type Pen = web_sys::CanvasRenderingContext2d;

/// Decades, and the slow threshold dashed.
fn draw_decades_and_threshold(pen: &Pen, width: f64, slow_ns: u64, colours: &Colours) {
    pen.set_text_align("right");
    pen.set_text_baseline("middle");
    let mut decade = Y_MIN_NS;
    while decade <= Y_MAX_NS {
        let y = y_of(decade).round() + 0.5;
        pen.set_stroke_style_str(&colours.grid);
        pen.set_line_width(1.0);
        pen.begin_path();
        pen.move_to(PAD_LEFT, y);
        pen.line_to(width - PAD_RIGHT, y);
        pen.stroke();
        pen.set_fill_style_str(&colours.muted);
        let _ = pen.fill_text(&format::duration(decade as u64), PAD_LEFT - 6.0, y);
        decade *= 10.0;
    }
    let threshold = y_of(slow_ns as f64).round() + 0.5;
    pen.set_stroke_style_str(&colours.slow);
    let dash = js_sys::Array::of2(&4.0.into(), &4.0.into());
    let _ = pen.set_line_dash(&dash);
    pen.begin_path();
    pen.move_to(PAD_LEFT, threshold);
    pen.line_to(width - PAD_RIGHT, threshold);
    pen.stroke();
    let _ = pen.set_line_dash(&js_sys::Array::new());
}

/// The measured spread behind the bars: a translucent band in the text's colour
/// (at least 2 px, so that a spread of one value still shows).
fn draw_measured_band(pen: &Pen, width: f64, band: MeasuredBand, text: &str, colours: &Colours) {
    let (top, low) = (y_of(band.high_ns as f64), y_of(band.low_ns as f64));
    pen.set_fill_style_str(text);
    pen.set_global_alpha(0.18);
    pen.fill_rect(PAD_LEFT, top.min(low - 2.0), width - PAD_LEFT - PAD_RIGHT, (low - top).max(2.0));
    pen.set_global_alpha(1.0);
    // Named at the plot's left edge, where the first burst has not begun yet.
    pen.set_fill_style_str(&colours.muted);
    pen.set_text_align("left");
    pen.set_text_baseline("bottom");
    let _ = pen.fill_text("measured today", PAD_LEFT + 4.0, top.min(low - 2.0) - 1.0);
}

/// One bar per column: the slowest write in it, slow ones in the slow colour.
fn draw_bars(pen: &Pen, case: &FifoCase, columns: &Columns, bar_w: f64, colours: &Colours) {
    let bottom = CHART_H - PAD_BOTTOM;
    for col in 0..columns.count() {
        let Some(dt) = columns.writes_in(col).map(|k| case.write_dt_ns[k]).max() else { continue };
        let y = y_of(dt as f64);
        pen.set_fill_style_str(if dt >= case.slow_ns { &colours.slow } else { &colours.fast });
        pen.fill_rect(columns.x_of_col(col), y, bar_w, (bottom - y).max(1.0));
    }
}

/// Bursts: a mark above their first write, labelled while there is room.
fn draw_burst_marks(
    pen: &Pen,
    width: f64,
    case: &FifoCase,
    columns: &Columns,
    bar_w: f64,
    colours: &Colours,
) {
    pen.set_fill_style_str(&colours.warm);
    pen.set_text_align("left");
    pen.set_text_baseline("top");
    let mut label_end = f64::NEG_INFINITY;
    for (number, b) in case.bursts.iter().enumerate() {
        let Some(first) = (b.first_write as usize).checked_sub(1) else { continue };
        let x = columns.x_of_col(columns.col_of(first)) + bar_w / 2.0;
        pen.begin_path();
        pen.move_to(x - 4.0, 2.0);
        pen.line_to(x + 4.0, 2.0);
        pen.line_to(x, 9.0);
        pen.close_path();
        pen.fill();
        let label = format!("{}", number + 1);
        if x + 6.0 > label_end && x + 20.0 < width {
            let _ = pen.fill_text(&label, x + 5.0, 1.0);
            label_end = x + 6.0 + 8.0 * label.len() as f64;
        }
    }
}

/// The x axis: the first and last write numbers, left out where the current
/// write's label would cover them.
fn draw_write_numbers(pen: &Pen, width: f64, n: usize, current_x: Option<(usize, f64)>, colours: &Colours) {
    let bottom = CHART_H - PAD_BOTTOM;
    pen.set_fill_style_str(&colours.muted);
    pen.set_text_baseline("top");
    let clear_of_current = |x: f64| current_x.is_none_or(|(_, at)| (at - x).abs() > 70.0);
    if clear_of_current(PAD_LEFT) {
        pen.set_text_align("left");
        let _ = pen.fill_text("write 1", PAD_LEFT, bottom + 5.0);
    }
    if clear_of_current(width - PAD_RIGHT) {
        pen.set_text_align("right");
        let _ = pen.fill_text(&group_digits(n as u64), width - PAD_RIGHT, bottom + 5.0);
    }
}

/// The current write `k` at `x`: a line, a dot at its dt, its number below.
fn draw_current_write(pen: &Pen, width: f64, x: f64, dt_ns: u64, k: usize, colours: &Colours) {
    let bottom = CHART_H - PAD_BOTTOM;
    pen.set_stroke_style_str(&colours.now);
    pen.set_line_width(2.0);
    pen.begin_path();
    pen.move_to(x, PAD_TOP - 4.0);
    pen.line_to(x, bottom);
    pen.stroke();
    pen.set_fill_style_str(&colours.now);
    pen.begin_path();
    let _ = pen.arc(x, y_of(dt_ns as f64), 4.0, 0.0, std::f64::consts::TAU);
    pen.fill();
    pen.set_text_align(if x > width / 2.0 { "right" } else { "left" });
    pen.set_text_baseline("top");
    let offset = if x > width / 2.0 { -6.0 } else { 6.0 };
    let _ = pen.fill_text(&format!("write {}", group_digits(k as u64 + 1)), x + offset, bottom + 5.0);
}

#[function_component(DtChart)]
pub(super) fn dt_chart(props: &ChartProps) -> Html {
    let canvas = use_node_ref();
    // Redraw triggers besides the props: the canvas's width and the colour scheme.
    let (width, theme) = use_redraw_triggers(canvas.clone());
    {
        let canvas = canvas.clone();
        let case = props.case.clone();
        use_effect_with(
            (Rc::as_ptr(&props.case) as usize, props.current, width, theme, props.measured),
            move |(_, current, width, _, measured)| {
                if *width > 0 {
                    if let Some(element) = canvas.cast::<web_sys::HtmlCanvasElement>() {
                        draw_chart(&element, &case, *current, *measured);
                    }
                }
            },
        );
    }
    let onclick = {
        let canvas = canvas.clone();
        let case = props.case.clone();
        let on_seek = props.on_seek.clone();
        let seekable = props.seekable;
        Callback::from(move |event: MouseEvent| {
            if !seekable {
                return;
            }
            let Some(element) = canvas.cast::<web_sys::Element>() else { return };
            let x = f64::from(event.offset_x());
            if let Some(k) = write_at(&case, f64::from(element.client_width()), x) {
                on_seek.emit(case.write_time_ns[k]);
            }
        })
    };
    // Keyboard: ← → jump to the previous / next slow write, Home / End to the first / last write.
    let onkeydown = {
        let case = props.case.clone();
        let on_seek = props.on_seek.clone();
        let current = props.current;
        let seekable = props.seekable;
        Callback::from(move |event: KeyboardEvent| {
            if !seekable || case.write_time_ns.is_empty() {
                return;
            }
            let slow = |k: &usize| case.write_dt_ns[*k] >= case.slow_ns;
            let last = case.write_time_ns.len() - 1;
            let target = match event.key().as_str() {
                "ArrowRight" => {
                    let from = current.map_or(0, |k| k + 1);
                    (from..=last).find(slow)
                }
                "ArrowLeft" => current.and_then(|k| (0..k).rev().find(slow)),
                "Home" => Some(0),
                "End" => Some(last),
                _ => return,
            };
            // The player's own arrow-key shortcuts must not step the run as well.
            event.prevent_default();
            event.stop_propagation();
            if let Some(k) = target {
                on_seek.emit(case.write_time_ns[k]);
            }
        })
    };
    let case = &props.case;
    let slow = case.write_dt_ns.iter().filter(|&&dt| dt >= case.slow_ns).count();
    let label = format!(
        "dt of each of {} writes on a log scale: {} slower than {}, in {}.{}{}{}",
        group_digits(case.write_dt_ns.len() as u64),
        group_digits(slow as u64),
        format::duration(case.slow_ns),
        slowpath_engine::run::narration::counted(case.bursts.len() as u64, "burst", "bursts"),
        props.current.map_or(String::new(), |k| format!(" Now at write {}.", group_digits(k as u64 + 1))),
        props.measured.map_or(String::new(), |band| format!(
            " A band: the longest writes measured on today's kernel, {} to {}.",
            format::duration(band.low_ns),
            format::duration(band.high_ns)
        )),
        if props.seekable {
            " Click a bar to jump to that write; with the chart focused, arrow keys jump between slow writes."
        } else {
            ""
        },
    );
    html! {
        <canvas ref={canvas} class={classes!("fifo-dt-chart", props.seekable.then_some("seekable"))}
            data-testid={props.testid} role="img" aria-label={label}
            data-current={props.current.map(|k| (k + 1).to_string())}
            style={format!("height: {}px", slowpath_engine::run::format::Shortest(CHART_H))} onclick={onclick} {onkeydown}
            tabindex={props.seekable.then_some("0")}></canvas>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_cover_every_write_once() {
        for (writes, width) in [(7_766usize, 800.0), (10, 800.0), (1, 80.0), (1_000, 300.0)] {
            let columns = Columns::new(writes, width);
            let mut seen = 0;
            for col in 0..columns.count() {
                let range = columns.writes_in(col);
                assert_eq!(range.start, seen, "{writes} writes, {width} px, column {col}");
                for k in range.clone() {
                    assert_eq!(columns.col_of(k), col);
                }
                seen = range.end;
            }
            assert_eq!(seen, writes);
        }
    }
}
