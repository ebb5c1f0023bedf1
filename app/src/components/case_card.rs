use super::MetaRef;
use crate::route::Route;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct CaseCardProps {
    pub meta: MetaRef,
}

/// One case on the landing page: year and system, title (the link), summary.
///
/// The whole card is clickable through the title link's `::after`, so there
/// is exactly one link per card for screen readers and keyboard users.
#[function_component(CaseCard)]
pub fn case_card(props: &CaseCardProps) -> Html {
    let meta = props.meta.0;
    // The headline figure comes from a run of the defaults, never from typed text,
    // made by the engine's worker while the cards are already on screen.
    let key = crate::worker::RunKey {
        case: meta.id,
        variant: meta.default_variant().id,
        seed: 1,
        params: meta.default_params(),
    };
    let figures = crate::worker::use_summaries(vec![key]);
    let headline = figures.first().cloned().flatten().and_then(Result::ok).and_then(|summary| {
        summary
            .metrics
            .get(meta.headline_metric)
            .map(|m| crate::player::panels::metric_text(meta.headline_metric, m))
    });
    html! {
        <li class="case-card" data-testid="case-card" data-case-id={meta.id}>
            <p class="case-card-meta">
                <span class="badge">{ meta.year }</span>
                <span>{ meta.system }</span>
            </p>
            <h3 class="case-card-title">
                <a href={Route::case(meta.id).to_hash()}>{ meta.title }</a>
            </h3>
            <p class="case-card-summary">{ meta.summary }</p>
            if let Some(figure) = headline {
                <p class="case-card-headline" data-testid="headline">
                    <strong>{ figure }</strong>{ " " }{ meta.headline_label }
                </p>
            }
            <p class="case-card-more" aria-hidden="true">{ "Open the case →" }</p>
        </li>
    }
}

/// Every registered case, as cards, in registry order.
pub fn case_list() -> Html {
    html! {
        <ul class="case-grid" role="list">
            { for slowpath_engine::listed().map(|entry| {
                let meta = entry.meta;
                html! { <CaseCard key={meta.id} meta={MetaRef(meta)} /> }
            }) }
        </ul>
    }
}
