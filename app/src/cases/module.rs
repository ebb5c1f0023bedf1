//! Which pages this wasm module can draw. The default build carries every case's
//! simulation and draws every page. A per-case module (the same crate built with
//! one case's feature, `xtask/src/modules.rs`) carries every case's metadata and
//! one case's simulation and stage: it draws that case's pages only.
//!
//! The landing and About are drawn at build time and shown by the boot script in
//! any module. A navigation inside the page to anything else (another case, the
//! load-test page) is a full load of the new address: the boot script picks
//! the module for the route (`static/route.js`), and the address is the whole
//! link, query included, so nothing of it is lost.

use crate::route::Route;

/// Whether this build carries every registered case's simulation (the default build).
pub fn carries_every_case() -> bool {
    slowpath_engine::registry().iter().all(|entry| entry.simulation.is_some())
}

/// Whether this module can draw `route`: any route when it carries every case, a
/// case's page or tour when it carries that case; the static pages in every module
/// (the boot script shows them, the app draws nothing there).
pub fn serves(route: &Route) -> bool {
    carries_every_case()
        || matches!(route, Route::Landing | Route::About)
        || matches!(route, Route::Case { id, .. } | Route::Tour { id, .. }
            if slowpath_engine::simulation(id).is_some())
}

/// In a per-case module, a navigation to a page it cannot draw reloads the page at
/// the new address instead. Installed before the app's own `hashchange` listener,
/// which then never sees that navigation (no frame of a page without its case).
pub fn load_other_modules_for_their_routes() {
    if carries_every_case() {
        return;
    }
    let window = gloo::utils::window();
    let listener = gloo::events::EventListener::new(&window, "hashchange", |event| {
        let location = gloo::utils::window().location();
        let hash = location.hash().unwrap_or_default();
        let route = Route::parse(&hash).on_host(&location.hostname().unwrap_or_default());
        if !serves(&route) {
            event.stop_immediate_propagation();
            let _ = location.reload();
        }
    });
    // For the page's whole life, like the app's own listener.
    listener.forget();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default features carry every case: every route is drawn here.
    #[cfg(all(
        feature = "coredump-threads",
        feature = "sparse-dump",
        feature = "fifo-trigger",
        feature = "gvisor-threadgroups",
        feature = "rwsem-playground"
    ))]
    #[test]
    fn the_default_build_draws_every_route() {
        assert!(carries_every_case());
        for route in ["#/", "#/about", "#/case/sparse-dump?step=iter:5", "#/case/nope", "#/elsewhere"] {
            assert!(serves(&Route::parse(route)), "{route}");
        }
    }

    /// Holds in every build; in a per-case one (`cargo test -p slowpath-app
    /// --no-default-features --features sparse-dump --lib module`) it says that
    /// only its own case's pages stay.
    #[test]
    fn a_module_draws_the_pages_of_the_cases_it_carries_and_no_other() {
        for entry in slowpath_engine::registry() {
            let carried = carries_every_case() || entry.simulation.is_some();
            assert_eq!(serves(&Route::case(entry.meta.id)), carried, "{}", entry.meta.id);
            let tour = Route::parse(&format!("#/case/{}/tour/2?present", entry.meta.id));
            assert_eq!(serves(&tour), carried, "{}", entry.meta.id);
        }
        assert!(
            serves(&Route::Landing) && serves(&Route::About),
            "drawn at build time, shown by the boot script"
        );
    }
}
