// Issue 7 in the browser: a real chart page (Best Buy FY2019 10-K, page 25, the five-year total
// return graph) dropped with vision on flagged pages. The user sees which signal flagged the page and
// the estimate before anything is sent, confirms, sees the actual tokens after; a FACT_TREND question
// then cites the chart document with the chart's region; after a reload the same file costs no
// page_vision call. A second test cancels a slow run part-way. Render times (ms/page, headless
// Chromium, the worker's hayro at the configured 300 dpi) go to artifacts/vision-render.json.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, mkdtemp, rename, rm } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAll, openApp, connect, pdf, ARTIFACTS } from './harness.mjs';

const KEY = 'sk-test-vision-0123456789';
const STEM = 'BESTBUY_2019_10K_p25';
const FILE = `${STEM}.pdf`;
const CHART_ID = `${STEM}-p1-chart-cv0`;
// The graph image on the page, points, origin top-left (as in cli/tests/vision_e2e.rs).
const CHART_BOX = [75.888, 89.496, 536.112, 369.072];
const QUESTION = "What was the trend in Best Buy's cumulative total return compared with the S&P 500 from 2014 to 2019?";
let env, dir;
const render = { unit: 'ms per page rendered by the worker (hayro, wasm release build) at 300 dpi in headless Chromium, in render order' };

before(async () => {
  env = await startAll(['--require-key', KEY]);
  // One real page cut from the filing with poppler's pdfseparate (scripts/setup.sh installs it).
  dir = await mkdtemp(join(tmpdir(), 'clair-vision-'));
  execFileSync('pdfseparate', ['-f', '25', '-l', '25', pdf('BESTBUY_2019_10K.pdf'), join(dir, 'p%d.pdf')]);
  await rename(join(dir, 'p25.pdf'), join(dir, FILE));
});
after(async () => {
  await env?.stop();
  await writeFile(join(ARTIFACTS, 'vision-render.json'), JSON.stringify(render, null, 1));
  if (dir) await rm(dir, { recursive: true, force: true });
});

const visionCalls = async () => (await env.mock.admin('/__admin/requests?role=page_vision')).length;

async function chooseMode(page, mode) {
  await page.getByRole('combobox', { name: /Vision/ }).selectOption(mode);
}

async function addFile(page, path, name) {
  await page.getByLabel('Add PDFs', { exact: true }).setInputFiles(path);
  await page.waitForSelector(`.doc[data-name="${name}"] .status.ready`, { timeout: 120000 });
}

/** The render times the result line carries (ms per page, as measured in the worker). */
async function renderTimes(row) {
  const list = await row.locator('.vision-done').getAttribute('data-render-list');
  return list ? list.split(',').map(Number) : [];
}

test('flagged chart page: signals and estimate first, run, trend question cites the chart region, reload costs nothing', async () => {
  const { page, errors } = await openApp(env.context, env.site.url);
  await connect(page, env.mock.base, KEY);
  await chooseMode(page, 'flagged');
  await addFile(page, join(dir, FILE), FILE);
  const row = page.locator(`.doc[data-name="${FILE}"]`);
  assert.match(await row.locator('.status.ready').textContent(), /1 pages flagged for vision \(chart 1, image 1, garbled 0\)/);

  // Before any call: the plan with the page's signals and the estimate, and a button to confirm.
  const plan = row.locator('.vision-plan');
  await plan.waitFor({ timeout: 60000 });
  const planText = await plan.textContent();
  assert.match(planText, /Vision \(flagged pages\): 1 of 1 pages flagged/);
  assert.match(planText, /1 page\(s\) to send, 0 cached\. Estimate: 1 call\(s\) \(up to 3 with table consensus\), ~\d+ input \+ ~1200 output tokens, \$0\.\d{4} \(up to \$0\.\d{4}\)/);
  assert.equal(await row.locator('.vision-pages li').first().textContent(), 'p.1: chart, image');
  assert.equal(await row.getByRole('status').count(), 1, 'the vision line is a status region');
  assert.equal(await visionCalls(), 0, 'nothing is sent before the user confirms');

  await row.getByRole('button', { name: 'Read flagged pages' }).click();
  const done = row.locator('.vision-done');
  await done.waitFor({ timeout: 120000 });
  const doneText = await done.textContent();
  assert.match(doneText, /read 1 page\(s\) \(0 from cache\), 1 chart\(s\)\. Actual: 1 call\(s\), \d+ input \+ \d+ output tokens, \$0\.\d{4}\./, doneText);
  assert.match(doneText, /Rendered 1 page\(s\) at 300 dpi, \d+ ms\/page/);
  assert.equal(await visionCalls(), 1, 'one page_vision call: the page has native tables, so no consensus pass');
  const sent = (await env.mock.admin('/__admin/requests?role=page_vision'))[0];
  assert.ok(sent.body.includes('data:image/png;base64,iVBOR'), 'the rendered page travels as a PNG data URL');
  assert.match(await row.locator('.status.ready').textContent(), /1 read by vision/);
  render.flagged_chart_page_300dpi_ms = await renderTimes(row);

  // A FACT_TREND question: its citation is the chart document, boxed at the chart's region.
  await page.getByRole('textbox', { name: 'Question' }).fill(QUESTION);
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await page.getByRole('region', { name: 'Answer' }).waitFor({ timeout: 180000 });
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  const path = join(ARTIFACTS, 'vision-run.json');
  await dl.saveAs(path);
  const run = JSON.parse(await readFile(path, 'utf8'));
  const claim = run.claims.find((c) => c.claim_type === 'FACT_TREND');
  assert.ok(claim, `a FACT_TREND claim: ${run.claims.map((c) => c.claim_type)}`);
  const chartNodes = claim.evidence.filter((e) => e.node.locator?.doc_id === CHART_ID).map((e) => e.node.node_id);
  assert.ok(chartNodes.length > 0, `the chart document is evidence: ${JSON.stringify(claim.evidence.map((e) => e.node.locator?.doc_id))}`);
  const citations = run.answer.lines.flatMap((l) => l.citations);
  const at = citations.findIndex((c) => chartNodes.includes(c.node_id));
  assert.ok(at >= 0, `the answer cites the chart: ${JSON.stringify(run.answer)}`);
  const box = citations[at].bboxes[0];
  box.forEach((v, k) => assert.ok(Math.abs(v - CHART_BOX[k]) < 1, `cited box ${box} is the chart ${CHART_BOX}`));
  // In the viewer: that citation opens the page with one box over the chart (upper half of the page).
  // The citation stands in the answer text as its label; a label shared by several regions of
  // one page outlines each of them, so the chart's box is among those drawn.
  const label = `[${citations[at].source}, p.${citations[at].page}]`;
  await page.locator('#answer .citation', { hasText: label }).first().click();
  await page.waitForSelector('#viewer .cited-box');
  const rel = await page.evaluate((want) => {
    const img = document.querySelector('#page-image').getBoundingClientRect();
    const all = [...document.querySelectorAll('#viewer .cited-box')].map((b) => b.getBoundingClientRect())
      .map((b) => [(b.left - img.left) / img.width, (b.top - img.top) / img.height, (b.right - img.left) / img.width, (b.bottom - img.top) / img.height]);
    const d = (r) => r.reduce((s, v, k) => s + Math.abs(v - want[k]), 0);
    return all.sort((a, b) => d(a) - d(b))[0];
  }, [CHART_BOX[0] / 612, CHART_BOX[1] / 792, CHART_BOX[2] / 612, CHART_BOX[3] / 792]);
  const want = [CHART_BOX[0] / 612, CHART_BOX[1] / 792, CHART_BOX[2] / 612, CHART_BOX[3] / 792];
  rel.forEach((v, k) => assert.ok(Math.abs(v - want[k]) < 0.02, `box on the image ${rel} is the chart ${want}`));
  await page.locator('#viewer').screenshot({ path: join(ARTIFACTS, 'vision-chart-citation.png') });

  // Reload: the file comes back with its vision documents; dropping it again pays nothing.
  const before = await visionCalls();
  await page.reload();
  await page.waitForSelector(`.doc[data-name="${FILE}"] .status.ready`, { timeout: 60000 });
  assert.match(await page.locator(`.doc[data-name="${FILE}"] .status.ready`).textContent(), /1 read by vision/);
  await addFile(page, join(dir, FILE), FILE);
  const again = page.locator(`.doc[data-name="${FILE}"] .vision-plan`);
  await again.waitFor({ timeout: 60000 });
  assert.match(await again.textContent(), /all 1 page\(s\) were read before \(cached\) — no call needed, cost \$0/);
  assert.equal(await page.locator(`.doc[data-name="${FILE}"]`).getByRole('button', { name: 'Read flagged pages' }).count(), 0);
  assert.equal(await visionCalls(), before, 'a reload and a re-drop make no page_vision call');
  assert.deepEqual(errors, []);
});

test('every page of a 4-page filing, cancelled after the first slow call: the rest is not sent', async () => {
  const name = 'FOOTLOCKER_2022_8K_dated-2022-05-20.pdf';
  await env.mock.admin('/__admin/faults', { mode: 'slow', role: 'page_vision', count: 10, delay_ms: 2500 });
  const { page, errors } = await openApp(env.context, env.site.url);
  await connect(page, env.mock.base, KEY);
  await chooseMode(page, 'all');
  await addFile(page, pdf(name), name);
  const row = page.locator(`.doc[data-name="${name}"]`);
  const plan = row.locator('.vision-plan');
  await plan.waitFor({ timeout: 60000 });
  assert.match(await plan.textContent(), /Vision \(every page\): 1 of 4 pages flagged .* 4 page\(s\) to send, 0 cached\. Estimate: 4 call\(s\)/);
  const before = await visionCalls();
  await row.getByRole('button', { name: 'Read every page' }).click();
  await row.locator('.vision-status', { hasText: '1 call(s) finished' }).waitFor({ timeout: 60000 });
  await row.getByRole('button', { name: 'Cancel vision' }).click();
  const done = row.locator('.vision-done');
  await done.waitFor({ timeout: 60000 });
  const text = await done.textContent();
  assert.match(text, /Cancelled: [1-3] page\(s\) not sent\./, text);
  const sent = (await visionCalls()) - before;
  assert.ok(sent >= 1 && sent < 4, `cancel stops further calls (${sent} of 4 sent)`);
  render.every_page_4_page_filing_300dpi_ms = await renderTimes(row);
  await env.mock.admin('/__admin/reset');
  assert.deepEqual(errors.filter((e) => !/aborted|AbortError/i.test(e)), []);
});
