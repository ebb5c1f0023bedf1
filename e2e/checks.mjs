// Checks several browser tests share: axe-core's violations and the presenter
// view's QR code, decoded.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import jsQR from 'jsqr';

const AXE = await readFile(new URL('../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

/** axe's violations on the page as it is now, one line each. */
export async function axeViolations(page) {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    // Every rule axe has up to WCAG AA, experimental ones and best practices included
    // (the label-in-name check is experimental); AAA's enhanced contrast is not asked for.
    const rules = window.axe.getRules().filter((rule) => !rule.tags.includes('wcag2aaa')).map((rule) => rule.ruleId);
    const run = await window.axe.run(document, { runOnly: { type: 'rule', values: rules } });
    return run.violations.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
  });
}

/** Decodes the QR code drawn by the page's SVG, via a canvas, with jsQR. */
export async function decodeQr(page) {
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

/** The smallest text on the stage as rendered (font size times every CSS zoom above
 * it), in px, with the text it belongs to. */
export async function smallestStageText(page) {
  return page.getByTestId('case-stage').evaluate((stage) => {
    let smallest = { px: Infinity, text: '' };
    const walker = document.createTreeWalker(stage, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const text = walker.currentNode.textContent.trim();
      const element = walker.currentNode.parentElement;
      const box = element.getBoundingClientRect();
      if (!text || box.width === 0 || box.height === 0) continue;
      let zoom = 1;
      for (let node = element; node; node = node.parentElement) zoom *= parseFloat(getComputedStyle(node).zoom || '1');
      const px = parseFloat(getComputedStyle(element).fontSize) * zoom;
      if (px < smallest.px) smallest = { px, text: text.slice(0, 40) };
    }
    return smallest;
  });
}
