//! The time to die against the number of threads, every variant (each point a
//! run, computed on demand), with the reported point; and the fixes' diff.

use slowpath_engine::run::format::duration as format_duration;
use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::trace::Metric;
use slowpath_engine::{CaseMeta, Run};
use std::rc::Rc;
use yew::prelude::*;

const NS: &[u64] = &[5, 10, 20, 40, 80, 100];

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
    let max =
        points.iter().flat_map(|(_, p)| p.iter().map(|&(_, l)| l)).max().unwrap_or(1).max(90_000_000_000);
    let (w, h, left, bottom) = (560.0, 260.0, 60.0, 30.0);
    let x = |n: u64| left + (n as f64 / 100.0) * (w - left - 10.0);
    let y = |l: u64| (h - bottom) - (l as f64 / max as f64) * (h - bottom - 10.0);
    html! {
        <section class="panel cdt-scaling" data-testid="cdt-scaling">
            <h2>{ "Time to die against the number of threads" }</h2>
            <p>{ "Each point is a run of this model with these settings and N threads: from the signal to the last thread gone. The crosses are the report (20 threads, about 12.4 s after ^\\) and the later figure in the thread (100 threads, about 90 s)." }</p>
            <button type="button" onclick={compute} data-testid="cdt-scaling-run">{ "Compute the curve (30 runs)" }</button>
            if !points.is_empty() {
                <svg viewBox={format!("0 0 {w} {h}")} role="img" aria-label="time to die against threads">
                    <line x1={left.to_string()} y1={(h - bottom).to_string()} x2={(w - 10.0).to_string()} y2={(h - bottom).to_string()} class="axis" />
                    <line x1={left.to_string()} y1="10" x2={left.to_string()} y2={(h - bottom).to_string()} class="axis" />
                    { NS.iter().map(|&n| html! { <text x={x(n).to_string()} y={(h - 10.0).to_string()} class="tick">{ n }</text> }).collect::<Html>() }
                    <text x="4" y={y(max).to_string()} class="tick">{ format_duration(max) }</text>
                    { points.iter().enumerate().map(|(k, (variant, pts))| {
                        let path: Vec<String> = pts.iter().map(|&(n, l)| format!("{:.1},{:.1}", x(n), y(l))).collect();
                        html! { <polyline points={path.join(" ")} class={format!("series s{k}")}><title>{ *variant }</title></polyline> }
                    }).collect::<Html>() }
                    <text x={(x(20) - 5.0).to_string()} y={(y(12_390_000_000) + 5.0).to_string()} class="reported">{ "×" }<title>{ "the report: 20 threads, about 12.4 s" }</title></text>
                    <text x={(x(100) - 5.0).to_string()} y={(y(90_000_000_000) + 5.0).to_string()} class="reported">{ "×" }<title>{ "later in the thread: 100 threads, about 90 s (2.6.14-rc4)" }</title></text>
                </svg>
                <table class="cdt-scaling-table">
                    <thead><tr><th>{ "variant" }</th>{ NS.iter().map(|n| html! { <th>{ format!("N = {n}") }</th> }).collect::<Html>() }</tr></thead>
                    <tbody>
                        { points.iter().map(|(variant, pts)| html! {
                            <tr><th>{ *variant }</th>{ pts.iter().map(|&(_, l)| html! { <td>{ format_duration(l) }</td> }).collect::<Html>() }</tr>
                        }).collect::<Html>() }
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
