//! The report's headline figure beside the model's, with why they differ, wherever
//! the two meet: a case's card, its title, its tour. The reported figure is the
//! engine's metadata (`CaseMeta::reported`), the modelled one the default run's,
//! made by the worker after the page is drawn; the why is the case's card's.

use crate::worker::RunKey;
use slowpath_engine::CaseMeta;
use yew::prelude::*;

/// The run the pages set beside the report: the case's defaults, as a link with no
/// query opens it (the seed included).
pub fn default_run_key(meta: &'static CaseMeta) -> RunKey {
    RunKey {
        case: meta.id,
        variant: meta.default_variant().id,
        seed: crate::player::url::DEFAULT_SEED,
        params: meta.default_params(),
    }
}

/// Headline figures already made, by case id: the build's prerendering provides them
/// (made by the native engine from the same default runs), and then no worker is asked.
#[derive(Clone, PartialEq, Default)]
pub struct KnownHeadlines(pub std::rc::Rc<Vec<(&'static str, String)>>);

/// The default run's headline figure as text: None until the worker has made it
/// (or if it could not).
#[hook]
pub fn use_modelled_headline(meta: &'static CaseMeta) -> Option<String> {
    let known = use_context::<KnownHeadlines>();
    let asked = if known.is_some() { Vec::new() } else { vec![default_run_key(meta)] };
    let figures = crate::worker::use_summaries(asked);
    if let Some(known) = known {
        return known.0.iter().find(|(id, _)| *id == meta.id).map(|(_, figure)| figure.clone());
    }
    figures.first().cloned().flatten().and_then(Result::ok).and_then(|summary| {
        summary
            .metrics
            .get(meta.headline_metric)
            .map(|metric| crate::player::panels::metric_text(meta.headline_metric, metric))
    })
}

/// "Reported … · modelled … — why": nothing for a case whose report gives no headline
/// figure. `modelled` None (not made yet) keeps the line's place with an ellipsis.
pub fn reported_vs_modelled(
    meta: &'static CaseMeta,
    modelled: Option<&str>,
    why: Option<&'static str>,
) -> Html {
    let Some(reported) = meta.reported.iter().find(|figure| figure.metric == meta.headline_metric) else {
        return Html::default();
    };
    html! {
        <p class="reported-vs-modelled" data-testid="reported-vs-modelled">
            <span class="figure-pair">
                { "Reported " }<strong data-testid="reported-figure" title={reported.reported}>{ the_figure(reported.reported) }</strong>
            </span>
            <span class="sep">{ " · " }</span>
            <span class="figure-pair">
                { "modelled " }<strong data-testid="modelled-figure" aria-busy={modelled.is_none().then_some("true")}>
                    { modelled.unwrap_or("…") }
                </strong>
            </span>
            if let Some(why) = why {
                <span class="figures-why" data-testid="figures-why">{ " — " }{ why }</span>
            }
        </p>
    }
}

/// The reported figure itself: the report's words up to their first aside (a
/// parenthesis or a semicolon), which the page's "What the report measured" gives
/// whole (and the figure's tooltip here).
fn the_figure(reported: &str) -> &str {
    let end = [" (", ";"].iter().filter_map(|aside| reported.find(aside)).min().unwrap_or(reported.len());
    reported[..end].trim_end()
}

#[derive(Properties, PartialEq)]
pub struct TitleFiguresProps {
    pub meta: super::MetaRef,
    pub why: Option<&'static str>,
}

/// The line under a case's title (its page, its tour): the title quotes the report;
/// this says what the model gives and why that differs.
#[function_component(TitleFigures)]
pub fn title_figures(props: &TitleFiguresProps) -> Html {
    let meta = props.meta.0;
    let modelled = use_modelled_headline(meta);
    reported_vs_modelled(meta, modelled.as_deref(), props.why)
}

#[cfg(test)]
mod tests {
    use super::the_figure;

    #[test]
    fn a_reported_figure_is_shown_without_its_asides() {
        assert_eq!(the_figure("about 12 s (13.69 s real, and more)"), "about 12 s");
        assert_eq!(
            the_figure("17,210 ms at 16,384 threads over 2 min (before); 0 ms after"),
            "17,210 ms at 16,384 threads over 2 min"
        );
        assert_eq!(the_figure("302.22 ms"), "302.22 ms");
        assert_eq!(the_figure("a; b (c)"), "a");
    }
}
