//! Threads against CPU time in ThreadGroupsAppend over the run's duration: the
//! model (this run's cache regime, and the band from all-hot to all-cold),
//! before and after the fix, beside the seed's measured points with their spread.

use crate::player::canvas::{context_2d, css_var, use_redraw_triggers};
use slowpath_engine::cases::gvisor_threadgroups::SentryShape;
use slowpath_engine::run::format::duration as format_duration;
use slowpath_engine::run::narration::group_digits;
use slowpath_engine::Run;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, Clone)]
pub struct ScalingProps {
    pub run: Rc<Run>,
}

impl PartialEq for ScalingProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.run, &other.run)
    }
}

const HEIGHT: f64 = 260.0;
const MS: f64 = 1_000_000.0;

#[function_component(ScalingPlot)]
pub fn scaling_plot(props: &ScalingProps) -> Html {
    let canvas = use_node_ref();
    let (width, theme) = use_redraw_triggers(canvas.clone());
    let Some(shape) = props.run.extras::<SentryShape>() else { return html! {} };
    {
        let canvas = canvas.clone();
        let shape = shape.clone();
        use_effect_with((width, theme, Rc::as_ptr(&props.run) as usize), move |_| draw(&canvas, &shape));
    }
    html! {
        <section class="gv-scaling" aria-label="Scaling">
            <h3>{ format!("CPU time in ThreadGroupsAppend over {} at {} Hz", format_duration(shape.duration_ns), 1_000_000_000 / shape.tick_ns.max(1)) }</h3>
            <canvas ref={canvas} class="gv-plot" role="img" aria-label="threads against CPU time, model and report" />
            <table class="gv-table">
                <thead><tr><th>{ "threads" }</th><th>{ "before (model)" }</th><th>{ "band: all hot – all cold" }</th><th>{ "reported before" }</th><th>{ "tgids (model)" }</th><th>{ "reported after" }</th></tr></thead>
                <tbody>
                    { for shape.scaling.iter().map(|p| {
                        let reported = shape.reported_before.iter().find(|r| r.0 == p.threads)
                            .map(|r| if r.1 == r.2 { format!("{} ms", group_digits(r.1)) } else { format!("{}–{} ms", group_digits(r.1), group_digits(r.2)) })
                            .unwrap_or_else(|| "—".into());
                        let after = if shape.reported_after.iter().any(|r| r.0 == p.threads) { "0 ms" } else { "—" };
                        html! { <tr>
                            <td>{ group_digits(p.threads) }</td>
                            <td>{ format_duration(p.before_ns) }</td>
                            <td>{ format!("{} – {}", format_duration(p.before_hot_ns), format_duration(p.before_cold_ns)) }</td>
                            <td>{ reported }</td>
                            <td>{ format_duration(p.tgids_ns) }</td>
                            <td>{ after }</td>
                        </tr> }
                    }) }
                </tbody>
            </table>
            <p class="gv-note">{ "The model's spread is one cache regime per run (the seed picks the share of cold visits); the report's spread at 1,024 and 4,096 threads (30–9,130 ms, 50–2,000 ms) is far wider, and it is not monotonic in N: the model does not reproduce it. The per-visit cost is calibrated on the 16,384-thread point (≈ 88 ns); 8,192 threads measured ≈ 185 ns per visit." }</p>
        </section>
    }
}

fn draw(canvas: &NodeRef, shape: &SentryShape) {
    let Some(element) = canvas.cast::<web_sys::HtmlCanvasElement>() else { return };
    let Some((pen, width)) = context_2d(&element, HEIGHT) else { return };
    let el: &web_sys::Element = &element;
    let text = css_var(el, "--text", "#222");
    let muted = css_var(el, "--muted", "#888");
    let before = css_var(el, "--gv-visited", "#e07020");
    let after = css_var(el, "--accent", "#2060c0");
    let band = css_var(el, "--warm-soft", "#fbe3cc");
    let (left, right, top, bottom) = (60.0, 16.0, 12.0, 36.0);
    let max_x = shape.scaling.iter().map(|p| p.threads).max().unwrap_or(1) as f64;
    let max_y = shape
        .scaling
        .iter()
        .map(|p| p.before_cold_ns as f64)
        .chain(shape.reported_before.iter().map(|r| r.2 as f64 * MS))
        .fold(1.0, f64::max)
        * 1.05;
    let x = |n: f64| left + n / max_x * (width - left - right);
    let y = |ns: f64| HEIGHT - bottom - ns / max_y * (HEIGHT - top - bottom);
    pen.clear_rect(0.0, 0.0, width, HEIGHT);
    // Band.
    pen.set_fill_style_str(&band);
    pen.begin_path();
    for (i, p) in shape.scaling.iter().enumerate() {
        let (px, py) = (x(p.threads as f64), y(p.before_cold_ns as f64));
        if i == 0 {
            pen.move_to(px, py)
        } else {
            pen.line_to(px, py)
        }
    }
    for p in shape.scaling.iter().rev() {
        pen.line_to(x(p.threads as f64), y(p.before_hot_ns as f64));
    }
    pen.close_path();
    pen.fill();
    // Axes.
    pen.set_stroke_style_str(&muted);
    pen.set_line_width(1.0);
    pen.begin_path();
    pen.move_to(left, top);
    pen.line_to(left, HEIGHT - bottom);
    pen.line_to(width - right, HEIGHT - bottom);
    pen.stroke();
    pen.set_fill_style_str(&text);
    pen.set_font("11px sans-serif");
    for k in 0..=4 {
        let ns = max_y / 4.0 * f64::from(k);
        let _ = pen.fill_text(&format!("{:.0} s", ns / 1e9), 8.0, y(ns) + 4.0);
        let n = max_x / 4.0 * f64::from(k);
        let label = group_digits(n as u64);
        let _ = pen.fill_text(
            &label,
            (x(n) - 14.0).min(width - right - 7.0 * label.len() as f64),
            HEIGHT - bottom + 16.0,
        );
    }
    let _ = pen.fill_text("threads", width - right - 50.0, HEIGHT - 4.0);
    // Model lines.
    for (colour, pick) in [(&before, 0usize), (&after, 1usize)] {
        pen.set_stroke_style_str(colour);
        pen.set_line_width(2.0);
        pen.begin_path();
        for (i, p) in shape.scaling.iter().enumerate() {
            let ns = if pick == 0 { p.before_ns } else { p.tgids_ns } as f64;
            let (px, py) = (x(p.threads as f64), y(ns));
            if i == 0 {
                pen.move_to(px, py)
            } else {
                pen.line_to(px, py)
            }
        }
        pen.stroke();
    }
    // The seed's points with their spread.
    for (points, colour) in [(shape.reported_before, &before), (shape.reported_after, &after)] {
        pen.set_stroke_style_str(colour);
        pen.set_fill_style_str(colour);
        pen.set_line_width(1.5);
        for &(n, lo, hi) in points {
            let px = x(n as f64);
            pen.begin_path();
            pen.move_to(px, y(lo as f64 * MS));
            pen.line_to(px, y(hi as f64 * MS));
            pen.stroke();
            for v in [lo, hi] {
                pen.begin_path();
                let _ = pen.arc(px, y(v as f64 * MS), 4.0, 0.0, std::f64::consts::TAU);
                pen.stroke();
            }
        }
    }
    pen.set_fill_style_str(&text);
    let _ = pen.fill_text(
        "lines: model (before, tgids) · shaded: all-hot to all-cold · circles: the seed's measurements",
        left + 8.0,
        top + 10.0,
    );
}
