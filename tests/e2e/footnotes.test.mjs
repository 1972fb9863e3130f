// Issue 3 deliverables 3–4 as a user meets them: a figure whose row is marked "(b)" is cited with the
// footnote printed under its table. JPMorgan's 2023 Q2 10-Q, p187: "Assets pledged at Federal
// Reserve banks and FHLBs(b) 621.8" and, under the table, "(b) As of June 30, 2023, included
// $23.7 billion of assets pledged to the FHLB …". The worker reads the note with the table; the
// citation boxes the row and the note on the rendered page, and the evidence shows the note.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, openApp, connect, pdf, ARTIFACTS } from './harness.mjs';

const KEY = 'sk-test-footnotes-0123456789';
const JPM = 'JPMORGAN_2023Q2_10Q.pdf';
let env;
before(async () => { env = await startAll(['--require-key', KEY]); });
after(async () => { await env?.stop(); });

test('a cited table row brings the footnote its mark points at, boxed on the page', async () => {
  const { site, mock, context } = env;
  const { page, errors } = await openApp(context, site.url);
  await page.setViewportSize({ width: 1280, height: 900 });
  await connect(page, mock.base, KEY);
  await page.getByLabel('Add PDFs', { exact: true }).setInputFiles(pdf(JPM));
  await page.waitForSelector(`.doc[data-name="${JPM}"] .status.ready`, { timeout: 120000 });
  await page.getByRole('textbox', { name: 'Question' }).fill('What were the assets pledged at Federal Reserve banks and FHLBs as of June 30, 2023?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  const answer = page.getByRole('region', { name: 'Answer' });
  await answer.waitFor({ timeout: 120000 });
  assert.match(await answer.textContent(), /621\.8/, 'the June 30, 2023 figure of the marked row');

  // The claim's evidence: the cell, with the note its row's mark points at shown under it.
  const panel = page.getByRole('region', { name: 'Claim details' });
  await page.locator('#answer .claim-link').first().click();
  await panel.locator('.evidence-item').first().waitFor();
  const cell = panel.locator('.evidence-item', { hasText: 'FHLBs(b) / June 30, 2023' }).first();
  assert.equal(await cell.count(), 1, (await panel.locator('.evidence-item').allTextContents()).join('\n---\n'));
  const notes = await cell.locator('.evidence-note').allTextContents();
  assert.equal(notes.length, 1, JSON.stringify(notes));
  assert.match(notes[0], /^\(b\) As of June 30, 2023, included \$23\.7 billion of assets pledged to the FHLB associated with the First Republic acquisition\.$/);
  await panel.screenshot({ path: join(ARTIFACTS, 'footnotes-claim-panel.png') });

  // The citation opens p187 with two boxes: the row, and the note under the table.
  const citation = page.locator('#answer .citation', { hasText: 'p.187]' }).first();
  await citation.click();
  const viewer = page.getByRole('region', { name: 'Page viewer' });
  await viewer.locator('#viewer-page', { hasText: 'page 187' }).waitFor();
  await page.waitForFunction(() => {
    const img = document.querySelector('#page-image');
    return img && img.complete && img.naturalWidth > 0;
  }, null, { timeout: 60000 });
  const boxes = await page.evaluate(() => {
    const img = document.querySelector('#page-image').getBoundingClientRect();
    return [...document.querySelectorAll('#viewer .cited-box')].map((b) => {
      const r = b.getBoundingClientRect();
      return { left: (r.left - img.left) / img.width, top: (r.top - img.top) / img.height, bottom: (r.bottom - img.top) / img.height };
    });
  });
  // Every region the answer cites on p187 under this label is outlined (the viewer outlines all
  // regions sharing a label): among them the row and the note under the table.
  assert.ok(boxes.length >= 2, `row and note boxed: ${JSON.stringify(boxes)}`);
  // The note (y ≈ 394–412 pt of 792) in the right-hand column, under a cited row there (≈ 300–320 pt).
  const note = boxes.find((b) => b.left > 0.5 && b.top > 0.45 && b.bottom < 0.56);
  assert.ok(note, `the note under the table is boxed: ${JSON.stringify(boxes)}`);
  assert.ok(boxes.some((b) => b !== note && b.left > 0.5 && b.bottom < note.top), `a cited row above the note: ${JSON.stringify(boxes)}`);
  await viewer.screenshot({ path: join(ARTIFACTS, 'footnotes-viewer.png') });
  assert.deepEqual(errors, []);
});
