// Runs in <head>, before the body is drawn (a classic script, so it blocks): says
// which kind of page the address names, so that the first paint is the right one.
//
// The landing and About pages are in index.html already (drawn at build time from
// the app's own components, `app/src/prerender.rs`), and need no wasm: on those,
// nothing more is loaded. Every other route is the app's: its stylesheets and its
// module (the route's case's own, where the build has one) start downloading now.
// boot.js, a module that runs once the page is parsed, does the rest.

(function () {
  'use strict';

  // The static page a hash names, or null for the app's routes: the same rules as
  // `Route::parse` (app/src/route.rs): no path (or only slashes) is the landing,
  // "about" is About, one trailing slash and a query are ignored.
  function staticPageOf(hash) {
    let text = String(hash || '').trim();
    if (text.startsWith('#')) text = text.slice(1);
    const query = text.indexOf('?');
    const path = query < 0 ? text : text.slice(0, query);
    let trimmed = path.replace(/^\/+/, '');
    if (trimmed.endsWith('/')) trimmed = trimmed.slice(0, -1);
    if (trimmed === '') return 'landing';
    if (trimmed === 'about') return 'about';
    return null;
  }

  function meta(name) {
    const element = document.querySelector('meta[name="' + name + '"]');
    return element ? element.content : '';
  }

  // The case a hash names, if any ("#/case/<id>…", or "#/lab", the Lab's short
  // address), decoded like the app does.
  function caseOf(hash) {
    if (/^#?\/*lab\/?(\?|$)/.test(String(hash || '').trim())) return 'the-lab';
    const match = /^#?\/*case\/([^/?]+)/.exec(String(hash || '').trim());
    if (!match) return null;
    try {
      return decodeURIComponent(match[1]);
    } catch (error) {
      return match[1];
    }
  }

  // The module for a route: { start, wasm, scripts }: its start-up script, its wasm
  // and the scripts the start-up script imports, each "<start> <wasm> <script>…".
  // A build may carry one module per case (`slowpath-case-modules`: "<id>=<module>,…");
  // every other route, and a build without them, uses the module with every case
  // (`slowpath-app-start`).
  function moduleFor(hash) {
    const parse = (text) => {
      const [start, wasm, ...scripts] = text.trim().split(/\s+/);
      return { start, wasm, scripts };
    };
    const id = caseOf(hash);
    if (id) {
      for (const entry of meta('slowpath-case-modules').split(',')) {
        const at = entry.indexOf('=');
        if (at > 0 && entry.slice(0, at).trim() === id) return parse(entry.slice(at + 1));
      }
    }
    return parse(meta('slowpath-app-start'));
  }

  // The app's stylesheets (all but the shell's, which the static pages use): added
  // once; the promise settles when they have loaded (or failed: the app still runs).
  let styles = null;
  function loadStyles(blockRender) {
    if (styles) return styles;
    const hrefs = meta('slowpath-app-styles').split(/\s+/).filter(Boolean);
    styles = Promise.all(
      hrefs.map(
        (href) =>
          new Promise((resolve) => {
            const link = document.createElement('link');
            link.rel = 'stylesheet';
            link.href = href;
            if (blockRender) link.setAttribute('blocking', 'render');
            link.onload = link.onerror = () => resolve();
            document.head.append(link);
          }),
      ),
    );
    return styles;
  }

  // Starts fetching the route's module (its glue and its wasm) while the page parses.
  function preload(module) {
    for (const href of [module.start, ...module.scripts].filter(Boolean)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      document.head.append(link);
    }
    if (module.wasm) {
      const link = document.createElement('link');
      link.rel = 'preload';
      link.as = 'fetch';
      link.type = 'application/wasm';
      link.crossOrigin = 'anonymous';
      link.href = module.wasm;
      document.head.append(link);
    }
  }

  // A case page's first screen, drawn at build time (`intros/<id>.html`): its header
  // while the module loads. Not for an embed or the presenter view (no site header).
  function fetchIntro(hash) {
    const id = caseOf(hash);
    const query = String(hash || '').split('?')[1] || '';
    const flags = query.split('&').map((pair) => pair.split('=')[0]);
    const known = meta('slowpath-intros').split(/\s+/);
    if (!id || !known.includes(id) || /\/tour\b/.test(hash) || flags.includes('embed') || flags.includes('present')) {
      return null;
    }
    return fetch('./intros/' + id + '.html')
      .then((response) => (response.ok ? response.text() : null))
      .catch(() => null);
  }

  const page = staticPageOf(location.hash);
  document.documentElement.dataset.route = page || 'app';
  // The presenter view's light theme from the first paint (the app keeps the class
  // in step with the route afterwards: `app.rs`).
  const flags = (String(location.hash).split('?')[1] || '').split('&').map((pair) => pair.split('=')[0]);
  if (caseOf(location.hash) !== null && flags.includes('present')) document.documentElement.dataset.present = '';
  let intro = null;
  if (!page) {
    loadStyles(true);
    intro = fetchIntro(location.hash);
    // With a first screen to draw, the module waits until it is on screen (boot.js):
    // the case's words come first on a slow line, then the megabyte behind them.
    if (!intro) preload(moduleFor(location.hash));
  }
  window.slowpathBoot = { staticPageOf, caseOf, moduleFor, loadStyles, intro };
})();
