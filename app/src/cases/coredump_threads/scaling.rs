//! The time to die against the number of threads, every variant (each point a
//! run, computed on demand), with the reported point; and the fixes' diff.

use slowpath_engine::cases::coredump_threads::{measured_exit_points, REPORTED_EXIT_POINTS};
use slowpath_engine::run::format::duration as format_duration;
use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::trace::Metric;
use slowpath_engine::{CaseMeta, Run};
use std::rc::Rc;
use yew::prelude::*;

const NS: &[u64] = &[5, 10, 20, 40, 80, 100];
/// The variants' colours, as `static/coredump.css` draws `.s0` … `.s5`.
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
    let keys: Vec<crate::worker::RunKey> = if *asked {
        let base = &props.run.params;
        meta.variants.iter().flat_map(|v| NS.iter().map(move |&n| point_key(meta, base, v.id, n))).collect()
    } else {
        Vec::new()
    };
    let figures = crate::worker::use_summaries(keys);
    // The deaths measured on today's kernel for this run's settings (the results file
    // the Today panel reads, through the engine), drawn as × beside today's curve.
    let today = slowpath_engine::case::find(meta.id).and_then(|case| case.today());
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
    let latency =
        |index: usize| match figures.get(index)?.as_ref()?.as_ref().ok()?.metrics.get("exit_latency_ns") {
            Some(Metric::Ns(v)) => Some(*v),
            _ => None,
        };
    let points: Vec<(&'static str, Vec<(u64, u64)>)> = if figures.is_empty() {
        Vec::new()
    } else {
        meta.variants
            .iter()
            .enumerate()
            .map(|(k, v)| {
                let row =
                    NS.iter().enumerate().filter_map(|(i, &n)| latency(k * NS.len() + i).map(|l| (n, l)));
                (v.id, row.collect())
            })
            .collect()
    };
    // The same points as an SVG chart and a CSV table, for slides and spreadsheets.
    let chart = (!points.is_empty()).then(|| {
        use slowpath_engine::export::chart::{reported_and_measured, Chart, Mark, Series, Unit};
        let mut series: Vec<Series> = points
            .iter()
            .enumerate()
            .map(|(k, (variant, pts))| Series {
                name: meta.variant(variant).map_or(*variant, |v| v.label).to_string(),
                colour: SERIES_COLOURS[k % SERIES_COLOURS.len()],
                mark: Mark::Line,
                points: pts.clone(),
            })
            .collect();
        series.extend(reported_and_measured(
            REPORTED_EXIT_POINTS.iter().map(|&(n, l, _)| (n, l)).collect(),
            &measured,
        ));
        Rc::new(Chart {
            name: "scaling",
            title: "Time to die against the number of threads".to_string(),
            x_label: "threads",
            x_unit: Unit::Count,
            log_x: false,
            log_y: true,
            y_label: "signal to the last thread gone",
            y_unit: Unit::Ns,
            series,
        })
    });
    let on_axis = |n: u64| n <= NS[NS.len() - 1];
    // A log scale: 2005's seconds and today's milliseconds on one plot, a decade per
    // gridline, from the smallest value's decade to the largest's.
    let values = points
        .iter()
        .flat_map(|(_, p)| p.iter().map(|&(_, l)| l))
        .chain(measured.iter().filter(|&&(n, _)| on_axis(n)).map(|&(_, l)| l))
        .chain(REPORTED_EXIT_POINTS.iter().map(|&(_, l, _)| l))
        .filter(|&l| l > 0);
    let (low, high) = values.fold((u64::MAX, 1), |(low, high), l| (low.min(l), high.max(l)));
    let decade_low = (low.max(1) as f64).log10().floor();
    let decade_high = (high.max(10) as f64).log10().ceil().max(decade_low + 1.0);
    let (w, h, left, bottom, right) = (560.0, 260.0, 60.0, 30.0, 20.0);
    let x = |n: u64| left + (n as f64 / 100.0) * (w - left - right);
    let y = |l: u64| {
        let share = ((l.max(1) as f64).log10() - decade_low) / (decade_high - decade_low);
        (h - bottom) - share * (h - bottom - 10.0)
    };
    let decades: Vec<u64> = (decade_low as u32..=decade_high as u32).map(|d| 10u64.pow(d)).collect();
    let kernel = match &*results {
        // "uname -r = 6.18.44-fc-v857 (…)": the release alone.
        Some(Ok(text)) => {
            let kernel = slowpath_engine::run::measured::TodayCheck::provenance(text).kernel;
            let release = kernel.trim_start_matches("uname -r = ");
            release.split_whitespace().next().unwrap_or(release).to_string()
        }
        _ => String::new(),
    };
    html! {
        <section class="panel cdt-scaling" data-testid="cdt-scaling">
            <h2>{ "Time to die against the number of threads" }</h2>
            <p>{ "Each point is a run of this model with these settings and N threads: from the signal to the last thread gone. \
                  The time axis is logarithmic (each line is ten times the one below), so that 2005's seconds and today's \
                  milliseconds fit on one plot. The red crosses are the report; the black ones were measured on today's \
                  kernel with the seed's program and the same settings, where they were measured." }</p>
            <button type="button" onclick={compute} data-testid="cdt-scaling-run">{ format!("Compute the curves ({} runs)", meta.variants.len() * NS.len()) }</button>
            if !points.is_empty() {
                <svg viewBox={format!("0 0 {w} {h}")} role="img" aria-label="time to die against threads, logarithmic time axis">
                    <line x1={left.to_string()} y1={(h - bottom).to_string()} x2={(w - right).to_string()} y2={(h - bottom).to_string()} class="axis" />
                    <line x1={left.to_string()} y1="10" x2={left.to_string()} y2={(h - bottom).to_string()} class="axis" />
                    { NS.iter().map(|&n| html! { <text x={x(n).to_string()} y={(h - 10.0).to_string()} class="tick">{ n }</text> }).collect::<Html>() }
                    { decades.iter().map(|&d| html! {
                        <>
                            <line x1={left.to_string()} y1={y(d).to_string()} x2={(w - right).to_string()} y2={y(d).to_string()} class="grid" />
                            <text x="4" y={(y(d) + 3.0).to_string()} class="tick">{ format_duration(d) }</text>
                        </>
                    }).collect::<Html>() }
                    { points.iter().enumerate().map(|(k, (variant, pts))| {
                        let path: Vec<String> = pts.iter().map(|&(n, l)| format!("{:.1},{:.1}", x(n), y(l))).collect();
                        html! { <polyline points={path.join(" ")} class={format!("series s{k}")}><title>{ *variant }</title></polyline> }
                    }).collect::<Html>() }
                    { for REPORTED_EXIT_POINTS.iter().map(|&(n, l, what)| html! {
                        <text x={x(n).to_string()} y={(y(l) + 5.0).to_string()} class="reported" text-anchor="middle">{ "×" }<title>{ what }</title></text>
                    }) }
                    { for measured.iter().filter(|&&(n, _)| on_axis(n)).map(|&(n, l)| html! {
                        <text x={x(n).to_string()} y={(y(l) + 5.0).to_string()} class="measured" text-anchor="middle"
                            data-testid="cdt-scaling-measured">
                            { "×" }<title>{ format!("measured on {kernel}: {n} threads, {} (median)", format_duration(l)) }</title>
                        </text>
                    }) }
                </svg>
                if let Some(chart) = chart {
                    <crate::player::export::PlotExport run={props.run.clone()}
                        table={Rc::new(slowpath_engine::export::chart::series_table(&chart))} chart={Some(chart)} />
                }
                <ul class="cdt-scaling-legend" data-testid="cdt-scaling-legend">
                    { for meta.variants.iter().enumerate().map(|(k, variant)| html! {
                        <li><span class={format!("key s{k}")}></span>{ variant.label }</li>
                    }) }
                    <li><span class="key-mark reported">{ "×" }</span>{ "the report" }</li>
                    if !measured.is_empty() {
                        <li><span class="key-mark measured">{ "×" }</span>{ format!("measured on {kernel}") }</li>
                    }
                </ul>
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
        </section>
    }
}

/// The two fixes of 2005 as a diff of our pseudocode (not the kernel's text).
#[function_component(FixDiff)]
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
