// Links are forever (issue 31): old links from app/tests/old_links.tsv open with the
// parameters they were made with (an untagged one offers its other reading as a
// link), a + in a variant is a plus, a percent-encoded case id opens its case, a
// step past any u64 opens at the end, a version 6 link whose step the model moved
// opens in its chapter, nothing hostile is echoed raw or whole, and the test doors
// are closed on any host but this machine.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, startSuite, waitForApp, withPage } from './browser.mjs';

const T = { timeout: 150_000 };
// Newlines separate the notices in innerText; any other control character is raw input.
const INVISIBLE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u200b-\u200d\u2060\ufeff]/;

/** The list's links with the state each opens as (`lv=<n>&…`), by link. */
async function oldLinks() {
  const text = await readFile(new URL('../app/tests/old_links.tsv', import.meta.url), 'utf8');
  const rows = text.split('\n').filter((line) => line.startsWith('#/')).map((line) => line.split('\t'));
  return new Map(rows.map(([link, version, today]) => [link, { version: Number(version), today }]));
}

describe('old links and hostile links', () => {
  let suite;
  let links;
  before(async () => {
    suite = await startSuite();
    links = await oldLinks();
  });
  after(async () => {
    await suite?.close();
  });

  test('an untagged link made when loop_ps was 550 offers that reading, and the offer opens it', T, async () => {
    const link = '#/case/fifo-trigger?duration=3s';
    const made = links.get(link);
    assert.ok(made, 'the link is in the list');
    await withPage(suite.browser, 'links-untagged', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url(link));
      await waitForApp(page);
      const notices = page.getByTestId('notices');
      assert.match(await notices.innerText(), /no version tag/);
      assert.equal(await page.getByTestId('param-loop_ps').inputValue(), '2500', 'read as the last untagged version');
      // The offer is written in today's version: the list's state after its `lv`.
      const state = made.today.replace(/^lv=\d+&/, '');
      const offer = notices.locator(`a[href^="#/case/fifo-trigger?lv="][href$="&${state}"]`);
      assert.equal(await offer.count(), 1, `the notice links to ${state}`);
      await offer.click();
      await page.waitForFunction(() => location.hash.includes('loop_ps=550'));
      await waitForApp(page);
      await page.waitForFunction(
        () => document.querySelector('[data-testid="param-loop_ps"]')?.value === '550',
      );
      assert.equal(await page.getByTestId('param-shell_slice').inputValue(), '102ms');
      assert.match(await page.evaluate(() => location.hash), /[?&]lv=7&/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('the old deadlock link still shows the deadlock', T, async () => {
    const link = '#/case/gvisor-threadgroups?shared_sighand=on&step=micro:196708406';
    assert.ok(links.has(link));
    await withPage(suite.browser, 'links-deadlock', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url(link));
      await waitForApp(page);
      await page.getByTestId('gv-deadlock').waitFor();
      assert.doesNotMatch(await page.locator('body').innerText(), /does not exist/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('a plus in a variant, a percent-encoded id and a step past any u64', T, async () => {
    await withPage(suite.browser, 'links-parsing', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/case/gvisor-threadgroups?lv=5&v=tgids+idle-stop&duration=1s'));
      await waitForApp(page);
      assert.equal(await page.getByTestId('notices').count(), 0, 'no notice: the variant exists');
      await page.waitForFunction(() => location.hash.includes('v=tgids%2Bidle-stop'));

      await page.goto(suite.url('#/case/%63oredump-threads?lv=5&threads=8'));
      await waitForApp(page);
      assert.equal(await page.getByTestId('no-such-case').count(), 0);
      assert.equal(await page.getByTestId('param-threads').inputValue(), '8');

      await page.goto(suite.url('#/case/sparse-dump?lv=5&step=micro:18446744073709551616'));
      await waitForApp(page);
      assert.match(await page.getByTestId('notices').innerText(), /micro:18446744073709551616.*the end/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('a version 6 link whose step no longer exists opens in its chapter, said in one line', T, async () => {
    await withPage(suite.browser, 'links-chapter', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/case/sparse-dump?lv=6&step=micro:9999999999&ch=sigkill-arrives:2of9'));
      await waitForApp(page);
      const lines = await page.getByTestId('notices').locator('li').allInnerTexts();
      const said = lines.filter((line) => /earlier model/.test(line));
      assert.equal(said.length, 1, `one line: ${lines.join(' | ')}`);
      assert.match(said[0], /step micro:9999999999 does not exist; the step shown is in the same chapter, “SIGKILL arrives”/);
      const current = page.getByTestId('chapters').locator('.chapter.current');
      assert.match(await current.innerText(), /SIGKILL arrives/);
      // The link written back is the step shown, with where it lies by chapter.
      await page.waitForFunction(() => /[?&]step=micro:\d+&ch=sigkill-arrives:\d+of\d+/.test(location.hash));
      assert.doesNotMatch(await page.evaluate(() => location.hash), /micro:9999999999/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('hostile input is escaped and cut on the page', T, async () => {
    await withPage(suite.browser, 'links-hostile', async ({ page, pageErrors }) => {
      await page.goto(suite.url('#/case/coredump-threads?lv=5&v=%1B%5B2J&seed=%00&threads=%E2%80%AEevil&cmp=a%E2%80%8Bb'));
      await waitForApp(page);
      const notices = await page.getByTestId('notices').innerText();
      assert.doesNotMatch(notices, INVISIBLE, notices);
      assert.match(notices, /\\u\{202e\}evil/);

      await page.goto(suite.url(`#/case/${'x'.repeat(10_000)}`));
      await page.getByTestId('no-such-case').waitFor();
      const text = await page.getByTestId('no-such-case').locator('code').innerText();
      assert.ok(text.length < 40, `the id is cut: ${text.length} characters`);

      await page.goto(suite.url(`#/${'y'.repeat(10_000)}\u202e`));
      await page.getByTestId('not-found').waitFor();
      const path = await page.getByTestId('not-found').locator('code').innerText();
      assert.ok(path.length < 40, `the path is cut: ${path.length} characters`);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('the test doors are closed on any host but this machine', T, async () => {
    const port = new URL(suite.baseUrl).port;
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP slowpath.example 127.0.0.1'],
      headless: true,
    });
    try {
      const page = await browser.newPage();
      for (const door of ['__crash', '__perf']) {
        await page.goto(`http://slowpath.example:${port}/#/${door}`);
        await page.getByTestId('not-found').waitFor();
        assert.equal(await page.getByTestId('panic-overlay').count(), 0, door);
      }
    } finally {
      await browser.close();
    }
  });
});
