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
});
