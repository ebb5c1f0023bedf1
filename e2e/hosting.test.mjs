// Hosting: dist/ served with the headers the README's Hosting section gives for
// nginx (read from the README itself, so the two cannot drift): the page runs, its
// policy is the <meta> one plus frame-ancestors, and the engine's worker, which a
// <meta> policy cannot reach, refuses eval. The probe is a string given to
// setTimeout: code evaluated by the test itself (DevTools) is exempt from a policy,
// a string the worker's own timer evaluates is not. Without the header the same
// probe runs in the worker: the <meta> policy does not reach it.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchBrowser, openPage, serveDist, waitForApp } from './browser.mjs';

const repository = fileURLToPath(new URL('..', import.meta.url));

/** The nginx block of the README: each location's pattern and its headers. */
function nginxHeaders() {
  const readme = readFileSync(`${repository}/README.md`, 'utf8');
  const block = readme.match(/```nginx\n([\s\S]*?)```/)?.[1];
  assert.ok(block, 'the README gives an nginx block');
  const locations = [];
  for (const line of block.split('\n')) {
    const location = line.match(/^location (~ )?(\S+) \{/);
    if (location) locations.push({ pattern: location[1] ? new RegExp(location[2]) : null, headers: {} });
    const header = line.match(/add_header (\S+) "(.*)" always;/);
    if (header) locations.at(-1).headers[header[1].toLowerCase()] = header[2];
  }
  return locations;
}

describe('hosting with the README headers', () => {
  let server;
  let browser;
  const locations = nginxHeaders();
  before(async () => {
    // nginx picks a matching regex location over the prefix `/`.
    const headersFor = (path) => (locations.find((l) => l.pattern?.test(path)) ?? locations.find((l) => !l.pattern)).headers;
    server = await serveDist(headersFor);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

/** Whether code in a string still runs in the page's engine worker. */
async function workerEvaluatesStrings(page) {
  await page.getByTestId('player').waitFor();
  const [worker] = page.workers();
  assert.ok(worker, 'the engine runs in a worker');
  return worker.evaluate(
    () =>
      new Promise((done) => {
        self.slowpathProbe = false;
        try {
          setTimeout('self.slowpathProbe = true', 0);
        } catch {
          done(false);
        }
        setTimeout(() => done(self.slowpathProbe), 100);
      }),
  );
}

  test('the page runs under its header policy and the worker refuses eval', { timeout: 90_000 }, async () => {
    const pagePolicy = locations.find((l) => !l.pattern).headers['content-security-policy'];
    const workerPolicy = locations.find((l) => l.pattern).headers['content-security-policy'];
    assert.match(pagePolicy, /frame-ancestors /);
    assert.match(workerPolicy, /default-src 'none'/);
    const { page, context, pageErrors } = await openPage(browser);
    try {
      await page.goto(`${server.url}#/case/rwsem-playground`);
      await waitForApp(page);
      const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
      assert.equal(pagePolicy.replace(/; frame-ancestors [^;]*$/, ''), meta, 'the header policy is the <meta> one plus frame-ancestors');
      assert.equal(await workerEvaluatesStrings(page), false, 'the worker refuses code in strings');
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });

  test('without the headers the <meta> policy does not reach the worker (the probe works)', { timeout: 90_000 }, async () => {
    const bare = await serveDist();
    const { page, context } = await openPage(browser);
    try {
      await page.goto(`${bare.url}#/case/rwsem-playground`);
      await waitForApp(page);
      assert.equal(await workerEvaluatesStrings(page), true);
    } finally {
      await context.close();
      await bare.close();
    }
  });
});
