// Shared helpers for slowpath's browser tests (node:test + playwright-core).
//
// Uses the system Chromium (never downloads one). The app is expected at
// SLOWPATH_BASE_URL (for example http://127.0.0.1:41234/, serving dist/);
// without it, the helper serves ../dist itself on a free loopback port.

import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const ARTIFACTS = join(HERE, 'artifacts');
const DIST = resolve(HERE, '..', 'dist');

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Generous but finite: a failure must never hang the run. */
export const TIMEOUT_MS = 15_000;

export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
    timeout: 60_000,
  });
}

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.md': 'text/plain; charset=utf-8',
};

/** A minimal static file server for dist/, used when SLOWPATH_BASE_URL is not set;
 * `headersFor(path)` adds a host's headers to a response (the hosting test). */
export async function serveDist(headersFor = () => ({})) {
  await stat(join(DIST, 'index.html')).catch(() => {
    throw new Error(`no ${join(DIST, 'index.html')}: run \`trunk build --release\` first, or set SLOWPATH_BASE_URL`);
  });
  const server = createServer(async (request, response) => {
    try {
      const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
      let file = normalize(join(DIST, path));
      if (file !== DIST && !file.startsWith(DIST + sep)) throw new Error('outside dist');
      if (path.endsWith('/')) file = join(file, 'index.html');
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': MIME[extname(file)] || 'application/octet-stream', ...headersFor(path) });
      response.end(body);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

/**
 * Starts what a test file needs: a browser and the base URL of the app.
 * Call `close()` from an `after` hook.
 */
export async function startSuite() {
  let server = null;
  let baseUrl = process.env.SLOWPATH_BASE_URL;
  if (!baseUrl) {
    server = await serveDist();
    baseUrl = server.url;
  }
  if (!baseUrl.endsWith('/')) baseUrl += '/';
  const browser = await launchBrowser();
  return {
    browser,
    baseUrl,
    /** The absolute URL of a hash route such as `#/about`. */
    url: (hash = '#/') => baseUrl + hash,
    async close() {
      await browser.close().catch(() => {});
      if (server) await server.close();
    },
  };
}

/**
 * A fresh context and page that records console errors and page errors.
 * `options` go to `browser.newContext` (e.g. `colorScheme: 'dark'`).
 */
export async function openPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  context.setDefaultTimeout(TIMEOUT_MS);
  context.setDefaultNavigationTimeout(TIMEOUT_MS);
  const page = await context.newPage();
  const consoleErrors = [];
  const pageErrors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  return { context, page, consoleErrors, pageErrors };
}

/**
 * Runs `body` with a fresh page; on failure saves a screenshot under
 * e2e/artifacts/ and rethrows. The context is always closed.
 */
export async function withPage(browser, name, body, options = {}) {
  const session = await openPage(browser, options);
  try {
    await body(session);
  } catch (error) {
    await mkdir(ARTIFACTS, { recursive: true });
    const file = join(ARTIFACTS, `${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`);
    await session.page.screenshot({ path: file, fullPage: true }).catch(() => {});
    const notes = [
      `screenshot: ${file}`,
      `url: ${session.page.url()}`,
      session.consoleErrors.length ? `console errors: ${session.consoleErrors.join(' | ')}` : '',
      session.pageErrors.length ? `page errors: ${session.pageErrors.join(' | ')}` : '',
    ].filter(Boolean);
    error.message += `\n${notes.join('\n')}`;
    throw error;
  } finally {
    await session.context.close().catch(() => {});
  }
}

/**
 * Waits until the Yew app has drawn its shell (header and main; an embed or the
 * presenter view has only main) and a case page its player. Then, unless
 * `{ below: false }`, goes below the first screen as a jump button does, so that
 * tests see what is mounted only once a reader goes there (figures, timeline,
 * parameters, about), and waits until it is.
 */
export async function waitForApp(page, { below = true } = {}) {
  await page.locator('header.site-header, main.embed, main.present').first().waitFor();
  await page.locator('main#main').waitFor();
  // A case page's run comes from the engine's worker: wait until it has arrived
  // (a heavy link takes a few seconds), so that tests see the player.
  await page.waitForFunction(
    () => !document.querySelector('[data-testid="player-loading"], [data-testid="tour-loading"]'),
    null,
    { timeout: 90_000 },
  );
  if (below) await goBelowTheFirstScreen(page);
}

/** Asks for the parts below a case's first screen (the jump buttons' event) and waits until they are mounted. */
export async function goBelowTheFirstScreen(page) {
  const waiting = await page.evaluate(() => {
    if (!document.querySelector('.player-details[aria-busy="true"]')) return false;
    window.dispatchEvent(new Event('slowpath-below'));
    return true;
  });
  if (!waiting) return;
  await page.waitForFunction(() => !document.querySelector('.player-details[aria-busy="true"]'));
  if (await page.locator('article.case:not(.case-embed):not(.case-tour)').count()) await page.locator('#about').waitFor();
}

/** Waits only for the page's shell, not for a run (to watch a run being made). */
export async function waitForShell(page) {
  await page.locator('header.site-header, main.embed, main.present').first().waitFor();
}

/**
 * Presses `key` and waits until the player's step index shows another step, then
 * returns its text: the key is handled in a later task than `press` returns, so a
 * state read at once may still be the old one.
 */
export async function pressAndWaitForStep(page, key, timeoutMs = TIMEOUT_MS) {
  const stepIndex = () => document.querySelector('[data-testid="step-index"]')?.textContent;
  const before = await page.evaluate(stepIndex);
  await page.keyboard.press(key);
  await page.waitForFunction(
    (old) => document.querySelector('[data-testid="step-index"]')?.textContent !== old,
    before,
    { timeout: timeoutMs },
  );
  return page.getByTestId('step-index').first().innerText();
}

/**
 * Waits until `locator`'s text matches `pattern`, then returns the text. A key
 * press is handled in a later task than `keyboard.press` returns, so reading
 * the text at once races the app on a loaded machine.
 */
export async function waitForText(locator, pattern, timeoutMs = TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  for (;;) {
    text = await locator.innerText().catch(() => '');
    if (pattern.test(text) || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.match(text, pattern);
  return text;
}
