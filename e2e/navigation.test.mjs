// Moving from one case to another by the hash (the address bar, a bookmark) and by
// the browser's history always shows the new case's own run: never the previous
// case's run under the new case's title (a stale player once stayed until a reload).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage, waitForText } from './browser.mjs';
import { CASE_IDS } from './registry.mjs';

const T = { timeout: 600_000 };
const IDS = CASE_IDS;

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The case page's own id and its player's opening step, read once the run is there. */
async function identity(page) {
  await waitForApp(page);
  await page.getByTestId('case-stage').waitFor();
  const id = await page.getByTestId('case-page').getAttribute('data-case-id');
  return { id, step: await page.getByTestId('step-index').innerText() };
}

describe('navigation between cases', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('by hash, back and forward: every pair of cases shows its own run', T, async () => {
    await withPage(suite.browser, 'navigation', async ({ page, pageErrors }) => {
      // Each case's opening step, from a fresh load: what its own run shows.
      const opening = {};
      for (const id of IDS) {
        // A fresh load: another case's page may itself reload to load this case's
        // module (one wasm module per case), which a reload here would race.
        await page.goto('about:blank');
        await page.goto(suite.url(`#/case/${id}`));
        const seen = await identity(page);
        assert.equal(seen.id, id);
        opening[id] = seen.step;
      }
      const expect = async (id, how) => {
        await page.waitForFunction(
          (want) => document.querySelector('[data-testid="case-page"]')?.getAttribute('data-case-id') === want,
          id,
        );
        await waitForApp(page);
        const step = await waitForText(page.getByTestId('step-index'), new RegExp(`^${escape(opening[id])}$`));
        assert.equal(step, opening[id], `${how}: ${id}'s own run`);
      };
      let pairs = 0;
      for (const from of IDS) {
        for (const to of IDS) {
          if (from === to) continue;
          await page.evaluate((hash) => { location.hash = hash; }, `#/case/${from}`);
          await expect(from, `hash to ${from}`);
          await page.evaluate((hash) => { location.hash = hash; }, `#/case/${to}`);
          await expect(to, `hash from ${from} to ${to}`);
          await page.goBack();
          await expect(from, `back from ${to} to ${from}`);
          await page.goForward();
          await expect(to, `forward from ${from} to ${to}`);
          pairs += 1;
        }
      }
      assert.equal(pairs, IDS.length * (IDS.length - 1));
      assert.deepEqual(pageErrors, []);
    });
  });
});
