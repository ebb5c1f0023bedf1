// Motion and stops: n stops inside a long stall (each slice that sends a thread back to
// the active array, each starving expiry) and at every slow write; the sparse dump's
// stage shows a lookup while playing, not a blank; the scrub bar scaled by simulated
// time keeps its chapter marks apart.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, waitForText, withPage } from './browser.mjs';
import { REPORTED_IDS } from './registry.mjs';

const T = { timeout: 180_000 };

/** Presses n until chapter `until` (1-based) is current; returns each stop's narration. */
async function walkTo(page, until) {
  const current = page.locator('.chapter[aria-current="step"]');
  const said = [];
  for (let press = 0; press < 400; press += 1) {
    const before = await page.getByTestId('narration').innerText();
    await page.keyboard.press('n');
    await page.waitForFunction(
      (previous) => document.querySelector('[data-testid="narration"]')?.innerText !== previous,
      before,
    );
    said.push(await page.getByTestId('narration').innerText());
    if (new RegExp(`^${until}\\. `).test((await current.innerText().catch(() => '')) || '')) return said;
  }
  assert.fail(`n never reached chapter ${until}`);
}

async function openAtChapter(page, url, chapter) {
  await page.goto(url);
  await waitForApp(page);
  await page.getByTestId('chapters').getByRole('button').nth(chapter - 1).click();
  await waitForText(page.locator('.chapter[aria-current="step"]'), new RegExp(`^${chapter}\\. `));
}

describe('motion and stops', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('coredump-threads: n stops at each slice of the stall and each starving expiry', T, async () => {
    await withPage(suite.browser, 'motion-coredump-stops', async ({ page, pageErrors }) => {
      // From the dumper's yield to the first SIGXCPU dumper: the slices that keep it waiting.
      await openAtChapter(page, suite.url('#/case/coredump-threads'), 2);
      const stall = await walkTo(page, 3);
      const backToActive = stall.filter((text) => /goes straight back into the active array/.test(text));
      assert.ok(backToActive.length >= 30, `${backToActive.length} slices back to the active array`);
      // From the starvation deadline to the swap: each thread leaving the active array.
      await openAtChapter(page, suite.url('#/case/coredump-threads'), 4);
      const starving = await walkTo(page, 5);
      const leaving = starving.filter((text) => /goes to the expired array/.test(text));
      assert.ok(leaving.length >= 5, `${leaving.length} starving expiries`);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('fifo-trigger: n stops at every slow write after the first', T, async () => {
    await withPage(suite.browser, 'motion-fifo-stops', async ({ page, pageErrors }) => {
      await openAtChapter(page, suite.url('#/case/fifo-trigger'), 2);
      const said = await walkTo(page, 3);
      const slow = said.filter((text) => /this write took/.test(text));
      assert.ok(slow.length >= 15, `${slow.length} slow writes after the first`);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('sparse-dump: while playing, the stage shows a lookup and the address advances', T, async () => {
    await withPage(suite.browser, 'motion-sparse-play', async ({ page, pageErrors }) => {
      await page.goto(suite.url('#/case/sparse-dump'));
      await waitForApp(page);
      await page.getByTestId('play').click();
      const samples = [];
      for (let i = 0; i < 25; i += 1) {
        await page.waitForTimeout(120);
        samples.push(
          await page.evaluate(() => ({
            address: document.querySelector('[data-testid="stage-address"] code')?.textContent ?? '',
            tree: document.querySelector('[data-testid="maple-tree"] figcaption')?.textContent ?? '',
            shaded: !!document.querySelector('.vma-done'),
          })),
        );
      }
      await page.getByTestId('play').click();
      const blank = samples.filter((s) => s.address === '—' || /No lookup in this step yet/.test(s.tree));
      assert.ok(blank.length <= 2, `${blank.length} of ${samples.length} frames blank: ${JSON.stringify(blank)}`);
      const addresses = new Set(samples.map((s) => s.address));
      assert.ok(addresses.size >= 3, `the address advances: ${[...addresses].join(', ')}`);
      assert.ok(samples.some((s) => s.shaded), 'the walked part of a mapping is shaded');
      assert.deepEqual(pageErrors, []);
    });
  });

  for (const id of REPORTED_IDS) {
    test(`${id}: the scrub bar by simulated time keeps its chapter marks apart`, T, async () => {
      await withPage(suite.browser, `motion-scrub-${id}`, async ({ page, pageErrors }) => {
        await page.goto(suite.url(`#/case/${id}`));
        await waitForApp(page);
        const marks = async () =>
          page.evaluate(() => {
            const bar = document.querySelector('[data-testid="scrub"]').getBoundingClientRect();
            return [...document.querySelectorAll('.chapter-mark')].map((mark) => {
              const box = mark.getBoundingClientRect();
              return (box.left + box.width / 2 - bar.left) / bar.width;
            });
          });
        const bySteps = await marks();
        await page.getByTestId('scrub-time-scale').check();
        await page.locator('.scrub[data-scale="time"]').waitFor();
        const byTime = await marks();
        const width = await page.getByTestId('scrub').evaluate((bar) => bar.getBoundingClientRect().width);
        const gaps = byTime.slice(1).map((at, i) => (at - byTime[i]) * width);
        assert.ok(Math.min(...gaps) > 12, `${id}: gaps ${gaps.map((g) => g.toFixed(0)).join(', ')} px`);
        if (id === 'fifo-trigger') {
          // The first preemption comes 2 s into a 10 s run, after a handful of steps.
          assert.ok(bySteps[0] < 0.05 && byTime[0] > 0.15, `first mark ${bySteps[0]} → ${byTime[0]}`);
        }
        // The keyboard still moves it, and it says where it is in time.
        const scrub = page.getByTestId('scrub');
        assert.match(await scrub.getAttribute('aria-valuetext'), / of /);
        const before = await page.getByTestId('sim-time').innerText();
        await scrub.focus();
        for (let i = 0; i < 50; i += 1) await page.keyboard.press('ArrowRight');
        await page.waitForFunction(
          (old) => document.querySelector('[data-testid="sim-time"]')?.textContent !== old,
          before,
        );
        assert.deepEqual(pageErrors, []);
      });
    });
  }
});
