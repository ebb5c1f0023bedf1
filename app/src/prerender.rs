//! The pages that need no engine in the browser, the landing and About, rendered to
//! HTML at build time (the `slowpath-prerender` binary, run by `cargo xtask gather`),
//! so that a first visit draws them from `index.html` without downloading the wasm.
//! They are the app's own components, rendered natively by Yew's server renderer;
//! the figures on the cards come from the native engine, from the same default runs
//! the engine's worker makes in the browser (a browser test compares the two).

use crate::components::{site_footer, site_header, KnownHeadlines};
use crate::pages::{about_page, landing_page};
use crate::route::Route;
use std::rc::Rc;
use yew::prelude::*;

/// Every listed case's headline figure, from its default run (the run a link with no
/// query opens), made by the native engine; a case whose run fails keeps the ellipsis.
pub fn headlines() -> Vec<(&'static str, String)> {
    slowpath_engine::listed()
        .filter_map(|entry| {
            let (meta, case) = (entry.meta, entry.simulation?);
            let key = crate::components::default_run_key(meta);
            let run = slowpath_engine::run_checked(case, &key.params, key.variant, key.seed).ok()?;
            let metric = run.metrics.get(meta.headline_metric)?;
            Some((meta.id, crate::player::panels::metric_text(meta.headline_metric, metric)))
        })
        .collect()
}

#[derive(Properties, PartialEq)]
struct StaticPagesProps {
    headlines: KnownHeadlines,
}

/// The shell as the app draws it (skip link, header, main, footer) holding both
/// pages; the boot script shows the one the route names and hides the other. Each
/// page carries its document title, so the boot script types none.
#[function_component(StaticPages)]
fn static_pages(props: &StaticPagesProps) -> Html {
    let title = |route: &Route| crate::app::page_title(route, None);
    html! {
        <ContextProvider<KnownHeadlines> context={props.headlines.clone()}>
            <button type="button" class="skip-link" data-skip-to-content="">{ "Skip to content" }</button>
            { site_header(&Route::Landing) }
            <main id="main" class="wrap site-main" tabindex="-1">
                <div class="static-page" data-static-page="landing" data-title={title(&Route::Landing)}>
                    { landing_page() }
                </div>
                <div class="static-page" data-static-page="about" data-title={title(&Route::About)}>
                    { about_page() }
                </div>
            </main>
            { site_footer() }
        </ContextProvider<KnownHeadlines>>
    }
}

/// The landing and About pages as one HTML fragment for `index.html`'s body.
pub fn static_pages_html(headlines: Vec<(&'static str, String)>) -> String {
    let props = StaticPagesProps { headlines: KnownHeadlines(Rc::new(headlines)) };
    let rendering = yew::LocalServerRenderer::<StaticPages>::with_props(props).hydratable(false).render();
    let inner = finish(rendering).unwrap_or_default();
    format!("<div id=\"static-pages\">{inner}</div>")
}

#[derive(Properties, PartialEq)]
struct CaseIntroProps {
    headlines: KnownHeadlines,
    meta: crate::components::MetaRef,
}

/// A case page's first screen while its module loads: the site's header and the
/// case's own header as the app draws them, and where the player will be, a line
/// that says it is on its way (named like the app's, so tests wait past it).
#[function_component(CaseIntro)]
fn case_intro(props: &CaseIntroProps) -> Html {
    let meta = props.meta.0;
    let why = crate::cases::card_for(meta.id).and_then(|card| card.why_figures_differ);
    html! {
        <ContextProvider<KnownHeadlines> context={props.headlines.clone()}>
            { site_header(&Route::case(meta.id)) }
            <main class="wrap site-main on-case">
                <article class="case" data-case-id={meta.id} aria-labelledby="case-title">
                    { crate::pages::case_header(meta, why) }
                    <section class="player player-loading" data-testid="player-loading" aria-label={format!("Player: {}", meta.title)}>
                        <div class="run-progress" role="status"><span>{ "Loading the simulation…" }</span></div>
                        // What the player will say first, for a link to the start (boot.js
                        // drops it for a link with a query: it may open elsewhere).
                        <section class="panel narration intro-start">
                            <div>{ crate::player::panels::start_narration(crate::player::url::DEFAULT_GRANULARITY) }</div>
                        </section>
                    </section>
                </article>
            </main>
        </ContextProvider<KnownHeadlines>>
    }
}

/// Case `meta`'s first screen, an HTML fragment that `static/boot.js` shows until the
/// app draws (fetched by `static/route.js` as `intros/<id>.html`).
pub fn case_intro_html(
    meta: &'static slowpath_engine::CaseMeta,
    headlines: Vec<(&'static str, String)>,
) -> String {
    let props = CaseIntroProps {
        headlines: KnownHeadlines(Rc::new(headlines)),
        meta: crate::components::MetaRef(meta),
    };
    finish(yew::LocalServerRenderer::<CaseIntro>::with_props(props).hydratable(false).render())
        .unwrap_or_default()
}

/// Runs a future that waits on nothing outside itself (Yew's rendering of components
/// with no suspense) to its end; None if it would wait, which a test rules out.
fn finish<F: std::future::Future>(future: F) -> Option<F::Output> {
    let mut future = std::pin::pin!(future);
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    // Rendering proceeds in a bounded number of polls; none is expected to be pending.
    for _ in 0..1_000 {
        if let std::task::Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return Some(output);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_static_pages_hold_both_pages_every_listed_case_and_its_figure() {
        let headlines = headlines();
        assert_eq!(headlines.len(), slowpath_engine::listed().count(), "every listed case has a figure");
        let html = static_pages_html(headlines.clone());
        assert!(html.starts_with("<div id=\"static-pages\">") && html.ends_with("</div>"));
        assert!(html.contains("data-static-page=\"landing\"") && html.contains("data-static-page=\"about\""));
        for entry in slowpath_engine::listed() {
            assert!(html.contains(&format!("data-case-id=\"{}\"", entry.meta.id)), "{}", entry.meta.id);
        }
        for (_, figure) in &headlines {
            assert!(html.contains(&format!("<strong>{figure}</strong>")), "{figure}");
        }
        assert!(!html.contains("aria-busy"), "no figure is left waiting for a worker");
    }

    #[test]
    fn a_case_intro_is_its_header_with_the_figure_and_a_player_on_its_way() {
        let headlines = headlines();
        for entry in slowpath_engine::listed() {
            let html = case_intro_html(entry.meta, headlines.clone());
            assert!(html.contains(&format!("<h1 id=\"case-title\">{}</h1>", entry.meta.title)), "{html}");
            assert!(html.contains("data-testid=\"player-loading\""), "{html}");
            if !entry.meta.reported.is_empty() {
                assert!(html.contains("data-testid=\"modelled-figure\""), "{html}");
            }
            assert!(!html.contains("aria-busy"), "no figure is left waiting for a worker");
        }
    }
}
