// Runs happen in the engine's Web Worker: the page answers while a heavy link is
// being run, shows the simulated time reached, can cancel, and opens the player
// the moment the run arrives.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, waitForShell, withPage } from './browser.mjs';

const T = { timeout: 120_000 };
// The setting that froze the tab for about two minutes before the work budget.
const HEAVY = '#/case/fifo-trigger?loop_iters=1&syscall_scale=10&duration=120s';

describe('engine worker', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('a heavy link runs in a worker: progress, then the player', T, async () => {
    await withPage(suite.browser, 'worker', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url(HEAVY));
      await waitForShell(page);
      const progress = page.getByTestId('run-progress');
      await progress.waitFor({ timeout: 30_000 });
      assert.match(await progress.innerText(), /Simulating/);
      // The page's own thread is free while the worker runs: a round trip is quick.
      const started = Date.now();
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
      assert.ok(Date.now() - started < 1_000, 'the main thread answers while the run is made');
      // Playwright hears of a worker a little after it starts: give it a moment.
      for (let waited = 0; page.workers().length === 0 && waited < 5_000; waited += 50) await page.waitForTimeout(50);
      assert.equal(page.workers().length, 1, 'one worker');
      await page.getByTestId('run-limit').waitFor({ timeout: 60_000 });
      await page.getByTestId('step-index').waitFor();
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('Cancel stops the run and offers to run it or open the defaults', T, async () => {
    await withPage(suite.browser, 'worker-cancel', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url(HEAVY));
      await waitForShell(page);
      await page.getByTestId('run-cancel').click({ timeout: 30_000 });
      const failed = page.getByTestId('run-failed');
      await failed.waitFor();
      assert.match(await failed.innerText(), /cancelled/);
      // A fresh worker serves the next request.
      await failed.getByRole('button', { name: 'Run it' }).click();
      await page.getByTestId('run-limit').waitFor({ timeout: 60_000 });
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('a changed parameter is run by the worker; the old run stays until then', T, async () => {
    await withPage(suite.browser, 'worker-param', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/case/fifo-trigger'));
      await waitForApp(page);
      await page.getByTestId('step-index').waitFor({ timeout: 30_000 });
      const duration = page.getByTestId('param-duration');
      await duration.fill('120s');
      await duration.press('Enter');
      // The new run is asked of the worker: progress beside the transport, the player
      // still on screen and stepping.
      await page.getByTestId('run-progress').waitFor({ timeout: 30_000 });
      await page.keyboard.press('ArrowRight');
      await page.getByTestId('run-progress').waitFor({ state: 'detached', timeout: 60_000 });
      await page.waitForFunction(() => location.hash.includes('duration=120s'));
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });
});
