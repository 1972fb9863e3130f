// The Settings dialog as a user meets it: every pipeline setting and ablation with the paper's
// default, values checked before they are kept, TOML export and import, persistence across a reload,
// and "Test connection" against the mock (success, then a rejected key).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startAll, launch, openApp, connect, pdf, ARTIFACTS } from './harness.mjs';

const KEY = 'sk-test-settings-0123456789';
let env;

before(async () => { env = await startAll(['--require-key', KEY]); });
after(async () => { await env?.stop(); });

const value = (page, path) => page.inputValue(`#setting-${path.replace(/\./g, '-')}`);
async function setValue(page, path, v) {
  const sel = `#setting-${path.replace(/\./g, '-')}`;
  await page.fill(sel, v);
  await page.press(sel, 'Tab'); // change fires on leaving the field
}

test('every setting is offered with the paper default, checked, exported, imported and kept', async () => {
  const { page, errors } = await openApp(env.context, env.site.url);
  await page.click('#settings');
  await page.getByRole('dialog', { name: 'Settings' }).waitFor();
  // Connection fields by their accessible names.
  for (const name of ['Chat model', 'Vision model', 'Embedding model', 'API key']) {
    assert.equal(await page.getByLabel(name, { exact: true }).count(), 1, `a field labelled ${name}`);
  }
  // The paper's numbers, one field each, and every ablation.
  assert.equal(await value(page, 'pipeline.fast_path_threshold'), '0.75');
  assert.equal(await value(page, 'pipeline.max_debate_rounds'), '2');
  assert.equal(await value(page, 'pipeline.entailment_threshold'), '0.5');
  assert.equal(await value(page, 'retrieval.dense_weight'), '0.65');
  assert.equal(await value(page, 'pipeline.hri_weights'), '[0.4,0.25,0.2,0.15]');
  for (const a of ['no_aea', 'no_cocv', 'no_arc', 'no_terminal_audit', 'vanilla_rag', 'hyde', 'fixed_rounds']) {
    assert.equal(await page.isChecked(`#setting-ablations-${a}`), false, `ablation ${a} off by default`);
  }
  const fields = await page.locator('#settings-dialog .setting').count();
  assert.ok(fields >= 60, `every setting has a field (${fields})`);
  assert.match(await page.textContent('#settings-changes'), /All settings are the paper's/);
  // The help is the setting's own documentation.
  assert.match(await page.textContent('.setting[data-path="ablations.no_cocv"] .help'), /custody/);

  // A change is kept and marked against the paper; a value out of range is refused with a reason.
  await setValue(page, 'pipeline.fast_path_threshold', '0.8');
  assert.equal(await page.textContent('.setting[data-path="pipeline.fast_path_threshold"] .default'), 'paper: 0.75');
  await setValue(page, 'pipeline.entailment_threshold', '1.5');
  assert.match(await page.textContent('#settings-error'), /pipeline\.entailment_threshold must be between 0 and 1/);
  await page.check('#setting-ablations-no_cocv');
  await page.waitForFunction(() => /2 setting\(s\) differ/.test(document.querySelector('#settings-changes').textContent));
  assert.equal(await page.locator('#settings-error').count(), 0, 'a valid change clears the error');

  // Export: TOML with the changes, never the key.
  await page.fill('#api-key', KEY);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#settings-export')]);
  const path = join(ARTIFACTS, dl.suggestedFilename());
  await dl.saveAs(path);
  const toml = await readFile(path, 'utf8');
  assert.match(toml, /fast_path_threshold = 0\.8/);
  assert.match(toml, /no_cocv = true/);
  assert.ok(!toml.includes(KEY), 'the key is not in the settings file');

  // Reset, then import a file: its values apply; a broken file is refused with the parser's reason.
  await page.click('#settings-reset');
  assert.match(await page.textContent('#settings-changes'), /All settings are the paper's/);
  assert.equal(await value(page, 'pipeline.fast_path_threshold'), '0.75');
  await page.setInputFiles('#settings-import', { name: 'mine.toml', mimeType: 'application/toml', buffer: Buffer.from('[pipeline]\nclaim_concurrency = 2\n\n[ablations]\nhyde = true\n') });
  await page.waitForFunction(() => document.querySelector('#setting-pipeline-claim_concurrency').value === '2');
  assert.equal(await page.isChecked('#setting-ablations-hyde'), true);
  await page.setInputFiles('#settings-import', { name: 'broken.toml', mimeType: 'application/toml', buffer: Buffer.from('[pipeline]\nno_such_setting = 1\n') });
  await page.waitForSelector('#settings-error');
  assert.match(await page.textContent('#settings-error'), /broken\.toml: settings file is not valid/);
  await page.screenshot({ path: join(ARTIFACTS, 'settings-1400x1000.png') });

  // Kept across a reload; the run summary says the method differs from the paper.
  await page.click('#settings-close');
  await page.reload();
  await page.waitForSelector('#drop-zone');
  assert.match(await page.textContent('#connection-summary'), /2 setting\(s\) changed/);
  await page.click('#settings');
  assert.equal(await value(page, 'pipeline.claim_concurrency'), '2');
  assert.equal(await page.isChecked('#setting-ablations-hyde'), true);
  assert.deepEqual(errors, []);
});

test('test connection reports success, then the rejected key in words a user can act on', async () => {
  const fresh = await launch();
  try {
    const { page, errors } = await openApp(fresh, env.site.url);
    await connect(page, env.mock.base, KEY);
    await page.click('#settings');
    await page.click('#test-connection');
    await page.waitForSelector('#connection-status');
    assert.match(await page.textContent('#connection-status'), /Connected: gpt-4o-mini at http:\/\/127\.0\.0\.1:\d+\/v1 answered a structured call/);
    await page.fill('#api-key', 'sk-wrong');
    await page.click('#test-connection');
    await page.waitForFunction(() => /check the API key/.test(document.querySelector('#connection-status')?.textContent || ''));
    assert.equal(await page.getAttribute('#connection-status', 'role'), 'alert');
    const calls = await env.mock.admin('/__admin/requests?path=chat');
    assert.ok(calls.length >= 2, 'each test is one real call');
    // The mock logs the 401 request; its body never holds the key.
    for (const c of calls) assert.ok(!String(c.body).includes(KEY));
    // The browser's console shows the failed request (401); nothing else.
    assert.ok(errors.every((e) => /401|Unauthorized/.test(e)), errors.join('\n'));
  } finally {
    await fresh.close();
  }
});

test('the viewer draws pages within the work budget the user set, and names the setting to raise', async () => {
  const AMCOR = 'AMCOR_2022_8K_dated-2022-07-01.pdf';
  const row = `.doc[data-name="${AMCOR}"]`;
  const fresh = await launch();
  try {
    const { page, errors } = await openApp(fresh, env.site.url);
    await page.click('#settings');
    await setValue(page, 'ingest.max_page_operators', '300');
    await page.click('#settings-close');
    await page.setInputFiles('#file-input', pdf(AMCOR));
    await page.waitForSelector(`${row} .status.ready`, { timeout: 60000 });
    // Reading was cut too, and the row says so, naming the page and the setting.
    assert.match(await page.textContent(`${row} .doc-warnings summary`), /^\d+ warning\(s\)$/);
    await page.click(`${row} .doc-warnings summary`);
    assert.match(await page.textContent(`${row} .doc-warnings li >> nth=0`),
      /AMCOR_2022_8K_dated-2022-07-01\.pdf page 1: the page's content is beyond the per-page work budget .*ingest\.max_page_operators = 300/);
    await page.screenshot({ path: join(ARTIFACTS, 'doc-warnings.png') });
    await page.click(`${row} .view-doc`);
    await page.waitForSelector('#page-unavailable', { timeout: 60000 });
    assert.match(await page.textContent('#page-unavailable'),
      /page 1 is too complex to draw: the page's content is beyond the per-page work budget \(at least \d+ operators .*ingest\.max_page_operators = 300, .*\); raise ingest\.max_page_operators and ingest\.max_page_content_bytes in Settings to draw it/);

    // Raised, the same page is drawn.
    await page.click('#settings');
    await setValue(page, 'ingest.max_page_operators', '2000000');
    await page.click('#settings-close');
    await page.click(`${row} .view-doc`);
    await page.waitForSelector('#page-image', { timeout: 60000 });
    assert.equal(await page.locator('#page-unavailable').count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await fresh.close();
  }
});
