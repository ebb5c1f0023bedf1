// The player on the rwsem playground: transport, keyboard, parameters, links.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pressAndWaitForStep, startSuite, waitForApp, withPage, waitForText } from './browser.mjs';

const T = { timeout: 90_000 };
const CASE = '#/case/rwsem-playground';

async function readout(page) {
  return {
    index: await page.getByTestId('step-index').innerText(),
    time: await page.getByTestId('sim-time').innerText(),
    narration: await page.getByTestId('narration').innerText(),
  };
}

async function openPlayer(page, url) {
  await page.goto(url);
  await waitForApp(page);
  await page.getByTestId('player').waitFor();
}

describe('player', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('opens from the landing page, plays, pauses and steps both ways', T, async () => {
    await withPage(suite.browser, 'player-transport', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/'));
      await waitForApp(page);
      await page.locator('[data-case-id="rwsem-playground"]').getByRole('link').click();
      await page.getByTestId('player').waitFor();
      assert.match(await page.getByTestId('step-index').innerText(), /^start/);

      await page.getByTestId('play').click();
      await page.waitForFunction(() => !document.querySelector('[data-testid="step-index"]').innerText.startsWith('start'));
      await page.getByTestId('play').click();
      await waitForText(page.getByTestId('play'), /Play/);

      const before = await readout(page);
      await page.getByTestId('step-forward').click();
      const after = await readout(page);
      assert.notEqual(after.index, before.index);
      assert.notEqual(after.narration, before.narration);
      await page.getByTestId('step-back').click();
      assert.deepEqual(await readout(page), before, 'stepping back returns to the same step');
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('keyboard shortcuts step, change granularity and show the help', T, async () => {
    await withPage(suite.browser, 'player-keys', async ({ page, consoleErrors, pageErrors }) => {
      await openPlayer(page, suite.url(CASE));
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await waitForText(page.getByTestId('step-index'), /^iteration 2 of/);
      await page.keyboard.press('ArrowLeft');
      await waitForText(page.getByTestId('step-index'), /^iteration 1 of/);
      await page.keyboard.press('g');
      assert.equal(await page.getByTestId('step-granularity').inputValue(), 'micro');
      await page.keyboard.press('End');
      await waitForText(page.getByTestId('narration'), /run ends/);
      await page.keyboard.press('Home');
      await waitForText(page.getByTestId('step-index'), /^start/);
      await page.keyboard.press('?');
      await page.getByTestId('help').waitFor();
      await page.keyboard.press('Escape');
      assert.equal(await page.getByTestId('help').count(), 0);
      assert.doesNotMatch(await pressAndWaitForStep(page, 'n'), /^start/, 'jumped to a notable event');
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('a copied link reopens at the same step, time and narration', T, async () => {
    let link;
    let expected;
    await withPage(suite.browser, 'player-share', async ({ page }) => {
      await openPlayer(page, suite.url(CASE));
      const readers = page.getByTestId('param-readers');
      await readers.fill('6');
      await readers.press('Enter');
      await readers.blur();
      await page.waitForFunction(() => location.hash.includes('readers=6'));
      await page.getByTestId('variant').selectOption('no-spin');
      for (let i = 0; i < 9; i += 1) await page.getByTestId('step-forward').click();
      await page.getByTestId('share-link').click();
      link = await page.getByTestId('share-url').inputValue();
      expected = await readout(page);
      assert.ok(link.length < 200, link);
      assert.match(link, /readers=6/);
      assert.match(link, /v=no-spin/);
      assert.match(link, /step=iter:8/);
    }, { permissions: ['clipboard-read', 'clipboard-write'] });
    await withPage(suite.browser, 'player-share-open', async ({ page, consoleErrors, pageErrors }) => {
      await openPlayer(page, link);
      assert.deepEqual(await readout(page), expected);
      assert.equal(await page.getByTestId('notices').count(), 0);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('a link with an out-of-range parameter is clamped with a visible notice', T, async () => {
    await withPage(suite.browser, 'player-clamp', async ({ page, consoleErrors, pageErrors }) => {
      await openPlayer(page, suite.url(`${CASE}?readers=5000&v=nonsense&step=iter:99999999`));
      const notices = await page.getByTestId('notices').innerText();
      assert.match(notices, /readers/);
      assert.match(notices, /0 to 64/);
      assert.match(notices, /variant/);
      assert.equal(await page.getByTestId('param-readers').inputValue(), '64');
      assert.match(await page.getByTestId('narration').innerText(), /run ends/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('clicking the timeline seeks to that moment', T, async () => {
    await withPage(suite.browser, 'player-timeline', async ({ page, consoleErrors, pageErrors }) => {
      await openPlayer(page, suite.url(CASE));
      const timeline = page.getByTestId('timeline');
      await timeline.scrollIntoViewIfNeeded();
      const box = await timeline.boundingBox();
      assert.ok(box && box.width > 200, 'the timeline is drawn at a usable size');
      // Click to the right of the labels, in the middle of the task rows.
      await page.mouse.click(box.x + box.width * 0.6, box.y + box.height * 0.6);
      await page.waitForFunction(() => location.hash.includes('step='));
      assert.doesNotMatch(await page.getByTestId('step-index').innerText(), /^start/);
      const ms = parseFloat(await page.getByTestId('sim-time').innerText());
      assert.ok(ms > 5 && ms < 20, `seeked to ${ms} ms, about 60% into a 20 ms run`);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });
});
