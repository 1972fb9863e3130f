// A citation on a rotated page (issue 43 item 3): tests/fixtures/rotated-page.pdf is a real corpus
// page (J&J's 8-K, Exhibit 99.1) stored on its side — content drawn sideways on a landscape MediaBox,
// /Rotate 90 — as scanned and generated reports store turned pages (`tests/fixtures/rotated-page.sh`
// makes it). The viewer must show it upright, as the report prints it, with the cited box outlined
// over the cited words and brought into view: the same checks as the layout test in
// access.test.mjs, plus a comparison of the shown image with the unrotated page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startAll, openApp, connect, row, ROOT, ARTIFACTS } from './harness.mjs';

const KEY = 'sk-test-e2e-rotated';
const NAME = 'rotated-page.pdf';
const QUESTION = 'What is the amount of the cash proceeds that JnJ realised from the separation of Kenvue?';
let env;
before(async () => { env = await startAll(['--require-key', KEY]); });
after(async () => { await env?.stop(); });

test('a citation on a page stored with /Rotate 90 shows the page upright with the cited box outlined in view', async (t) => {
  const { site, mock, context } = env;
  const { page, errors } = await openApp(context, site.url);
  await page.setViewportSize({ width: 1440, height: 900 });
  await connect(page, mock.base, KEY);
  const buffer = await readFile(join(ROOT, 'tests/fixtures', NAME));
  await page.getByLabel('Add PDFs', { exact: true }).setInputFiles({ name: NAME, mimeType: 'application/pdf', buffer });
  await page.waitForSelector(`${row(NAME)} .status.ready`, { timeout: 90000 });
  await page.getByRole('textbox', { name: 'Question' }).fill(QUESTION);
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await page.waitForSelector('#answer .answer-text .citation', { timeout: 120000 });
  assert.match(await page.textContent('#answer'), /13\.2/, 'the answer is read from the rotated page');

  await page.locator('#answer .answer-text .citation').first().click();
  await page.waitForFunction(() => {
    const img = document.querySelector('#page-image');
    return img && img.complete && img.naturalWidth > 0 && document.querySelector('.cited-box');
  }, null, { timeout: 60000 });
  await page.waitForTimeout(500);

  // Upright: the page as shown is portrait (its MediaBox is landscape: drawn without /Rotate it
  // would lie on its side), and it looks like the unrotated page — compared in grey at the
  // reference's size, against the same image turned upside down as the control.
  const reference = 'data:image/png;base64,' + (await readFile(join(ROOT, 'tests/fixtures/rotated-page-upright.png'))).toString('base64');
  const look = await page.evaluate(async (ref) => {
    const img = document.getElementById('page-image');
    const r = new Image();
    r.src = ref;
    await r.decode();
    const grey = (source, w, h, turn) => {
      const c = document.createElement('canvas');
      c.width = w; c.height = h;
      const g = c.getContext('2d');
      g.fillStyle = '#fff'; g.fillRect(0, 0, w, h);
      g.imageSmoothingQuality = 'high';
      if (turn) { g.translate(w, h); g.rotate(Math.PI); }
      g.drawImage(source, 0, 0, w, h);
      const d = g.getImageData(0, 0, w, h).data;
      // Ink per 5 × 5 block: the page's layout (text lines, paragraphs, margins), not its glyphs,
      // which two renderers draw differently at this size.
      const out = [];
      for (let by = 0; by + 5 <= h; by += 5) {
        for (let bx = 0; bx + 5 <= w; bx += 5) {
          let sum = 0;
          for (let y = by; y < by + 5; y++) for (let x = bx; x < bx + 5; x++) { const i = 4 * (y * w + x); sum += 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2]; }
          out.push(sum / 25);
        }
      }
      return out;
    };
    const corr = (a, b) => {
      const n = a.length, ma = a.reduce((s, x) => s + x, 0) / n, mb = b.reduce((s, x) => s + x, 0) / n;
      let ab = 0, aa = 0, bb = 0;
      for (let i = 0; i < n; i++) { ab += (a[i] - ma) * (b[i] - mb); aa += (a[i] - ma) ** 2; bb += (b[i] - mb) ** 2; }
      return ab / Math.sqrt(aa * bb);
    };
    const [w, h] = [r.naturalWidth, r.naturalHeight];
    const want = grey(r, w, h, false);
    return {
      natural: { w: img.naturalWidth, h: img.naturalHeight },
      upright: corr(grey(img, w, h, false), want),
      upsideDown: corr(grey(img, w, h, true), want),
    };
  }, reference);
  t.diagnostic(`image ${look.natural.w}×${look.natural.h}; correlation with the upright page ${look.upright.toFixed(3)}, upside down ${look.upsideDown.toFixed(3)}`);
  assert.ok(look.natural.h > look.natural.w * 1.3, `the page is shown portrait, as printed: ${JSON.stringify(look.natural)}`);
  assert.ok(look.upright > 0.6 && look.upright > look.upsideDown + 0.2, `the page image is the page upright: ${JSON.stringify(look)}`);

  // The cited box is outlined over the cited words, zoomed and in view inside the page frame.
  const zoom = parseFloat(await page.textContent('.zoom-level'));
  const geo = await page.evaluate(() => {
    const frame = document.getElementById('page-scroll').getBoundingClientRect();
    const img = document.getElementById('page-image').getBoundingClientRect();
    const boxes = [...document.querySelectorAll('.cited-box')].map((b) => b.getBoundingClientRect());
    const u = boxes.reduce((a, b) => ({ l: Math.min(a.l, b.left), t: Math.min(a.t, b.top), r: Math.max(a.r, b.right), b: Math.max(a.b, b.bottom) }), { l: 1e9, t: 1e9, r: -1e9, b: -1e9 });
    const outline = getComputedStyle(document.querySelector('.cited-box'));
    return {
      frame: { l: frame.left, t: frame.top, r: frame.right, b: frame.bottom, w: frame.width, h: frame.height },
      u,
      // The box as fractions of the page image: where on the page it stands.
      rel: { t: (u.t - img.top) / img.height, b: (u.b - img.top) / img.height, l: (u.l - img.left) / img.width, r: (u.r - img.left) / img.width },
      drawn: outline.borderStyle !== 'none' || outline.outlineStyle !== 'none',
    };
  });
  t.diagnostic(`zoom ${zoom}%; cited box on the page ${JSON.stringify(geo.rel)}`);
  assert.ok(geo.drawn, 'the cited box is outlined');
  const inside = geo.u.l >= geo.frame.l - 8 && geo.u.t >= geo.frame.t - 8 && geo.u.r <= geo.frame.r + 8 && geo.u.b <= geo.frame.b + 8;
  assert.ok(inside, `the cited region is in view: ${JSON.stringify(geo)}`);
  const share = Math.max((geo.u.r - geo.u.l) / geo.frame.w, (geo.u.b - geo.u.t) / geo.frame.h);
  assert.ok(share >= 0.3 || zoom >= 400, `the cited region fills a good part of the viewer (${share.toFixed(2)} at ${zoom}%)`);
  // The cash-proceeds bullet stands in the upper third of the printed page, across its width.
  assert.ok(geo.rel.t > 0.05 && geo.rel.b < 0.45 && geo.rel.r - geo.rel.l > 0.3, `the box sits where the cited words are printed: ${JSON.stringify(geo.rel)}`);
  await page.screenshot({ path: join(ARTIFACTS, 'rotated-page-citation.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
