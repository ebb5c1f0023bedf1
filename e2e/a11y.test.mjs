// Accessibility checked by axe-core (a tool nobody here wrote): every page and
// state reports no violation, best practices included.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { startSuite, waitForApp, withPage } from './browser.mjs';

const T = { timeout: 120_000 };
const AXE = await readFile(new URL('../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

/** axe's violations on the page as it is now, one line each. */
async function violations(page) {
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    // Every rule axe has up to WCAG AA, experimental ones and best practices included
    // (the label-in-name check is experimental); AAA's enhanced contrast is not asked for.
    const rules = window.axe.getRules().filter((rule) => !rule.tags.includes('wcag2aaa')).map((rule) => rule.ruleId);
    const run = await window.axe.run(document, { runOnly: { type: 'rule', values: rules } });
    return run.violations.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
  });
  return result;
}

describe('accessibility (axe-core)', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  const ids = (process.env.SLOWPATH_CASE_IDS ?? 'sparse-dump,fifo-trigger,rwsem-playground').split(',').filter(Boolean);
  const pages = ['#/', '#/about', '#/nowhere', ...ids.map((id) => `#/case/${id}`), `#/case/${ids[0]}?embed`, `#/case/${ids[0]}?present`];
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
              await page.keyboard.press('n');
              await page.waitForTimeout(300);
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
