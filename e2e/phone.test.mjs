// A student's phone: a touch screen has no keyboard, so the opening narration speaks
// of taps, not keys; a desktop keeps the keys.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage } from './browser.mjs';

const T = { timeout: 120_000 };

describe('phone', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('on a touch screen the first narration says tap, on a desktop it names the keys', T, async () => {
    await withPage(
      suite.browser,
      'phone-touch-words',
      async ({ page, pageErrors }) => {
        await page.goto(suite.url('#/case/coredump-threads'));
        await waitForApp(page);
        const words = await page.getByTestId('narration').innerText();
        assert.match(words, /Tap ▶ Play/);
        assert.doesNotMatch(words, /Press Space/);
        assert.deepEqual(pageErrors, []);
      },
      { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
    );
    await withPage(suite.browser, 'desktop-key-words', async ({ page, pageErrors }) => {
      await page.goto(suite.url('#/case/coredump-threads'));
      await waitForApp(page);
      assert.match(await page.getByTestId('narration').innerText(), /Press Space/);
      assert.deepEqual(pageErrors, []);
    });
  });

  // Run from the editor on a phone: the stage is in the page's flow, not in a box of
  // its own left scrolled to the editor below it.
  test('on a phone, a Lab run leaves no box scrolled away from its stage', T, async () => {
    await withPage(
      suite.browser,
      'phone-lab-run',
      async ({ page, pageErrors }) => {
        await page.goto(suite.url('#/lab'));
        await waitForApp(page, { below: false });
        await page.getByTestId('lab-preset').selectOption('lock-convoy');
        await page.getByTestId('lab-run').tap();
        await page.waitForFunction(
          () => /on the stage/.test(document.querySelector('[data-testid="lab-status"]')?.textContent ?? ''),
          null,
          { timeout: 60_000 },
        );
        const scrolled = await page.getByTestId('world-stage').evaluate((stage) => {
          const boxes = [];
          for (let node = stage.parentElement; node && node !== document.body; node = node.parentElement) {
            if (node.scrollTop > 0) boxes.push(`${node.className}: scrolled ${node.scrollTop} px`);
          }
          return boxes;
        });
        assert.deepEqual(scrolled, []);
        assert.deepEqual(pageErrors, []);
      },
      { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
    );
  });
});
