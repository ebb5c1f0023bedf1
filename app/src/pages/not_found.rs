use crate::components::case_list;
use crate::route::Route;
use slowpath_engine::run::params::quote_input;
use yew::prelude::*;

/// Any route we do not know; `path` is what came after `#`.
pub fn not_found_page(path: &str) -> Html {
    html! {
        <section class="message-page" data-testid="not-found" aria-labelledby="not-found-title">
            <h1 id="not-found-title">{ "Page not found" }</h1>
            <p>
                { "There is no page at " }<code>{ format!("#{}", quote_input(path)) }</code>
                { ". The link may be mistyped, or from a newer version of slowpath." }
            </p>
            <p><a class="button" href={Route::Landing.to_hash()}>{ "Go to the home page" }</a></p>
        </section>
    }
}

/// `#/case/<id>` for an id that no case has.
pub fn no_such_case(id: &str) -> Html {
    let what = if id.is_empty() {
        html! { { "That link names no case." } }
    } else {
        html! { <>{ "There is no case called " }<code>{ quote_input(id) }</code>{ "." }</> }
    };
    html! {
        <section class="message-page" data-testid="no-such-case" aria-labelledby="no-such-case-title">
            <h1 id="no-such-case-title">{ "No such case" }</h1>
            <p>{ what }{ " These are the cases slowpath knows:" }</p>
            { case_list() }
        </section>
    }
}
