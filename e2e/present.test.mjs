// The presenter view: entered and left with `v`, a projector theme with large
// narration, the pointer hidden when idle, fullscreen with `f`, and a QR code
// (toggled with `q`) that decodes to the student's link of the same moment.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage } from './browser.mjs';
import { decodeQr, smallestStageText } from './checks.mjs';
import { toHeadline } from './headlines.mjs';
import { CASE_IDS } from './registry.mjs';

const T = { timeout: 90_000 };

describe('presenter view', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  // Read from the back of a room: at 1920 × 1080 the stage's smallest text, as
  // rendered (its zoom included), is at least 20 px at the start, at the headline and
  // at every chapter. Every size is measured before a failure is reported, and logged.
  for (const id of CASE_IDS) {
    test(`${id}: the stage's smallest text is at least 20 px on a 1920 × 1080 projector`, T, async () => {
      await withPage(
        suite.browser,
        `present-text-${id}`,
        async ({ page }) => {
          await page.goto(suite.url(`#/case/${id}?present`));
          await waitForApp(page);
          await page.getByTestId('case-stage').waitFor();
          await page.waitForTimeout(300);
          const start = await smallestStageText(page);
          assert.ok(start.px >= 20, `${id} at the start: ${start.px.toFixed(1)} px ("${start.text}")`);
          await toHeadline(page, id);
          await page.waitForTimeout(300);
          const headline = await smallestStageText(page);
          assert.ok(headline.px >= 20, `${id} at its headline: ${headline.px.toFixed(1)} px ("${headline.text}")`);
          const chapters = page.getByTestId('chapters').getByRole('button');
          const sizes = [];
          const small = [];
          for (let index = 0; index < (await chapters.count()); index += 1) {
            await chapters.nth(index).click();
            await page.waitForTimeout(300);
            const smallest = await smallestStageText(page);
            sizes.push(smallest.px.toFixed(1));
            if (smallest.px < 20) small.push(`chapter ${index + 1}: ${smallest.px.toFixed(1)} px ("${smallest.text}")`);
          }
          console.log(`${id}: smallest stage text ${start.px.toFixed(1)} px at the start, ${headline.px.toFixed(1)} px at the headline, by chapter ${sizes.join(' / ')} px`);
          assert.deepEqual(small, [], `${id}: text under 20 px`);
        },
        { viewport: { width: 1920, height: 1080 } },
      );
    });
  }

  test('v enters it; the QR code is the student link; q, f, the idle pointer; v leaves', T, async () => {
    await withPage(
      suite.browser,
      'present',
      async ({ page, consoleErrors, pageErrors }) => {
        await page.goto(suite.url('#/case/sparse-dump?step=iter:3'));
        await waitForApp(page);
        await page.getByTestId('player').waitFor();
        await page.keyboard.press('v');
        await page.locator('.player-present').waitFor();
        assert.match(await page.evaluate(() => location.hash), /[?&]present(&|$)/);
        assert.equal(await page.locator('.site-header').count(), 0, 'no site header on the projector');
        // The words as drawn, not their box: a rule on the text once overrode the box's size.
        const size = await page
          .getByTestId('narration')
          .locator('.narration-text')
          .first()
          .evaluate((node) => parseFloat(getComputedStyle(node).fontSize));
        assert.ok(size >= 28, `narration at ${size} px`);
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        assert.equal(background, 'rgb(255, 255, 255)', 'the projector theme is light whatever the OS scheme');

        // The QR code is this moment's link as a student opens it: no presenter flag.
        const decoded = await decodeQr(page);
        assert.equal(decoded, suite.url('#/case/sparse-dump?lv=7&step=iter:3&ch=mmap-lock-is-taken-for-the-first-page:2of9088683'));
        await page.keyboard.press('q');
        assert.equal(await page.getByTestId('qr').count(), 0, 'q hides the QR code');
        await page.keyboard.press('q');
        await page.getByTestId('qr').waitFor();

        // Stepping moves the QR code's link along.
        await page.keyboard.press('ArrowRight');
        await page.waitForFunction(() => location.hash.includes('step=iter:4'));
        assert.equal(await decodeQr(page), suite.url('#/case/sparse-dump?lv=7&step=iter:4&ch=mmap-lock-is-taken-for-the-first-page:3of9088683'));

        // The pointer hides after a moment without a move and comes back with one.
        await page.mouse.move(200, 200);
        await page.waitForSelector('.player-present.pointer-idle', { timeout: 10_000 });
        await page.mouse.move(300, 300);
        assert.equal(await page.locator('.player-present.pointer-idle').count(), 0);

        await page.keyboard.press('f');
        await page.waitForFunction(() => document.fullscreenElement !== null);
        await page.keyboard.press('f');
        await page.waitForFunction(() => document.fullscreenElement === null);

        await page.keyboard.press('v');
        await page.locator('.site-header').waitFor();
        assert.doesNotMatch(await page.evaluate(() => location.hash), /present/);
        assert.deepEqual(consoleErrors, []);
        assert.deepEqual(pageErrors, []);
      },
      { viewport: { width: 1920, height: 1080 }, colorScheme: 'dark' },
    );
  });

  // A step of several operations: the room reads its last one whole and is told how
  // many came before it, the same number the case page lists or counts.
  test("a step's earlier operations are counted in the presenter view, not dropped", T, async () => {
    const link = '#/case/sparse-dump?step=iter:3';
    const counts = {};
    for (const [where, hash] of [['page', link], ['present', `${link}&present`]]) {
      await withPage(suite.browser, `present-earlier-${where}`, async ({ page, consoleErrors, pageErrors }) => {
        await page.goto(suite.url(hash));
        await waitForApp(page, { below: false });
        const narration = page.getByTestId('narration');
        await narration.locator('.narration-text').first().waitFor();
        const listed = await narration.locator('.narration-steps > li:not(.narration-hidden):not(.last)').count();
        const hidden = (await narration.getByTestId('narration-hidden').count())
          ? Number((await narration.getByTestId('narration-hidden').innerText()).match(/… ([\d,]+) earlier/)[1].replace(/,/g, ''))
          : 0;
        counts[where] = { listed, hidden };
        assert.deepEqual([consoleErrors, pageErrors], [[], []]);
      }, { viewport: { width: 1280, height: 800 } });
    }
    console.log(`earlier operations of ${link}: ${JSON.stringify(counts)}`);
    assert.equal(counts.present.listed, 0, 'the presenter view lists none');
    assert.ok(counts.present.hidden > 0, 'and counts them');
    assert.equal(counts.present.hidden, counts.page.listed + counts.page.hidden, 'as many as the case page has');
  });
});
