// Takes screenshots for a human to look at: every case's opening state and its
// headline chapter at 1280 × 800, 1920 × 1080 and 390 × 844 (the first screen, as a
// visitor sees it), then the landing and about pages in light and dark.
// Usage: node e2e/screenshots.mjs [output-dir]   (default: e2e/artifacts/shots)
// Uses SLOWPATH_BASE_URL and SLOWPATH_CASE_IDS like the tests, or serves dist/ itself.
// `cargo xtask test` runs it after the browser tests: one browser, under a minute.

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
  // Kept few: the run must stay around half a minute.
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
