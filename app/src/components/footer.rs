use crate::route::Route;
use yew::prelude::*;

/// The footer on every page: licence and a reminder of what the numbers are.
pub fn site_footer() -> Html {
    html! {
        <footer class="site-footer">
            <div class="wrap site-footer-inner">
                <p>
                    { "slowpath is free software under the " }
                    <a href="https://opensource.org/license/mit">{ "MIT licence" }</a>
                    { ". Every figure is simulated from a cost model; " }
                    <a href={Route::About.to_hash()}>{ "read how" }</a>
                    { "." }
                </p>
                <p class="muted">{ format!("slowpath {}", env!("CARGO_PKG_VERSION")) }</p>
            </div>
        </footer>
    }
}
