//! The layout check that `cargo xtask test` runs first: every `use` follows the
//! dependency rule ([`uses`]), the generic code knows no case, the Markdown stays
//! inside the repository, the wasm's crates sort through the one stable sort, and
//! no stylesheet selects with `:has()` or has a comment that closes early.
//!
//! Why: adding a case must be one folder on each side (`engine/src/cases/<case>/`,
//! `app/src/cases/<case>/`) plus a registry line; the moment the run machinery,
//! a shared kernel model or the generic player names a case, that stops being
//! true without anyone noticing. And a clone has only the repository, so a link
//! that leaves it is broken for every reader.

mod uses;

use crate::cmd::{root, Failure, Outcome};
use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

/// Where a case may not be named: the run machinery, the kernel models every
/// case shares, the exports, and the generic player.
const GENERIC_TREES: &[&str] =
    &["engine/src/run", "engine/src/kernel", "engine/src/export", "app/src/player"];
/// Where cases live, one folder each.
const CASE_TREES: &[&str] = &["engine/src/cases", "app/src/cases"];
/// Never searched for Markdown: build output and installed packages.
const SKIPPED_DIRS: &[&str] = &["target", "node_modules", "dist", ".git"];
/// The crates compiled into the wasm, where a stable sort goes through `run::sort`.
const WASM_TREES: &[&str] = &["engine/src", "app/src"];
/// The one place that calls the standard library's stable sort.
const THE_SORT: &str = "engine/src/run/sort.rs";
/// Where the stylesheets are: the shell's and each case's.
const STYLE_TREES: &[&str] = &["static", "app/src"];

pub fn check() -> Outcome {
    let root = root();
    let mut problems = Vec::new();
    problems.extend(uses::forbidden_uses(&root));
    problems.extend(generic_code_names_no_case(&root));
    problems.extend(every_case_has_notes(&root));
    problems.extend(markdown_stays_inside(&root));
    problems.extend(stable_sorts_go_through_run_sort(&root));
    problems.extend(stylesheets_have_no_has_and_whole_comments(&root));
    if problems.is_empty() {
        println!(
            "xtask: layout: every use follows the dependency rule, generic code names no case, every case has notes, Markdown stays in the repository, \
             stable sorts go through run::sort, no stylesheet uses :has() or closes a comment early"
        );
        Ok(())
    } else {
        Err(Failure::Failed(format!("layout check failed:\n  {}", problems.join("\n  "))))
    }
}

fn generic_code_names_no_case(root: &Path) -> Vec<String> {
    // Every case's folder name (`fifo_trigger`), on either side.
    let mut folders = BTreeSet::new();
    for tree in CASE_TREES {
        let Ok(entries) = std::fs::read_dir(root.join(tree)) else { continue };
        for entry in entries.filter_map(|entry| entry.ok()).filter(|entry| entry.path().is_dir()) {
            folders.insert(entry.file_name().to_string_lossy().into_owned());
        }
    }
    let mut problems = Vec::new();
    // A case's items are reachable only through its module path, which names its
    // folder, unless a crate root re-exports them: it must not.
    for lib in ["engine/src/lib.rs", "app/src/lib.rs"] {
        let code = code_only(&read(&root.join(lib)));
        if code.lines().any(|line| line.contains("pub use") && line.contains("cases::")) {
            problems.push(format!("{lib} re-exports from a case: reach a case's items through its module"));
        }
    }
    for tree in GENERIC_TREES {
        for file in files_with_extension(&root.join(tree), "rs") {
            let text = read(&file);
            let code = code_only(&text);
            let words: BTreeSet<&str> = identifiers(&code).collect();
            let shown = file.strip_prefix(root).unwrap_or(&file).display().to_string();
            for folder in &folders {
                let id = folder.replace('_', "-");
                // Prose counts too: `fifo-trigger` in a comment is knowledge of the case.
                if text.contains(&id) || words.contains(folder.as_str()) {
                    problems
                        .push(format!("{shown} names the case `{id}`: generic code must not know a case"));
                }
            }
        }
    }
    problems
}

/// Each `slice::sort_by_key` with its own element type is another copy of std's
/// stable sort in the wasm (about 4.5 kB): engine and app call `run::sort` instead.
/// A `sort_unstable` stays allowed (one copy serves every `u64` sort).
fn stable_sorts_go_through_run_sort(root: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    for tree in WASM_TREES {
        for file in files_with_extension(&root.join(tree), "rs") {
            let shown = file.strip_prefix(root).unwrap_or(&file).display().to_string();
            if shown == THE_SORT {
                continue;
            }
            let code = code_only(&read(&file));
            for call in [".sort()", ".sort_by(", ".sort_by_key(", ".sort_by_cached_key("] {
                if code.contains(call) {
                    problems.push(format!(
                        "{shown} calls `{call}`: sort with run::sort (one copy of the sort in the wasm)"
                    ));
                }
            }
        }
    }
    problems
}

/// A `:has()` makes every change to the DOM below its subject re-check the subject's
/// style: on the root or a page's article that is every step of the player, and it
/// was most of a phone's blocking time (Lighthouse's TBT). The app sets a class instead.
/// And a comment must close where it ends: browsers and the minifier drop the rule
/// that a stray `*/` runs into, silently.
fn stylesheets_have_no_has_and_whole_comments(root: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    for tree in STYLE_TREES {
        for file in files_with_extension(&root.join(tree), "css") {
            let shown = file.strip_prefix(root).unwrap_or(&file).display().to_string();
            let rules = without_css_comments(&read(&file));
            if rules.contains(":has(") {
                problems.push(format!("{shown} selects with `:has()`: set a class from the app instead"));
            }
            // A `*/` outside a comment is one that closed early (a path glob such as
            // `cases/*/` in prose): the rest of it becomes a selector that eats a rule.
            if rules.contains("*/") {
                problems.push(format!("{shown} has a comment that closes early (a `*/` inside it)"));
            }
        }
    }
    problems
}

/// `css` without its `/* … */` comments, which may name a selector in prose.
fn without_css_comments(css: &str) -> String {
    let mut rules = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        rules.push_str(&rest[..start]);
        rest = rest[start + 2..].find("*/").map_or("", |end| &rest[start + 2 + end + 2..]);
    }
    rules.push_str(rest);
    rules
}

/// Every engine case folder has its notes, `docs/cases/<id>.md`: the About page links them.
fn every_case_has_notes(root: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(root.join("engine/src/cases")) else {
        return vec!["engine/src/cases is missing".to_string()];
    };
    let mut problems: Vec<String> = entries
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().replace('_', "-"))
        .filter(|id| !root.join("docs/cases").join(format!("{id}.md")).is_file())
        .map(|id| format!("the case `{id}` has no notes: write docs/cases/{id}.md"))
        .collect();
    problems.sort();
    problems
}

/// `text` without `//` comments and string literals, which may name anything in prose.
fn code_only(text: &str) -> String {
    let mut code = String::with_capacity(text.len());
    for line in text.lines() {
        let mut in_string = false;
        let mut escaped = false;
        let mut previous = ' ';
        for c in line.chars() {
            if in_string {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == '"' {
                    in_string = false;
                }
            } else if c == '"' {
                in_string = true;
            } else if c == '/' && previous == '/' {
                code.pop();
                break;
            } else {
                code.push(c);
            }
            previous = c;
        }
        code.push('\n');
    }
    code
}

fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|word| !word.is_empty())
}

fn markdown_stays_inside(root: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    for file in files_with_extension(root, "md") {
        let text = read(&file);
        let shown = file.strip_prefix(root).unwrap_or(&file).display().to_string();
        if text.contains("../shared") {
            problems.push(format!("{shown} refers to ../shared, which a clone does not have"));
        }
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with('#') || target.starts_with("mailto:") {
                continue;
            }
            let path = target.split('#').next().unwrap_or_default();
            if path.is_empty() {
                continue;
            }
            let base = file.parent().unwrap_or(root);
            match normalise(&base.join(path)) {
                Some(resolved) if resolved.starts_with(root) && resolved.exists() => {}
                Some(resolved) if resolved.starts_with(root) => {
                    problems.push(format!("{shown} links to `{target}`, which does not exist"))
                }
                _ => problems.push(format!("{shown} links to `{target}`, outside the repository")),
            }
        }
    }
    problems
}

/// The targets of Markdown links and images: `[text](target)`.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("](") {
        rest = &rest[start + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        let target = rest[..end].split_whitespace().next().unwrap_or_default();
        targets.push(target.trim_matches(|c| c == '<' || c == '>').to_string());
        rest = &rest[end..];
    }
    targets
}

/// `a/b/../c` → `a/c`, without touching the file system; None if it climbs above `/`.
fn normalise(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    Some(out)
}

/// Every file under `dir` ending in `.extension`, sorted, skipping build output.
fn files_with_extension(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&current) else { continue };
        for entry in entries.filter_map(|entry| entry.ok()) {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                if !SKIPPED_DIRS.contains(&name.as_str()) && !name.starts_with('.') {
                    pending.push(path);
                }
            } else if path.extension().is_some_and(|ext| ext == extension) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_found_and_resolved() {
        let text = "see [a](docs/a.md#x), ![i](<img.png>) and [web](https://x.org/a) [up](../../etc)";
        assert_eq!(link_targets(text), ["docs/a.md#x", "img.png", "https://x.org/a", "../../etc"]);
        assert_eq!(normalise(Path::new("/r/docs/../a.md")), Some(PathBuf::from("/r/a.md")));
        assert_eq!(normalise(Path::new("/../x")), None);
    }

    #[test]
    fn prose_is_not_code() {
        let text = "let a = \"FifoCase \\\" x\"; // uses FifoCase\nlet b = c / d;";
        assert_eq!(code_only(text), "let a = ; \nlet b = c / d;\n");
    }

    #[test]
    fn a_css_comment_is_not_a_rule() {
        let css = "/* not `:has()` */ a:has(b) { } /* open";
        assert_eq!(without_css_comments(css), " a:has(b) { } ");
        assert!(!without_css_comments("/* :has( */ a { }").contains(":has("));
        // A glob in prose closes the comment early: what follows is left as rules.
        assert!(without_css_comments("/* from cases/*/*.css */ a { }").contains("*/"));
    }
}
