//! Two views for the sparse core dump beside the stage: dump time against
//! mapping size for every variant (each point a run of the engine), and what
//! the selected fix changes in the loop, line by line.

use slowpath_engine::cases::sparse_dump::{AddressSpace, REPORTED_DUMP_POINTS};
use slowpath_engine::run::format;
use slowpath_engine::run::params::ParamValue;
use slowpath_engine::run::trace::Metric;
use slowpath_engine::{CaseMeta, Run};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, Clone)]
pub struct ScalingProps {
    pub run: Rc<Run>,
    pub meta: &'static CaseMeta,
}

impl PartialEq for ScalingProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.run, &other.run)
    }
}

/// Mapping sizes plotted: 4 KiB to 64 TiB, ×4 apart, then 128 TiB.
const SIZES: [u64; 19] = {
    let mut sizes = [0u64; 19];
    sizes[18] = 128 << 40;
    let mut i = 0;
    while i < 18 {
        sizes[i] = 4096u64 << (2 * i);
        i += 1;
    }
    sizes
};
/// The variants' colours, on the page and in the saved chart alike.
const SERIES_COLOURS: [&str; 5] = ["#b91c1c", "#2563eb", "#15803d", "#c2410c", "#0891b2"];

fn dump_ns(metrics: &std::collections::BTreeMap<String, Metric>) -> u64 {
    match metrics.get("dump_ns") {
        Some(Metric::Ns(ns)) => *ns,
        _ => 0,
    }
}

/// Point `index` of the plot (variants × sizes, variant-major): this run's other
/// parameters at that size and variant, no SIGKILL.
fn point_key(meta: &'static CaseMeta, run: &Run, index: usize) -> Option<crate::worker::RunKey> {
    let variant = meta.variants.get(index / SIZES.len())?;
    let mut params = run.params.clone();
    params.0.insert("size".into(), ParamValue::Unsigned(SIZES[index % SIZES.len()]));
    params.0.insert("sigkill_at".into(), ParamValue::Unsigned(0));
    Some(crate::worker::RunKey { case: meta.id, variant: variant.id, seed: run.seed, params })
}

/// The points computed so far, grouped by variant: (variant, [(size, dump ns)]).
fn series(meta: &'static CaseMeta, points: &[Option<u64>]) -> Vec<(&'static str, Vec<(u64, u64)>)> {
    meta.variants
        .iter()
        .enumerate()
        .map(|(v, variant)| {
            let mine = points.iter().enumerate().skip(v * SIZES.len()).take(SIZES.len());
            (variant.id, mine.filter_map(|(i, ns)| Some((SIZES[i % SIZES.len()], (*ns)?))).collect())
        })
        .collect()
}

#[function_component(ScalingPlot)]
pub fn scaling_plot(props: &ScalingProps) -> Html {
    let meta = props.meta;
    let total = meta.variants.len() * SIZES.len();
    // The plot is many runs of the engine, made by its worker (the page stays
    // responsive even when this run's parameters make each of them heavy) and
    // drawn as they arrive. A new run (other parameters) asks for a new plot.
    let keys: Vec<crate::worker::RunKey> = if props.run.extras::<AddressSpace>().is_some() {
        (0..total).filter_map(|index| point_key(meta, &props.run, index)).collect()
    } else {
        Vec::new()
    };
    let figures = crate::worker::use_summaries(keys);
    // The dumps measured on today's kernel, from the results file the Today panel
    // reads (through the engine), drawn as × beside the model's curves.
    let today = meta.today;
    let results = crate::player::today::use_results_file(today.map(|check| check.url()));
    // Parsed once per file, not on every render while the plot's runs arrive.
    let kernel = crate::player::today::measured_release(&results);
    let measured = use_memo(results, |results| match &**results {
        Some(Ok(text)) => slowpath_engine::cases::sparse_dump::measured_dump_points(text),
        _ => Vec::new(),
    });
    let points: Vec<Option<u64>> = figures
        .iter()
        .map(|figures| {
            figures.as_ref().and_then(|f| f.as_ref().ok()).map(|summary| dump_ns(&summary.metrics))
        })
        .collect();
    let points = &points[..];
    let data = series(meta, points);
    if props.run.extras::<AddressSpace>().is_none() {
        return html! {};
    }
    let current_size = props.run.params.unsigned("size");
    let current_variant = props.run.variant;
    // What the page draws is the chart the SVG export saves (the engine's drawing).
    let chart = {
        use slowpath_engine::export::chart::{scaling_series, Chart, Mark, Marks, Series, Unit};
        let lines: Vec<Series> = data
            .iter()
            .zip(SERIES_COLOURS.iter().cycle())
            .map(|((variant, points), colour)| Series {
                emphasis: *variant == current_variant,
                ..Series::new(
                    meta.variant(variant).map_or(*variant, |v| v.label),
                    colour,
                    Mark::Line,
                    points.clone(),
                )
            })
            .collect();
        let here = data
            .iter()
            .filter(|(variant, _)| *variant == current_variant)
            .flat_map(|(_, points)| points.iter().copied().filter(|&(size, _)| size == current_size))
            .collect();
        let series = scaling_series(
            lines,
            Marks {
                reported: REPORTED_DUMP_POINTS.iter().map(|&(size, ns, _)| (size, ns)).collect(),
                measured: &measured,
                measured_on: &kernel,
                here,
                here_name: "this run's variant and size",
            },
        );
        Rc::new(Chart {
            name: "scaling",
            title: "Dump time against mapping size".to_string(),
            x_label: "mapping size",
            x_unit: Unit::Bytes,
            log_x: true,
            log_y: true,
            y_label: "dump time",
            y_unit: Unit::Ns,
            series,
        })
    };
    let done = points.iter().filter(|p| p.is_some()).count();
    html! {
        <figure class="panel scaling" data-testid="scaling-plot">
            <figcaption>
                { "Dump time against mapping size, log–log, every variant run by the engine with this run's other parameters and no SIGKILL. " }
                { for REPORTED_DUMP_POINTS.iter().map(|&(_, _, what)| format!("The red dot is {what}. ")) }
                if !measured.is_empty() {
                    { " Each small dot in the text's colour is the seed's program dumped on today's kernel (the median system time; see the Today panel)." }
                }
                { " Point at a dot for its value." }
                if done < total {
                    { format!(" Computing: {done} of {total} runs.") }
                }
            </figcaption>
            <crate::player::chart::ChartView chart={chart.clone()} testid="scaling-chart" />
            <crate::player::export::PlotExport run={props.run.clone()}
                table={Rc::new(slowpath_engine::export::chart::series_table(&chart))} chart={Some(chart)} />
            <ul class="scaling-legend" role="list">
                { for data.iter().map(|(variant, points)| {
                    let at_tib = points.iter().find(|(size, _)| *size == 1 << 40).map(|&(_, ns)| format::duration(ns)).unwrap_or_default();
                    html! { <li>{ format!("{variant}: {at_tib} at 1 TiB") }</li> }
                }) }
            </ul>
        </figure>
    }
}

/// A longest-common-subsequence line diff: which lines of each side are shared.
fn shared_lines(a: &[&str], b: &[&str]) -> (Vec<bool>, Vec<bool>) {
    // Compare the code only: indentation and trailing comments are presentation.
    let code = |line: &str| line.split("//").next().unwrap_or("").trim().to_string();
    let (a, b): (Vec<String>, Vec<String>) =
        (a.iter().map(|l| code(l)).collect(), b.iter().map(|l| code(l)).collect());
    let mut table = vec![vec![0u16; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            table[i][j] =
                if a[i] == b[j] { table[i + 1][j + 1] + 1 } else { table[i + 1][j].max(table[i][j + 1]) };
        }
    }
    let (mut in_a, mut in_b) = (vec![false; a.len()], vec![false; b.len()]);
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            in_a[i] = true;
            in_b[j] = true;
            i += 1;
            j += 1;
        } else if table[i + 1][j] >= table[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    (in_a, in_b)
}

/// The variant's dump loop beside the reported one's, as a diff of our pseudocode.
pub fn fix_diff(run: &Run) -> Html {
    let Some(AddressSpace { loop_as_reported, loop_of_variant, .. }) = run.extras::<AddressSpace>() else {
        return html! {};
    };
    if loop_as_reported == loop_of_variant {
        return html! {};
    }
    let (Some(before), Some(after)) =
        (run.code.get(usize::from(*loop_as_reported)), run.code.get(usize::from(*loop_of_variant)))
    else {
        return html! {};
    };
    let (kept_before, kept_after) = shared_lines(before.lines, after.lines);
    let side = |function: &slowpath_engine::run::narration::Function, kept: &[bool], mark: &'static str| {
        html! {
            <div class="diff-side">
                <p class="diff-title"><code>{ function.name }</code>{ " " }<a href={function.source_url} target="_blank" rel="noopener noreferrer">{ "source ↗" }</a></p>
                <pre class="pseudocode" tabindex="0" aria-label={format!("{}, lines {}", function.name, if mark == "removed" { "removed by the fix" } else { "the fix adds" })}>
                    { for function.lines.iter().zip(kept).map(|(line, kept)| html! {
                        <span class={classes!("line", (!kept).then_some(mark))}>
                            <span class="diff-mark" aria-hidden="true">{ if *kept { " " } else if mark == "removed" { "−" } else { "+" } }</span>
                            { *line }{ "\n" }
                        </span>
                    }) }
                </pre>
            </div>
        }
    };
    html! {
        <section class="panel fix-diff" aria-labelledby="diff-title" data-testid="fix-diff">
            <h2 id="diff-title">{ "What the fix changes" }</h2>
            <p class="muted">{ "The loop as reported, beside this variant's; changed lines are marked. Our own simplified rendering." }</p>
            <div class="diff">
                { side(before, &kept_before, "removed") }
                { side(after, &kept_after, "added") }
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_line_diff_marks_only_changed_lines() {
        let (a, b) = super::shared_lines(&["x", "y", "z"], &["x", "new", "z"]);
        assert_eq!(a, [true, false, true]);
        assert_eq!(b, [true, false, true]);
    }
}
