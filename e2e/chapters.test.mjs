// Chapters: each reported case's key moments, listed and marked; n and p visit
// them in order; a click on one seeks there.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, waitForText, withPage } from './browser.mjs';

const T = { timeout: 90_000 };

describe('chapters', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  for (const id of ['coredump-threads', 'sparse-dump', 'fifo-trigger', 'gvisor-threadgroups']) {
    test(`${id}: n and p walk the chapters; a click seeks to one`, T, async () => {
      await withPage(suite.browser, `chapters-${id}`, async ({ page, consoleErrors, pageErrors }) => {
        await page.goto(suite.url(`#/case/${id}`));
        await waitForApp(page);
        const chapters = page.getByTestId('chapters').getByRole('button');
        const count = await chapters.count();
        assert.ok(count >= 2, `${count} chapters`);
        assert.equal(await page.locator('.chapter-mark').count(), count);
        await page.keyboard.press('n');
        const current = page.locator('.chapter[aria-current="step"]');
        await waitForText(current, /^1\. /);
        await page.keyboard.press('n');
        await waitForText(current, /^2\. /);
        await page.keyboard.press('p');
        await waitForText(current, /^1\. /);
        await chapters.nth(count - 1).click();
        await waitForText(current, new RegExp(`^${count}\\. `));
        assert.match(await page.evaluate(() => location.hash), /step=/);
        assert.deepEqual(consoleErrors, []);
        assert.deepEqual(pageErrors, []);
      });
    });
  }
});
