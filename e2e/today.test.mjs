// "Does it still happen today?": a case with a `today` variant shows the figure
// measured on a real kernel beside the model's today run and the report, with
// where and when it was measured, and opens the today variant.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage } from './browser.mjs';

const T = { timeout: 120_000 };

describe('today panel', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  for (const id of ['sparse-dump', 'coredump-threads', 'fifo-trigger']) {
    test(`${id}: measured, modelled and reported side by side`, T, async () => {
      await withPage(suite.browser, `today-${id}`, async ({ page, consoleErrors, pageErrors }) => {
        await page.goto(suite.url(`#/case/${id}`));
        await waitForApp(page);
        const panel = page.getByTestId('today-panel');
        await panel.scrollIntoViewIfNeeded();
        await page.waitForFunction(
          () => !/computing/.test(document.querySelector('[data-testid="today-model"]')?.textContent ?? 'computing'),
          null,
          { timeout: 60_000 },
        );
        assert.match(await page.getByTestId('today-model').innerText(), /\d(\.\d+)? (ns|µs|ms|s)$/);
        assert.match(await page.getByTestId('today-measured').innerText(), /median of \d+ runs/);
        assert.match(await page.getByTestId('today-reported').innerText(), /\d/);
        assert.match(await page.getByTestId('today-provenance').innerText(), /kernel .*6\.\d+/);
        if (id === 'sparse-dump') {
          // The scaling plot draws the measured dumps (1 GiB … 1 TiB) beside the model's curves.
          const measured = page.getByTestId('scaling-chart').locator('g.series.measured circle');
          await measured.first().waitFor({ timeout: 60_000 });
          assert.equal(await measured.count(), 6);
        }
        if (id === 'fifo-trigger') {
          // The reported kernel's dt chart has no measured band; today's has one (below).
          await page.getByTestId('dt-chart').waitFor({ timeout: 60_000 });
          assert.equal(await page.getByTestId('dt-measured').count(), 0);
        }
        await page.getByTestId('today-open').click();
        await page.waitForFunction(() => location.hash.includes('v=today'));
        await waitForApp(page);
        if (id === 'fifo-trigger') {
          // Today's dt chart draws the longest writes measured on that kernel as a band, named in its caption.
          const band = page.getByTestId('dt-measured');
          await band.waitFor({ timeout: 60_000 });
          assert.match(
            await band.innerText(),
            /measured on Linux 6\.\d+\S*\. .*longest write\(\): \d+(\.\d+)? ms to \d+(\.\d+)? ms over \d+ runs/,
          );
        }
        assert.deepEqual(consoleErrors, []);
        assert.deepEqual(pageErrors, []);
      });
    });
  }
});
