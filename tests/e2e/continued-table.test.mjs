// Issue 6 deliverable 6: a cited table that continues on the next page. tests/fixtures/continued-table.pdf
// holds "Table 4. Revenue by segment" with its "2022 2021" header at the bottom of page 1 and more
// rows, headerless, at the top of page 2. Asking for a page-2 row cites page 2; the viewer says the
// table runs over pages 1–2 and takes the user to page 1 (where the header is) with that part boxed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startAll, openApp, connect, ROOT, ARTIFACTS } from './harness.mjs';

const KEY = 'sk-test-continued-0123456789';
let env;
before(async () => { env = await startAll(['--require-key', KEY]); });
after(async () => { await env?.stop(); });

/** The shown page's cited boxes, as fractions of the page image. */
async function boxes(page) {
  await page.waitForFunction(() => {
    const img = document.querySelector('#page-image');
    return img && img.complete && img.naturalWidth > 0;
  }, null, { timeout: 60000 });
  return page.evaluate(() => {
    const img = document.querySelector('#page-image').getBoundingClientRect();
    return [...document.querySelectorAll('#viewer .cited-box')].map((b) => {
      const r = b.getBoundingClientRect();
      return { top: (r.top - img.top) / img.height, bottom: (r.bottom - img.top) / img.height };
    });
  });
}

test('a citation into a table that continues on the next page leads to its other part', async () => {
  const { site, mock, context } = env;
  const { page, errors } = await openApp(context, site.url);
  await page.setViewportSize({ width: 1280, height: 800 });
  await connect(page, mock.base, KEY);
  const buffer = await readFile(join(ROOT, 'tests/fixtures/continued-table.pdf'));
  await page.getByLabel('Add PDFs', { exact: true }).setInputFiles({ name: 'continued-table.pdf', mimeType: 'application/pdf', buffer });
  await page.waitForSelector('.doc[data-name="continued-table.pdf"] .status.ready', { timeout: 60000 });
  await page.getByRole('textbox', { name: 'Question' }).fill('What was Wound Care revenue in 2022?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  const answer = page.getByRole('region', { name: 'Answer' });
  await answer.waitFor({ timeout: 120000 });
  assert.match(await answer.textContent(), /2,735/, 'the 2022 value from the row on page 2');

  // The citation is the row on page 2.
  const citation = page.locator('#answer .citation', { hasText: 'p.2]' }).first();
  await citation.click();
  const viewer = page.getByRole('region', { name: 'Page viewer' });
  await viewer.locator('#viewer-page', { hasText: 'page 2' }).waitFor();
  const onTwo = await boxes(page);
  assert.equal(onTwo.length, 1, 'the cited row is boxed');
  const parts = viewer.getByRole('group', { name: 'Table parts' });
  assert.match(await parts.textContent(), /runs over pages 1–2/);
  assert.ok(await parts.getByRole('button', { name: 'Table part on page 2' }).isDisabled(), 'the shown part is current');

  // To page 1, where the table and its header start: that part is boxed, low on the page.
  await parts.getByRole('button', { name: 'Table part on page 1' }).click();
  await viewer.locator('#viewer-page', { hasText: 'page 1' }).waitFor();
  const onOne = await boxes(page);
  assert.equal(onOne.length, 1, 'the table part on page 1 is boxed');
  assert.ok(onOne[0].top > 0.5 && onOne[0].bottom < 0.95, `page 1's part is in the lower half: ${JSON.stringify(onOne[0])}`);
  await viewer.screenshot({ path: join(ARTIFACTS, 'continued-table-page1.png') });

  // Next page from there shows page 2's part of the table (the whole part, from the top).
  await viewer.getByRole('button', { name: 'Next page' }).click();
  await viewer.locator('#viewer-page', { hasText: 'page 2' }).waitFor();
  const next = await boxes(page);
  assert.equal(next.length, 1);
  assert.ok(next[0].top < 0.12 && next[0].bottom > 0.2 && next[0].bottom < 0.35, `page 2's part from the top: ${JSON.stringify(next[0])}`);

  // The offline report embeds the cited row's crop and the table's part on page 1.
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-html')]);
  const path = join(ARTIFACTS, 'continued-table-report.html');
  await download.saveAs(path);
  const offline = await context.newPage();
  await offline.goto('file://' + path);
  const figures = await offline.$$eval('figure.crop', (fs) => fs.map((f) => ({ caption: f.textContent, w: f.querySelector('img').naturalWidth, h: f.querySelector('img').naturalHeight })));
  const cited = figures.find((f) => f.caption === 'continued-table.pdf, p.2 — cited region');
  const part = figures.find((f) => f.caption === 'continued-table.pdf, p.1 — the cited table continues here');
  assert.ok(cited && part, JSON.stringify(figures));
  // Page 1's part is the 453 × 250 pt table plus 14 pt around it, at 1.5 px per point.
  assert.ok(Math.abs(part.w - (453 + 28) * 1.5) <= 2 && Math.abs(part.h - (250 + 28) * 1.5) <= 2, JSON.stringify(part));
  assert.ok(cited.w > 600 && cited.h < 80, `one row: ${JSON.stringify(cited)}`);
  await offline.screenshot({ path: join(ARTIFACTS, 'continued-table-report.png'), fullPage: true });
  await offline.close();
  assert.deepEqual(errors, []);
});
