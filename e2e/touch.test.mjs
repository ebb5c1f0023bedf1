// A student's phone (issue 30 §7) and the figures a case's title quotes (§4):
// - at 390 × 844 on a touch screen the sticky transport takes at most 15 % of the
//   screen, ends above the narration, and every control in it (those behind "more"
//   too) and every main link is a target of at least 44 × 44 px (WCAG 2.5.5);
// - a touch screen reads taps, not keys, in the first narration and the help;
// - the first case card, with its picture of the stage, is on the first screen of a
//   laptop and of a phone;
// - "What happened" is open on a first visit, and stays closed once closed (and the
//   page works where storage throws);
// - each case's title, card and tour give the report's headline figure beside the
//   model's, with why they differ.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage } from './browser.mjs';
import { CASE_IDS, LISTED_IDS, REPORTED_IDS } from './registry.mjs';

const T = { timeout: 120_000 };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const LAPTOP = { viewport: { width: 1280, height: 800 } };
/** WCAG 2.5.5's target size, in CSS pixels (half a pixel of rounding allowed). */
const TARGET = 44 - 0.5;

async function openCase(page, url) {
  await page.goto(url);
  await waitForApp(page);
  await page.getByTestId('case-stage').waitFor();
  await page.waitForTimeout(250);
}

/** Every visible element matching `selector`, as "name w×h" for the ones smaller than a
 * target. A checkbox is tapped through its label, so the label is its target (WCAG 2.5.5). */
async function smallTargets(page, selector) {
  return page.evaluate(
    ([selector, least]) =>
      [...document.querySelectorAll(selector)]
        .map((element) => {
          const target = element.matches('input[type="checkbox"]') ? element.closest('label') ?? element : element;
          return { element, box: target.getBoundingClientRect() };
        })
        .filter(({ box }) => box.width > 0 && box.height > 0)
        .filter(({ box }) => box.width < least || box.height < least)
        .map(({ element, box }) => {
          const name = (element.getAttribute('aria-label') || element.textContent || element.tagName).trim().slice(0, 30);
          return `${name} ${Math.round(box.width)}×${Math.round(box.height)}`;
        }),
    [selector, TARGET],
  );
}

async function visibleCount(page, selector) {
  return page.locator(selector).evaluateAll((nodes) => nodes.filter((node) => node.getBoundingClientRect().width > 0).length);
}

describe('touch and figures', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  for (const id of CASE_IDS) {
    test(`${id} on a phone: a transport of at most 15 % above the narration, 44 px targets, every control reachable`, T, async () => {
      await withPage(
        suite.browser,
        `touch-${id}-transport`,
        async ({ page, pageErrors }) => {
          const { height } = PHONE.viewport;
          await openCase(page, suite.url(`#/case/${id}`));
          const transport = await page.locator('.transport').boundingBox();
          assert.ok(transport.height <= 0.15 * height, `the transport is ${Math.round(transport.height)} px of ${height}`);
          const narration = await page.getByTestId('narration').boundingBox();
          assert.ok(transport.y + transport.height <= narration.y, 'the transport ends above the narration');
          assert.ok(narration.y + 40 <= height, "the narration's first line is on the first screen");
          // Scrolled, the sticky transport stays this size.
          await page.evaluate(() => scrollTo(0, 600));
          await page.waitForTimeout(150);
          const stuck = await page.locator('.transport').boundingBox();
          assert.ok(stuck.height <= 0.15 * height, `scrolled, the transport is ${Math.round(stuck.height)} px`);
          await page.evaluate(() => scrollTo(0, 0));

          const controls = '.transport button, .transport select, .transport input, .case-jump button, .case-jump a';
          assert.deepEqual(await smallTargets(page, controls), [], 'targets under 44 × 44 px');
          // Behind "more": start, end, the step, the speed, help and the chapters.
          for (const testid of ['to-start', 'to-end', 'step-granularity', 'speed', 'help-button']) {
            assert.equal(await visibleCount(page, `[data-testid="${testid}"]`), 0, `${testid} waits behind "more"`);
          }
          await page.getByTestId('transport-more').tap();
          for (const testid of ['to-start', 'to-end', 'step-granularity', 'speed', 'help-button', 'previous-key', 'next-key', 'play']) {
            assert.equal(await visibleCount(page, `[data-testid="${testid}"]`), 1, `${testid} is shown after "more"`);
          }
          assert.deepEqual(await smallTargets(page, controls), [], 'targets under 44 × 44 px with "more" open');
          const before = await page.getByTestId('step-index').innerText();
          await page.getByTestId('to-end').tap();
          await page.waitForFunction((old) => document.querySelector('[data-testid="step-index"]')?.textContent !== old, before);
          await page.getByTestId('to-start').tap();
          await page.waitForFunction(() => /^start/.test(document.querySelector('[data-testid="step-index"]')?.textContent ?? ''));
          await page.getByTestId('next-key').tap();
          await page.waitForFunction(() => !/^start/.test(document.querySelector('[data-testid="step-index"]')?.textContent ?? ''));
          await page.getByTestId('transport-more').tap();
          assert.equal(await visibleCount(page, '[data-testid="to-end"]'), 0, '"less" hides them again');

          // The exports, once mounted below.
          await page.getByTestId('export').waitFor();
          assert.deepEqual(await smallTargets(page, '.export-buttons button'), [], 'export targets under 44 × 44 px');
          assert.deepEqual(pageErrors, []);
        },
        PHONE,
      );
    });
  }

  test('on a phone a case card is one target, its link, from edge to edge', T, async () => {
    await withPage(
      suite.browser,
      'touch-cards',
      async ({ page }) => {
        await page.goto(suite.url('#/'));
        await waitForApp(page);
        // The title link's ::after covers its card: a tap on the card's corner is a tap on the link.
        const corners = await page.getByTestId('case-card').evaluateAll((cards) =>
          cards.map((card) => {
            const box = card.getBoundingClientRect();
            const link = card.querySelector('.case-card-title a');
            const hit = (x, y) => document.elementFromPoint(x, y) === link;
            card.scrollIntoView({ block: 'center' });
            const shown = card.getBoundingClientRect();
            return {
              big: box.width >= 44 && box.height >= 44,
              // Inside the rounded corners.
              corners: hit(shown.left + 14, shown.top + 14) && hit(shown.right - 14, shown.bottom - 14),
            };
          }),
        );
        for (const [index, card] of corners.entries()) {
          assert.ok(card.big && card.corners, `card ${index + 1}: ${JSON.stringify(card)}`);
        }
      },
      PHONE,
    );
  });

  test('a touch screen reads taps, not keys, in the first narration and the help', T, async () => {
    await withPage(
      suite.browser,
      'touch-words',
      async ({ page, pageErrors }) => {
        await openCase(page, suite.url(`#/case/${CASE_IDS[0]}`));
        const words = await page.getByTestId('narration').innerText();
        assert.match(words, /Tap ▶ Play/);
        assert.doesNotMatch(words, /Press|Space|→/);
        await page.getByTestId('transport-more').tap();
        await page.getByTestId('help-button').tap();
        const help = await page.getByTestId('help').innerText();
        assert.match(help, /Buttons and words/);
        assert.match(help, /more/);
        assert.doesNotMatch(help, /Space|PageDown|Home \/ End/);
        assert.deepEqual(pageErrors, []);
      },
      PHONE,
    );
    await withPage(suite.browser, 'keys-words', async ({ page }) => {
      await openCase(page, suite.url(`#/case/${CASE_IDS[0]}`));
      assert.match(await page.getByTestId('narration').innerText(), /Press Space/);
      await page.keyboard.press('?');
      const help = await page.getByTestId('help').innerText();
      assert.match(help, /Keys and words/);
      assert.match(help, /Space/);
      assert.doesNotMatch(help, /Buttons and words/);
      assert.equal(await visibleCount(page, '[data-testid="transport-more"]'), 0, 'no "more" on a laptop');
    });
  });

  for (const [name, options] of [['laptop', LAPTOP], ['phone', PHONE]]) {
    test(`the first case card, its picture and its figures are on a ${name}'s first screen`, T, async () => {
      await withPage(
        suite.browser,
        `touch-card-fold-${name}`,
        async ({ page }) => {
          await page.goto(suite.url('#/'));
          await waitForApp(page);
          const card = page.getByTestId('case-card').first();
          await card.getByTestId('headline').waitFor();
          const { height } = options.viewport;
          for (const part of [card.getByTestId('case-picture'), card.getByRole('link'), card.getByTestId('reported-vs-modelled')]) {
            const box = await part.boundingBox();
            assert.ok(box && box.y >= 0 && box.y + box.height <= height, `${await part.evaluate((e) => e.className || e.tagName)} ends at ${box && Math.round(box.y + box.height)} of ${height}`);
          }
          // A picture is a small drawing, not an image file, and types no figure.
          for (const picture of await page.getByTestId('case-picture').all()) {
            assert.equal(await picture.locator('svg').count(), 1);
            assert.equal(await picture.locator('img, text').count(), 0);
            const box = await picture.boundingBox();
            assert.ok(box.width <= 120 && box.height <= 80, `a small picture: ${Math.round(box.width)}×${Math.round(box.height)}`);
          }
          assert.equal(await page.getByTestId('case-picture').count(), LISTED_IDS.length, 'every card has its picture');
        },
        options,
      );
    });
  }

  test('"What happened" is open on a first visit and stays closed once closed', T, async () => {
    await withPage(
      suite.browser,
      'touch-what-happened',
      async ({ page, pageErrors }) => {
        const summary = page.getByTestId('case-summary');
        const isOpen = () => summary.evaluate((details) => details.open);
        await openCase(page, suite.url(`#/case/${CASE_IDS[0]}`));
        assert.equal(await isOpen(), true, 'open on a first visit');
        await summary.locator('summary').tap();
        await page.waitForTimeout(100);
        assert.equal(await isOpen(), false, 'closed by a tap');
        await openCase(page, suite.url(`#/case/${CASE_IDS[1]}`));
        assert.equal(await isOpen(), false, 'closed on the next case');
        await page.reload();
        await waitForApp(page);
        assert.equal(await isOpen(), false, 'closed after a reload');
        await summary.locator('summary').tap();
        await page.reload();
        await waitForApp(page);
        assert.equal(await isOpen(), true, 'opened again, open after a reload');
        assert.deepEqual(pageErrors, []);
      },
      PHONE,
    );
    // Where storage throws (a private mode, a sandboxed frame), it is open and nothing breaks.
    await withPage(suite.browser, 'touch-what-happened-no-storage', async ({ page, pageErrors }) => {
      await page.addInitScript(() => {
        Object.defineProperty(window, 'localStorage', {
          get() {
            throw new DOMException('denied', 'SecurityError');
          },
        });
      });
      await openCase(page, suite.url(`#/case/${CASE_IDS[0]}`));
      const summary = page.getByTestId('case-summary');
      assert.equal(await summary.evaluate((details) => details.open), true);
      await summary.locator('summary').click();
      await page.waitForTimeout(100);
      assert.equal(await summary.evaluate((details) => details.open), false);
      assert.deepEqual(pageErrors, []);
    });
  });

  for (const id of REPORTED_IDS) {
    test(`${id}: its title, card and tour give the reported headline figure beside the modelled one, with why`, T, async () => {
      await withPage(suite.browser, `figures-${id}`, async ({ page, pageErrors }) => {
        const shown = async (scope) => {
          const line = scope.getByTestId('reported-vs-modelled');
          await page.waitForFunction(
            (element) => /\d/.test(element.querySelector('[data-testid="modelled-figure"]')?.textContent ?? ''),
            await line.elementHandle(),
            { timeout: 90_000 },
          );
          return {
            reported: await line.getByTestId('reported-figure').innerText(),
            modelled: await line.getByTestId('modelled-figure').innerText(),
            why: await line.getByTestId('figures-why').innerText(),
          };
        };
        await page.goto(suite.url('#/'));
        await waitForApp(page);
        const card = await shown(page.locator(`[data-case-id="${id}"]`));
        await openCase(page, suite.url(`#/case/${id}`));
        const title = await shown(page.locator('.case-header'));
        assert.match(title.reported, /\d/, 'a reported figure');
        assert.match(title.modelled, /\d/, 'a modelled figure');
        assert.ok(title.why.replace(/^\W+/, '').length > 20, `a reason: ${title.why}`);
        assert.doesNotMatch(title.why, /\d/, 'the reason types no figure');
        assert.deepEqual(card, title, 'the card says what the title says');
        // The reported figure is the report's, as "What the report measured" gives it.
        await page.locator('#reported-title').waitFor();
        assert.ok((await page.locator('.about-case .figures').innerText()).includes(title.reported));
        // The modelled figure is this run's: the case page opens the default run.
        assert.ok((await page.getByTestId('metrics').innerText()).includes(title.modelled), `${title.modelled} among the run's figures`);
        await page.goto(suite.url(`#/case/${id}/tour/1`));
        await waitForApp(page);
        assert.deepEqual(await shown(page.locator('.tour-header')), title, 'the tour says what the title says');
        assert.deepEqual(pageErrors, []);
      });
    });
  }
});
