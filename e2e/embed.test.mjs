// Embeds: a case framed in another page shows the transport and the stage only,
// plays, and links to the whole case; the share panel gives the iframe snippet.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage } from './browser.mjs';

const T = { timeout: 90_000 };

describe('embed', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('the embed code frames the case, which plays and links back', T, async () => {
    let code;
    await withPage(suite.browser, 'embed-code', async ({ page }) => {
      await page.goto(suite.url('#/case/sparse-dump?step=iter:3'));
      await waitForApp(page);
      code = await page.getByTestId('embed-code').inputValue();
      assert.match(code, /^<iframe src="[^"]*#\/case\/sparse-dump\?lv=5&amp;step=iter:3&amp;embed" title="slowpath: /);
    });
    await withPage(suite.browser, 'embed-frame', async ({ page, pageErrors }) => {
      // Someone else's page: a paragraph of course notes and the snippet.
      await page.setContent(`<!doctype html><title>Course notes</title><p>Lecture 7.</p>${code}`);
      const frame = page.frameLocator('iframe');
      await frame.getByTestId('player').waitFor({ timeout: 60_000 });
      assert.equal(await frame.locator('.site-header, .site-footer').count(), 0, 'no site chrome');
      assert.equal(await frame.getByTestId('share-url').count(), 0, 'no share panel in an embed');
      const open = frame.getByTestId('open-full');
      assert.equal(await open.getAttribute('target'), '_blank');
      const href = await open.getAttribute('href');
      assert.match(href, /#\/case\/sparse-dump\?lv=5&step=iter:3$/);
      const before = await frame.getByTestId('step-index').innerText();
      await frame.getByTestId('play').click();
      await page.waitForTimeout(1500);
      await frame.getByTestId('play').click();
      assert.notEqual(await frame.getByTestId('step-index').innerText(), before, 'it played');
      assert.deepEqual(pageErrors, []);
    });
  });
});
