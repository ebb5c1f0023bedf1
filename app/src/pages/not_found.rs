use crate::components::CaseList;
use crate::route::Route;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct NotFoundPageProps {
    /// The path after `#` that matched no route.
    pub path: AttrValue,
}

/// Any route we do not know.
#[function_component(NotFoundPage)]
pub fn not_found_page(props: &NotFoundPageProps) -> Html {
    html! {
        <section class="message-page" data-testid="not-found" aria-labelledby="not-found-title">
            <h1 id="not-found-title">{ "Page not found" }</h1>
            <p>
                { "There is no page at " }<code>{ format!("#{}", props.path) }</code>
                { ". The link may be mistyped, or from a newer version of slowpath." }
            </p>
            <p><a class="button" href={Route::Landing.to_hash()}>{ "Go to the home page" }</a></p>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct NoSuchCaseProps {
    pub id: AttrValue,
}

/// `#/case/<id>` for an id that no case has.
#[function_component(NoSuchCase)]
pub fn no_such_case(props: &NoSuchCaseProps) -> Html {
    let what = if props.id.is_empty() {
        html! { { "That link names no case." } }
    } else {
        html! { <>{ "There is no case called " }<code>{ props.id.clone() }</code>{ "." }</> }
    };
    html! {
        <section class="message-page" data-testid="no-such-case" aria-labelledby="no-such-case-title">
            <h1 id="no-such-case-title">{ "No such case" }</h1>
            <p>{ what }{ " These are the cases slowpath knows:" }</p>
            <CaseList />
        </section>
    }
}
