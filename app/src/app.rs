use crate::components::{site_footer, site_header};
use crate::pages::{case_page, crash_page, not_found_page, tour_page, PerfPage};
use crate::route::Route;
use gloo::events::EventListener;
use yew::prelude::*;

/// The route in the address bar right now.
fn current_route() -> Route {
    let location = gloo::utils::window().location();
    let hash = location.hash().unwrap_or_default();
    Route::parse(&hash).on_host(&location.hostname().unwrap_or_default())
}

/// The case a route names, looked up once per navigation and handed to its page.
fn resolved_case(route: &Route) -> Option<crate::cases::Resolved> {
    match route {
        Route::Case { id, .. } | Route::Tour { id, .. } => {
            let host = gloo::utils::window().location().hostname().unwrap_or_default();
            crate::cases::resolve(id, crate::route::doors_open(&host))
        }
        _ => None,
    }
}

/// The document title for a route and the case it names.
pub(crate) fn page_title(route: &Route, case: Option<crate::cases::Resolved>) -> String {
    match route {
        Route::Landing => "slowpath — step through the kernel's slowest paths".to_string(),
        Route::About => "About — slowpath".to_string(),
        Route::Case { .. } => match case {
            Some(case) => format!("{} — slowpath", case.meta.title),
            None => "No such case — slowpath".to_string(),
        },
        Route::Tour { .. } => match case {
            Some(case) => format!("Tour: {} — slowpath", case.meta.title),
            None => "No such case — slowpath".to_string(),
        },
        Route::Crash => "Crash test — slowpath".to_string(),
        Route::Perf { .. } => "Load test — slowpath".to_string(),
        Route::NotFound { .. } => "Page not found — slowpath".to_string(),
    }
}

/// The shell: header, the page for the current hash route, footer.
#[function_component(App)]
pub fn app() -> Html {
    let route = use_state(current_route);
    let main_ref = use_node_ref();
    let first_render = use_mut_ref(|| true);

    {
        let route = route.clone();
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::window(), "hashchange", move |_| {
                route.set(current_route());
            });
            move || drop(listener)
        });
    }

    {
        let main_ref = main_ref.clone();
        use_effect_with((*route).clone(), move |route| {
            gloo::utils::document().set_title(&page_title(route, resolved_case(route)));
            // After a navigation inside the app, start at the top and move focus to the
            // new content, so that screen readers announce it; not on the first load.
            // Focus first: focusing scrolls `main` to the top of the window, which hid the
            // header; the scroll to the top comes after it.
            if !std::mem::replace(&mut *first_render.borrow_mut(), false) {
                if let Some(main) = main_ref.cast::<web_sys::HtmlElement>() {
                    let _ = main.focus();
                }
                gloo::utils::window().scroll_to_with_x_and_y(0.0, 0.0);
            }
        });
    }

    let skip_to_content = {
        let main_ref = main_ref.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(main) = main_ref.cast::<web_sys::HtmlElement>() {
                let _ = main.focus();
            }
        })
    };

    // The presenter view's theme is the root's (`:root[data-present]` in the
    // stylesheets): set while drawing, so that it changes in the same frame as the page.
    let root = gloo::utils::document_element();
    let _ = if route.presenting() {
        root.set_attribute("data-present", "")
    } else {
        root.remove_attribute("data-present")
    };

    let case = resolved_case(&route);
    let page = match &*route {
        // Drawn at build time into index.html (`crate::prerender`) and shown by the
        // boot script, which also hands every other route to this app.
        Route::Landing | Route::About => return Html::default(),
        Route::Case { id, query } => case_page(case, id, query),
        Route::Tour { id, stop, query } => tour_page(case, id, stop, query),
        Route::Perf { query } => html! { <PerfPage query={query.clone()} /> },
        Route::Crash => crash_page(),
        Route::NotFound { path } => not_found_page(path),
    };

    // Framed in another page, or on a projector: the case alone.
    if route.embedded() || route.presenting() {
        let class = if route.embedded() { "embed" } else { "present" };
        return html! {
            <main id="main" {class} tabindex="-1" ref={main_ref}>
                { page }
            </main>
        };
    }

    html! {
        <>
            <button type="button" class="skip-link" onclick={skip_to_content}>{ "Skip to content" }</button>
            { site_header(&route) }
            <main id="main" class={classes!("wrap", "site-main", route.is_case_page().then_some("on-case"))} tabindex="-1" ref={main_ref}>
                { page }
            </main>
            { site_footer() }
        </>
    }
}
