use super::MetaRef;
use crate::route::Route;
use gloo::render::{request_animation_frame, AnimationFrame};
use slowpath_engine::CaseMeta;
use std::cell::RefCell;
use std::rc::Rc;
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
    // The headline figure comes from a run of the defaults, never from typed text. The
    // run waits two frames, so that the cards are on screen before the engine works.
    let headline = use_state(|| None::<String>);
    {
        let headline = headline.clone();
        use_effect_with(meta.id, move |_| {
            let inner: Rc<RefCell<Option<AnimationFrame>>> = Rc::default();
            let slot = inner.clone();
            let outer = request_animation_frame(move |_| {
                let frame = request_animation_frame(move |_| headline.set(headline_of(meta)));
                *slot.borrow_mut() = Some(frame);
            });
            move || drop((outer, inner))
        });
    }
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
            if let Some(figure) = (*headline).clone() {
                <p class="case-card-headline" data-testid="headline">
                    <strong>{ figure }</strong>{ " " }{ meta.headline_label }
                </p>
            }
            <p class="case-card-more" aria-hidden="true">{ "Open the case →" }</p>
        </li>
    }
}

/// Every registered case, as cards, in registry order.
#[function_component(CaseList)]
pub fn case_list() -> Html {
    html! {
        <ul class="case-grid" role="list">
            { for slowpath_engine::registry().iter().map(|case| {
                let meta = case.meta();
                html! { <CaseCard key={meta.id} meta={MetaRef(meta)} /> }
            }) }
        </ul>
    }
}

/// The case's headline figure, from a run of its defaults.
fn headline_of(meta: &'static CaseMeta) -> Option<String> {
    let case = slowpath_engine::find(meta.id)?;
    let started = crate::perf::now_ms();
    let run =
        slowpath_engine::run_checked(case, &meta.default_params(), meta.default_variant().id, 1).ok()?;
    crate::perf::record("__slowpathRunMs", meta.id, crate::perf::now_ms() - started);
    run.metrics.get(meta.headline_metric).map(|m| crate::player::panels::metric_text(meta.headline_metric, m))
}
