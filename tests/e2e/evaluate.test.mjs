// The Evaluate view as a researcher uses it: FinanceBench rows for a document in the library, two
// configurations side by side, the results table and plots, the report download — and, after a
// reload, the same file resumes without a single new model call.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startAll, openApp, connect, pdf, textMatching, CORPUS, ARTIFACTS } from './harness.mjs';

const KEY = 'sk-test-eval-0123456789';
const DOC = 'JOHNSON_JOHNSON_2023_8K_dated-2023-08-30';
let env;

before(async () => { env = await startAll(['--require-key', KEY]); });
after(async () => { await env?.stop(); });

async function dataset() {
  const lines = (await readFile(join(CORPUS, 'financebench/questions.jsonl'), 'utf8')).split('\n').filter((l) => l.trim());
  const mine = lines.filter((l) => l.includes(`"doc_name": "${DOC}"`)).slice(0, 2);
  const other = lines.find((l) => !l.includes(DOC)); // a document that is not in the library
  assert.equal(mine.length, 2);
  return Buffer.from([...mine, other].join('\n') + '\n');
}

async function addDocument(page) {
  await page.setInputFiles('#file-input', pdf(`${DOC}.pdf`));
  await page.waitForSelector(`.doc[data-name="${DOC}.pdf"] .status.ready`, { timeout: 60000 });
}

const chatCalls = async () => (await env.mock.admin('/__admin/requests?path=chat')).length;

test('two configurations over FinanceBench rows give the side-by-side table, plots and a report, and resume after a reload', async () => {
  const { page, errors } = await openApp(env.context, env.site.url);
  await connect(page, env.mock.base, KEY);
  await addDocument(page);
  await page.click('#evaluate-toggle');
  const data = await dataset();
  await page.setInputFiles('#eval-dataset', { name: 'dev3.jsonl', mimeType: 'application/json', buffer: data });
  await textMatching(page, '#eval-dataset-info', /dev3\.jsonl: 3 question\(s\)/);
  await page.check('#eval-config-no_cocv');
  await page.click('#eval-run');
  await page.waitForFunction(() => /Evaluation complete/.test(document.querySelector('#eval-status')?.textContent || ''), null, { timeout: 180000 });
  const status = await page.textContent('#eval-status');
  assert.match(status, /1 question run\(s\)|2 question run\(s\) need other PDFs/, status);
  assert.match(status, /Add these PDFs to the library/);

  const rows = page.locator('#eval-results tbody tr');
  assert.deepEqual(await rows.evaluateAll((rs) => rs.map((r) => r.dataset.config)), ['full', 'no_cocv'], 'paper table order');
  for (const cfg of ['full', 'no_cocv']) {
    const cells = await page.$$eval(`#eval-results tr[data-config="${cfg}"] td`, (tds) => tds.map((t) => t.textContent));
    assert.equal(Number(cells[0]) + Number(cells[1]), 2, `${cfg}: both questions of the library's document were run (${cells})`);
    const outcomes = cells.slice(2, 6).map(Number).reduce((a, b) => a + b, 0);
    assert.equal(outcomes, Number(cells[0]), `${cfg}: every scored question has one of the four outcomes`);
    assert.match(cells[11], /^(0\.\d{3}|1\.000|–)$/, `${cfg}: Hit@8 is a rate or undefined`);
  }
  const plots = await page.$$eval('#eval-plots figure', (fs) => fs.map((f) => f.dataset.file));
  assert.ok(plots.includes('plots/outcomes-by-config.svg') && plots.some((p) => p.startsWith('plots/reliability-')), plots.join(', '));
  assert.ok(await page.locator('#eval-plots svg').count() >= 3, 'the plots are drawn');
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#eval-report')]);
  const path = join(ARTIFACTS, dl.suggestedFilename());
  await dl.saveAs(path);
  const md = await readFile(path, 'utf8');
  for (const section of ['## Answer outcomes', '## CLAIR-Fin metrics (Table 3)', '## Retrieval', '## HRI calibration']) assert.ok(md.includes(section), `report has ${section}`);
  // The view's Table 3 is the report's, row for row (one core function draws both).
  const t3 = await page.$$eval('#eval-table3 tbody tr', (rs) => rs.map((r) => [...r.children].map((c) => c.textContent.trim()).join(' | ')));
  assert.equal(t3.length, 2);
  for (const row of t3) assert.ok(md.includes(`| ${row} |`), `the view's Table 3 row is in the report: ${row}`);
  await page.locator('#evaluate').screenshot({ path: join(ARTIFACTS, 'evaluate.png') });

  // Reload: the results come back with the file; Run has nothing left to ask the model.
  const before = await chatCalls();
  await page.reload();
  await page.waitForSelector('#drop-zone');
  await addDocument(page);
  await page.click('#evaluate-toggle');
  await page.setInputFiles('#eval-dataset', { name: 'dev3.jsonl', mimeType: 'application/json', buffer: data });
  await textMatching(page, '#eval-status', /4 result\(s\) from an earlier run of this file were restored/);
  await page.check('#eval-config-no_cocv');
  await page.click('#eval-run');
  await page.waitForFunction(() => /Evaluation complete/.test(document.querySelector('#eval-status')?.textContent || ''), null, { timeout: 60000 });
  assert.equal(await chatCalls(), before, 'a resumed evaluation makes no new model call');
  assert.equal(await page.locator('#eval-results tbody tr').count(), 2);
  assert.deepEqual(errors, []);
});

test('Stop ends a running evaluation within about a second, and the stopped question is not scored', async (t) => {
  const { page, errors } = await openApp(env.context, env.site.url);
  await connect(page, env.mock.base, KEY);
  await addDocument(page);
  await page.click('#evaluate-toggle');
  // One row of its own (a dataset this browser has kept no results for).
  const row = (await readFile(join(CORPUS, 'financebench/questions.jsonl'), 'utf8')).split('\n').filter((l) => l.includes(`"doc_name": "${DOC}"`))[2];
  await page.setInputFiles('#eval-dataset', { name: 'stop1.jsonl', mimeType: 'application/json', buffer: Buffer.from(row + '\n') });
  await textMatching(page, '#eval-dataset-info', /stop1\.jsonl: 1 question\(s\)/);
  // The planner's answer takes 30 s: the run is in a model call when Stop is pressed.
  await env.mock.admin('/__admin/faults', { mode: 'slow', role: 'planner', delay_ms: 30000, count: 1 });
  const planners = async () => (await env.mock.admin('/__admin/requests?role=planner')).length;
  const [calls, asked] = [await chatCalls(), await planners()];
  await page.click('#eval-run');
  await textMatching(page, '#eval-status', /Running 1 of 1/);
  // Stop while the planner's call is in flight (it is logged when it arrives).
  for (let i = 0; i < 100 && (await planners()) === asked; i++) await page.waitForTimeout(100);
  const t0 = Date.now();
  await page.click('#eval-stop');
  await textMatching(page, '#eval-status', /Stopped: 1 question run\(s\) left/, 10000);
  const took = Date.now() - t0;
  t.diagnostic(`stopped ${took} ms after the click`);
  assert.ok(took < 2000, `stopped within about a second (${took} ms)`);
  assert.equal(await page.isEnabled('#eval-run'), true, 'Run is offered again');
  assert.equal(await page.locator('#eval-results').count(), 0, 'a stopped question is not a result');
  assert.ok((await chatCalls()) - calls <= 1, 'nothing is asked after the call Stop aborted');
  await fetch(env.mock.origin + '/__admin/faults', { method: 'DELETE' });
  assert.deepEqual(errors.filter((e) => !/aborted|AbortError/i.test(e)), []);
  await page.close();
});
