// The Content-Security-Policy of the release build: present, strict about
// scripts, and never violated by any page (every case played for a moment).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage } from './browser.mjs';
import { CASE_IDS } from './registry.mjs';

const T = { timeout: 120_000 };

/** Records every CSP violation the page reports, from before its first script runs. */
async function recordViolations(page) {
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
}

describe('content security policy', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('the policy allows no inline script, no eval, no plugins, no base', T, async () => {
    await withPage(suite.browser, 'csp-meta', async ({ page }) => {
      await page.goto(suite.url('#/'));
      await waitForApp(page);
      const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
      assert.ok(policy, 'the page carries a policy');
      const directives = Object.fromEntries(
        policy.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...values]) => [name, values]),
      );
      assert.deepEqual(directives['script-src'], ["'self'", "'wasm-unsafe-eval'"]);
      assert.deepEqual(directives['object-src'], ["'none'"]);
      assert.deepEqual(directives['base-uri'], ["'none'"]);
      assert.equal(await page.locator('script:not([src])').count(), 0, 'no inline script in the page');
    });
  });

  const ids = CASE_IDS;
  const pages = ['#/', '#/about', '#/nowhere', ...ids.map((id) => `#/case/${id}`), `#/case/${ids[0]}?embed`, `#/case/${ids[0]}?present`];
  for (const hash of pages) {
    test(`${hash} runs with no policy violation`, T, async () => {
      await withPage(suite.browser, `csp-${hash}`, async ({ page, consoleErrors, pageErrors }) => {
        await recordViolations(page);
        await page.goto(suite.url(hash));
        await waitForApp(page);
        if (hash.startsWith('#/case/')) {
          await page.getByTestId('player').waitFor();
          await page.keyboard.press('Space');
          await page.waitForTimeout(600);
          await page.keyboard.press('Space');
        }
        assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
        assert.deepEqual(consoleErrors, []);
        assert.deepEqual(pageErrors, []);
      });
    });
  }
});
