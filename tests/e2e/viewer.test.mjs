// The page viewer's section list: a report with an outline can be walked by its sections (the
// outline titles ingestion attached to its pages, read back from the library); the section the
// shown page falls in is selected as the user pages through. A PDF without an outline has no list.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, openApp, pdf, ARTIFACTS } from './harness.mjs';

const OUTLINED = 'AMCOR_2023Q4_EARNINGS.pdf';
const PLAIN = 'AMCOR_2022_8K_dated-2022-07-01.pdf';
let env;

before(async () => { env = await startAll(); });
after(async () => { await env?.stop(); });

const row = (name) => `.doc[data-name="${name}"]`;
const selected = (page) => page.$eval('#viewer-sections', (s) => s.options[s.selectedIndex].textContent);

test('a report with an outline is walked by section in the viewer; one without has no section list', async () => {
  const { page, errors } = await openApp(env.context, env.site.url);
  await page.setInputFiles('#file-input', [pdf(OUTLINED), pdf(PLAIN)]);
  await page.waitForSelector(`${row(OUTLINED)} .status.ready`, { timeout: 60000 });
  await page.waitForSelector(`${row(PLAIN)} .status.ready`, { timeout: 60000 });

  await page.click(`${row(OUTLINED)} .view-doc`);
  await page.waitForSelector('#viewer-sections');
  assert.equal(await selected(page), 'Highlights (p. 1)');
  const titles = await page.$$eval('#viewer-sections option', (os) => os.map((o) => o.textContent));
  assert.ok(titles.includes('Financial Results (p. 2)'), titles.join(' | '));

  // Jump to a section: its first page is shown, and it stays selected.
  await page.selectOption('#viewer-sections', { label: 'Financial Results (p. 2)' });
  await page.waitForFunction(() => /, page 2$/.test(document.querySelector('#viewer-page')?.firstChild?.textContent || ''));
  await page.waitForSelector('#page-image');
  assert.equal(await selected(page), 'Financial Results (p. 2)');
  // Paging back follows the sections.
  await page.click('button[aria-label="Previous page"]');
  await page.waitForFunction(() => /, page 1$/.test(document.querySelector('#viewer-page')?.firstChild?.textContent || ''));
  await page.waitForFunction(() => { const s = document.querySelector('#viewer-sections'); return s && s.options[s.selectedIndex].textContent === 'Highlights (p. 1)'; });
  await page.screenshot({ path: join(ARTIFACTS, 'viewer-sections.png') });

  await page.click(`${row(PLAIN)} .view-doc`);
  await page.waitForFunction((p) => (document.querySelector('#viewer-page')?.textContent || '').startsWith(p), PLAIN);
  await page.waitForSelector('#page-image');
  assert.equal(await page.locator('#viewer-sections').count(), 0, 'no outline, no section list');
  assert.deepEqual(errors, []);
});
