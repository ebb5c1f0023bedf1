//! `slowpath-prerender OUT`: writes the landing and About pages, rendered by the app's
//! own components with figures from the native engine, to the file OUT (an HTML
//! fragment that `cargo xtask harden-html` puts into `index.html`). Run by
//! `cargo xtask gather`, Trunk's pre-build hook.

fn main() -> std::process::ExitCode {
    let Some(out) = std::env::args_os().nth(1) else {
        eprintln!("usage: slowpath-prerender OUT");
        return std::process::ExitCode::from(2);
    };
    let html = slowpath_app::prerender::static_pages_html(slowpath_app::prerender::headlines());
    // Written only when it changes, so that a watching `trunk serve` is not woken by it.
    if std::fs::read_to_string(&out).ok().as_deref() == Some(html.as_str()) {
        return std::process::ExitCode::SUCCESS;
    }
    match std::fs::write(&out, html) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("slowpath-prerender: cannot write {}: {error}", std::path::Path::new(&out).display());
            std::process::ExitCode::FAILURE
        }
    }
}
