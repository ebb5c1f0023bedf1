//! The dependency rule, checked on the real `use` graph (as Perfetto's import
//! checker does for its tree): every `crate::…`, `super::…` and
//! `slowpath_engine::…` path in the engine's and the app's sources is mapped to
//! the part of the code it reaches (the run machinery, a kernel model, one case,
//! the registry…), and each edge must be one its source's rule allows.
//!
//! Why not names: a generic file reached every case through `case::find` without
//! naming one, and the run machinery sat in a cycle with every case.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Where a part of the code may reach, as "engine:<part>" or "app:<part>".
/// `cases/*` is any case; `{case}` is the source's own case. A part always reaches
/// itself. Parts not listed as a source (the crate roots, the engine's registry,
/// the app's pages, components, worker and router) sit at the top and may use anything.
pub struct Rule {
    pub from: &'static str,
    pub may_use: &'static [&'static str],
    pub why: &'static str,
}

/// What ARCHITECTURE.md says each folder may use.
pub const RULES: &[Rule] = &[
    Rule {
        from: "engine:run",
        may_use: &["engine:case"],
        why: "the run machinery knows no kernel model and no case; it is handed the case it works for",
    },
    Rule {
        from: "engine:kernel",
        may_use: &["engine:run"],
        why: "a kernel model is shared: it knows the run machinery and no case",
    },
    Rule {
        from: "engine:case",
        may_use: &["engine:run", "engine:tour", "engine:export"],
        why: "the `Case` trait is what every case gives; the list of cases is the registry's",
    },
    Rule {
        from: "engine:tour",
        may_use: &["engine:run", "engine:case"],
        why: "tours are generic: they are handed their case",
    },
    Rule {
        from: "engine:export",
        may_use: &["engine:run", "engine:case"],
        why: "the exports are generic: they are handed the case they write",
    },
    Rule {
        from: "engine:cases/*",
        may_use: &["engine:run", "engine:kernel", "engine:case", "engine:tour", "engine:export"],
        why: "a case uses the shared layers, never another case or the registry",
    },
    Rule { from: "engine:cases", may_use: &["engine:cases/*"], why: "the cases' module only declares them" },
    Rule {
        from: "app:player",
        may_use: &[
            "app:components",
            "app:route",
            "app:perf",
            "app:worker",
            "engine:run",
            "engine:case",
            "engine:tour",
            "engine:export",
            "engine:root",
        ],
        why: "the generic player knows no case: it is handed its case and its stage",
    },
    Rule {
        from: "app:cases/*",
        may_use: &[
            "app:player",
            "app:components",
            "app:route",
            "app:perf",
            "app:worker",
            "app:cases",
            "engine:run",
            "engine:kernel",
            "engine:case",
            "engine:tour",
            "engine:export",
            "engine:root",
            "engine:registry",
            "engine:cases/{case}",
        ],
        why: "a case's stage draws its own engine case, never another case",
    },
];

/// Edges that break a rule today, each with why it stays for now: the checker
/// keeps new ones out while these are paid off.
pub const KNOWN_EXCEPTIONS: &[(&str, &str, &str)] = &[];

/// One `use` edge: the file and line, the part it is in and the part it reaches.
#[derive(Debug, PartialEq, Eq)]
pub struct Edge {
    pub file: String,
    pub line: usize,
    pub from: String,
    pub to: String,
    pub path: String,
}

/// Every edge of every `.rs` file under `<root>/engine/src` and `<root>/app/src`
/// that its rule forbids, as `file:line` messages.
pub fn forbidden_uses(root: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let crates = [("engine", "engine/src"), ("app", "app/src")];
    let cases: CaseFolders =
        crates.iter().map(|(name, src)| (*name, case_folders(&root.join(src).join("cases")))).collect();
    for (crate_name, src) in crates {
        for file in super::files_with_extension(&root.join(src), "rs") {
            let shown = file.strip_prefix(root).unwrap_or(&file).display().to_string();
            let relative = file.strip_prefix(root.join(src)).unwrap_or(&file);
            let module = module_of(relative);
            let code = super::code_only(&super::read(&file));
            for edge in edges(crate_name, &cases, &shown, &module, &code) {
                if let Some(why) = forbidden(&edge) {
                    problems.push(format!(
                        "{}:{}: {} uses {} (`{}`): {why}",
                        edge.file, edge.line, edge.from, edge.to, edge.path
                    ));
                }
            }
        }
    }
    problems
}

/// Why `edge` breaks its source's rule, or None when it is allowed.
fn forbidden(edge: &Edge) -> Option<&'static str> {
    if edge.from == edge.to {
        return None;
    }
    if KNOWN_EXCEPTIONS.iter().any(|(file, to, _)| *file == edge.file && *to == edge.to) {
        return None;
    }
    let own_case = edge.from.split_once(":cases/").map(|(_, case)| case);
    let rule = RULES.iter().find(|rule| matches(rule.from, &edge.from, None))?;
    let allowed = rule.may_use.iter().any(|pattern| matches(pattern, &edge.to, own_case));
    (!allowed).then_some(rule.why)
}

fn matches(pattern: &str, part: &str, own_case: Option<&str>) -> bool {
    if let Some(prefix) = pattern.strip_suffix("{case}") {
        return own_case.is_some_and(|case| part.strip_prefix(prefix) == Some(case));
    }
    match pattern.strip_suffix('*') {
        Some(prefix) => part.starts_with(prefix) && part.len() > prefix.len(),
        None => pattern == part,
    }
}

/// The module a file under `src/` defines: `run/wire/mod.rs` → `[run, wire]`,
/// `run/trace.rs` → `[run, trace]`, `lib.rs` → `[]`.
pub fn module_of(relative: &Path) -> Vec<String> {
    let mut module: Vec<String> =
        relative.iter().map(|part| part.to_string_lossy().trim_end_matches(".rs").to_string()).collect();
    if module.last().is_some_and(|last| ["mod", "lib", "main"].contains(&last.as_str())) {
        module.pop();
    }
    module
}

/// Each crate's case folders, by crate name.
pub type CaseFolders = BTreeMap<&'static str, BTreeSet<String>>;

/// The folders under a `cases/`: one case each.
fn case_folders(dir: &Path) -> BTreeSet<String> {
    let Ok(entries) = std::fs::read_dir(dir) else { return BTreeSet::new() };
    entries
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect()
}

/// The part of a crate a module path lies in: a top folder, one case, or the root.
/// `cases` is the crate's case folders: `cases::CaseUi` is the cases' module itself.
fn part_of(crate_name: &str, cases: &CaseFolders, module: &[String]) -> String {
    let is_case = |case: &String| cases.get(crate_name).is_some_and(|folders| folders.contains(case));
    let part = match module {
        [] => "root".to_string(),
        [first, case, ..] if first == "cases" && is_case(case) => format!("cases/{case}"),
        [first, ..] if crate_name == "engine" => match first.as_str() {
            "run" | "kernel" | "case" | "cases" | "tour" | "export" | "registry" => first.clone(),
            // What the crate root re-exports, by the part that defines it.
            "find" => "registry".to_string(),
            "run_checked" | "Case" | "CaseMeta" | "RunError" => "case".to_string(),
            "templates" | "Notice" | "ParamKind" | "ParamSpec" | "ParamValue" | "ParamValues"
            | "Granularity" | "Metric" | "Outcome" | "Run" | "View" => "run".to_string(),
            _ => "root".to_string(),
        },
        [first, ..] => match first.as_str() {
            "player" | "cases" | "pages" | "components" | "worker" | "route" | "perf" => first.clone(),
            _ => "root".to_string(),
        },
    };
    format!("{crate_name}:{part}")
}

/// The edges of one file's code (comments and strings already removed).
pub fn edges(crate_name: &str, cases: &CaseFolders, file: &str, module: &[String], code: &str) -> Vec<Edge> {
    let from = part_of(crate_name, cases, module);
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    // Past an inline `mod … {` (a file's tests), `super` is the file's own module.
    let inline_module = code
        .match_indices("mod ")
        .filter(|(at, _)| starts_word(bytes, *at))
        .find(|(at, _)| code[*at..].split_once('{').is_some_and(|(head, _)| !head.contains(';')))
        .map(|(at, _)| at);
    let mut at = 0;
    while at < bytes.len() {
        let rest = &code[at..];
        let start_of_word = starts_word(bytes, at);
        let (target_crate, base, after): (&str, Vec<String>, usize) =
            if start_of_word && rest.starts_with("crate::") {
                (crate_name, Vec::new(), "crate::".len())
            } else if start_of_word && rest.starts_with("slowpath_engine::") {
                ("engine", Vec::new(), "slowpath_engine::".len())
            } else if start_of_word && rest.starts_with("super::") {
                let mut base = module.to_vec();
                let mut after = 0;
                let mut first = true;
                while code[at + after..].starts_with("super::") {
                    if !(first && inline_module.is_some_and(|inline| inline < at)) {
                        base.pop();
                    }
                    first = false;
                    after += "super::".len();
                }
                (crate_name, base, after)
            } else {
                at += rest.chars().next().map_or(1, char::len_utf8);
                continue;
            };
        let line = code[..at].matches('\n').count() + 1;
        let mut tails = Vec::new();
        let end = parse_tree(code, at + after, Vec::new(), &mut tails);
        for tail in tails {
            let mut target = base.clone();
            target.extend(tail.iter().take(2).cloned());
            let to = part_of(target_crate, cases, &target);
            let path = code[at..end].split_whitespace().collect::<Vec<_>>().join(" ");
            if !found.iter().any(|edge: &Edge| edge.line == line && edge.to == to) {
                found.push(Edge { file: file.to_string(), line, from: from.clone(), to, path });
            }
        }
        at = end.max(at + 1);
    }
    found
}

fn starts_word(bytes: &[u8], at: usize) -> bool {
    at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_' || bytes[at - 1] == b':')
}

/// Reads a path tree at `at` (`a::b`, `a::{b, c::d}`, `*`), pushing each leaf's
/// segments after `prefix`; returns where it ends.
fn parse_tree(code: &str, mut at: usize, prefix: Vec<String>, leaves: &mut Vec<Vec<String>>) -> usize {
    let bytes = code.as_bytes();
    let skip_space = |at: &mut usize| {
        while *at < bytes.len() && bytes[*at].is_ascii_whitespace() {
            *at += 1;
        }
    };
    let mut path = prefix;
    loop {
        skip_space(&mut at);
        if at < bytes.len() && bytes[at] == b'{' {
            at += 1;
            loop {
                skip_space(&mut at);
                if at >= bytes.len() {
                    return at;
                }
                if bytes[at] == b'}' {
                    return at + 1;
                }
                if bytes[at] == b',' {
                    at += 1;
                    continue;
                }
                let before = at;
                at = parse_tree(code, at, path.clone(), leaves);
                if at == before {
                    at += 1;
                }
            }
        }
        let start = at;
        while at < bytes.len()
            && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_' || bytes[at] == b'*')
        {
            at += 1;
        }
        if at > start && &code[start..at] != "self" {
            path.push(code[start..at].to_string());
        }
        if code[at..].starts_with("::") && at > start {
            at += 2;
            continue;
        }
        leaves.push(path);
        return at;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// A fresh directory under the system's temporary one, removed when dropped.
    struct TempTree(PathBuf);

    impl TempTree {
        fn new(name: &str, files: &[(&str, &str)]) -> TempTree {
            let dir = std::env::temp_dir().join(format!("xtask-layout-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            for (path, text) in files {
                let file = dir.join(path);
                std::fs::create_dir_all(file.parent().expect("a folder")).expect("writable");
                std::fs::write(file, text).expect("writable");
            }
            TempTree(dir)
        }
    }

    impl Drop for TempTree {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    const ALLOWED: &[(&str, &str)] = &[
        ("engine/src/lib.rs", "pub mod case;\npub mod cases;\npub mod registry;\npub mod run;\n"),
        ("engine/src/case.rs", "use crate::run::trace::Run;\npub trait Case {}\n"),
        ("engine/src/registry.rs", "use crate::cases::alpha::Alpha;\nuse crate::case::Case;\n"),
        ("engine/src/run/mod.rs", "pub mod trace;\n"),
        ("engine/src/run/trace.rs", "use super::world::World;\nuse crate::case::Case;\n"),
        ("engine/src/kernel/sched.rs", "use crate::run::{trace::Run, world::{Effect, World}};\n"),
        (
            "engine/src/cases/alpha/mod.rs",
            "use crate::{kernel::sched, run::trace::Run};\nuse super::alpha::x;\n",
        ),
        (
            "engine/src/cases/alpha/stage.rs",
            "use super::Alpha;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
        ),
        ("app/src/player/mod.rs", "use slowpath_engine::run::view::View;\nuse crate::components::Card;\n"),
        (
            "app/src/cases/alpha/stage.rs",
            "use slowpath_engine::cases::alpha::Extras;\nuse crate::player::Stage;\n",
        ),
    ];

    #[test]
    fn a_tree_with_only_allowed_uses_passes() {
        let tree = TempTree::new("allowed", ALLOWED);
        assert_eq!(forbidden_uses(&tree.0), Vec::<String>::new());
    }

    #[test]
    fn a_forbidden_use_fails_with_its_file_and_line() {
        let mut files = ALLOWED.to_vec();
        // The run machinery looking a case up in the registry, inside a group and a
        // `super` path, a kernel model naming a case, a case reaching another, and
        // the player reaching the registry through the crate root's re-export.
        files.push((
            "engine/src/run/wire/mod.rs",
            "use super::trace::Run;\n// crate::registry in a comment is prose\nuse crate::{case::Case, registry::find};\n",
        ));
        files.push(("engine/src/kernel/lock.rs", "fn f() {\n    let _ = crate::cases::alpha::Alpha;\n}\n"));
        files.push(("engine/src/cases/beta/mod.rs", "use super::super::cases::alpha::Alpha;\n"));
        files.push(("app/src/player/lookup.rs", "fn f() { slowpath_engine::find(\"alpha\"); }\n"));
        files.push(("app/src/cases/beta/stage.rs", "use slowpath_engine::cases::alpha::Extras;\n"));
        let tree = TempTree::new("forbidden", &files);
        let problems = forbidden_uses(&tree.0);
        let places: Vec<&str> =
            problems.iter().map(|problem| problem.split(' ').next().unwrap_or("")).collect();
        assert_eq!(
            places,
            [
                "engine/src/cases/beta/mod.rs:1:",
                "engine/src/kernel/lock.rs:2:",
                "engine/src/run/wire/mod.rs:3:",
                "app/src/cases/beta/stage.rs:1:",
                "app/src/player/lookup.rs:1:",
            ],
            "{problems:#?}"
        );
        assert!(problems[2].contains("engine:run uses engine:registry"), "{}", problems[2]);
        assert!(problems[4].contains("app:player uses engine:registry"), "{}", problems[4]);
    }

    #[test]
    fn paths_are_read_through_groups_and_super() {
        let module = module_of(Path::new("run/wire/mod.rs"));
        assert_eq!(module, ["run", "wire"]);
        let code = "use super::{trace::Run, world::World};\nuse crate::{export::csv, kernel};\n";
        let to: Vec<String> = edges("engine", &CaseFolders::new(), "f.rs", &module, code)
            .into_iter()
            .map(|edge| edge.to)
            .collect();
        assert_eq!(to, ["engine:run", "engine:export", "engine:kernel"]);
    }
}
