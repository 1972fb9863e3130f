// Issue 3 deliverable 5: a panic in wasm aborts the whole worker instance (catch_unwind cannot help
// there). The app must survive it: restart the worker, report the file, keep every other document.
// The crashing input is a real PDF that makes a parser dependency panic (tests/fixtures/crash/,
// found by the fuzz harness); natively the same panic is caught and costs a warning.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startAll, openApp, connect, pdf, ROOT, ARTIFACTS } from './harness.mjs';

const KEY = 'sk-test-e2e-crash';
const JNJ = 'JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf';
const AMCOR = 'AMCOR_2022_8K_dated-2022-07-01.pdf';
const CRASH = process.env.CLAIR_CRASH_FIXTURE || 'tests/fixtures/crash/worker-panic.pdf';
const CRASH_NAME = 'worker-panic.pdf';
let site, mock, context, env;

before(async () => {
  env = await startAll(['--require-key', KEY]);
  ({ site, mock, context } = env);
});
after(async () => { await env?.stop(); });

const row = (name) => `.doc[data-name="${name}"]`;

test('a file that crashes the worker is reported, the worker restarts, and every other document is kept', async () => {
  const { page, errors } = await openApp(context, site.url);
  await connect(page, mock.base, KEY);
  await page.setInputFiles('#file-input', pdf(AMCOR));
  await page.waitForSelector(`${row(AMCOR)} .status.ready`, { timeout: 60000 });

  // One drop: the crashing file first, a good filing after it.
  const crash = await readFile(join(ROOT, CRASH));
  const jnj = await readFile(pdf(JNJ));
  await page.setInputFiles('#file-input', [
    { name: CRASH_NAME, mimeType: 'application/pdf', buffer: crash },
    { name: JNJ, mimeType: 'application/pdf', buffer: jnj },
  ]);
  await page.waitForSelector(`${row(CRASH_NAME)} .doc-error`, { timeout: 60000 });
  const reason = await page.textContent(`${row(CRASH_NAME)} .doc-error`);
  assert.match(reason, /crashed on this request \(.+, at .+:\d+\); it was restarted and documents already indexed are kept/);
  // The file after it is read by the new worker; the one before it is still there, once.
  await page.waitForSelector(`${row(JNJ)} .status.ready`, { timeout: 90000 });
  assert.match(await page.textContent(`${row(AMCOR)} .status`), /\d+ pages · \d+ passages/);
  assert.equal(await page.locator(row(AMCOR)).count(), 1);
  await page.screenshot({ path: join(ARTIFACTS, 'crash-restarted.png'), fullPage: true });

  // The restarted worker answers from both documents: a question cites the filing read before the crash.
  await page.fill('#question', 'What is the amount of the cash proceeds that JnJ realised from the separation of Kenvue?');
  await page.click('#ask');
  await page.waitForSelector('#answer', { timeout: 120000 });
  const cites = await page.$$eval('#answer .citation', (els) => els.map((e) => e.textContent));
  assert.ok(cites.some((c) => c.startsWith(`[${JNJ}, p.`)), `cites the 8-K: ${cites}`);

  // After a reload both good documents are restored; the crashing one was never stored.
  await page.reload();
  await page.waitForSelector(`${row(AMCOR)} .status.ready`, { timeout: 60000 });
  await page.waitForSelector(`${row(JNJ)} .status.ready`, { timeout: 60000 });
  assert.equal(await page.locator(row(CRASH_NAME)).count(), 0);

  // The only console errors are the worker's own report of the panic and the app's note of it.
  const unexpected = errors.filter((e) => !/document worker/.test(e) && !/RuntimeError: unreachable/.test(e));
  assert.deepEqual(unexpected, []);
  assert.ok(errors.some((e) => /document worker stopped: the document worker crashed/.test(e)), `the crash was logged: ${errors.join('\n')}`);
});
