// Embeds: a case framed in another page shows the transport and the stage only,
// plays, and links to the whole case; the share panel gives the iframe snippet.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitForApp, withPage } from './browser.mjs';
import { CASE_IDS } from './registry.mjs';

const T = { timeout: 90_000 };

describe('embed', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('the embed code frames the case, which plays and links back', T, async () => {
    let code;
    await withPage(suite.browser, 'embed-code', async ({ page }) => {
      await page.goto(suite.url('#/case/sparse-dump?step=iter:3'));
      await waitForApp(page);
      code = await page.getByTestId('embed-code').inputValue();
      assert.match(code, /^<iframe src="[^"]*#\/case\/sparse-dump\?lv=7&amp;step=iter:3&amp;ch=mmap-lock-is-taken-for-the-first-page:2of\d+&amp;embed" title="slowpath: /);
    });
    await withPage(suite.browser, 'embed-frame', async ({ page, pageErrors }) => {
      // Someone else's page: a paragraph of course notes and the snippet.
      await page.setContent(`<!doctype html><title>Course notes</title><p>Lecture 7.</p>${code}`);
      const frame = page.frameLocator('iframe');
      await frame.getByTestId('player').waitFor({ timeout: 60_000 });
      assert.equal(await frame.locator('.site-header, .site-footer').count(), 0, 'no site chrome');
      assert.equal(await frame.getByTestId('share-url').count(), 0, 'no share panel in an embed');
      const open = frame.getByTestId('open-full');
      assert.equal(await open.getAttribute('target'), '_blank');
      const href = await open.getAttribute('href');
      assert.match(href, /#\/case\/sparse-dump\?lv=7&step=iter:3&ch=mmap-lock-is-taken-for-the-first-page:2of\d+$/);
      const before = await frame.getByTestId('step-index').innerText();
      await frame.getByTestId('play').click();
      await page.waitForTimeout(1500);
      await frame.getByTestId('play').click();
      assert.notEqual(await frame.getByTestId('step-index').innerText(), before, 'it played');
      assert.deepEqual(pageErrors, []);
    });
  });

  /** What the embed shows of itself, measured inside the frame. */
  function measureEmbed(frame) {
    return frame.locator('body').evaluate(() => {
      const rect = (selector) => {
        const node = document.querySelector(selector);
        if (!node) return null;
        const { top, bottom, left, right } = node.getBoundingClientRect();
        return { top, bottom, left, right };
      };
      const stage = document.querySelector('.player-stage');
      return {
        width: window.innerWidth,
        height: window.innerHeight,
        pageWidth: document.documentElement.scrollWidth,
        stage: rect('.player-stage'),
        // A stage that scrolls in its own box cuts what is below its fold.
        stageCut: stage ? stage.scrollHeight > stage.clientHeight + 1 || stage.scrollWidth > stage.clientWidth + 1 : true,
        play: rect('[data-testid="play"]'),
        line: rect('[data-testid="embed-narration"]'),
        lineText: document.querySelector('[data-testid="embed-narration"]')?.textContent ?? '',
      };
    });
  }

  for (const id of CASE_IDS) {
    test(`${id}: at the snippet's size the embed shows the stage, the transport and one line of narration`, T, async () => {
      let code;
      await withPage(suite.browser, `embed-size-${id}`, async ({ page }) => {
        await page.goto(suite.url(`#/case/${id}?step=iter:3`));
        await waitForApp(page);
        code = await page.getByTestId('embed-code').inputValue();
      });
      const width = Number(code.match(/ width="(\d+)"/)[1]);
      const height = Number(code.match(/ height="(\d+)"/)[1]);
      for (const [name, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
        await withPage(suite.browser, `embed-size-${id}-${name}`, async ({ page }) => {
          await page.setContent(`<!doctype html><meta name="viewport" content="width=device-width"><title>Notes</title>${code}`);
          const frame = page.frameLocator('iframe');
          await frame.getByTestId('player').waitFor({ timeout: 60_000 });
          await frame.locator('[data-testid="player-loading"]').waitFor({ state: 'detached', timeout: 60_000 });
          await page.waitForTimeout(300);
          const m = await measureEmbed(frame);
          console.log(`${id} embed ${width}×${height} on ${name}: frame ${m.width}×${m.height}, page ${m.pageWidth} wide, stage ${m.stage && [Math.round(m.stage.top), Math.round(m.stage.bottom)]} cut ${m.stageCut}, play ${m.play && Math.round(m.play.bottom)}, line ${m.line && [Math.round(m.line.top), Math.round(m.line.bottom)]} "${m.lineText.slice(0, 60)}"`);
          assert.ok(m.pageWidth <= m.width, `no sideways scroll: ${m.pageWidth} > ${m.width}`);
          assert.ok(m.play && m.play.top >= 0 && m.play.bottom <= m.height, 'the transport is in the frame');
          assert.ok(m.line && m.line.top >= 0 && m.line.bottom <= m.height, 'the narration line is in the frame');
          assert.match(m.lineText, /\w/);
          // One sentence: the step's plain words, not its kernel detail.
          assert.ok(!/[.!?] \S/.test(m.lineText.trim()), `one sentence: "${m.lineText}"`);
          if (name === 'desktop') {
            assert.ok(m.stage && m.stage.top >= 0 && m.stage.bottom <= m.height, `the stage ends in the frame: ${m.stage?.bottom} > ${m.height}`);
            assert.ok(!m.stageCut, 'no stage card cut');
          }
        }, { viewport });
      }
    });
  }
});
