// Links whose settings make more work than one run may do: they open, the run
// stops at the engine's work budget, and the page says so in plain words.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage } from './browser.mjs';

const T = { timeout: 120_000 };

// The two settings reported to freeze the tab or exhaust memory, and the 2-CPU
// run that keeps the most writes (with a 0.55 ms busy loop, not the calibrated
// 2.5 ms: about 1,700 writes a second, so it reaches the kept-writes budget).
const HEAVY = [
  '#/case/fifo-trigger?loop_iters=1&syscall_scale=10&duration=120s',
  '#/case/fifo-trigger?listener_nice=19&writer_nice=19&loop_iters=17350&duration=120s&v=drain-fix',
  '#/case/fifo-trigger?loop_ps=550&duration=120s&v=2cpu',
];

// The sparse dump's worst setting (vm.max_map_count's 65,530 mappings, 10,000
// spread pages, 128 TiB): the trace stops at the storage budget, the figures
// cover the whole dump.
const STORED = [
  '#/case/sparse-dump?vmas=65530&touched=10000&touch_pattern=spread&size=128TiB&sigkill_at=0',
];

describe('work budget', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  for (const hash of HEAVY) {
    test(`${hash} opens and says where it stopped`, T, async () => {
      await withPage(suite.browser, 'budget', async ({ page, consoleErrors, pageErrors }) => {
        await page.goto(suite.url(hash));
        await waitForApp(page);
        const limit = page.getByTestId('run-limit');
        await limit.waitFor({ timeout: 60_000 });
        const text = await limit.innerText();
        assert.match(text, /Stopped after .* of simulated time/);
        assert.match(text, /The figures cover the first/);
        // The page still answers: the transport steps.
        const before = await page.getByTestId('step-index').innerText();
        await page.keyboard.press('ArrowRight');
        await page.waitForFunction(
          (old) => document.querySelector('[data-testid="step-index"]')?.textContent !== old,
          before,
        );
        assert.deepEqual(consoleErrors, []);
        assert.deepEqual(pageErrors, []);
      });
    });
  }

  for (const hash of STORED) {
    test(`${hash} opens and says where the trace stops`, T, async () => {
      await withPage(suite.browser, 'budget', async ({ page, consoleErrors, pageErrors }) => {
        await page.goto(suite.url(hash));
        await waitForApp(page);
        const limit = page.getByTestId('run-limit');
        await limit.waitFor({ timeout: 60_000 });
        const text = await limit.innerText();
        assert.match(text, /The trace stops after .* micro-ops/);
        assert.match(text, /the figures cover the whole run/);
        assert.deepEqual(consoleErrors, []);
        assert.deepEqual(pageErrors, []);
      });
    });
  }
});
