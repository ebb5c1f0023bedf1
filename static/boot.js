// Runs once the page is parsed (a module): shows the static page the address names
// (the landing or About, already in index.html), or starts the app for any other
// route, and keeps doing so as the address changes. route.js, in <head>, has said
// which kind of page it is and started the downloads the app's routes need.

const boot = window.slowpathBoot;
const pages = document.getElementById('static-pages');
const main = pages?.querySelector('main');
// Each static page by name; only the one shown stays in the document (the other
// would still be found by search, tests and tools, hidden or not).
const staticPages = new Map(
  [...(main?.querySelectorAll('[data-static-page]') ?? [])].map((page) => [page.dataset.staticPage, page]),
);
let app = null;

// The app's stylesheets, then its module: started once; the app then follows the
// address itself (and draws nothing on the static pages' routes).
function startApp() {
  if (!app) {
    const module = boot.moduleFor(location.hash);
    app = boot.loadStyles(false).then(() => import(module.start));
    app.catch(() => {
      const notice = document.getElementById('boot');
      if (notice) notice.textContent = 'slowpath could not start: reload the page to try again.';
    });
  }
  return app;
}

// Marks the header's link to the page shown, as the app's header does.
function markCurrent(page) {
  for (const link of pages.querySelectorAll('.site-nav a')) {
    const to = boot.staticPageOf(link.getAttribute('href'));
    if (to === page) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

// The case's first screen, once fetched, until the app draws (its start removes it);
// settles once it has been painted (or at once, without one).
function showIntro() {
  if (!boot.intro) return Promise.resolve();
  return boot.intro.then((html) => {
    const notice = document.getElementById('boot');
    if (!html || !notice) return undefined;
    const intro = document.createElement('div');
    intro.id = 'case-intro';
    intro.innerHTML = html;
    // The first narration is the start's: right only for a link without a query.
    if (location.hash.includes('?')) intro.querySelector('.intro-start')?.remove();
    notice.before(intro);
    // The frame after next: the one that drew it has been painted.
    return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}

function show(firstLoad) {
  const page = boot.staticPageOf(location.hash);
  document.documentElement.dataset.route = page || 'app';
  if (!pages) {
    // A build without static pages (none today): the app draws every route.
    showIntro().finally(startApp);
    return;
  }
  if (!page) {
    // Out of the document while the app draws, so that its header and main are the only ones.
    pages.remove();
    if (firstLoad) showIntro().finally(startApp);
    else startApp();
    return;
  }
  if (!pages.isConnected) document.body.prepend(pages);
  const shown = staticPages.get(page);
  for (const other of staticPages.values()) if (other !== shown) other.remove();
  if (shown && !shown.isConnected) main.append(shown);
  if (shown && shown.dataset.title) document.title = shown.dataset.title;
  markCurrent(page);
  if (!firstLoad) {
    // As the app does after a navigation: focus the new content (screen readers
    // announce it), then back to the top.
    main?.focus();
    window.scrollTo(0, 0);
  }
}

if (pages) {
  pages.querySelector('[data-skip-to-content]')?.addEventListener('click', () => {
    main?.focus();
  });
}
// The intent to open a case (a pointer over, or focus on, a link to it) asks the
// service worker to keep that case's module, once per case, when the page is idle,
// unless the visitor asked to save data (the worker fetches it: xtask/src/html.rs).
function prefetchOnIntent() {
  if (!('serviceWorker' in navigator) || navigator.connection?.saveData) return;
  const asked = new Set();
  const intent = (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href*="#/case/"]') : null;
    const worker = navigator.serviceWorker.controller;
    const id = link && boot.caseOf(link.getAttribute('href'));
    if (!id || !worker || asked.has(id)) return;
    asked.add(id);
    // When the page is idle: the click that may follow comes first.
    const idle = window.requestIdleCallback ?? ((callback) => setTimeout(callback, 1));
    idle(() => worker.postMessage({ prefetch: id }), { timeout: 2000 });
  };
  document.addEventListener('pointerover', intent, { passive: true });
  document.addEventListener('focusin', intent);
}

// A size as a person writes it: 1.7 MB, 340 kB.
function bytesAsText(bytes) {
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

// Asks the service worker `message` and hands each reply to `onReply` (replies go
// on a channel of their own, so that two questions never mix).
function askServiceWorker(worker, message, onReply) {
  const channel = new MessageChannel();
  channel.port1.onmessage = (event) => onReply(event.data ?? {});
  worker.postMessage(message, [channel.port2]);
}

// About's "Keep every case offline": shown only where a service worker controls the
// page (a release build), its label the bytes the build counted
// (slowpath-offline-bytes), its progress and outcome said in its status line.
function offerKeepingEveryCase() {
  const offer = document.querySelector('[data-keep-offline]');
  const bytes = Number(document.querySelector('meta[name="slowpath-offline-bytes"]')?.content);
  if (!offer || !(bytes > 0) || !('serviceWorker' in navigator)) return;
  const button = offer.querySelector('button');
  const status = offer.querySelector('[role="status"]');
  button.textContent = `Keep every case offline (${bytesAsText(bytes)})`;
  const said = ({ kept, total, done, failed }) => {
    if (failed) {
      status.textContent = `Could not keep every case (${failed}); ${kept} of ${total} kept. Try again once online.`;
      button.disabled = false;
    } else if (done || kept === total) {
      status.textContent = `Every case is kept: all ${total} open without a network.`;
      button.disabled = true;
    } else {
      status.textContent = `Keeping the cases: ${kept} of ${total} kept…`;
    }
  };
  // The active worker answers whether or not it controls this page yet (a first visit).
  const active = navigator.serviceWorker.ready.then((registration) => registration.active);
  button.addEventListener('click', () => {
    button.disabled = true;
    status.textContent = 'Keeping the cases…';
    active.then((worker) => {
      if (worker) askServiceWorker(worker, { keepEveryCase: true }, said);
      else said({ kept: 0, total: 0, failed: 'no service worker' });
    });
  });
  active.then((worker) => {
    if (!worker) return;
    offer.hidden = false;
    askServiceWorker(worker, { keptCases: true }, (reply) => {
      if (reply.total > 0 && reply.kept === reply.total) said(reply);
    });
  });
}

prefetchOnIntent();
offerKeepingEveryCase();
addEventListener('hashchange', () => show(false));
show(true);
