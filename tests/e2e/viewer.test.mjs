// The page viewer's section list: a report with an outline can be walked by its sections (the
// outline titles ingestion attached to its pages, read back from the library); the section the
// shown page falls in is selected as the user pages through. A filing without an outline is
// walked by its Item headings; a release with neither has no list.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { startAll, openApp, pdf, ARTIFACTS, row } from './harness.mjs';

const OUTLINED = 'AMCOR_2023Q4_EARNINGS.pdf';
const FILING = 'AMCOR_2022_8K_dated-2022-07-01.pdf';
const PLAIN = 'JOHNSON_JOHNSON_2022Q4_EARNINGS.pdf';
let env;

before(async () => { env = await startAll(); });
after(async () => { await env?.stop(); });
const selected = (page) => page.$eval('#viewer-sections', (s) => s.options[s.selectedIndex].textContent);

test('a report is walked by its outline and a filing by its items in the viewer; a release with neither has no section list', async () => {
  const { page, errors } = await openApp(env.context, env.site.url);
  await page.setInputFiles('#file-input', [pdf(OUTLINED), pdf(FILING), pdf(PLAIN)]);
  for (const f of [OUTLINED, FILING, PLAIN]) await page.waitForSelector(`${row(f)} .status.ready`, { timeout: 60000 });

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

  // The 8-K has no outline: its Item heading is its section, from the page it starts on.
  await page.click(`${row(FILING)} .view-doc`);
  await page.waitForFunction((p) => (document.querySelector('#viewer-page')?.textContent || '').startsWith(p), FILING);
  await page.waitForSelector('#viewer-sections');
  assert.equal(await selected(page), '(before the first section)', 'the cover page comes before the first item');
  await page.selectOption('#viewer-sections', { label: 'Item 9.01. Financial Statements and Exhibits (p. 2)' });
  await page.waitForFunction(() => /, page 2$/.test(document.querySelector('#viewer-page')?.firstChild?.textContent || ''));

  await page.click(`${row(PLAIN)} .view-doc`);
  await page.waitForFunction((p) => (document.querySelector('#viewer-page')?.textContent || '').startsWith(p), PLAIN);
  await page.waitForSelector('#page-image');
  assert.equal(await page.locator('#viewer-sections').count(), 0, 'no outline and no items, no section list');
  assert.deepEqual(errors, []);
});

test('a different PDF dropped under the name of the shown one replaces its page and its section list', async () => {
  const { page, errors } = await openApp(env.context, env.site.url);
  await page.setInputFiles('#file-input', pdf(OUTLINED));
  await page.waitForSelector(`${row(OUTLINED)} .status.ready`, { timeout: 60000 });
  await page.click(`${row(OUTLINED)} .view-doc`);
  await page.waitForSelector('#viewer-sections');
  await page.waitForFunction(() => /Highlights/.test(document.querySelector('#viewer .page-text')?.textContent || ''));
  assert.doesNotMatch(await page.textContent('#viewer .page-text'), /FOR IMMEDIATE RELEASE/);

  // Another company's release under this one's name: the shown page and the list follow the new file.
  const other = await readFile(pdf(PLAIN));
  await page.setInputFiles('#file-input', { name: OUTLINED, mimeType: 'application/pdf', buffer: other });
  await page.waitForSelector(`${row(OUTLINED)} .status.ready`, { timeout: 60000 });
  await page.waitForFunction(() => /FOR IMMEDIATE RELEASE/.test(document.querySelector('#viewer .page-text')?.textContent || ''), null, { timeout: 30000 });
  await page.waitForSelector('#page-image');
  assert.equal(await page.locator('#viewer-sections').count(), 0, 'the new file has no sections, so none of the old list is left over');
  assert.match(await page.textContent('#viewer-page'), new RegExp(`^${OUTLINED.replace('.', '\\.')}, page 1`));
  assert.deepEqual(errors, []);
});
