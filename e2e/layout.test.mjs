// The stage first (issue 13): at 1280 × 800 and 1920 × 1080 the transport, the
// case's stage (the part that animates), the narration and the current pseudocode
// line are all inside the viewport without scrolling, at the opening state, at
// the case's headline chapter and at every notable step; in the presenter view and an embed the stage is too.
// A phone (390 × 844) gets the transport and the narration on its first screen and
// the stage right under them, and never scrolls sideways.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage } from './browser.mjs';
import { toHeadline } from './headlines.mjs';
import { CASE_IDS } from './registry.mjs';

const T = { timeout: 120_000 };
const DESKTOPS = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
];
const PHONE = { width: 390, height: 844 };

/** Where `locator` is, or a failure naming it when it is not on the page. */
async function box(page, testid) {
  const locator = page.getByTestId(testid).first();
  const found = await locator.boundingBox();
  assert.ok(found, `${testid} is drawn`);
  return found;
}

/** Asserts that `found` lies inside the viewport (half a pixel of rounding allowed). */
function assertInside(found, viewport, what) {
  const inside =
    found.x >= -0.5 &&
    found.y >= -0.5 &&
    found.x + found.width <= viewport.width + 0.5 &&
    found.y + found.height <= viewport.height + 0.5;
  const at = `${Math.round(found.x)},${Math.round(found.y)} ${Math.round(found.width)}×${Math.round(found.height)}`;
  assert.ok(inside, `${what} at ${at} is outside ${viewport.width}×${viewport.height}`);
}

async function assertNoSidewaysScroll(page) {
  const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
  assert.ok(scrollWidth <= innerWidth, `the page is ${scrollWidth} px wide in a ${innerWidth} px window`);
}

async function open(page, url) {
  await page.goto(url);
  await waitForApp(page);
  await page.getByTestId('case-stage').waitFor();
  // Canvases size themselves on the next frame.
  await page.waitForTimeout(250);
}

/**
 * Walks the notable steps of the run at `hash` (`n`, up to `pressesMax`) at 1280×800 and
 * checks at each that the stage, the narration, the play button and the current
 * line are on the first screen. A callout, a growing defer pile, a third row of
 * threads: the stage grows at some steps; it is scaled to the room left
 * (player/fit.rs), never cut.
 */
async function walkNotableSteps(suite, hash, name, pressesMax = 12, testids = ['case-stage', 'narration', 'play', 'code-current']) {
  const viewport = DESKTOPS[0];
  await withPage(
    suite.browser,
    name,
    async ({ page, pageErrors }) => {
      await open(page, suite.url(hash));
      let previous = '';
      for (let press = 0; press < pressesMax; press += 1) {
        await page.keyboard.press('n');
        await page.waitForTimeout(150);
        const step = await page.getByTestId('step-index').innerText();
        if (step === previous) break;
        previous = step;
        for (const testid of testids) {
          assertInside(await box(page, testid), viewport, `${testid} at ${step}`);
        }
      }
      assert.deepEqual(pageErrors, []);
    },
    { viewport },
  );
}

describe('stage-first layout', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('opening a case from its card keeps the header in view', T, async () => {
    await withPage(suite.browser, 'layout-from-card', async ({ page }) => {
      await page.goto(suite.url('#/'));
      await waitForApp(page);
      await page.getByTestId('case-card').first().getByRole('link').click();
      await page.getByTestId('case-stage').waitFor();
      await page.waitForTimeout(250);
      assert.equal(await page.evaluate(() => scrollY), 0, 'the page is at its top');
      assertInside(await page.locator('header.site-header').boundingBox(), { width: 1280, height: 800 }, 'the header');
    });
  });

  const ids = CASE_IDS;
  for (const id of ids) {
    for (const viewport of DESKTOPS) {
      test(`${id} at ${viewport.width}×${viewport.height}: stage, transport, narration and current line on the first screen`, T, async () => {
        await withPage(
          suite.browser,
          `layout-${id}-${viewport.width}`,
          async ({ page, pageErrors }) => {
            await open(page, suite.url(`#/case/${id}`));
            assert.equal(await page.evaluate(() => scrollY), 0, 'opening a case does not scroll');
            for (const testid of ['case-stage', 'narration', 'step-index', 'play', 'scrub']) {
              assertInside(await box(page, testid), viewport, `${testid} at the start`);
            }
            await toHeadline(page, id);
            await page.evaluate(() => scrollTo(0, 0));
            await page.waitForTimeout(250);
            for (const testid of ['case-stage', 'narration', 'step-index', 'play', 'scrub', 'code-current']) {
              assertInside(await box(page, testid), viewport, `${testid} at the headline`);
            }
            // The current line is in the code box's visible part, not scrolled away inside it.
            const line = await box(page, 'code-current');
            const code = await page.locator('.player-words .pseudocode').boundingBox();
            assert.ok(line.y >= code.y - 0.5 && line.y + line.height <= code.y + code.height + 0.5, 'the current line is in view in its box');
            await assertNoSidewaysScroll(page);
            assert.deepEqual(pageErrors, []);
          },
          { viewport },
        );
      });
    }

    test(`${id} at 1280×800: every notable step keeps the stage, the narration and the current line on the first screen`, T, async () => {
      await walkNotableSteps(suite, `#/case/${id}`, `layout-${id}-steps`);
    });

    test(`${id} on a phone: transport and narration first, the stage right under them, no sideways scroll`, T, async () => {
      await withPage(
        suite.browser,
        `layout-${id}-phone`,
        async ({ page, pageErrors }) => {
          await open(page, suite.url(`#/case/${id}`));
          await assertNoSidewaysScroll(page);
          for (const testid of ['play', 'step-index', 'scrub', 'narration']) {
            assertInside(await box(page, testid), PHONE, `${testid} on a phone`);
          }
          await toHeadline(page, id);
          await page.evaluate(() => scrollTo(0, 0));
          await page.waitForTimeout(250);
          const narration = await box(page, 'narration');
          const stage = await box(page, 'case-stage');
          assert.ok(stage.y >= narration.y + narration.height, 'the stage follows the narration');
          assert.ok(stage.y < PHONE.height, `the stage starts on the first screen (at ${Math.round(stage.y)} px)`);
          // Scrolled to, the whole stage is on screen below the sticky transport.
          await page.getByTestId('case-stage').evaluate((el) => el.scrollIntoView({ block: 'end' }));
          await page.waitForTimeout(250);
          const shown = await box(page, 'case-stage');
          const transport = await page.locator('.transport').boundingBox();
          assertInside(shown, PHONE, 'the stage, scrolled to, on a phone');
          assert.ok(shown.y >= transport.y + transport.height - 1, 'the sticky transport does not cover the stage');
          await assertNoSidewaysScroll(page);
          // The sweep's dropdown (the FIFO) stays inside its card.
          const sweep = page.getByTestId('sweep-param');
          if (await sweep.count()) {
            const field = await sweep.boundingBox();
            assert.ok(field.x + field.width <= PHONE.width, 'the sweep dropdown fits the phone');
          }
          assert.deepEqual(pageErrors, []);
        },
        { viewport: PHONE },
      );
    });

    test(`${id}: the stage is on the first screen in the presenter view (v) and in an embed`, T, async () => {
      const presenter = { width: 1920, height: 1080 };
      await withPage(
        suite.browser,
        `layout-${id}-present`,
        async ({ page }) => {
          await open(page, suite.url(`#/case/${id}`));
          await page.keyboard.press('v');
          await page.locator('.player-present').waitFor();
          await page.waitForTimeout(250);
          assertInside(await box(page, 'case-stage'), presenter, 'the stage in the presenter view');
          assertInside(await box(page, 'play'), presenter, 'the transport in the presenter view');
        },
        { viewport: presenter },
      );
      const frame = { width: 1280, height: 800 };
      await withPage(
        suite.browser,
        `layout-${id}-embed`,
        async ({ page }) => {
          await open(page, suite.url(`#/case/${id}?embed`));
          assertInside(await box(page, 'case-stage'), frame, 'the stage in an embed');
          assertInside(await box(page, 'play'), frame, 'the transport in an embed');
          await assertNoSidewaysScroll(page);
        },
        { viewport: frame },
      );
    });
  }
  // The largest pile of the gVisor demo: sixteen matching thread groups.
  test('gvisor-threadgroups with 16 matching groups at 1280×800: every notable step on the first screen', T, async () => {
    await walkNotableSteps(suite, '#/case/gvisor-threadgroups?matching_groups=16', 'layout-gvisor-16-steps', 24);
  });
  // A projector at 1280×800: the presenter view's stage at every notable step of every case.
  for (const id of ids) {
    test(`${id} in the presenter view at 1280×800: the stage and the transport at every notable step`, T, async () => {
      await walkNotableSteps(suite, `#/case/${id}?present`, `layout-${id}-present-steps`, 12, ['case-stage', 'play', 'qr']);
    });
  }
});
