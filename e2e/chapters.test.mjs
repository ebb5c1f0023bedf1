// Chapters: each reported case's key moments, listed and marked; n and p visit
// them in order (with the notable events between them); a click on one seeks there.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, waitForText, withPage } from './browser.mjs';
import { REPORTED_IDS } from './registry.mjs';

const T = { timeout: 90_000 };

describe('chapters', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  for (const id of REPORTED_IDS) {
    test(`${id}: n and p walk the chapters; a click seeks to one`, T, async () => {
      await withPage(suite.browser, `chapters-${id}`, async ({ page, consoleErrors, pageErrors }) => {
        await page.goto(suite.url(`#/case/${id}`));
        await waitForApp(page);
        const chapters = page.getByTestId('chapters').getByRole('button');
        const count = await chapters.count();
        assert.ok(count >= 2, `${count} chapters`);
        assert.equal(await page.locator('.chapter-mark').count(), count);
        // n stops at every key moment (the chapters and the notable events between
        // them), so chapter 1 and then chapter 2 come within a few presses, in order;
        // p walks back the same way.
        const current = page.locator('.chapter[aria-current="step"]');
        const pressUntil = async (key, pattern) => {
          for (let press = 0; press < 200; press += 1) {
            // Two key moments can share an iteration: the narration (its micro-op line) tells them apart.
            const before = await page.getByTestId('narration').innerText();
            await page.keyboard.press(key);
            await page.waitForFunction(
              (previous) => document.querySelector('[data-testid="narration"]')?.innerText !== previous,
              before,
            );
            if (pattern.test((await current.innerText().catch(() => '')) || '')) return;
          }
          assert.fail(`${key} never reached ${pattern}`);
        };
        await pressUntil('n', /^1\. /);
        await pressUntil('n', /^2\. /);
        await pressUntil('p', /^1\. /);
        await chapters.nth(count - 1).click();
        await waitForText(current, new RegExp(`^${count}\\. `));
        assert.match(await page.evaluate(() => location.hash), /step=/);
        assert.deepEqual(consoleErrors, []);
        assert.deepEqual(pageErrors, []);
      });
    });
  }
});
