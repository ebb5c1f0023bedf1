// The panic overlay: #/__crash panics on purpose; the page must explain it and
// offer a bug report that includes the URL.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, withPage } from './browser.mjs';

const T = { timeout: 60_000 };
const MESSAGE = 'deliberate crash for testing';

describe('panic overlay', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('#/__crash shows the overlay with the message and a working copy button', T, async () => {
    await withPage(
      suite.browser,
      'panic-overlay',
      async ({ page, context, consoleErrors }) => {
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
          origin: new URL(suite.baseUrl).origin,
        });
        const url = suite.url('#/__crash');
        await page.goto(url);
        const overlay = page.getByTestId('panic-overlay');
        await overlay.waitFor();
        assert.equal(await overlay.getByRole('heading', { level: 1 }).innerText(), 'slowpath hit a bug');
        assert.match(await overlay.locator('pre').innerText(), new RegExp(MESSAGE));
        assert.equal(await page.locator('header.site-header').count(), 0, 'the app is replaced');
        assert.ok(consoleErrors.some((text) => text.includes(MESSAGE)), 'the panic is logged to the console');

        const report = await page.getByTestId('bug-report').inputValue();
        for (const part of [url, MESSAGE, 'User agent: ']) {
          assert.ok(report.includes(part), `the report includes ${part}`);
        }

        await page.getByTestId('copy-bug-report').click();
        await page.getByTestId('copy-status').filter({ hasText: /\S/ }).waitFor();
        const status = await page.getByTestId('copy-status').innerText();
        assert.match(status, /Copied/, status);
        const copied = await page.evaluate(() => navigator.clipboard.readText());
        assert.equal(copied, report);

        const reload = page.getByTestId('reload');
        assert.equal(await reload.innerText(), 'Reload');
        assert.equal(await reload.getAttribute('href'), url);
      },
    );
  });

  test('a crash after in-app navigation replaces the page too', T, async () => {
    await withPage(suite.browser, 'panic-after-navigation', async ({ page }) => {
      await page.goto(suite.url('#/about'));
      await page.getByTestId('about-page').waitFor();
      await page.evaluate(() => {
        window.location.hash = '#/__crash';
      });
      await page.getByTestId('panic-overlay').waitFor();
      assert.match(await page.getByTestId('panic-message').innerText(), new RegExp(MESSAGE));
    });
  });
});
