// Guided tours: a stop's link opens the stop (its text, its question, the player at
// its moment); the student answers, moves on with PageDown and sees the reveal; the
// arrows and PageUp move back; a bad stop number is clamped and explained; the
// presenter view keeps the tour; axe-core finds no violation on a tour stop.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage } from './browser.mjs';
import { axeViolations as violations, decodeQr } from './checks.mjs';

const T = { timeout: 120_000 };

const hash = (page) => page.evaluate(() => location.hash);

/** Waits until the address is `expected` and the page has drawn that stop (the hash
 *  changes before the app renders it). */
async function atStop(page, expected) {
  await page.waitForFunction((want) => location.hash === want, expected);
  const stop = expected.match(/tour\/(\d+)/)[1];
  await page.waitForFunction(
    (k) => document.querySelector('[data-testid="tour-count"]')?.innerText.includes(`stop ${k} of`),
    stop,
  );
}

describe('guided tours', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('a stop link opens the stop; answer, PageDown, the reveal; arrows and PageUp move back', T, async () => {
    await withPage(suite.browser, 'tour-answer', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/case/fifo-trigger/tour/1'));
      await waitForApp(page);
      const tour = page.getByTestId('tour');
      await tour.waitFor();
      assert.match(await page.getByTestId('tour-count').innerText(), /stop 1 of \d+/);
      assert.match(await page.getByTestId('tour-text').innerText(), /\w/);
      assert.match(await page.getByTestId('step-index').innerText(), /^start/);
      // The address keeps the tour's link, not the player's state.
      assert.equal(await hash(page), '#/case/fifo-trigger/tour/1');

      const choices = page.getByTestId('tour-question').getByRole('radio');
      assert.ok((await choices.count()) >= 2, 'a multiple-choice question');
      const first = (await page.locator('.tour-choice').first().innerText()).trim();
      await choices.first().check();
      assert.match(await page.getByTestId('tour-noted').innerText(), new RegExp(`Noted: ${first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      await assert.rejects(page.getByTestId('tour-reveal').waitFor({ timeout: 500 }), 'no reveal before moving on');

      // PageDown (a clicker), even with the radio button focused, goes to the next stop.
      await page.keyboard.press('PageDown');
      await atStop(page, '#/case/fifo-trigger/tour/2');
      assert.match(await page.getByTestId('tour-count').innerText(), /stop 2 of/);
      const reveal = page.getByTestId('tour-reveal');
      await reveal.waitFor();
      const verdict = await page.getByTestId('tour-verdict').innerText();
      assert.match(verdict, /^You said .+: (right|not this time)\.$/);
      const correct = (await reveal.locator('strong').innerText()).trim();
      assert.equal(verdict.endsWith('right.'), first === correct, `${verdict} / ${correct}`);
      // The player stands at the stop's moment, not at the start.
      assert.doesNotMatch(await page.getByTestId('step-index').innerText(), /^start/);

      // Back with PageUp, answer right this time, forward with →: the reveal says so.
      await page.keyboard.press('PageUp');
      await atStop(page, '#/case/fifo-trigger/tour/1');
      await page.locator('.tour-choice', { hasText: correct }).getByRole('radio').check();
      await page.locator('body').click({ position: { x: 2, y: 2 } });
      await page.keyboard.press('ArrowRight');
      await atStop(page, '#/case/fifo-trigger/tour/2');
      assert.equal(await page.getByTestId('tour-verdict').innerText(), `You said ${correct}: right.`);

      // Shift + → still steps the run; the address stays on the stop.
      const before = await page.getByTestId('step-index').innerText();
      await page.keyboard.press('Shift+ArrowRight');
      await page.waitForFunction((text) => document.querySelector('[data-testid="step-index"]').innerText !== text, before);
      assert.equal(await hash(page), '#/case/fifo-trigger/tour/2');

      // ← goes back; the buttons too; the last stop cannot go further.
      await page.keyboard.press('ArrowLeft');
      await atStop(page, '#/case/fifo-trigger/tour/1');
      assert.ok(await page.getByTestId('tour-prev').isDisabled());
      await page.getByTestId('tour-next').click();
      await atStop(page, '#/case/fifo-trigger/tour/2');
      await page.getByRole('link', { name: 'Leave tour' }).click();
      await page.waitForFunction(() => location.hash.startsWith('#/case/fifo-trigger?'));
      await page.getByTestId('tour').waitFor({ state: 'detached' });
      await page.getByTestId('player').waitFor();
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('playing to the next stop moves the tour there and reveals the answer', T, async () => {
    await withPage(suite.browser, 'tour-play', async ({ page, pageErrors }) => {
      await page.goto(suite.url('#/case/sparse-dump/tour/1'));
      await waitForApp(page);
      await page.getByTestId('tour-question').getByRole('radio').last().check();
      assert.match(await page.getByTestId('tour-noted').innerText(), /Play on/);
      await page.getByTestId('play').click();
      await atStop(page, '#/case/sparse-dump/tour/2');
      await page.getByTestId('tour-reveal').waitFor();
      assert.match(await page.getByTestId('tour-verdict').innerText(), /^You said .+: (right|not this time)\.$/);
      // The next stop opens paused at its own moment.
      assert.equal(await page.getByTestId('play').getAttribute('aria-pressed'), 'false');
      assert.deepEqual(pageErrors, []);
    });
  });

  test('a numeric guess: unreadable text is explained, a number is noted and revealed', T, async () => {
    await withPage(suite.browser, 'tour-guess', async ({ page, pageErrors }) => {
      await page.goto(suite.url('#/case/rwsem-playground/tour/1'));
      await waitForApp(page);
      const guess = page.getByTestId('tour-guess');
      await guess.fill('lots');
      await page.getByRole('button', { name: 'Save my guess' }).click();
      assert.match(await page.locator('#tour-guess-error').innerText(), /not a number/);
      await guess.fill('1');
      await guess.press('Enter');
      assert.match(await page.getByTestId('tour-noted').innerText(), /Noted: 1\./);
      await page.getByTestId('tour-next').click();
      await page.getByTestId('tour-reveal').waitFor();
      assert.match(await page.getByTestId('tour-verdict').innerText(), /^You said 1: /);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('bad stop numbers are clamped and explained', T, async () => {
    await withPage(suite.browser, 'tour-clamp', async ({ page, pageErrors }) => {
      for (const [stop, shown] of [['99', 'last'], ['0', 1], ['abc', 1], ['-3', 1], ['99999999999999999999999', 'last']]) {
        await page.goto(suite.url(`#/case/sparse-dump/tour/${stop}`));
        await waitForApp(page);
        await page.getByTestId('tour').waitFor();
        const count = await page.getByTestId('tour-count').innerText();
        const [, k, n] = count.match(/stop (\d+) of (\d+)/);
        assert.equal(Number(k), shown === 'last' ? Number(n) : shown, `${stop}: ${count}`);
        assert.match(await page.getByTestId('tour-notice').innerText(), /stop/, stop);
        assert.equal(await hash(page), `#/case/sparse-dump/tour/${k}`, 'the address says the stop shown');
        await page.goto('about:blank');
      }
      assert.deepEqual(pageErrors, []);
    });
  });

  test('the case page links its tour', T, async () => {
    await withPage(suite.browser, 'tour-link', async ({ page }) => {
      await page.goto(suite.url('#/case/gvisor-threadgroups'));
      await waitForApp(page);
      await page.getByTestId('tour-link').click();
      await page.getByTestId('tour').waitFor();
      assert.equal(await hash(page), '#/case/gvisor-threadgroups/tour/1');
      assert.match(await page.getByTestId('tour-count').innerText(), /stop 1 of/);
    });
  });

  test('the presenter view keeps the tour, its QR code is the stop, and PageDown moves it', T, async () => {
    await withPage(suite.browser, 'tour-present', async ({ page, pageErrors }) => {
      await page.goto(suite.url('#/case/fifo-trigger/tour/2?present'));
      await waitForApp(page);
      await page.locator('.player-present').waitFor();
      await page.getByTestId('tour').waitFor();
      // Students who scan it follow the tour, not only this moment of the run.
      assert.equal(await decodeQr(page), suite.url('#/case/fifo-trigger/tour/2'));
      await page.keyboard.press('PageDown');
      await atStop(page, '#/case/fifo-trigger/tour/3?present');
      await page.locator('.player-present').waitFor();
      assert.match(await page.getByTestId('tour-count').innerText(), /stop 3 of/);
      // Leaving the presenter view stays on the tour's stop.
      await page.getByTestId('leave-present').click();
      await atStop(page, '#/case/fifo-trigger/tour/3');
      await page.getByTestId('tour').waitFor();
      assert.equal(await page.locator('.player-present').count(), 0);
      assert.deepEqual(pageErrors, []);
    });
  });

  for (const colorScheme of ['light', 'dark']) {
    test(`axe: a tour stop with a question, and the next with its reveal (${colorScheme})`, T, async () => {
      await withPage(
        suite.browser,
        `tour-a11y-${colorScheme}`,
        async ({ page }) => {
          await page.goto(suite.url('#/case/fifo-trigger/tour/1'));
          await waitForApp(page);
          await page.getByTestId('tour-question').getByRole('radio').first().check();
          assert.deepEqual(await violations(page), []);
          await page.keyboard.press('PageDown');
          await page.getByTestId('tour-reveal').waitFor();
          assert.deepEqual(await violations(page), []);
        },
        { colorScheme, bypassCSP: true },
      );
    });
  }
});
