// A team library on a Milvus server, searched from the browser (issue 42): a filing ingested once
// with `clair ingest --store`, then in Chromium the "Library on a server" setting, a question
// answered against the mock model with citations to the server's file, the viewer saying the
// page is on the server until the same PDF is added here, and then drawing it.
//
// Needs a real Milvus: scripts/test.sh sets CLAIR_MILVUS (scripts/milvus.sh serve) for its
// Milvus step. Without it this test fails loudly: a library test that cannot reach its library
// must not pass.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { startAll, openApp, connect, pdf, textMatching, ROOT, ARTIFACTS } from './harness.mjs';

const KEY = 'sk-test-milvus-0123456789';
const JNJ = 'JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf';
const QUESTION = 'What is the amount of the cash proceeds that JnJ realised from the separation of Kenvue?';
const MILVUS = process.env.CLAIR_MILVUS;
const COLLECTION = `e2e_${process.pid}`;
let env;

before(async () => {
  assert.ok(MILVUS, '\n*** CLAIR_MILVUS is not set: start Milvus with scripts/milvus.sh serve and set CLAIR_MILVUS=milvus://127.0.0.1:PORT ***\n');
  const clair = ['release', 'debug'].map((p) => join(ROOT, 'target', p, 'clair')).find(existsSync);
  assert.ok(clair, 'the clair binary is built (cargo build -p clair-cli)');
  execFileSync(clair, ['ingest', pdf(JNJ), '--store', `${MILVUS.replace(/\/$/, '')}/${COLLECTION}`], { stdio: 'inherit' });
  env = await startAll();
});
after(async () => { await env?.stop(); });

test('a question searches the library on the server and cites its file; the page is drawn once the PDF is added here', async () => {
  const { page, errors } = await openApp(env.context, env.site.url);
  await connect(page, env.mock.base, KEY);

  // The setting: the server's address (the page reloads so its CSP allows it), the collection.
  const server = MILVUS.replace(/^milvus:\/\//, 'http://').replace(/\/$/, '');
  await page.click('#settings');
  await page.fill('#library-server', server);
  await page.dispatchEvent('#library-server', 'change');
  await page.fill('#library-collection', COLLECTION);
  await page.dispatchEvent('#library-collection', 'change');
  await Promise.all([page.waitForEvent('load'), page.click('#settings-close')]);
  await page.waitForSelector('#drop-zone');
  assert.equal(await page.evaluate(() => window.__clairCspLibrary), new URL(server).origin, 'the CSP allows the library');

  // Checking the library lists its file; the token is not in the settings the page exports.
  await page.click('#settings');
  await page.click('#library-test');
  const status = await textMatching(page, '#library-status', /file\(s\) in the library/, 30000);
  assert.match(status, new RegExp(`^1 file\\(s\\) in the library: ${JNJ.replace(/\./g, '\\.')}$`));
  await page.click('#settings-close');

  // No PDF in this browser: the answer comes from the server's file.
  assert.equal(await page.locator('.doc').count(), 0);
  await page.getByRole('textbox', { name: 'Question' }).fill(QUESTION);
  await page.click('#ask');
  const answer = page.getByRole('region', { name: 'Answer' });
  await answer.waitFor({ timeout: 120000 });
  assert.match(await answer.textContent(), /13\.2/);
  const cite = page.locator('#answer .citation').first();
  assert.match(await cite.getAttribute('title'), new RegExp(`^${JNJ.replace(/\./g, '\\.')}, page \\d+`), 'a citation to the server file');
  await textMatching(page, '#progress', /library on the server: 1 file\(s\); this browser: 0/);

  // Its page is not here: the viewer says so and shows the cited text.
  await cite.click();
  await textMatching(page, '#page-on-server', new RegExp(`${JNJ.replace(/\./g, '\\.')} is in the library on the server`), 30000);
  assert.ok(await page.locator('#viewer #cited').count() >= 1, 'the cited text is shown');
  await page.screenshot({ path: join(ARTIFACTS, 'milvus-page-on-server.png') });

  // The same PDF added here: the citation's page is drawn.
  await page.getByLabel('Add PDFs', { exact: true }).setInputFiles(pdf(JNJ));
  await page.waitForSelector(`.doc[data-name="${JNJ}"] .status.ready`, { timeout: 60000 });
  await cite.click();
  await page.waitForSelector('#page-image', { timeout: 30000 });
  assert.deepEqual(errors.filter((e) => !/Content Security Policy|Failed to load resource/.test(e)), []);
});

test('a collection that is not on the server is named in the error, never an empty answer', async () => {
  const { page } = await openApp(env.context, env.site.url);
  await page.click('#settings');
  await page.fill('#library-collection', 'no_such_collection');
  await page.dispatchEvent('#library-collection', 'change');
  await page.click('#library-test');
  await textMatching(page, '#library-status', /has no collection `no_such_collection`/, 30000);
  await page.click('#settings-close');
  await page.getByRole('textbox', { name: 'Question' }).fill(QUESTION);
  await page.click('#ask');
  await textMatching(page, '#error', /has no collection `no_such_collection`/, 30000);
  assert.equal(await page.getByRole('region', { name: 'Answer' }).count(), 0);
});
