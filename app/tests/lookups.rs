//! A case is found once, where the route names it, and a link is parsed once, where
//! the page opens it: the places that may look a case up by its id or parse a link's
//! query are listed here, and a new one fails this test until it is justified.

use std::path::Path;

/// (file under app/src, why it may look a case up by id)
const CASE_LOOKUPS: &[(&str, &str)] = &[
    ("cases/mod.rs", "the route's one lookup (`resolve`), and the stage table's own tests"),
    ("worker/serve.rs", "the worker thread receives a case id as bytes"),
    ("worker/mod.rs", "the page's side of the worker builds the reader for the case it asked for"),
    ("pages/perf.rs", "the load-test page, which the route does not resolve"),
    ("cases/module.rs", "whether this module carries a new address's case, before the app sees the address"),
];

/// (file under app/src, why it may parse a link's query)
const LINK_PARSES: &[(&str, &str)] = &[
    ("player/link.rs", "the one parse of a link (`OpenedLink::parse`)"),
    ("pages/tour.rs", "a tour stop keeps only the display flags of its link"),
];

fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("app/src is readable") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") && !path.ends_with("tests.rs") {
            let text = std::fs::read_to_string(&path).expect("UTF-8 source");
            // Unit tests (below `#[cfg(test)]`, or a `tests.rs`) may open what they like.
            let code = text.split("#[cfg(test)]").next().unwrap_or_default().to_string();
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
            let name = path.strip_prefix(&root).expect("under src").to_string_lossy().replace('\\', "/");
            out.push((name, code));
        }
    }
}

fn files_calling(patterns: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    let mut calling: Vec<String> = files
        .into_iter()
        .filter(|(_, code)| patterns.iter().any(|pattern| code.contains(pattern)))
        .map(|(name, _)| name)
        .collect();
    calling.sort();
    calling
}

#[test]
fn a_case_is_looked_up_by_id_only_where_listed() {
    let found = files_calling(&["slowpath_engine::find(", "slowpath_engine::simulation(", "registry::find("]);
    let mut allowed: Vec<String> = CASE_LOOKUPS.iter().map(|(file, _)| file.to_string()).collect();
    allowed.sort();
    assert_eq!(found, allowed, "a case looked up by id outside the route: hand it down instead");
}

#[test]
fn a_link_is_parsed_only_where_listed() {
    let found = files_calling(&["PlayerQuery::parse("]);
    let mut allowed: Vec<String> = LINK_PARSES.iter().map(|(file, _)| file.to_string()).collect();
    allowed.sort();
    assert_eq!(found, allowed, "a link parsed again: hand the page's `OpenedLink` down instead");
}
