// The landing and About pages are drawn at build time into index.html (figures from
// the native engine); only the app's routes load the wasm. Here: a first visit to
// them fetches no app file, their figures are the ones the wasm makes, the boot
// script reads links as the app does, and leaving for a case and back works.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startSuite, waitForApp, withPage } from './browser.mjs';
import { LISTED_IDS, REPORTED_IDS } from './registry.mjs';

const T = { timeout: 180_000 };

// hash<TAB>page rows, shared with app/src/route.rs's tests.
const ROUTE_TABLE = readFileSync(new URL('../app/tests/static_routes.tsv', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line && !line.startsWith('# ') && line.includes('\t'))
  .map((line) => line.split('\t'));

/** The requests a page makes, by path. */
function recordRequests(page) {
  const paths = [];
  page.on('request', (request) => paths.push(new URL(request.url()).pathname));
  return paths;
}

const appFile = (path) => /\.wasm$|slowpath-app|start-[0-9a-f]+\.js|engine-worker|player-|timeline-|tour-|cases-/.test(path);

describe('static pages', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  for (const hash of ['#/', '#/about']) {
    test(`${hash} is drawn without any of the app's files`, T, async () => {
      await withPage(suite.browser, `static ${hash}`, async ({ page, consoleErrors, pageErrors }) => {
        const requested = recordRequests(page);
        await page.goto(suite.url(hash));
        await waitForApp(page);
        await page.waitForLoadState('networkidle');
        // The service worker's precache is another matter (fetched after load, in its own thread).
        const fromPage = requested.filter((path) => !path.endsWith('/sw.js'));
        assert.deepEqual(fromPage.filter(appFile), [], `requested: ${fromPage.join(' ')}`);
        assert.equal(await page.locator('[data-static-page]').count(), 1, 'only the page shown is in the document');
        assert.deepEqual([consoleErrors, pageErrors], [[], []]);
      });
    });
  }

  test('the cards carry the figures the wasm makes from the same default runs', T, async () => {
    await withPage(suite.browser, 'static figures', async ({ page }) => {
      await page.goto(suite.url('#/'));
      await waitForApp(page);
      const onCards = {};
      for (const id of LISTED_IDS) {
        const card = page.locator(`[data-case-id="${id}"]`);
        onCards[id] = (await card.getByTestId('headline').locator('strong').innerText()).trim();
        assert.match(onCards[id], /\d/, `${id}: a figure, drawn at build time`);
      }
      for (const id of REPORTED_IDS.filter((id) => LISTED_IDS.includes(id))) {
        await page.goto(suite.url(`#/case/${id}`));
        await waitForApp(page);
        const modelled = page.getByTestId('modelled-figure');
        await page.waitForFunction(
          () => document.querySelector('[data-testid="modelled-figure"]')?.getAttribute('aria-busy') !== 'true',
          null,
          { timeout: 90_000 },
        );
        assert.equal((await modelled.innerText()).trim(), onCards[id], `${id}: the wasm's figure`);
      }
    });
  });

  test('the boot script reads every link of the table as the app does', T, async () => {
    await withPage(suite.browser, 'static routes', async ({ page }) => {
      await page.goto(suite.url('#/'));
      await waitForApp(page);
      const read = await page.evaluate(
        (hashes) => hashes.map((hash) => window.slowpathBoot.staticPageOf(hash) ?? 'app'),
        ROUTE_TABLE.map(([hash]) => hash),
      );
      assert.deepEqual(read, ROUTE_TABLE.map(([, page]) => page));
    });
  });

  test('from the landing to a case, About and back: each page once, the title and the current link', T, async () => {
    await withPage(suite.browser, 'static navigation', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/'));
      await waitForApp(page);
      await page.locator(`[data-case-id="${LISTED_IDS[0]}"]`).getByRole('link').click();
      await waitForApp(page);
      await page.getByTestId('step-index').waitFor();
      assert.equal(await page.locator('#static-pages').count(), 0, 'the static pages leave while the app draws');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).click();
      await page.getByTestId('about-page').waitFor();
      assert.equal(await page.locator('main').count(), 1, 'one main');
      assert.match(await page.title(), /^About/);
      assert.equal(
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).getAttribute('aria-current'),
        'page',
      );
      await page.goBack();
      await page.getByTestId('step-index').waitFor();
      await page.goBack();
      await page.getByTestId('case-card').first().waitFor();
      assert.equal(await page.locator('main').count(), 1, 'one main');
      assert.equal(await page.getByTestId('case-card').count(), LISTED_IDS.length);
      assert.deepEqual([consoleErrors, pageErrors], [[], []]);
    });
  });
});
