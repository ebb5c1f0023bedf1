use crate::route::Route;
use yew::prelude::*;

/// The banner on every page: the name (a link home) and the main navigation, with
/// the section of `route` (the current page) marked.
pub fn site_header(route: &Route) -> Html {
    // "page" when the link is this very page, "true" when it is the section we are in.
    let cases_current = match route {
        Route::Landing => Some("page"),
        Route::Case { .. } => Some("true"),
        _ => None,
    };
    let about_current = matches!(route, Route::About).then_some("page");
    html! {
        <header class={classes!("site-header", route.is_case_page().then_some("on-case"))}>
            <div class="wrap site-header-inner">
                <a class="brand" href={Route::Landing.to_hash()}>
                    <img class="brand-mark" src="favicon.svg" alt="" width="32" height="32" />
                    <span class="brand-name">{ "slowpath" }</span>
                </a>
                <nav class="site-nav" aria-label="Main">
                    <ul>
                        <li><a href={Route::Landing.to_hash()} aria-current={cases_current}>{ "Cases" }</a></li>
                        <li><a href={Route::About.to_hash()} aria-current={about_current}>{ "About" }</a></li>
                    </ul>
                </nav>
            </div>
        </header>
    }
}
