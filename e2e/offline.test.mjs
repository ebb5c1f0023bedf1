// Offline: after one visit the service worker has the whole build, so the site
// opens and plays with the network off; a new deployment is offered as a reload.
// Served from a copy of dist/ so that the test can "deploy" a new build.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { appendFile, cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, waitForApp, withPage } from './browser.mjs';
import { LISTED_IDS } from './registry.mjs';

const T = { timeout: 120_000 };
const DIST = fileURLToPath(new URL('../dist', import.meta.url));
const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.webmanifest': 'application/manifest+json',
  '.md': 'text/plain; charset=utf-8',
};

describe('offline', () => {
  let root;
  let server;
  let base;
  let browser;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'slowpath-offline-'));
    await cp(DIST, root, { recursive: true });
    server = createServer(async (request, response) => {
      try {
        const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
        let file = normalize(join(root, path));
        if (file !== root && !file.startsWith(root + sep)) throw new Error('outside');
        if (path.endsWith('/')) file = join(file, 'index.html');
        const body = await readFile(file);
        response.writeHead(200, { 'content-type': MIME[extname(file)] || 'application/octet-stream', 'cache-control': 'no-cache' });
        response.end(body);
      } catch {
        response.writeHead(404);
        response.end();
      }
    });
    await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
    base = `http://127.0.0.1:${server.address().port}/`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await new Promise((ok) => server?.close(ok));
    if (root) await rm(root, { recursive: true, force: true });
  });

  test('About keeps every case offline at once: each then opens with the network off', T, async () => {
    await withPage(browser, 'offline-keep-every-case', async ({ context, page, pageErrors }) => {
      await page.goto(`${base}#/about`);
      const button = page.getByTestId('keep-offline');
      await button.waitFor({ timeout: 60_000 });
      // The label gives the bytes the build counted, as a person writes them.
      assert.match(await button.innerText(), /^Keep every case offline \(\d+(\.\d)? (MB|kB)\)$/);
      await button.click();
      const status = page.getByTestId('keep-offline-status');
      await page.waitForFunction(
        () => /Every case is kept/.test(document.querySelector('[data-testid="keep-offline-status"]')?.textContent ?? ''),
        null,
        { timeout: 90_000 },
      );
      assert.match(await status.innerText(), new RegExp(`all ${LISTED_IDS.length} open without a network`));
      assert.ok(await button.isDisabled(), 'nothing left to keep');

      await context.setOffline(true);
      for (const id of LISTED_IDS) {
        // A fresh document each time: a case's module serves its own case only.
        await page.goto('about:blank');
        await page.goto(`${base}#/case/${id}`);
        await waitForApp(page);
        await page.getByTestId('player').waitFor({ timeout: 60_000 });
      }
      await context.setOffline(false);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('after one visit a case opens and plays with the network off; a new build is offered', T, async () => {
    await withPage(browser, 'offline', async ({ context, page, pageErrors }) => {
      await page.goto(`${base}#/case/fifo-trigger`);
      await waitForApp(page);
      await page.getByTestId('player').waitFor();
      // The worker is installed, has the build, and controls the page.
      await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, null, { timeout: 60_000 });

      await context.setOffline(true);
      await page.reload();
      await waitForApp(page);
      await page.getByTestId('player').waitFor();
      const before = await page.getByTestId('step-index').innerText();
      await page.keyboard.press('Space');
      await page.waitForFunction(
        (old) => document.querySelector('[data-testid="step-index"]')?.textContent !== old,
        before,
        { timeout: 30_000 },
      );
      await page.keyboard.press('Space');

      // A new deployment: the worker's script changes; the page offers a reload.
      await context.setOffline(false);
      await appendFile(join(root, 'sw.js'), '\n// a new build\n');
      await page.reload();
      await waitForApp(page);
      const banner = page.getByTestId('update-banner');
      await banner.waitFor({ timeout: 60_000 });
      assert.match(await banner.innerText(), /new version/);
      await Promise.all([page.waitForEvent('load', { timeout: 60_000 }), banner.getByRole('button', { name: 'Reload' }).click()]);
      await waitForApp(page);
      assert.equal(await page.getByTestId('update-banner').count(), 0, 'the new build runs');
      assert.deepEqual(pageErrors, []);
    });
  });
});
