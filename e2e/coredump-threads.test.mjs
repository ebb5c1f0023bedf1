// The core-dump-threads stage: a link at the dumper's yield() reopens with
// main parked in the expired array and the narration saying why it cannot run;
// the thread cards, siglock's counters and the time line are drawn; on two CPUs
// siglock has a holder and a spinner; today's run draws its CPUs, not O(1) arrays.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage } from './browser.mjs';

const T = { timeout: 120_000 };

async function openCase(page, url) {
  await page.goto(url);
  await waitForApp(page);
  await page.getByTestId('cdt-stage').waitFor();
}

describe('coredump threads', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('a link at the dumper\'s yield() shows main in the expired array and says why', T, async () => {
    let link;
    let expected;
    await withPage(suite.browser, 'cdt-yield', async ({ page, consoleErrors, pageErrors }) => {
      await openCase(page, suite.url('#/case/coredump-threads'));
      // Next notable event until the yield: the swaps while main creates threads,
      // the signal, the preemption, the dequeue, then the yield.
      for (let k = 0; k < 40; k++) {
        await page.keyboard.press('n');
        await page.waitForTimeout(50);
        if (/yield\(\)/.test(await page.getByTestId('narration').innerText())) break;
      }
      const narration = await page.getByTestId('narration').innerText();
      assert.match(narration, /EXPIRED array/);
      assert.match(narration, /cannot run again until the active array is empty/);
      expected = { index: await page.getByTestId('step-index').innerText(), narration };
      link = await page.getByTestId('share-url').inputValue();
      assert.match(link, /#\/case\/coredump-threads\?.*step=/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
    await withPage(suite.browser, 'cdt-yield-open', async ({ page, consoleErrors, pageErrors }) => {
      await openCase(page, link);
      assert.equal(await page.getByTestId('narration').innerText(), expected.narration);
      assert.equal(await page.getByTestId('step-index').innerText(), expected.index);
      assert.match(await page.getByTestId('rq-expired').innerText(), /main/);
      assert.doesNotMatch(await page.getByTestId('rq-active').innerText(), /\bmain\b/);
      assert.ok(await page.getByTestId('cdt-parked').isVisible(), 'the parked callout is shown');
      assert.match(await page.getByTestId('cdt-mmap').innerText(), /held for writing by main/);
      // 21 threads counted; the one running at the signal had main's priority, was not
      // preempted and really stopped, so 20 or 21 remain, never 0 (nothing resets it).
      assert.ok(Number(await page.getByTestId('cdt-group-stop').innerText()) >= 20);
      assert.match(await page.getByTestId('cdt-time').innerText(), /0m13\.690s/);
      assert.equal(await page.locator('[data-testid="cdt-threads"] .cdt-card').count(), 21);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('a link at the first SIGXCPU shows the blocked dumper in the mmap_sem queue and says why', T, async () => {
    let link;
    let expected;
    await withPage(suite.browser, 'cdt-xcpu', async ({ page, consoleErrors, pageErrors }) => {
      await openCase(page, suite.url('#/case/coredump-threads'));
      // Key moment by key moment: the signal, the yield, each slice that keeps the
      // dumper waiting, the first SIGXCPU, then its dumper asleep on mmap_sem.
      for (let k = 0; k < 200; k++) {
        await page.keyboard.press('n');
        await page.waitForTimeout(50);
        if (/sleeps on mmap_sem/.test(await page.getByTestId('narration').innerText())) break;
      }
      const narration = await page.getByTestId('narration').innerText();
      assert.match(narration, /sleeps on mmap_sem and leaves the run queue/);
      assert.match(narration, /holds mmap_sem for writing across its yield\(\)/);
      assert.match(narration, /nr_running \d+ → \d+/);
      assert.match(narration, /starvation deadline moves 1(\.0)? s earlier/);
      expected = { index: await page.getByTestId('step-index').innerText(), narration };
      link = await page.getByTestId('share-url').inputValue();
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
    await withPage(suite.browser, 'cdt-xcpu-open', async ({ page, consoleErrors, pageErrors }) => {
      await openCase(page, link);
      assert.equal(await page.getByTestId('narration').innerText(), expected.narration);
      assert.equal(await page.getByTestId('step-index').innerText(), expected.index);
      const queue = await page.getByTestId('cdt-mmap-queue').innerText();
      assert.match(queue, /T\d+ 5\.0\d* s: SIGXCPU/);
      assert.match(await page.getByTestId('cdt-mmap').innerText(), /do_coredump's down_write/);
      assert.match(await page.getByTestId('cdt-mmap-holder').innerText(), /held for writing by main/);
      assert.match(await page.getByTestId('cdt-sigxcpu-sent').innerText(), /^1$/);
      assert.match(await page.getByTestId('cdt-starvation').innerText(), /fires at/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('on two CPUs the stall shows siglock held on one CPU and a spinner queued on the other', T, async () => {
    await withPage(suite.browser, 'cdt-smp', async ({ page, consoleErrors, pageErrors }) => {
      await openCase(page, suite.url('#/case/coredump-threads?cpus=2'));
      for (let k = 0; k < 60; k++) {
        await page.keyboard.press('n');
        await page.waitForTimeout(50);
        if (/yield\(\)/.test(await page.getByTestId('narration').innerText())) break;
      }
      assert.match(await page.getByTestId('narration').innerText(), /EXPIRED array/);
      // Step on into the stall until a CPU spins on siglock while the other holds it.
      let spinners = 0;
      for (let k = 0; k < 80 && spinners === 0; k++) {
        await page.keyboard.press('ArrowRight');
        await page.waitForTimeout(30);
        spinners = Number(await page.getByTestId('cdt-spinners').innerText());
      }
      assert.equal(spinners, 1, 'one CPU spins on siglock');
      assert.match(await page.getByTestId('cdt-siglock-holder').innerText(), /\(CPU [01]\)/);
      assert.match(await page.getByTestId('cdt-siglock').innerText(), /spinning for/);
      assert.ok(await page.getByTestId('cdt-runqueue-cpu1').isVisible(), 'a run queue per CPU');
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('today\'s run draws who runs on each CPU, not the O(1) arrays it does not have', T, async () => {
    await withPage(suite.browser, 'cdt-today', async ({ page, consoleErrors, pageErrors }) => {
      await openCase(page, suite.url('#/case/coredump-threads?v=today'));
      await page.keyboard.press('n');
      const cpus = page.getByTestId('cdt-cpus-today');
      await cpus.waitFor();
      assert.match(await cpus.innerText(), /CPU 0: /);
      assert.match(await page.getByTestId('cdt-today-counts').innerText(), /waiting for a CPU: \d+/);
      // The spinning threads' wait is the model's, named as a choice, with its figures.
      assert.match(await cpus.innerText(), /Model choice: .* spinning threads? .* slice of [\d.]+ ms/);
      assert.equal(await page.getByTestId('cdt-runqueue').count(), 0, 'no O(1) run queue today');
      assert.match(await page.getByTestId('cdt-mmap').innerText(), /mm->mmap_lock/);
      assert.doesNotMatch(await page.getByTestId('cdt-stage').innerText(), /TASK_INTERACTIVE|loop turns/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('the scaling plot draws today\'s measured deaths beside every variant\'s curve', T, async () => {
    await withPage(suite.browser, 'cdt-scaling', async ({ page, consoleErrors, pageErrors }) => {
      await openCase(page, suite.url('#/case/coredump-threads'));
      await page.getByTestId('cdt-scaling-run').click();
      // One CPU, spinning threads, SIGQUIT with ulimit -c 0: measured at N = 20 and 100.
      // The page draws the engine's chart, the one "Save as SVG" writes.
      const measured = page.getByTestId('cdt-scaling-chart').locator('g.series.measured circle');
      await measured.nth(1).waitFor({ timeout: 60_000 });
      assert.equal(await measured.count(), 2);
      assert.match(await page.getByTestId('cdt-scaling-chart').textContent(), /measured on 6\.\d+/);
      assert.match(await page.getByTestId('cdt-scaling-measured-row').innerText(), /\d ms/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });
});
