//! Every thread as one cell of a canvas, for runs too big for cards (above 64
//! threads): dense views go on canvas, so that 4,096 threads are one element to
//! lay out, not 4,096 (a DOM strip took over 100 ms to mount). Hovering a cell
//! names its thread; the counts per kind are in words beside it for screen readers.

use crate::player::canvas::{context_2d, css_var, use_redraw_triggers};
use slowpath_engine::run::narration::group_digits;
use slowpath_engine::run::view::View;
use std::rc::Rc;
use yew::prelude::*;

/// What a cell shows; its colour comes from the stylesheet (`--cdt-<kind>`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Running,
    Loop,
    Dumper,
    Runnable,
    Asleep,
    Dead,
}

impl Kind {
    const ALL: [Kind; 6] =
        [Kind::Running, Kind::Loop, Kind::Dumper, Kind::Runnable, Kind::Asleep, Kind::Dead];

    fn css(self) -> (&'static str, &'static str) {
        match self {
            Kind::Running => ("--cdt-running", "#2a7ae2"),
            Kind::Loop => ("--cdt-loop", "#f0ad4e"),
            Kind::Dumper => ("--cdt-dumper", "#d9534f"),
            Kind::Runnable => ("--cdt-runnable", "#88888844"),
            Kind::Asleep => ("--cdt-asleep", "#88888822"),
            Kind::Dead => ("--cdt-dead", "#88888811"),
        }
    }

    fn word(self) -> &'static str {
        match self {
            Kind::Running => "running",
            Kind::Loop => "in the signal loop",
            Kind::Dumper => "the dumper",
            Kind::Runnable => "runnable",
            Kind::Asleep => "asleep or stopped",
            Kind::Dead => "dead or not created",
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct HeatProps {
    /// Where a hovered cell's name and state come from.
    pub view: Rc<View>,
    /// One kind per thread, in the view's order.
    pub kinds: Vec<Kind>,
}

const CELL_W: f64 = 7.0;
const CELL_H: f64 = 11.0;
const ASSUMED_WIDTH: f64 = 640.0;

fn columns(width: f64) -> usize {
    ((width / CELL_W).floor() as usize).max(1)
}

#[function_component(HeatStrip)]
pub fn heat_strip(props: &HeatProps) -> Html {
    let canvas = use_node_ref();
    let (width, theme) = use_redraw_triggers(canvas.clone());
    let hovered = use_state(|| None::<usize>);
    // Until the canvas is laid out its width reads 0: assume a typical stage width
    // rather than one column (which would ask for a canvas 45,000 px tall).
    let laid_out = if width > 0 { f64::from(width) } else { ASSUMED_WIDTH };
    let rows = props.kinds.len().div_ceil(columns(laid_out));
    let height = (rows.max(1) as f64) * CELL_H;
    {
        let canvas = canvas.clone();
        let kinds = props.kinds.clone();
        use_effect_with((kinds, width, theme), move |(kinds, width, _)| {
            // Until the resize observer reports a width, drawing would force a layout.
            if *width > 0 {
                draw(&canvas, kinds, height);
            }
        });
    }
    let onmousemove = {
        let hovered = hovered.clone();
        let len = props.kinds.len();
        Callback::from(move |event: MouseEvent| {
            let Some(target) = event.target_dyn_into::<web_sys::HtmlCanvasElement>() else { return };
            let cols = columns(f64::from(target.client_width().max(1)));
            let (x, y) = (f64::from(event.offset_x()), f64::from(event.offset_y()));
            let index = (y / CELL_H).floor() as usize * cols + (x / CELL_W).floor() as usize;
            hovered.set((index < len && x < cols as f64 * CELL_W).then_some(index));
        })
    };
    let onmouseleave = {
        let hovered = hovered.clone();
        Callback::from(move |_: MouseEvent| hovered.set(None))
    };
    let title = (*hovered)
        .and_then(|index| props.view.tasks.get(index))
        .map(|task| format!("{}: {}", task.name, super::stage::doing(task).0));
    let counts: Vec<String> = Kind::ALL
        .iter()
        .filter_map(|&kind| {
            let n = props.kinds.iter().filter(|&&k| k == kind).count();
            (n > 0).then(|| format!("{} {}", group_digits(n as u64), kind.word()))
        })
        .collect();
    let summary = format!("{} threads: {}", group_digits(props.kinds.len() as u64), counts.join(", "));
    html! {
        <div class="cdt-heat" data-testid="cdt-heat">
            <canvas ref={canvas} class="cdt-heat-canvas" style={format!("height: {}px", slowpath_engine::run::format::Shortest(height))}
                role="img" aria-label={summary.clone()} title={title.clone().unwrap_or_default()}
                {onmousemove} {onmouseleave} />
            <p class="cdt-heat-words" data-testid="cdt-heat-words">
                { title.unwrap_or(summary) }
            </p>
        </div>
    }
}

fn draw(canvas: &NodeRef, kinds: &[Kind], height: f64) {
    let Some(element) = canvas.cast::<web_sys::HtmlCanvasElement>() else { return };
    let Some((pen, width)) = context_2d(&element, height) else { return };
    pen.clear_rect(0.0, 0.0, width, height);
    let cols = columns(width);
    // One fill style per kind, not per cell: a style change is the slow part.
    for kind in Kind::ALL {
        let (name, fallback) = kind.css();
        pen.set_fill_style_str(&css_var(&element, name, fallback));
        for (index, _) in kinds.iter().enumerate().filter(|(_, &k)| k == kind) {
            let (row, col) = (index / cols, index % cols);
            pen.fill_rect(col as f64 * CELL_W, row as f64 * CELL_H, CELL_W - 1.0, CELL_H - 1.0);
        }
    }
}
