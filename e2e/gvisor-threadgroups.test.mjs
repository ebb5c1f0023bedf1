// gVisor's thread-group scan: a link in the middle of a scan reopens with the
// cursor on the same task and the same visited count under the read lock; a
// link at the shared-SignalHandlers deadlock shows the wait-for cycle.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage } from './browser.mjs';

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
      assert.match(await page.getByTestId('gv-visited').innerText(), /visited 8,193 of 16,388/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('a link to the deadlock shows the wait-for cycle', T, async () => {
    await withPage(suite.browser, 'gvisor-deadlock', async ({ page, consoleErrors, pageErrors }) => {
      // With shared_sighand the deadlock op is micro-op 196,708,406: 12,000 scans of
      // 16,391 ops, the clone's window, runsc ps, then the senders (engine test
      // a_shared_signal_handlers_deadlocks_before_the_fix_only finds it by kind).
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
