// The corpus persists across reloads (issue: "corpus persists across reloads"): a dropped 8-K is
// kept in the browser's IndexedDB, comes back after a reload still searchable and askable, is not
// parsed again when dropped again, and is gone for good once removed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, openApp, connect, pdf, ARTIFACTS } from './harness.mjs';

const KEY = 'sk-test-e2e-persist';
const JNJ = 'JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf';
const row = `.doc[data-name="${JNJ}"]`;
let site, mock, context, env;

before(async () => {
  env = await startAll(['--require-key', KEY]);
  ({ site, mock, context } = env);
});
after(async () => { await env?.stop(); });

test('a dropped 8-K survives a reload, still answers, is not re-ingested when dropped again, and removal is permanent', async () => {
  const { page, errors } = await openApp(context, site.url);
  await page.setInputFiles('#file-input', pdf(JNJ));
  await page.waitForSelector(`${row} .status.ready`, { timeout: 60000 });
  const first = await page.textContent(`${row} .status.ready`);

  // Reload: the worker restores the document from IndexedDB before it says Ready.
  await page.reload();
  await page.waitForSelector(`${row} .status.ready`, { timeout: 60000 });
  assert.equal(await page.textContent(`${row} .status.ready`), first, 'same pages, passages and tables');
  assert.match(await page.textContent(`${row} .doc-note`), /restored/);
  assert.equal(await page.$('#store-notice'), null, 'a healthy store restores silently');

  // Askable: the restored index answers with a citation into the 8-K.
  await connect(page, mock.base, KEY); // a new API origin reloads the page (CSP): restored once more
  await page.waitForSelector(`${row} .status.ready`, { timeout: 60000 });
  await page.fill('#question', 'What is the amount of the cash proceeds that JnJ realised from the separation of Kenvue?');
  await page.click('#ask');
  await page.waitForSelector('#answer', { timeout: 120000 });
  const cites = await page.$$eval('#answer .citation', (els) => els.map((e) => e.textContent));
  assert.ok(cites.some((c) => c.startsWith(`[${JNJ}, p.`)), `cites the restored 8-K: ${cites}`);
  assert.match(await page.textContent('#answer'), /13\.2/);

  // Dropping the same file again is answered from the library: no page-by-page parsing.
  await page.evaluate(() => {
    window.__parsing = false;
    new MutationObserver(() => { if (document.querySelector('.doc progress')) window.__parsing = true; })
      .observe(document.querySelector('#doc-list'), { childList: true, subtree: true });
  });
  await page.setInputFiles('#file-input', pdf(JNJ));
  await page.waitForFunction((sel) => /already in library/.test(document.querySelector(sel)?.textContent || ''), `${row} .doc-note`, { timeout: 60000 });
  assert.equal(await page.evaluate(() => window.__parsing), false, 'no parsing progress was shown');
  await page.screenshot({ path: join(ARTIFACTS, 'persistence-redrop.png') });

  // Removing it removes it from the store: gone after the next reload.
  await page.click(`${row} .remove`);
  await page.waitForFunction((sel) => !document.querySelector(sel), row);
  await page.waitForFunction(() => new Promise((resolve) => {
    const open = indexedDB.open('clair-fin', 1);
    open.onsuccess = () => {
      const count = open.result.transaction('files').objectStore('files').count();
      count.onsuccess = () => { open.result.close(); resolve(count.result === 0); };
    };
  }), null, { timeout: 10000 });
  await page.reload();
  await page.waitForSelector('#drop-zone');
  await page.waitForTimeout(2000); // time to restore, were anything left
  assert.equal(await page.$(row), null, 'removed document stays removed');
  assert.deepEqual(errors, []);
});

test('a damaged saved entry is dropped with a one-line notice and the app keeps working', async () => {
  // Plant a damaged entry in the store from a page of the same origin that does not run the app
  // (the site's 404 page), so no worker reads it before the app starts.
  const blank = await context.newPage();
  await blank.goto(site.url + 'no-app-here');
  await blank.evaluate(() => new Promise((resolve, reject) => {
    const open = indexedDB.open('clair-fin', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('files');
    open.onsuccess = () => {
      const tx = open.result.transaction('files', 'readwrite');
      tx.objectStore('files').put(new TextEncoder().encode('{"broken": true'), 'deadbeef');
      tx.oncomplete = () => { open.result.close(); resolve(); };
      tx.onerror = () => reject(tx.error);
    };
    open.onerror = () => reject(open.error);
  }));
  await blank.close();
  const { page, errors } = await openApp(context, site.url);
  await page.waitForSelector('#store-notice', { timeout: 60000 });
  assert.match(await page.textContent('#store-notice'), /could not be read.*drop the PDF/);
  await page.setInputFiles('#file-input', pdf('AMCOR_2022_8K_dated-2022-07-01.pdf'));
  await page.waitForSelector('.doc[data-name="AMCOR_2022_8K_dated-2022-07-01.pdf"] .status.ready', { timeout: 60000 });
  assert.deepEqual(errors, []);
});
