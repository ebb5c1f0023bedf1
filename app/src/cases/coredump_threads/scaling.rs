//! The time to die against the number of threads, every variant (each point a
//! run, computed on demand), with the reported point; and the fixes' diff.

use slowpath_engine::cases::coredump_threads::{
    measured_exit_points, REPORTED_EXIT_POINTS, UNKNOWN_SETUP_EXIT_POINTS,
};
use slowpath_engine::run::format::duration as format_duration;
use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::trace::Metric;
use slowpath_engine::{CaseMeta, Run};
use std::rc::Rc;
use yew::prelude::*;

/// Thread counts plotted, on a log axis, the report's 20 among them. Not 1,000: at
/// the report's 1.3 s the model's main has created only 944 threads (the first ones
/// starve it), so a point there would time another experiment.
const NS: &[u64] = &[5, 10, 20, 40, 100, 200, 500];
/// The variants' colours, on the page and in the saved chart alike.
const SERIES_COLOURS: &[&str] = &["#d9534f", "#5cb85c", "#2a7ae2", "#9b59b6", "#f0ad4e", "#17a2b8"];

#[derive(Properties, Clone)]
pub struct PlotProps {
    pub run: Rc<Run>,
    pub meta: &'static CaseMeta,
}

impl PartialEq for PlotProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.run, &other.run)
    }
}

/// The run of point N for `variant`: this run's other parameters, N threads.
fn point_key(
    meta: &'static CaseMeta,
    base: &ParamValues,
    variant: &'static str,
    n: u64,
) -> crate::worker::RunKey {
    let mut params = base.clone();
    params.0.insert("threads".into(), slowpath_engine::ParamValue::Unsigned(n));
    crate::worker::RunKey { case: meta.id, variant, seed: 1, params }
}

/// The other regime of the as-reported kernel: no CPU limit when this run has one (the
/// seed's 5 s when it has none), so that both growth laws are on the plot.
fn other_regime(base: &ParamValues) -> (ParamValues, &'static str, &'static str) {
    let (value, label) = if base.word("rlimit_cpu") == "none" {
        ("5", "2.6.14-rc2, RLIMIT_CPU 5 s (the seed's)")
    } else {
        ("none", "2.6.14-rc2, no CPU limit")
    };
    let mut params = base.clone();
    params.0.insert("rlimit_cpu".into(), slowpath_engine::ParamValue::Word(value.to_string()));
    (params, "2.6.14-rc2", label)
}

/// One curve: a name and its points (threads, time to die).
type Curve = (&'static str, Vec<(u64, u64)>);

#[function_component(ScalingPlot)]
pub fn scaling_plot(props: &PlotProps) -> Html {
    let meta = props.meta;
    // The curve is many runs: asked of the engine's worker on demand, drawn as
    // they arrive.
    let asked = use_state(|| false);
    let compute = {
        let asked = asked.clone();
        Callback::from(move |_| asked.set(true))
    };
    let (other_params, other_variant, other_label) = other_regime(&props.run.params);
    let keys =
        if *asked { point_keys(meta, &props.run.params, &other_params, other_variant) } else { Vec::new() };
    let figures = crate::worker::use_summaries(keys);
    // The deaths measured on today's kernel for this run's settings (the results file
    // the Today panel reads, through the engine), drawn as × beside today's curve.
    let today = meta.today;
    let results = crate::player::today::use_results_file(today.map(|check| check.url()));
    let params = &props.run.params;
    let setting = (
        params.word("mode") != "pause",
        params.unsigned("cpus") as u32,
        params.word("signal").to_string(),
        params.word("core_limit") != "unlimited",
    );
    let measured =
        use_memo(
            (results.clone(), setting),
            |(results, (spin, cpus, signal, core_limited))| match &**results {
                Some(Ok(text)) => measured_exit_points(text, *spin, *cpus, signal, *core_limited),
                _ => Vec::new(),
            },
        );
    let points = curves(meta, &figures, other_label);
    let kernel = crate::player::today::measured_release(&results);
    let chart = (!points.is_empty()).then(|| scaling_chart(meta, &props.run, &points, &measured, &kernel));
    html! {
        <section class="panel cdt-scaling" data-testid="cdt-scaling">
            <h2>{ "Time to die against the number of threads" }</h2>
            <p>{ "Each point is a run of this model with these settings and N threads: from the signal to the last thread gone. \
                  Both axes are logarithmic (each time line is ten times the one below), so that 2005's seconds and today's \
                  milliseconds, 5 and 500 threads, fit on one plot. It stops at 500: with the signal at the report's 1.3 s, \
                  main has not finished creating 1,000 threads (the first ones starve it), which would be another experiment. The red dot is the report (20 threads, \
                  the seed's 5 s CPU limit); the orange one is the 100-thread run quoted later in the thread, whose CPU limit and signal time \
                  were not given: read it against both regimes of the as-reported kernel, with this run's CPU limit and with the other one \
                  (about one second per thread without a limit, about half with the seed's). The small dots in the text's colour were measured on today's \
                  kernel with the seed's program and the same settings, where they were measured. A dashed line lies on another \
                  (a fix that changes nothing here). Point at a dot for its value." }</p>
            <button type="button" onclick={compute} data-testid="cdt-scaling-run">{ format!("Compute the curves ({} runs)", (meta.variants.len() + 1) * NS.len()) }</button>
            if let Some(chart) = chart {
                <crate::player::chart::ChartView chart={chart.clone()} testid="cdt-scaling-chart" />
                <crate::player::export::PlotExport run={props.run.clone()}
                    table={Rc::new(slowpath_engine::export::chart::series_table(&chart))} chart={Some(chart)} />
                { scaling_table(&points, &measured, &kernel) }
            }
        </section>
    }
}

/// The runs of the plot: every variant at each N, then the as-reported kernel in
/// the other CPU-limit regime.
fn point_keys(
    meta: &'static CaseMeta,
    base: &ParamValues,
    other_params: &ParamValues,
    other_variant: &'static str,
) -> Vec<crate::worker::RunKey> {
    let other = NS.iter().map(|&threads| point_key(meta, other_params, other_variant, threads));
    meta.variants
        .iter()
        .flat_map(|variant| NS.iter().map(move |&threads| point_key(meta, base, variant.id, threads)))
        .chain(other)
        .collect()
}

/// One row a variant, then the as-reported kernel in the other CPU-limit regime,
/// each with the points whose runs have come back; none before the runs are asked.
fn curves(
    meta: &'static CaseMeta,
    figures: &[crate::worker::Figures],
    other_label: &'static str,
) -> Vec<Curve> {
    if figures.is_empty() {
        return Vec::new();
    }
    let latency =
        |index: usize| match figures.get(index)?.as_ref()?.as_ref().ok()?.metrics.get("exit_latency_ns") {
            Some(Metric::Ns(value)) => Some(*value),
            _ => None,
        };
    let row = |curve: usize| -> Vec<(u64, u64)> {
        NS.iter()
            .enumerate()
            .filter_map(|(index, &threads)| latency(curve * NS.len() + index).map(|ns| (threads, ns)))
            .collect()
    };
    let mut rows: Vec<Curve> =
        meta.variants.iter().enumerate().map(|(curve, variant)| (variant.id, row(curve))).collect();
    rows.push((other_label, row(meta.variants.len())));
    rows
}

/// What the page draws is the chart the SVG export saves (the engine's drawing):
/// log axes, so that 2005's seconds and today's milliseconds fit on one plot.
fn scaling_chart(
    meta: &'static CaseMeta,
    run: &Run,
    points: &[Curve],
    measured: &[(u64, u64)],
    kernel: &str,
) -> Rc<slowpath_engine::export::chart::Chart> {
    use slowpath_engine::export::chart::{scaling_series, Chart, Mark, Marks, Series, Unit};
    let on_axis = |threads: u64| threads <= NS[NS.len() - 1];
    let this_n = run.params.unsigned("threads");
    let lines: Vec<Series> = points
        .iter()
        .enumerate()
        .map(|(curve, (variant, pts))| Series {
            emphasis: *variant == run.variant,
            ..Series::new(
                meta.variant(variant).map_or(*variant, |found| found.label),
                SERIES_COLOURS[curve % SERIES_COLOURS.len()],
                Mark::Line,
                pts.clone(),
            )
        })
        .collect();
    let on_plot: Vec<(u64, u64)> =
        measured.iter().copied().filter(|&(threads, _)| on_axis(threads)).collect();
    let here = points
        .iter()
        .filter(|(variant, _)| *variant == run.variant)
        .flat_map(|(_, pts)| pts.iter().copied().filter(|&(threads, _)| threads == this_n))
        .collect();
    let mut series = scaling_series(
        lines,
        Marks {
            reported: REPORTED_EXIT_POINTS.iter().map(|&(threads, ns, _)| (threads, ns)).collect(),
            measured: &on_plot,
            measured_on: kernel,
            here,
            here_name: "this run's variant and N",
        },
    );
    // The report's second point, whose CPU limit and signal time were not given: a
    // dot of its own, so that it is read against both regimes' lines.
    series.push(Series {
        class: "reported",
        ..Series::new(
            UNKNOWN_SETUP_EXIT_POINTS[0].2,
            "#e67e22",
            Mark::Dots,
            UNKNOWN_SETUP_EXIT_POINTS.iter().map(|&(threads, ns, _)| (threads, ns)).collect(),
        )
    });
    Rc::new(Chart {
        name: "scaling",
        title: "Time to die against the number of threads".to_string(),
        x_label: "threads",
        x_unit: Unit::Count,
        log_x: true,
        log_y: true,
        y_label: "signal to the last thread gone",
        y_unit: Unit::Ns,
        series,
    })
}

/// The plot's numbers as a table: a row a curve, and the measured row if any.
fn scaling_table(points: &[Curve], measured: &[(u64, u64)], kernel: &str) -> Html {
    html! {
        <table class="cdt-scaling-table">
            <thead><tr><th>{ "variant" }</th>{ NS.iter().map(|n| html! { <th>{ format!("N = {n}") }</th> }).collect::<Html>() }</tr></thead>
            <tbody>
                { points.iter().map(|(variant, pts)| html! {
                    <tr><th>{ *variant }</th>{ pts.iter().map(|&(_, l)| html! { <td>{ format_duration(l) }</td> }).collect::<Html>() }</tr>
                }).collect::<Html>() }
                if !measured.is_empty() {
                    <tr data-testid="cdt-scaling-measured-row">
                        <th>{ format!("measured on {kernel}") }</th>
                        { NS.iter().map(|&n| html! { <td>{ measured.iter().find(|&&(m, _)| m == n).map_or_else(String::new, |&(_, l)| format_duration(l)) }</td> }).collect::<Html>() }
                    </tr>
                }
            </tbody>
        </table>
    }
}

/// The two fixes of 2005 as a diff of our pseudocode (not the kernel's text).
pub fn fix_diff() -> Html {
    let lines: &[(&str, &str)] = &[
        (" ", "do_coredump():"),
        (" ", "    spin_lock_irq(siglock)"),
        (" ", "    signal->flags = SIGNAL_GROUP_EXIT"),
        ("+", "    signal->group_stop_count = 0        // fix b, Nov 2005"),
        (" ", "    spin_unlock_irq(siglock)"),
        (" ", "    coredump_wait(mm):"),
        (" ", "        mm->core_waiters++"),
        ("-", "        yield()                         // fix a, Oct 2005: removed"),
        (" ", "        zap_threads(mm)"),
    ];
    html! {
        <section class="panel cdt-diff" data-testid="cdt-diff">
            <h2>{ "The fixes, on our pseudocode" }</h2>
            <pre>
                { lines.iter().map(|(mark, text)| {
                    let class = match *mark { "+" => "add", "-" => "del", _ => "ctx" };
                    html! { <div class={class}>{ format!("{mark} {text}") }</div> }
                }).collect::<Html>() }
            </pre>
            <p>{ "With a alone the dumper no longer waits behind the looping threads. With b alone (the reset-only variant, never shipped) the threads leave the kernel but keep spinning in user mode while the dumper waits in the expired array: still slow. 2.6.18 queues SIGKILL for every thread in the same siglock section." }</p>
        </section>
    }
}
