// Which wasm module a page loads (issue 32): a release build has one module per
// case, holding every case's metadata and that case's simulation and stage, besides
// the all-cases module Trunk builds. `cargo xtask harden-html` (xtask/src/modules.rs)
// names each case's start script in <meta name="slowpath-case-modules"
// content="<case-id>=./start-<hash>.js,…"> and the all-cases one in
// <meta name="slowpath-app-start">. The boot script imports what `startScriptFor`
// picks; a page whose module lacks the case a link opens reloads at the new address
// (app/src/cases/module.rs), and this picks again.

function metaContent(name) {
  return document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? null;
}

/** The start script of case `caseId`'s own module, or null when it has none (a
 * development build, the tests' own case): then the all-cases module serves it. */
export function moduleFor(caseId) {
  if (!caseId) return null;
  for (const pair of (metaContent('slowpath-case-modules') ?? '').split(',')) {
    const at = pair.indexOf('=');
    // "<id>=<start> <wasm> <glue>": the start script is the first.
    if (at > 0 && pair.slice(0, at).trim() === caseId) return pair.slice(at + 1).trim().split(/\s+/)[0] || null;
  }
  return null;
}

/** The case a hash route names (`#/case/<id>`, `#/case/<id>/tour/3?k=v`), or null;
 * as lenient as the app's parser (app/src/route.rs): spaces, a missing or trailing
 * slash. */
export function caseOfRoute(hash) {
  const path = String(hash ?? '').trim().replace(/^#/, '').split('?')[0];
  const segments = path.replace(/^\/+/, '').replace(/\/$/, '').split('/');
  if (segments[0] !== 'case' || !segments[1]) return null;
  try {
    return decodeURIComponent(segments[1]);
  } catch {
    return null;
  }
}

/** The start script for the page at `hash`: its case's module, else the all-cases one. */
export function startScriptFor(hash) {
  return moduleFor(caseOfRoute(hash)) ?? (metaContent('slowpath-app-start') ?? '').trim().split(/\s+/)[0];
}

/** Once the service worker controls the page, the intent to open a case (a pointer
 * over, or focus on, a link to it) asks it to cache that case's module, unless the
 * visitor asked to save data. Once per case and page. */
export function prefetchOnIntent() {
  if (!('serviceWorker' in navigator) || navigator.connection?.saveData) return;
  const asked = new Set();
  const intent = (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href*="#/case/"]') : null;
    const worker = navigator.serviceWorker.controller;
    if (!link || !worker) return;
    const caseId = caseOfRoute(new URL(link.href, location.href).hash);
    if (!caseId || asked.has(caseId) || !moduleFor(caseId)) return;
    asked.add(caseId);
    worker.postMessage({ prefetch: caseId });
  };
  document.addEventListener('pointerover', intent, { passive: true });
  document.addEventListener('focusin', intent);
}
