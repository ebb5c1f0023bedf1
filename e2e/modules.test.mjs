// One wasm module per case (issue 32): a link to a case downloads that case's module
// and no other; a move inside the page to another case loads the other case's module
// and keeps the link; the landing loads none, the app's other pages the all-cases one.
// Needs a release build (`trunk build --release`): its index.html names the modules.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { startSuite, waitForApp, withPage } from './browser.mjs';

const T = { timeout: 300_000 };
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

/** `content` of index.html's `<meta name>`. */
function meta(html, name) {
  return html.match(new RegExp(`<meta name="?${name}"? content="?([^">]*)"?>`))?.[1] ?? null;
}

/** The wasm file a start script loads. */
async function wasmOf(start) {
  const script = await readFile(DIST + start.replace(/^\.\//, ''), 'utf8');
  return script.match(/module_or_path: '\.\/([^']+\.wasm)'/)[1];
}

/** Every wasm file the page (or its engine worker) requests, by name, in order; not
 * the service worker's copies for its cache (a host's HTTP cache serves those). */
function recordWasm(context) {
  const seen = [];
  context.on('request', (request) => {
    const name = new URL(request.url()).pathname.split('/').pop();
    if (name.endsWith('.wasm') && !request.serviceWorker()) seen.push(name);
  });
  return seen;
}

describe('one module per case', () => {
  let suite;
  let modules;
  let allCases;
  before(async () => {
    const html = await readFile(DIST + 'index.html', 'utf8');
    const pairs = meta(html, 'slowpath-case-modules');
    assert.ok(pairs, 'index.html names the case modules: a release build with modules');
    // "<id>=<start> <wasm> <glue>,…" and "<start> <wasm> <script>…": the start script first.
    const first = (files) => files.trim().split(/\s+/)[0];
    modules = Object.fromEntries(pairs.split(',').map((pair) => pair.split('=')).map(([id, files]) => [id, first(files)]));
    allCases = await wasmOf(first(meta(html, 'slowpath-app-start')));
    for (const id of Object.keys(modules)) modules[id] = await wasmOf(modules[id]);
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('a case link downloads its own module and no other', T, async () => {
    assert.ok(Object.keys(modules).length >= 2, `at least two case modules: ${Object.keys(modules)}`);
    for (const [id, wasm] of Object.entries(modules)) {
      await withPage(suite.browser, `module-${id}`, async ({ context, page, pageErrors }) => {
        const seen = recordWasm(context);
        await page.goto(suite.url(`#/case/${id}`));
        await waitForApp(page);
        await page.getByTestId('case-stage').waitFor();
        assert.deepEqual(seen, [wasm], `${id}: only its own module (the all-cases one is ${allCases})`);
        assert.deepEqual(pageErrors, []);
      });
    }
  });

  test('the landing loads no module (it is drawn at build time)', T, async () => {
    await withPage(suite.browser, 'module-landing', async ({ context, page, pageErrors }) => {
      const seen = recordWasm(context);
      await page.goto(suite.url('#/'));
      await waitForApp(page);
      await page.waitForLoadState('networkidle');
      assert.deepEqual(seen, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('the intent to open a case (a pointer over its card) caches its module', T, async () => {
    const [id] = Object.keys(modules);
    await withPage(suite.browser, 'module-intent', async ({ page, pageErrors }) => {
      await page.goto(suite.url('#/'));
      await waitForApp(page);
      await page.waitForFunction(() => navigator.serviceWorker?.controller, null, { timeout: 60_000 });
      const cached = () =>
        page.evaluate(async (wasm) => {
          for (const key of await caches.keys()) if (await (await caches.open(key)).match(wasm)) return true;
          return false;
        }, modules[id]);
      assert.equal(await cached(), false, 'not before the intent');
      await page.locator(`a[href="#/case/${id}"]`).first().hover();
      const deadline = Date.now() + 30_000;
      while (!(await cached()) && Date.now() < deadline) await new Promise((wait) => setTimeout(wait, 200));
      assert.equal(await cached(), true, `${id}'s module is in the cache`);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('moving to another case loads its module and keeps the link', T, async () => {
    const [from, to] = Object.keys(modules);
    await withPage(suite.browser, 'module-move', async ({ context, page, pageErrors }) => {
      const seen = recordWasm(context);
      await page.goto(suite.url(`#/case/${from}`));
      await waitForApp(page);
      await page.getByTestId('case-stage').waitFor();
      // The address changes inside the page (a link, the address bar): a full load.
      const link = `#/case/${to}?step=iter:2`;
      await Promise.all([page.waitForEvent('load'), page.evaluate((hash) => { location.hash = hash; }, link)]);
      await waitForApp(page);
      await page.getByTestId('case-stage').waitFor();
      assert.equal(await page.getByTestId('case-page').getAttribute('data-case-id'), to);
      assert.match(await page.evaluate(() => location.hash), /[?&]step=iter:2(&|$)/, 'the link is kept');
      assert.deepEqual(seen, [modules[from], modules[to]]);
      // The header's way home: the landing, drawn at build time, with no module and no reload.
      await page.evaluate(() => { location.hash = '#/'; });
      await page.getByTestId('case-card').first().waitFor();
      assert.deepEqual(seen, [modules[from], modules[to]], 'no module for the landing');
      assert.deepEqual(pageErrors, []);
    });
  });
});
