//! `slowpath-prerender OUT_DIR`: writes the landing and About pages, rendered by the
//! app's own components with figures from the native engine, to
//! `OUT_DIR/static-pages.html` (an HTML fragment that `cargo xtask harden-html` puts
//! into `index.html`), and each listed case's first screen to
//! `OUT_DIR/intros/<id>.html` (fetched by `static/route.js`). Run by
//! `cargo xtask gather`, Trunk's pre-build hook.

use std::path::Path;

fn main() -> std::process::ExitCode {
    let Some(out) = std::env::args_os().nth(1) else {
        eprintln!("usage: slowpath-prerender OUT_DIR");
        return std::process::ExitCode::from(2);
    };
    let out = Path::new(&out);
    let headlines = slowpath_app::prerender::headlines();
    let mut files =
        vec![(out.join("static-pages.html"), slowpath_app::prerender::static_pages_html(headlines.clone()))];
    for entry in slowpath_engine::listed() {
        let html = slowpath_app::prerender::case_intro_html(entry.meta, headlines.clone());
        files.push((out.join("intros").join(format!("{}.html", entry.meta.id)), html));
    }
    for (path, html) in files {
        if let Err(error) = write_if_changed(&path, &html) {
            eprintln!("slowpath-prerender: cannot write {}: {error}", path.display());
            return std::process::ExitCode::FAILURE;
        }
    }
    std::process::ExitCode::SUCCESS
}

/// Written only when it changes, so that a watching `trunk serve` is not woken by it.
fn write_if_changed(path: &Path, text: &str) -> std::io::Result<()> {
    if std::fs::read_to_string(path).ok().as_deref() == Some(text) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, text)
}
