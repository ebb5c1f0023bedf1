//! The sweep's plot: fast writes between bursts and writes over 1 ms against the
//! swept parameter, log scales, the reported figure dashed, this run's value
//! dotted. A canvas, redrawn when its inputs, its width or the colour scheme change.

use super::{point_text, Point, Swept};
use crate::cases::fifo_trigger::colours::Colours;
use crate::player::canvas::{context_2d, use_redraw_triggers};
use crate::player::Clamped;
use slowpath_engine::run::narration::group_digits;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, Clone)]
pub(super) struct ChartProps {
    pub swept: Swept,
    /// Every value of the sweep, in order (the points so far are the first ones).
    pub xs: Rc<Vec<f64>>,
    pub points: Rc<Vec<Point>>,
    pub current_x: Option<f64>,
    pub reported: Option<(&'static str, f64)>,
    pub hover: Option<usize>,
    pub on_hover: Callback<Option<usize>>,
}

impl PartialEq for ChartProps {
    fn eq(&self, other: &Self) -> bool {
        self.swept == other.swept
            && self.points == other.points
            && self.xs == other.xs
            && self.current_x == other.current_x
            && self.reported == other.reported
            && self.hover == other.hover
    }
}

pub(super) const CHART_H: f64 = 260.0;
pub(super) const PAD_LEFT: f64 = 58.0;
pub(super) const PAD_RIGHT: f64 = 18.0;
pub(super) const PAD_TOP: f64 = 14.0;
pub(super) const PAD_BOTTOM: f64 = 44.0;
/// Points sit this far inside the plot's left and right edges.
pub(super) const INSET: f64 = 16.0;

/// The axes of one sweep, in CSS pixels.
pub(super) struct Axes {
    width: f64,
    swept: Swept,
    x_lo: f64,
    x_hi: f64,
    /// Decades on the y axis: 10^0 to 10^y_decades.
    y_decades: f64,
}

impl Axes {
    pub(super) fn new(swept: Swept, xs: &[f64], points: &[Point], reported: Option<f64>, width: f64) -> Axes {
        let t = |v: f64| if swept.log_scale() { v.max(1.0).log10() } else { v };
        let x_lo = xs.first().copied().map_or(0.0, t);
        let x_hi = xs.last().copied().map_or(1.0, t);
        let top = points
            .iter()
            .flat_map(|p| [p.fast.unwrap_or(0), p.slow])
            .map(|v| v as f64)
            .chain(reported)
            .fold(1.0f64, f64::max);
        Axes { width, swept, x_lo, x_hi, y_decades: top.log10().ceil().max(3.0) }
    }

    pub(super) fn x(&self, value: f64) -> f64 {
        let v = if self.swept.log_scale() { value.max(1.0).log10() } else { value };
        let span = (self.x_hi - self.x_lo).max(f64::EPSILON);
        let (left, right) = (PAD_LEFT + INSET, self.width - PAD_RIGHT - INSET);
        left + (v - self.x_lo) / span * (right - left).max(1.0)
    }

    fn y(&self, count: f64) -> f64 {
        let t = (count.max(1.0).log10() / self.y_decades).clamped(0.0, 1.0);
        PAD_TOP + (CHART_H - PAD_TOP - PAD_BOTTOM) * (1.0 - t)
    }

    fn bottom(&self) -> f64 {
        CHART_H - PAD_BOTTOM
    }
}

/// The point nearest to `x` (CSS pixels), if the pointer is over the plot.
pub(super) fn nearest(axes: &Axes, points: &[Point], x: f64) -> Option<usize> {
    if x < PAD_LEFT || x > axes.width - PAD_RIGHT {
        return None;
    }
    points
        .iter()
        .enumerate()
        .min_by(|(_, a), (_, b)| (axes.x(a.x) - x).abs().total_cmp(&(axes.x(b.x) - x).abs()))
        .map(|(i, _)| i)
}

/// One redraw: the pen, the axes and the plot's edges, each layer drawn in turn.
struct Plot {
    pen: web_sys::CanvasRenderingContext2d,
    colours: Colours,
    axes: Axes,
    right: f64,
    bottom: f64,
}

pub(super) fn draw(canvas: &web_sys::HtmlCanvasElement, props: &ChartProps) {
    let Some((pen, width)) = context_2d(canvas, CHART_H) else { return };
    let colours = Colours::of(canvas);
    pen.clear_rect(0.0, 0.0, width, CHART_H);
    pen.set_font(&format!("12px {}", colours.font));
    let points = &props.points;
    let axes = Axes::new(props.swept, &props.xs, points, props.reported.map(|(_, figure)| figure), width);
    let plot = Plot { pen, colours, bottom: axes.bottom(), axes, right: width - PAD_RIGHT };
    plot.decades();
    plot.x_ticks(props.swept, &props.xs);
    if let Some((_, figure)) = props.reported {
        plot.reported(figure);
    }
    if let Some(value) = props.current_x {
        plot.this_run(props.swept, value);
    }
    if let Some(point) = props.hover.and_then(|index| points.get(index)) {
        plot.hover_column(point);
    }
    let colours = &plot.colours;
    plot.series(
        points,
        props.hover,
        &colours.slow,
        &|point: &Point| (!point.failed).then_some(point.slow),
        true,
    );
    plot.series(points, props.hover, &colours.fast, &|point: &Point| point.fast, false);
    plot.no_bursts(points);
}

impl Plot {
    /// A gridline and a label at each decade of the y axis.
    fn decades(&self) {
        let (pen, colours) = (&self.pen, &self.colours);
        pen.set_text_align("right");
        pen.set_text_baseline("middle");
        pen.set_line_width(1.0);
        for decade in 0..=self.axes.y_decades as u32 {
            let value = 10f64.powi(decade as i32);
            let y = self.axes.y(value).round() + 0.5;
            pen.set_stroke_style_str(&colours.grid);
            pen.begin_path();
            pen.move_to(PAD_LEFT, y);
            pen.line_to(self.right, y);
            pen.stroke();
            pen.set_fill_style_str(&colours.muted);
            let _ = pen.fill_text(&group_digits(value as u64), PAD_LEFT - 6.0, y);
        }
    }

    /// The x ticks: every swept value, thinned when they would collide; then the
    /// axis title, shortened when the long one does not fit.
    fn x_ticks(&self, swept: Swept, xs: &[f64]) {
        let (pen, colours, right, bottom) = (&self.pen, &self.colours, self.right, self.bottom);
        pen.set_text_align("center");
        pen.set_text_baseline("top");
        let spacing = (right - PAD_LEFT - 2.0 * INSET) / (xs.len().max(2) - 1) as f64;
        let every = (44.0 / spacing.max(1.0)).ceil().max(1.0) as usize;
        for value in xs.iter().step_by(every) {
            let x = self.axes.x(*value).round() + 0.5;
            pen.set_stroke_style_str(&colours.grid);
            pen.begin_path();
            pen.move_to(x, bottom);
            pen.line_to(x, bottom + 4.0);
            pen.stroke();
            pen.set_fill_style_str(&colours.muted);
            let _ = pen.fill_text(&swept.tick(*value), x, bottom + 6.0);
        }
        let long = swept.axis_title(false);
        let fits = pen.measure_text(long).map_or(true, |metrics| metrics.width() <= right - PAD_LEFT);
        let _ = pen.fill_text(swept.axis_title(!fits), PAD_LEFT + (right - PAD_LEFT) / 2.0, bottom + 24.0);
    }

    /// The reported figure, dashed across the plot.
    fn reported(&self, figure: f64) {
        let (pen, warm, right) = (&self.pen, &self.colours.warm, self.right);
        let y = self.axes.y(figure).round() + 0.5;
        pen.set_stroke_style_str(warm);
        pen.set_line_width(1.5);
        let _ = pen.set_line_dash(&js_sys::Array::of2(&6.0.into(), &4.0.into()));
        pen.begin_path();
        pen.move_to(PAD_LEFT, y);
        pen.line_to(right, y);
        pen.stroke();
        let _ = pen.set_line_dash(&js_sys::Array::new());
        pen.set_fill_style_str(warm);
        pen.set_text_align("right");
        pen.set_text_baseline("bottom");
        let _ = pen.fill_text(&format!("reported ≈ {}", group_digits(figure as u64)), right - 2.0, y - 3.0);
    }

    /// This run's value, dotted, labelled on the side with more room.
    fn this_run(&self, swept: Swept, value: f64) {
        let (pen, now, right) = (&self.pen, &self.colours.now, self.right);
        let x = self.axes.x(value).clamped(PAD_LEFT, right).round() + 0.5;
        pen.set_stroke_style_str(now);
        pen.set_line_width(1.5);
        let _ = pen.set_line_dash(&js_sys::Array::of2(&2.0.into(), &3.0.into()));
        pen.begin_path();
        pen.move_to(x, PAD_TOP);
        pen.line_to(x, self.bottom);
        pen.stroke();
        let _ = pen.set_line_dash(&js_sys::Array::new());
        pen.set_fill_style_str(now);
        pen.set_text_baseline("top");
        let left_half = x < PAD_LEFT + (right - PAD_LEFT) / 2.0;
        pen.set_text_align(if left_half { "left" } else { "right" });
        let _ = pen.fill_text(
            &format!("this run: {}", swept.show(value)),
            x + if left_half { 4.0 } else { -4.0 },
            PAD_TOP + 2.0,
        );
    }

    /// The hovered point's column.
    fn hover_column(&self, point: &Point) {
        let pen = &self.pen;
        let x = self.axes.x(point.x).round() + 0.5;
        pen.set_stroke_style_str(&self.colours.muted);
        pen.set_line_width(1.0);
        pen.begin_path();
        pen.move_to(x, PAD_TOP);
        pen.line_to(x, self.bottom);
        pen.stroke();
    }

    /// One series: lines between consecutive points that have a value, then a
    /// marker on each (larger on the hovered one).
    fn series(
        &self,
        points: &[Point],
        hover: Option<usize>,
        colour: &str,
        value: &dyn Fn(&Point) -> Option<u64>,
        square: bool,
    ) {
        let (pen, axes) = (&self.pen, &self.axes);
        pen.set_stroke_style_str(colour);
        pen.set_line_width(2.0);
        pen.begin_path();
        let mut open = false;
        for point in points.iter() {
            match value(point) {
                Some(count) => {
                    let (x, y) = (axes.x(point.x), axes.y(count as f64));
                    if open {
                        pen.line_to(x, y);
                    } else {
                        pen.move_to(x, y);
                    }
                    open = true;
                }
                None => open = false,
            }
        }
        pen.stroke();
        for (index, point) in points.iter().enumerate() {
            let Some(count) = value(point) else { continue };
            let (x, y) = (axes.x(point.x), axes.y(count as f64));
            let radius = if hover == Some(index) { 6.0 } else { 4.5 };
            pen.set_fill_style_str(colour);
            pen.set_stroke_style_str(&self.colours.surface);
            pen.set_line_width(1.5);
            pen.begin_path();
            if square {
                pen.rect(x - radius, y - radius, 2.0 * radius, 2.0 * radius);
            } else {
                let _ = pen.arc(x, y, radius, 0.0, std::f64::consts::TAU);
            }
            pen.fill();
            pen.stroke();
        }
    }

    /// No repeated bursts: a cross on the floor of the plot.
    fn no_bursts(&self, points: &[Point]) {
        let pen = &self.pen;
        pen.set_fill_style_str(&self.colours.fast);
        pen.set_text_align("center");
        pen.set_text_baseline("bottom");
        pen.set_font(&format!("bold 15px {}", self.colours.font));
        for point in points.iter().filter(|point| point.fast.is_none()) {
            let _ = pen.fill_text("×", self.axes.x(point.x), self.bottom - 2.0);
        }
    }
}

#[function_component(SweepChart)]
pub(super) fn sweep_chart(props: &ChartProps) -> Html {
    let canvas = use_node_ref();
    let (width, theme) = use_redraw_triggers(canvas.clone());
    {
        let canvas = canvas.clone();
        let props = props.clone();
        use_effect_with((props.clone(), width, theme), move |(_, width, _)| {
            if *width > 0 {
                if let Some(element) = canvas.cast::<web_sys::HtmlCanvasElement>() {
                    draw(&element, &props);
                }
            }
        });
    }
    let onmousemove = {
        let canvas = canvas.clone();
        let props = props.clone();
        Callback::from(move |event: MouseEvent| {
            let Some(element) = canvas.cast::<web_sys::Element>() else { return };
            let axes =
                Axes::new(props.swept, &props.xs, &props.points, None, f64::from(element.client_width()));
            let at = nearest(&axes, &props.points, f64::from(event.offset_x()));
            if at != props.hover {
                props.on_hover.emit(at);
            }
        })
    };
    let onmouseleave = {
        let on_hover = props.on_hover.clone();
        Callback::from(move |_: MouseEvent| on_hover.emit(None))
    };
    let onkeydown = {
        let props = props.clone();
        Callback::from(move |event: KeyboardEvent| {
            let n = props.points.len();
            if n == 0 {
                return;
            }
            let next = match (event.key().as_str(), props.hover) {
                ("ArrowRight", None) | ("Home", _) => 0,
                ("ArrowLeft", None) | ("End", _) => n - 1,
                ("ArrowRight", Some(i)) => (i + 1).min(n - 1),
                ("ArrowLeft", Some(i)) => i.saturating_sub(1),
                _ => return,
            };
            // The player's own arrow-key shortcuts must not step the run as well.
            event.prevent_default();
            event.stop_propagation();
            props.on_hover.emit(Some(next));
        })
    };
    let label = format!(
        "Fast writes between bursts and writes over 1 ms against {}: {}.",
        props.swept.name(),
        props.points.iter().map(|p| point_text(props.swept, p)).collect::<Vec<_>>().join("; ")
    );
    html! {
        <canvas ref={canvas} class="sweep-canvas" data-testid="sweep-canvas" role="img" tabindex="0"
            aria-label={label} style={format!("height: {}px", slowpath_engine::run::format::Shortest(CHART_H))}
            {onmousemove} {onmouseleave} {onkeydown}></canvas>
    }
}
