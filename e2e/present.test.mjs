// The presenter view: entered and left with `v`, a projector theme with large
// narration, the pointer hidden when idle, fullscreen with `f`, and a QR code
// (toggled with `q`) that decodes to the student's link of the same moment.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import jsQR from 'jsqr';
import { startSuite, waitForApp, withPage } from './browser.mjs';

const T = { timeout: 90_000 };

/** Decodes the QR code drawn by the page's SVG, via a canvas, with jsQR. */
async function decodeQr(page) {
  const pixels = await page.evaluate(async () => {
    const svg = document.querySelector('[data-testid="qr"] svg');
    const markup = new XMLSerializer().serializeToString(svg);
    const image = new Image();
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`;
    await image.decode();
    const size = 400;
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const context = canvas.getContext('2d');
    context.fillStyle = '#fff';
    context.fillRect(0, 0, size, size);
    context.drawImage(image, 0, 0, size, size);
    return { size, data: Array.from(context.getImageData(0, 0, size, size).data) };
  });
  const code = jsQR(Uint8ClampedArray.from(pixels.data), pixels.size, pixels.size);
  assert.ok(code, 'the QR code decodes');
  return code.data;
}

describe('presenter view', () => {
  let suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite?.close();
  });

  test('v enters it; the QR code is the student link; q, f, the idle pointer; v leaves', T, async () => {
    await withPage(
      suite.browser,
      'present',
      async ({ page, consoleErrors, pageErrors }) => {
        await page.goto(suite.url('#/case/sparse-dump?step=iter:3'));
        await waitForApp(page);
        await page.getByTestId('player').waitFor();
        await page.keyboard.press('v');
        await page.locator('.player-present').waitFor();
        assert.match(await page.evaluate(() => location.hash), /[?&]present(&|$)/);
        assert.equal(await page.locator('.site-header').count(), 0, 'no site header on the projector');
        const size = await page.getByTestId('narration').evaluate((node) => parseFloat(getComputedStyle(node).fontSize));
        assert.ok(size >= 28, `narration at ${size} px`);
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        assert.equal(background, 'rgb(255, 255, 255)', 'the projector theme is light whatever the OS scheme');

        // The QR code is this moment's link as a student opens it: no presenter flag.
        const decoded = await decodeQr(page);
        assert.equal(decoded, suite.url('#/case/sparse-dump?step=iter:3'));
        await page.keyboard.press('q');
        assert.equal(await page.getByTestId('qr').count(), 0, 'q hides the QR code');
        await page.keyboard.press('q');
        await page.getByTestId('qr').waitFor();

        // Stepping moves the QR code's link along.
        await page.keyboard.press('ArrowRight');
        await page.waitForFunction(() => location.hash.includes('step=iter:4'));
        assert.equal(await decodeQr(page), suite.url('#/case/sparse-dump?step=iter:4'));

        // The pointer hides after a moment without a move and comes back with one.
        await page.mouse.move(200, 200);
        await page.waitForSelector('.player-present.pointer-idle', { timeout: 10_000 });
        await page.mouse.move(300, 300);
        assert.equal(await page.locator('.player-present.pointer-idle').count(), 0);

        await page.keyboard.press('f');
        await page.waitForFunction(() => document.fullscreenElement !== null);
        await page.keyboard.press('f');
        await page.waitForFunction(() => document.fullscreenElement === null);

        await page.keyboard.press('v');
        await page.locator('.site-header').waitFor();
        assert.doesNotMatch(await page.evaluate(() => location.hash), /present/);
        assert.deepEqual(consoleErrors, []);
        assert.deepEqual(pageErrors, []);
      },
      { viewport: { width: 1920, height: 1080 }, colorScheme: 'dark' },
    );
  });
});
