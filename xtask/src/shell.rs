//! What a first visit's `index.html` holds (part of `cargo xtask harden-html`): the
//! landing and About pages drawn at build time, and nothing the app alone needs.
//!
//! Trunk writes the app's stylesheets, its start-up module and preloads of its glue
//! and wasm into `<head>`, which would make the landing download the whole app.
//! Here they move into `<meta>` tags that `static/route.js` reads: on the app's
//! routes it adds them back before the first paint, on the static pages never.

use std::path::Path;

/// The stylesheet every page uses (the static pages need no other): Trunk names
/// it `style-<hash>.css` after `static/style.css`.
const SHELL_STYLESHEET_PREFIX: &str = "./style-";

/// Where index.html's body holds the static pages (Trunk may have minified it).
const PLACEHOLDERS: [&str; 2] = ["<div id=\"static-pages\"></div>", "<div id=static-pages></div>"];

/// Puts the static pages (`fragment`, from `slowpath-prerender`) into the page.
pub fn insert_static_pages(html: &str, fragment: &str) -> Result<String, String> {
    let placeholder = PLACEHOLDERS
        .iter()
        .find(|placeholder| html.contains(*placeholder))
        .ok_or("index.html has no <div id=\"static-pages\"></div> to fill")?;
    Ok(html.replacen(placeholder, fragment, 1))
}

/// The static pages as `cargo xtask gather` left them.
pub fn static_pages_fragment(root: &Path) -> Result<String, String> {
    let path = root.join("target/generated/static-pages.html");
    std::fs::read_to_string(&path)
        .map_err(|error| format!("cannot read {} (made by `cargo xtask gather`): {error}", path.display()))
}

/// Takes the app's stylesheets and Trunk's preloads out of `<head>`, and names them,
/// with the start-up script `start` and the app's `wasm`, in the meta tags route.js
/// reads: `slowpath-app-styles` and `slowpath-app-start` ("<start> <wasm> <script>…").
pub fn defer_app_files(html: &str, start: &str, wasm: &str) -> String {
    let mut kept = String::with_capacity(html.len());
    let (mut styles, mut scripts) = (Vec::new(), Vec::new());
    let mut rest = html;
    while let Some(at) = rest.find("<link") {
        let Some(length) = rest[at..].find('>') else { break };
        let tag = &rest[at..at + length + 1];
        kept.push_str(&rest[..at]);
        rest = &rest[at + length + 1..];
        let (rel, href) =
            (attribute(tag, "rel").unwrap_or_default(), attribute(tag, "href").unwrap_or_default());
        match rel.as_str() {
            "stylesheet" if !href.starts_with(SHELL_STYLESHEET_PREFIX) => styles.push(href),
            "modulepreload" => scripts.push(href),
            // The wasm's preload: route.js preloads the route's module instead.
            "preload" if href.ends_with(".wasm") => {}
            _ => kept.push_str(tag),
        }
    }
    kept.push_str(rest);
    let start_files: Vec<&str> =
        [start, wasm].into_iter().chain(scripts.iter().map(String::as_str)).collect();
    let metas = format!(
        "<meta name=\"slowpath-app-styles\" content=\"{}\"><meta name=\"slowpath-app-start\" content=\"{}\">",
        styles.join(" "),
        start_files.join(" ")
    );
    // Before route.js, which reads them as it runs.
    let at = kept.find("<meta charset").unwrap_or(0);
    kept.insert_str(at, &metas);
    kept
}

/// Names the cases whose first screen the build holds (`intros/<id>.html`) in a
/// meta tag, so that route.js asks only for those (an unknown case's would be a 404).
pub fn name_intros(html: &str, staging: &Path) -> String {
    let mut ids: Vec<String> = std::fs::read_dir(staging.join("intros"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.strip_suffix(".html").map(String::from))
        .collect();
    ids.sort();
    let meta = format!("<meta name=\"slowpath-intros\" content=\"{}\">", ids.join(" "));
    let at = html.find("<meta charset").unwrap_or(0);
    format!("{}{meta}{}", &html[..at], &html[at..])
}

/// The value of attribute `name` in one tag, quoted or not (a minified page drops
/// the quotes where it can).
fn attribute(tag: &str, name: &str) -> Option<String> {
    let mut search = 0;
    while let Some(found) = tag[search..].find(name) {
        let at = search + found;
        search = at + name.len();
        let before = tag[..at].chars().last();
        if !before.is_some_and(char::is_whitespace) || !tag[search..].starts_with('=') {
            continue;
        }
        let value = &tag[search + 1..];
        return Some(match value.chars().next() {
            Some(quote @ ('"' | '\'')) => value[1..].split(quote).next().unwrap_or_default().to_string(),
            _ => value.split(|c: char| c.is_whitespace() || c == '>').next().unwrap_or_default().to_string(),
        });
    }
    None
}

/// The page's own scripts, copied as written (`static/*.js`): in a release build,
/// their whole-line comments and indentation go, which a first visit to the landing
/// would otherwise download. Only whole lines, since a `//` inside a line may be in
/// a string; a file with a template literal over several lines (whose text the
/// indentation is part of) is left as it is.
pub const SCRIPTS_SHIPPED_AS_WRITTEN: &[&str] = &["route.js", "boot.js", "sw-register.js"];

pub fn without_comment_lines(script: &str) -> String {
    let spans_lines = script.lines().any(|line| line.matches('`').count() % 2 == 1);
    if spans_lines {
        return script.to_string();
    }
    let mut kept = String::with_capacity(script.len());
    for line in script.lines().map(str::trim) {
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        kept.push_str(line);
        kept.push('\n');
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRUNK_HEAD: &str =
        "<meta charset=utf-8><link href=./style-1.css integrity=sha384-a rel=stylesheet>\
        <link href=./player-2.css integrity=sha384-b rel=stylesheet><link href=favicon.svg rel=icon>\
        <link crossorigin href=./app-3.js integrity=sha384-c rel=modulepreload>\
        <link as=fetch crossorigin href=./app-3_bg.wasm rel=preload type=application/wasm></head>";

    #[test]
    fn the_app_files_leave_the_head_for_the_meta_tags() {
        let out = defer_app_files(TRUNK_HEAD, "./start-4.js", "./app-3_bg.wasm");
        assert_eq!(
            out,
            "<meta name=\"slowpath-app-styles\" content=\"./player-2.css\">\
             <meta name=\"slowpath-app-start\" content=\"./start-4.js ./app-3_bg.wasm ./app-3.js\">\
             <meta charset=utf-8><link href=./style-1.css integrity=sha384-a rel=stylesheet>\
             <link href=favicon.svg rel=icon></head>"
        );
    }

    #[test]
    fn attributes_are_read_quoted_or_not() {
        let tag = "<link rel=\"stylesheet\" data-href=x href='./a b.css' as=fetch>";
        assert_eq!(attribute(tag, "rel").as_deref(), Some("stylesheet"));
        assert_eq!(attribute(tag, "href").as_deref(), Some("./a b.css"));
        assert_eq!(attribute(tag, "as").as_deref(), Some("fetch"));
        assert_eq!(attribute(tag, "type"), None);
    }

    #[test]
    fn the_static_pages_fill_their_placeholder_minified_or_not() {
        let page = "<body><div id=static-pages></div><p id=boot>";
        assert_eq!(
            insert_static_pages(page, "<div id=\"static-pages\">x</div>").unwrap(),
            "<body><div id=\"static-pages\">x</div><p id=boot>"
        );
        assert!(insert_static_pages("<body></body>", "x").is_err());
    }

    #[test]
    fn comment_lines_and_indentation_go_but_not_code_or_a_template_over_lines() {
        let script = "// why\nconst a = 'http://x'; // kept\n\n  if (a) {\n    go();\n  }\n";
        assert_eq!(without_comment_lines(script), "const a = 'http://x'; // kept\nif (a) {\ngo();\n}\n");
        let template = "const t = `a\n  // not a comment\n`;\n";
        assert_eq!(without_comment_lines(template), template);
    }
}
