// The Lab's page: a workload typed with an error shows it at its line, fixed it runs;
// every preset runs and steps to its key moment with the stage on the first screen;
// a link carries the workload byte-exactly (unicode comments, the longest text), and
// refuses a longer one in words; two kernels compare; the presenter view and the
// embed open it.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { goBelowTheFirstScreen, startSuite, waitForApp, withPage } from './browser.mjs';

const T = { timeout: 300_000 };
const RUN_MS = 60_000;
/** The Lab's text limit in bytes (`TEXT_BYTES_MAX`): the page says it as "4,096". */
const TEXT_BYTES_MAX = 4096;
const SLACK = 1;

/** Replaces the editor's text as typing would (an input event). */
async function setText(page, text) {
  await page.getByTestId('lab-text').fill(text);
}

/** Runs the editor's text (Ctrl+Enter) and waits until its run is on the stage. */
async function runIt(page) {
  await page.getByTestId('lab-text').press('Control+Enter');
  await page.waitForFunction(
    () => /on the stage/.test(document.querySelector('[data-testid="lab-status"]')?.textContent ?? ''),
    null,
    { timeout: RUN_MS },
  );
  await page.waitForFunction(() => !document.querySelector('[data-testid="run-progress"]'), null, { timeout: RUN_MS });
}

describe('the Lab', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('#/lab opens the editor beside the stage; an error is shown at its line, then fixed and run', T, async () => {
    await withPage(suite.browser, 'lab-error', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/lab'));
      await waitForApp(page, { below: false });
      await page.getByTestId('lab-editor').waitFor();
      const workload = ['kernel rr quantum=5ms', 'mutex M', 'task a', '  lock M2', '  run 3ms', '  unlock M', ''].join('\n');
      await setText(page, workload);
      const errors = page.getByTestId('lab-errors');
      await errors.waitFor();
      const listed = await errors.innerText();
      assert.match(listed, /line 4, column \d+: unknown resource M2/, listed);
      // The quoted text is code, drawn as such rather than with the engine's backticks.
      assert.equal(await errors.locator('code', { hasText: /^M2$/ }).count(), 1);
      // Line 6 is wrong too, as a consequence: `unlock M` gives back what the task never took.
      assert.match(listed, /line 6, column \d+: M is not held/, listed);
      assert.deepEqual(
        await page.locator('.lab-gutter .lab-error-line').allInnerTexts(),
        ['4\n', '6\n'],
        'the gutter marks lines 4 and 6',
      );
      assert.equal(await page.getByTestId('lab-text').getAttribute('aria-invalid'), 'true');
      // Run with an error runs nothing: the caret goes to the error instead.
      const before = await page.evaluate(() => location.hash);
      await page.getByTestId('lab-run').click();
      const caret = await page.evaluate(() => {
        const area = document.querySelector('#lab-workload');
        return { focused: document.activeElement === area, line: area.value.slice(0, area.selectionStart).split('\n').length };
      });
      assert.deepEqual(caret, { focused: true, line: 4 }, 'the caret at the first error');
      assert.equal(await page.evaluate(() => location.hash), before, 'no run, no new link');
      // Fixed, it runs, and the link carries it.
      await setText(page, workload.replace('M2', 'M'));
      await errors.waitFor({ state: 'detached' });
      await runIt(page);
      assert.match(await page.evaluate(() => location.hash), /workload\.z=[A-Za-z0-9_-]+/);
      assert.deepEqual(await page.locator('[data-testid="world-stage"] .world-task-name').allInnerTexts(), ['a']);
      assert.deepEqual([consoleErrors, pageErrors], [[], []]);
    });
  });

  test('every preset runs, steps to its key moment, and keeps the stage on the first screen (1280 × 800)', T, async () => {
    await withPage(suite.browser, 'lab-presets', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/lab'));
      await waitForApp(page, { below: false });
      const presets = await page
        .getByTestId('lab-preset')
        .evaluate((select) => [...select.options].map((option) => option.value).filter(Boolean));
      assert.ok(presets.length >= 8, `at least eight presets: ${presets}`);
      const lengths = [];
      for (const id of presets) {
        await page.getByTestId('lab-preset').selectOption(id);
        await page.getByTestId('lab-preset-card').waitFor();
        assert.match(await page.getByTestId('lab-preset-card').innerText(), /Predict: .+\?/, id);
        await runIt(page);
        lengths.push(`${id} ${(await page.evaluate(() => location.href.split('#')[1].length)) + 1}`);
        // Escape leaves the text for the Run button: the player's keys step again.
        await page.getByTestId('lab-text').press('Escape');
        assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'lab-run', id);
        await page.evaluate(() => window.scrollTo(0, 0));
        // A new workload's run opens at its start.
        const start = await page.evaluate(() => location.hash.match(/step=[^&]*/)?.[0] ?? 'start');
        assert.equal(start, 'start', `${id}: the run opens at its start`);
        await page.keyboard.press('n');
        await page.waitForFunction((start) => (location.hash.match(/step=[^&]*/)?.[0] ?? 'start') !== start, start);
        // Every run draws its run queue: O(1)'s arrays, EEVDF's deadlines, 2.4's goodness,
        // a textbook policy's queue in the order the policy takes it.
        const text = await page.getByTestId('lab-text').inputValue();
        assert.equal(await page.getByTestId('lab-structure').count(), 1, `${id}: the run queue`);
        const structure = await page.getByTestId('lab-structure').innerText();
        if (/^kernel o1\b/m.test(text)) assert.match(structure, /active array/, id);
        if (/^kernel eevdf\b/m.test(text)) assert.match(structure, /virtual deadline/, id);
        if (/^kernel rr\b/m.test(text)) assert.match(structure, /round robin: the head is next/, id);
        if (/^kernel (fifo|sjf|stcf)\b/m.test(text)) assert.match(structure, /The policy.s run queue/, id);
        const shown = await page.evaluate(() => {
          const rect = (selector) => document.querySelector(selector)?.getBoundingClientRect();
          return { stage: rect('[data-testid="world-stage"]'), editor: rect('[data-testid="lab-editor"]'), height: window.innerHeight, width: window.innerWidth };
        });
        for (const part of ['stage', 'editor']) {
          assert.ok(shown[part], `${id}: the ${part} is drawn`);
          assert.ok(shown[part].top >= -SLACK && shown[part].top < shown.height, `${id}: the ${part} starts on the first screen: ${JSON.stringify(shown)}`);
          assert.ok(shown[part].right <= shown.width + SLACK, `${id}: the ${part} within the width`);
        }
      }
      console.log(`each preset's link after Run, its hash in characters: ${lengths.join(', ')}`);
      assert.deepEqual([consoleErrors, pageErrors], [[], []]);
    });
  });

  test('a pipe shows its page slots and its sleepers; a read that frees no slot wakes the writer for nothing', T, async () => {
    await withPage(suite.browser, 'lab-pipe', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/lab'));
      await waitForApp(page, { below: false });
      const workload = [
        'kernel fifo', 'pipe P 8KiB',
        'task writer', '  send P 8KiB', '  send P 4KiB',
        'task reader', '  recv P 1KiB', '  sleep 1ms', '  recv P 8KiB', '  recv P 4KiB', '',
      ].join('\n');
      await setText(page, workload);
      await runIt(page);
      await page.getByTestId('lab-text').press('Escape');
      // Micro-steps until the writer, woken by a read that freed no slot, sleeps again.
      const narration = page.getByTestId('narration');
      for (let step = 0; step < 40 && !/runs again, but every page slot of pipe P \(2\)/.test(await narration.innerText()); step += 1) {
        await page.keyboard.press('ArrowRight');
      }
      assert.match(await narration.innerText(), /writer runs again, but every page slot of pipe P \(2\) is still in use/);
      const pipe = await page.getByTestId('lab-pipe').innerText();
      assert.match(pipe, /P: 2 of 2 page slots in use, 7,168 bytes/, pipe);
      assert.match(pipe, /Writers asleep \(wr_wait\): writer/, pipe);
      assert.match(pipe, /Readers asleep \(rd_wait\): none/, pipe);
      assert.equal(await page.locator('[data-testid="lab-pipe"] .lab-slot.in-use').count(), 2);
      assert.deepEqual([consoleErrors, pageErrors], [[], []]);
    });
  });

  test('the figures per task come in the workload\'s order, each task shown as it is at the step', T, async () => {
    await withPage(suite.browser, 'lab-figures', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/lab'));
      await waitForApp(page, { below: false });
      const workload = ['kernel rr quantum=10ms', 'cpus 1', 'until 200ms', 'task t x 12', '  run 5ms', 'task a', '  run 1ms', ''];
      await setText(page, workload.join('\n'));
      await runIt(page);
      await page.getByTestId('lab-text').press('Escape');
      await goBelowTheFirstScreen(page);
      const table = page.getByTestId('lab-task-table');
      await table.scrollIntoViewIfNeeded();
      // The declared order, not the metrics' alphabetical one (t1, t10, t11, t12, t2, …).
      const names = await table.locator('tbody th').allInnerTexts();
      assert.deepEqual(names, [...Array.from({ length: 12 }, (_, k) => `t${k + 1}`), 'a']);
      // Stepping on, the row of the task on the CPU is marked and says so with its CPU so far.
      const running = table.locator('tbody tr.lab-row-running');
      for (let step = 0; step < 20 && (await running.count()) === 0; step += 1) {
        await page.keyboard.press('ArrowRight');
      }
      assert.equal(await running.count(), 1, 'one task on the one CPU');
      assert.match(await running.locator('td.lab-now').innerText(), /^running \((user|kernel)\) · \d/);
      const cpu = await page.locator('.world-cpu-task').first().innerText();
      assert.equal(await running.locator('th').innerText(), cpu, 'the marked row is the task on CPU 0');
      assert.deepEqual([consoleErrors, pageErrors], [[], []]);
    });
  });

  test('stepping by iteration, the narration lists or counts every micro-op of the step', T, async () => {
    await withPage(suite.browser, 'lab-narration-count', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/lab'));
      await waitForApp(page, { below: false });
      await page.getByTestId('lab-preset').selectOption('editor-and-hogs');
      await runIt(page);
      await page.getByTestId('lab-text').press('Escape');
      const narration = page.getByTestId('narration');
      const microOp = async () => Number((await narration.innerText()).match(/micro-op ([\d,]+)/)[1].replace(/,/g, ''));
      await page.keyboard.press('ArrowRight');
      let last = await microOp();
      let counted = 0;
      for (let step = 0; step < 30; step += 1) {
        await page.keyboard.press('ArrowRight');
        const now = await microOp();
        const listed = await narration.locator('.narration-steps > li:not(.narration-hidden)').count();
        const hiddenText = (await narration.locator('[data-testid="narration-hidden"]').count())
          ? await narration.getByTestId('narration-hidden').innerText()
          : '… 0 earlier';
        const hidden = Number(hiddenText.match(/… ([\d,]+) earlier/)[1].replace(/,/g, ''));
        assert.equal(Math.max(listed, 1) + hidden, now - last, `the step to micro-op ${now}: ${listed} listed, ${hidden} counted`);
        counted += hidden;
        last = now;
      }
      assert.ok(counted > 0, 'some step had more micro-ops than the panel lists');
      assert.deepEqual([consoleErrors, pageErrors], [[], []]);
    });
  });

  test('a link carries the workload byte-exactly, unicode comments and the longest text included', T, async () => {
    // Comments in several scripts, a right-to-left mark and an emoji, padded to the
    // limit in bytes (not characters) with comment lines.
    const head = '# Ünïcödé: 中文, עברית, 😀 \u200f\nkernel sjf\njob A at=0 length=30ms\njob B at=10ms length=5ms\n';
    let text = head;
    while (new TextEncoder().encode(text).length + 40 <= TEXT_BYTES_MAX) text += `# ${'ж'.repeat(18)}\n`;
    while (new TextEncoder().encode(text).length < TEXT_BYTES_MAX) text += '#';
    assert.equal(new TextEncoder().encode(text).length, TEXT_BYTES_MAX);
    let link;
    await withPage(suite.browser, 'lab-link', async ({ page }) => {
      await page.goto(suite.url('#/lab'));
      await waitForApp(page, { below: false });
      await setText(page, text);
      await runIt(page);
      link = page.url();
      const hash = link.length - link.indexOf('#');
      console.log(`the longest workload (${TEXT_BYTES_MAX} bytes, unicode comments): its link's hash is ${hash} characters`);
      assert.ok(hash < 8000, `the longest workload's link is ${hash} characters`);
      // One byte more is refused in words, before any run.
      await setText(page, text + '#');
      assert.match(await page.getByTestId('lab-errors').innerText(), /4,097 bytes; the most is 4,096/);
    });
    await withPage(suite.browser, 'lab-link-reopened', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(link);
      await waitForApp(page, { below: false });
      assert.equal(await page.getByTestId('lab-text').inputValue(), text, 'the same bytes');
      assert.match(await page.getByTestId('lab-status').innerText(), /on the stage/);
      assert.deepEqual([consoleErrors, pageErrors], [[], []]);
    });
    await withPage(suite.browser, 'lab-link-damaged', async ({ page }) => {
      await page.goto(suite.url('#/lab?lv=6&workload.z=AAAA-not-deflate'));
      await waitForApp(page, { below: false });
      assert.match(await page.locator('body').innerText(), /workload in this link is unreadable/);
    });
  });

  test('two kernels side by side; the presenter view and the embed open the Lab', T, async () => {
    let link;
    await withPage(suite.browser, 'lab-compare', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/lab'));
      await waitForApp(page, { below: false });
      await page.getByTestId('lab-preset').selectOption('textbook-three-jobs');
      await runIt(page);
      link = page.url();
      await page.goto(`${link}&cmp=sjf`);
      await waitForApp(page, { below: false });
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="compare-side"]').length === 2, null, { timeout: RUN_MS });
      assert.equal(await page.getByTestId('lab-editor').count(), 1, 'one editor for both sides');
      // Each side says what runs on it: "As written" names the workload's own kernel.
      assert.deepEqual(await page.locator('.compare-stages .compare-caption').allInnerTexts(), ['As written: FIFO', 'SJF']);
      // Each side is read, not squinted at: its smallest text as drawn (zoom included).
      const smallest = await page.$$eval('[data-testid="compare-side"]', (sides) => Math.min(...sides.flatMap((side) => {
        const sizes = [];
        const walker = document.createTreeWalker(side, NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
          const element = walker.currentNode.parentElement;
          if (!walker.currentNode.textContent.trim() || element.getBoundingClientRect().width === 0) continue;
          let zoom = 1;
          for (let node = element; node; node = node.parentElement) zoom *= parseFloat(getComputedStyle(node).zoom || '1');
          sizes.push(parseFloat(getComputedStyle(element).fontSize) * zoom);
        }
        return sizes;
      })));
      console.log(`the Lab compared at 1280 × 800: smallest stage text ${smallest.toFixed(1)} px`);
      assert.ok(smallest >= 12, `the compared stages' smallest text is ${smallest.toFixed(1)} px`);
      assert.deepEqual([consoleErrors, pageErrors], [[], []]);
    });
    await withPage(suite.browser, 'lab-present', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(`${link}&present`);
      await waitForApp(page, { below: false });
      await page.locator('.player-present').waitFor();
      assert.equal(await page.getByTestId('lab-editor').count(), 1, 'the lecturer edits in the presenter view');
      assert.deepEqual([consoleErrors, pageErrors], [[], []]);
    });
    await withPage(suite.browser, 'lab-embed', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(`${link}&embed`);
      await waitForApp(page, { below: false });
      await page.getByTestId('world-stage').waitFor();
      assert.equal(await page.getByTestId('lab-editor').count(), 0, 'an embed shows the moment, not the editor');
      assert.deepEqual([consoleErrors, pageErrors], [[], []]);
    });
  });
});
