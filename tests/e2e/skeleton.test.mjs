// The walking skeleton, as a user would do it: open the static site, add PDFs, ask, read the
// cited answer, open the citation. Real worker, real index, real pipeline, mock model over HTTP.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startAll, openApp, connect, pdf, ARTIFACTS } from './harness.mjs';

const KEY = 'sk-test-e2e-0123456789';
const JNJ = 'JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf';
let site, mock, context, env;

before(async () => {
  env = await startAll(['--require-key', KEY]);
  ({ site, mock, context } = env);
});
after(async () => { await env?.stop(); });

test('dropped 8-K is indexed and a question gets an answer citing its page', async () => {
  const { page, errors } = await openApp(context, site.url);
  await connect(page, mock.base, KEY);

  // Drag-and-drop: a real DataTransfer with the file's bytes, dispatched on the drop zone.
  const { readFile } = await import('node:fs/promises');
  const bytes = [...await readFile(pdf(JNJ))];
  await page.evaluate(({ bytes, name }) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(bytes)], name, { type: 'application/pdf' }));
    const zone = document.querySelector('#drop-zone');
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, { bytes, name: JNJ });
  // The file picker path too, with a second document.
  await page.setInputFiles('#file-input', pdf('AMCOR_2022_8K_dated-2022-07-01.pdf'));

  await page.waitForSelector(`.doc[data-name="${JNJ}"] .status.ready`, { timeout: 60000 });
  await page.waitForSelector('.doc[data-name="AMCOR_2022_8K_dated-2022-07-01.pdf"] .status.ready', { timeout: 60000 });
  const status = await page.textContent(`.doc[data-name="${JNJ}"] .status`);
  assert.match(status, /\d+ pages · \d+ passages/);

  await page.fill('#question', 'What is the amount of the cash proceeds that JnJ realised from the separation of Kenvue?');
  await page.click('#ask');
  await page.waitForSelector('#answer', { timeout: 120000 });

  const answer = await page.textContent('#answer');
  const cites = await page.$$eval('#answer .citation', (els) => els.map((e) => e.textContent));
  assert.ok(cites.length > 0, `answer has citations: ${answer}`);
  for (const c of cites) assert.match(c, /^\[[^\]]+\.pdf, p\.\d+\]$/);
  assert.ok(cites.some((c) => c.startsWith(`[${JNJ}, p.`)), `cites the 8-K: ${cites}`);
  assert.match(answer, /13\.2/, 'the answer carries the figure from the filing');

  // Clicking the citation shows that page's text with the cited passage marked.
  await page.click(`#answer .citation >> nth=0`);
  await page.waitForSelector('#viewer-page');
  const heading = await page.textContent('#viewer-page');
  assert.match(heading, /page \d+/);
  assert.ok(await page.isVisible('#viewer .page-text'));

  await page.screenshot({ path: join(ARTIFACTS, 'skeleton-answer.png'), fullPage: true });

  // The key went only into the Authorization header, never into a body.
  const log = await mock.admin('/__admin/requests');
  const chats = log.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions')); // not CORS preflights
  assert.ok(chats.length >= 4, `pipeline made real model calls (${chats.length})`);
  for (const r of log) assert.ok(!String(r.body).includes(KEY), 'API key leaked into a request body');
  assert.ok(chats.every((r) => JSON.stringify(r.headers).includes(KEY)), 'key sent as a header');
  await writeFile(join(ARTIFACTS, 'skeleton-requests.json'), JSON.stringify(log.map((r) => ({ path: r.path, role: JSON.parse(r.body || '{}').response_format?.json_schema?.name })), null, 1));
  assert.deepEqual(errors, []);
});

test('a file that is not a PDF shows an error on its row and the app keeps working', async () => {
  const { page } = await openApp(context, site.url);
  await page.setInputFiles('#file-input', { name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('this is not a pdf at all') });
  await page.waitForSelector('.doc[data-name="notes.pdf"] .doc-error');
  assert.match(await page.textContent('.doc[data-name="notes.pdf"] .doc-error'), /not a PDF/);
  // A truncated real PDF: either partially readable or a clear error — never a dead worker.
  const { readFile } = await import('node:fs/promises');
  const whole = await readFile(pdf(JNJ));
  await page.setInputFiles('#file-input', { name: 'cut.pdf', mimeType: 'application/pdf', buffer: whole.subarray(0, Math.floor(whole.length / 3)) });
  await page.waitForSelector('.doc[data-name="cut.pdf"] .status.ready, .doc[data-name="cut.pdf"] .doc-error', { timeout: 60000 });
  await page.setInputFiles('#file-input', pdf('AMCOR_2022_8K_dated-2022-07-01.pdf'));
  await page.waitForSelector('.doc[data-name="AMCOR_2022_8K_dated-2022-07-01.pdf"] .status.ready', { timeout: 60000 });
});

test('a wrong key and an unreachable server each give an actionable message', async () => {
  const { page } = await openApp(context, site.url);
  const ready = async () => {
    await page.setInputFiles('#file-input', pdf('AMCOR_2022_8K_dated-2022-07-01.pdf'));
    await page.waitForSelector('.doc .status.ready', { timeout: 60000 });
    await page.fill('#question', 'What was the key agenda of the 8-K filing?');
  };
  await connect(page, mock.base, 'sk-wrong');
  await ready();
  await page.click('#ask');
  await page.waitForSelector('#error', { timeout: 60000 });
  assert.match(await page.textContent('#error'), /rejected the key.*check the API key/s);

  // A new origin reloads the page (the CSP allows one API origin); the document is added again.
  await connect(page, 'http://127.0.0.1:9/v1', KEY);
  await ready();
  await page.click('#ask');
  await page.waitForFunction(() => /could not reach/.test(document.querySelector('#error')?.textContent || ''), null, { timeout: 90000 });
  await page.screenshot({ path: join(ARTIFACTS, 'server-down.png') });
});

test('a server that keeps failing ends in a failed run, not an abstention, that says once what failed', async () => {
  const { page } = await openApp(context, site.url);
  await connect(page, mock.base, KEY);
  await page.setInputFiles('#file-input', pdf(JNJ));
  await page.waitForSelector(`.doc[data-name="${JNJ}"] .status.ready`, { timeout: 60000 });
  // Every terminal-audit and custody call fails with HTTP 500, retries included.
  await mock.admin('/__admin/faults', { mode: '500', role: 'entailment' });
  try {
    await page.fill('#question', 'What is the amount of the cash proceeds that JnJ realised from the separation of Kenvue?');
    await page.click('#ask');
    await page.waitForSelector('#answer', { timeout: 120000 });
    // The model failed, not the documents: a Failed banner, never "Abstained".
    assert.match(await page.getAttribute('#answer', 'class'), /failed/);
    assert.doesNotMatch(await page.getAttribute('#answer', 'class'), /abstained/);
    assert.match(await page.textContent('#answer .badge'), /^Failed/);
    const lead = await page.textContent('#answer .answer-text');
    assert.match(lead, /^No answer: the model endpoint failed: \d+ of \d+ calls returned HTTP 500 \(server error\)/);
    assert.doesNotMatch(lead, /13\.2/, 'no unaudited figure is published');
    // The answer is shown once: no sentence of it appears twice, and a failed claim's line says so in place.
    const shown = (await page.$$eval('#answer .answer-para', (els) => els.map((e) => e.textContent.trim()))).filter((t) => t);
    assert.ok(shown.length > 0);
    const sentences = shown.flatMap((t) => t.split(/(?<=\.)\s+/));
    assert.equal(new Set(sentences).size, sentences.length, `a sentence is shown twice: ${JSON.stringify(sentences)}`);
    assert.equal((await page.textContent('#answer')).match(/HTTP 500/g).length, 1, 'the failure is named once');
    await page.locator('#answer .claim-link').first().click();
    const calls = page.locator('#claim-details table.calls');
    await calls.waitFor();
    assert.match(await calls.textContent(), /the API failed \(HTTP 500\)/, 'the failed calls and their reason are on record');
    await page.screenshot({ path: join(ARTIFACTS, 'server-failing.png') });
  } finally {
    await fetch(`${mock.origin}/__admin/reset`, { method: 'POST' });
  }
});
