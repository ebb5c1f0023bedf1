// The sparse core dump's stage: a shared link in the middle of the 268 M-page
// walk reopens at the same address, maple-tree path and counters.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage } from './browser.mjs';

const T = { timeout: 90_000 };

async function stage(page) {
  return {
    index: await page.getByTestId('step-index').innerText(),
    time: await page.getByTestId('sim-time').innerText(),
    address: await page.getByTestId('stage-address').innerText(),
    path: await page.locator('[data-testid="maple-tree"] .maple-node.visited').evaluateAll((nodes) => nodes.map((n) => n.dataset.node)),
    churn: await page.getByTestId('lock-churn').innerText(),
    narration: await page.getByTestId('narration').innerText(),
  };
}

describe('sparse core dump', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('a link in the middle of the dump reopens at the same address, tree path and counters', T, async () => {
    let link;
    let expected;
    await withPage(suite.browser, 'sparse-share', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/case/sparse-dump?step=iter:150000000'));
      await waitForApp(page);
      await page.getByTestId('stage').waitFor();
      await page.getByTestId('step-forward').click();
      expected = await stage(page);
      assert.match(expected.index, /^iteration 150,000,002 of/);
      assert.match(expected.address, /0x[0-9a-f]{9,}/);
      assert.equal(expected.path.length, 2, 'a two-level maple tree: root and leaf visited');
      assert.match(expected.churn, /contended: this is churn/);
      assert.match(expected.narration, /SIGKILL|find_vma|Maple node|hole/);
      await page.getByTestId('share-link').click();
      link = await page.getByTestId('share-url').inputValue();
      assert.match(link, /step=iter:150000001/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    }, { permissions: ['clipboard-read', 'clipboard-write'] });
    await withPage(suite.browser, 'sparse-share-open', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(link);
      await waitForApp(page);
      await page.getByTestId('stage').waitFor();
      assert.deepEqual(await stage(page), expected);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('under v6.13 the SIGKILL is shown pending while the walk goes on', T, async () => {
    await withPage(suite.browser, 'sparse-sigkill', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/case/sparse-dump'));
      await waitForApp(page);
      await page.getByTestId('player').waitFor();
      // n visits the chapters: the first page's lock, then SIGKILL.
      await page.keyboard.press('n');
      await page.keyboard.press('n');
      // The second jump crosses 72 million micro-ops: wait for its render.
      await page.waitForFunction(() => /SIGKILL is sent/.test(document.querySelector('[data-testid="narration"]')?.textContent ?? ''));
      assert.match(await page.getByTestId('narration').innerText(), /SIGKILL is sent/);
      assert.match(await page.locator('.chapter[aria-current="step"]').innerText(), /SIGKILL arrives/);
      await page.getByTestId('sigkill').waitFor();
      const figures = await page.getByTestId('metrics').innerText();
      assert.match(figures, /reported: about 30 s/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });
});
