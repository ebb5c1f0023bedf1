//! slowpath's browser front end: a small hash-routed Yew app.
//!
//! The crate is a library (tested on the host with `cargo test -p slowpath-app`)
//! plus a tiny binary that Trunk builds for `wasm32-unknown-unknown`.

mod app;
mod cases;
mod components;
mod pages;
pub mod panic;
mod perf;
pub mod player;
#[cfg(feature = "prerender")]
pub mod prerender;
pub mod route;
pub mod worker;

/// Starts the app: installs the panic overlay, then mounts Yew on `<body>`; or,
/// inside the engine's worker, serves runs.
pub fn start() {
    // The same module runs the engine's Web Worker (see `worker`): no UI there.
    if worker::serve::in_worker() {
        worker::serve();
        return;
    }
    panic::install();
    // Before the app's own listener: a per-case module leaves for another case's.
    cases::module::load_other_modules_for_their_routes();
    // The first render waits for a task of its own: compiling and starting the module
    // and drawing the first page in one task made it the longest of a page's opening
    // (issue 14).
    gloo::timers::callback::Timeout::new(0, || {
        // The "Loading…" placeholder from index.html, and the case's first screen drawn
        // at build time (static/boot.js), go once the app can draw.
        for placeholder in ["boot", "case-intro"] {
            if let Some(element) = gloo::utils::document().get_element_by_id(placeholder) {
                element.remove();
            }
        }
        yew::Renderer::<app::App>::new().render();
    })
    .forget();
}
