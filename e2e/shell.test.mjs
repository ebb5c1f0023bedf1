// The app shell: landing page, navigation, deep links, friendly error pages.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { goBelowTheFirstScreen, startSuite, waitForApp, withPage } from './browser.mjs';
import { LISTED_IDS } from './registry.mjs';

const T = { timeout: 60_000 };

describe('app shell', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('landing page renders the name, the pitch and every case, without errors', T, async () => {
    await withPage(suite.browser, 'landing', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/'));
      await waitForApp(page);
      await assert.doesNotReject(page.locator('h1', { hasText: 'slowpath' }).waitFor());
      assert.match(await page.title(), /slowpath/);
      assert.match(await page.locator('.hero-pitch').innerText(), /deterministic/i);

      const cards = page.getByTestId('case-card');
      const ids = await cards.evaluateAll((nodes) => nodes.map((node) => node.dataset.caseId));
      assert.ok(ids.length >= 1, 'at least one case is listed');
      // Exactly the registry's cases, in its order.
      assert.deepEqual(ids, LISTED_IDS);
      for (const id of ids) {
        const card = page.locator(`[data-case-id="${id}"]`);
        assert.equal(await card.getByRole('link').getAttribute('href'), `#/case/${id}`);
        assert.match(await card.locator('.badge').innerText(), /^\d{4}$/, 'a year');
        assert.ok((await card.locator('.case-card-summary').innerText()).length > 10, 'a summary');
        assert.match(await card.getByTestId('headline').innerText(), /\d/, 'a headline figure from a run');
      }

      for (const name of ['banner', 'navigation', 'main', 'contentinfo']) {
        assert.ok(await page.getByRole(name).first().isVisible(), `landmark ${name}`);
      }
      assert.match(await page.getByRole('contentinfo').innerText(), /MIT/);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('every link and button has an accessible name', T, async () => {
    await withPage(suite.browser, 'accessible-names', async ({ page }) => {
      await page.goto(suite.url('#/'));
      await waitForApp(page);
      const unnamed = await page.locator('a, button').evaluateAll((nodes) =>
        nodes
          .filter((node) => {
            const text = (node.textContent || '').trim();
            const label = node.getAttribute('aria-label') || '';
            const alt = [...node.querySelectorAll('img[alt]')].map((img) => img.alt).join('');
            return !(text || label || alt);
          })
          .map((node) => node.outerHTML),
      );
      assert.deepEqual(unnamed, []);
    });
  });

  test('the About link in the navigation opens the About page, and Back returns', T, async () => {
    await withPage(suite.browser, 'about-via-nav', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/'));
      await waitForApp(page);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).click();
      await page.getByRole('heading', { level: 1, name: 'About slowpath' }).waitFor();
      assert.ok(page.url().endsWith('#/about'));
      assert.equal(
        await page.getByRole('link', { name: 'About' }).first().getAttribute('aria-current'),
        'page',
      );
      assert.match(await page.title(), /About/);

      await page.goBack();
      await page.locator('h1', { hasText: 'slowpath' }).waitFor();
      assert.ok(await page.getByTestId('case-card').first().isVisible());
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('a deep link to #/about works in a fresh page and links the four reports', T, async () => {
    await withPage(suite.browser, 'about-deep-link', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/about'));
      await waitForApp(page);
      await page.getByRole('heading', { level: 1, name: 'About slowpath' }).waitFor();
      const about = page.getByTestId('about-page');
      const text = await about.innerText();
      for (const phrase of ['WebAssembly', 'MIT', 'Kerrisk', 'Tavian Barnes', 'Guzik', 'qmail', 'gVisor']) {
        assert.ok(text.includes(phrase), `About mentions ${phrase}`);
      }
      const hrefs = await about.locator('a').evaluateAll((nodes) => nodes.map((node) => node.href));
      assert.ok(
        hrefs.includes('https://github.com/google/gvisor/commit/4968dd1341a04e93557bdd9f4b4b83eb508e026d'),
      );
      assert.ok(hrefs.filter((href) => href.startsWith('https://lore.kernel.org/')).length >= 4);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('About links the notes of every case, each served as text from the site', T, async () => {
    await withPage(suite.browser, 'about-case-notes', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/about'));
      await waitForApp(page);
      const notes = page.getByTestId('case-notes').locator('a');
      const hrefs = await notes.evaluateAll((nodes) => nodes.map((node) => node.href));
      assert.deepEqual(hrefs.map((href) => href.split('/').pop()), LISTED_IDS.map((id) => `${id}.md`));
      for (const href of hrefs) {
        const response = await page.request.get(href);
        assert.equal(response.status(), 200, href);
        const text = await response.text();
        assert.ok(text.startsWith('# '), `${href} is a Markdown document`);
        assert.ok(!text.includes('../shared'), `${href} stands without ../shared`);
      }
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('a case page shows its title, the player, variants and parameter table', T, async () => {
    await withPage(suite.browser, 'case-page', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/'));
      await waitForApp(page);
      const card = page.getByTestId('case-card').first();
      const id = await card.getAttribute('data-case-id');
      const title = await card.getByRole('link').innerText();
      await card.click(); // the whole card is a target
      await page.getByTestId('case-page').waitFor();
      assert.ok(page.url().endsWith(`#/case/${id}`));
      assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), title);
      await page.getByTestId('player').waitFor();
      // Below the player, built once the reader goes there (as a jump button does).
      await goBelowTheFirstScreen(page);
      await page.getByRole('heading', { name: 'Variants' }).waitFor();
      await page.getByRole('heading', { name: 'Sources' }).waitFor();
      const table = page.getByTestId('param-table');
      if (await table.count()) {
        const headers = await table.locator('thead th').allInnerTexts();
        assert.deepEqual(headers.map((h) => h.toLowerCase()), ['parameter', 'range', 'default', 'what it changes']);
        assert.ok((await table.locator('tbody tr').count()) >= 1);
      }
      assert.match(await page.title(), new RegExp(title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('an unknown case id shows "No such case" and lists the cases', T, async () => {
    await withPage(suite.browser, 'no-such-case', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/case/no-such-thing'));
      await waitForApp(page);
      const section = page.getByTestId('no-such-case');
      await section.waitFor();
      assert.match(await section.innerText(), /No such case/);
      assert.match(await section.innerText(), /no-such-thing/);
      assert.ok((await section.getByTestId('case-card').count()) >= 1);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('an unknown route shows a friendly not-found page with a link home', T, async () => {
    await withPage(suite.browser, 'not-found', async ({ page, consoleErrors, pageErrors }) => {
      await page.goto(suite.url('#/definitely/not/here'));
      await waitForApp(page);
      const section = page.getByTestId('not-found');
      await section.waitFor();
      assert.match(await section.innerText(), /Page not found/);
      assert.match(await section.innerText(), /#\/definitely\/not\/here/);
      await section.getByRole('link', { name: /home page/i }).click();
      await page.locator('h1', { hasText: 'slowpath' }).waitFor();
      assert.ok(page.url().endsWith('#/'));
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(pageErrors, []);
    });
  });

  test('light and dark themes follow prefers-color-scheme', T, async () => {
    const background = async (colorScheme) => {
      let value;
      await withPage(
        suite.browser,
        `theme-${colorScheme}`,
        async ({ page }) => {
          await page.goto(suite.url('#/'));
          await waitForApp(page);
          value = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        },
        { colorScheme },
      );
      return value;
    };
    const light = await background('light');
    const dark = await background('dark');
    assert.notEqual(light, dark);
    const luminance = (rgb) => rgb.match(/\d+/g).slice(0, 3).map(Number).reduce((a, b) => a + b, 0);
    assert.ok(luminance(light) > luminance(dark), `${light} is lighter than ${dark}`);
  });

  test('keyboard users get a skip link and a visible focus ring', T, async () => {
    await withPage(suite.browser, 'keyboard', async ({ page }) => {
      await page.goto(suite.url('#/'));
      await waitForApp(page);
      await page.keyboard.press('Tab');
      const focused = page.locator(':focus');
      assert.equal(await focused.innerText(), 'Skip to content');
      const outline = await focused.evaluate((node) => getComputedStyle(node).outlineStyle);
      assert.notEqual(outline, 'none');
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
    });
  });
});
