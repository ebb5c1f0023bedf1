use super::not_found::no_such_case;
use crate::cases::Resolved;
use crate::player::link::OpenedLink;
use crate::player::loader::PlayerLoader;
use crate::route::Route;
use slowpath_engine::{CaseMeta, ParamSpec};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// `#/case/<id>?<query>`: the player (the stage first), then what the case is:
/// variants, parameters, sources. The query is the player's state.
pub fn case_page(case: Option<Resolved>, id: &str, query: &str) -> Html {
    match case {
        Some(Resolved { meta, case: Some(simulation), ui, card }) => {
            let link = OpenedLink::parse(meta, query);
            let why_figures_differ = card.and_then(|card| card.why_figures_differ);
            html! { <CaseDetails case={simulation} {ui} {link} {why_figures_differ} query={AttrValue::from(query.to_string())} /> }
        }
        _ => no_such_case(id),
    }
}

/// The player's identity: the case and the link's query. A query alone would let a
/// hash change from one case to another (address bar, bookmark, back and forward)
/// keep the player of the first case, its run and all, under the second's title.
fn loader_key(meta: &CaseMeta, query: &str) -> String {
    format!("{}?{query}", meta.id)
}

#[derive(Properties)]
struct CaseDetailsProps {
    case: &'static dyn slowpath_engine::Case,
    ui: Option<&'static crate::cases::CaseUi>,
    /// The link's query as written (the player's identity) and as parsed.
    query: AttrValue,
    link: Rc<OpenedLink>,
    /// Why the model's headline figure is not the report's (the case's card says).
    why_figures_differ: Option<&'static str>,
}

impl PartialEq for CaseDetailsProps {
    fn eq(&self, other: &Self) -> bool {
        self.case.meta().id == other.case.meta().id && self.query == other.query
    }
}

#[function_component(CaseDetails)]
fn case_details(props: &CaseDetailsProps) -> Html {
    let meta = props.case.meta();
    // What the case is (below the player) is mounted after the player's details,
    // once the reader goes below the first screen, in three parts, one per frame:
    // the variants, the parameter table, the figures and sources (laid out at once,
    // its text was a long task of its own).
    const ABOUT_WAITS_FOR: [&str; 3] = [
        crate::components::GOING_BELOW[0],
        crate::components::GOING_BELOW[1],
        crate::components::DETAILS_SHOWN_EVENT,
    ];
    let about_shown = crate::components::use_parts_shown_on_approach(3, &ABOUT_WAITS_FOR, None);
    let route = Route::Case { id: meta.id.to_string(), query: props.query.to_string() };
    if route.embedded() || route.presenting() {
        // An embed or the presenter view: the player alone (it links back to this page itself).
        return html! {
            <article class="case case-embed" data-testid="case-page" data-case-id={meta.id} aria-label={meta.title}>
                <PlayerLoader key={loader_key(meta, &props.query)} case={props.case} case_ui={props.ui} link={props.link.clone()} />
            </article>
        };
    }
    // The stage first: one line of title, the summary behind a disclosure, then the
    // player; what the case is (variants, parameters, sources) is below it, one click
    // away from the player's jump buttons.
    html! {
        <article class="case" data-testid="case-page" data-case-id={meta.id} aria-labelledby="case-title">
            { case_header(meta, props.why_figures_differ) }

            // Keyed by the link: pasting another link into the address bar reopens the player.
            <PlayerLoader key={loader_key(meta, &props.query)} case={props.case} case_ui={props.ui} link={props.link.clone()} />

            if about_shown >= 1 {
            <section class="about-case" id="about" tabindex="-1" aria-labelledby="about-title">
                <h2 id="about-title">{ "About this case" }</h2>
                <p class="lede">{ meta.summary }</p>
                <section aria-labelledby="variants-title">
                    <h3 id="variants-title">{ "Variants" }</h3>
                    <ul class="variant-list" role="list">
                        { for meta.variants.iter().enumerate().map(|(index, variant)| html! {
                            <li key={variant.id}>
                                <p class="variant-name">
                                    <strong>{ variant.label }</strong>
                                    <code>{ variant.id }</code>
                                    if index == 0 { <span class="badge">{ "as reported" }</span> }
                                </p>
                                <p>{ variant.description }</p>
                            </li>
                        }) }
                    </ul>
                </section>

                if about_shown >= 2 {
                <section aria-labelledby="params-title">
                    <h3 id="params-title">{ "Parameters" }</h3>
                    { param_table(meta) }
                </section>
                }

                if about_shown >= 3 && !meta.reported.is_empty() {
                    <section aria-labelledby="reported-title">
                        <h3 id="reported-title">{ "What the report measured" }</h3>
                        <dl class="figures">
                            { for meta.reported.iter().map(|figure| html! {
                                <div key={figure.metric}>
                                    <dt>{ figure.label }</dt>
                                    <dd>{ figure.reported }</dd>
                                </div>
                            }) }
                        </dl>
                    </section>
                }

                if about_shown >= 3 {
                <section aria-labelledby="sources-title">
                    <h3 id="sources-title">{ "Sources" }</h3>
                    <ul class="source-list">
                        { for meta.sources.iter().map(|source| html! {
                            <li key={source.url}><a href={source.url}>{ source.label }</a></li>
                        }) }
                    </ul>
                </section>
                }
            </section>
            }
        </article>
    }
}

/// A case page's header: one line of title, the summary behind a disclosure, the
/// report's figure beside the model's. Also drawn at build time, as the page's
/// first screen while its module loads (`crate::prerender`).
pub fn case_header(meta: &'static CaseMeta, why_figures_differ: Option<&'static str>) -> Html {
    html! {
        <header class="case-header">
            <p class="case-titleline">
                <span class="badge">{ meta.year }</span>
                <span class="case-system">{ meta.system }</span>
            </p>
            <h1 id="case-title">{ meta.title }</h1>
            <WhatHappened summary={meta.summary} />
            <crate::components::TitleFigures meta={crate::components::MetaRef(meta)} why={why_figures_differ} />
        </header>
    }
}

/// Where the case pages keep whether "What happened" was last left open or closed.
const WHAT_HAPPENED_KEY: &str = "slowpath.what-happened";

#[derive(Properties, PartialEq)]
struct WhatHappenedProps {
    summary: &'static str,
}

/// "What happened", the case's summary behind a disclosure: open on a first visit
/// (nothing remembered), then as the reader last left it, on every case page.
#[function_component(WhatHappened)]
fn what_happened(props: &WhatHappenedProps) -> Html {
    let open = use_state(|| super::remember::recall(WHAT_HAPPENED_KEY).as_deref() != Some("closed"));
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |event: Event| {
            let Some(details) = event.target().and_then(|target| target.dyn_into::<web_sys::Element>().ok())
            else {
                return;
            };
            let now_open = details.has_attribute("open");
            super::remember::keep(WHAT_HAPPENED_KEY, if now_open { "open" } else { "closed" });
            open.set(now_open);
        })
    };
    html! {
        <details class="case-lede" data-testid="case-summary" open={*open} {ontoggle}>
            <summary>{ "What happened" }</summary>
            <p class="lede">{ props.summary }</p>
        </details>
    }
}

fn param_table(meta: &'static CaseMeta) -> Html {
    if meta.params.is_empty() {
        return html! { <p>{ "This case takes no parameters." }</p> };
    }
    html! {
        <div class="table-scroll" role="region" aria-label="Parameter table" tabindex="0">
            <table class="param-table" data-testid="param-table">
                <thead>
                    <tr>
                        <th scope="col">{ "Parameter" }</th>
                        <th scope="col">{ "Range" }</th>
                        <th scope="col">{ "Default" }</th>
                        <th scope="col">{ "What it changes" }</th>
                    </tr>
                </thead>
                <tbody>
                    { for meta.params.iter().map(param_row) }
                </tbody>
            </table>
        </div>
    }
}

fn param_row(spec: &'static ParamSpec) -> Html {
    let default = spec.format_value(&spec.kind.default_value());
    html! {
        <tr key={spec.name}>
            <th scope="row">
                <span class="param-label">{ spec.label }</span>
                <code>{ spec.name }</code>
            </th>
            <td class="nowrap" data-label="Range">{ spec.kind.range_text() }</td>
            <td class="nowrap" data-label="Default">{ default }</td>
            <td data-label="What it changes">{ spec.description }</td>
        </tr>
    }
}
