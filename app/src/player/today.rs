//! "Does it still happen today?": for a case with a `today` variant, the figure
//! measured on a real, current kernel (from the results file `tools/measure/`
//! commits, through the engine) beside the model's `today` run and the report.
//! Every number comes from the engine: the measurement's median and provenance
//! from its file (fetched from the build's `measure/` copy of `tools/measure/`, so
//! the data is not in the wasm), the model's from a run made by the worker.

use crate::route::Route;
use slowpath_engine::run::format;
use slowpath_engine::run::narration::group_digits;
use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::trace::Metric;
use slowpath_engine::CaseMeta;
use yew::prelude::*;

#[derive(Properties)]
pub struct TodayProps {
    pub meta: crate::components::MetaRef,
    /// The case's measured figure (`Case::today`), if it has one.
    pub check: Option<&'static slowpath_engine::run::measured::TodayCheck>,
}

impl PartialEq for TodayProps {
    /// The check is the case's: the same case has the same one.
    fn eq(&self, other: &Self) -> bool {
        self.meta == other.meta
    }
}

#[function_component(TodayPanel)]
pub fn today_panel(props: &TodayProps) -> Html {
    let meta: &'static CaseMeta = props.meta.0;
    let check = props.check;
    let key = check.and_then(|check| {
        let variant = meta.variant(check.variant)?;
        let params = ParamValues::from_pairs_exact(meta.params, check.params.iter().copied()).ok()?;
        Some(crate::worker::RunKey { case: meta.id, variant: variant.id, seed: 1, params })
    });
    let figures = crate::worker::use_summaries(key.iter().cloned().collect());
    let results = use_results_file(check.map(|check| check.url()));
    let (Some(check), Some(key)) = (check, key) else { return html! {} };
    let model = match figures.first() {
        Some(Some(Ok(summary))) => match summary.metrics.get(check.metric) {
            Some(Metric::Ns(ns)) => format::duration(*ns),
            _ => "—".to_string(),
        },
        Some(Some(Err(why))) => format!("not made: {why}"),
        _ => "computing…".to_string(),
    };
    let (measured, provenance) = match &*results {
        Some(Ok(text)) => (
            check.measured_ns(text).map(|(ns, rows)| {
                format!("{} (median of {} runs)", format::duration(ns), group_digits(rows as u64))
            }),
            Some(slowpath_engine::run::measured::TodayCheck::provenance(text)),
        ),
        Some(Err(why)) => (Some(format!("the results file could not be read ({why})")), None),
        None => (Some("reading the results file…".to_string()), None),
    };
    let spreads = match &*results {
        Some(Ok(text)) => check.spreads(text),
        _ => Vec::new(),
    };
    let reported = meta.reported.iter().find(|figure| figure.metric == check.metric);
    let open_today = Route::Case {
        id: meta.id.to_string(),
        query: crate::player::url::PlayerQuery {
            params: key.params.clone(),
            variant: key.variant,
            seed: key.seed,
            ..crate::player::url::PlayerQuery::defaults(meta)
        }
        .to_query(meta),
    }
    .to_hash();
    html! {
        <section class="panel today-panel" aria-labelledby="today-title" data-testid="today-panel">
            <h3 id="today-title">{ "Does it still happen today?" }</h3>
            <p class="today-what">{ check.what }</p>
            <table class="today-table">
                <tbody>
                    if let Some(reported) = reported {
                        <tr>
                            <th scope="row">{ format!("The report ({}, {})", meta.system, meta.year) }</th>
                            <td data-testid="today-reported">{ reported.reported }</td>
                        </tr>
                    }
                    <tr>
                        <th scope="row">{ "This model, today variant" }</th>
                        <td data-testid="today-model">{ model }</td>
                    </tr>
                    <tr>
                        <th scope="row">{ "Measured on a real kernel" }</th>
                        <td data-testid="today-measured">
                            { measured.unwrap_or_else(|| "no measurement in the results file".to_string()) }
                        </td>
                    </tr>
                </tbody>
            </table>
            if let (Some(by), false) = (check.spread, spreads.is_empty()) {
                { spread_table(by.what, &spreads) }
            }
            if let Some(provenance) = provenance {
                <p class="today-provenance" data-testid="today-provenance">
                    { format!("Measured {} on {}; kernel {}. The model's run is seed 1: one draw where the model draws. ",
                              provenance.date, provenance.machine, provenance.kernel) }
                    <a href={check.url()} target="_blank" rel="noopener">{ "The measured rows" }</a>
                    { format!(" ({}; the method and the noise are in the README beside it.)", check.results_path) }
                </p>
            }
            <a class="button" href={open_today} data-testid="today-open">{ "Open the today variant" }</a>
        </section>
    }
}

/// How noisy the reference is: each group's measured runs, fastest to slowest.
fn spread_table(what: &str, spreads: &[slowpath_engine::run::measured::Spread]) -> Html {
    let ms = |value: f64| format::duration((value * 1e6).round() as u64);
    let widest = spreads
        .iter()
        .max_by(|a, b| (a.max_ms / a.min_ms.max(1e-9)).total_cmp(&(b.max_ms / b.min_ms.max(1e-9))));
    html! {
        <div class="today-spread" data-testid="today-spread">
            <p>{ what }</p>
            <table class="today-table">
                <thead><tr><th scope="col">{ "threads" }</th><th scope="col">{ "fastest – slowest" }</th><th scope="col">{ "median" }</th><th scope="col">{ "runs" }</th></tr></thead>
                <tbody>
                    { spreads.iter().map(|spread| html! {
                        <tr>
                            <th scope="row">{ group_digits(spread.group) }</th>
                            <td>{ format!("{} – {}", ms(spread.min_ms), ms(spread.max_ms)) }</td>
                            <td>{ ms(spread.median_ms) }</td>
                            <td>{ spread.runs }</td>
                        </tr>
                    }).collect::<Html>() }
                </tbody>
            </table>
            if let Some(widest) = widest {
                <p class="today-provenance">
                    { format!("The reference is noisy: at {} threads the slowest run took {} times as long as the fastest. \
                               The model's one figure is to be read against the whole range, not the median alone.",
                              group_digits(widest.group),
                              slowpath_engine::run::format::Fixed(widest.max_ms / widest.min_ms.max(1e-9), 0)) }
                </p>
            }
        </div>
    }
}

/// A results file as read: not yet (None), its text, or why not.
pub type ResultsText = std::rc::Rc<Option<Result<String, String>>>;

/// The kernel release a results file was measured on ("6.18.44-fc-v857", from its
/// "uname -r = 6.18.44-fc-v857 (…)" header), or "" before the file is read.
pub fn measured_release(results: &ResultsText) -> String {
    match &**results {
        Some(Ok(text)) => {
            let kernel = slowpath_engine::run::measured::TodayCheck::provenance(text).kernel;
            let release = kernel.trim_start_matches("uname -r = ");
            release.split_whitespace().next().unwrap_or(release).to_string()
        }
        _ => String::new(),
    }
}

thread_local! {
    /// Results files already read, by URL: the Today panel and a scaling plot read
    /// the same file, and a page reads it once.
    static READ: std::cell::RefCell<std::collections::BTreeMap<&'static str, ResultsText>> = Default::default();
}

/// The text of the results file at `url` (relative to the page), fetched once per page.
#[hook]
pub fn use_results_file(url: Option<&'static str>) -> ResultsText {
    let cached = || url.and_then(|url| READ.with(|read| read.borrow().get(url).cloned()));
    let text = use_state(|| cached().unwrap_or_default());
    {
        let text = text.clone();
        use_effect_with(url, move |url| {
            let request = url.filter(|_| text.is_none()).and_then(|url| {
                fetch_text(url, move |read| {
                    let read = std::rc::Rc::new(Some(read));
                    if matches!(*read, Some(Ok(_))) {
                        READ.with(|cache| cache.borrow_mut().insert(url, read.clone()));
                    }
                    text.set(read);
                })
            });
            move || {
                if let Some((request, _onload)) = request {
                    let _ = request.abort();
                }
            }
        });
    }
    (*text).clone()
}

/// GET `url` as text; `done` hears the text or why not. The closure lives as long
/// as the request it is returned with.
fn fetch_text(
    url: &str,
    done: impl Fn(Result<String, String>) + 'static,
) -> Option<(web_sys::XmlHttpRequest, wasm_bindgen::closure::Closure<dyn FnMut()>)> {
    use wasm_bindgen::JsCast;
    let request = web_sys::XmlHttpRequest::new().ok()?;
    request.open("GET", url).ok()?;
    let reader = request.clone();
    let onload = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || {
        let status = reader.status().unwrap_or(0);
        match reader.response_text() {
            Ok(Some(text)) if status == 200 => done(Ok(text)),
            _ => done(Err(format!("HTTP status {status}"))),
        }
    });
    request.set_onloadend(Some(onload.as_ref().unchecked_ref()));
    request.send().ok()?;
    Some((request, onload))
}
