// Exports: the player's "Open in Perfetto" saves the run as Trace Event JSON named
// after the case, variant and position; the file parses, names every task's thread,
// and is byte-identical when saved again from the same link. The SVG and CSV
// buttons save their files too, a case's chart saves as SVG, and a stage canvas
// saves as PNG at twice its size; plots made of many runs save as SVG and CSV.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { startSuite, waitForApp, withPage } from './browser.mjs';

const T = { timeout: 90_000 };
// `micro:40` is op 40 (0-based) last executed: position 41, which names the files.
const LINK = '#/case/rwsem-playground?step=micro:40';

/** Clicks `testId` (inside `scope`, the page unless given) and returns the saved file's name and text. */
async function save(page, testId, scope = page) {
  const [download] = await Promise.all([page.waitForEvent('download'), scope.getByTestId(testId).click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') };
}

describe('exports', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('Open in Perfetto saves a deterministic trace with thread names', T, async () => {
    let first;
    await withPage(suite.browser, 'export-perfetto', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url(LINK));
      await waitForApp(page);
      first = await save(page, 'export-perfetto');
      assert.equal(first.name, 'rwsem-playground-v6.13-41.json');
      const trace = JSON.parse(first.text);
      assert.equal(trace.otherData.case, 'rwsem-playground');
      const threads = trace.traceEvents.filter((event) => event.ph === 'M' && event.name === 'thread_name');
      const names = threads.filter((event) => event.pid === 1).map((event) => event.args.name);
      assert.ok(names.includes('W0') && names.includes('R0'), `task threads named: ${names}`);
      assert.ok(trace.traceEvents.some((event) => event.ph === 'X' && event.pid === 1), 'state slices');
      assert.match(await page.getByTestId('export-status').innerText(), /ui\.perfetto\.dev/);

      const svg = await save(page, 'export-svg');
      assert.equal(svg.name, 'rwsem-playground-v6.13-41.svg');
      assert.match(svg.text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      const csv = await save(page, 'export-csv');
      assert.equal(csv.name, 'rwsem-playground-v6.13-41.csv');
      assert.match(csv.text, /^metric,value,unit\ncase,rwsem-playground,\n/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
    await withPage(suite.browser, 'export-perfetto-again', async ({ page }) => {
      await page.goto(suite.url(LINK));
      await waitForApp(page);
      const again = await save(page, 'export-perfetto');
      assert.equal(again.name, first.name);
      assert.ok(again.text === first.text, 'the same link saves a byte-identical file');
    });
  });

  test('the timeline SVG marks the moment and uses the page\'s colours; the CSV names threads', T, async () => {
    await withPage(suite.browser, 'export-svg-colours', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/case/coredump-threads?lv=5&step=iter:400'));
      await waitForApp(page);
      await page.getByTestId('export-svg').waitFor();
      const svg = await save(page, 'export-svg');
      const time = await page.getByTestId('sim-time').innerText();
      assert.ok(svg.text.includes(`this moment: ${time}<`), `the moment ${time} is marked`);
      // Each state's swatch in the legend has the fill the page's timeline draws it with
      // (its light theme, the one a slide is printed in).
      const legend = [...svg.text.matchAll(/<rect [^>]*fill="(#[0-9a-f]{6})"[^>]*\/><text [^>]*>([^<]+)<\/text>/g)];
      assert.ok(legend.length >= 8, `${legend.length} legend swatches`);
      await page.locator('.timeline').first().waitFor();
      const page_colours = await page.locator('.timeline').first().evaluate((timeline) => {
        const style = getComputedStyle(timeline);
        const hex = (value) => {
          const probe = document.createElement('span');
          probe.style.color = value;
          document.body.append(probe);
          const [r, g, b] = getComputedStyle(probe).color.match(/\d+/g).map(Number);
          probe.remove();
          return `#${[r, g, b].map((n) => n.toString(16).padStart(2, '0')).join('')}`;
        };
        const names = ['new', 'user', 'kernel', 'spinning', 'runnable', 'sleeping', 'blocked', 'stopped', 'exiting', 'dead'];
        return Object.fromEntries(names.map((name) => [name, hex(style.getPropertyValue(`--tl-${name}`).trim())]));
      });
      const legend_colours = legend.map(([, fill]) => fill);
      for (const fill of legend_colours) {
        assert.ok(Object.values(page_colours).includes(fill), `${fill} is one of the page's ${JSON.stringify(page_colours)}`);
      }
      assert.equal(new Set(legend_colours).size, legend_colours.length, 'a colour per state');
      // The figures' CSV names each thread, as the stage does.
      const csv = await save(page, 'export-csv');
      assert.match(csv.text, /\nper_thread\.main\.sys_ns,\d+,ns\n/);
      assert.match(csv.text, /\nper_thread\.T3\.user_ns,\d+,ns\n/);
      assert.doesNotMatch(csv.text, /\nper_thread\.\d/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    }, { colorScheme: 'light', bypassCSP: true });
  });

  test('a stage canvas saves as a PNG at twice its CSS size', T, async () => {
    await withPage(suite.browser, 'export-png', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/case/gvisor-threadgroups'));
      await waitForApp(page);
      const canvas = page.locator('[data-testid="case-stage"] canvas').first();
      const cssWidth = await canvas.evaluate((element) => element.clientWidth);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-png').click()]);
      assert.match(download.suggestedFilename(), /^gvisor-threadgroups-before-0-canvas1\.png$/);
      const png = await readFile(await download.path());
      assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
      assert.equal(png.readUInt32BE(16), cssWidth * 2, 'the PNG is twice the canvas CSS width');
      // Afterwards the canvas is back at the screen's ratio (1 in this browser).
      await page.waitForFunction((width) => document.querySelector('[data-testid="case-stage"] canvas').width === width, cssWidth);
      assert.match(await page.getByTestId('export-status').innerText(), /at twice its size/);
      const chart = await save(page, 'export-chart-scaling');
      assert.equal(chart.name, 'gvisor-threadgroups-before-0-scaling.svg');
      assert.match(chart.text, /<text[^>]*>threads \(log scale\)<\/text>/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('plots made of many runs save as SVG and CSV: the coredump scaling plot, the sparse one, the FIFO sweep', { timeout: 180_000 }, async () => {
    await withPage(suite.browser, 'export-plots', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/case/coredump-threads'));
      await waitForApp(page);
      await page.getByTestId('cdt-scaling-run').click();
      const scaling = page.getByTestId('cdt-scaling');
      await scaling.getByTestId('plot-export-svg').waitFor({ timeout: 60_000 });
      const svg = await save(page, 'plot-export-svg', scaling);
      assert.match(svg.name, /^coredump-threads-2\.6\.14-rc2-\d+-scaling\.svg$/);
      assert.match(svg.text, /signal to the last thread gone \(log scale\)/);
      const csv = await save(page, 'plot-export-csv', scaling);
      assert.match(csv.text, /^series,x,x_unit,y,y_unit\n/);
      assert.match(csv.text, /\nmeasured on 6\.[^,]+,20,count,\d+,ns\n/);
      // The page shows the same drawing: the engine's chart, axis words and all.
      assert.match(await scaling.getByTestId('cdt-scaling-chart').textContent(), /signal to the last thread gone \(log scale\)/);

      // A fresh document per case (by about:blank: a hash change would keep the last page's
      // plot runs queued, and another case's module reloads the page itself).
      await page.goto('about:blank');
      await page.goto(suite.url('#/case/sparse-dump'));
      await waitForApp(page);
      const plot = page.getByTestId('scaling-plot');
      await plot.getByTestId('plot-export-csv').waitFor({ timeout: 60_000 });
      const sparse = await save(page, 'plot-export-csv', plot);
      assert.match(sparse.name, /^sparse-dump-.*-scaling\.csv$/);
      assert.match(sparse.text, /,1099511627776,bytes,\d+,ns\n/);

      await page.goto('about:blank');
      await page.goto(suite.url('#/case/fifo-trigger'));
      await waitForApp(page);
      await page.getByTestId('sweep-run').click();
      const sweep = page.getByTestId('fifo-sweep');
      await sweep.getByTestId('plot-export-csv').waitFor({ timeout: 120_000 });
      const table = await save(page, 'plot-export-csv', sweep);
      assert.match(table.text, /^loop_iters,fast_writes_between_bursts,writes_over_1ms\n1000,/);
      const chart = await save(page, 'plot-export-svg', sweep);
      assert.match(chart.text, /iterations of the listener's busy loop/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });
});
