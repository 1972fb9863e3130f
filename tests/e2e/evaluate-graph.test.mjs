// Graph-RAG in the Evaluate view (paper Table 2): the entity graph is extracted in the browser as
// `clair eval` extracts it — one `graph_extraction` call per chunk, only after the view has shown
// the estimate — and kept with the file in IndexedDB, so the next run and a reload extract nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startAll, openApp, connect, pdf, textMatching, CORPUS } from './harness.mjs';

const KEY = 'sk-test-graph-0123456789';
const DOC = 'JOHNSON_JOHNSON_2023_8K_dated-2023-08-30';
let env;

before(async () => { env = await startAll(['--require-key', KEY]); });
after(async () => { await env?.stop(); });

/** The FinanceBench rows about DOC, each as its own one-row dataset (a new file: nothing restored). */
async function rows() {
  const lines = (await readFile(join(CORPUS, 'financebench/questions.jsonl'), 'utf8')).split('\n').filter((l) => l.includes(`"doc_name": "${DOC}"`));
  assert.ok(lines.length >= 3, 'three questions about the document');
  return lines.slice(0, 3).map((l, i) => ({ name: `graph${i}.jsonl`, mimeType: 'application/json', buffer: Buffer.from(l + '\n') }));
}

const extractions = async () => (await env.mock.admin('/__admin/requests?role=graph_extraction')).length;
const chatCalls = async () => (await env.mock.admin('/__admin/requests?path=chat')).length;

async function addDocument(page) {
  await page.setInputFiles('#file-input', pdf(`${DOC}.pdf`));
  await page.waitForSelector(`.doc[data-name="${DOC}.pdf"] .status.ready`, { timeout: 60000 });
}

/** Open the Evaluate view with one dataset and only the graph_rag row ticked. */
async function chooseGraphRag(page, file) {
  await page.click('#evaluate-toggle');
  await page.setInputFiles('#eval-dataset', file);
  await textMatching(page, '#eval-dataset-info', new RegExp(`${file.name.replace('.', '\\.')}: 1 question`));
  await page.uncheck('#eval-config-full');
  await page.check('#eval-config-graph_rag');
}

const complete = (page) => page.waitForFunction(() => /Evaluation complete/.test(document.querySelector('#eval-status')?.textContent || ''), null, { timeout: 240000 });

/** The graph_rag row of the results table: n, failed, four outcomes, then the rates. */
async function graphRow(page) {
  const cells = await page.$$eval('#eval-results tr[data-config="graph_rag"] td', (tds) => tds.map((t) => t.textContent.trim()));
  assert.equal(cells.length, 19, `the row has every column: ${cells}`);
  return cells;
}

test('a graph_rag row extracts the entity graph after its estimate, has figures, and a second run and a reload extract nothing', async () => {
  const [first, second, third] = await rows();
  const { page, errors } = await openApp(env.context, env.site.url);
  await connect(page, env.mock.base, KEY);
  await addDocument(page);
  await chooseGraphRag(page, first);

  // The estimate comes first, before any model call.
  await page.click('#eval-run');
  const estimate = await textMatching(page, '#eval-graph-estimate', /(\d+) call\(s\) to make with gpt-4o-mini/, 60000);
  const planned = Number(estimate.match(/(\d+) call\(s\) to make/)[1]);
  assert.ok(planned > 0, estimate);
  assert.match(estimate, /0 cached/);
  assert.equal(await chatCalls(), 0, 'no model call before the user agrees');

  await page.click('#eval-graph-extract');
  await complete(page);
  assert.equal(await extractions(), planned, 'one graph_extraction call per chunk, as estimated');
  const cells = await graphRow(page);
  assert.deepEqual([cells[0], cells[1]], ['1', '0'], `scored, not failed: ${cells}`);
  assert.equal(cells.slice(2, 6).map(Number).reduce((a, b) => a + b, 0), 1, `one of the four outcomes: ${cells}`);
  assert.match(cells[6], /^(0\.000|1\.000)$/, `exact correctness is a figure: ${cells}`);
  assert.match(cells[12], /^(0\.\d{3}|1\.000)$/, `Hit@8 over Graph-RAG's own retrieval: ${cells}`);
  assert.match(cells[16], /^(0\.\d{3}|1\.000)$/, `RAGAS context precision over its contexts: ${cells}`);
  assert.equal(await page.locator('#eval-error').count(), 0);

  // A second run (another dataset file): no estimate to confirm, no extraction call.
  const before = await extractions();
  await page.setInputFiles('#eval-dataset', second);
  await textMatching(page, '#eval-dataset-info', /graph1\.jsonl: 1 question/);
  const chat = await chatCalls();
  await page.click('#eval-run');
  await complete(page);
  assert.equal(await page.locator('#eval-graph-estimate').count(), 0, 'everything is cached: nothing to confirm');
  assert.ok(await chatCalls() > chat, 'the question itself ran');
  assert.equal(await extractions(), before, 'a second run makes zero graph_extraction calls');
  assert.deepEqual((await graphRow(page)).slice(0, 2), ['1', '0']);

  // After a reload the answers come back from IndexedDB with the file.
  await page.reload();
  await page.waitForSelector(`.doc[data-name="${DOC}.pdf"] .status.ready`, { timeout: 60000 });
  await chooseGraphRag(page, third);
  await page.click('#eval-run');
  await complete(page);
  assert.equal(await page.locator('#eval-graph-estimate').count(), 0);
  assert.equal(await extractions(), before, 'after a reload too');
  assert.deepEqual((await graphRow(page)).slice(0, 2), ['1', '0']);
  assert.deepEqual(errors, []);
});
