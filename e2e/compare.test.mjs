// Compare mode in every case: the picker turns it on with the case's first fix,
// two stages appear, one transport steps both (the second never ahead of the first
// in simulated time), the figures say the difference in words, the link reopens
// the same state, and the presenter view and the embed open it without errors.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage } from './browser.mjs';
import { CASE_IDS } from './registry.mjs';

const T = { timeout: 180_000 };
const STEPS = 5;
const RUN_MS = 60_000;

/** Both sides' simulated time, once both runs are on screen. */
async function sideTimes(page) {
  const sides = page.locator('[data-testid="compare-side"][data-time-ns]');
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid="compare-side"][data-time-ns]').length === 2,
    null,
    { timeout: RUN_MS },
  );
  // Both read at once: read one at a time, a render between the two (keys still being
  // handled) would pair one side's moment with the other's next one.
  const times = await sides.evaluateAll((elements) => elements.slice(0, 2).map((side) => side.dataset.timeNs));
  return times.map(BigInt);
}

/** The variant the picker offers first to compare with: the first fix, else another variant. */
async function firstOther(page) {
  return page.getByTestId('compare-with').evaluate((select) => {
    const fix = select.querySelector('optgroup[label="fixes"] option');
    const current = document.querySelector('[data-testid="variant"]')?.value;
    const other = [...select.querySelectorAll('optgroup option')].find((option) => option.value !== current);
    return (fix ?? other).value;
  });
}

describe('compare mode', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  const ids = CASE_IDS;
  for (const id of ids) {
    test(`${id}: two stages in lockstep, the difference in words, the link round trip`, T, async () => {
      let link;
      let times;
      await withPage(suite.browser, `compare-${id}`, async ({ page, consoleErrors, pageErrors }) => {
        await page.goto(suite.url(`#/case/${id}`));
        await waitForApp(page);
        await page.getByTestId('player').waitFor({ timeout: RUN_MS });
        // Parameters (and the variant picker) are mounted just after the first screen.
        await page.getByTestId('variant').waitFor();
        const other = await firstOther(page);
        await page.getByTestId('compare-with').selectOption(other);
        await page.waitForFunction((v) => location.hash.includes(`cmp=${v}`), other);
        assert.equal(await page.getByTestId('compare-side').count(), 2, 'two stages');
        const [, secondAtStart] = await sideTimes(page);
        const narrationAtStart = await page.getByTestId('compare-narration').innerText();
        // The second side's words: three lines tall whatever they say, so that a step
        // does not move what is below them.
        const narrationBox = () => page.getByTestId('compare-narration').evaluate((line) => {
          const style = getComputedStyle(line);
          return { height: line.getBoundingClientRect().height, lines: Math.round(line.clientHeight / parseFloat(style.lineHeight)) };
        });
        const boxAtStart = await narrationBox();
        assert.equal(boxAtStart.lines, 3, `the second side's words have ${boxAtStart.lines} lines`);

        // One transport: step the first side; the second follows by simulated time.
        await page.evaluate(() => document.activeElement?.blur());
        for (let i = 0; i < STEPS; i += 1) await page.keyboard.press('ArrowRight');
        await page.waitForFunction(() => location.hash.includes('step='));
        // A key press returns before the page has handled it: wait until the link stays put.
        for (let hash = ''; hash !== (hash = await page.evaluate(() => location.hash));) await page.waitForTimeout(250);
        times = await sideTimes(page);
        const [first, second] = times;
        assert.ok(second <= first, `the second side (${second} ns) is not ahead of the first (${first} ns)`);
        const narration = await page.getByTestId('compare-narration').innerText();
        assert.ok(second > secondAtStart || narration !== narrationAtStart, `the second side moved: ${narration}`);
        assert.equal((await narrationBox()).height, boxAtStart.height, "the second side's words kept their height");

        // The figures: both columns and the difference in words.
        const figures = page.getByTestId('compare-figures');
        await figures.waitFor();
        const differences = await page.getByTestId('compare-difference').allInnerTexts();
        assert.ok(differences.length >= 2, `${differences.length} figures compared`);
        assert.ok(
          differences.some((text) => /: .+, ([\d,]+\.\d % (less|more)|the same|(under 0\.1|over 99\.9) % (less|more))$/.test(text)),
          differences.join(' | '),
        );

        link = await page.evaluate(() => location.hash);
        assert.match(link, /[?&]cmp=/);
        assert.ok(suite.url(link).length <= 200 + suite.baseUrl.length, link);
        assert.deepEqual(consoleErrors, []);
        assert.deepEqual(pageErrors, []);
      });

      // The link reopens exactly: the same hash, both sides at the same times.
      await withPage(suite.browser, `compare-${id}-reopen`, async ({ page, consoleErrors, pageErrors }) => {
        await page.goto(suite.url(link));
        await waitForApp(page);
        assert.deepEqual(await sideTimes(page), times);
        assert.equal(await page.evaluate(() => location.hash), link);
        assert.deepEqual(consoleErrors, []);
        assert.deepEqual(pageErrors, []);
      });

      // The presenter view and the embed show both stages.
      for (const flag of ['present', 'embed']) {
        await withPage(suite.browser, `compare-${id}-${flag}`, async ({ page, consoleErrors, pageErrors }) => {
          await page.goto(suite.url(`${link}&${flag}`));
          await waitForApp(page);
          await page.locator(flag === 'present' ? '.player-present' : '.player-embed').waitFor({ timeout: RUN_MS });
          assert.deepEqual(await sideTimes(page), times);
          if (flag === 'embed') {
            const href = await page.getByTestId('open-full').getAttribute('href');
            assert.ok(href.endsWith(link), `${href} opens the same comparison`);
          }
          assert.deepEqual(consoleErrors, []);
          assert.deepEqual(pageErrors, []);
        });
      }
    });
  }

  test('each side says where its own run is: "at t of end" until it ends, then "ended at end"', T, async () => {
    await withPage(suite.browser, 'compare-where', async ({ page, consoleErrors, pageErrors }) => {
      // The fixed run (2.6.18) ends long before the reported one.
      await page.goto(suite.url('#/case/coredump-threads?lv=5&cmp=2.6.18&step=iter:3'));
      await waitForApp(page);
      await sideTimes(page);
      const where = () => page.getByTestId('compare-where').allInnerTexts();
      const early = await where();
      assert.equal(early.length, 2, 'one line per side');
      for (const text of early) assert.match(text, /^at \S+ \S+ of \S+ \S+$/, `early: ${early.join(' | ')}`);
      const [, fixedEnd] = early[1].match(/ of (.+)$/);
      const [, reportedEnd] = early[0].match(/ of (.+)$/);
      assert.notEqual(fixedEnd, reportedEnd, 'each side its own run\'s end');
      // The last key moment: the reported run is still going, the fixed one has ended.
      const chapters = page.getByTestId('chapters').getByRole('button');
      await chapters.nth((await chapters.count()) - 2).click();
      await page.waitForFunction(() => /^ended/.test(document.querySelectorAll('[data-testid="compare-where"]')[1]?.textContent ?? ''));
      const late = await where();
      assert.match(late[0], new RegExp(`^at \\S+ \\S+ of ${reportedEnd}$`), late[0]);
      assert.equal(late[1], `ended at ${fixedEnd}`);
      assert.notDeepEqual(late[0], early[0], 'the first side moved on');
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('aligned by unit, the second side is at the same iteration; back to no comparison', T, async () => {
    await withPage(suite.browser, 'compare-unit', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/case/rwsem-playground?cmp=v6.13&cmp.duration=5ms&step=iter:3'));
      await waitForApp(page);
      await sideTimes(page);
      await page.getByTestId('compare-align').selectOption('unit');
      await page.waitForFunction(() => location.hash.includes('align=unit'));
      // By unit both sides are at iteration 4; with the same settings up to 5 ms, at the same time.
      const [first, second] = await sideTimes(page);
      assert.equal(second, first);
      await page.getByTestId('compare-params').getByTestId('param-duration').fill('2ms');
      await page.getByTestId('compare-params').getByTestId('param-duration').press('Enter');
      await page.getByTestId('compare-params').getByTestId('param-duration').blur();
      await page.waitForFunction(() => location.hash.includes('cmp.duration=2ms'));
      await page.getByTestId('compare-with').selectOption('');
      await page.waitForFunction(() => !location.hash.includes('cmp'));
      assert.equal(await page.getByTestId('compare-side').count(), 0);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });
});
