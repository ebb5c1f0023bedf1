//! `cargo xtask harden-html`: Trunk's post-build hook (Trunk.toml). It takes
//! Trunk's inline start-up script out of the page into a file of its own, which
//! `static/boot.js` imports on the app's routes only; puts the landing and About
//! pages, prerendered, into the body and the app's files into meta tags
//! (`shell.rs`); and, in release builds, adds the Content-Security-Policy, so that
//! no inline script runs, and writes the service worker that precaches this build
//! (`sw.js`: after one visit the site works offline; `static/sw-register.js`
//! registers it and offers a reload when a new build is deployed).
//!
//! Why a file and not a hash in the policy: the script names the hashed bundle,
//! so its hash changes with every build, and a file needs no policy update.

use crate::cmd::{Failure, Outcome};
use std::path::Path;

/// Exactly what the app needs: its own scripts, styles, wasm (compiled with
/// 'wasm-unsafe-eval'), workers and fetches; inline style attributes (Yew sets
/// widths and positions); nothing else. `frame-ancestors` cannot be set from a
/// meta tag, which suits embeds: any page may frame slowpath.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";

pub fn harden_from_env() -> Outcome {
    let staging = std::env::var_os("TRUNK_STAGING_DIR").ok_or_else(|| {
        Failure::Usage("harden-html runs as Trunk's post_build hook (TRUNK_STAGING_DIR)".into())
    })?;
    let release = std::env::var("TRUNK_PROFILE").is_ok_and(|profile| profile == "release");
    harden(Path::new(&staging), release)
}

fn harden(staging: &Path, release: bool) -> Outcome {
    let index = staging.join("index.html");
    let fail = |what: &str, error: std::io::Error| Failure::Failed(format!("harden-html: {what}: {error}"));
    let html = std::fs::read_to_string(&index).map_err(|e| fail("cannot read index.html", e))?;
    let (mut html, boot) = externalise_inline_module(&html);
    if release {
        for name in crate::shell::SCRIPTS_SHIPPED_AS_WRITTEN {
            let path = staging.join(name);
            let script =
                std::fs::read_to_string(&path).map_err(|e| fail(&format!("cannot read {name}"), e))?;
            std::fs::write(&path, crate::shell::without_comment_lines(&script))
                .map_err(|e| fail(&format!("cannot write {name}"), e))?;
        }
    }
    let mut all_cases_module = Vec::new();
    let mut case_modules = Vec::new();
    if let Some((name, script)) = boot {
        let (_, wasm) = module_files(&script).unwrap_or_default();
        html = crate::shell::defer_app_files(&html, &format!("./{name}"), &wasm);
        if let Some((worker_name, worker)) = engine_worker(&script) {
            all_cases_module = crate::modules::files_of_start(&name, &script, &worker_name);
            std::fs::write(staging.join(&worker_name), worker)
                .map_err(|e| fail(&format!("cannot write {worker_name}"), e))?;
            if !html.contains("slowpath-engine-worker") {
                let at = html.find("<meta charset").unwrap_or(0);
                html.insert_str(
                    at,
                    &format!("<meta name=\"slowpath-engine-worker\" content=\"./{worker_name}\">"),
                );
            }
        }
        std::fs::write(staging.join(&name), script).map_err(|e| fail(&format!("cannot write {name}"), e))?;
        // One wasm module per case, in release builds (xtask/src/modules.rs).
        case_modules = if release { crate::modules::build(staging)? } else { Vec::new() };
        crate::modules::install(staging, &mut html, &case_modules, &name)?;
    }
    let pages = crate::shell::static_pages_fragment(&crate::cmd::root()).map_err(Failure::Failed)?;
    html = crate::shell::insert_static_pages(&html, &pages).map_err(Failure::Failed)?;
    html = crate::shell::name_intros(&html, staging);
    if release {
        let modules = crate::modules::for_service_worker(&all_cases_module, &case_modules);
        let worker =
            service_worker(staging, &modules).map_err(|e| fail("cannot list the build for sw.js", e))?;
        std::fs::write(staging.join("sw.js"), crate::shell::without_comment_lines(&worker))
            .map_err(|e| fail("cannot write sw.js", e))?;
        if !html.contains("slowpath-service-worker") {
            let at = html.find("<meta charset").unwrap_or(0);
            html.insert_str(at, "<meta name=\"slowpath-service-worker\" content=\"./sw.js\">");
        }
    }
    if release && !html.contains("Content-Security-Policy") {
        let meta =
            format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{CONTENT_SECURITY_POLICY}\">");
        // Right after the charset, before anything the policy governs (a minified page
        // has no <head> tag, and nothing may come before the doctype).
        let at = html
            .find("<meta charset")
            .and_then(|start| html[start..].find('>').map(|end| start + end + 1))
            .ok_or_else(|| Failure::Failed("harden-html: index.html has no <meta charset>".into()))?;
        html.insert_str(at, &meta);
    }
    std::fs::write(&index, html).map_err(|e| fail("cannot write index.html", e))?;
    // Last, so that neither sw.js nor the page lists the compressed copies.
    if release {
        crate::size::precompress(staging).map_err(|e| fail("cannot write the precompressed files", e))?;
    }
    println!(
        "xtask: harden-html: start-up script in a file, static pages in the page{}",
        if release { ", CSP added, .gz and .br written" } else { "" }
    );
    Ok(())
}

/// The service worker for the build in `staging`: every file of it precached
/// under a cache named by a fingerprint of their contents, so that a new
/// deployment is a new worker (browsers compare the script byte by byte); but the
/// wasm modules' files (`modules`: case id, or "" for the all-cases module, and its
/// files), of which it precaches those of the pages open at install and caches the
/// others once fetched.
fn service_worker(staging: &Path, modules: &[(String, Vec<String>)]) -> std::io::Result<String> {
    let mut files = Vec::new();
    let mut pending = vec![staging.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
            } else if let Ok(relative) = path.strip_prefix(staging) {
                let name = relative.to_string_lossy().replace('\\', "/");
                if name != "sw.js" {
                    files.push((name, std::fs::read(&path)?));
                }
            }
        }
    }
    files.sort();
    let mut fingerprint = Vec::new();
    for (name, bytes) in &files {
        fingerprint.extend_from_slice(name.as_bytes());
        fingerprint.extend_from_slice(&crate::setup::fnv1a(bytes).to_le_bytes());
    }
    let version = format!("{:016x}", crate::setup::fnv1a(&fingerprint));
    let in_a_module = |name: &str| modules.iter().any(|(_, files)| files.iter().any(|file| file == name));
    let assets: Vec<String> = std::iter::once("./".to_string())
        .chain(files.iter().filter(|(name, _)| !in_a_module(name)).map(|(name, _)| format!("./{name}")))
        .collect();
    Ok(SERVICE_WORKER
        .replace("__VERSION__", &version)
        .replace("__ASSETS__", &format!("{:?}", assets))
        .replace("__MODULES__", &crate::modules::as_js_object(modules)))
}

/// The worker's code: cache first for this build's files, the network for anything
/// else; a new build waits until the page asks it to take over (the reload banner).
const SERVICE_WORKER: &str = r#"// slowpath's service worker, written by `cargo xtask harden-html` for one build.
const CACHE = 'slowpath-__VERSION__';
const ASSETS = __ASSETS__;
// Each wasm module's files by the case it serves ('': the all-cases module).
const MODULES = __MODULES__;
const MODULE_URLS = new Set(Object.values(MODULES).flat().map((file) => new URL(file, self.location).href));

// The module a page at `url` loads (static/route.js picks the same).
function moduleOf(url) {
  const [first, id] = new URL(url).hash.trim().replace(/^#/, '').split('?')[0].replace(/^\/+/, '').split('/');
  let caseId = '';
  try { caseId = first === 'case' && id ? decodeURIComponent(id) : ''; } catch {}
  return MODULES[caseId] ?? MODULES[''] ?? [];
}

async function cacheMissing(cache, files) {
  const missing = [];
  for (const file of files) if (!(await cache.match(file))) missing.push(file);
  await cache.addAll(missing);
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE).then(async (cache) => {
      await cache.addAll(ASSETS);
      // The module of each page open now, which that visit has loaded already.
      const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      await cacheMissing(cache, [...new Set(pages.flatMap((page) => moduleOf(page.url)))]);
    }),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith('slowpath-') && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

// Every case's own module (not the all-cases one, which no case link loads).
const CASE_MODULES = Object.entries(MODULES).filter(([caseId]) => caseId !== '');

async function keptCases(cache) {
  let kept = 0;
  for (const [, files] of CASE_MODULES) {
    const missing = await Promise.all(files.map(async (file) => !(await cache.match(file))));
    if (!missing.includes(true)) kept += 1;
  }
  return kept;
}

// "Keep every case offline" (the About page, static/boot.js): each case's module,
// with a reply per case kept, on the page's port.
async function keepEveryCase(port) {
  const cache = await caches.open(CACHE);
  const total = CASE_MODULES.length;
  let kept = 0;
  try {
    for (const [, files] of CASE_MODULES) {
      await cacheMissing(cache, files);
      kept += 1;
      port.postMessage({ kept, total });
    }
    port.postMessage({ kept, total, done: true });
  } catch (error) {
    port.postMessage({ kept, total, failed: String(error && error.message || error) });
  }
}

self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
  const port = event.ports && event.ports[0];
  if (event.data?.keepEveryCase && port) event.waitUntil(keepEveryCase(port));
  if (event.data?.keptCases && port) {
    event.waitUntil(caches.open(CACHE).then(keptCases).then((kept) => port.postMessage({ kept, total: CASE_MODULES.length })));
  }
  // The intent to open a case (static/boot.js): its module, before it is needed.
  const wanted = MODULES[event.data?.prefetch];
  if (wanted && event.data.prefetch !== '') event.waitUntil(caches.open(CACHE).then((cache) => cacheMissing(cache, wanted)));
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      const hit = (await cache.match(request, { ignoreSearch: true }))
        ?? (request.mode === 'navigate' ? await cache.match('./') : undefined);
      if (hit) return hit;
      const response = await fetch(request);
      // A module first fetched now: cached for the next visit, offline too.
      if (response.ok && MODULE_URLS.has(request.url.split('?')[0])) await cache.put(request, response.clone());
      return response;
    }),
  );
});
"#;

/// The engine's Web Worker (`app/src/worker`): a module that loads the same glue
/// and wasm as the page's start-up script (`boot`), whose `start()` then serves
/// runs instead of drawing. The page's first message is its own compiled
/// `WebAssembly.Module`, so the worker instantiates it instead of compiling the
/// wasm a second time (a message without one falls back to the file). Named by its
/// content, like the boot script.
pub(crate) fn engine_worker(boot: &str) -> Option<(String, String)> {
    let (glue, wasm) = module_files(boot)?;
    let script = format!(
        "// slowpath's engine worker (app/src/worker): the page's own module, started without the UI.\n\
         import init from '{glue}';\n\
         // The page sends its compiled module first: instantiate it rather than compile again.\n\
         const compiled = await new Promise((resolve) => {{\n\
         \x20 self.onmessage = (event) => resolve(event.data && event.data.module);\n\
         }});\n\
         await init({{ module_or_path: compiled instanceof WebAssembly.Module ? compiled : '{wasm}' }});\n"
    );
    let name = format!("engine-worker-{:016x}.js", crate::setup::fnv1a(script.as_bytes()));
    Some((name, script))
}

/// The glue script and the wasm that Trunk's start-up script (`boot`) loads.
fn module_files(boot: &str) -> Option<(String, String)> {
    let quoted_after = |marker: &str| {
        let start = boot.find(marker)? + marker.len();
        let quote = boot[start..].chars().next().filter(|c| *c == '\'' || *c == '"')?;
        let rest = &boot[start + 1..];
        Some(rest[..rest.find(quote)?].to_string())
    };
    Some((quoted_after(" from ")?, quoted_after("module_or_path: ")?))
}

/// Takes the first inline `<script type=module>…</script>` (Trunk's start-up
/// script) out of the page; returns the new HTML and the script as a file named
/// `start-<hash>.js`, which `static/boot.js` imports on the app's routes only.
fn externalise_inline_module(html: &str) -> (String, Option<(String, String)>) {
    for open in ["<script type=module>", "<script type=\"module\">"] {
        let Some(start) = html.find(open) else { continue };
        let body_start = start + open.len();
        let Some(length) = html[body_start..].find("</script>") else { continue };
        let script = html[body_start..body_start + length].to_string();
        let name = format!("start-{:016x}.js", crate::setup::fnv1a(script.as_bytes()));
        let rest = &html[body_start + length + "</script>".len()..];
        return (format!("{}{rest}", &html[..start]), Some((name, script)));
    }
    (html.to_string(), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inline_module_leaves_the_page_for_a_file_named_by_its_content() {
        let html =
            "<head><script type=module>import x from './a.js';\nawait x();</script><link rel=x></head>";
        let (out, boot) = externalise_inline_module(html);
        let (name, script) = boot.expect("moved");
        assert_eq!(script, "import x from './a.js';\nawait x();");
        assert!(name.starts_with("start-") && name.ends_with(".js"));
        assert_eq!(out, "<head><link rel=x></head>");
        assert_eq!(externalise_inline_module(&out).1, None, "nothing inline is left");
    }

    #[test]
    fn the_engine_worker_loads_the_boot_scripts_glue_and_wasm() {
        let boot = "import init, * as bindings from './app-1a.js';\n\
                    const wasm = await init({ module_or_path: './app-1a_bg.wasm' });\n";
        let (name, script) = engine_worker(boot).expect("found");
        assert!(name.starts_with("engine-worker-") && name.ends_with(".js"));
        assert!(script.contains("import init from './app-1a.js';"), "{script}");
        assert!(
            script.contains("await init({ module_or_path: compiled instanceof WebAssembly.Module ? compiled : './app-1a_bg.wasm' });"),
            "{script}"
        );
        assert!(script.contains("self.onmessage"), "it waits for the page's module: {script}");
        assert_eq!(engine_worker("console.log(1)"), None);
    }
}
