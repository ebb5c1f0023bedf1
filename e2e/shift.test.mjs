// No layout shift on a first visit: while a case's run is made the page keeps the
// player's room, so nothing on screen moves when it arrives. The layout-shift score
// (what Lighthouse calls CLS) of every case page and the landing stays at most 0.1,
// on a laptop and a phone screen.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage } from './browser.mjs';
import { CASE_IDS } from './registry.mjs';

const T = { timeout: 60_000 };
const SCREENS = [
  { width: 1280, height: 800 },
  { width: 412, height: 823 },
];

describe('layout shift', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  for (const viewport of SCREENS) {
    for (const hash of ['#/', ...CASE_IDS.map((id) => `#/case/${id}`)]) {
      test(`${hash} at ${viewport.width}×${viewport.height} shifts by at most 0.1`, T, async () => {
        await withPage(
          suite.browser,
          `shift-${hash}-${viewport.width}`,
          async ({ page }) => {
            await page.addInitScript(() => {
              window.slowpathShift = { score: 0, moved: [] };
              new PerformanceObserver((list) => {
                for (const entry of list.getEntries()) {
                  if (entry.hadRecentInput) continue;
                  window.slowpathShift.score += entry.value;
                  const names = (entry.sources ?? []).map((source) => source.node?.className || source.node?.nodeName);
                  window.slowpathShift.moved.push(`${entry.value.toFixed(3)} ${names.join(',')}`);
                }
              }).observe({ type: 'layout-shift', buffered: true });
            });
            await page.goto(suite.url(hash));
            await waitForApp(page);
            if (hash !== '#/') await page.getByTestId('case-stage').waitFor();
            // What is below the first screen mounts over the next frames.
            await page.waitForTimeout(1_000);
            const shift = await page.evaluate(() => window.slowpathShift);
            assert.ok(shift.score <= 0.1, `${shift.score.toFixed(3)}: ${shift.moved.join(' | ')}`);
          },
          { viewport },
        );
      });
    }
  }
});
