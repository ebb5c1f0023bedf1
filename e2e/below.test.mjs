// What is below a case's first screen (figures, charts, timeline, parameters,
// about) is built only once the reader goes there: a phone that watches the stage
// does not pay for it (issue 32). A scroll or a jump button builds it, and the jump
// lands on its part once everything above it is there.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage } from './browser.mjs';
import { LISTED_IDS } from './registry.mjs';

const T = { timeout: 90_000 };
const CASE = LISTED_IDS[0];

/** Whether the player's details and the case's "About" are mounted. */
function mounted(page) {
  return page.evaluate(() => ({
    busy: document.querySelector('.player-details')?.getAttribute('aria-busy') === 'true',
    figures: Boolean(document.getElementById('details-figures')),
    params: Boolean(document.getElementById('details-params')),
    about: Boolean(document.getElementById('about')),
    button: Boolean(document.querySelector('.details-waiting button')),
  }));
}

describe('below the first screen', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  for (const viewport of [{ width: 1280, height: 800 }, { width: 412, height: 823 }]) {
    test(`at ${viewport.width}×${viewport.height}, nothing below is built until a scroll`, T, async () => {
      await withPage(
        suite.browser,
        `below-scroll-${viewport.width}`,
        async ({ page, consoleErrors, pageErrors }) => {
          await page.goto(suite.url(`#/case/${CASE}`));
          await waitForApp(page, { below: false });
          // A few frames and timers after the player: still nothing below.
          await page.waitForTimeout(1500);
          assert.deepEqual(await mounted(page), { busy: true, figures: false, params: false, about: false, button: true });
          await page.mouse.move(viewport.width / 2, viewport.height / 2);
          await page.mouse.wheel(0, 400);
          await page.waitForFunction(
            () => document.getElementById('about') && !document.querySelector('.player-details[aria-busy="true"]'),
          );
          assert.deepEqual(await mounted(page), { busy: false, figures: true, params: true, about: true, button: false });
          assert.deepEqual(consoleErrors, []);
          assert.deepEqual(pageErrors, []);
        },
        { viewport },
      );
    });
  }

  test('a jump button builds what is below and lands on its part', T, async () => {
    await withPage(suite.browser, 'below-jump', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url(`#/case/${CASE}`));
      await waitForApp(page, { below: false });
      assert.equal((await mounted(page)).params, false);
      await page.getByTestId('case-jump').getByRole('button', { name: 'Parameters' }).click();
      await page.waitForFunction(() => document.activeElement?.id === 'details-params');
      const top = await page.evaluate(() => document.getElementById('details-params').getBoundingClientRect().top);
      assert.ok(top >= -1 && top < 200, `the parameters are at the window's top (${top})`);
      assert.equal((await mounted(page)).busy, false);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  // A screen reader's cursor activates the button without scrolling the page.
  test('their own button shows them and moves there', T, async () => {
    await withPage(suite.browser, 'below-button', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url(`#/case/${CASE}`));
      await waitForApp(page, { below: false });
      await page.evaluate(() => document.querySelector('.details-waiting button').click());
      await page.waitForFunction(() => document.activeElement?.id === 'details-figures');
      assert.equal((await mounted(page)).busy, false);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });
});
