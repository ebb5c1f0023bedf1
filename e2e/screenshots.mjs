// Takes screenshots of the main pages in light and dark, for a human to look at.
// Usage: node e2e/screenshots.mjs [output-dir]   (default: e2e/artifacts/shots)
// Uses SLOWPATH_BASE_URL like the tests, or serves dist/ itself.

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ARTIFACTS, startSuite, waitForApp, openPage } from './browser.mjs';

const out = process.argv[2] || join(ARTIFACTS, 'shots');
await mkdir(out, { recursive: true });
const suite = await startSuite();
try {
  const firstCase = await (async () => {
    const { page, context } = await openPage(suite.browser);
    await page.goto(suite.url('#/'));
    await waitForApp(page);
    const id = await page.getByTestId('case-card').first().getAttribute('data-case-id');
    await context.close();
    return id;
  })();
  const shots = [
    ['landing', '#/'],
    ['case', `#/case/${firstCase}`],
    ['about', '#/about'],
    ['not-found', '#/case/nope'],
    ['panic', '#/__crash'],
  ];
  for (const colorScheme of ['light', 'dark']) {
    for (const [name, hash] of shots) {
      const { page, context } = await openPage(suite.browser, { colorScheme });
      await page.goto(suite.url(hash));
      await page.locator('header.site-header, [data-testid="panic-overlay"]').first().waitFor();
      const file = join(out, `${name}-${colorScheme}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
      await context.close();
    }
  }
} finally {
  await suite.close();
}
