// gVisor's thread-group scan: a link in the middle of a scan reopens with the
// cursor on the same task and the same visited count under the read lock; a
// link at the shared-SignalHandlers deadlock shows the wait-for cycle.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage, waitForText } from './browser.mjs';

const T = { timeout: 90_000 };

// Tick k's scan starts at op 1 + (k − 1) × 16,391 (wake, RLock, 16,388 visits,
// RUnlock); visit v is op 1 + v after that. Tick 3,000, visit 8,192:
const MID_SCAN = 1 + 2999 * 16391 + 1 + 8192;

describe('gvisor thread groups', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('a link in the middle of a scan shows the cursor and the visited count', T, async () => {
    await withPage(suite.browser, 'gvisor-mid-scan', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url(`#/case/gvisor-threadgroups?step=micro:${MID_SCAN}`));
      await waitForApp(page);
      await page.getByTestId('gv-visited').waitFor();
      assert.match(await page.getByTestId('gv-visited').innerText(), /visited 8,192 of 16,388 tasks/);
      assert.match(await page.getByTestId('gv-cursor').innerText(), /tid 8,192/);
      assert.match(await page.getByTestId('gv-lock').innerText(), /cpu-clock ticker \(read\)/);
      assert.match(await page.getByTestId('narration').innerText(), /Visit tid 8,192/);
      await page.getByTestId('step-forward').click();
      await waitForText(page.getByTestId('gv-visited'), /visited 8,193 of 16,388/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('after the fix the cursor touches only thread-group leaders, listed in tgids', T, async () => {
    await withPage(suite.browser, 'gvisor-tgids', async ({ page, consoleErrors, pageErrors }) => {
      // 64 processes of 64 threads and 4 sidecars: 68 tgids entries, 71 ops per scan;
      // tick 100's scan starts at op 1 + 99 × 71, its 38th visit is 1 + 38 ops later.
      const op = 1 + 99 * 71 + 1 + 38;
      await page.goto(suite.url(`#/case/gvisor-threadgroups?v=tgids&processes=64&threads_per_process=64&step=micro:${op}`));
      await waitForApp(page);
      await page.getByTestId('gv-visited').waitFor();
      assert.match(await page.getByTestId('gv-visited').innerText(), /visited 38 of 68 thread groups \(tgids\)/);
      // Thread group 38's leader: tid 37 × 64 + 1.
      assert.match(await page.getByTestId('gv-cursor').innerText(), /tid 2,369/);
      assert.match(await page.getByTestId('gv-tgids').innerText(), /tgids: 68 entries/);
      assert.match(await page.getByTestId('narration').innerText(), /tgids entry 38 of 68/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('the job-control variant opens at the freeze: the clone, the ticker and the watchdog queue', T, async () => {
    await withPage(suite.browser, 'gvisor-job-control', async ({ page, consoleErrors, pageErrors }) => {
      // Seed 1's job-control run ends with five ops (engine test
      // job_control_senders_in_different_map_orders_freeze_the_sandbox): the deadlock,
      // the clone queuing, the ticker queuing (micro-op 196,708,417), the watchdog's turn
      // and its report.
      const tickerQueues = 196708417;
      await page.goto(suite.url(`#/case/gvisor-threadgroups?v=job-control&seed=1&step=micro:${tickerQueues}`));
      await waitForApp(page);
      await page.getByTestId('gv-freeze').waitFor();
      assert.match(await page.getByTestId('narration').innerText(), /CPU clock stops/);
      const freeze = await page.getByTestId('gv-freeze').innerText();
      assert.match(freeze, /clone \(writer\) \(write\) → cpu-clock ticker \(read\)/);
      assert.match(await page.getByTestId('gv-clock-stopped').innerText(), /CPU clock has stopped/);
      assert.match(await page.getByTestId('gv-watchdog').innerText(), /will log its own goroutine stuck/);
      assert.match(await page.getByTestId('gv-deadlock').innerText(), /sender 1 waits for SignalHandlers\.mu.*sender 2 waits for/s);
      await page.getByTestId('step-forward').click();
      await page.getByTestId('step-forward').click();
      await waitForText(page.getByTestId('gv-watchdog'), /Watchdog goroutine is stuck/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('a link to the deadlock shows the wait-for cycle', T, async () => {
    await withPage(suite.browser, 'gvisor-deadlock', async ({ page, consoleErrors, pageErrors }) => {
      // With shared_sighand the deadlock op is micro-op 196,708,406: 12,000 scans of
      // 16,391 ops, the clone's window, runsc ps, then the senders (the first one's
      // Kernel.Pause, the second one queued at k.extMu inside Pause), the next to last op
      // (engine test a_shared_signal_handlers_deadlocks_before_the_fix_only finds it by kind).
      await page.goto(suite.url('#/case/gvisor-threadgroups?shared_sighand=on&step=micro:196708406'));
      await waitForApp(page);
      await page.getByTestId('gv-deadlock').waitFor();
      assert.match(await page.getByTestId('narration').innerText(), /wait-for graph finds a cycle/);
      const cycle = await page.getByTestId('gv-deadlock').innerText();
      assert.match(cycle, /simulator's view/);
      assert.match(cycle, /sender 1 waits for SignalHandlers\.mu/);
      await page.getByTestId('step-back').click();
      assert.equal(await page.getByTestId('gv-deadlock').count(), 0, 'no cycle before the deadlock is found');
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });
});
