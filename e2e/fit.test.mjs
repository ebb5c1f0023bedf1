// One screen, measured as drawn: the landing page shows its cases without scrolling,
// a tour stop shows its words, the stage at its normal size and (presenting) the QR
// code, at a laptop's, a projector's and a phone's size, and the presenter view on a
// laptop's screen shows its narration uncut.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage } from './browser.mjs';
import { CASE_IDS } from './registry.mjs';

const T = { timeout: 600_000 };
const LAPTOP = { width: 1280, height: 800 };
const PROJECTOR = { width: 1920, height: 1080 };
const PHONE = { width: 390, height: 844 };
/** Half a pixel of rounding between layout and the rectangles read back. */
const SLACK = 1;

/** The rectangle of the first element matching `selector`, in the viewport's pixels. */
function rectOf(page, selector) {
  return page.evaluate((selector) => {
    const node = document.querySelector(selector);
    if (!node) return null;
    const { top, bottom, left, right } = node.getBoundingClientRect();
    return { top, bottom, left, right, height: window.innerHeight, width: window.innerWidth };
  }, selector);
}

/** The tour text's rectangle, cut to what its panel shows (the panel may scroll). */
function tourTextShown(page) {
  return page.evaluate(() => {
    const text = document.querySelector('[data-testid="tour-text"]');
    if (!text) return null;
    const { top, bottom, left, right } = text.getBoundingClientRect();
    const panel = text.closest('.tour-panel').getBoundingClientRect();
    return { top, bottom, left, right, height: Math.min(window.innerHeight, panel.bottom), width: window.innerWidth };
  });
}

function inside(rect) {
  return Boolean(rect) && rect.top >= -SLACK && rect.bottom <= rect.height + SLACK && rect.left >= -SLACK && rect.right <= rect.width + SLACK;
}

function assertInside(rect, what) {
  assert.ok(rect, `${what} is drawn`);
  assert.ok(rect.top >= -SLACK && rect.bottom <= rect.height + SLACK, `${what} within the window's height: ${JSON.stringify(rect)}`);
  assert.ok(rect.left >= -SLACK && rect.right <= rect.width + SLACK, `${what} within the window's width: ${JSON.stringify(rect)}`);
}

/** The stage's zoom as fit.rs set it (1 when it set none). */
function stageZoom(page) {
  return page.evaluate(() => {
    const stage = document.querySelector('.player-stage-area > .player-stage');
    return stage ? Number(getComputedStyle(stage).zoom || 1) : null;
  });
}

/** Lets fit.rs settle: it measures after the render and again on the next frame. */
async function settled(page) {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await page.waitForTimeout(300);
}

describe('one screen', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  for (const [name, viewport] of [['laptop', LAPTOP], ['phone', PHONE]]) {
    test(`the landing page shows the first row of cases without scrolling (${name})`, T, async () => {
      await withPage(suite.browser, `fit-landing-${name}`, async ({ page }) => {
        await page.goto(suite.url('#/'));
        await waitForApp(page);
        const rows = await page.getByTestId('case-card').evaluateAll((cards) => {
          const first = cards[0].getBoundingClientRect().top;
          return cards
            .filter((card) => Math.abs(card.getBoundingClientRect().top - first) < 2)
            .map((card) => {
              const { top, bottom, left, right } = card.getBoundingClientRect();
              return { top, bottom, left, right, height: window.innerHeight, width: window.innerWidth };
            });
        });
        console.log(`landing ${name}: first row of ${rows.length} card(s), top ${rows[0].top}, bottom ${Math.max(...rows.map((r) => r.bottom))} of ${viewport.height}`);
        rows.forEach((rect, i) => assertInside(rect, `card ${i + 1} of the first row`));
        // What the page is stays reachable: its words are in the page, below or folded.
        assert.match(await page.locator('.hero-pitch').textContent(), /deterministic/i);
      }, { viewport });
    });
  }

  /** The tour stops to measure: stop 1, the first stop that asks a question, and
   * stop 2 (it reveals stop 1's answer beside its own words). */
  async function stopsOf(page, id) {
    for (let n = 1; n <= 12; n += 1) {
      await page.goto(suite.url(`#/case/${id}/tour/${n}`));
      await waitForApp(page);
      if (await page.getByTestId('tour-question').count()) return { stops: [...new Set([1, n, 2])], asking: n };
      if (await page.getByTestId('tour-next').isDisabled()) break;
    }
    return { stops: [1, 2], asking: null };
  }

  // A laptop's screen on the projector: at the start and at every chapter the step's
  // narration is whole (its box holds all its text) and on screen, and so is the QR code.
  for (const id of CASE_IDS) {
    test(`${id}: presenting on a 1280 × 800 screen, the narration is not cut at any chapter`, T, async () => {
      const failures = [];
      await withPage(suite.browser, `fit-present-narration-${id}`, async ({ page }) => {
        await page.goto(suite.url(`#/case/${id}?present`));
        await waitForApp(page);
        await page.getByTestId('case-stage').waitFor();
        const chapters = page.getByTestId('chapters').getByRole('button');
        const count = await chapters.count();
        const sizes = [];
        for (let index = -1; index < count; index += 1) {
          if (index >= 0) await chapters.nth(index).click();
          await settled(page);
          const where = index < 0 ? 'the start' : `chapter ${index + 1}`;
          const narration = await page.getByTestId('narration').evaluate((box) => ({ content: box.scrollHeight, shown: box.clientHeight }));
          sizes.push(`${narration.content}/${narration.shown}`);
          if (narration.content > narration.shown + SLACK) failures.push(`${where}: ${narration.content} px of narration in ${narration.shown} px`);
          if (!inside(await rectOf(page, '[data-testid="narration"]'))) failures.push(`${where}: the narration's box is off the screen`);
          if (!inside(await rectOf(page, '[data-testid="qr"] svg'))) failures.push(`${where}: the QR code is cut`);
        }
        console.log(`${id} presenting at 1280 × 800: narration content/shown by step ${sizes.join(' ')}`);
      }, { viewport: LAPTOP });
      assert.deepEqual(failures, []);
    });
  }

  for (const id of CASE_IDS) {
    test(`${id}: a tour stop fits one screen with the stage at its normal size`, T, async () => {
      const failures = [];
      // Every size is measured before any failure is reported: the figures are the report.
      const check = (ok, message) => {
        if (!ok) failures.push(message);
      };
      await withPage(suite.browser, `fit-tour-${id}`, async ({ page }) => {
        const { stops, asking } = await stopsOf(page, id);
        assert.ok(asking, 'the tour asks a question');
        const sizes = [['laptop', LAPTOP, ''], ['projector', PROJECTOR, ''], ['projector presenting', PROJECTOR, '?present'], ['laptop presenting', LAPTOP, '?present']];
        for (const stop of stops) {
          for (const [name, viewport, flags] of sizes) {
            await page.setViewportSize(viewport);
            await page.goto(suite.url(`#/case/${id}/tour/${stop}${flags}`));
            await waitForApp(page);
            await settled(page);
            // The same moment on the case page (presenting too, when the tour is).
            const leave = await page.getByTestId('leave-tour').getAttribute('href');
            const zoom = await stageZoom(page);
            const text = await tourTextShown(page);
            const stage = await rectOf(page, '.player-stage-area > .player-stage');
            const qr = flags ? await rectOf(page, '[data-testid="qr"] svg') : null;
            await page.goto(suite.url(leave));
            await waitForApp(page);
            await settled(page);
            // The stage's size on the case page is the least the tour may draw it at.
            const plain = await stageZoom(page);
            console.log(`${id} stop ${stop} ${name}: zoom ${zoom} (case page ${plain}), text ${text && [Math.round(text.top), Math.round(text.bottom)]}, stage bottom ${stage && Math.round(stage.bottom)}${qr ? `, QR bottom ${Math.round(qr.bottom)}` : ''} of ${viewport.height}`);
            const what = `${id} stop ${stop} ${name}`;
            check(zoom >= Math.min(1, plain) - 0.01, `${what}: the stage's zoom ${zoom} is below ${Math.min(1, plain)}`);
            check(inside(text), `${what}: the tour text is cut: ${JSON.stringify(text)}`);
            check(stage.bottom <= stage.height + SLACK, `${what}: the stage ends below the window (${stage.bottom})`);
            // Presenting, the room scans the QR code: it is on screen at both sizes.
            if (flags) check(inside(qr), `${what}: the QR code is cut: ${JSON.stringify(qr)}`);
          }
        }
        assert.deepEqual(failures, []);
      });
    });
  }
});
