// One question asked of a real model from the browser: the app served from dist/, the base URL in
// Settings pointed at the project's local server (tests/local-llm/server.mjs: SmolLM2-135M on the
// CPU, installed on first run by scripts/local-llm.sh), no API key, the bounded settings of
// tests/local-llm/local.toml imported as a user would, a real earnings release uploaded. The small
// model is weak, so the verdicts are whatever they are; what must hold is that its answers flow
// through every phase and the run finishes with readable verdicts and an export that is valid
// against core/src/export/run.schema.json. When the model's answers were unusable (cut off at their
// cap after the larger retry), the run is Failed, saying what failed — never an abstention.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveDist, launch, openApp, pdf, textMatching, ROOT, ARTIFACTS } from './harness.mjs';
import { startLocalLlm } from '../local-llm/start.mjs';

const ULTA = 'ULTABEAUTY_2023Q4_EARNINGS.pdf';
const QUESTION = "What were Ulta Beauty's net sales in the fourth quarter of fiscal 2022?";
let site, llm, context, problems, summary;

before(async () => {
  // One llama.cpp thread: Chromium shares the machine, and llama.cpp's threads wait for each
  // other by spinning, so a second thread stalls whenever the page takes a core.
  llm = await startLocalLlm(['--threads', '1', '--seed', '1']);
  // After the install: the export check uses the validator installed with the server.
  ({ problems, summary } = await import('../local-llm/check-run.mjs'));
  site = await serveDist();
  context = await launch();
});
after(async () => {
  await context?.close();
  await site?.close();
  await writeFile(join(ARTIFACTS, 'local-llm-server.log'), llm?.log() ?? '');
  await llm?.stop();
});

test('a question asked of the local model finishes with readable verdicts and a valid ledger', { timeout: 15 * 60 * 1000 }, async (t) => {
  const { page, errors } = await openApp(context, site.url);

  // Settings: import the local-model settings file, then point the base URL at the running server
  // (its port is chosen at start). A new API origin reloads the page (one origin in the CSP).
  await page.click('#settings');
  await page.setInputFiles('#settings-import', { name: 'local.toml', mimeType: 'application/toml', buffer: await readFile(join(ROOT, 'tests/local-llm/local.toml')) });
  await page.waitForFunction(() => document.querySelector('#setting-pipeline-max_claims')?.value === '1');
  await page.fill('#base-url', llm.base);
  assert.equal(await page.inputValue('#chat-model'), 'SmolLM2-135M-Instruct.Q4_1', 'the model name came with the file');
  assert.equal(await page.inputValue('#api-key'), '', 'no key for a local server');
  await Promise.all([page.waitForEvent('load'), page.click('#settings-close')]);
  await page.waitForSelector('#drop-zone');
  await textMatching(page, '#connection-summary', new RegExp(`SmolLM2-135M-Instruct\\.Q4_1 at ${llm.origin.replace(/\./g, '\\.')} · no key`));

  await page.getByLabel('Add PDFs', { exact: true }).setInputFiles(pdf(ULTA));
  await page.waitForSelector(`.doc[data-name="${ULTA}"] .status.ready`, { timeout: 120000 });
  await page.getByRole('textbox', { name: 'Question' }).fill(QUESTION);
  const t0 = Date.now();
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  // Finished: the answer region, or the error banner a run that stopped shows.
  await page.waitForSelector('#answer, #error', { timeout: 14 * 60 * 1000 });
  const askMs = Date.now() - t0;
  await page.screenshot({ path: join(ARTIFACTS, 'local-llm-answer.png'), fullPage: true });
  if (await page.isVisible('#error')) assert.fail(`the run stopped: ${await page.textContent('#error')}`);

  const answer = page.getByRole('region', { name: 'Answer' });
  const badge = await answer.locator('.badge').textContent();
  assert.match(badge, /^(Abstained|Partial answer|Every published claim passed|Failed)/);
  if (badge.startsWith('Failed')) assert.match(badge, /model|cut off|failed/i, 'a failed run says what failed');
  assert.ok((await answer.locator('.answer-text').textContent()).trim().length > 0, 'an answer text (or the abstention)');
  const verdicts = await answer.locator('.claims .verdict').allTextContents();
  assert.ok(verdicts.length >= 1, 'at least one claim');
  for (const v of verdicts) assert.match(v, /^(StronglySupported|Supported|InsufficientEvidence|Unaudited)$/);
  assert.match(await answer.locator('.totals').textContent(), /^\d+ model calls · \d+ tokens · \$0\.0000$/, 'a local model is priced at nothing');

  // The claim panel says how it was checked, with the calls the real model answered.
  await answer.locator('.claim-link').first().click();
  const panel = page.getByRole('region', { name: 'Claim details' });
  const text = await panel.textContent();
  assert.match(text, /Verdict(StronglySupported|Supported|InsufficientEvidence|Unaudited)/);
  assert.match(text, /Coverage A\(c\)\d\.\d\d/);
  assert.ok(await panel.locator('.calls tbody tr').count() >= 1, 'one row per model call');
  await panel.screenshot({ path: join(ARTIFACTS, 'local-llm-claim-panel.png') });

  // The export is a valid run: the same check as the CLI's (tests/local-llm/check-run.mjs).
  await answer.scrollIntoViewIfNeeded();
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  const path = join(ARTIFACTS, 'local-llm-run.json');
  await download.saveAs(path);
  const run = JSON.parse(await readFile(path, 'utf8'));
  assert.deepEqual(problems(run), []);
  assert.deepEqual(run.claims.map((c) => c.label), verdicts, 'the page shows the exported verdicts');
  const summed = run.calls.reduce((a, c) => a + c.latency_ms, 0);
  for (const line of summary(run)) t.diagnostic(line);
  t.diagnostic(`asked in ${(askMs / 1000).toFixed(1)} s wall; model calls ${(summed / 1000).toFixed(1)} s summed`);
  await writeFile(join(ARTIFACTS, 'local-llm-timings.json'), JSON.stringify({ ask_ms: askMs, summed_call_ms: summed, calls: run.calls.length, failed_calls: run.totals.failed_calls }, null, 1));
  assert.deepEqual(errors, []);
});
