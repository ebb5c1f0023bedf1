// Takes screenshots for a human to look at: every case's opening state and its
// headline chapter at 1280 × 800, 1920 × 1080 and 390 × 844 (the first screen, as a
// visitor sees it); its presenter view at the headline on both screens and with a
// tour; the phone as a touch screen; then the landing and about pages in light and dark.
// Usage: node e2e/screenshots.mjs [output-dir]   (default: e2e/artifacts/shots)
// Uses SLOWPATH_BASE_URL and SLOWPATH_CASE_IDS like the tests, or serves dist/ itself.
// `cargo xtask test` runs it after the browser tests: one browser, about a minute.

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ARTIFACTS, startSuite, waitForApp, openPage } from './browser.mjs';
import { toHeadline } from './headlines.mjs';
import { LISTED_IDS } from './registry.mjs';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
];

const out = process.argv[2] || join(ARTIFACTS, 'shots');
await mkdir(out, { recursive: true });
const ids = LISTED_IDS;
const suite = await startSuite();
let taken = 0;
try {
  for (const viewport of SIZES) {
    for (const id of ids) {
      const { page, context } = await openPage(suite.browser, { viewport });
      try {
        await page.goto(suite.url(`#/case/${id}`));
        await waitForApp(page);
        await page.getByTestId('case-stage').waitFor();
        await page.waitForTimeout(250);
        const size = `${viewport.width}x${viewport.height}`;
        await page.screenshot({ path: join(out, `${id}-${size}-start.png`) });
        await toHeadline(page, id);
        await page.evaluate(() => scrollTo(0, 0));
        await page.waitForTimeout(250);
        await page.screenshot({ path: join(out, `${id}-${size}-headline.png`) });
        taken += 2;
      } finally {
        await context.close();
      }
    }
  }
  // The views issue 30 measured, as a person would look at them: the presenter view
  // at the headline on a projector (1920 × 1080) and on a laptop (1280 × 800), with
  // a tour's first stop, and the phone as a touch screen.
  const views = [
    ['present-1920', { width: 1920, height: 1080 }, (id) => `#/case/${id}`, true, {}],
    ['present-1280', { width: 1280, height: 800 }, (id) => `#/case/${id}`, true, {}],
    ['tour-present-1280', { width: 1280, height: 800 }, (id) => `#/case/${id}/tour/1?present`, false, {}],
    ['touch-390', { width: 390, height: 844 }, (id) => `#/case/${id}`, false, { hasTouch: true, isMobile: true }],
  ];
  for (const [name, viewport, hashOf, headline, options] of views) {
    for (const id of ids) {
      const { page, context } = await openPage(suite.browser, { viewport, ...options });
      try {
        await page.goto(suite.url(hashOf(id)));
        await waitForApp(page);
        await page.getByTestId('case-stage').waitFor();
        if (headline) {
          // The headline on the case page, then `v`: the presenter view of that moment.
          await toHeadline(page, id);
          await page.evaluate(() => document.activeElement?.blur());
          await page.keyboard.press('v');
          await page.locator('.player-present').waitFor();
        }
        await page.waitForTimeout(250);
        await page.screenshot({ path: join(out, `${id}-${name}.png`) });
        taken += 1;
      } finally {
        await context.close();
      }
    }
  }
  {
    const { page, context } = await openPage(suite.browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    try {
      await page.goto(suite.url('#/'));
      await page.getByTestId('case-card').first().waitFor();
      await page.screenshot({ path: join(out, 'landing-touch-390.png') });
      taken += 1;
    } finally {
      await context.close();
    }
  }
  // Kept few: the run must stay around a minute.
  const pages = [
    ['landing', '#/'],
    ['about', '#/about'],
  ];
  for (const colorScheme of ['light', 'dark']) {
    for (const [name, hash] of pages) {
      const { page, context } = await openPage(suite.browser, { colorScheme });
      try {
        await page.goto(suite.url(hash));
        await page.locator('header.site-header, [data-testid="panic-overlay"]').first().waitFor();
        await page.screenshot({ path: join(out, `${name}-${colorScheme}.png`), fullPage: true });
        taken += 1;
      } finally {
        await context.close();
      }
    }
  }
  console.log(`screenshots: ${taken} in ${out}`);
} finally {
  await suite.close();
}
