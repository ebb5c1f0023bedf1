use crate::player::model::Preset;
use crate::player::PlayerView;
use slowpath_engine::case::{CaseMeta, ReportedFigure, Source, VariantGroup, VariantSpec};
use slowpath_engine::run::params::quote_input;
use std::rc::Rc;
use yew::prelude::*;

/// The largest load the page builds: gVisor's case has 16,384 threads.
const TASKS_MAX: u32 = 16_384;

static SYNTHETIC: CaseMeta = CaseMeta {
    id: "synthetic-load",
    title: "Synthetic load (performance test)",
    year: 2026,
    system: "none",
    summary: "Many tasks changing state at random: not a case, a load for measuring the player.",
    sources: &[] as &[Source],
    params: &[],
    variants: &[VariantSpec {
        id: "synthetic",
        label: "Synthetic",
        description: "Seeded random state changes.",
        group: VariantGroup::AsReported,
    }],
    reported: &[] as &[ReportedFigure],
    headline_metric: "",
    headline_label: "",
    tour: &slowpath_engine::tour::Tour { stops: &[] },
    today: None,
    golden: None,
};

#[derive(Properties, PartialEq)]
pub struct PerfPageProps {
    pub query: AttrValue,
}

/// `#/__perf?tasks=N`: the player on a synthetic run, for `cargo xtask bench-web`.
#[function_component(PerfPage)]
pub fn perf_page(props: &PerfPageProps) -> Html {
    let tasks = props
        .query
        .split('&')
        .find_map(|pair| pair.strip_prefix("tasks="))
        .and_then(|text| text.parse::<u32>().ok())
        .unwrap_or(TASKS_MAX)
        .clamp(1, TASKS_MAX);
    // `#/__perf?run=<case>[&param=value…][&v=variant]`: time a run of that case in wasm, warm, several times.
    let timed = props.query.split('&').find_map(|pair| pair.strip_prefix("run=")).map(str::to_string);
    if let Some(id) = timed {
        // Percent-decoded as a link's values are: the Lab's workload comes so.
        let overrides: Vec<(String, String)> = form_urlencoded::parse(props.query.as_bytes())
            .filter(|(key, _)| key != "run")
            .map(|(key, value)| (key.into_owned(), value.into_owned()))
            .collect();
        return html! { <RunTimes id={id} overrides={overrides} /> };
    }
    let preset = use_memo(tasks, |&tasks| {
        Rc::new(Preset { run: Rc::new(slowpath_engine::run::synthetic::many_tasks(tasks, 64, 200, 1)) })
    });
    html! {
        <article class="case" data-testid="perf-page">
            <h1>{ format!("Load test: {tasks} tasks") }</h1>
            <p class="lede">{ SYNTHETIC.summary }</p>
            <PlayerView key={tasks.to_string()} meta={&SYNTHETIC} link={crate::player::link::OpenedLink::parse(&SYNTHETIC, "")} preset={(*preset).clone()} />
        </article>
    }
}

#[derive(Properties, PartialEq)]
struct RunTimesProps {
    id: String,
    /// Parameters to change from the defaults (unknown or invalid ones are ignored).
    overrides: Vec<(String, String)>,
}

/// Times a case's run ten times and shows (and exposes) each time: the first
/// includes compiling the wasm code it touches; the rest are warm, each the mean
/// of a batch of at least 20 ms (`run::timing`).
#[function_component(RunTimes)]
fn run_times(props: &RunTimesProps) -> Html {
    const RUNS: usize = 10;
    let times = use_memo((props.id.clone(), props.overrides.clone()), |(id, overrides)| {
        let Some(case) = slowpath_engine::simulation(id) else { return Vec::new() };
        let meta = case.meta();
        let mut params = meta.default_params();
        // `v=<variant>` as in a case link; an unknown one falls back to the default.
        let variant = overrides
            .iter()
            .find(|(key, _)| key == "v")
            .and_then(|(_, id)| meta.variant(id))
            .unwrap_or_else(|| meta.default_variant())
            .id;
        for (key, text) in overrides {
            if let Some(spec) = meta.params.iter().find(|spec| spec.name == key) {
                params.0.insert(spec.name.to_string(), spec.parse_clamped(text).0);
            }
        }
        let samples_ms = slowpath_engine::run::timing::sample_runs_ms(
            crate::perf::now_ms,
            || drop(slowpath_engine::run_checked(case, &params, variant, 1)),
            RUNS,
        );
        for (run, &ms) in samples_ms.iter().enumerate() {
            crate::perf::record("__slowpathRunRepeatMs", &run.to_string(), ms);
        }
        samples_ms
    });
    html! {
        <article class="case" data-testid="run-times">
            <h1>{ format!("Run times of {}{}", quote_input(&props.id), props.overrides.iter().map(|(k, v)| format!(" {}={}", quote_input(k), quote_input(v))).collect::<String>()) }</h1>
            <ol>{ for times.iter().map(|ms| html! { <li>{ format!("{} ms", slowpath_engine::run::format::Fixed(*ms, 2)) }</li> }) }</ol>
        </article>
    }
}
