// The FIFO trigger's stage: a shared link at the first wakeup preemption inside
// write() reopens with the callout and the writer on its write() line; the dt
// chart seeks; the reporter's grep panel shows this run's lines beside his; compare
// mode shows 2.4.24's dt chart beside 2.6.1's; the sweep runs on demand.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage } from './browser.mjs';

const T = { timeout: 90_000 };

async function openCase(page, url) {
  await page.goto(url);
  await waitForApp(page);
  await page.getByTestId('fifo-stage').waitFor();
}

/** The writer's highlighted pseudocode line, without its line number. */
async function writerLine(page) {
  const line = page.locator('[data-testid="fifo-writer"] .line.current');
  assert.equal(await line.count(), 1, 'exactly one current line in the writer');
  return (await line.innerText()).replace(/^\s*\d+\s*/, '');
}

describe('fifo trigger', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('a link to the first wakeup preemption reopens with the callout on the write() line', T, async () => {
    let link;
    let expected;
    await withPage(suite.browser, 'fifo-share', async ({ page, consoleErrors, pageErrors }) => {
      await openCase(page, suite.url('#/case/fifo-trigger'));
      await page.keyboard.press('n');
      await page.getByTestId('preempt-callout').waitFor();
      expected = {
        index: await page.getByTestId('step-index').innerText(),
        time: await page.getByTestId('sim-time').innerText(),
        narration: await page.getByTestId('narration').innerText(),
      };
      link = await page.getByTestId('share-url').inputValue();
      assert.match(link, /#\/case\/fifo-trigger\?.*step=/);
      assert.equal(new URL(link).hash, await page.evaluate(() => location.hash));
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
    await withPage(suite.browser, 'fifo-share-open', async ({ page, consoleErrors, pageErrors }) => {
      await openCase(page, link);
      const narration = await page.getByTestId('narration').innerText();
      assert.match(narration, /preempted on its way out of write\(\)/);
      assert.equal(narration, expected.narration);
      assert.equal(await page.getByTestId('step-index').innerText(), expected.index);
      assert.equal(await page.getByTestId('sim-time').innerText(), expected.time);
      assert.ok(await page.getByTestId('preempt-callout').isVisible(), 'the preemption callout is shown');
      assert.match(await page.getByTestId('preempt-callout').innerText(), /write\(\).*gettimeofday\(\)/s);
      assert.match(await writerLine(page), /write\(fd/);
      assert.match(await page.getByTestId('fifo-writer-state').innerText(), /runnable/);
      assert.match(await page.getByTestId('fifo-listener-state').innerText(), /running/);
      assert.match(await page.getByTestId('fifo-pipe').innerText(), /1 byte, never read/);
      assert.match(await page.getByTestId('fifo-runqueue').innerText(), /ACTIVE/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test("today's kernel: the first preemption inside write() is EEVDF's, and the stage shows lags, not priorities", T, async () => {
    await withPage(suite.browser, 'fifo-today', async ({ page, consoleErrors, pageErrors }) => {
      await openCase(page, suite.url('#/case/fifo-trigger?v=today'));
      assert.match(await page.getByTestId('fifo-stage').innerText(), /Linux 6\.18/);
      await page.keyboard.press('n');
      await page.getByTestId('preempt-callout').waitFor();
      assert.match(await page.getByTestId('narration').innerText(), /preempted on its way out of write\(\).*pick_eevdf/s);
      assert.match(await page.getByTestId('preempt-callout').innerText(), /write\(\).*clock_gettime\(\)/s);
      assert.match(await writerLine(page), /write\(fd/);
      const queue = await page.getByTestId('fifo-runqueue').innerText();
      assert.match(queue, /EEVDF/);
      assert.doesNotMatch(queue, /ACTIVE|EXPIRED/);
      assert.match(await page.getByTestId('fifo-listener').innerText(), /lag/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test("the reporter's grep panel shows this run's lines beside his, and the lines it hid on demand", T, async () => {
    await withPage(suite.browser, 'fifo-grep', async ({ page, consoleErrors, pageErrors }) => {
      await openCase(page, suite.url('#/case/fifo-trigger'));
      const panel = page.getByTestId('reported-output');
      await panel.scrollIntoViewIfNeeded();
      const table = page.getByTestId('grep-table');
      assert.equal(await table.locator('tbody tr').count(), 13, 'thirteen lines, his and ours');
      const first = await table.locator('tbody tr').first().innerText();
      assert.match(first, /dt = 302\.220000 ms/);
      assert.match(first, /dt = 30\d\.\d{6} ms \(write #[\d,]+\)/);
      assert.match(await page.getByTestId('unbroken-note').innerText(), /slow writes? in a row/);
      assert.equal(await page.getByTestId('grep-hidden').count(), 0, 'the hidden lines are not shown at first');
      await page.getByTestId('grep-toggle').click();
      assert.ok((await page.getByTestId('grep-hidden').count()) > 0, 'the toggle shows where grep hid fast lines');
      assert.match(await page.getByTestId('grep-hidden').first().innerText(), /[\d,]+ fast lines? hidden/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('a click on the dt chart moves to that write', T, async () => {
    await withPage(suite.browser, 'fifo-chart', async ({ page, consoleErrors, pageErrors }) => {
      await openCase(page, suite.url('#/case/fifo-trigger'));
      const chart = page.getByTestId('dt-chart');
      await chart.scrollIntoViewIfNeeded();
      const before = await page.getByTestId('step-index').innerText();
      const box = await chart.boundingBox();
      assert.ok(box && box.width > 100, 'the chart has a width');
      await chart.click({ position: { x: box.width * 0.6, y: box.height / 2 } });
      await page.waitForFunction(
        (old) => document.querySelector('[data-testid="step-index"]')?.textContent !== old,
        before,
      );
      const current = Number(await chart.getAttribute('data-current'));
      assert.ok(current > 1, `the chart marks a later write (${current})`);
      assert.match(await page.getByTestId('writer-output').innerText(), /dt = \d+\.\d{6} ms/);
      assert.match(await page.evaluate(() => location.hash), /step=/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('with the dt chart focused, arrow keys jump between slow writes', T, async () => {
    await withPage(suite.browser, 'fifo-chart-keys', async ({ page, consoleErrors, pageErrors }) => {
      await openCase(page, suite.url('#/case/fifo-trigger'));
      const chart = page.getByTestId('dt-chart');
      await chart.focus();
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => document.querySelector('[data-testid="dt-chart"]')?.dataset.current === '1');
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => Number(document.querySelector('[data-testid="dt-chart"]')?.dataset.current) > 1);
      const second = Number(await chart.getAttribute('data-current'));
      // Every write it lands on is a slow one: its line in the writer's output is red.
      await page.keyboard.press('ArrowLeft');
      await page.waitForFunction(() => document.querySelector('[data-testid="dt-chart"]')?.dataset.current === '1');
      assert.ok(second > 1, `the second slow write is write ${second}`);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('compare mode shows 2.4.24\'s writes and dt chart beside 2.6.1\'s', T, async () => {
    await withPage(suite.browser, 'fifo-compare', async ({ page, consoleErrors, pageErrors }) => {
      await openCase(page, suite.url('#/case/fifo-trigger'));
      await page.getByTestId('compare-with').selectOption('2.4.24');
      await page.waitForFunction(() => location.hash.includes('cmp=2.4.24'));
      // The other kernel's run comes from the engine's worker: wait for its charts.
      const wide = page.getByTestId('compare-wide');
      await wide.waitFor({ timeout: 30_000 });
      const charts = wide.getByTestId('dt-chart');
      assert.equal(await charts.count(), 2, 'a dt chart per side');
      const [left, right] = [await charts.nth(0).boundingBox(), await charts.nth(1).boundingBox()];
      // Each side's writes in a column of its own (the columns' heights differ with their outputs).
      assert.ok(right.x >= left.x + left.width, 'side by side, 2.4.24 on the right');
      for (const kernel of ['2.6.1', '2.4.24']) {
        const text = await wide.getByTestId(`summary-${kernel}`).innerText();
        assert.match(text, /writes\s+[\d,]+/);
        assert.match(text, /max dt/);
      }
      assert.equal(await page.getByTestId('model-note-2-4').count(), 1, 'the 2.4.24 note, on its side');
      await page.getByTestId('compare-with').selectOption('');
      await wide.waitFor({ state: 'detached' });
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('the sweep of print_cost runs on demand and sums up the fast runs', T, async () => {
    await withPage(suite.browser, 'fifo-sweep', async ({ page, consoleErrors, pageErrors }) => {
      await openCase(page, suite.url('#/case/fifo-trigger?duration=3s'));
      const sweep = page.getByTestId('fifo-sweep');
      await sweep.scrollIntoViewIfNeeded();
      assert.equal(await page.getByTestId('sweep-summary').count(), 0, 'nothing is computed on load');
      assert.equal(await page.getByTestId('sweep-canvas').count(), 0);
      await page.getByTestId('sweep-param').selectOption('print_cost');
      await page.getByTestId('sweep-run').click();
      const summary = page.getByTestId('sweep-summary');
      await summary.waitFor({ timeout: 60_000 });
      const text = await summary.innerText();
      assert.match(text, /per line, the fast runs between bursts go from [\d,]+ to [\d,]+ writes/);
      assert.match(text, /writes over 1 ms/);
      const canvas = page.getByTestId('sweep-canvas');
      assert.match(await canvas.getAttribute('aria-label'), /print_cost = 140 µs: [\d,]+ fast writes between bursts/);
      const box = await canvas.boundingBox();
      assert.ok(box && box.width > 100, 'the sweep canvas has a width');
      assert.match(await page.evaluate(() => location.hash), /duration=3s/, 'the sweep leaves the run alone');
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });
});
