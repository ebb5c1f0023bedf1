use super::figures::{reported_vs_modelled, use_modelled_headline};
use super::MetaRef;
use crate::route::Route;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct CaseCardProps {
    pub meta: MetaRef,
}

/// One case on the landing page: year and system beside a small picture of its stage,
/// title (the link), summary, the model's headline figure and the report's beside it.
///
/// The whole card is clickable through the title link's `::after`, so there
/// is exactly one link per card for screen readers and keyboard users.
#[function_component(CaseCard)]
pub fn case_card(props: &CaseCardProps) -> Html {
    let meta = props.meta.0;
    // The headline figure comes from a run of the defaults, never from typed text,
    // made by the engine's worker while the cards are already on screen.
    let headline = use_modelled_headline(meta);
    let card: Option<&'static crate::cases::CaseCard> = crate::cases::card_for(meta.id);
    html! {
        <li class="case-card" data-testid="case-card" data-case-id={meta.id}>
            <div class="case-card-top">
                <p class="case-card-meta">
                    <span class="badge">{ meta.year }</span>
                    <span>{ meta.system }</span>
                </p>
                if let Some(card) = card {
                    <div class="case-card-picture" data-testid="case-picture">{ (card.picture)() }</div>
                }
            </div>
            <h3 class="case-card-title">
                <a href={Route::case(meta.id).to_hash()}>{ meta.title }</a>
            </h3>
            <p class="case-card-summary">{ meta.summary }</p>
            // Drawn before the figure arrives (an ellipsis in its place), so that the
            // lines below it do not move when it does; named for tests once it has.
            <p class="case-card-headline" data-testid={headline.is_some().then_some("headline")}>
                <strong aria-busy={headline.is_none().then_some("true")}>{ headline.clone().unwrap_or_else(|| "…".to_string()) }</strong>
                { " " }{ meta.headline_label }
            </p>
            { reported_vs_modelled(meta, headline.as_deref(), card.and_then(|card| card.why_figures_differ)) }
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
