//! One wasm module per case (issue 32), built by `cargo xtask harden-html` in
//! release builds after Trunk has built the all-cases module.
//!
//! Each module is the app built with one case's feature (app/Cargo.toml): every
//! case's metadata and cards, that case's simulation and stage. A link to a case
//! downloads its module only; the all-cases module stays for every other page and
//! for a case without a module of its own (the tests' case). Per case: one `cargo
//! build` (the dependencies are shared with Trunk's build, only the engine and the
//! app compile again), `wasm-bindgen --target web`, `wasm-opt` with index.html's
//! parameters (run while the next case compiles), files named by their content, a
//! start script (what Trunk's does: import the glue, start the wasm) that also names
//! the module's engine worker for the page (`app/src/worker` reads the meta tag),
//! and that worker (`html::engine_worker`).
//!
//! The page learns the modules from `<meta name="slowpath-case-modules">`, read by
//! `static/route.js`. `SLOWPATH_CASE_MODULES=a,b` builds only those cases'
//! modules (`none`: no module), for a quicker build while working on something else.

use crate::cmd::{self, root, Failure};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};

/// One built module: the case it serves and its files, the start script first.
pub struct Module {
    pub case: String,
    pub files: Vec<String>,
}

/// The tests' own case: no module (the all-cases module carries it, as it always did).
const UNLISTED: &[&str] = &["example-case"];

/// The app's per-case features: `<id> = ["slowpath-engine/<id>", …]` in `[features]`
/// (a case's own engine feature first, then any the app needs for it).
pub fn module_cases(cargo_toml: &str) -> Vec<String> {
    let features = cargo_toml.split("[features]").nth(1).unwrap_or("");
    let features = features.split("\n[").next().unwrap_or("");
    features
        .lines()
        .filter_map(|line| {
            let (name, value) = line.split_once('=')?;
            let name = name.trim();
            let value = value.trim();
            let enables_its_engine_case = value
                .strip_prefix(&format!("[\"slowpath-engine/{name}\""))
                .is_some_and(|rest| rest.starts_with(']') || rest.starts_with(','));
            (enables_its_engine_case && !UNLISTED.contains(&name)).then(|| name.to_string())
        })
        .collect()
}

/// `wasm-opt`'s arguments as Trunk gives them for index.html's rust link:
/// `-O<data-wasm-opt>` and `data-wasm-opt-params`.
pub fn wasm_opt_args(index_html: &str) -> Vec<String> {
    let attribute = |name: &str| {
        let at = index_html.find(&format!("{name}=\""))? + name.len() + 2;
        Some(index_html[at..at + index_html[at..].find('"')?].to_string())
    };
    let level = attribute("data-wasm-opt").unwrap_or_else(|| "z".to_string());
    let params = attribute("data-wasm-opt-params").unwrap_or_default();
    std::iter::once(format!("-O{level}")).chain(params.split_whitespace().map(String::from)).collect()
}

fn failed(what: impl std::fmt::Display) -> Failure {
    Failure::Failed(format!("harden-html: case modules: {what}"))
}

/// Where each case's module is built, one directory per case (`cargo xtask size
/// --module` reads the name section wasm-bindgen left there).
pub fn work_dir() -> PathBuf {
    target_dir().join("case-modules")
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from)
}

/// Builds every case's module into `staging`, in the order of app/Cargo.toml.
pub fn build(staging: &Path) -> Result<Vec<Module>, Failure> {
    let manifest = std::fs::read_to_string(root().join("app/Cargo.toml")).map_err(failed)?;
    let mut cases = module_cases(&manifest);
    if let Ok(only) = std::env::var("SLOWPATH_CASE_MODULES") {
        cases.retain(|case| only.split(',').any(|wanted| wanted.trim() == case));
    }
    let index = std::fs::read_to_string(root().join("index.html")).map_err(failed)?;
    let opt_args = wasm_opt_args(&index);
    let work = work_dir();
    let built = target_dir().join("wasm32-unknown-unknown/release/slowpath-app.wasm");
    let mut optimising: Vec<(String, PathBuf, Child)> = Vec::new();
    for case in &cases {
        cmd::run(&format!("the {case} module"), &mut cargo_build(Some(case)))?;
        let dir = work.join(case);
        let _ = std::fs::remove_dir_all(&dir);
        let mut bindgen = Command::new("wasm-bindgen");
        bindgen.args(["--target", "web", "--out-name", "module", "--out-dir"]).arg(&dir).arg(&built);
        cmd::run(&format!("wasm-bindgen for the {case} module"), &mut bindgen)?;
        // While the next case compiles (one core each on a two-core machine).
        let child = Command::new("wasm-opt")
            .args(&opt_args)
            .arg(dir.join("module_bg.wasm"))
            .arg("-o")
            .arg(dir.join("module_opt.wasm"))
            .spawn()
            .map_err(|error| failed(format!("cannot start wasm-opt: {error}")))?;
        optimising.push((case.clone(), dir, child));
    }
    if !cases.is_empty() {
        // Puts Trunk's all-cases build back where `cargo xtask size` reads it (nothing compiles).
        cmd::run("the all-cases module, back in place", &mut cargo_build(None))?;
    }
    let mut modules = Vec::new();
    for (case, dir, mut child) in optimising {
        let status = child.wait().map_err(failed)?;
        if !status.success() {
            return Err(failed(format!("wasm-opt failed for {case} ({status})")));
        }
        modules.push(write_module(staging, &case, &dir)?);
    }
    Ok(modules)
}

/// The app's release build for wasm: one case's module, or the default (every case).
fn cargo_build(case: Option<&str>) -> Command {
    let mut cargo = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cargo.args(["build", "--release", "--target", "wasm32-unknown-unknown", "--manifest-path"]);
    cargo.arg(root().join("app/Cargo.toml")).args(["--bin", "slowpath-app"]);
    if let Some(case) = case {
        cargo.args(["--no-default-features", "--features", case]);
    }
    cargo
}

/// Writes one built module's files into `staging`, each named by its content.
fn write_module(staging: &Path, case: &str, dir: &Path) -> Result<Module, Failure> {
    let wasm = std::fs::read(dir.join("module_opt.wasm")).map_err(failed)?;
    let glue = std::fs::read_to_string(dir.join("module.js")).map_err(failed)?;
    let mut content = wasm.clone();
    content.extend_from_slice(glue.as_bytes());
    let base = format!("slowpath-app-{case}-{:016x}", crate::setup::fnv1a(&content));
    let wasm_name = format!("{base}_bg.wasm");
    let glue_name = format!("{base}.js");
    let write = |name: &str, bytes: &[u8]| {
        std::fs::write(staging.join(name), bytes).map_err(|error| failed(format!("{name}: {error}")))
    };
    write(&wasm_name, &wasm)?;
    write(&glue_name, glue.replace("module_bg.wasm", &wasm_name).as_bytes())?;
    copy_snippets(&dir.join("snippets"), &staging.join("snippets"))?;
    // Trunk's start script, which `html::engine_worker` reads for the glue and the wasm.
    let trunk_start = format!(
        "import init, * as bindings from './{glue_name}';\n\
         const wasm = await init({{ module_or_path: './{wasm_name}' }});\n"
    );
    let (worker_name, worker) = crate::html::engine_worker(&trunk_start)
        .ok_or_else(|| failed(format!("no engine worker for {case}")))?;
    write(&worker_name, worker.as_bytes())?;
    let start = start_script(&glue_name, &wasm_name, &worker_name);
    let start_name = format!("start-{:016x}.js", crate::setup::fnv1a(start.as_bytes()));
    write(&start_name, start.as_bytes())?;
    Ok(Module { case: case.to_string(), files: vec![start_name, glue_name, wasm_name, worker_name] })
}

/// A module's start script: Trunk's (the glue, the wasm, the event the app's tests
/// wait for), after pointing the page at this module's engine worker.
fn start_script(glue: &str, wasm: &str, worker: &str) -> String {
    format!(
        "// One case's module (xtask/src/modules.rs): its engine worker, then the app.\n\
         import init, * as bindings from './{glue}';\n\
         let meta = document.querySelector('meta[name=\"slowpath-engine-worker\"]');\n\
         if (!meta) {{\n\
         \x20 meta = document.createElement('meta');\n\
         \x20 meta.name = 'slowpath-engine-worker';\n\
         \x20 document.head.append(meta);\n\
         }}\n\
         meta.content = './{worker}';\n\
         const wasm = await init({{ module_or_path: './{wasm}' }});\n\
         window.wasmBindings = bindings;\n\
         dispatchEvent(new CustomEvent('TrunkApplicationStarted', {{ detail: {{ wasm }} }}));\n"
    )
}

/// wasm-bindgen's inline JS snippets: the same crate gives the same files, which
/// Trunk has written already; a different one under the same name is an error.
fn copy_snippets(from: &Path, to: &Path) -> Result<(), Failure> {
    let Ok(entries) = std::fs::read_dir(from) else { return Ok(()) };
    for entry in entries {
        let path = entry.map_err(failed)?.path();
        let target = to.join(path.file_name().unwrap_or_default());
        if path.is_dir() {
            copy_snippets(&path, &target)?;
            continue;
        }
        let bytes = std::fs::read(&path).map_err(failed)?;
        match std::fs::read(&target) {
            Ok(existing) if existing == bytes => {}
            Ok(_) => return Err(failed(format!("{} differs from Trunk's", target.display()))),
            Err(_) => {
                std::fs::create_dir_all(to).map_err(failed)?;
                std::fs::write(&target, bytes).map_err(failed)?;
            }
        }
    }
    Ok(())
}

/// Tells the page about the modules: the meta tag `static/route.js` reads (each
/// case's start script, wasm and glue) and the all-cases module's preloads removed
/// (a case link must not fetch it); `boot` is Trunk's start script, the all-cases
/// one, which index.html's own `slowpath-app-start` names.
pub fn install(staging: &Path, html: &mut String, modules: &[Module], boot: &str) -> Result<(), Failure> {
    if modules.is_empty() {
        return Ok(());
    }
    if !html.contains("slowpath-app-start") {
        return Err(failed(
            "index.html names no slowpath-app-start: static/route.js could not start the app",
        ));
    }
    remove_preloads(html, boot, staging)?;
    let pairs: Vec<String> =
        modules.iter().map(|module| format!("{}={}", module.case, start_wasm_glue(module))).collect();
    let mut metas = format!("<meta name=\"slowpath-case-modules\" content=\"{}\">", pairs.join(","));
    metas += &format!(
        "<meta name=\"slowpath-offline-bytes\" content=\"{}\">",
        offline_bytes_br(staging, modules)?
    );
    let at = html.find("<meta charset").unwrap_or(0);
    html.insert_str(at, &metas);
    Ok(())
}

/// What "keep every case offline" (the About page) downloads: every case module's
/// files, brotli-compressed as a host serves them (their copies written now).
fn offline_bytes_br(staging: &Path, modules: &[Module]) -> Result<u64, Failure> {
    let mut total_br = 0;
    for file in modules.iter().flat_map(|module| &module.files) {
        total_br += crate::size::precompress_file(&staging.join(file)).map_err(failed)?;
    }
    Ok(total_br)
}

/// A module as static/route.js reads it: "<start> <wasm> <glue>" (what it preloads).
fn start_wasm_glue(module: &Module) -> String {
    [0, 2, 1]
        .iter()
        .filter_map(|at| module.files.get(*at))
        .map(|file| format!("./{file}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Drops Trunk's `<link rel=modulepreload>` and `<link rel=preload>` of the
/// all-cases glue and wasm (named by its start script `boot`): every page fetched
/// them before it knew its route.
fn remove_preloads(html: &mut String, boot: &str, staging: &Path) -> Result<(), Failure> {
    let start = std::fs::read_to_string(staging.join(boot)).map_err(failed)?;
    let names: Vec<String> =
        files_of_start(boot, &start, boot).into_iter().filter(|name| name != boot).collect();
    let mut kept = String::with_capacity(html.len());
    let mut rest = html.as_str();
    while let Some(at) = rest.find("<link") {
        let end = rest[at..].find('>').map_or(rest.len(), |end| at + end + 1);
        let link = &rest[at..end];
        let preload = link.contains("preload");
        let names_module = names.iter().any(|name| link.contains(name.as_str()));
        kept.push_str(&rest[..at]);
        if !(preload && names_module) {
            kept.push_str(link);
        }
        rest = &rest[end..];
    }
    kept.push_str(rest);
    *html = kept;
    Ok(())
}

/// The all-cases module's files: Trunk's start script `start`, the glue and wasm it
/// names, and its engine worker.
pub fn files_of_start(start: &str, script: &str, worker: &str) -> Vec<String> {
    let quoted = |marker: &str| {
        let at = script.find(marker)? + marker.len() + 1;
        let name = &script[at..at + script[at..].find(['\'', '"'])?];
        Some(name.trim_start_matches("./").to_string())
    };
    let named = [quoted(" from "), quoted("module_or_path: ")].into_iter().flatten();
    std::iter::once(start.to_string()).chain(named).chain([worker.to_string()]).collect()
}

/// The modules as the service worker lists them: ("", the all-cases module's
/// files) and (case, its files); nothing when no case has a module (then the
/// all-cases module is precached like every other file).
pub fn for_service_worker(all_cases: &[String], cases: &[Module]) -> Vec<(String, Vec<String>)> {
    if cases.is_empty() {
        return Vec::new();
    }
    std::iter::once((String::new(), all_cases.to_vec()))
        .chain(cases.iter().map(|module| (module.case.clone(), module.files.clone())))
        .collect()
}

/// `{"": ["./a.js", …], "case-id": […]}` for the service worker's script.
pub fn as_js_object(modules: &[(String, Vec<String>)]) -> String {
    let entries: Vec<String> = modules
        .iter()
        .map(|(case, files)| {
            let files: Vec<String> = files.iter().map(|file| format!("./{file}")).collect();
            format!("{case:?}: {files:?}")
        })
        .collect();
    format!("{{{}}}", entries.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_per_case_feature_of_the_app_is_a_module_but_the_tests_case() {
        let manifest = "[package]\nname = \"x\"\n\n[features]\ndefault = [\"a-case\", \"example-case\"]\n\
                        a-case = [\"slowpath-engine/a-case\"]\nb = [\"slowpath-engine/a-case\"]\n\
                        d-case = [\"slowpath-engine/d-case\", \"text-params\"]\n\
                        e-case = [\"slowpath-engine/e-case-too\"]\n\
                        example-case = [\"slowpath-engine/example-case\"]\n\n[dependencies]\n\
                        c-case = [\"slowpath-engine/c-case\"]\n";
        assert_eq!(module_cases(manifest), ["a-case", "d-case"]);
        let real = std::fs::read_to_string(root().join("app/Cargo.toml")).expect("app/Cargo.toml");
        let cases = module_cases(&real);
        assert!(cases.len() >= 6 && !cases.iter().any(|case| case == "example-case"), "{cases:?}");
        assert!(cases.iter().any(|case| case == "the-lab"), "{cases:?}");
    }

    #[test]
    fn wasm_opt_gets_index_htmls_level_and_parameters() {
        let html = "<link data-trunk rel=\"rust\" data-wasm-opt=\"z\" data-wasm-opt-params=\"--converge --strip-producers\" />";
        assert_eq!(wasm_opt_args(html), ["-Oz", "--converge", "--strip-producers"]);
    }

    #[test]
    fn the_page_is_pointed_at_the_modules_and_fetches_no_preload_of_the_all_cases_one() {
        let staging = std::env::temp_dir().join(format!("xtask-modules-{}", std::process::id()));
        std::fs::create_dir_all(&staging).unwrap();
        let boot = "boot-1.js";
        std::fs::write(
            staging.join(boot),
            "import init, * as bindings from './app-1.js';\nconst wasm = await init({ module_or_path: './app-1_bg.wasm' });",
        )
        .unwrap();
        let mut html = "<meta name=\"slowpath-app-start\" content=\"./boot-1.js\"><meta charset=utf-8>\
                        <link crossorigin href=./app-1.js rel=modulepreload>\
                        <link crossorigin href=./snippets/s/inline0.js rel=modulepreload>\
                        <link as=fetch href=./app-1_bg.wasm rel=preload></head>"
            .to_string();
        let start = "import './a.js';";
        std::fs::write(staging.join("start-a.js"), start).unwrap();
        let modules = [Module { case: "a".into(), files: vec!["start-a.js".into()] }];
        assert!(install(&staging, &mut html, &modules, boot).is_ok(), "installed");
        assert!(staging.join("start-a.js.br").is_file(), "its bytes counted as a host sends them");
        let _ = std::fs::remove_dir_all(&staging);
        let offline_br = crate::size::brotli(start.as_bytes()).len();
        assert_eq!(
            html,
            format!(
                "<meta name=\"slowpath-app-start\" content=\"./boot-1.js\">\
                 <meta name=\"slowpath-case-modules\" content=\"a=./start-a.js\">\
                 <meta name=\"slowpath-offline-bytes\" content=\"{offline_br}\"><meta charset=utf-8>\
                 <link crossorigin href=./snippets/s/inline0.js rel=modulepreload></head>"
            )
        );
        let mut without_start = "<meta charset=utf-8>".to_string();
        assert!(
            install(&staging, &mut without_start, &modules, boot).is_err(),
            "a page route.js cannot start"
        );
    }

    #[test]
    fn the_service_worker_learns_each_modules_files() {
        let trunk = "import init, * as bindings from './app-1.js';\nconst wasm = await init({ module_or_path: './app-1_bg.wasm' });";
        let all = files_of_start("boot-1.js", trunk, "engine-worker-1.js");
        assert_eq!(all, ["boot-1.js", "app-1.js", "app-1_bg.wasm", "engine-worker-1.js"]);
        assert!(for_service_worker(&all, &[]).is_empty(), "no case module: nothing apart");
        let case = Module { case: "a".into(), files: vec!["start-2.js".into(), "g-2.js".into()] };
        let listed = for_service_worker(&all, &[case]);
        assert_eq!(
            as_js_object(&listed),
            "{\"\": [\"./boot-1.js\", \"./app-1.js\", \"./app-1_bg.wasm\", \"./engine-worker-1.js\"], \"a\": [\"./start-2.js\", \"./g-2.js\"]}"
        );
    }

    #[test]
    fn a_start_script_names_its_worker_glue_and_wasm() {
        let script = start_script("g-1.js", "g-1_bg.wasm", "engine-worker-1.js");
        assert!(script.contains("meta.content = './engine-worker-1.js';"), "{script}");
        assert!(script.contains("import init, * as bindings from './g-1.js';"), "{script}");
        assert!(script.contains("init({ module_or_path: './g-1_bg.wasm' })"), "{script}");
    }
}
