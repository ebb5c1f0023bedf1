// Accessibility checked by axe-core (a tool nobody here wrote): every page and
// state reports no violation, best practices included, compare mode too.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pressAndWaitForStep, startSuite, waitForApp, withPage } from './browser.mjs';
import { axeViolations as violations } from './checks.mjs';
import { CASE_IDS, firstOtherVariant } from './registry.mjs';

const T = { timeout: 120_000 };

describe('accessibility (axe-core)', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  const ids = CASE_IDS;
  // Compare mode draws a case's stage and charts twice: their ids and landmark names
  // must stay unique (`cmp=` alone compares the variant with itself).
  const pages = [
    '#/',
    '#/about',
    '#/nowhere',
    ...ids.map((id) => `#/case/${id}`),
    `#/case/${ids[0]}?embed`,
    `#/case/${ids[0]}?present`,
    ...ids.map((id) => `#/case/${id}?cmp=${firstOtherVariant(id)}`),
  ];
  for (const hash of pages) {
    for (const colorScheme of ['light', 'dark']) {
      test(`${hash} (${colorScheme}) has no violation`, T, async () => {
        await withPage(
          suite.browser,
          `a11y-${hash}-${colorScheme}`,
          async ({ page }) => {
            await page.goto(suite.url(hash));
            await waitForApp(page);
            if (hash.startsWith('#/case/')) {
              await page.getByTestId('player').waitFor();
              // A state with a step shown, not only the start.
              await pressAndWaitForStep(page, 'n');
            }
            assert.deepEqual(await violations(page), []);
          },
          // axe is injected by evaluation; the page's own policy stays checked by csp.test.mjs.
          { colorScheme, bypassCSP: true },
        );
      });
    }
  }
});
