// Determinism where users run it: the trace the page's worker makes (wasm, in the
// browser) has the same hash as the native CLI's for the same link: every case's
// every variant at its defaults, the default variant at two other seeds, and each
// case's first worst setting (engine/benches/worst-settings.txt).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startSuite, waitForApp, withPage } from './browser.mjs';
import { REGISTRY } from './registry.mjs';

const repository = fileURLToPath(new URL('..', import.meta.url));

/** The runs to compare: `{ id, variant, seed, sets: [[key, value]] }`. */
function runs() {
  const list = [];
  for (const entry of REGISTRY) {
    for (const variant of entry.variants) list.push({ id: entry.id, variant: variant.id, seed: 1, sets: [] });
    for (const seed of [2, 3]) list.push({ id: entry.id, variant: entry.variants[0].id, seed, sets: [] });
  }
  const worst = readFileSync(`${repository}/engine/benches/worst-settings.txt`, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  for (const entry of REGISTRY) {
    const line = worst.find((candidate) => candidate.split(/\s+/)[0] === entry.id);
    if (!line) continue;
    const [id, variant, ...pairs] = line.split(/\s+/);
    // Values are percent-encoded there, as in a link (the Lab's workload has spaces and lines).
    const sets = pairs.map((pair) => {
      const at = pair.indexOf('=');
      return [pair.slice(0, at), decodeURIComponent(pair.slice(at + 1))];
    });
    list.push({ id, variant, seed: 1, sets });
  }
  return list;
}

/** The native trace hash of a run, from `slowpath-cli run … --json`. */
function nativeHash({ id, variant, seed, sets }) {
  const args = ['run', '--quiet', '--package', 'slowpath-cli', '--', 'run', id, '--variant', variant, '--seed', String(seed), '--json'];
  for (const [key, value] of sets) args.push('--set', `${key}=${value}`);
  const json = execFileSync('cargo', args, { cwd: repository, encoding: 'utf8', maxBuffer: 1 << 30 });
  const hash = JSON.parse(json).trace_hash;
  return typeof hash === 'number' ? hash.toString(16).padStart(16, '0') : String(hash);
}

describe('determinism in the browser', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('the worker makes the native trace for every variant, two other seeds and a worst setting', { timeout: 900_000 }, async () => {
    const list = runs();
    assert.ok(list.length > 3 * REGISTRY.length);
    for (const run of list) {
      const query = [`v=${encodeURIComponent(run.variant)}`, `seed=${run.seed}`, ...run.sets.map(([key, value]) => `${key}=${encodeURIComponent(value)}`)];
      const name = `${run.id} ${run.variant} seed ${run.seed} ${run.sets.map((pair) => pair.join('=')).join(' ').replace(/\n/g, '⏎')}`;
      // A page of its own for each run: a hash change would show the previous hash a moment.
      await withPage(suite.browser, `determinism-${run.id}`, async ({ page, pageErrors }) => {
        await page.goto(suite.url(`#/case/${run.id}?${query.join('&')}`));
        await waitForApp(page);
        const shown = page.getByTestId('trace-hash');
        await shown.waitFor({ timeout: 120_000 });
        assert.equal(await shown.innerText(), nativeHash(run), name);
        assert.deepEqual(pageErrors, [], name);
      });
    }
    console.log(`determinism: ${list.length} runs, wasm = native`);
  });
});
